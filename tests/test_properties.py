"""Random valid match logs: the engine never crashes, refusals change nothing, replay is deterministic,
and voiding the last event is the same as never having logged it.

Each step asks the match which event types make sense now (``Match.accepted_types``), picks one and
fills its fields with random valid values; `at` moves on by 0 to 25 seconds (often exactly 20).
"""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from matchstate import Match, RefusedEvent, Ruling
from matchstate.events import Context, check_event

TEAMS = ["Blue", "Red"]
KICKOFF = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)
ISO = "%Y-%m-%dT%H:%M:%S.%fZ"
SPEC_STATES = {"idle", "awarded", "placed", "play_called", "live", "choosing"}

# The event types of the match log spec, in its order.
SPEC_TYPES = ["match.start", "chukker.start", "chukker.end", "penalty.award", "knockin.award", "ball.place", "play",
              "dribble", "approach.abort", "ball.retee", "hit", "ball.stop", "ball.out", "goal", "position.improper",
              "player.return", "player.play", "card", "decide", "whistle", "void", "tick", "clock.stop", "clock.start",
              "match.end", "video.sync", "review.request", "review.outcome", "chukker.confirm"]

team = st.sampled_from(TEAMS)
player = st.integers(1, 4)
rarely = st.integers(0, 4).map(lambda n: n == 0)  # True one time in five
# What usually comes next in each state; drawn three times in four, so that logs reach "live" and "choosing".
USUAL_NEXT = {"idle": ["penalty.award", "knockin.award"], "awarded": ["ball.place", "play"], "placed": ["play"],
              "play_called": ["hit"], "choosing": ["decide"],
              "live": ["ball.out", "ball.stop", "goal", "whistle", "position.improper", "player.play"]}
yards = st.integers(0, 60) | st.floats(0, 60, allow_nan=False)


def spot(field_length: float) -> st.SearchStrategy[float]:
    return st.integers(1, int(field_length) - 1) | st.sampled_from([30, 40, 60, field_length - 60, 0.5])


def fields_of(kind: str, match: Match, seq: int) -> st.SearchStrategy[dict[str, Any]]:
    """A strategy for the fields (beyond type and at) of a valid event of this kind in this match."""
    field_length = match.info.get("field_length", 300) if match.info else 300
    strategies: dict[str, st.SearchStrategy[dict[str, Any]]] = {
        "match.start": st.fixed_dictionaries({
            "match": st.just("m-1"), "teams": st.just(TEAMS),
            "field_length": st.sampled_from([300, 250, 160]),
            "penalty3_defended": st.booleans(),
            "handicap_goals": st.fixed_dictionaries({}, optional={"Blue": st.integers(0, 5),
                                                                   "Red": st.integers(0, 5)}),
            "challenges": st.integers(0, 2)}),
        "chukker.start": st.fixed_dictionaries({"chukker": st.integers(1, 8)}),
        "chukker.end": st.fixed_dictionaries({"chukker": st.integers(1, 8)}),
        "penalty.award": st.sampled_from(["1", "2", "2", "2", "3", "4", "5a", "5a", "5b", "6"]).flatmap(
            lambda penalty: penalty_award(penalty, field_length)),
        "knockin.award": st.fixed_dictionaries({"to": team}),
        "ball.place": st.fixed_dictionaries({}, optional={"surface_altered": rarely, "dismounted": rarely}),
        "approach.abort": st.fixed_dictionaries({"how": st.sampled_from(["passed", "circled"])}),
        "hit": st.fixed_dictionaries({"player": player,
                                      "contact": st.sampled_from(["hit", "hit", "hit", "mishit", "miss"])},
                                     optional={"deliberate": rarely}),
        "ball.stop": st.fixed_dictionaries({"yards_to_goal": spot(field_length)}),
        "ball.out": st.fixed_dictionaries({"over": st.sampled_from(["backline", "sideline"])}),
        "goal": st.fixed_dictionaries({"team": team}, optional={"player": player}),
        "position.improper": st.fixed_dictionaries({"team": team}, optional={"prevented_goal": rarely}),
        "player.return": st.fixed_dictionaries({"team": team, "player": player, "closest_yards": yards,
                                                "on_field": st.booleans()}),
        "player.play": st.fixed_dictionaries({"team": team, "player": player, "passed_teammate": st.booleans(),
                                              "ball_travelled": yards, "passed_midfield": st.booleans()},
                                             optional={"prevented_goal": rarely}),
        "card": st.fixed_dictionaries({"team": team, "player": player,
                                       "colour": st.sampled_from(["yellow", "red"])}),
        "decide": st.fixed_dictionaries({"option": st.integers(1, 2)}),
        "void": st.fixed_dictionaries({"seq": st.integers(2, max(seq, 2)), "reason": st.just("scorer error")}),
        "video.sync": st.fixed_dictionaries({"clip": st.sampled_from(["cam-1.mp4", "cam-2.mp4"]),
                                             "clip_seconds": st.integers(0, 600)}),
        "review.request": st.fixed_dictionaries({"about": st.integers(2, max(seq, 2)),
                                                 "asked_by": st.sampled_from([*TEAMS, "umpire", "referee"])}),
        "review.outcome": st.fixed_dictionaries({"outcome": st.sampled_from(["stands", "overturned",
                                                                             "no-decision"])}),
        "chukker.confirm": st.fixed_dictionaries({"chukker": st.integers(1, 3),
                                                  "score": st.fixed_dictionaries({name: st.integers(0, 3)
                                                                                  for name in TEAMS})}),
    }
    return strategies.get(kind, st.just({}))


