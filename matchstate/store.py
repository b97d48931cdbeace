"""The match store: each match's events as an append-only, hash-chained log, with the engine's rulings.

Every event is checked by the engine before it is written, and kept exactly as received
beside its link in the match's chain: SHA-256 over the previous event's hash and the
event's canonical JSON. :meth:`Store.verify` walks the chains and replays them.

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
from sqlalchemy import (URL, Connection, Dialect, Engine, Executable, Row, and_, bindparam, create_engine, event,
                        insert, make_url, select, update)
from sqlalchemy.exc import IntegrityError

from . import __version__
from .engine import Match
from .errors import ConflictError, DuplicateMatch, MatchstateError, RefusedEvent, UnknownMatch
from .events import Event
from .log import parse_line
from .models import EventRow, MatchRow, RulingRow
from .rulings import Ruling

DEFAULT_URL = "sqlite:///matchstate.db"
# The Alembic scripts stay at the repository's top level, beside this package (an editable install).
MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
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
    """Something wrong in the store, found by :meth:`Store.verify`."""

    match: str
    seq: int
    what: str

    def __str__(self) -> str:
        return f"match {self.match}, seq {self.seq}: {self.what}"


@dataclass(frozen=True, slots=True)
class _Incoming:
    """An event as received: its text, its decoded object, and its canonical JSON (what its hash covers)."""

    raw: str
    event: dict[str, Any]
    canonical: bytes

    @classmethod
    def decode(cls, event: Mapping[str, Any] | str) -> _Incoming:
        """A log line (its line break dropped) or an event object; refused as ``log.parse_line`` refuses."""
        if isinstance(event, str):
            raw = event.rstrip("\r\n")
        else:
            try:
                raw = json.dumps(event, ensure_ascii=False)
            except (TypeError, ValueError) as err:
                raise RefusedEvent(f"not JSON: {err}") from None
        obj = parse_line(raw)
        return cls(raw, obj, canonical(obj))


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
        raise RefusedEvent("a string holds a lone surrogate, which is not Unicode text") from None


def chain_hash(prev_hash: str, canonical_json: bytes) -> str:
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_json).hexdigest()


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
        incoming = _Incoming.decode(start_event)
        with self._transaction(write=True) as connection:
            head, stored = self._start(connection, incoming, _now(), role, scorer_key_hash, official_key_hash)
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
        incoming = _Incoming.decode(event)
        received_at = _now()
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
            return Appended(self._record(connection, head, incoming, ruling, role, received_at), False, head.match)

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
                    incoming = _Incoming.decode(line)
                    device_id = incoming.event.get("id")
                    if isinstance(device_id, str) and device_id in seq_of_id:
                        raise RefusedEvent(f"id {device_id!r} is the id of seq {seq_of_id[device_id]} already")
                    if head is None:
                        head, stored = self._start(connection, incoming, received_at)
                    else:
                        stored = self._record(connection, head, incoming, head.match.feed(incoming.event), None,
                                              received_at)
                    if stored.device_id is not None:
                        seq_of_id[stored.device_id] = stored.seq
                except RefusedEvent as err:
                    raise err.at_line(number) from None
            if head is None:
                raise RefusedEvent("the log has no events")
        self._remember(head)
        return head.match.info["match"], head.match.seq

    def _start(self, connection: Connection, incoming: _Incoming, received_at: datetime, role: str | None = None,
               scorer_key_hash: str | None = None, official_key_hash: str | None = None) -> tuple[_Head, StoredEvent]:
        head = _Head(None, Match())
        ruling = head.match.feed(incoming.event)  # a new Match takes nothing but a valid match.start
        info = head.match.info
        try:
            head.match_id = connection.execute(insert(MatchRow).values(
                code=info["match"], teams=info["teams"], conditions={name: info[name] for name in CONDITIONS},
                created=received_at, scorer_key_hash=scorer_key_hash, official_key_hash=official_key_hash,
                last_seq=0, last_hash=GENESIS, last_at=info["at"], state=head.match.state, score=head.match.score,
            )).inserted_primary_key[0]
        except IntegrityError:
            raise DuplicateMatch(f"match {info['match']!r} is in the store already") from None
        return head, self._record(connection, head, incoming, ruling, role, received_at)

    def _record(self, connection: Connection, head: _Head, incoming: _Incoming, ruling: Ruling | None,
                role: str | None, received_at: datetime) -> StoredEvent:
        """Write the event just fed to ``head``'s engine, its ruling, and the match's new head."""
        match = head.match
        event = match.events[-1]
        columns = _columns(event)
        digest = chain_hash(head.hash, incoming.canonical)
        ruling_json = ruling.to_json() if ruling is not None else None
        key = {"match_id": head.match_id, "seq": match.seq}
        statements = self._statements
        statements.insert_event.run(connection, {**key, **columns, "raw": incoming.raw, "role": role,
                                                 "received_at": received_at, "prev_hash": head.hash, "hash": digest})
        statements.insert_ruling.run(connection, {**key, "ruling": ruling_json, "state": match.state,
                                                  "engine_version": __version__})
        statements.advance.run(connection, {"match_id": head.match_id, "last_seq": match.seq, "last_hash": digest,
                                            "last_at": columns["at"], "state": match.state, "score": match.score})
        stored = StoredEvent(seq=match.seq, raw=incoming.raw, ruling=ruling_json, state=match.state, role=role,
                             received_at=received_at, prev_hash=head.hash, hash=digest, **columns)
        head.hash = digest
        return stored

    def _retried(self, connection: Connection, code: str, row: _HeadRow, seq: int, incoming: _Incoming) -> Appended:
        """The stored result of event ``seq``, which has the incoming event's device ``id``: a retried send."""
        stored = StoredEvent(**connection.execute(_EVENT, {"match_id": row.id, "seq": seq}).one()._mapping)
        if canonical(parse_line(stored.raw)) != incoming.canonical:
            raise RefusedEvent(f"id {stored.device_id!r} is the id of seq {stored.seq} already, a different event")
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
                raise MatchstateError(f"match {code}: the stored events do not chain and replay up to its head; "
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
        """Walk the chain of every match (or of ``code``) and replay it through the engine.

        Each match gives at most one problem in its chain (the first seq changed, removed or
        moved), and one for each stored ruling or state that the engine now gives differently.
        """
        query = select(MatchRow.id, MatchRow.code, MatchRow.last_seq, MatchRow.last_hash).order_by(MatchRow.code)
        problems: list[Problem] = []
        with self._transaction() as connection:
            heads = connection.execute(query if code is None else query.where(MatchRow.code == code)).all()
            if code is not None and not heads:
                raise _unknown(code)
            for head in heads:
                events = connection.execute(_EVENTS.where(EventRow.match_id == head.id).order_by(EventRow.seq))
                problems.extend(_verify_match(head, events))
        return problems


def _verify_match(head: Row, events: Iterable[Row]) -> Iterator[Problem]:
    """The problems of one match: its first bad link, stored rulings that differ, a head that does not match."""
    match, digest = Match(), GENESIS
    for seq, stored in enumerate(events, 1):
        fault = _link_fault(seq, digest, stored)
        if fault is None:
            try:
                ruling = match.feed(parse_line(stored.raw))
            except RefusedEvent as err:
                fault = f"the engine refuses it now: {err.reason}"
        if fault is None and any(stored._mapping[column] != value
                                 for column, value in _columns(match.events[-1]).items()):
            fault = "its type, at, device id or by columns differ from its JSON"
        if fault is not None:
            yield Problem(head.code, seq, fault)
            return
        given = ruling.to_json() if ruling is not None else None
        if (stored.ruling, stored.state) != (given, match.state):
            yield Problem(head.code, seq, f"the stored ruling is {_brief(stored.ruling)} then state {stored.state}; "
                                          f"the engine now gives {_brief(given)} then state {match.state}")
        digest = stored.hash
    if match.seq == 0 or match.info["match"] != head.code:
        yield Problem(head.code, 1, "its match.start is missing or names another match")
    elif (match.seq, digest) != (head.last_seq, head.last_hash):
        first_bad = match.seq if match.seq == head.last_seq else min(match.seq, head.last_seq) + 1
        yield Problem(head.code, first_bad, f"the chain ends at seq {match.seq}, but the match's head is "
                                            f"seq {head.last_seq} with another hash: events were removed or added")


def _link_fault(seq: int, digest: str, stored: Row) -> str | None:
    """What is wrong with ``stored`` as the event at ``seq`` after an event with hash ``digest``."""
    if stored.seq != seq:
        return f"missing: the next stored event is seq {stored.seq}"
    if stored.prev_hash != digest:
        return "its previous hash is not the hash of the event before it: a row was moved or replaced"
    try:
        if chain_hash(digest, canonical(parse_line(stored.raw))) != stored.hash:
            return "its JSON does not give its hash: the row was changed"
    except RefusedEvent as err:
        return f"its JSON is not an event: {err.reason}"
    return None


def _brief(ruling: dict[str, Any] | None) -> str:
    if ruling is None:
        return "no ruling"
    return " ".join(str(part) for part in (ruling.get("kind"), ruling.get("penalty"), ruling.get("to")) if part)


def _unknown(code: str) -> UnknownMatch:
    return UnknownMatch(f"no match {code!r} in the store")


def _check_role(role: str | None) -> None:
    if role not in (None, *ROLES):
        raise ValueError(f"role must be one of {ROLES} or None, not {role!r}")


def _now() -> datetime:
    return datetime.now(UTC)
