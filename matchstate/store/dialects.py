"""The statements that differ by database, one class per database behind one small interface.

:func:`statements_for` chooses once, when the store opens its database; nothing else in the store asks which
database it is on. Each class holds an append's head read (with the append key's live rows), its writes, the
read of a retried send, an advisory lock, the upsert that stores a checkpoint, and an import's batch write.

An append's statements are compiled once and run on the DB-API cursor itself (:class:`Prepared`): on
PostgreSQL each is one statement for a whole group of appends, over a JSON array of its rows; SQLite, in the
process, runs the statements of each append in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, NamedTuple, Protocol, cast

import orjson
from sqlalchemy import (
    JSON,
    Column,
    Connection,
    Dialect,
    Select,
    Table,
    and_,
    bindparam,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from ..models import EventRow, KeyRow, MatchRow, RulingRow
from .sql import LAST_ACT, LIVE, RETRIED

Upsert = postgresql.Insert | sqlite.Insert  # an insert that can say what to do on a conflict
HEAD_COLUMNS = ("last_seq", "last_hash", "last_at", "state", "score", "status", "seal", "acts_seq")


class Wanted(NamedTuple):
    """What an append asks of its match's head: its code, its event's device id and its key's hash."""

    code: str
    device_id: str | None
    key_hash: str | None


class Found(NamedTuple):
    """A match's head as an append reads it, locked: its id, last seq and last hash, the seq of its stored event
    with the append's device id (None: none), the seq of the store's last act (which the head's seal covers),
    and the live rows of the append's key (:func:`held_keys`: JSON text, or decoded by the driver)."""

    match_id: int
    last_seq: int
    last_hash: str
    retried_seq: int | None
    acts_seq: int | None
    held: Any


