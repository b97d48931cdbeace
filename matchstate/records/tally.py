"""What one match counts for its records: goals, penalties and knock-ins awarded, fouls, and its result.

Read off :func:`~matchstate.records.timeline.replay`, so only what stands counts. The words:

- A goal is *from a penalty* when the team scored it while one of its penalties was the free hit
  in progress, or when a ruling awarded it (Penalty 1, however it came).
- A penalty is *converted* when its team scored before its free hit closed; a Penalty 1 always is.
- A *foul* is a penalty an umpire awarded (the other team's foul), or a ruling ``against`` a team.
- A *card* is a ``card`` event (its team's player, yellow or red), or a penalty award's yellow ``card``
  (shown to the fouling team, whose player the award does not name).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import goals_by_handicap
from ..events import Colour
from ..events import Event as Checked
from ..rulings import Ruling
from ..standing import FINISHED as FINISHED
from ..standing import IN_PLAY as IN_PLAY
from ..standing import SCHEDULED as SCHEDULED
from ..standing import STATUSES as STATUSES
from ..standing import status_of as status_of
from .timeline import END, Event, Step, replay

KNOCKIN = "knockin"
PENALTY_1 = "1"
YELLOW: Colour = "yellow"
CHOICE = "choice"  # what a foul gave while the Umpire's choice is pending

# A defending-team violation waits for its free hit to close; the event that logged it names the player.
WAITED_ON = {"return-route": "player.return", "early-play": "player.play"}


@dataclass(frozen=True, slots=True)
class Goal:
    """A goal, in the order scored; ``player`` is None for a goal awarded or scored by no one named."""

    seq: int
    team: str
    player: int | None
    chukker: int
    penalty: bool


@dataclass(slots=True)
class Award:
    """A penalty ("1" to "6", "5a", "5b") or a knock-in ("knockin") awarded to ``team``, by an umpire or a ruling."""

    seq: int
    team: str
    penalty: str
    chukker: int
    taker: int | None = None  # the player whose hit took it (the last one, after a rehit)
    converted: bool = False


@dataclass(slots=True)
class Foul:
    """A foul ``team`` committed; ``violation`` is the ruling's code, None for an umpire's call."""

    seq: int
    team: str
    player: int | None
    chukker: int
    violation: str | None
    gave: str  # the penalty it gave ("1" for a goal), "knockin", or "choice" while the Umpire's choice waits


@dataclass(frozen=True, slots=True)
class Card:
    """A card shown to ``team``'s ``player`` (None where a penalty award carried it and named no one)."""

    seq: int
    team: str
    player: int | None
    chukker: int
    colour: Colour


@dataclass(slots=True)
class Tally:
    """One match's counts and result."""

    start: Event
    handicap: dict[str, float]
    score: dict[str, float]
    goals: list[Goal] = field(default_factory=list)
    awards: list[Award] = field(default_factory=list)
    fouls: list[Foul] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    chukkers: int = 0  # the last chukker started
    started: bool = False
    ended: bool = False

    @property
    def teams(self) -> list[str]:
        return list(self.start["teams"])

    @property
    def status(self) -> str:
        return status_of(self.started, self.ended)

    @property
    def winner(self) -> str | None:
        return winner(self.score) if self.ended else None

    @property
    def penalties(self) -> list[Award]:
        return [award for award in self.awards if award.penalty != KNOCKIN]

    @property
    def knockins(self) -> list[Award]:
        return [award for award in self.awards if award.penalty == KNOCKIN]

    def roster(self, team: str) -> dict[int, dict[str, Any]]:
        """The team's players from the match.start's rosters, by number."""
        return {player["player"]: player for player in (self.start.get("rosters") or {}).get(team) or []}

    def name(self, team: str, number: int) -> str | None:
        return self.roster(team).get(number, {}).get("name")


def winner(score: dict[str, float]) -> str | None:
    """The team ahead, or None when the score is tied."""
    (first, a), (second, b) = score.items()
    return first if a > b else second if b > a else None


def tally(events: Sequence[Event]) -> Tally:
    """Count a match from its log (its events' JSON in seq order, match.start first)."""
    start = events[0]
    teams = start["teams"]
    counted = Tally(start, goals_by_handicap(start), {})
    awards: dict[int, Award] = {}  # by the seq that awarded each
    standing: list[Step] = []
    choice: Foul | None = None
    for step in replay(events):
        if not step.stands:
            continue
        event, ruling, kind = step.event, step.ruling, step.event["type"]
        chukker = step.chukker or 1
        counted.score = step.score
        counted.started |= kind == "chukker.start"
        counted.ended |= kind == END
        counted.chukkers = max(counted.chukkers, step.chukker or 0)
        own = awards.get(step.origin) if step.origin is not None else None
        if event["type"] == "hit" and own is not None:
            own.taker = event["player"]
        if event["type"] == "goal":
            penalty = own is not None and own.penalty != KNOCKIN and own.team == event["team"]
            counted.goals.append(Goal(step.seq, event["team"], event["player"], chukker, penalty))
            if penalty and own is not None:
                own.converted = True
        if ruling is not None and ruling.kind == "goal" and ruling.to is not None:
            counted.goals.append(Goal(step.seq, ruling.to, None, chukker, penalty=True))
            counted.awards.append(Award(step.seq, ruling.to, PENALTY_1, chukker, converted=True))
        if step.awarded is not None:
            awards[step.seq] = Award(step.seq, step.awarded.to, step.awarded.penalty, chukker)
            counted.awards.append(awards[step.seq])
        if event["type"] == "card":
            counted.cards.append(Card(step.seq, event["team"], event["player"], chukker, event["colour"]))
        if event["type"] == "penalty.award":
            fouling = teams[1] if event["to"] == teams[0] else teams[0]
            counted.fouls.append(Foul(step.seq, fouling, None, chukker, ruling.violation if ruling else None,
                                      _gave(ruling) or event["penalty"]))
            if event["card"] is not None:
                counted.cards.append(Card(step.seq, fouling, None, chukker, event["card"]))
        elif kind == "decide" and choice is not None:
            choice.gave = _gave(ruling) or CHOICE
            choice = None
        elif ruling is not None and ruling.against is not None:
            foul = Foul(step.seq, ruling.against, _committed_by(step, ruling, standing), chukker,
                        ruling.violation, _gave(ruling) or CHOICE)
            counted.fouls.append(foul)
            choice = foul if ruling.kind == "choose" else None
        standing.append(step)
    return counted


def _gave(ruling: Ruling | None) -> str | None:
    """The penalty a ruling gives: its free hit's, "1" for a goal; None for none (or a choice)."""
    if ruling is None:
        return None
    if ruling.kind == "goal":
        return PENALTY_1
    return ruling.free_hit.penalty if ruling.free_hit is not None else None


def _committed_by(step: Step, ruling: Ruling, standing: list[Step]) -> int | None:
    """The player who committed the foul a ruling is for, where the log names one."""
    player = _its_player(step.event)
    if player is not None:
        return player
    logged_as = WAITED_ON.get(ruling.violation or "")
    for earlier in reversed(standing):
        if step.origin is None or earlier.seq < step.origin:
            break
        found = earlier.event
        if (found["type"] == "player.return" or found["type"] == "player.play") and found["type"] == logged_as \
                and found["team"] == ruling.against:
            return found["player"]
    return None


def _its_player(event: Checked) -> int | None:
    """The player whose own doing an event is ruled for, where its type names one: a hit's, a card's, a return's
    or an early play's."""
    if (event["type"] == "hit" or event["type"] == "card" or event["type"] == "player.return"
            or event["type"] == "player.play"):
        return event["player"]
    return None
