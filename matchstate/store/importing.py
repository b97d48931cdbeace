"""Imports: a whole match log stored as a new match, in batches, all or nothing.

A long import written in one transaction would hold SQLite's write lock, and every live append,
for as long as it runs (a million events: half a minute). So an import writes its events in
batches, each a short transaction of its own, under a code no one knows and with ``importing`` set,
which hides the match from every list, read and check; only when the whole log is in does one last
short transaction give the match its code, its acts, its keys and its stored checkpoint (so that the first
append after an import resumes the match rather than replays it). A refused line, or a failure,
removes what was written; an import killed on the way leaves a hidden match that the next import
removes once it has written nothing for :data:`STALE`. On PostgreSQL the batches keep an import
linear too: one head update per batch rather than one per event on the same row.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..engine import Match
from ..errors import DuplicateMatch, IllegalEvent, InvalidEvent, RefusedEvent
from ..models import EventRow, MatchRow, RulingRow
from ..rulings import Ruling
from .cache import HELD_EVENTS, Head
from .checkpoints import STORED_EVERY
from .incoming import Incoming
from .leaguelog import IMPORT, event_leaf
from .sql import standing

if TYPE_CHECKING:
    from .facade import Store

BATCH = 1000  # events written per transaction
STALE = timedelta(minutes=10)  # an unfinished import that has written nothing for this long is dead


class Import:
    """One import into ``store``: the new match gets the live ``keys`` (role → hash); ``by`` is who imports."""

    def __init__(self, store: Store, keys: Mapping[str, str], by: str | None) -> None:
        self.store, self.keys, self.by = store, keys, by
        self.head: Head | None = None
        self.events: list[dict[str, Any]] = []
        self.rulings: list[dict[str, Any]] = []

    def run(self, lines: Iterable[str]) -> tuple[str, int]:
        """Store the log's lines; the new match's code and its number of events."""
        store = self.store
        secret = store.secrets.secret()  # refused before anything is written, where there is none
        remove_stale(store)
        received_at = store.clock()
        seq_of_id: dict[str, int] = {}
        try:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    incoming = Incoming.decode(line, None, received_at, store.engine_version)
                    device_id = incoming.event.get("id")
                    if isinstance(device_id, str) and device_id in seq_of_id:
                        raise IllegalEvent.said("id-taken-import", id=repr(device_id), seq=seq_of_id[device_id])
                    if self.head is None:
                        head, ruling = self._begin(incoming)
                    else:
                        head, ruling = self.head, self.head.match.feed(incoming.event)
                    event_row, ruling_row, stored = incoming.rows(head, ruling)
                except RefusedEvent as err:
                    raise err.at_line(number) from None
                if stored.device_id is not None:
                    seq_of_id[stored.device_id] = stored.seq
                self.events.append(event_row)
                self.rulings.append(ruling_row)
                if len(self.events) >= BATCH:
                    self._flush()
            if self.head is None:
                raise InvalidEvent.said("no-events")
            self._flush()
            head, code = self.head, self.head.match.info["match"]
            with store.database.transaction(write=True) as connection:
                try:
                    connection.execute(update(MatchRow).where(MatchRow.id == head.match_id)
                                       .values(code=code, importing=None))
                except IntegrityError:
                    raise DuplicateMatch.said("duplicate", code=repr(code)) from None
                acts_seq = store._register(connection, secret, head.match_id or 0, code, self.keys, received_at,
                                           self.by, "imported")
                store.log.add(connection, [event_leaf(IMPORT, code, seq, digest) for seq, digest in connection.execute(
                    select(EventRow.seq, EventRow.hash).where(EventRow.match_id == head.match_id)
                    .order_by(EventRow.seq))])
                store._seal_head(connection, secret, head.match_id or 0, code, head.match.seq, head.hash, acts_seq)
                if head.match.seq >= STORED_EVERY:  # the first append after it resumes here, not from the start
                    store._cache.checkpoint(connection, code, head)
        except BaseException:
            if self.head is not None and self.head.match_id is not None:
                discard(store, self.head.match_id)
            raise
        head.match.keep_last(HELD_EVENTS)  # as a cached engine does: the events before are read where needed
        with store._cache.lock(code):
            store._cache.remember(head)
        return code, head.match.seq

    def _begin(self, incoming: Incoming) -> tuple[Head, Ruling | None]:
        """The staged match's head, fed its match.start, and its row: under a code of its own, ``importing`` now."""
        store = self.store
        head = Head(None, Match())
        ruling = head.match.feed(incoming.event)  # a new Match takes nothing but a valid match.start
        code = head.match.info["match"]
        with store.database.transaction(write=True) as connection:
            if connection.execute(select(MatchRow.id).where(MatchRow.code == code)).first() is not None:
                raise DuplicateMatch.said("duplicate", code=repr(code))
            head.match_id = store._insert_match(connection, head.match, incoming.received_at,
                                                f"import:{uuid.uuid4().hex}", importing=store.clock())
        self.head = head
        return head, ruling

    def _flush(self) -> None:
        """Write the events and rulings taken so far, and the staged match's head, in one transaction."""
        head = self.head
        if head is None or not self.events:
            return
        match, last = head.match, self.events[-1]
        with self.store.database.transaction(write=True) as connection:
            connection.execute(insert(EventRow), self.events)
            connection.execute(insert(RulingRow), self.rulings)
            connection.execute(update(MatchRow).where(MatchRow.id == head.match_id).values(
                last_seq=last["seq"], last_hash=last["hash"], last_at=last["at"], state=match.state,
                score=match.score, status=standing(match), importing=self.store.clock()))
        self.events, self.rulings = [], []


def discard(store: Store, match_id: int) -> None:
    """Delete a staged import's rows, a batch at a time (each its own short transaction), its own row last."""
    while True:
        with store.database.transaction(write=True) as connection:
            seqs = connection.execute(select(EventRow.seq).where(EventRow.match_id == match_id)
                                      .order_by(EventRow.seq.desc()).limit(BATCH)).scalars().all()
            if not seqs:
                store._delete_rows(connection, match_id)
                return
            for table in (RulingRow, EventRow):
                connection.execute(delete(table).where(table.match_id == match_id, table.seq >= seqs[-1]))


def remove_stale(store: Store) -> None:
    """Remove every unfinished import that has written nothing for :data:`STALE` (its process is gone)."""
    with store.database.transaction() as connection:
        stale = connection.execute(select(MatchRow.id).where(MatchRow.importing < store.clock() - STALE)).scalars()
        found = list(stale)
    for match_id in found:
        discard(store, match_id)