class Statements(Protocol):
    """The statements of one database; ``notifies``: whether its commits tell listening processes of each append
    (PostgreSQL's trigger, migration 0004), else others learn of appends by asking."""

    notifies: bool

    def heads(self, connection: Connection, wanted: list[Wanted]) -> list[Found | None]:
        """Each wanted match's head, locked until the transaction ends (None for a code no match has); matches are
        locked in the order of their codes, on every server alike."""

    def retried(self, connection: Connection, match_id: int, device_id: str) -> int | None:
        """The seq of the match's stored event with ``device_id``, read afresh."""

    def write(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """Write each append's event, its ruling and its match's new head (``rows``: each the event's and the
        ruling's columns, the head's and ``match_id``)."""

    def import_rows(self, connection: Connection, events: list[dict[str, Any]],
                    rulings: list[dict[str, Any]]) -> None:
        """Write a batch of an import's events and rulings."""

    def lock(self, connection: Connection, key: int) -> None:
        """Take advisory lock ``key`` until the transaction ends (where write transactions are not one at a time
        already)."""

    def pipeline(self, connection: Connection) -> AbstractContextManager[object]:
        """Within it, the statements run on the driver's cursor (:func:`execute`, :class:`Prepared`, :meth:`lock`)
        are sent without waiting for each one's answer, where the database can (PostgreSQL's pipeline mode: a read
        waits once for every statement sent before it, and the end once for the rest); SQLite's run in turn."""

    def upsert(self, table: Any) -> Upsert:
        """An insert into ``table`` that can say what to do on a conflict (``on_conflict_do_update``)."""


def statements_for(dialect: Dialect) -> Statements:
    """The statements of the database SQLAlchemy's ``dialect`` speaks to."""
    return PostgreSQLStatements(dialect) if dialect.name == "postgresql" else SQLiteStatements(dialect)


class Prepared:
    """A Core statement compiled once for a dialect, run on the DB-API cursor itself.

    An append runs four short statements, and Connection.execute costs more than the driver
    does on each (a cache key, an execution context, a result): about half an append's time
    besides the commit. The values go through the column types' own bind processors, so the
    driver gets what Connection.execute would send; the engine's cursor events see these statements (the
    watchdog times them), SQLAlchemy's logging does not, and the driver's errors come as the driver raises them.
    """

    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect))
        self.sql = str(compiled)
        self.order = compiled.positiontup  # None where the driver takes named parameters
        self.processors = {name: process for name, bind in compiled.binds.items()
                           if (process := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None}
        self.returns_rows = isinstance(statement, Select)

    def run(self, connection: Connection, params: dict[str, Any]) -> tuple[Any, ...] | None:
        """Execute with ``params`` in ``connection``'s transaction; the first row, if any."""
        found = execute(connection, self.sql, self._bound(params), self.returns_rows)
        return found[0] if found else None

    def run_many(self, connection: Connection, params: Sequence[dict[str, Any]]) -> None:
        """Execute once for each of ``params``, in one call of the driver (its ``executemany``)."""
        if params:
            execute(connection, self.sql, [self._bound(one) for one in params], many=True)

    def _bound(self, params: dict[str, Any]) -> Any:
        processors = self.processors
        if self.order:
            return [processors[name](params[name]) if name in processors else params[name] for name in self.order]
        return {name: processors[name](value) if name in processors else value for name, value in params.items()}


def execute(connection: Connection, statement: str, params: Any, rows: bool = False,
            many: bool = False) -> list[tuple[Any, ...]]:
    """Run ``statement`` on the DB-API cursor of ``connection`` itself, in its transaction (with ``many``, once
    for each of ``params``); its rows if ``rows``."""
    cursor = _cursor(connection)
    try:
        with _waiting(connection, cursor, statement, params, many):
            if many:
                cursor.executemany(statement, params)
            else:
                cursor.execute(statement, params)
            return list(cursor.fetchall()) if rows else []
    finally:
        cursor.close()


@contextmanager
def _waiting(connection: Connection, cursor: Any, statement: str, params: Any = None,
             many: bool = False) -> Iterator[None]:
    """Within it ``statement`` waits on the database: the engine's cursor events fire around it as
    Connection.execute fires them, so that the database's watchdog times the wait (a failed one stays timed until
    its transaction ends)."""
    connection.dispatch.before_cursor_execute(connection, cursor, statement, params, None, many)
    yield
    connection.dispatch.after_cursor_execute(connection, cursor, statement, params, None, many)


def _cursor(connection: Connection) -> Any:
    return _driver(connection).cursor()


def _driver(connection: Connection) -> Any:
    return connection.connection.dbapi_connection


def held_keys(rows: Callable[..., Any]) -> Any:
    """The live key rows with the hash ``:key_hash`` that count on the match of the enclosing read (its own
    and the league's), as one JSON array (built by ``rows`` from each row's array) of ``[league-wide, role,
    issued_at, seal]`` (none: empty or null)."""
    row = (KeyRow.match_id.is_(None), KeyRow.role, KeyRow.issued_at, KeyRow.seal)
    return (select(rows(*row)).where(KeyRow.key_hash == bindparam("key_hash"), KeyRow.revoked_at.is_(None),
                                     or_(KeyRow.match_id.is_(None), KeyRow.match_id == MatchRow.id))
            .scalar_subquery())


def _head(dialect: Dialect, keys: Any) -> Prepared:
    """The match's head, locked, beside the stored event with the incoming device id, the seq of the store's
    last act and the live rows of the append's key (``keys``): one read."""
    return Prepared(
        select(MatchRow.id, MatchRow.last_seq, MatchRow.last_hash, EventRow.seq, LAST_ACT, keys)
        .select_from(MatchRow)
        .outerjoin(EventRow, and_(EventRow.match_id == MatchRow.id, EventRow.device_id == bindparam("device_id")))
        .where(MatchRow.code == bindparam("code"), LIVE)  # an import publishing holds its code, hidden
        .with_for_update(of=MatchRow),  # PostgreSQL locks no row of an outer join's nullable side
        dialect)


class SQLiteStatements:
    """SQLite's: each append's statements in turn; its write transactions are one at a time already."""

    notifies = False

    def __init__(self, dialect: Dialect) -> None:
        self._head = _head(dialect, held_keys(lambda *row: func.json_group_array(func.json_array(*row))))
        self._retried = Prepared(RETRIED, dialect)
        events, rulings, matches = (cast(Table, row.__table__) for row in (EventRow, RulingRow, MatchRow))
        self._writes = [Prepared(insert(table).values({column: bindparam(column.key, type_=column.type)
                                                       for column in table.columns}), dialect)
                        for table in (events, rulings)]
        self._writes.append(Prepared(update(matches).where(matches.c.id == bindparam("match_id")).values(
            {column.name: bindparam(column.name) for column in (matches.c[name] for name in HEAD_COLUMNS)}), dialect))

    def heads(self, connection: Connection, wanted: list[Wanted]) -> list[Found | None]:
        found = (self._head.run(connection, one._asdict()) for one in wanted)
        return [Found(*row) if row is not None else None for row in found]

    def retried(self, connection: Connection, match_id: int, device_id: str) -> int | None:
        row = self._retried.run(connection, {"match_id": match_id, "device_id": device_id})
        return row[0] if row is not None else None

    def write(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        for statement in self._writes:
            for params in rows:
                statement.run(connection, params)

    def import_rows(self, connection: Connection, events: list[dict[str, Any]],
                    rulings: list[dict[str, Any]]) -> None:
        connection.execute(insert(EventRow), events)
        connection.execute(insert(RulingRow), rulings)

    def lock(self, connection: Connection, key: int) -> None:
        pass  # SQLite's write transactions are one at a time

    def pipeline(self, connection: Connection) -> AbstractContextManager[object]:
        return nullcontext()  # in the process: no round trips to save

    def upsert(self, table: Any) -> Upsert:
        return sqlite.insert(table)


# The heads of a group's matches (see PostgreSQLStatements.heads), by their place in the group.
# The device id's event is a subquery, not a join: the planner takes the JSON for 100 rows and would hash-join
# every event of the store. The key's rows are read in the same statement, so that a key revoked before it
# opens nothing, on any server.
_HEADS = (
    "SELECT w.n, m.id, m.last_seq, m.last_hash, "
    "(SELECT e.seq FROM events e WHERE e.match_id = m.id AND e.device_id = w.device_id), "
    "(SELECT max(seq) FROM acts), "
    "(SELECT json_agg(json_build_array(k.match_id IS NULL, k.role, k.issued_at, k.seal)) FROM keys k "
    "WHERE k.key_hash = w.key_hash AND k.revoked_at IS NULL AND (k.match_id IS NULL OR k.match_id = m.id)) "
    "FROM json_to_recordset(CAST(%(wanted)s AS JSON)) AS w(n INTEGER, code TEXT, device_id TEXT, key_hash TEXT) "
    "JOIN matches m ON m.code = w.code ORDER BY m.code FOR UPDATE OF m")


class PostgreSQLStatements:
    """PostgreSQL's: a group's head read and its write each one statement over JSON (``json_to_recordset``: one
    parameter, made in one call, where an array per column costs the driver more than the statement), so a
    group costs five round trips however many appends it holds: the BEGIN, the heads, the write sent in one
    pipeline with the league log's lock and head read, the log's leaves, nodes and new head, and the COMMIT (eight
    before the pipeline); an import's batches streamed with COPY."""

    notifies = True

    def __init__(self, dialect: Dialect) -> None:
        self._retried = Prepared(RETRIED, dialect)
        events, rulings, matches = (cast(Table, row.__table__) for row in (EventRow, RulingRow, MatchRow))
        self._write = _Records({"events": list(events.columns), "rulings": list(rulings.columns),
                                "heads": [matches.c.id, *(matches.c[name] for name in HEAD_COLUMNS)]})
        self._copies = [_Copy(events), _Copy(rulings)]

    def heads(self, connection: Connection, wanted: list[Wanted]) -> list[Found | None]:
        found = {row[0]: Found(*row[1:]) for row in execute(connection, _HEADS, {"wanted": orjson.dumps(
            [{"n": number, **one._asdict()} for number, one in enumerate(wanted)]).decode()}, rows=True)}
        return [found.get(number) for number in range(len(wanted))]

    def retried(self, connection: Connection, match_id: int, device_id: str) -> int | None:
        row = self._retried.run(connection, {"match_id": match_id, "device_id": device_id})
        return row[0] if row is not None else None

    def write(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        self._write.run(connection, rows)

    def import_rows(self, connection: Connection, events: list[dict[str, Any]],
                    rulings: list[dict[str, Any]]) -> None:
        for copy, rows in zip(self._copies, (events, rulings), strict=True):
            copy.run(connection, rows)

    def lock(self, connection: Connection, key: int) -> None:
        execute(connection, "SELECT pg_advisory_xact_lock(%(key)s, hashtext(current_schema()))", {"key": key})

    def pipeline(self, connection: Connection) -> AbstractContextManager[object]:
        return cast(AbstractContextManager[object], _driver(connection).pipeline())

    def upsert(self, table: Any) -> Upsert:
        return postgresql.insert(table)


class _Records:
    """PostgreSQL's write of a group: its events, rulings and new heads in one statement, each table's rows one
    JSON array (``json_populate_recordset`` reads each column by its name, as its type)."""

    def __init__(self, tables: Mapping[str, list[Column[Any]]]) -> None:
        self.tables = {name: [(str(column.name),  # orjson takes no str subclass, as SQLAlchemy's names are
                               "match_id" if name == "heads" and column.key == "id" else column.key)
                              for column in columns] for name, columns in tables.items()}
        head = ", ".join(f"{name} = h.{name}" for name in HEAD_COLUMNS)
        self.sql = ("WITH event AS (INSERT INTO events SELECT * FROM "
                    "json_populate_recordset(NULL::events, CAST(%(events)s AS JSON))), "
                    "ruling AS (INSERT INTO rulings SELECT * FROM "
                    "json_populate_recordset(NULL::rulings, CAST(%(rulings)s AS JSON))) "
                    f"UPDATE matches SET {head} FROM json_populate_recordset(NULL::matches, CAST(%(heads)s AS JSON)) h "
                    "WHERE matches.id = h.id")

    def run(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        execute(connection, self.sql, {name: orjson.dumps([{column: row[key] for column, key in columns}
                                                           for row in rows]).decode()
                                       for name, columns in self.tables.items()})


class _Copy:
    """A table's rows streamed in with ``COPY ... FROM STDIN`` (psycopg's ``cursor.copy``): no statement per
    row, nothing parsed but the rows; JSON columns go as their text."""

    def __init__(self, table: Table) -> None:
        self.keys = [column.key for column in table.columns]
        self.json = {column.key for column in table.columns if isinstance(column.type, JSON)}
        names = ", ".join(f'"{column.name}"' for column in table.columns)
        self.sql = f"COPY {table.name} ({names}) FROM STDIN"

    def run(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        cursor = _cursor(connection)
        try:
            with _waiting(connection, cursor, self.sql), cursor.copy(self.sql) as copy:
                for row in rows:
                    copy.write_row([_json(row[key]) if key in self.json else row[key] for key in self.keys])
        finally:
            cursor.close()


def json_text(value: Any) -> str:
    """A JSON column's text, however it is written (the engine's ``json_serializer``, an import's COPY): orjson's,
    which an append's ruling, clock, flags and heads take a tenth of json.dumps's time to write (keys that are not
    strings written as json.dumps writes them)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")


def _json(value: Any) -> str | None:
    return None if value is None else json_text(value)
