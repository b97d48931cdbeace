"""Imports: a whole match log stored as a new match, in batches, all or nothing.

A long import written in one transaction would hold SQLite's write lock, and every live append,
for as long as it runs (a million events: half a minute). So an import writes its events in
batches, each a short transaction of its own, under a code no one knows and with ``importing`` set,
which hides the match from every list, read and check; only when the whole log is in does one last
short transaction give the match its code, its acts, its keys and its stored checkpoint (so that the first
append after an import resumes the match rather than replays it). A refused line, or a failure,
removes what was written; an import killed on the way leaves a hidden match that the next import
removes once it has written nothing for :data:`STALE`. On PostgreSQL the batches keep an import
linear too: one head update per batch rather than one per event on the same row, and its rows streamed in
with COPY (:mod:`~matchstate.store.dialects`).

Publishing goes in short transactions too. The first takes the match's code, the match still hidden (so a
match created under that code meanwhile is refused as a duplicate, not the import after its leaves are out).
Then its events' leaves go into the league log :data:`LEAVES` at a time, each batch a transaction of its own
under the log's lock, so live appends' leaves fall between them rather than wait for all of them; the last
transaction adds the last leaves with the match's acts, keys, seal and checkpoint, and shows the match. An import
killed while publishing leaves its leaves in the log (the log forgets nothing); since no match was shown under
its code, ``verify`` counts them as no match's history (leaves with no ``create`` act of their match after
them), and the log may be imported again.

Between two batches the import holds no transaction and no lock, and it hands its thread's turn on
(:func:`hand_on`, a seam a test replaces): a server's event loop and its live appends wait for a batch at most.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from sqlalchemy import Connection, delete, select, update
from sqlalchemy.exc import IntegrityError

from ..errors import DuplicateMatch, IllegalEvent, InvalidEvent, RefusedEvent
from ..models import ActRow, EventRow, MatchRow, RulingRow
from ..rulings import Ruling
from .acts import CREATE, REMOVE
from .cache import HELD_EVENTS, EngineCache, Head
from .checkpoints import STORED_EVERY
from .incoming import Incoming
from .leaguelog import IMPORT, Leaf, LeagueLog, event_leaf, ready
from .writer import Writer

BATCH = 1000  # events written per transaction
LEAVES = 1000  # the league log's leaves added per transaction: each holds the log's lock from a live append
STALE = timedelta(minutes=10)  # an unfinished import that has written nothing for this long is dead
Clock = Callable[[], datetime]


def hand_on(events: int, leaves: int = 0) -> None:
    """Between two batches (``events`` taken so far, ``leaves`` of them in the league log): let the process's
    other threads run (an import is CPU bound, and Python's threads take turns: a sleep hands the turn on at once,
    where a busy thread would keep it up to the interpreter's switch interval each time another asks)."""
    time.sleep(0.001)


# What else storing a new match writes, in the transaction that makes it whole, given the connection and the match's
# code (a tournament's fixture taking the match): what it raises stores nothing of the match.
Also = Callable[[Connection, str], None]


class Imported(NamedTuple):
    """What an import stored: its match's code and its number of events."""

    code: str
    events: int


class Import:
    """One import through ``writer``: the new match gets the live ``keys`` (role → hash); ``by`` is who imports.
    ``cache`` keeps its engine once it is whole, ``log`` is the league log its events go into, ``clock`` and
    ``engine_version`` the store's; ``also(connection, code)`` writes in the transaction that makes it whole."""

    def __init__(self, writer: Writer, cache: EngineCache, log: LeagueLog, clock: Clock, engine_version: str,
                 keys: Mapping[str, str], by: str | None, also: Also | None) -> None:
        self.writer, self.cache, self.log, self.clock, self.engine_version = writer, cache, log, clock, engine_version
        self.keys, self.by, self.also = keys, by, also
        self.head: Head | None = None
        self.events: list[dict[str, Any]] = []
        self.rulings: list[dict[str, Any]] = []

    def run(self, secret: bytes, lines: Iterable[str]) -> Imported:
        """Store the log's lines, sealed with ``secret``; the new match's code and its number of events."""
        remove_stale(self.writer, self.clock)
        received_at = self.clock()
        seq_of_id: dict[str, int] = {}
        try:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    incoming = Incoming.decode(line, None, received_at, self.engine_version)
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
            head = self.head
            code = self._publish(secret, head, received_at)
        except BaseException:
            if self.head is not None and self.head.match_id is not None:
                discard(self.writer, self.head.match_id)
            raise
        head.match.keep_last(HELD_EVENTS)  # as a cached engine does: the events before are read where needed
        with self.cache.lock(code):
            self.cache.remember(head)
        return Imported(code, head.match.seq)

    def _publish(self, secret: bytes, head: Head, received_at: datetime) -> str:
        """Give the whole staged match its code, its league log leaves, its acts, its keys, its seal and its
        checkpoint (see the module's docstring); its code."""
        code: str = head.match.start["match"]
        match_id = head.match_id or 0
        staged = update(MatchRow).where(MatchRow.id == match_id)
        with self.writer.database.transaction(write=True) as connection:
            try:
                connection.execute(staged.values(code=code, importing=self.clock()))
            except IntegrityError:
                raise DuplicateMatch.said("duplicate", code=repr(code)) from None
        published, events = 0, head.match.seq
        while events - published > LEAVES:
            leaves = _leaves(self.writer, match_id, code, published, LEAVES)  # hashed before the log's lock
            with self.writer.database.transaction(write=True) as connection:
                self.log.add(connection, leaves)
                connection.execute(staged.values(importing=self.clock()))  # alive: not stale
            published += LEAVES
            hand_on(events, published)
        leaves = _leaves(self.writer, match_id, code, published, events - published)
        with self.writer.database.transaction(write=True) as connection:
            if self.also is not None:
                self.also(connection, code)
            connection.execute(staged.values(importing=None))
            acts_seq = self.writer.register(connection, secret, match_id, code, self.keys, received_at, self.by,
                                            "imported")
            self.writer.forget_seat(connection, code)
            self.log.add(connection, leaves)
            self.writer.seal_head(connection, secret, match_id, code, head.match.seq, head.hash, acts_seq)
            if head.match.seq >= STORED_EVERY:  # the first append after it resumes here, not from the start
                self.cache.checkpoint(connection, code, head)
        return code

    def _begin(self, incoming: Incoming) -> tuple[Head, Ruling | None]:
        """The staged match's head, fed its match.start, and its row: under a code of its own, ``importing`` now."""
        head, ruling = incoming.start()
        code = head.match.start["match"]
        with self.writer.database.transaction(write=True) as connection:
            if connection.execute(select(MatchRow.id).where(MatchRow.code == code)).first() is not None:
                raise DuplicateMatch.said("duplicate", code=repr(code))
            head.match_id = self.writer.insert_match(connection, head.match, incoming.received_at,
                                                     f"import:{uuid.uuid4().hex}", importing=self.clock())
        self.head = head
        return head, ruling

    def _flush(self) -> None:
        """Write the events and rulings taken so far, and the staged match's head, in one transaction; then hand
        the thread's turn on."""
        head = self.head
        if head is None or not self.events:
            return
        with self.writer.database.transaction(write=True) as connection:
            self.writer.write_batch(connection, head, self.events, self.rulings, self.clock())
        self.events, self.rulings = [], []
        hand_on(head.match.seq)


def _leaves(writer: Writer, match_id: int, code: str, after: int, count: int) -> list[Leaf]:
    """The league log's leaves of the ``count`` events after seq ``after`` of staged match ``match_id``, read in
    a transaction of their own and made ready to add."""
    with writer.database.transaction() as connection:
        rows = connection.execute(select(EventRow.seq, EventRow.hash).where(
            EventRow.match_id == match_id, EventRow.seq > after, EventRow.seq <= after + count).order_by(EventRow.seq))
        return [ready(event_leaf(IMPORT, code, seq, digest)) for seq, digest in rows]


def discard(writer: Writer, match_id: int) -> None:
    """Delete a staged import's rows, a batch at a time (each its own short transaction), its own row last."""
    while True:
        with writer.database.transaction(write=True) as connection:
            seqs = connection.execute(select(EventRow.seq).where(EventRow.match_id == match_id)
                                      .order_by(EventRow.seq.desc()).limit(BATCH)).scalars().all()
            if not seqs:
                writer.delete_rows(connection, match_id)
                return
            for table in (RulingRow, EventRow):
                connection.execute(delete(table).where(table.match_id == match_id, table.seq >= seqs[-1]))


def remove_stale(writer: Writer, clock: Clock) -> None:
    """Remove every unfinished import that has written nothing for :data:`STALE` (its process is gone). An import
    is finished by the act that creates its match, in the transaction that clears ``importing``: a match the acts
    created (and did not remove since) is never removed here, whatever its row's ``importing`` says."""
    with writer.database.transaction() as connection:
        stale = connection.execute(select(MatchRow.id, MatchRow.code).where(MatchRow.importing < clock() - STALE))
        found = [match_id for match_id, code in list(stale) if not _created(connection, code)]
    for match_id in found:
        discard(writer, match_id)


def _created(connection: Connection, code: str) -> bool:
    """Whether the acts created match ``code`` and have not removed it since."""
    last = connection.execute(select(ActRow.act).where(ActRow.code == code, ActRow.act.in_((CREATE, REMOVE)))
                              .order_by(ActRow.seq.desc()).limit(1)).scalar()
    return last == CREATE
