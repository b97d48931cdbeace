"""The match list and its search: by team, event, venue, player (the rosters' names), date and standing.

Text matches case- and accent-insensitively, word by word: every word of the query must be found
within the field ("arao" finds "Facundo Aráoz", "cup 26" finds "Test Cup 2026"). A date matches
by its start (``2026``, ``2026-11``, ``2026-11-29``), in the match.start's own ``at``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import InvalidQuery
from ..standing import fold as fold
from .tally import FINISHED, STATUSES, winner
from .timeline import Event

if TYPE_CHECKING:
    from ..store import Unreadable


def match_date(start: Event) -> date:
    """The day a match starts, as its match.start's ``at`` writes it (the venue's own day)."""
    return datetime.fromisoformat(start["at"]).date()


@dataclass(frozen=True, slots=True)
class Listed:
    """A match as the list shows it: its match.start, the store's head (score, state, events) and its standing."""

    code: str
    start: Event
    score: dict[str, float]
    state: str
    events: int
    started: datetime
    status: str

    @property
    def winner(self) -> str | None:
        return winner(self.score) if self.status == FINISHED else None

    def players(self) -> list[str]:
        rosters = self.start.get("rosters") or {}
        return [player.get("name", "") for team in rosters.values() for player in team or []]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "teams": list(self.start["teams"]), "score": dict(self.score),
                "state": self.state, "events": self.events, "started": self.started.isoformat(),
                "date": match_date(self.start).isoformat(), "status": self.status, "winner": self.winner,
                "event": self.start.get("event"), "venue": self.start.get("venue")}


Found = TypeVar("Found", "Listed", "Listed | Unreadable")


@dataclass(frozen=True, slots=True)
class Filters:
    """What to look for; an empty filter matches every match."""

    team: str = ""
    event: str = ""
    venue: str = ""
    player: str = ""
    date: str = ""  # YYYY, YYYY-MM or YYYY-MM-DD
    status: str = ""  # scheduled, in_play or finished
    state: str = ""  # the free-hit state, as the engine names it

    def __post_init__(self) -> None:
        if self.status and self.status not in STATUSES:
            raise InvalidQuery.said("status", statuses=", ".join(STATUSES), status=repr(self.status))
        if self.date and not _a_day_or_more(self.date):  # it found no match, and said nothing
            raise InvalidQuery.said("date-filter", date=repr(self.date))


_DAY_OR_MORE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?", re.ASCII)


def _a_day_or_more(text: str) -> bool:
    """Whether ``text`` names a year, a month or a day: YYYY, YYYY-MM or YYYY-MM-DD, one the calendar has."""
    if not _DAY_OR_MORE.fullmatch(text):
        return False
    try:
        date.fromisoformat({4: f"{text}-01-01", 7: f"{text}-01"}.get(len(text), text))
    except ValueError:  # a month 13, a February 30
        return False
    return True


def find(matches: Iterable[Found], filters: Filters) -> list[Found]:
    """The matches that every filter given finds, in the order given; one whose row cannot be read back is kept
    (no filter can tell whether it finds it)."""
    return [match for match in matches if not isinstance(match, Listed) or _finds(match, filters)]


def _finds(match: Listed, filters: Filters) -> bool:
    start = match.start
    return (_words(filters.team, start["teams"]) and _words(filters.event, [start.get("event") or ""])
            and _words(filters.venue, [start.get("venue") or ""]) and _words(filters.player, match.players())
            and match_date(start).isoformat().startswith(filters.date)
            and filters.status in ("", match.status) and filters.state in ("", match.state))


def _words(query: str, fields: Iterable[str]) -> bool:
    """Whether one of ``fields`` holds every word of ``query`` (an empty query holds everywhere)."""
    words = fold(query).split()
    return not words or any(all(word in fold(field) for word in words) for field in fields)
