"""What the store hands back: frozen values, never its own live objects."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

from ..errors import RefusedEvent, TamperedStore
from .snapshot import Snapshot

if TYPE_CHECKING:  # receipts reads the league log, which reads the store's statements, which read these results
    from sqlalchemy import Row

    from .receipts import AnyReceipt

T = TypeVar("T")
# What reading a row raises where SQL changed a column into what its type cannot read back (SQLite keeps any text:
# a word in a time, garbage in JSON) or into what no match of the store's holds (a score that is no object).
UNREADABLE = (ValueError, TypeError, KeyError, RefusedEvent)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One stored event: ``raw`` is its JSON exactly as received; ``ruling``, ``state``, ``clock`` and ``flags``
    what the engine gave (``clock`` and ``flags`` are None for an event stored before log format 1.1's engine)."""

    seq: int
    type: str
    at: datetime
    raw: str
    ruling: dict[str, Any] | None
    state: str | None
    device_id: str | None
    by: str | None
    role: str | None
    received_at: datetime
    prev_hash: str
    hash: str
    clock: dict[str, Any] | None = None
    flags: list[str] | None = None


@dataclass(frozen=True, slots=True)
class Appended:
    """The result of an append: the event as stored (for a retry, the stored one), whether it was a retry
    answered from the store, a snapshot of the match right after it, and its receipt: its league log leaf's tlog
    proof in a signed checkpoint (:mod:`~matchstate.store.receipts`)."""

    event: StoredEvent
    duplicate: bool
    match: Snapshot = field(compare=False)
    receipt: AnyReceipt = field(compare=False)

    @property
    def proof(self) -> str | None:
        """Its C2SP tlog proof in the league log (None for an event stored before the log: a signed receipt)."""
        return getattr(self.receipt, "proof", None)


@dataclass(frozen=True, slots=True)
class Summary:
    """A match as listed: ``started`` is its match.start's ``at``, ``created`` when the store got it."""

    code: str
    teams: list[str]
    score: dict[str, float]
    state: str
    created: datetime
    started: datetime | None
    last_at: datetime
    last_seq: int
    status: str
    start: dict[str, Any]  # its match.start, as received

    @classmethod
    def read(cls, row: Row[Any]) -> Summary:
        """The match as its listed row (its ``start`` the match.start's JSON text) reads back; ValueError where a
        column holds what no match the store wrote can: a score that is no object of numbers, teams that are no
        two names, a time that is none, a match.start that is no JSON object of those teams."""
        start = json.loads(row.start)
        datetime.fromisoformat(start["at"])  # the list reads its day from it
        summary = cls(**{**row._mapping, "start": start})
        teams, score = summary.teams, summary.score
        if not (isinstance(teams, list) and len(teams) == 2 and all(isinstance(team, str) for team in teams)
                and start["teams"] == teams
                and isinstance(score, dict) and all(isinstance(team, str) and isinstance(goals, int | float)
                                                    and not isinstance(goals, bool) for team, goals in score.items())
                and all(isinstance(text, str) for text in (summary.code, summary.state, summary.status))
                and isinstance(summary.last_seq, int)
                and all(isinstance(time, datetime) for time in (summary.created, summary.last_at, summary.started))):
            raise ValueError("its teams, score, state, standing, times or match.start are not a match's")
        return summary


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A match whose stored rows cannot be read back as the store wrote them (changed behind its back): its code
    and what failed as it was read. ``matchstate verify`` says what was changed."""

    code: str
    why: str

    def error(self) -> TamperedStore:
        """What is said of it: its code and why, pointing at ``matchstate verify`` (the catalog's words)."""
        return TamperedStore.unreadable(self.code, self.why)

    def to_json(self) -> dict[str, Any]:
        """Its place in the API's match list: its code, ``unreadable``, and what is said of it (as a refusal's)."""
        return {"code": self.code, "unreadable": True, **self.error().body()}


def read_back(code: str, read: Callable[[], T]) -> T | Unreadable:
    """What ``read()`` reads of match ``code``; or, where a row of it cannot be read back, the match as
    :class:`Unreadable`: the one way every listing reads a match, so that one bad row names its match and never
    stops the league's list."""
    try:
        return read()
    except UNREADABLE as err:
        return Unreadable(code, f"{type(err).__name__}: {err}")


def read_or_refuse(code: str, read: Callable[[], T]) -> T:
    """What ``read()`` reads of match ``code``; :class:`~matchstate.errors.TamperedStore` naming the match where a
    row of it cannot be read back (:func:`read_back`)."""
    found = read_back(code, read)
    if isinstance(found, Unreadable):
        raise found.error()
    return found


# The list's orders: when the store got the match, or its code; "-" reverses ("-created": newest first).
Sort = Literal["created", "-created", "code", "-code"]
SORTS: tuple[str, ...] = get_args(Sort)


@dataclass(frozen=True, slots=True)
class MatchQuery:
    """Which matches to list, in which order, which page: filters the store's SQL can apply.

    ``team`` words must all be found in one team's name, as search compares them (see
    :func:`~matchstate.records.search.fold`); ``day`` is a prefix of the match.start's day
    (``2026``, ``2026-11``); ``status`` the standing, ``state`` the free-hit state; an empty one finds all.
    """

    team: tuple[str, ...] = ()
    day: str = ""
    status: str = ""
    state: str = ""
    sort: Sort = "created"
    limit: int | None = None
    offset: int = 0
    after: str | None = None  # the code of the last match of the page before: the page after it (keyset)
