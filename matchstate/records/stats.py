"""Statistics over a season or a tournament, per team and per player: goals (field and penalty),
penalties by number (awarded to a team, taken by a player) and how many were converted, knock-ins,
fouls against (committed by) each, and the yellow and red cards each was shown. The words are :mod:`.tally`'s.

A player is counted by team and by the name the rosters give (by number where they give none).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from ..errors import InvalidQuery
from ..events import PENALTIES
from ..words import phrase
from .charts import Chart, bar_chart
from .csv import BOM, inert
from .search import fold, match_date
from .sheet import penalty_text
from .tally import FINISHED, YELLOW, Tally
from .timeline import Event

YEAR = re.compile("[0-9]{4}")  # ASCII digits: \d takes "２０２６" too
RANGE = re.compile(r"([0-9]{4}-[0-9]{2}-[0-9]{2})\.\.([0-9]{4}-[0-9]{2}-[0-9]{2})")


@dataclass(frozen=True, slots=True)
class Scope:
    """Which matches to count: a tournament (match.start's ``event``, matched as search matches words
    but whole), a season (a year, ``2026``, or a date range, ``2026-03-01..2026-09-30``), or both."""

    event: str = ""
    season: str = ""
    first: date = date.min
    last: date = date.max

    @classmethod
    def of(cls, event: str = "", season: str = "") -> Scope:
        """The scope of these filters; :class:`InvalidQuery` for a season that is neither form."""
        season = season.strip()
        if not season:
            return cls(event.strip())
        year, ends = YEAR.fullmatch(season), RANGE.fullmatch(season)
        try:  # year 0 is no date's
            first, last = ((date(int(season), 1, 1), date(int(season), 12, 31)) if year else
                           (date.fromisoformat(ends[1]), date.fromisoformat(ends[2])) if ends else (None, None))
        except ValueError:
            first = last = None
        if first is None or last is None:
            raise InvalidQuery.said("season", season=repr(season))
        if first > last:
            raise InvalidQuery.said("season-backwards", season=repr(season), first=first.isoformat(),
                                    last=last.isoformat())
        return cls(event.strip(), season, first, last)

    def covers(self, start: Event) -> bool:
        return (not self.event or fold(start.get("event") or "") == fold(self.event)) and \
            self.first <= match_date(start) <= self.last

    def to_json(self) -> dict[str, str | None]:
        return {"event": self.event or None, "season": self.season or None}


@dataclass(slots=True)
class Line:
    """One team's or one player's numbers; for a player, ``penalties`` are those it took."""

    team: str
    player: str | None = None
    matches: int = 0
    won: int = 0
    field_goals: int = 0
    penalty_goals: int = 0
    penalties: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PENALTIES, 0))
    converted: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PENALTIES, 0))
    knockins: int = 0
    fouls_against: int = 0
    yellow_cards: int = 0
    red_cards: int = 0

    @property
    def goals(self) -> int:
        return self.field_goals + self.penalty_goals

    def counts(self) -> tuple[int, ...]:
        """Its numbers, in :data:`~matchstate.models.STAT_COUNTS`' order (the kept statistics' columns)."""
        return (self.matches, self.won, self.field_goals, self.penalty_goals, *self.penalties.values(),
                *self.converted.values(), self.knockins, self.fouls_against, self.yellow_cards, self.red_cards)

    @classmethod
    def of_counts(cls, team: str, player: str | None, counts: Iterable[int]) -> Line:
        """The line with these numbers, in :meth:`counts`' order."""
        matches, won, field_goals, penalty_goals, *rest = (int(n) for n in counts)
        taken, converted, (knockins, fouls_against, yellow_cards, red_cards) = \
            rest[:len(PENALTIES)], rest[len(PENALTIES):-4], rest[-4:]
        return cls(team, player, matches, won, field_goals, penalty_goals, dict(zip(PENALTIES, taken, strict=True)),
                   dict(zip(PENALTIES, converted, strict=True)), knockins, fouls_against, yellow_cards, red_cards)

    def to_json(self) -> dict[str, Any]:
        taken = "awarded" if self.player is None else "taken"
        return {"team": self.team, **({"player": self.player} if self.player is not None else {"won": self.won}),
                "matches": self.matches, "goals": self.goals, "field_goals": self.field_goals,
                "penalty_goals": self.penalty_goals,
                "penalties": {p: {taken: self.penalties[p], "converted": self.converted[p]} for p in PENALTIES},
                "knockins": self.knockins, "fouls_against": self.fouls_against,
                "cards": {"yellow": self.yellow_cards, "red": self.red_cards}}


