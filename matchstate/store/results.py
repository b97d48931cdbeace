"""What the store hands back: frozen values, never its own live objects."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, get_args

from .snapshot import Snapshot

if TYPE_CHECKING:  # receipts reads the league log, which reads the store's statements, which read these results
    from .receipts import AnyReceipt


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
    start: str  # its match.start, as received


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
