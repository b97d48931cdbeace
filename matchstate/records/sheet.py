"""The score sheet of a match, USPA style: goals by chukker and player, lettered in the order scored,
goals by handicap, the running score, knock-ins, penalties and fouls by chukker, the cards shown, and the
result."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine import roster_totals
from ..engine.handicap import PLANNED_CHUKKERS
from ..events import Colour
from ..words import catalog, phrase
from .officials import OfficialsRecord, officials_record
from .tally import CHOICE, FINISHED, IN_PLAY, KNOCKIN, PENALTY_1, Award, Card, Foul, Tally, tally
from .timeline import Event

# What a foul gave, where it is no penalty by its number: the catalog's [foul] "gave-..." phrases.
GAVE = {KNOCKIN: "gave-knockin", CHOICE: "gave-choice", PENALTY_1: "gave-1"}


def letter(n: int) -> str:
    """Goal letters A, B, ..., Z, AA, AB, ... for the 0-based goal ``n``."""
    return (letter(n // 26 - 1) if n >= 26 else "") + chr(ord("A") + n % 26)


def goals_text(goals: float) -> str:
    """Goals as a sheet writes them: 3, 3½, ½."""
    whole = int(goals)
    half = "½" if goals - whole else ""
    return f"{whole}{half}" if whole or not half else half


def penalty_text(penalty: str, lang: str = "en") -> str:
    """A penalty as the rulebook names it, or what a foul gave besides: Penalty 5.a, knock-in."""
    if penalty in GAVE:
        return phrase("foul", GAVE[penalty], lang)
    return phrase("penalty", penalty, lang)


@dataclass(frozen=True, slots=True)
class SheetGoal:
    letter: str
    player: int | None
    chukker: int
    penalty: bool  # from a penalty: circled


@dataclass(frozen=True, slots=True)
class Player:
    """A row of a team's table: a rostered player, anyone else who scored, or (number None) the team's awarded goals."""

    number: int | None
    name: str
    handicap: float | None


@dataclass(slots=True)
class TeamSheet:
    name: str
    players: list[Player]
    handicap: float | None  # the team's total, where every rostered player has one
    handicap_goals: float
    score: float
    goals: list[SheetGoal]
    penalties: list[Award]
    knockins: list[Award]
    fouls: list[Foul]

    def cell(self, player: int | None, chukker: int) -> list[SheetGoal]:
        return [goal for goal in self.goals if goal.player == player and goal.chukker == chukker]

    def goals_by(self, player: int | None) -> int:
        return sum(goal.player == player for goal in self.goals)

    def goals_in(self, chukker: int) -> int:
        return sum(goal.chukker == chukker for goal in self.goals)

    def score_after(self, chukker: int) -> float:
        """The running score at the end of ``chukker``: goals by handicap and every goal until then."""
        return self.handicap_goals + sum(goal.chukker <= chukker for goal in self.goals)

    def knockins_in(self, chukker: int) -> int:
        return sum(award.chukker == chukker for award in self.knockins)

    def penalties_in(self, chukker: int) -> list[Award]:
        return [award for award in self.penalties if award.chukker == chukker]

    def fouls_in(self, chukker: int) -> list[Foul]:
        return [foul for foul in self.fouls if foul.chukker == chukker]


@dataclass(frozen=True, slots=True)
class FoulLine:
    """One foul in the sheet's list: who committed it and what it gave."""

    chukker: int
    team: str
    player: str  # "3 F. Aráoz", "3", or "" where the log names no one
    violation: str | None  # the ruling's code; None for an umpire's own call
    gave: str  # a penalty's number, or a GAVE

    def what(self, lang: str) -> str:
        """The violation in a few words: "hit before Play"."""
        code = "called" if self.violation in (None, "penalty-1") else self.violation
        return phrase("foul", code, lang) if code in catalog()["foul"] else code.replace("-", " ")

    def gave_text(self, lang: str) -> str:
        return penalty_text(self.gave, lang)


@dataclass(frozen=True, slots=True)
class CardLine:
    """One card in the sheet's list: to whom it was shown, and its colour."""

    chukker: int
    team: str
    player: str  # as a FoulLine's: "3 F. Aráoz", "3", or "" where a penalty award carried it
    colour: Colour

    def colour_text(self, lang: str) -> str:
        return phrase("packet", f"card-{self.colour}", lang)


