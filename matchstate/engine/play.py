"""A match's play as the events fold it: the free hit in progress, what waits on it, the score, the clock.

:class:`Play` is the machine's model; its private methods are the machine's conditions and
callbacks, named in ``engine.machine``. Everything an event can change is a field of the one
dataclass, so a checkpoint (:meth:`Play.copy`) cannot leave anything off.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from typing import Any

from ..events import BallOut, BallStop, CardShown, Decide, Event, GoalScored, Hit, KnockinAward, PenaltyAward
from ..rules import RuleSet
from ..rulings import FreeHit, Ruling, Why, Wording
from .clock import Clock
from .judges import JUDGES, Foul
from .machine import Dispatch, compile_machine
from .officials import ChukkerEnd, Confirmation, Review, Sync
from .penalties import Conditions


@dataclass(slots=True)
class Play:
    """The free-hit machine's model for one match."""

    conditions: Conditions
    wording: Wording
    clock: Clock
    state: str = "idle"
    score: dict[str, float] = field(default_factory=dict)
    free_hit: FreeHit | None = None
    play_at: datetime | None = None  # the "Play" that began the window
    waiting: list[Foul] = field(default_factory=list)  # the defending team's violations, until the free hit closes
    # The last hitting-team failure: its `at`, the free hit it was on, and the free hit it gave.
    failure: tuple[datetime, FreeHit, FreeHit] | None = None
    options: tuple[Ruling, ...] = ()  # of a pending choice
    # The event being ruled: its ruling and its foul.
    ruling: Ruling | None = None
    foul: Foul | None = None
    # The officials' (log format 1.2, engine.officials): none of them changes the free hit, the score or the clock.
    review: int | None = None  # the seq of the review.request open
    reviews: dict[int, Review] = field(default_factory=dict)  # by review.request seq
    challenges: dict[str, int] = field(default_factory=dict)  # left, by team
    chukker_ends: dict[int, ChukkerEnd] = field(default_factory=dict)  # by the chukker.end's seq, in log order
    confirmations: dict[int, Confirmation] = field(default_factory=dict)  # by chukker.confirm seq
    clips: dict[str, Sync] = field(default_factory=dict)  # the sync in force, by clip, in the syncs' order
    ended_at: datetime | None = None  # the match.end's in force

    def copy(self) -> Play:
        """A copy to come back to: every field, its containers copied."""
        copied = replace(self)
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, (dict, list, set)):
                setattr(copied, f.name, type(value)(value))
        return copied

    def rule(self, trigger: str, event: Event) -> Ruling | None:
        """Run one event's trigger through the machine and give its ruling."""
        self.ruling = None
        fire(self, trigger, event)
        return self.ruling

    @property
    def defending_team(self) -> str | None:
        return self.conditions.other(self.free_hit.to) if self.free_hit else None

    def _reset_free_hit(self) -> None:
        self.free_hit, self.play_at, self.waiting, self.failure = None, None, [], None

    # -- judging: the machine's prepare callback and conditions -------------------

    def _judge(self, event: Event | FreeHit | None = None) -> None:
        """Find the violation, if any, in the event being triggered."""
        self.foul = None
        if isinstance(event, dict):  # not one of the internal triggers, which carry a FreeHit or nothing
            judge = JUDGES.get(event["type"])
            if judge is not None and self.free_hit is not None:
                self.foul = self._judge_both(event) or judge(event, self.free_hit, self)

    @property
    def rules(self) -> RuleSet:
        """The rule set the play is judged by (a judge's :class:`Moment` is the play's)."""
        return self.conditions.rules

    def _judge_both(self, event: Event) -> Foul | None:
        """A defending-team violation at the same moment as the hitting-team failure just ruled."""
        if self.failure is None or event["at"] != self.failure[0] or self.free_hit is not self.failure[2]:
            return None
        found = JUDGES[event["type"]](event, self.failure[1], self)
        return replace(found, side="both") if found and found.side == "defending" else None

    def _hitting_team_failed(self, _: Event) -> bool:
        return self.foul is not None and self.foul.side == "hitting"

    def _defending_team_failed(self, _: Event) -> bool:
        return self.foul is not None and self.foul.side == "defending"

    def _both_teams_failed(self, _: Event) -> bool:
        return self.foul is not None and self.foul.side == "both"

    def _violation_waits(self, _: Event) -> bool:
        return bool(self.waiting)

    def _undefended(self, _: Event) -> bool:
        return self.free_hit is not None and not self.free_hit.defended

    def _yellow_card_goal(self, event: CardShown) -> bool:
        free_hit = self.free_hit
        return (free_hit is not None and event["colour"] == "yellow"
                and free_hit.penalty in self.conditions.rules.yellow_card_goal and event["team"] != free_hit.to)

    def _awards_a_goal(self, event: PenaltyAward) -> bool:
        """Penalty 1, or a Penalty 2 whose foul drew a yellow card (which makes it a Penalty 1)."""
        return event["penalty"] == "1" or (
            event["penalty"] in self.conditions.rules.yellow_card_goal and event["card"] == "yellow")

    # -- ruling: the machine's callbacks ------------------------------------------

    def _give(self, ruling: Ruling | None) -> None:
        """Give the event's ruling and put it into effect through the machine."""
        self.ruling = ruling
        if ruling is None:
            return
        if ruling.kind in ("award", "rehit"):
            fire(self, "award", ruling.free_hit)
        elif ruling.kind == "goal":
            assert ruling.to is not None
            self.score[ruling.to] += 1
            fire(self, "close")
        elif ruling.kind == "choose":
            self.options = ruling.options
            fire(self, "choose")

    def _take_free_hit(self, free_hit: FreeHit) -> None:
        self._take(free_hit)

    def _take(self, free_hit: FreeHit) -> None:
        """Make ``free_hit`` the one in progress; nothing of the one before it waits any longer."""
        self._reset_free_hit()
        self.free_hit = free_hit

    def _drop_free_hit(self, *_: Any) -> None:
        self._reset_free_hit()

    def _give_penalty_goal(self, event: PenaltyAward) -> None:
        reason = "penalty-1" if event["penalty"] == "1" else "yellow-card"
        self._penalty_1(event["to"], self.conditions.other(event["to"]), reason)

    def _penalty_1(self, to: str, against: str, reason: str) -> None:
        cite = self.conditions.rules.penalty_1_cites[reason]
        self._give(self.wording.goal(to, Why(reason, cite, against, reason)))

    def _take_awarded_free_hit(self, event: PenaltyAward | KnockinAward) -> None:
        self._take(self.conditions.awarded(event))

    def _award_penalty_1(self, event: CardShown) -> None:
        assert self.free_hit is not None
        self._penalty_1(self.free_hit.to, event["team"], "yellow-card")

    def _start_window(self, event: Event) -> None:
        self.play_at = event["at"]

    def _stop_window(self, _: Event) -> None:
        self.play_at = None  # "Play" will be called again, and its window runs from that call

    def _ball_in_play(self, event: Hit) -> None:
        assert self.free_hit is not None
        rules, penalty, contact = self.conditions.rules, self.free_hit.penalty, event["contact"]
        missed_live = rules.missed_live_cites.get(penalty, ())
        if contact == "miss":  # a foul where the rules say so, judged before this: here a live ball
            self._give(self.wording.live(Why("missed-live", (rules.cell("swing-and-miss", penalty), *missed_live))))
        elif contact == "mishit" and missed_live:
            self._give(self.wording.live(Why("missed-live", missed_live)))
        else:
            self._give(self.wording.live(Why("stroke", rules.stroke_cite)))

    def _rule_hitting_team_failure(self, event: Event) -> None:
        free_hit, found = self.free_hit, self.foul
        assert free_hit is not None and found is not None
        if self.waiting:
            self._give(self._both_teams(free_hit))
            return
        next_hit = self.conditions.failure_cost(free_hit)
        self._give(self.wording.award(next_hit, Why(found.code, found.cite, found.team, found.code)))
        assert self.free_hit is not None
        self.failure = (event["at"], free_hit, self.free_hit)

    def _both_teams(self, free_hit: FreeHit) -> Ruling:
        return self.wording.award(free_hit, Why("both-teams", self.conditions.rules.both_teams_cite,
                                                violation="both-teams"), kind="rehit")

    def _rule_both_teams(self, _: Event) -> None:
        assert self.failure is not None
        self._give(self._both_teams(self.failure[1]))

    def _wait_for_close(self, _: Event) -> None:
        assert self.foul is not None
        self.waiting.append(self.foul)

    def _ball_stopped_short(self, event: BallStop) -> None:
        assert self.free_hit is not None
        spot_hit = self.conditions.stopped_short(self.free_hit, event["yards_to_goal"])
        self._close_free_hit(event, self.wording.award(spot_hit, Why(
            "stops-short", self.conditions.rules.stops_short_cite, self.free_hit.to, "stops-short")))

    def _ball_went_out(self, event: BallOut) -> None:
        knockin = None
        if event["over"] == "backline" and self.defending_team is not None:
            knockin = self.wording.award(self.conditions.fixed("knockin", self.defending_team),
                                         Why("backline", (), violation="backline"))
        self._close_free_hit(event, knockin)

    def _score_goal(self, event: GoalScored) -> None:
        team = event["team"]
        self.score[team] += 1
        if self.free_hit is not None and team == self.free_hit.to:
            self.waiting = []  # the goal counts and nothing more is given
        self._close_free_hit(event)

    def _close_free_hit(self, _: Event, otherwise: Ruling | None = None) -> None:
        """Close the free hit in progress: what waits takes precedence over ``otherwise``."""
        if self.free_hit is None:
            return
        ruling = self._rule_waiting() if self.waiting else otherwise
        if ruling is None:
            fire(self, "close")
        self._give(ruling)

    def _rule_waiting(self) -> Ruling:
        free_hit, first = self.free_hit, self.waiting[0]
        assert free_hit is not None
        for waiting in self.waiting:
            if waiting.prevented_goal:
                return self.wording.goal(free_hit.to, Why(waiting.code, waiting.cite, waiting.team, waiting.code,
                                                          "goal_prevented"))
        why = Why(first.code, first.cite, first.team, first.code, "increased")
        increased = self.conditions.increased(free_hit)
        if increased != "choose":
            return self.wording.award(self.conditions.fixed(increased, free_hit.to), why)
        options = (self.wording.award(free_hit, why, kind="rehit"), self.wording.goal(free_hit.to, why))
        return self.wording.choose(options, why._replace(cite=(*first.cite, *self.conditions.rules.choose_cite)))

    def _decide(self, event: Decide) -> None:
        self._give(self.options[event["option"] - 1])


DISPATCH: Dispatch = compile_machine(Play)
# How a trigger is run: through the dispatch table compiled from the machine (a test runs the machine
# itself here instead, and checks that the two agree).
fire = DISPATCH.fire
