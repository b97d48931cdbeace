"""The ``Store``: create, append, import, read and verify matches, over the chain, the SQL and the cache."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import URL, Connection, Engine, insert, select
from sqlalchemy.exc import IntegrityError

from ..engine import Match
from ..errors import ConflictError, DuplicateMatch, IllegalEvent, InvalidEvent, RefusedEvent, StoreError, UnknownMatch
from ..log import parse_line
from ..models import EventRow, MatchRow
from ..rulings import Ruling
from ..version import ENGINE_VERSION
from .cache import EngineCache, Head
from .chain import GENESIS, canonical, chain_hash, sealed
from .database import Database, database_url
from .snapshot import Snapshot
from .sql import (
    CHECKED,
    EVENT,
    EVENTS,
    HEAD,
    MATCH_ROWS,
    SUMMARIES,
    AppendStatements,
    HeadRow,
    event_columns,
    match_columns,
)
from .verify import Problem, verify_match

ROLES = ("scorer", "official")
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One stored event: ``raw`` is its JSON exactly as received; ``ruling`` and ``state`` what the engine gave."""

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


@dataclass(frozen=True, slots=True)
class Appended:
    """The result of an append: the event as stored (for a retry, the stored one), whether it was
    a retry answered from the store, and a snapshot of the match right after it."""

    event: StoredEvent
    duplicate: bool
    match: Snapshot = field(compare=False)


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


@dataclass(frozen=True, slots=True)
class _Incoming:
    """An event as received: its text, its decoded object, the server's facts about it (and the version
    of the engine that rules it), and what its hash covers (:func:`~matchstate.store.chain.sealed`), made once."""

    raw: str
    event: dict[str, Any]
    role: str | None
    received_at: datetime
    engine_version: str
    sealed: bytes

    @classmethod
    def decode(cls, event: Mapping[str, Any] | str, role: str | None, received_at: datetime,
               engine_version: str) -> _Incoming:
        """A log line (its line break dropped) or an event object; refused as ``log.parse_line`` refuses."""
        if isinstance(event, str):
            raw = event.rstrip("\r\n")
        else:
            try:
                raw = json.dumps(event, ensure_ascii=False)
            except (TypeError, ValueError) as err:
                raise InvalidEvent(f"not JSON: {err}") from None
        obj = parse_line(raw)
        return cls(raw, obj, role, received_at, engine_version, sealed(obj, role, received_at, engine_version))