def penalty_award(penalty: str, field_length: float) -> st.SearchStrategy[dict[str, Any]]:
    required: dict[str, st.SearchStrategy[Any]] = {"penalty": st.just(penalty), "to": team}
    if penalty == "5a":
        required["yards_to_goal"] = spot(field_length)
    if penalty == "2":
        required["from"] = st.sampled_from(["center", "spot"])
        required["yards_to_goal"] = spot(field_length)
        required["card"] = rarely.map(lambda yellow: "yellow" if yellow else None)
    return st.fixed_dictionaries(required).map(lambda award: {k: v for k, v in award.items() if v is not None})


def snapshot(match: Match, at: Any = None) -> dict[str, Any]:
    """What a user sees of the match: its state, score and free hit, and at ``at`` (default: its last event's)
    its clock and the flags a goal would carry."""
    at = at or (match.events[-1]["at"] if match.events else KICKOFF)
    probe = check_event({"type": "goal", "at": at.isoformat(), "team": "Blue"}, Context(TEAMS))
    return {"seq": match.seq, "state": match.state, "score": dict(match.score),
            "free_hit": match.free_hit.to_json() if match.free_hit else None,
            "clock": match.clock.to_json(at), "flags_now": match.clock.flags(probe), "winner": match.winner}


def as_json(ruling: Ruling | None) -> dict[str, Any] | None:
    return ruling.to_json() if ruling is not None else None


def replayed(events: list[dict[str, Any]]) -> tuple[Match, list[dict[str, Any] | None]]:
    match = Match()
    rulings = [as_json(match.feed(event)) for event in events]
    return match, rulings


