"""The match store: each match's events as an append-only, hash-chained log, with the engine's rulings.

Every event is checked by the engine before it is written, and kept exactly as received
beside its link in the match's chain: SHA-256 over the previous event's hash and the
canonical JSON of the event with the server's facts about it (see :func:`sealed`).
:meth:`Store.verify` walks the chains, replays them, and checks each match's row against both.

The database is SQLite or PostgreSQL (SQLAlchemy models in :mod:`matchstate.models`,
Alembic migrations in ``migrations/``), named by a URL: the one given, else
``MATCHSTATE_DATABASE_URL``, else the SQLite file ``matchstate.db`` in the working directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import (
    URL,
    Connection,
    Dialect,
    Engine,
    Executable,
    Row,
    and_,
    bindparam,
    create_engine,
    event,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from . import __version__
from .engine import Match
from .errors import (
    ConflictError,
    DuplicateMatch,
    IllegalEvent,
    InvalidEvent,
    RefusedEvent,
    StoreError,
    TamperedStore,
    UnknownMatch,
)
from .events import Event
from .log import parse_line
from .models import EventRow, MatchRow, RulingRow
from .rulings import Ruling

DEFAULT_URL = "sqlite:///matchstate.db"
# The Alembic scripts stay at the repository's top level, beside this package (an editable install).
# Inside the package when installed from a wheel; at the repository's top in a checkout.
MIGRATIONS = next(folder for folder in (Path(__file__).resolve().parent / "migrations",
                                         Path(__file__).resolve().parent.parent / "migrations") if folder.is_dir())
GENESIS = "0" * 64  # the previous hash of every match's first event
ROLES = ("scorer", "official")
CONDITIONS = ("field_length", "penalty3_defended", "handicap_goals", "chukkers")
CACHE_SIZE = 64  # matches whose engine is kept in memory
LOCK_STRIPES = 64
SQLITE_BUSY_SECONDS = 30


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
    a retry answered from the store, and the match's engine after the append.

    ``match`` is the store's own cached engine, as :meth:`Store.match` gives it: read it, do not feed it.
    """

    event: StoredEvent
    duplicate: bool
    match: Match = field(compare=False)


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
class Problem:
    """Something wrong in the store, found by :meth:`Store.verify`: at event ``seq`` of the match, or,
    where ``column`` is given, in that column of the match's own row (then ``seq`` is None)."""

    match: str
    seq: int | None
    what: str
    column: str | None = None

    def __str__(self) -> str:
        where = f"seq {self.seq}" if self.column is None else f"its row's {self.column}"
        return f"match {self.match}, {where}: {self.what}"


@dataclass(frozen=True, slots=True)
class _Incoming:
    """An event as received: its text, its decoded object, the server's facts about it (the engine
    that rules it is this one), and what its hash covers (:func:`sealed`), made once."""

    raw: str
    event: dict[str, Any]
    role: str | None
    received_at: datetime
    engine_version: str
    sealed: bytes

    @classmethod
    def decode(cls, event: Mapping[str, Any] | str, role: str | None, received_at: datetime) -> _Incoming:
        """A log line (its line break dropped) or an event object; refused as ``log.parse_line`` refuses."""
        if isinstance(event, str):
            raw = event.rstrip("\r\n")
        else:
            try:
                raw = json.dumps(event, ensure_ascii=False)
            except (TypeError, ValueError) as err:
                raise InvalidEvent(f"not JSON: {err}") from None
        obj = parse_line(raw)
        return cls(raw, obj, role, received_at, __version__, sealed(obj, role, received_at, __version__))


@dataclass(slots=True)
class _Head:
    """A match's engine fed up to the stored event whose hash is ``hash``."""

    match_id: int | None
    match: Match
    hash: str = GENESIS


