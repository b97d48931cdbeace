"""The Rule 36 engine: a match's free-hit lifecycle as a state machine, folded over its events.

One :class:`transitions.Machine` is built for the whole process and drives every
:class:`Match`; each event type is a trigger, the transitions' conditions find
the violations and their callbacks give the rulings. The rulebook's tables
(which free hits the 20 seconds bind, what a failure costs, the ladder of
increased penalties) are the data below, not branches.
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import copy
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from transitions import EventData, Machine

from . import rulings
from .errors import IllegalEvent, RefusedEvent
from .events import TYPES, Context, Event, check_event, needs_spot
from .rulebook import cell_id
from .rulings import FreeHit, Ruling

STATES = ("idle", "awarded", "placed", "play_called", "live", "choosing")
AWAITING_STROKE = ["awarded", "placed", "play_called"]
OPEN = [*AWAITING_STROKE, "live"]
NOT_CHOOSING = ["idle", *OPEN]

WINDOW = timedelta(seconds=20)
# A void refolds the log from the last checkpoint before the first event it changes, not from the
# start: "undo last" in a long match costs at most this many events.
CHECKPOINT_EVERY = 256
# What a checkpoint keeps of a match: everything an event can change.
FOLDED = ("state", "score", "free_hit", "play_at", "waiting", "_failure", "options")
TIMED = frozenset({"2", "3", "4", "5a", "5b", "6"})  # reading: the 20 seconds do not bind a knock-in
ONE_STROKE = frozenset({"2", "3", "4", "6"})  # a preparatory dribble is a violation
MISS_IS_FOUL = frozenset({"2", "3"})  # swing and miss; the others give a live ball
ATTACKING_POSITION_RULED = frozenset({"2", "3"})  # the table gives N/A for the others
# Yards: how close to the spot a returning player may ride, and how far the ball must travel
# before a player out of position may play (once past midfield).
RETURN_YARDS = 30

# What a hitting-team failure gives the defending team: a spot hit (5.a) from where the free hit was
# being taken, or Penalty 4; "5a|4" is the less severe of the two: Penalty 4 when that spot is within
# 60 yards of the goal the defending team attacks.
FAILURE_COSTS = {"2": "5a", "3": "5a", "4": "5a", "6": "5a", "5b": "5a", "5a": "5a|4", "knockin": "4"}
SPOT_HIT_LIMIT = 60

# The next more severe free hit for the hitting team when the defending team's violation waited.
# "2c" is a Penalty 2 from the centre; "choose" offers the same free hit again or Penalty 1.
INCREASED = {"2": "choose", "3": "2c", "4": "3", "6": "3", "5b": "4", "knockin": "5b"}
# Penalty 5.a climbs by its distance: (more than this many yards to goal, increased penalty).
INCREASED_5A = ((60, "4"), (40, "3"), (30, "2c"))

# The clauses a violation rests on; "table" stands for its cell in the misexecution table.
CITES: dict[str, tuple[str, ...]] = {
    "hit-before-play": ("table",),
    "first-approach": ("table",),
    "swing-and-miss": ("table",),
    "attacking-position": ("table",),
    "defending-position": ("table",),
    "twenty-seconds": ("36/one-stroke", "36/procedural:fouled"),
    "dribble": ("36/one-stroke", "36/procedural:fouled"),
    "deliberate": ("36/return:discretion", "36/procedural:fouled"),
    "surface-altered": ("36/tee:surface", "36/procedural:fouled"),
    "dismounted": ("36/tee:surface", "36/procedural:fouled"),
    "retee": ("36/tee:as-it-lies", "36/procedural:fouled"),
    "return-route": ("36/return:fouled", "36/procedural:fouled"),
    "early-play": ("36/return:fouled", "36/procedural:fouled"),
}
# A defending-team player's return or play breaks the fouling team's clause instead.
DEFENDING_CITES = {code: ("36/return:fouling", "36/procedural:fouling") for code in ("return-route", "early-play")}
MISSED_4_6_CITES = {"deliberate": ("36/missed-4-6",)}
# Why a Penalty 1 is given: awarded as such, or a Penalty 2 that a yellow card makes one.
PENALTY_1_CITES: dict[str, tuple[str, ...]] = {"penalty-1": (), "yellow-card": ("36/yellow-card-p2",)}


@dataclass(frozen=True, slots=True)
class Foul:
    """A violation found in an event: its code, the team that broke the rule, and which side that is."""

    code: str
    team: str
    side: str  # "hitting", "defending" or "both"
    cite: tuple[str, ...]
    prevented_goal: bool = False


def _t(trigger: str, source: str | list[str], dest: str | None = None, **callbacks: str) -> dict[str, Any]:
    return {"trigger": trigger, "source": source, "dest": dest, **callbacks}


# Each event type is a trigger (dots become underscores). Internal triggers apply a ruling:
# `award` makes a free hit the one in progress, `choose` waits for the umpire, `close` ends it.
# Where a trigger has several transitions from a state, the first whose conditions hold is taken.
HITTING_FAILURE = {"conditions": "hitting_team_failed", "after": "rule_hitting_team_failure"}
DEFENDING_WAITS = {"conditions": "defending_team_failed", "after": "wait_for_close"}
BOTH_TEAMS = {"conditions": "both_teams_failed", "after": "rule_both_teams"}
TRANSITIONS = [
    _t("chukker_start", NOT_CHOOSING),
    _t("chukker_end", NOT_CHOOSING, after="close_free_hit"),
    _t("whistle", NOT_CHOOSING, after="close_free_hit"),
    _t("penalty_award", NOT_CHOOSING, conditions="awards_a_goal", after="give_penalty_goal"),
    _t("penalty_award", NOT_CHOOSING, "awarded", before="take_awarded_free_hit"),
    _t("knockin_award", NOT_CHOOSING, "awarded", before="take_awarded_free_hit"),
    _t("ball_place", ["awarded", "placed"], **HITTING_FAILURE),
    _t("ball_place", ["awarded", "placed"], "placed"),
    _t("play", ["awarded", "placed"], "play_called", after="start_window"),
    _t("play", "play_called"),  # "Play" called again: the 20 seconds still run from the first call
    _t("dribble", AWAITING_STROKE, **HITTING_FAILURE),
    _t("dribble", OPEN),
    _t("approach_abort", AWAITING_STROKE, **HITTING_FAILURE),
    _t("ball_retee", "play_called", **HITTING_FAILURE),
    _t("hit", AWAITING_STROKE, **HITTING_FAILURE),
    _t("hit", "play_called", "live", after="ball_in_play"),
    _t("tick", "play_called", **HITTING_FAILURE),
    _t("tick", [*STATES]),
    _t("ball_stop", "live", conditions="undefended", after="ball_stopped_short"),
    _t("ball_stop", "live"),
    _t("ball_out", "live", after="ball_went_out"),
    _t("goal", NOT_CHOOSING, after="score_goal"),
    _t("position_improper", AWAITING_STROKE, **BOTH_TEAMS),
    _t("position_improper", OPEN, **HITTING_FAILURE),
    _t("position_improper", OPEN, **DEFENDING_WAITS),
    _t("position_improper", OPEN),
    _t("player_return", AWAITING_STROKE, **BOTH_TEAMS),
    _t("player_return", OPEN, **HITTING_FAILURE),
    _t("player_return", OPEN, **DEFENDING_WAITS),
    _t("player_return", OPEN),
    _t("player_play", AWAITING_STROKE, **BOTH_TEAMS),
    _t("player_play", OPEN, **HITTING_FAILURE),
    _t("player_play", OPEN, **DEFENDING_WAITS),
    _t("player_play", OPEN),
    _t("card", OPEN, conditions="yellow_on_penalty_2", after="award_penalty_1"),
    _t("card", [*STATES]),
    _t("decide", "choosing", after="decide"),
    _t("award", [*STATES], "awarded", before="take_free_hit"),
    _t("choose", NOT_CHOOSING, "choosing", before="drop_free_hit"),
    _t("close", [*STATES], "idle", before="drop_free_hit"),
]
INTERNAL = frozenset({"award", "choose", "close"})

MACHINE = Machine(model=None, states=list(STATES), transitions=TRANSITIONS, initial="idle",
                  auto_transitions=False, send_event=True, prepare_event="judge")
# `ball.place`, `ball.retee`, ... trigger `ball_place`, ...; `void` is the log's, not the machine's.
TRIGGER_OF = {name.replace("_", "."): name for name in MACHINE.events if name not in INTERNAL}


def _transitions(kind: str, state: str) -> list[Any]:
    """The machine's transitions for an event type from a state (none where it makes no sense)."""
    return MACHINE.events[TRIGGER_OF[kind]].transitions.get(state, [])