class Store:
    """Matches in a database: create, append, read and verify them. A Store may be shared by threads.

    ``clock`` gives the server's time for each event received (UTC); ``engine_version`` is kept with
    each ruling and covered by its hash (this engine's, :data:`~matchstate.version.ENGINE_VERSION`,
    unless a test says otherwise).
    """

    def __init__(self, url: str | None = None, *, clock: Clock = utc_now,
                 engine_version: str = ENGINE_VERSION) -> None:
        self.database = Database(database_url(url))
        self.clock = clock
        self.engine_version = engine_version
        self._statements = AppendStatements(self.engine.dialect)
        self._cache = EngineCache()

    @property
    def url(self) -> URL:
        return self.database.url

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for tests and tools that read the tables themselves)."""
        return self.database.engine

    def close(self) -> None:
        """Close the database connections."""
        self.database.close()

    def upgrade(self) -> None:
        """Bring the database to the latest schema (``alembic upgrade head``)."""
        self.database.upgrade()

    def schema_is_current(self) -> bool:
        """Whether the database has had every migration."""
        return self.database.schema_is_current()

    # -- writing ---------------------------------------------------------------------

    def create_match(self, start_event: Mapping[str, Any] | str, *, scorer_key_hash: str | None = None,
                     official_key_hash: str | None = None, role: str | None = None) -> Appended:
        """Store a new match from its match.start, as seq 1; :class:`DuplicateMatch` if its code is taken."""
        incoming = self._incoming(start_event, role)
        with self.database.transaction(write=True) as connection:
            head, stored = self._start(connection, incoming, scorer_key_hash, official_key_hash)
        with self._cache.lock(head.match.info["match"]):
            self._cache.remember(head)
            return Appended(stored, False, head.snapshot())

    def append(self, code: str, event: Mapping[str, Any] | str, expected_seq: int | None = None, *,
               role: str | None = None) -> Appended:
        """Check ``event`` with the engine and append it to match ``code``, durably.

        ``event`` is an event object or its JSON text. A refused event raises
        :class:`RefusedEvent` and writes nothing. With ``expected_seq``, the append is made
        only if it is still the match's last seq, else :class:`ConflictError`. Returns the event
        as stored and a snapshot of the match after it; an event whose device ``id`` is stored
        already is a retried send: the stored event comes back, ``duplicate=True``, and nothing is written.
        """
        incoming = self._incoming(event, role)
        device_id = incoming.event.get("id")
        with self._cache.lock(code), self.database.transaction(write=True) as connection:
            found = self._statements.head.run(connection, {
                "code": code, "device_id": device_id if isinstance(device_id, str) else None})
            if found is None:
                raise _unknown(code)
            match_id, last_seq, last_hash, retried_seq = found
            row = HeadRow(match_id, last_seq, last_hash)
            if retried_seq is not None:
                return self._retried(connection, code, row, retried_seq, incoming)
            if expected_seq is not None and expected_seq != row.last_seq:
                raise ConflictError(f"match {code} is at seq {row.last_seq}, not {expected_seq}: reload and retry",
                                    row.last_seq)
            head = self._cache.head(connection, code, row)
            ruling = head.match.feed(incoming.event)
            stored = self._record(connection, head, incoming, ruling)
            return Appended(stored, False, head.snapshot())

    def import_log(self, lines: Iterable[str]) -> tuple[str, int]:
        """Store a whole match log as a new match, atomically; returns its code and number of events.

        A refused line (with its line number) stores nothing, as does a device ``id`` used twice.
        """
        received_at = self.clock()
        head = None
        seq_of_id: dict[str, int] = {}
        with self.database.transaction(write=True) as connection:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    incoming = _Incoming.decode(line, None, received_at, self.engine_version)
                    device_id = incoming.event.get("id")
                    if isinstance(device_id, str) and device_id in seq_of_id:
                        raise IllegalEvent(f"id {device_id!r} is the id of seq {seq_of_id[device_id]} already")
                    if head is None:
                        head, stored = self._start(connection, incoming)
                    else:
                        stored = self._record(connection, head, incoming, head.match.feed(incoming.event))
                    if stored.device_id is not None:
                        seq_of_id[stored.device_id] = stored.seq
                except RefusedEvent as err:
                    raise err.at_line(number) from None
            if head is None:
                raise InvalidEvent("the log has no events")
        self._cache.remember(head)
        return head.match.info["match"], head.match.seq

    def _incoming(self, event: Mapping[str, Any] | str, role: str | None) -> _Incoming:
        if role not in (None, *ROLES):
            raise StoreError(f"role must be one of {ROLES} or None, not {role!r}")
        return _Incoming.decode(event, role, self.clock(), self.engine_version)

    def _start(self, connection: Connection, incoming: _Incoming, scorer_key_hash: str | None = None,
               official_key_hash: str | None = None) -> tuple[Head, StoredEvent]:
        head = Head(None, Match())
        ruling = head.match.feed(incoming.event)  # a new Match takes nothing but a valid match.start
        try:
            head.match_id = connection.execute(insert(MatchRow).values(
                **match_columns(head.match, incoming.received_at), scorer_key_hash=scorer_key_hash,
                official_key_hash=official_key_hash, last_seq=0, last_hash=GENESIS,
            )).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            raise DuplicateMatch(f"match {head.match.info['match']!r} is in the store already") from None
        return head, self._record(connection, head, incoming, ruling)

    def _record(self, connection: Connection, head: Head, incoming: _Incoming, ruling: Ruling | None) -> StoredEvent:
        """Write the event just fed to ``head``'s engine, its ruling, and the match's new head."""
        match = head.match
        columns = event_columns(match.events[-1])
        digest = chain_hash(head.hash, incoming.sealed)
        ruling_json = ruling.to_json() if ruling is not None else None
        key = {"match_id": head.match_id, "seq": match.seq}
        statements = self._statements
        role, received_at = incoming.role, incoming.received_at
        statements.insert_event.run(connection, {**key, **columns, "raw": incoming.raw, "role": role,
                                                 "received_at": received_at, "prev_hash": head.hash, "hash": digest})
        statements.insert_ruling.run(connection, {**key, "ruling": ruling_json, "state": match.state,
                                                  "engine_version": incoming.engine_version})
        statements.advance.run(connection, {"match_id": head.match_id, "last_seq": match.seq, "last_hash": digest,
                                            "last_at": columns["at"], "state": match.state, "score": match.score})
        stored = StoredEvent(seq=match.seq, raw=incoming.raw, ruling=ruling_json, state=match.state, role=role,
                             received_at=received_at, prev_hash=head.hash, hash=digest, **columns)
        head.hash = digest
        return stored

    def _retried(self, connection: Connection, code: str, row: HeadRow, seq: int, incoming: _Incoming) -> Appended:
        """The stored result of event ``seq``, which has the incoming event's device ``id``: a retried send."""
        stored = StoredEvent(**connection.execute(EVENT, {"match_id": row.id, "seq": seq}).one()._mapping)
        if canonical(parse_line(stored.raw)) != canonical(incoming.event):
            raise IllegalEvent(f"id {stored.device_id!r} is the id of seq {stored.seq} already, a different event")
        return Appended(stored, True, self._cache.head(connection, code, row).snapshot())

    # -- reading ---------------------------------------------------------------------

    def _head_row(self, connection: Connection, code: str) -> HeadRow:
        row = connection.execute(HEAD, {"code": code}).first()
        if row is None:
            raise _unknown(code)
        return HeadRow(*row)

    def match(self, code: str) -> Snapshot:
        """A snapshot of match ``code`` as stored."""
        with self._cache.lock(code), self.database.transaction() as connection:
            return self._cache.head(connection, code, self._head_row(connection, code)).snapshot()

    def events(self, code: str, after_seq: int = 0) -> list[StoredEvent]:
        """The stored events of match ``code`` after ``after_seq``, in order."""
        with self.database.transaction() as connection:
            match_id = self._head_row(connection, code).id
            rows = connection.execute(EVENTS.where(EventRow.match_id == match_id, EventRow.seq > after_seq)
                                      .order_by(EventRow.seq))
            return [StoredEvent(**row._mapping) for row in rows]

    def event(self, code: str, seq: int) -> StoredEvent | None:
        """The stored event ``seq`` of match ``code``; None if it has no such event."""
        with self.database.transaction() as connection:
            row = connection.execute(EVENT, {"match_id": self._head_row(connection, code).id, "seq": seq}).first()
        return None if row is None else StoredEvent(**row._mapping)

    def summaries(self) -> list[Summary]:
        """Every match, oldest first, as the store's head of it says (no replay)."""
        with self.database.transaction() as connection:
            return [Summary(**row._mapping) for row in connection.execute(SUMMARIES)]

    def key_hashes(self, code: str) -> tuple[str | None, str | None]:
        """The hashes of match ``code``'s scorer key and official key."""
        with self.database.transaction() as connection:
            row = connection.execute(select(MatchRow.scorer_key_hash, MatchRow.official_key_hash)
                                     .where(MatchRow.code == code)).first()
        if row is None:
            raise _unknown(code)
        return row.scorer_key_hash, row.official_key_hash

    # -- verifying -------------------------------------------------------------------

    def verify(self, code: str | None = None) -> list[Problem]:
        """Walk the chain of every match (or of ``code``), replay it through the engine, and check its row.

        Each match gives at most one problem in its chain: the first seq changed, removed or moved
        (its hash covers the event as received with its role, received_at and the ruling's engine
        version, and its type, at, device id and by must be its JSON's). Then one for each stored
        ruling or state that the engine now gives differently, naming the keys that differ; and,
        where the chain holds, one for each column of the match's row that the chain and the replay
        do not give (``Problem.column``).
        """
        problems: list[Problem] = []
        with self.database.transaction() as connection:
            rows = connection.execute(MATCH_ROWS if code is None else MATCH_ROWS.where(MatchRow.code == code)).all()
            if code is not None and not rows:
                raise _unknown(code)
            for row in rows:
                events = connection.execute(CHECKED.where(EventRow.match_id == row.id).order_by(EventRow.seq))
                problems.extend(verify_match(row, events, self.engine_version))
        return problems


def _unknown(code: str) -> UnknownMatch:
    return UnknownMatch(f"no match {code!r} in the store")
