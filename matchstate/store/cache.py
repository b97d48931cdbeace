"""The engine cache: one engine per recently used match, fed up to its stored head.

An append then costs the same at event 10 and event 10,000: it feeds the cached engine the new
event instead of replaying the match. The cached engine is checked against the match's stored
head (last seq and hash) on every use, and catches up on events another process appended.

The cache holds engines up to a budget of memory (:data:`CACHE_BYTES` unless told), the least recently
used leaving first. Each engine holds only its last events (at least :data:`HELD_EVENTS`: a void further
back replays the match), and every :data:`~matchstate.store.checkpoints.STORED_EVERY` events a write stores
its checkpoint, so a match not in the cache is resumed from its checkpoint, not replayed from its start.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Select, bindparam

from ..engine import CHECKPOINT_EVERY, Match
from ..errors import RefusedEvent, TamperedStore
from ..log import parse_line
from ..models import EventRow
from .chain import GENESIS
from .checkpoints import STORED_EVERY, Checkpoints
from .snapshot import Snapshot, frozen_info
from .sql import LATER, HeadRow

CACHE_BYTES = 64 * 2**20  # the memory the cached engines may take, by their estimate (Head.nbytes)
# The events of a match up to a seq, as an engine that holds only its last events reads the rest (mid-append).
UP_TO = LATER.where(EventRow.seq <= bindparam("last_seq"))
HELD_EVENTS = CHECKPOINT_EVERY  # the fewest events an engine holds: "undo" that far back needs no replay
# An engine's memory: what every match takes, and what each event it holds adds (measured on a generated season
# with tracemalloc: tests/test_store_checkpoints.py checks the estimate, scripts/bench prints the measure).
MATCH_BYTES = 6_000
EVENT_BYTES = 360


@dataclass(slots=True)
class Head:
    """A match's engine fed up to the stored event whose hash is ``hash``; ``match_id`` its row's id."""

    match_id: int | None
    match: Match
    hash: str = GENESIS
    info: Mapping[str, Any] | None = None  # a frozen copy of its match.start, taken once
    stored_seq: int = 0  # the seq of the match's stored checkpoint, as far as this engine knows
    nbytes: int = 0  # its memory when last remembered, by the estimate

    def estimate(self) -> int:
        """The memory its engine takes, estimated from the events it holds."""
        return MATCH_BYTES + EVENT_BYTES * len(self.match.events)

    def snapshot(self) -> Snapshot:
        """The match as this head leaves it, copied (take it under the match's lock)."""
        if self.info is None:
            self.info = frozen_info(self.match)
        return Snapshot.of(self.match, self.hash, self.info)


class EngineCache:
    """The cached engines, by match code, up to ``budget`` bytes of memory, and a lock per match that guards
    each one; ``checkpoints`` the stored checkpoints they resume from (none: every miss replays).

    Hold :meth:`lock` of a match while using its :class:`Head`: the engine in it is fed in place. Each match's
    lock is its own (two matches never wait for each other, and their appends can share a commit), and lives
    only while someone holds or waits for it.
    """

    def __init__(self, budget: int = CACHE_BYTES, checkpoints: Checkpoints | None = None) -> None:
        self.budget = budget
        self.checkpoints = checkpoints
        self.nbytes = 0  # of the cached engines, by their estimates
        self._heads: OrderedDict[str, Head] = OrderedDict()
        self._heads_lock = threading.Lock()
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = weakref.WeakValueDictionary()

    def __len__(self) -> int:
        return len(self._heads)

    def __contains__(self, code: str) -> bool:
        return code in self._heads

    def lock(self, code: str) -> threading.Lock:
        """Match ``code``'s lock: hold on to it while holding or waiting for it (``with cache.lock(code):``)."""
        with self._heads_lock:
            lock = self._locks.get(code)
            if lock is None:
                lock = self._locks[code] = threading.Lock()
            return lock

    def remember(self, head: Head) -> None:
        """Keep ``head`` as its match's engine, the most recently used; the least recently used others leave
        while the engines take more than the budget."""
        code = head.match.start["match"]
        with self._heads_lock:
            before = self._heads.pop(code, None)
            if before is not None:
                self.nbytes -= before.nbytes
            head.nbytes = head.estimate()
            self._heads[code] = head
            self.nbytes += head.nbytes
            while self.nbytes > self.budget and len(self._heads) > 1:
                self.nbytes -= self._heads.popitem(last=False)[1].nbytes

    def forget(self, code: str) -> None:
        with self._heads_lock:
            head = self._heads.pop(code, None)
            if head is not None:
                self.nbytes -= head.nbytes

    def head(self, connection: Connection, code: str, row: HeadRow,
             device_id: str | None = None) -> tuple[Head, int | None]:
        """The engine of match ``code`` fed up to its stored head ``row``: the cached one where it is still right,
        else one resumed from its stored checkpoint or replayed from its start; :class:`TamperedStore` if the
        stored events do not lead to ``row``.

        With it, the seq of an event it read on the way that has ``device_id`` (None if none did): on PostgreSQL,
        an append's locking read of the head may have looked for its device id before another server's
        commit of the same event, which every event read here comes after.
        """
        with self._heads_lock:
            head = self._heads.get(code)
        # After a failed commit the cached engine is one event ahead: the check against the head finds it.
        seen: dict[str, int] = {}
        if head is not None:
            _lend(connection, code, head)
        if head is None or not _catch_up(connection, head, row, seen):
            head = self._resumed(connection, code, row, seen) or _replayed(connection, code, row, seen)
        self._keep(connection, code, head)
        return head, seen.get(device_id) if device_id is not None else None

    def _keep(self, connection: Connection, code: str, head: Head) -> None:
        """Keep ``head``, fed up to its stored head: its checkpoint stored where one is due and ``connection``
        writes, and its engine holding only its last events, which asks for the rest where a void needs them."""
        match = head.match
        if match.seq - head.stored_seq >= STORED_EVERY and _writing(connection):
            self.checkpoint(connection, code, head)
        _lend(connection, code, head)
        match.keep_last(HELD_EVENTS)
        self.remember(head)

    def checkpoint(self, connection: Connection, code: str, head: Head) -> None:
        """Store the checkpoint of ``head``'s engine, fed up to its stored head, as match ``code``'s, in
        ``connection``'s write transaction (where there are stored checkpoints and the secret to seal them)."""
        stored = self.checkpoints
        if stored is not None and stored.store(connection, code, head.match_id or 0, head.match, head.hash):
            head.stored_seq = head.match.seq

    def _resumed(self, connection: Connection, code: str, row: HeadRow, seen: dict[str, int]) -> Head | None:
        """The engine resumed from the match's stored checkpoint and caught up to ``row``; None where it has
        none, or one that does not lead to ``row``."""
        resumed = self.checkpoints.load(connection, code, row.id) if self.checkpoints is not None else None
        if resumed is None:
            return None
        match, digest = resumed
        head = Head(row.id, match, digest, stored_seq=match.seq)
        _lend(connection, code, head)
        return head if _catch_up(connection, head, row, seen) else None


def _replayed(connection: Connection, code: str, row: HeadRow, seen: dict[str, int],
              later: Select[*tuple[Any, ...]] = LATER) -> Head:
    """The engine of match ``code`` replayed from its start up to ``row``, reading its events with ``later``."""
    head = Head(row.id, Match())
    if not _catch_up(connection, head, row, seen, later):
        raise TamperedStore(f"match {code}: the stored events do not chain and replay up to its head; "
                            f"run `matchstate verify {code}`")
    return head


def _lend(connection: Connection, code: str, head: Head) -> None:
    """Let ``head``'s engine, which may hold only its last events, replay the whole match through ``connection``
    where a void needs the events before them (it is fed only inside ``connection``'s transaction)."""
    match = head.match
    match.earlier = lambda: _replayed(connection, code, HeadRow(head.match_id or 0, match.seq, head.hash), {},
                                      UP_TO).match


def _writing(connection: Connection) -> bool:
    """Whether ``connection``'s transaction is one that writes (Database.transaction(write=True))."""
    return bool(connection.get_execution_options().get("write", False))


def _catch_up(connection: Connection, head: Head, row: HeadRow, seen: dict[str, int],
              later: Select[*tuple[Any, ...]] = LATER) -> bool:
    """Feed ``head`` the stored events after its seq, noting each one's device id in ``seen``; False where they
    do not lead on from it to ``row``."""
    if head.match_id != row.id or head.match.seq > row.last_seq:
        return False
    if head.match.seq < row.last_seq:
        for stored in connection.execute(later, {"match_id": row.id, "seq": head.match.seq, "last_seq": row.last_seq}):
            if stored.seq != head.match.seq + 1 or stored.prev_hash != head.hash:
                return False
            try:
                head.match.feed(parse_line(stored.raw))
            except RefusedEvent:
                return False
            head.hash = stored.hash
            if stored.device_id is not None:
                seen[stored.device_id] = stored.seq
    return head.match.seq == row.last_seq and head.hash == row.last_hash