@dataclass(frozen=True, slots=True)
class FromRosters:
    """How goals by handicap came from the rosters' handicaps: the higher team's total less the lower's, for
    the match's chukkers, to the lower."""

    high: str
    high_total: float
    low: str
    low_total: float
    chukkers: int
    goals: float

    def text(self, lang: str) -> str:
        return phrase("sheet", "from-rosters", lang, high=self.high, high_total=f"{self.high_total:g}", low=self.low,
                      low_total=f"{self.low_total:g}", difference=f"{self.high_total - self.low_total:g}",
                      chukkers=self.chukkers, goals=goals_text(self.goals))


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    start: Event
    teams: list[TeamSheet]
    chukkers: list[int]
    played: int  # the last chukker started, or that a goal or an award fell in
    status: str
    winner: str | None
    fouls: list[FoulLine]
    cards: list[CardLine]
    handicap_from_rosters: FromRosters | None  # how the goals by handicap were worked out, where from the rosters
    # The officials' (log format 1.2): reviews, challenges left, each chukker confirmed or queried, after-window.
    officials: OfficialsRecord = field(default_factory=OfficialsRecord)

    goals = staticmethod(goals_text)
    penalty = staticmethod(penalty_text)

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    @property
    def in_play(self) -> bool:
        return self.status == IN_PLAY

    def confirmation(self, chukker: int, lang: str = "en") -> str:
        """A chukker's column foot: confirmed, queried, or not confirmed."""
        return self.officials.confirmation_text(chukker, lang)

    def reviews(self, lang: str = "en") -> list[str]:
        """Each review standing, in order: "Review of seq 4, asked by Red: the call stands"."""
        return [self.officials.review_text(review, lang) for review in self.officials.reviews]

    def result(self) -> str:
        """The score line: "Blue 8 – Red 7½"."""
        return " – ".join(f"{team.name} {goals_text(team.score)}" for team in self.teams)


def score_sheet(events: Sequence[Event]) -> ScoreSheet:
    """The score sheet of a match, from its log (its events' JSON in seq order)."""
    counted = tally(events)
    lettered = [(goal.team, SheetGoal(letter(n), goal.player, goal.chukker, goal.penalty))
                for n, goal in enumerate(counted.goals)]
    teams = []
    for name in counted.teams:
        roster = counted.roster(name)
        goals = [goal for team, goal in lettered if team == name]
        numbers = sorted(set(roster) | {goal.player for goal in goals if goal.player is not None})
        players = [Player(n, roster.get(n, {}).get("name", ""), roster.get(n, {}).get("handicap")) for n in numbers]
        if any(goal.player is None for goal in goals):
            players.append(Player(None, "", None))  # the sheet names the row
        handicaps = [player.get("handicap") for player in roster.values()]
        total = sum(h for h in handicaps if h is not None) if roster and None not in handicaps else None
        teams.append(TeamSheet(name, players, total, counted.handicap[name], counted.score[name], goals,
                               [a for a in counted.penalties if a.team == name],
                               [a for a in counted.knockins if a.team == name],
                               [f for f in counted.fouls if f.team == name]))
    planned = counted.start.get("chukkers") or PLANNED_CHUKKERS
    # A log that starts no chukker still places its goals and awards in the first.
    played = max([counted.chukkers, *(goal.chukker for goal in counted.goals),
                  *(award.chukker for award in counted.awards)])
    return ScoreSheet(counted.start, teams, list(range(1, max(planned, played) + 1)), played, counted.status,
                      counted.winner, [_foul_line(counted, foul) for foul in counted.fouls],
                      [_card_line(counted, card) for card in counted.cards], _from_rosters(counted),
                      officials_record(events))


def _player_text(counted: Tally, team: str, number: int | None) -> str:
    """A player as the sheet's lists name one: "3 F. Aráoz", "3", or "" for no one named."""
    if number is None:
        return ""
    name = counted.name(team, number)
    return f"{number} {name}" if name else str(number)


def _foul_line(counted: Tally, foul: Foul) -> FoulLine:
    return FoulLine(foul.chukker, foul.team, _player_text(counted, foul.team, foul.player), foul.violation, foul.gave)


def _card_line(counted: Tally, card: Card) -> CardLine:
    return CardLine(card.chukker, card.team, _player_text(counted, card.team, card.player), card.colour)


def _from_rosters(counted: Tally) -> FromRosters | None:
    """How goals by handicap came from the rosters; None where match.start gave them."""
    start = counted.start
    totals = roster_totals(start)
    if start.get("handicap_goals") is not None or totals is None:
        return None
    low, high = sorted(totals, key=lambda team: totals[team])
    return FromRosters(high, totals[high], low, totals[low], start.get("chukkers") or PLANNED_CHUKKERS,
                       counted.handicap[low])
