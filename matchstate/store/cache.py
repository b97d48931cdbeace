"""The engine cache: one engine per recently used match, fed up to its stored head.

An append then costs the same at event 10 and event 10,000: it feeds the cached engine the new
event instead of replaying the match. The cached engine is checked against the match's stored
head (last seq and hash) on every use, and catches up on events another process appended.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection

from ..engine import Match
from ..errors import RefusedEvent, TamperedStore
from ..log import parse_line
from .chain import GENESIS
from .snapshot import Snapshot, frozen_info
from .sql import LATER, HeadRow

CACHE_SIZE = 64  # matches whose engine is kept in memory
LOCK_STRIPES = 64


@dataclass(slots=True)
class Head:
    """A match's engine fed up to the stored event whose hash is ``hash``; ``match_id`` its row's id."""

    match_id: int | None
    match: Match
    hash: str = GENESIS
    info: Mapping[str, Any] | None = None  # a frozen copy of its match.start, taken once

    def snapshot(self) -> Snapshot:
        """The match as this head leaves it, copied (take it under the match's lock)."""
        if self.info is None:
            self.info = frozen_info(self.match)
        return Snapshot.of(self.match, self.hash, self.info)


class EngineCache:
    """The cached engines, by match code, and a lock per match (striped) that guards each one.

    Hold :meth:`lock` of a match while using its :class:`Head`: the engine in it is fed in place.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._heads: OrderedDict[str, Head] = OrderedDict()
        self._heads_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]

    def lock(self, code: str) -> threading.Lock:
        return self._locks[hash(code) % LOCK_STRIPES]

    def remember(self, head: Head) -> None:
        code = head.match.info["match"]
        with self._heads_lock:
            self._heads[code] = head
            self._heads.move_to_end(code)
            if len(self._heads) > self.size:
                self._heads.popitem(last=False)

    def forget(self, code: str) -> None:
        with self._heads_lock:
            self._heads.pop(code, None)

    def head(self, connection: Connection, code: str, row: HeadRow,
             device_id: str | None = None) -> tuple[Head, int | None]:
        """The engine of match ``code`` fed up to its stored head ``row``: the cached one where it is still right,
        else one replayed from the stored events; :class:`TamperedStore` if they do not lead to ``row``.

        With it, the seq of an event it read on the way that has ``device_id`` (None if none did): on PostgreSQL,
        an append's locking read of the head may have looked for its device id before another server's
        commit of the same event, which every event read here comes after.
        """
        with self._heads_lock:
            head = self._heads.get(code)
        # After a failed commit the cached engine is one event ahead: the check against the head finds it.
        seen: dict[str, int] = {}
        if head is None or not _catch_up(connection, head, row, seen):
            head = Head(row.id, Match())
            if not _catch_up(connection, head, row, seen):
                raise TamperedStore(f"match {code}: the stored events do not chain and replay up to its head; "
                                    f"run `matchstate verify {code}`")
        self.remember(head)
        return head, seen.get(device_id) if device_id is not None else None


def _catch_up(connection: Connection, head: Head, row: HeadRow, seen: dict[str, int]) -> bool:
    """Feed ``head`` the stored events after its seq, noting each one's device id in ``seen``; False where they
    do not lead on from it to ``row``."""
    if head.match_id != row.id or head.match.seq > row.last_seq:
        return False
    if head.match.seq < row.last_seq:
        for stored in connection.execute(LATER, {"match_id": row.id, "seq": head.match.seq}):
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