# The event types each state accepts, read off the machine.
ACCEPTS: dict[str, frozenset[str]] = {
    state: frozenset({kind for kind in TRIGGER_OF if _transitions(kind, state)} | {"void"}) for state in STATES
}
# Event types whose every transition from a state is internal with no callback: the machine would
# change nothing for them, and a trigger costs several microseconds, so `Match` does not fire them.
QUIET: dict[str, frozenset[str]] = {
    state: frozenset(kind for kind in ACCEPTS[state] - {"void"}
                     if all(t.dest is None and not (t.conditions or t.prepare or t.before or t.after)
                            for t in _transitions(kind, state)))
    for state in STATES
}

WHY_NOT = {
    "hit": "no free hit is awaiting its stroke",
    "play": "no free hit is awaiting “Play”",
    "approach.abort": "no free hit is awaiting its stroke",
    "ball.retee": "a re-tee is one after “Play” (before it, log ball.place)",
    "ball.place": "no free hit is awaiting its ball",
    "dribble": "no free hit is in progress",
    "ball.stop": "no free hit's ball is in play",
    "ball.out": "no free hit's ball is in play",
    "position.improper": "no free hit is in progress",
    "player.return": "no free hit is in progress",
    "player.play": "no free hit is in progress",
    "decide": "there is nothing to choose",
}