def canonical(event: Mapping[str, Any]) -> bytes:
    """The event's canonical JSON in UTF-8: keys sorted, no spaces."""
    try:
        return json.dumps(event, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidEvent("a string holds a lone surrogate, which is not Unicode text") from None


def sealed(event: Mapping[str, Any], role: str | None, received_at: datetime, engine_version: str) -> bytes:
    """What an event's hash covers after the previous hash: the canonical JSON of the event as received
    together with the server's own facts about it, which the event's JSON does not hold::

        {"engine_version": "0.1.0", "event": {...}, "received_at": "2026-11-29T15:00:01.234567Z", "role": "scorer"}

    ``event`` is the received JSON object, decoded; ``received_at`` is in UTC to the microsecond, as the
    database keeps it; ``role`` may be null; ``engine_version`` is the version of the engine that ruled it.
    """
    return canonical({"engine_version": engine_version, "event": event, "received_at": _instant(received_at),
                      "role": role})


def chain_hash(prev_hash: str, sealed_json: bytes) -> str:
    """An event's hash: SHA-256 over the previous event's hash (64 hex digits, ASCII) and :func:`sealed`."""
    return hashlib.sha256(prev_hash.encode("ascii") + sealed_json).hexdigest()


def _instant(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def database_url(url: str | None = None) -> URL:
    """``url``, else ``MATCHSTATE_DATABASE_URL``, else ``matchstate.db`` here; PostgreSQL through psycopg 3."""
    chosen = make_url(url or os.environ.get("MATCHSTATE_DATABASE_URL") or DEFAULT_URL)
    return chosen.set(drivername="postgresql+psycopg") if chosen.drivername == "postgresql" else chosen


def make_engine(url: URL) -> Engine:
    """An engine whose every commit is durable when it returns.

    PostgreSQL is, with its default ``synchronous_commit = on``. SQLite is set here to WAL
    mode with ``synchronous = FULL``, and writes take the write lock as they begin.
    """
    if url.get_backend_name() != "sqlite":
        return create_engine(url)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(connection: Any, _: Any) -> None:
    connection.isolation_level = None  # transactions are begun by _sqlite_begin, not by the sqlite3 module
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")  # in WAL mode, NORMAL may lose the last commits on power loss


def _sqlite_begin(connection: Connection) -> None:
    # A deferred transaction that read first cannot take the write lock once another writer has
    # committed: it fails at once. An immediate one waits its turn (the busy timeout) instead.
    immediate = connection.get_execution_options().get("write", False)
    connection.connection.driver_connection.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _columns(event: Event) -> dict[str, Any]:
    """The events table's copies of an engine-checked event's fields, as they read back (``at`` in UTC)."""
    return {"type": event["type"], "at": event["at"].astimezone(UTC), "device_id": event["id"], "by": event["by"]}


def _row_summary(match: Match, created: datetime) -> dict[str, Any]:
    """The summary columns of a match's row as its engine gives them, ``created`` its first event's receipt."""
    info = match.info
    return {"code": info["match"], "teams": info["teams"], "conditions": {name: info[name] for name in CONDITIONS},
            "created": created, "last_at": _columns(match.events[-1])["at"], "state": match.state,
            "score": match.score}


# Each event with its ruling, as StoredEvent's fields; outer, so that a missing ruling shows as one.
_EVENTS = select(
    EventRow.seq, EventRow.type, EventRow.at, EventRow.raw, RulingRow.ruling, RulingRow.state, EventRow.device_id,
    EventRow.by.label("by"), EventRow.role, EventRow.received_at, EventRow.prev_hash, EventRow.hash,
).outerjoin(RulingRow, and_(RulingRow.match_id == EventRow.match_id, RulingRow.seq == EventRow.seq))
_HEAD = select(MatchRow.id, MatchRow.last_seq, MatchRow.last_hash).where(MatchRow.code == bindparam("code"))
_EVENT = _EVENTS.where(EventRow.match_id == bindparam("match_id"), EventRow.seq == bindparam("seq"))


class _HeadRow(NamedTuple):
    """A match's id and head: where its chain ends."""

    id: int
    last_seq: int
    last_hash: str


class _Prepared:
    """A Core statement compiled once for a dialect, run on the DB-API cursor itself.

    An append runs four short statements, and Connection.execute costs more than the driver
    does on each (a cache key, an execution context, a result): about half an append's time
    besides the commit. The values go through the column types' own bind processors, so the
    driver gets what Connection.execute would send; SQLAlchemy's events and logging do not see
    these statements, and the driver's errors come as the driver raises them.
    """

    def __init__(self, statement: Executable, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        self.order = compiled.positiontup  # None where the driver takes named parameters
        self.processors = {name: process for name, bind in compiled.binds.items()
                           if (process := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}

    def run(self, connection: Connection, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """Execute with ``params`` in ``connection``'s transaction; the first row, if any."""
        params = {**params, **{name: process(params[name]) for name, process in self.processors.items()}}
        cursor = connection.connection.dbapi_connection.cursor()
        try:
            cursor.execute(self.sql, [params[name] for name in self.order] if self.order else params)
            return cursor.fetchone() if cursor.description else None
        finally:
            cursor.close()


class _AppendStatements:
    """An append's statements, prepared for one dialect."""

    def __init__(self, dialect: Dialect) -> None:
        # The match's head, locked, beside the stored event with the incoming device id: one read.
        self.head = _Prepared(
            select(MatchRow.id, MatchRow.last_seq, MatchRow.last_hash, EventRow.seq)
            .select_from(MatchRow)
            .outerjoin(EventRow, and_(EventRow.match_id == MatchRow.id, EventRow.device_id == bindparam("device_id")))
            .where(MatchRow.code == bindparam("code"))
            .with_for_update(of=MatchRow),  # PostgreSQL locks no row of an outer join's nullable side
            dialect)
        self.insert_event = _Prepared(insert(EventRow.__table__), dialect)
        self.insert_ruling = _Prepared(insert(RulingRow.__table__), dialect)
        self.advance = _Prepared(update(MatchRow.__table__).where(MatchRow.id == bindparam("match_id")).values(
            {name: bindparam(name) for name in ("last_seq", "last_hash", "last_at", "state", "score")}), dialect)


class Store:
    """Matches in a database: create, append, read and verify them.

    One engine :class:`~matchstate.engine.Match` per recently used match is kept in memory, so
    an append does not replay the match; it is checked against the match's stored head on
    every use, and catches up when another process has appended. A Store may be shared by threads.
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        self.engine = make_engine(self.url)
        self._statements = _AppendStatements(self.engine.dialect)
        self._cache: OrderedDict[str, _Head] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]  # a match's lock: guards its cached engine
        self._writer: Connection | None = None  # SQLite's one write connection, see _transaction
        self._writer_lock = threading.Lock()

    def close(self) -> None:
        """Close the database connections."""
        with self._writer_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self.engine.dispose()

    # -- schema ----------------------------------------------------------------------

    def _alembic(self) -> Config:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        return config

    def upgrade(self) -> None:
        """Bring the database to the latest schema (``alembic upgrade head``)."""
        config = self._alembic()
        with self._transaction(write=True) as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def schema_is_current(self) -> bool:
        """Whether the database has had every migration."""
        with self.engine.connect() as connection:
            current = set(MigrationContext.configure(connection).get_current_heads())
        return current == set(ScriptDirectory.from_config(self._alembic()).get_heads())

    # -- writing ---------------------------------------------------------------------

    def create_match(self, start_event: Mapping[str, Any] | str, *, scorer_key_hash: str | None = None,
                     official_key_hash: str | None = None, role: str | None = None) -> Appended:
        """Store a new match from its match.start, as seq 1; :class:`DuplicateMatch` if its code is taken."""
        _check_role(role)
        incoming = _Incoming.decode(start_event, role, _now())
        with self._transaction(write=True) as connection:
            head, stored = self._start(connection, incoming, scorer_key_hash, official_key_hash)
        self._remember(head)
        return Appended(stored, False, head.match)

    def append(self, code: str, event: Mapping[str, Any] | str, expected_seq: int | None = None, *,
               role: str | None = None) -> Appended:
        """Check ``event`` with the engine and append it to match ``code``, durably.

        ``event`` is an event object or its JSON text. A refused event raises
        :class:`RefusedEvent` and writes nothing. With ``expected_seq``, the append is made
        only if it is still the match's last seq, else :class:`ConflictError`. Returns the event
        as stored and the match's engine after it; an event whose device ``id`` is stored already
        is a retried send: the stored event comes back, ``duplicate=True``, and nothing is written.
        """
        _check_role(role)
        incoming = _Incoming.decode(event, role, _now())
        device_id = incoming.event.get("id")
        with self._lock(code), self._transaction(write=True) as connection:
            found = self._statements.head.run(connection, {
                "code": code, "device_id": device_id if isinstance(device_id, str) else None})
            if found is None:
                raise _unknown(code)
            match_id, last_seq, last_hash, retried_seq = found
            row = _HeadRow(match_id, last_seq, last_hash)
            if retried_seq is not None:
                return self._retried(connection, code, row, retried_seq, incoming)
            if expected_seq is not None and expected_seq != row.last_seq:
                raise ConflictError(f"match {code} is at seq {row.last_seq}, not {expected_seq}: reload and retry",
                                    row.last_seq)
            head = self._head(connection, code, row)
            ruling = head.match.feed(incoming.event)
            return Appended(self._record(connection, head, incoming, ruling), False, head.match)

    def import_log(self, lines: Iterable[str]) -> tuple[str, int]:
        """Store a whole match log as a new match, atomically; returns its code and number of events.

        A refused line (with its line number) stores nothing, as does a device ``id`` used twice.
        """
        received_at = _now()
        head = None
        seq_of_id: dict[str, int] = {}
        with self._transaction(write=True) as connection:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    incoming = _Incoming.decode(line, None, received_at)
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
        self._remember(head)
        return head.match.info["match"], head.match.seq

    def _start(self, connection: Connection, incoming: _Incoming, scorer_key_hash: str | None = None,
               official_key_hash: str | None = None) -> tuple[_Head, StoredEvent]:
        head = _Head(None, Match())
        ruling = head.match.feed(incoming.event)  # a new Match takes nothing but a valid match.start
        try:
            head.match_id = connection.execute(insert(MatchRow).values(
                **_row_summary(head.match, incoming.received_at), scorer_key_hash=scorer_key_hash,
                official_key_hash=official_key_hash, last_seq=0, last_hash=GENESIS,
            )).inserted_primary_key[0]
        except IntegrityError:
            raise DuplicateMatch(f"match {head.match.info['match']!r} is in the store already") from None
        return head, self._record(connection, head, incoming, ruling)

    def _record(self, connection: Connection, head: _Head, incoming: _Incoming, ruling: Ruling | None) -> StoredEvent:
        """Write the event just fed to ``head``'s engine, its ruling, and the match's new head."""
        match = head.match
        event = match.events[-1]
        columns = _columns(event)
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

    def _retried(self, connection: Connection, code: str, row: _HeadRow, seq: int, incoming: _Incoming) -> Appended:
        """The stored result of event ``seq``, which has the incoming event's device ``id``: a retried send."""
        stored = StoredEvent(**connection.execute(_EVENT, {"match_id": row.id, "seq": seq}).one()._mapping)
        if canonical(parse_line(stored.raw)) != canonical(incoming.event):
            raise IllegalEvent(f"id {stored.device_id!r} is the id of seq {stored.seq} already, a different event")
        return Appended(stored, True, self._head(connection, code, row).match)

    # -- the cached engines ------------------------------------------------------------

    def _lock(self, code: str) -> threading.Lock:
        return self._locks[hash(code) % LOCK_STRIPES]

    def _remember(self, head: _Head) -> None:
        code = head.match.info["match"]
        with self._cache_lock:
            self._cache[code] = head
            self._cache.move_to_end(code)
            if len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def _head(self, connection: Connection, code: str, row: _HeadRow) -> _Head:
        """The engine of match ``code`` fed up to its stored head ``row``: the cached one where it is still right."""
        with self._cache_lock:
            head = self._cache.get(code)
        # After a failed commit the cached engine is one event ahead: the check against the head finds it.
        if head is None or not self._catch_up(connection, head, row):
            head = _Head(row.id, Match())
            if not self._catch_up(connection, head, row):
                raise TamperedStore(f"match {code}: the stored events do not chain and replay up to its head; "
                                      f"run `matchstate verify {code}`")
        self._remember(head)
        return head

    def _catch_up(self, connection: Connection, head: _Head, row: _HeadRow) -> bool:
        """Feed ``head`` the stored events after its seq; False where they do not lead on from it to ``row``."""
        if head.match_id != row.id or head.match.seq > row.last_seq:
            return False
        if head.match.seq < row.last_seq:
            later = connection.execute(select(EventRow.seq, EventRow.raw, EventRow.prev_hash, EventRow.hash)
                                       .where(EventRow.match_id == row.id, EventRow.seq > head.match.seq)
                                       .order_by(EventRow.seq))
            for stored in later:
                if stored.seq != head.match.seq + 1 or stored.prev_hash != head.hash:
                    return False
                try:
                    head.match.feed(parse_line(stored.raw))
                except RefusedEvent:
                    return False
                head.hash = stored.hash
        return head.match.seq == row.last_seq and head.hash == row.last_hash

    # -- reading ---------------------------------------------------------------------

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Connection]:
        """A transaction; a read sees one snapshot, so that a match's head and its events agree."""
        if write and self.engine.dialect.name == "sqlite":
            # SQLite has one writer at a time anyway: this process's writes take turns on one
            # connection, kept open, rather than each checking one out of the pool.
            with self._writer_lock:
                if self._writer is None:
                    self._writer = self.engine.connect().execution_options(write=True)
                with self._writer.begin():
                    yield self._writer
            return
        with self.engine.connect() as connection:
            connection.execution_options(write=write)
            if not write and self.engine.dialect.name == "postgresql":  # SQLite's reads are snapshots already
                connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                yield connection

    def _head_row(self, connection: Connection, code: str) -> _HeadRow:
        row = connection.execute(_HEAD, {"code": code}).first()
        if row is None:
            raise _unknown(code)
        return _HeadRow(*row)

    def match(self, code: str) -> Match:
        """The engine's Match of ``code`` as stored; it is the store's own: read it, do not feed it."""
        with self._lock(code), self._transaction() as connection:
            return self._head(connection, code, self._head_row(connection, code)).match

    def events(self, code: str, after_seq: int = 0) -> list[StoredEvent]:
        """The stored events of match ``code`` after ``after_seq``, in order."""
        with self._transaction() as connection:
            match_id = self._head_row(connection, code).id
            rows = connection.execute(_EVENTS.where(EventRow.match_id == match_id, EventRow.seq > after_seq)
                                      .order_by(EventRow.seq))
            return [StoredEvent(**row._mapping) for row in rows]

    def event(self, code: str, seq: int) -> StoredEvent | None:
        """The stored event ``seq`` of match ``code``; None if it has no such event."""
        with self._transaction() as connection:
            row = connection.execute(_EVENT, {"match_id": self._head_row(connection, code).id, "seq": seq}).first()
        return None if row is None else StoredEvent(**row._mapping)

    def summaries(self) -> list[Summary]:
        """Every match, oldest first, as the store's head of it says (no replay)."""
        started = EventRow.at.label("started")
        query = (select(MatchRow.code, MatchRow.teams, MatchRow.score, MatchRow.state, MatchRow.created, started,
                        MatchRow.last_at, MatchRow.last_seq)
                 .outerjoin(EventRow, and_(EventRow.match_id == MatchRow.id, EventRow.seq == 1))
                 .order_by(MatchRow.created, MatchRow.code))
        with self._transaction() as connection:
            return [Summary(**row._mapping) for row in connection.execute(query)]

    def key_hashes(self, code: str) -> tuple[str | None, str | None]:
        """The hashes of match ``code``'s scorer key and official key."""
        with self._transaction() as connection:
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
        query = select(*_MATCH_ROW).order_by(MatchRow.code)
        problems: list[Problem] = []
        with self._transaction() as connection:
            rows = connection.execute(query if code is None else query.where(MatchRow.code == code)).all()
            if code is not None and not rows:
                raise _unknown(code)
            for row in rows:
                events = connection.execute(_CHECKED.where(EventRow.match_id == row.id).order_by(EventRow.seq))
                problems.extend(_verify_match(row, events))
        return problems


# A match's row, as verify checks it; each event with its ruling and the ruling's engine version.
_MATCH_ROW = (MatchRow.id, MatchRow.code, MatchRow.teams, MatchRow.conditions, MatchRow.created, MatchRow.last_seq,
              MatchRow.last_hash, MatchRow.last_at, MatchRow.state, MatchRow.score)
_CHECKED = _EVENTS.add_columns(RulingRow.engine_version)
_ABSENT = object()  # a key one side of a ruling does not have


def _verify_match(row: Row, events: Iterable[Row]) -> Iterator[Problem]:
    """The problems of one match: its first bad link, stored rulings that differ, columns of its row that are wrong."""
    match, digest, first = Match(), GENESIS, None
    for seq, stored in enumerate(_readable(events), 1):
        if isinstance(stored, ValueError):
            yield Problem(row.code, seq, f"changed: a column of its row cannot be read back ({stored})")
            return
        event, fault = _linked(seq, digest, stored)
        if event is not None:
            try:
                ruling = match.feed(event)
            except RefusedEvent as err:
                fault = f"the engine refuses it now: {err.reason}"
            else:
                fault = _column_fault(stored, match.events[-1])
        if fault is not None:
            yield Problem(row.code, seq, fault)
            return
        given = ruling.to_json() if ruling is not None else None
        if (stored.ruling, stored.state) != (given, match.state):
            yield Problem(row.code, seq, _ruling_difference(stored, given, match.state))
        first = first or stored
        digest = stored.hash
    if first is None:
        yield Problem(row.code, 1, "missing: the match has no events, not even its match.start")
        return
    yield from _row_problems(row, match, digest, first)


def _readable(rows: Iterable[Row]) -> Iterator[Row | ValueError]:
    """The rows, then why the next one cannot be read, if it cannot: SQLite keeps any text written into a
    column, and a time or JSON column holding something else fails as it is read back."""
    rows = iter(rows)
    while True:
        try:
            yield next(rows)
        except StopIteration:
            return
        except ValueError as err:
            yield err
            return


def _linked(seq: int, digest: str, stored: Row) -> tuple[dict[str, Any] | None, str | None]:
    """``stored``'s event, decoded, where it is the event at ``seq`` after an event with hash ``digest``;
    else None and what is wrong with it."""
    if stored.seq != seq:
        return None, f"missing: the next stored event is seq {stored.seq}"
    if stored.prev_hash != digest:
        return None, "its previous hash is not the hash of the event before it: a row was moved or replaced"
    if stored.engine_version is None:  # the outer join found no ruling row
        return None, "its ruling row is missing: it was removed"
    try:
        event = parse_line(stored.raw)
        material = sealed(event, stored.role, stored.received_at, stored.engine_version)
    except RefusedEvent as err:
        return None, f"its JSON is not an event: {err.reason}"
    if chain_hash(digest, material) != stored.hash:
        return None, ("its JSON, role, received_at and ruling's engine_version do not give its hash: "
                      "the row was changed")
    return event, None


def _column_fault(stored: Row, event: Event) -> str | None:
    """Which of ``stored``'s copies of its event's fields (type, at, device id, by) is not the event's."""
    for column, value in _columns(event).items():
        if stored._mapping[column] != value:
            return f"its {column} column is {_shown(stored._mapping[column])}, but its JSON gives {_shown(value)}"
    return None


def _ruling_difference(stored: Row, given: dict[str, Any] | None, state: str) -> str:
    """How the stored ruling and state after an event differ from the engine's: each key, both values."""
    parts = []
    if stored.ruling is None or given is None:
        if stored.ruling != given:
            parts.append(f"stored {_summary(stored.ruling)}, the engine gives {_summary(given)}")
    else:
        parts += [f"{key}: stored {ours}, engine {theirs}"
                  for key, ours, theirs in _differences(stored.ruling, given)]
    if stored.state != state:
        parts.append(f"state after it: stored {stored.state}, engine {state}")
    what = "the stored ruling differs from the engine's: " + "; ".join(parts)
    if stored.engine_version != __version__:
        what += f" (ruled by engine {stored.engine_version}; this is engine {__version__})"
    return what


def _differences(stored: Any, given: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """Each leaf where two JSON values differ: its path (``text.en``, ``options[1].to``) and both values shown."""
    if isinstance(stored, dict) and isinstance(given, dict):
        for key in [*given, *(key for key in stored if key not in given)]:  # the engine's order: kind first
            yield from _differences(stored.get(key, _ABSENT), given.get(key, _ABSENT), f"{path}.{key}" if path else key)
    elif isinstance(stored, list) and isinstance(given, list) and len(stored) == len(given):
        for index, (ours, theirs) in enumerate(zip(stored, given)):
            yield from _differences(ours, theirs, f"{path}[{index}]")
    elif stored is _ABSENT or given is _ABSENT or stored != given:
        if isinstance(stored, str) and isinstance(given, str):
            yield path, *_apart(stored, given)
        else:
            yield path, _shown(stored), _shown(given)


def _apart(ours: str, theirs: str, width: int = 48) -> tuple[str, str]:
    """Two differing texts shown from a little before where they part, so that long ones do not look alike."""
    parting = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), min(len(ours), len(theirs)))
    begin = max(0, parting - 12) if max(len(ours), len(theirs)) > width else 0

    def cut(text: str) -> str:
        piece = json.dumps(text[begin:begin + width], ensure_ascii=False)
        return ("…" if begin else "") + piece + ("…" if begin + width < len(text) else "")

    return cut(ours), cut(theirs)


def _summary(ruling: dict[str, Any] | None) -> str:
    return "no ruling" if ruling is None else f"the ruling {_shown(ruling, 80)}"


def _shown(value: Any, limit: int = 60) -> str:
    """A value as JSON (a time in ISO 8601, UTC), cut at ``limit`` characters."""
    if value is _ABSENT:
        return "nothing (no such key)"
    text = _instant(value) if isinstance(value, datetime) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _row_problems(row: Row, match: Match, digest: str, first: Row) -> Iterator[Problem]:
    """The columns of a match's row that are not what its whole chain (``digest`` its last hash) and replay give."""
    code = row.code
    if (match.seq, digest) != (row.last_seq, row.last_hash):
        if digest == row.last_hash:
            yield Problem(code, None, f"it is {row.last_seq}, but the chain ends at seq {match.seq} with the "
                                      f"row's last_hash", "last_seq")
        elif match.seq == row.last_seq:
            yield Problem(code, None, f"it is not the hash of seq {match.seq}, where the chain ends: the column "
                                      f"was changed, or seq {match.seq} was replaced", "last_hash")
        else:  # what the row says of the match's end (last_at, state, score) is not the chain's end either
            yield Problem(code, min(match.seq, row.last_seq) + 1,
                          f"the chain ends at seq {match.seq}, but the match's head is seq {row.last_seq} with "
                          f"another hash: events were removed or added")
            return
    for column, value in _row_summary(match, first.received_at).items():
        found = row._mapping[column]
        if _plain(found) != _plain(value):
            yield Problem(code, None, f"it is {_shown(found)}, but the chain and its replay give {_shown(value)}",
                          column)


def _plain(value: Any) -> Any:
    """A value as it reads back from a JSON column (a time as it is)."""
    return value if isinstance(value, datetime) else json.loads(json.dumps(value))


def _unknown(code: str) -> UnknownMatch:
    return UnknownMatch(f"no match {code!r} in the store")


def _check_role(role: str | None) -> None:
    if role not in (None, *ROLES):
        raise StoreError(f"role must be one of {ROLES} or None, not {role!r}")


def _now() -> datetime:
    return datetime.now(UTC)
