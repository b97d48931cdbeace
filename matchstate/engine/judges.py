"""The judges: pure functions that find the violation, if any, in an event of a free hit.

Each takes the event, the free hit in progress and the :class:`Moment` (what else a judge must
know) and gives a :class:`Foul` or ``None``. Which side broke the rule decides when it is ruled:
the hitting team's failures at once, the defending team's when the free hit closes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from ..events import ApproachAbort, BallPlace, Event, Hit, PlayerPlay, PlayerReturn, PositionImproper
from ..rules import RuleSet
from ..rulings import FreeHit


@dataclass(frozen=True, slots=True)
class Foul:
    """A violation found in an event: its code, the team that broke the rule, and which side that is."""

    code: str
    team: str
    side: str  # "hitting", "defending" or "both"
    cite: tuple[str, ...]
    prevented_goal: bool = False


class Moment(Protocol):
    """What a judge knows besides the event and the free hit: the state, when "Play" began the window, the rule
    set. The play being judged is its own moment: nothing is made to judge an event."""

    @property
    def state(self) -> str: ...

    @property
    def play_at(self) -> datetime | None: ...

    @property
    def rules(self) -> RuleSet: ...


def foul(code: str, team: str, free_hit: FreeHit, rules: RuleSet, prevented_goal: bool = False) -> Foul:
    """The foul ``code`` by ``team`` on ``free_hit``, with the clauses it rests on."""
    side = "hitting" if team == free_hit.to else "defending"
    cite = (rules.defending_cites.get(code) if side == "defending" else None) or (
        rules.missed_live_cites.get(free_hit.penalty) if code == "deliberate" else None) or rules.cites[code]
    cite = tuple(rules.cell(code, free_hit.penalty) if c == "table" else c for c in cite)
    return Foul(code, team, side, cite, prevented_goal)


def late(event: Event, free_hit: FreeHit, moment: Moment) -> bool:
    """Whether the window after "Play" had run out at the event (exactly its length is in time)."""
    return (moment.state == "play_called" and free_hit.penalty in moment.rules.timed and moment.play_at is not None
            and event["at"] - moment.play_at > moment.rules.window)


def _stroke(event: Hit, free_hit: FreeHit, moment: Moment) -> Foul | None:
    team, rules = free_hit.to, moment.rules
    if moment.state != "play_called":
        return foul("hit-before-play", team, free_hit, rules)
    if late(event, free_hit, moment):
        return foul("twenty-seconds", team, free_hit, rules)
    if event["contact"] == "miss" and free_hit.penalty in rules.miss_is_foul:
        return foul("swing-and-miss", team, free_hit, rules)
    if event["deliberate"]:
        return foul("deliberate", team, free_hit, rules)
    return None


def _abort(event: ApproachAbort, free_hit: FreeHit, moment: Moment) -> Foul:
    code = "twenty-seconds" if late(event, free_hit, moment) else "first-approach"
    return foul(code, free_hit.to, free_hit, moment.rules)


def _time_up(event: Event, free_hit: FreeHit, moment: Moment) -> Foul | None:
    """A tick, or the umpire's whistle or the chukker's end, that finds the window run out."""
    return foul("twenty-seconds", free_hit.to, free_hit, moment.rules) if late(event, free_hit, moment) else None


def _dribble(event: Event, free_hit: FreeHit, moment: Moment) -> Foul | None:
    if moment.state == "live" or free_hit.penalty not in moment.rules.one_stroke:
        return None
    return foul("dribble", free_hit.to, free_hit, moment.rules)


def _place(event: BallPlace, free_hit: FreeHit, moment: Moment) -> Foul | None:
    if event["surface_altered"]:
        return foul("surface-altered", free_hit.to, free_hit, moment.rules)
    if event["dismounted"]:
        return foul("dismounted", free_hit.to, free_hit, moment.rules)
    return None


def _retee(event: Event, free_hit: FreeHit, moment: Moment) -> Foul:
    return foul("retee", free_hit.to, free_hit, moment.rules)


def _position(event: PositionImproper, free_hit: FreeHit, moment: Moment) -> Foul | None:
    if event["team"] != free_hit.to:
        return foul("defending-position", event["team"], free_hit, moment.rules, event["prevented_goal"])
    if free_hit.penalty in moment.rules.attacking_position_ruled:
        return foul("attacking-position", event["team"], free_hit, moment.rules)
    return None


def _return(event: PlayerReturn, free_hit: FreeHit, moment: Moment) -> Foul | None:
    if event["closest_yards"] >= moment.rules.return_yards and event["on_field"]:
        return None
    return foul("return-route", event["team"], free_hit, moment.rules)


def _early_play(event: PlayerPlay, free_hit: FreeHit, moment: Moment) -> Foul | None:
    if event["passed_teammate"] or (event["ball_travelled"] >= moment.rules.return_yards and event["passed_midfield"]):
        return None
    return foul("early-play", event["team"], free_hit, moment.rules, event["prevented_goal"])


# Each judge takes the one event type it is listed for, which the dispatch by type guarantees and mypy cannot see.
Judge = Callable[[Any, FreeHit, Moment], Foul | None]
JUDGES: dict[str, Judge] = {
    "hit": _stroke,
    "approach.abort": _abort,
    "tick": _time_up,
    "whistle": _time_up,
    "chukker.end": _time_up,
    "dribble": _dribble,
    "ball.place": _place,
    "ball.retee": _retee,
    "position.improper": _position,
    "player.return": _return,
    "player.play": _early_play,
}