class RandomMatch(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.match = Match()
        self.events: list[dict[str, Any]] = []
        self.rulings: list[dict[str, Any] | None] = []
        self.clock = KICKOFF
        self.last_clock: dict[str, Any] | None = None

    def _feed(self, event: dict[str, Any], at: datetime) -> bool:
        before = snapshot(self.match)
        try:
            ruling = self.match.feed(event)
        except RefusedEvent:
            assert snapshot(self.match) == before, event
            return False
        self.events.append(event)
        self.rulings.append(as_json(ruling))
        self.clock = at
        self._played_never_decreases_within_a_chukker(event)
        return True

    def _played_never_decreases_within_a_chukker(self, event: dict[str, Any]) -> None:
        now = self.match.clock_after(self.match.seq)
        before, self.last_clock = self.last_clock, now
        if event["type"] in ("void", "chukker.start") or before is None or before.get("voided"):
            return
        if now["chukker"] is not None and now["chukker"] == before["chukker"]:
            assert now["played"] >= before["played"], (before, now)

    def _at(self, step: int) -> datetime:
        return self.clock + timedelta(milliseconds=step)

    @rule(data=st.data(),
          step=st.sampled_from([0, 1000, 2000, 20_000, 20_001, 120_000]) | st.integers(0, 25_000))
    def log_an_event(self, data: st.DataObject, step: int) -> None:
        accepted = self.match.accepted_types()
        usual = [kind for kind in USUAL_NEXT.get(self.match.state, []) if kind in accepted]
        kinds = usual if usual and self.match.info and data.draw(st.integers(0, 3), label="usual") > 0 else accepted
        kind = data.draw(st.sampled_from(kinds), label="type")
        fields = data.draw(fields_of(kind, self.match, self.match.seq), label="fields")
        at = self._at(step)
        self._feed({"type": kind, "at": at.strftime(ISO), **fields}, at)

    @rule(to=team, step=st.sampled_from([0, 1000, 20_000]))
    def a_penalty_2_with_the_defending_team_improperly_positioned(self, to: str, step: int) -> None:
        """A whole Penalty 2 that ends in the Umpire's choice, from wherever the match is."""
        if not self.match.info:
            return
        defending = TEAMS[1 - TEAMS.index(to)]
        steps: list[tuple[str, dict[str, Any]]] = [("penalty.award", {"penalty": "2", "to": to}), ("play", {}),
                                                   ("position.improper", {"team": defending}),
                                                   ("hit", {"player": 1, "contact": "hit"}), ("whistle", {})]
        for kind, fields in steps:
            at = self._at(step)
            self._feed({"type": kind, "at": at.strftime(ISO), **fields}, at)

    @rule(goals=st.lists(team, max_size=3), played=st.sampled_from([419_999, 420_000, 449_999, 450_000, 500_000]))
    def a_whole_chukker(self, goals: list[str], played: int) -> None:
        """A chukker from its start to its end, its goals spread over its time, past the bell or the horn."""
        if not self.match.info:
            return
        number = (self.match.clock.chukker or 0) + 1
        stretch = played // (len(goals) + 1)
        steps: list[tuple[str, dict[str, Any], int]] = [
            ("chukker.start", {"chukker": number}, 1000), *(("goal", {"team": scorer}, stretch) for scorer in goals),
            ("tick", {}, played - stretch * len(goals)), ("chukker.end", {"chukker": number}, 1)]
        for kind, fields, step in steps:
            at = self._at(step)
            self._feed({"type": kind, "at": at.strftime(ISO), **fields}, at)

    @rule(data=st.data())
    def an_event_that_makes_no_sense_now_is_refused(self, data: st.DataObject) -> None:
        refused = [kind for kind in SPEC_TYPES if not self.match.accepts(kind)]
        if not refused:
            return
        kind = data.draw(st.sampled_from(refused), label="refused type")
        fields = data.draw(fields_of(kind, self.match, self.match.seq), label="fields")
        before = snapshot(self.match)
        with pytest.raises(RefusedEvent):
            self.match.feed({"type": kind, "at": self._at(1000).strftime(ISO), **fields})
        assert snapshot(self.match) == before

    @rule()
    def void_the_last_event_is_as_if_it_was_never_logged(self) -> None:
        if self.match.seq < 2:
            return
        without, _ = replayed(self.events[:-1])
        void = {"type": "void", "at": self.clock.strftime(ISO), "seq": self.match.seq,
                "reason": "logged by mistake"}
        assert self._feed(void, self.clock), "a void of the last event is accepted"
        self.last_clock = {"voided": True}
        assert {k: v for k, v in snapshot(self.match).items() if k != "seq"} == \
            {k: v for k, v in snapshot(without, self.clock).items() if k != "seq"}

    @invariant()
    def state_is_one_of_the_six(self) -> None:
        assert self.match.state in SPEC_STATES

    @invariant()
    def accepted_types_are_the_spec_types_accepted_now(self) -> None:
        accepted = self.match.accepted_types()
        assert accepted, "some event always makes sense"
        assert accepted == [kind for kind in SPEC_TYPES if self.match.accepts(kind)]
        if self.match.state == "choosing" and self.match.review is None and not self.match.ended:
            assert set(accepted) == {"decide", "void", "tick", "card", "whistle", "clock.stop", "clock.start",
                                     "video.sync", "review.request", "chukker.confirm"}

    def teardown(self) -> None:
        if not self.events:
            return
        again, rulings = replayed(self.events)
        assert rulings == self.rulings
        assert snapshot(again) == snapshot(self.match)
        assert again.clocks == self.match.clocks and again.flags == self.match.flags


RandomMatch.TestCase.settings = settings(max_examples=200, stateful_step_count=40, deadline=None,
                                         suppress_health_check=[HealthCheck.too_slow])
test_random_valid_logs = RandomMatch.TestCase