@dataclass(frozen=True, slots=True)
class Stats:
    scope: Scope
    matches: int
    finished: int
    teams: list[Line]
    players: list[Line]

    def to_json(self) -> dict[str, Any]:
        return {"scope": self.scope.to_json(), "matches": self.matches, "finished": self.finished,
                "teams": [line.to_json() for line in self.teams], "players": [line.to_json() for line in self.players]}

    def to_csv(self, unreadable: Iterable[str] = ()) -> str:
        """One row per team, then one per player (``kind`` says which); the same numbers as the JSON. Then a row
        of kind ``unreadable`` for each match of ``unreadable`` (its code in ``team``'s place, no numbers): left
        out of the sums, so that a sheet's reader sees what they lack."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        for kind, lines in (("team", self.teams), ("player", self.players)):
            for line in lines:
                writer.writerow(inert(cell) for cell in (
                    kind, line.team, line.player or "", line.matches, line.won if line.player is None else "",
                    line.goals, line.field_goals, line.penalty_goals,
                    *(n for p in PENALTIES for n in (line.penalties[p], line.converted[p])),
                    sum(line.penalties.values()), sum(line.converted.values()), line.knockins, line.fouls_against,
                    line.yellow_cards, line.red_cards))
        writer.writerows(("unreadable", inert(code)) + ("",) * (len(CSV_COLUMNS) - 2) for code in unreadable)
        return BOM + out.getvalue()

    def to_text(self) -> str:
        """Two plain tables, for a terminal: the names column as wide as its longest name, cut from none."""
        def label(line: Line) -> str:
            return line.team if line.player is None else f"{line.player} ({line.team})"

        width = max((len(label(line)) + 1 for line in (*self.teams, *self.players)), default=32)
        width = max(width, 32)
        head = f"{'':{width}}{'games':>6}{'goals':>6}{'field':>6}{'pen.':>6}{'awd/taken':>10}{'conv.':>6}" \
               f"{'k-ins':>6}{'fouls':>6}{'yellow':>7}{'red':>4}"
        rows = [f"{self.matches} matches ({self.finished} finished)" + _scope_words(self.scope), ""]
        for heading, lines in (("Teams", self.teams), ("Players", self.players)):
            rows += [heading, head]
            for line in lines:
                rows.append(f"{label(line):{width}}{line.matches:>6}{line.goals:>6}{line.field_goals:>6}"
                            f"{line.penalty_goals:>6}{sum(line.penalties.values()):>10}"
                            f"{sum(line.converted.values()):>6}{line.knockins:>6}{line.fouls_against:>6}"
                            f"{line.yellow_cards:>7}{line.red_cards:>4}")
            rows.append("")
        return "\n".join(rows)

    def charts(self, lang: str = "en") -> list[Chart]:
        """A chart for each statistic, in ``lang``: per team, and per player where the player counts any."""
        scored = [line for line in self.players if line.goals]
        fouled = [line for line in self.players if line.fouls_against]
        scoring, converting = ("field", "penalty"), ("converted", "missed")
        charts: list[tuple[str, tuple[str, ...], list[tuple[str, tuple[float, ...]]]]] = [
            ("goals-teams", scoring, [(line.team, (line.field_goals, line.penalty_goals)) for line in self.teams]),
            ("penalties-numbers", converting,
             [(penalty_text(p, lang), (n := sum(line.converted[p] for line in self.teams),
                                       sum(line.penalties[p] for line in self.teams) - n)) for p in PENALTIES]),
            ("penalties-teams", converting, [(line.team, (c := sum(line.converted.values()),
                                                          sum(line.penalties.values()) - c)) for line in self.teams]),
            ("knockins-teams", ("knockins",), [(line.team, (line.knockins,)) for line in self.teams]),
            ("fouls-teams", ("fouls",), [(line.team, (line.fouls_against,)) for line in self.teams]),
            ("goals-players", scoring, [(f"{line.player} ({line.team})", (line.field_goals, line.penalty_goals))
                                        for line in sorted(scored, key=lambda line: -line.goals)]),
            ("fouls-players", ("fouls",), [(f"{line.player} ({line.team})", (line.fouls_against,))
                                           for line in sorted(fouled, key=lambda line: -line.fouls_against)]),
        ]
        return [bar_chart(chart_id, phrase("chart", chart_id, lang), [phrase("chart", name, lang) for name in series],
                          rows, phrase("chart", "no-data", lang)) for chart_id, series, rows in charts]


CSV_COLUMNS = ("kind", "team", "player", "matches", "won", "goals", "field_goals", "penalty_goals",
               *(column for p in PENALTIES for column in (f"penalty_{p}", f"penalty_{p}_converted")),
               "penalties", "penalties_converted", "knockins", "fouls_against", "yellow_cards", "red_cards")


def statistics(tallies: Iterable[Tally], scope: Scope) -> Stats:
    """The statistics of these matches (those ``scope`` covers, already chosen)."""
    book = _Book()
    for counted in tallies:
        book.count(counted)
    return Stats(scope, book.matches, book.finished, sorted(book.teams.values(), key=lambda line: fold(line.team)),
                 sorted(book.players.values(), key=lambda line: (fold(line.team), fold(line.player or ""))))


def lines_of(counted: Tally) -> list[Line]:
    """What one match adds to a season's statistics: its teams' lines, then its players'. Statistics add up
    match by match, so a season's line is the sum of its matches' lines for that team or player."""
    book = _Book()
    book.count(counted)
    return [*book.teams.values(), *book.players.values()]


class _Book:
    """The lines being counted, match by match."""

    def __init__(self) -> None:
        self.matches = self.finished = 0
        self.teams: dict[str, Line] = {}
        self.players: dict[tuple[str, str], Line] = {}

    def lines(self, counted: Tally, team: str, number: int | None) -> list[Line]:
        """The team's line, and its player's where the log names one."""
        lines = [self.teams[team]]
        if number is not None:
            name = counted.name(team, number) or f"No. {number}"
            lines.append(self.players.setdefault((team, name), Line(team, name)))
        return lines

    def count(self, counted: Tally) -> None:
        self.matches += 1
        self.finished += counted.status == FINISHED
        for team in counted.teams:
            line = self.teams.setdefault(team, Line(team))
            line.matches += counted.started  # a match opened ahead, a fixture's, is played from its first chukker
            line.won += counted.winner == team
        playing = {(team, number) for team in counted.teams for number in counted.roster(team)}
        playing |= {(goal.team, goal.player) for goal in counted.goals if goal.player is not None}
        playing |= {(award.team, award.taker) for award in counted.awards if award.taker is not None}
        playing |= {(foul.team, foul.player) for foul in counted.fouls if foul.player is not None}
        playing |= {(card.team, card.player) for card in counted.cards if card.player is not None}
        for line in {id(line): line for team, number in playing for line in self.lines(counted, team, number)[1:]
                     }.values():
            line.matches += counted.started
        for goal in counted.goals:
            for line in self.lines(counted, goal.team, goal.player):
                line.penalty_goals += goal.penalty
                line.field_goals += not goal.penalty
        for award in counted.awards:
            for line in self.lines(counted, award.team, award.taker):
                if award.penalty in PENALTIES:
                    line.penalties[award.penalty] += 1
                    line.converted[award.penalty] += award.converted
                else:
                    line.knockins += 1
        for foul in counted.fouls:
            for line in self.lines(counted, foul.team, foul.player):
                line.fouls_against += 1
        for card in counted.cards:
            for line in self.lines(counted, card.team, card.player):
                line.yellow_cards += card.colour == YELLOW
                line.red_cards += card.colour != YELLOW


def _scope_words(scope: Scope) -> str:
    words = [f"event {scope.event}" if scope.event else "", f"season {scope.season}" if scope.season else ""]
    return (": " + ", ".join(word for word in words if word)) if any(words) else ""