def other_team(teams: tuple[str, ...], team: str) -> str:
    return teams[1] if team == teams[0] else teams[0]


class Match:
    """One match: fed its log's events one at a time, it gives each event's ruling.

    ``state`` is one of :data:`STATES`; ``free_hit`` the free hit in progress;
    ``score`` the score with handicap goals; ``rulings`` each event's ruling, by seq.
    A refused event raises :class:`RefusedEvent` and changes nothing.
    """

    def __init__(self) -> None:
        self.state = "idle"
        self.info: Event = {}
        self.context = Context()
        self.score: dict[str, float] = {}
        self.events: list[Event] = []
        self.rulings: list[Ruling | None] = []
        self.void: set[int] = set()
        self._checkpoints: dict[int, tuple[Any, ...]] = {}  # seq -> the match folded up to it
        self._reset_free_hit()
        self.options: tuple[Ruling, ...] = ()
        self.ruling: Ruling | None = None
        self._foul: Foul | None = None

    def _reset_free_hit(self) -> None:
        self.free_hit: FreeHit | None = None
        self.play_at: datetime | None = None
        self.waiting: list[Foul] = []
        self._failure: tuple[datetime, FreeHit, FreeHit] | None = None

    # -- reading -----------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The seq of the last event fed (0 before the first)."""
        return len(self.events)

    @property
    def teams(self) -> tuple[str, ...]:
        return self.context.teams

    @property
    def hitting_team(self) -> str | None:
        return self.free_hit.to if self.free_hit else None

    @property
    def defending_team(self) -> str | None:
        return other_team(self.teams, self.free_hit.to) if self.free_hit else None

    def accepts(self, event_type: str) -> bool:
        """Whether an event of this type makes sense now (its fields aside)."""
        if not self.info:
            return event_type == "match.start"
        return event_type in ACCEPTS[self.state]

    def accepted_types(self) -> list[str]:
        """The event types that make sense now, in the log format's order."""
        return [kind for kind in TYPES if self.accepts(kind)]

    # -- feeding -----------------------------------------------------------------

    def feed(self, obj: Mapping[str, Any]) -> Ruling | None:
        """Check one event, apply it and return its ruling (``None`` where it gives none)."""
        if not self.info and isinstance(obj, Mapping) and obj.get("type") != "match.start":
            raise IllegalEvent(f"the first event must be match.start, not {obj.get('type')!r}")
        event = check_event(obj, self.context)
        if self.events and event["at"] < self.events[-1]["at"]:
            raise IllegalEvent(f"{event['type']}: 'at' {obj['at']} is earlier than the event before it")
        if event["type"] == "void":
            self._strike(event)
            ruling = None
        else:
            ruling = self._apply(event)
        self.events.append(event)
        self.rulings.append(ruling)
        if self.seq % CHECKPOINT_EVERY == 0:
            self._checkpoints[self.seq] = self._fold()
        return ruling

    def _fold(self) -> tuple[Any, ...]:
        """A copy of what the events have folded into, to come back to."""
        return tuple(copy(getattr(self, name)) for name in FOLDED)

    def _unfold(self, folded: tuple[Any, ...]) -> None:
        for name, value in zip(FOLDED, folded):
            setattr(self, name, copy(value))

    def _apply(self, event: Event) -> Ruling | None:
        kind = event["type"]
        if not self.info or kind == "match.start":
            return self._start(event)
        if kind not in ACCEPTS[self.state]:
            why = "the Umpire must first choose with 'decide'" if self.state == "choosing" else WHY_NOT.get(kind)
            raise IllegalEvent(f"{kind} makes no sense in state {self.state}" + (f": {why}" if why else ""))
        if kind == "decide" and event["option"] > len(self.options):
            raise IllegalEvent(f"decide: option {event['option']} is not one of the {len(self.options)} offered")
        self.ruling = None
        if kind not in QUIET[self.state]:
            MACHINE.events[TRIGGER_OF[kind]].trigger(self, event)
        return self.ruling

    def _start(self, event: Event) -> None:
        if self.info:
            raise IllegalEvent("match.start is allowed only as the first event")
        self.info = event
        self.context = Context(event["teams"], event["field_length"])
        handicap = event["handicap_goals"]
        self.score = {team: handicap.get(team, 0) for team in self.teams}
        return None

    def _strike(self, event: Event) -> None:
        """Void an event: refold the log without it, or refuse if that breaks a later event."""
        target = event["seq"]
        if target > len(self.events):
            raise IllegalEvent(f"void: there is no event with seq {target}")
        if target == 1:
            raise IllegalEvent("void: match.start cannot be voided")
        if target in self.void:
            raise IllegalEvent(f"void: seq {target} is void already")
        struck = self._struck(self.events + [event])
        first = min(struck ^ self.void)  # the first event whose standing changes
        checkpoints = {seq: folded for seq, folded in self._checkpoints.items() if seq < first}
        refold, begin = Match(), max(checkpoints, default=0)
        if begin:
            refold.info, refold.context = self.info, self.context
            refold._unfold(checkpoints[begin])
        for seq in range(begin + 1, len(self.events) + 1):
            kept = self.events[seq - 1]
            if seq not in struck and kept["type"] != "void":
                try:
                    refold._apply(kept)
                except RefusedEvent as err:
                    raise IllegalEvent(f"void: without seq {target}, seq {seq} is refused ({err.reason})") from None
            if seq % CHECKPOINT_EVERY == 0:
                checkpoints[seq] = refold._fold()
        self._unfold(refold._fold())
        self.void, self._checkpoints = struck, checkpoints

    @staticmethod
    def _struck(events: list[Event]) -> set[int]:
        """The seqs struck out: a void counts unless a later void strikes it."""
        struck: set[int] = set()
        for seq in range(len(events), 0, -1):
            event = events[seq - 1]
            if event["type"] == "void" and seq not in struck:
                struck.add(event["seq"])
        return struck

    # -- judging: the machine's prepare callback and conditions -------------------

    def judge(self, data: EventData) -> None:
        """Find the violation, if any, in the event being triggered."""
        self._foul = None
        event = data.args[0] if data.args else None
        if type(event) is dict:  # not one of the internal triggers, which carry a FreeHit or nothing
            judge = JUDGES.get(event["type"])
            if judge is not None and self.free_hit is not None:
                self._foul = self._judge_both(event) or judge(self, event, self.free_hit)

    def _judge_both(self, event: Event) -> Foul | None:
        """A defending-team violation at the same moment as the hitting-team failure just ruled."""
        if self._failure is None or event["at"] != self._failure[0] or self.free_hit is not self._failure[2]:
            return None
        foul = JUDGES[event["type"]](self, event, self._failure[1])
        return replace(foul, side="both") if foul and foul.side == "defending" else None

    def _make_foul(self, code: str, team: str, free_hit: FreeHit, prevented_goal: bool = False) -> Foul:
        side = "hitting" if team == free_hit.to else "defending"
        cite = (DEFENDING_CITES.get(code) if side == "defending" else None) or (
            MISSED_4_6_CITES.get(code) if free_hit.penalty in ("4", "6") else None) or CITES[code]
        cite = tuple(cell_id(code, free_hit.penalty) if c == "table" else c for c in cite)
        return Foul(code, team, side, cite, prevented_goal)

    def _late(self, event: Event, free_hit: FreeHit) -> bool:
        return (self.state == "play_called" and free_hit.penalty in TIMED
                and event["at"] - self.play_at > WINDOW)

    def _judge_stroke(self, event: Event, free_hit: FreeHit) -> Foul | None:
        team = free_hit.to
        if self.state != "play_called":
            return self._make_foul("hit-before-play", team, free_hit)
        if self._late(event, free_hit):
            return self._make_foul("twenty-seconds", team, free_hit)
        if event["contact"] == "miss" and free_hit.penalty in MISS_IS_FOUL:
            return self._make_foul("swing-and-miss", team, free_hit)
        if event["deliberate"]:
            return self._make_foul("deliberate", team, free_hit)
        return None

    def _judge_abort(self, event: Event, free_hit: FreeHit) -> Foul:
        code = "twenty-seconds" if self._late(event, free_hit) else "first-approach"
        return self._make_foul(code, free_hit.to, free_hit)

    def _judge_tick(self, event: Event, free_hit: FreeHit) -> Foul | None:
        return self._make_foul("twenty-seconds", free_hit.to, free_hit) if self._late(event, free_hit) else None

    def _judge_dribble(self, event: Event, free_hit: FreeHit) -> Foul | None:
        if self.state == "live" or free_hit.penalty not in ONE_STROKE:
            return None
        return self._make_foul("dribble", free_hit.to, free_hit)

    def _judge_place(self, event: Event, free_hit: FreeHit) -> Foul | None:
        for code, field in (("surface-altered", "surface_altered"), ("dismounted", "dismounted")):
            if event[field]:
                return self._make_foul(code, free_hit.to, free_hit)
        return None

    def _judge_retee(self, event: Event, free_hit: FreeHit) -> Foul:
        return self._make_foul("retee", free_hit.to, free_hit)

    def _judge_position(self, event: Event, free_hit: FreeHit) -> Foul | None:
        if event["team"] != free_hit.to:
            return self._make_foul("defending-position", event["team"], free_hit, event["prevented_goal"])
        if free_hit.penalty in ATTACKING_POSITION_RULED:
            return self._make_foul("attacking-position", event["team"], free_hit)
        return None

    def _judge_return(self, event: Event, free_hit: FreeHit) -> Foul | None:
        if event["closest_yards"] >= RETURN_YARDS and event["on_field"]:
            return None
        return self._make_foul("return-route", event["team"], free_hit)

    def _judge_play(self, event: Event, free_hit: FreeHit) -> Foul | None:
        if event["passed_teammate"] or (event["ball_travelled"] >= RETURN_YARDS and event["passed_midfield"]):
            return None
        return self._make_foul("early-play", event["team"], free_hit, event["prevented_goal"])

    def hitting_team_failed(self, _: EventData) -> bool:
        return self._foul is not None and self._foul.side == "hitting"

    def defending_team_failed(self, _: EventData) -> bool:
        return self._foul is not None and self._foul.side == "defending"

    def both_teams_failed(self, _: EventData) -> bool:
        return self._foul is not None and self._foul.side == "both"

    def undefended(self, _: EventData) -> bool:
        return not self.free_hit.defended

    def yellow_on_penalty_2(self, data: EventData) -> bool:
        event = data.args[0]
        return event["colour"] == "yellow" and self.free_hit.penalty == "2" and event["team"] != self.free_hit.to

    # -- ruling: the transitions' callbacks --------------------------------------

    def _give(self, ruling: Ruling | None) -> None:
        """Give the event's ruling and put it into effect through the machine."""
        self.ruling = ruling
        if ruling is None:
            return
        if ruling.kind in ("award", "rehit"):
            MACHINE.events["award"].trigger(self, ruling.free_hit)
        elif ruling.kind == "goal":
            self.score[ruling.to] += 1
            MACHINE.events["close"].trigger(self)
        elif ruling.kind == "choose":
            self.options = ruling.options
            MACHINE.events["choose"].trigger(self)

    def take_free_hit(self, data: EventData) -> None:
        self._take(data.args[0])

    def _take(self, free_hit: FreeHit) -> None:
        """Make ``free_hit`` the one in progress; nothing of the one before it waits any longer."""
        self._reset_free_hit()
        self.free_hit = free_hit

    def drop_free_hit(self, _: EventData) -> None:
        self._reset_free_hit()

    def _fixed(self, penalty: str, to: str) -> FreeHit:
        """A free hit whose spot the rules fix; "2c" is a Penalty 2 from the centre."""
        if penalty == "2c":
            return FreeHit("2", to, 30, "center", defended=False)
        if penalty == "3":
            return FreeHit("3", to, 40, defended=self.info["penalty3_defended"])
        if penalty == "5b":
            return FreeHit("5b", to, self.context.field_length / 2)
        if penalty == "knockin":
            return FreeHit("knockin", to, self.context.field_length)
        return FreeHit(penalty, to, 60)  # Penalties 4 and 6

    def awards_a_goal(self, data: EventData) -> bool:
        """Penalty 1, or a Penalty 2 whose foul drew a yellow card (which makes it a Penalty 1)."""
        event = data.args[0]
        return event["penalty"] == "1" or (event["penalty"] == "2" and event["card"] == "yellow")

    def give_penalty_goal(self, data: EventData) -> None:
        event = data.args[0]
        reason = "penalty-1" if event["penalty"] == "1" else "yellow-card"
        self._penalty_1(event["to"], other_team(self.teams, event["to"]), reason)

    def _penalty_1(self, to: str, against: str, reason: str) -> None:
        self._give(rulings.goal(to, reason=reason, cite=PENALTY_1_CITES[reason], against=against, violation=reason))

    def take_awarded_free_hit(self, data: EventData) -> None:
        event = data.args[0]
        if event["type"] == "knockin.award":
            free_hit = self._fixed("knockin", event["to"])
        elif needs_spot(event):
            free_hit = FreeHit(event["penalty"], event["to"], event["yards_to_goal"],
                               "spot" if event["penalty"] == "2" else None)
        else:
            free_hit = self._fixed("2c" if event["penalty"] == "2" else event["penalty"], event["to"])
        self._take(free_hit)

    def award_penalty_1(self, data: EventData) -> None:
        self._penalty_1(self.free_hit.to, data.args[0]["team"], "yellow-card")

    def start_window(self, data: EventData) -> None:
        self.play_at = data.args[0]["at"]

    def ball_in_play(self, data: EventData) -> None:
        penalty, contact = self.free_hit.penalty, data.args[0]["contact"]
        missed_4_6 = ("36/missed-4-6",) if penalty in ("4", "6") else ()
        if contact == "miss":  # a foul on Penalties 2 and 3, judged before this: here a live ball
            self._give(rulings.live(reason="missed-live", cite=(cell_id("swing-and-miss", penalty), *missed_4_6)))
        elif contact == "mishit" and missed_4_6:
            self._give(rulings.live(reason="missed-live", cite=missed_4_6))
        else:
            self._give(rulings.live(reason="stroke", cite=("36/one-stroke",)))

    def rule_hitting_team_failure(self, data: EventData) -> None:
        free_hit, foul = self.free_hit, self._foul
        if self.waiting:
            self._give(self._both_teams(free_hit))
            return
        defending = self.defending_team
        spot = self.context.field_length - free_hit.yards_to_goal
        cost = FAILURE_COSTS[free_hit.penalty]
        if cost == "5a|4":
            cost = "4" if spot < SPOT_HIT_LIMIT else "5a"
        next_hit = FreeHit("5a", defending, spot) if cost == "5a" else self._fixed("4", defending)
        self._give(rulings.award(next_hit, reason=foul.code, cite=foul.cite, against=foul.team,
                                 violation=foul.code))
        self._failure = (data.args[0]["at"], free_hit, self.free_hit)

    def _both_teams(self, free_hit: FreeHit) -> Ruling:
        return rulings.award(free_hit, kind="rehit", reason="both-teams", cite=("36/procedural:both",),
                             violation="both-teams")

    def rule_both_teams(self, _: EventData) -> None:
        self._give(self._both_teams(self._failure[1]))

    def wait_for_close(self, _: EventData) -> None:
        self.waiting.append(self._foul)

    def ball_stopped_short(self, data: EventData) -> None:
        hitting = self.free_hit.to
        spot = self.context.field_length - data.args[0]["yards_to_goal"]
        self.close_free_hit(data, rulings.award(
            FreeHit("5a", self.defending_team, spot), reason="stops-short",
            cite=("36/stops-short",), against=hitting, violation="stops-short"))

    def ball_went_out(self, data: EventData) -> None:
        knockin = None
        if data.args[0]["over"] == "backline":
            knockin = rulings.award(self._fixed("knockin", self.defending_team), reason="backline", cite=(),
                                    violation="backline")
        self.close_free_hit(data, knockin)

    def score_goal(self, data: EventData) -> None:
        team = data.args[0]["team"]
        self.score[team] += 1
        if self.free_hit is not None and team == self.free_hit.to:
            self.waiting = []  # the goal counts and nothing more is given
        self.close_free_hit(data)

    def close_free_hit(self, _: EventData, otherwise: Ruling | None = None) -> None:
        """Close the free hit in progress: what waits takes precedence over ``otherwise``."""
        if self.free_hit is None:
            return
        ruling = self._rule_waiting() if self.waiting else otherwise
        if ruling is None:
            MACHINE.events["close"].trigger(self)
        self._give(ruling)

    def _rule_waiting(self) -> Ruling:
        free_hit, foul = self.free_hit, self.waiting[0]
        for waiting in self.waiting:
            if waiting.prevented_goal:
                return rulings.goal(free_hit.to, reason=waiting.code, cite=waiting.cite, against=waiting.team,
                                    violation=waiting.code, extra=rulings.GOAL_PREVENTED)
        increased = INCREASED.get(free_hit.penalty)
        if free_hit.penalty == "5a":
            increased = next((p for yards, p in INCREASED_5A if free_hit.yards_to_goal > yards), "choose")
        common: dict[str, Any] = {"reason": foul.code, "cite": foul.cite, "against": foul.team,
                                  "violation": foul.code, "extra": rulings.INCREASED}
        if increased != "choose":
            return rulings.award(self._fixed(increased, free_hit.to), **common)
        options = (rulings.award(free_hit, kind="rehit", **common),
                   rulings.goal(free_hit.to, **common))
        return rulings.choose(options, **{**common, "cite": foul.cite + ("36/procedural:fouling",)})

    def decide(self, data: EventData) -> None:
        self._give(self.options[data.args[0]["option"] - 1])


JUDGES = {
    "hit": Match._judge_stroke,
    "approach.abort": Match._judge_abort,
    "tick": Match._judge_tick,
    "dribble": Match._judge_dribble,
    "ball.place": Match._judge_place,
    "ball.retee": Match._judge_retee,
    "position.improper": Match._judge_position,
    "player.return": Match._judge_return,
    "player.play": Match._judge_play,
}


def diagram() -> str:
    """The free-hit lifecycle as Mermaid state-diagram text, drawn by transitions."""
    from transitions.extensions import GraphMachine

    graph = GraphMachine(states=list(STATES), transitions=TRANSITIONS, initial="idle",
                         auto_transitions=False, graph_engine="mermaid", title="Rule 36 free hit")
    return graph.get_graph().draw(None)

