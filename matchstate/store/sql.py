"""The store's SQL: what its rows hold, the statements that read them, and an append's prepared statements."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, NamedTuple, cast

import orjson
from sqlalchemy import (
    Column,
    Connection,
    Dialect,
    Select,
    Table,
    and_,
    bindparam,
    exists,
    func,
    insert,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.orm import aliased
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from ..engine import Match
from ..errors import InvalidQuery
from ..models import ActRow, EventRow, KeyRow, MatchRow, RulingRow
from ..records.search import fold
from ..records.tally import status_of
from .results import SORTS, MatchQuery

CONDITIONS = ("field_length", "penalty3_defended", "handicap_goals", "chukkers")


def event_columns(event: Mapping[str, Any]) -> dict[str, Any]:
    """The events table's copies of an engine-checked event's fields, as they read back (``at`` in UTC)."""
    return {"type": event["type"], "at": event["at"].astimezone(UTC), "device_id": event["id"], "by": event["by"]}


def match_columns(match: Match, created: datetime) -> dict[str, Any]:
    """The summary columns of a match's row as its engine gives them, ``created`` its first event's receipt."""
    info = match.info
    return {"code": info["match"], "teams": info["teams"], "conditions": {name: info[name] for name in CONDITIONS},
            "created": created, "last_at": event_columns(match.events[-1])["at"], "state": match.state,
            "score": match.score, **listing_columns(match)}


def listing_columns(match: Match) -> dict[str, Any]:
    """The columns the match list's query filters on: the standing, the match.start's day, the folded teams."""
    first, second = (fold(team) for team in match.info["teams"])
    return {"status": standing(match), "day": match.events[0]["at"].date().isoformat(),
            "team_1": first, "team_2": second}


def standing(match: Match) -> str:
    """Scheduled, in play or finished: whether a chukker.start and a match.end stand."""
    return status_of(match.clock.started, match.ended)


class HeadRow(NamedTuple):
    """A match's id and head: where its chain ends."""

    id: int
    last_seq: int
    last_hash: str


# Each event with its ruling, as StoredEvent's fields; outer, so that a missing ruling shows as one.
EVENTS = select(
    EventRow.seq, EventRow.type, EventRow.at, EventRow.raw, RulingRow.ruling, RulingRow.state, EventRow.device_id,
    EventRow.by.label("by"), EventRow.role, EventRow.received_at, EventRow.prev_hash, EventRow.hash, RulingRow.clock,
    RulingRow.flags,
).outerjoin(RulingRow, and_(RulingRow.match_id == EventRow.match_id, RulingRow.seq == EventRow.seq))
EVENT = EVENTS.where(EventRow.match_id == bindparam("match_id"), EventRow.seq == bindparam("seq"))
HEAD = select(MatchRow.id, MatchRow.last_seq, MatchRow.last_hash).where(MatchRow.code == bindparam("code"))
# The seq of the event with a device id, read afresh where the head's own read may have been too early.
RETRIED = select(EventRow.seq).where(EventRow.match_id == bindparam("match_id"),
                                     EventRow.device_id == bindparam("device_id"))
LAST_ACT = select(func.max(ActRow.seq)).scalar_subquery()
LIVE = MatchRow.importing.is_(None)  # a match being imported is no one's to see until it is whole
# The events after a seq, as a cached engine catches up on them.
LATER = (select(EventRow.seq, EventRow.raw, EventRow.prev_hash, EventRow.hash, EventRow.device_id)
         .where(EventRow.match_id == bindparam("match_id"), EventRow.seq > bindparam("seq"))
         .order_by(EventRow.seq))
# Every match, as listed: its first event's `at` is when it started.
SUMMARIES = (select(MatchRow.code, MatchRow.teams, MatchRow.score, MatchRow.state, MatchRow.created,
                    EventRow.at.label("started"), MatchRow.last_at, MatchRow.last_seq, MatchRow.status,
                    EventRow.raw.label("start"))
             .outerjoin(EventRow, and_(EventRow.match_id == MatchRow.id, EventRow.seq == 1)))


def listing(query: MatchQuery) -> Select[*tuple[Any, ...]]:
    """The matches ``query`` finds, in its order, its page: every filter in SQL, on migration 0005's indexes.
    The page is found on the matches table alone, and only its matches are joined to their match.start."""
    if query.sort not in SORTS:
        raise InvalidQuery(f"sort must be one of {', '.join(SORTS)}, not {query.sort!r}")
    page = select(MatchRow.id).where(LIVE)
    if query.team:
        page = page.where(or_(*(and_(*(team.contains(word, autoescape=True) for word in query.team))
                                for team in (MatchRow.team_1, MatchRow.team_2))))
    if query.day:
        page = page.where(MatchRow.day.startswith(query.day, autoescape=True))
    if query.status:
        page = page.where(MatchRow.status == query.status)
    if query.state:
        page = page.where(MatchRow.state == query.state)
    column = MatchRow.code if query.sort.lstrip("-") == "code" else MatchRow.created
    descending = query.sort.startswith("-")
    order = (column.desc(), MatchRow.code.desc()) if descending else (column, MatchRow.code)
    if query.after is not None:  # from the index, where OFFSET would walk every row it skips
        cursor = aliased(MatchRow)
        before = select(cursor.created if column is MatchRow.created else cursor.code, cursor.code).where(
            cursor.code == query.after).scalar_subquery()
        keys = tuple_(column, MatchRow.code)
        page = page.where(keys < before if descending else keys > before)
    found = page.order_by(*order).limit(query.limit).offset(query.offset or None).subquery()
    return SUMMARIES.join(found, found.c.id == MatchRow.id).order_by(*order)
# A match's row, as verify checks it; each event with its ruling and the ruling's engine version.
MATCH_ROWS = select(MatchRow.id, MatchRow.code, MatchRow.teams, MatchRow.conditions, MatchRow.created,
                    MatchRow.last_seq, MatchRow.last_hash, MatchRow.last_at, MatchRow.state, MatchRow.score,
                    MatchRow.status, MatchRow.day, MatchRow.team_1, MatchRow.team_2,
                    MatchRow.seal, MatchRow.acts_seq, LAST_ACT.label("last_act")).where(LIVE).order_by(MatchRow.code)
CHECKED = EVENTS.add_columns(RulingRow.engine_version, EventRow.chain_version)
# Every key, with its match's code (none for the league's); every act, in order.
KEYS = (select(KeyRow.id, KeyRow.match_id, MatchRow.code, KeyRow.role, KeyRow.key_hash, KeyRow.issued_at,
               KeyRow.revoked_at, KeyRow.seal)
        .outerjoin(MatchRow, MatchRow.id == KeyRow.match_id).order_by(KeyRow.id))
ACTS = select(ActRow).order_by(ActRow.seq)
# Rows that refer to a row that is not there (SQLite checks no foreign keys unless told to).
ORPHANS = {
    "event": select(EventRow.match_id, EventRow.seq).where(
        ~exists().where(MatchRow.id == EventRow.match_id)).order_by(EventRow.match_id, EventRow.seq),
    "ruling": select(RulingRow.match_id, RulingRow.seq).where(
        ~exists().where(EventRow.match_id == RulingRow.match_id, EventRow.seq == RulingRow.seq))
    .order_by(RulingRow.match_id, RulingRow.seq),
    "key": select(KeyRow.match_id, KeyRow.id).where(
        KeyRow.match_id.is_not(None), ~exists().where(MatchRow.id == KeyRow.match_id)).order_by(KeyRow.id),
}


class Prepared:
    """A Core statement compiled once for a dialect, run on the DB-API cursor itself.

    An append runs four short statements, and Connection.execute costs more than the driver
    does on each (a cache key, an execution context, a result): about half an append's time
    besides the commit. The values go through the column types' own bind processors, so the
    driver gets what Connection.execute would send; SQLAlchemy's events and logging do not see
    these statements, and the driver's errors come as the driver raises them.
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
        params = {**params, **{name: process(params[name]) for name, process in self.processors.items()}}
        found = execute(connection, self.sql, [params[name] for name in self.order] if self.order else params,
                        self.returns_rows)
        return found[0] if found else None


def execute(connection: Connection, statement: str, params: Any, rows: bool = False) -> list[tuple[Any, ...]]:
    """Run ``statement`` on the DB-API cursor of ``connection`` itself, in its transaction; its rows if ``rows``."""
    cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        cursor.execute(statement, params)
        return list(cursor.fetchall()) if rows else []
    finally:
        cursor.close()


Wanted = tuple[str, str | None, str | None]  # an append's match code, its event's device id and its key's hash


def held_keys(dialect: Dialect) -> Any:
    """The live key rows with the hash ``:key_hash`` that count on the match of the enclosing read (its own
    and the league's), as one JSON array of ``[league-wide, role, issued_at, seal]`` (none: empty or null)."""
    row = (KeyRow.match_id.is_(None), KeyRow.role, KeyRow.issued_at, KeyRow.seal)
    rows = (func.json_agg(func.json_build_array(*row)) if dialect.name == "postgresql"
            else func.json_group_array(func.json_array(*row)))
    return (select(rows).where(KeyRow.key_hash == bindparam("key_hash"), KeyRow.revoked_at.is_(None),
                               or_(KeyRow.match_id.is_(None), KeyRow.match_id == MatchRow.id))
            .scalar_subquery())


class AppendStatements:
    """The statements of a group of appends (:mod:`~matchstate.store.commits`), prepared for one dialect: the
    matches' heads read, then the events, their rulings and the new heads written.

    On PostgreSQL, each is one statement for the whole group, over a JSON array of its rows
    (``json_to_recordset``: one parameter, made in one call, where an array per column costs the
    driver more than the statement): a group costs four round trips (with the BEGIN and the COMMIT)
    however many appends it holds. SQLite, in the process, runs the statements of each append in turn.
    """

    def __init__(self, dialect: Dialect) -> None:
        self.postgresql = dialect.name == "postgresql"
        # The match's head, locked, beside the stored event with the incoming device id, the seq of the
        # store's last act (which the head's seal covers) and the live rows of the append's key: one read.
        self.head = Prepared(
            select(MatchRow.id, MatchRow.last_seq, MatchRow.last_hash, EventRow.seq, LAST_ACT, held_keys(dialect))
            .select_from(MatchRow)
            .outerjoin(EventRow, and_(EventRow.match_id == MatchRow.id, EventRow.device_id == bindparam("device_id")))
            .where(MatchRow.code == bindparam("code"))
            .with_for_update(of=MatchRow),  # PostgreSQL locks no row of an outer join's nullable side
            dialect)
        self.retried = Prepared(RETRIED, dialect)
        events, rulings, matches = (cast(Table, row.__table__) for row in (EventRow, RulingRow, MatchRow))
        head = [matches.c[name] for name in HEAD_COLUMNS]
        self.writes: list[Prepared | _Records]
        if self.postgresql:
            self.writes = [_Records({"events": list(events.columns), "rulings": list(rulings.columns),
                                     "heads": [matches.c.id, *head]})]
        else:
            self.writes = [Prepared(insert(table).values({column: bindparam(column.key, type_=column.type)
                                                          for column in table.columns}), dialect)
                           for table in (events, rulings)]
            self.writes.append(Prepared(update(matches).where(matches.c.id == bindparam("match_id")).values(
                {column.name: bindparam(column.name) for column in head}), dialect))

    def heads(self, connection: Connection, wanted: list[Wanted]) -> list[tuple[Any, ...] | None]:
        """For each (code, device id, key hash): its match's id, last seq and last hash, locked until the transaction
        ends, the seq of its stored event with that device id, the seq of the store's last act, and the live rows
        of the key with that hash (:func:`held_keys`); None for a code no match has. Matches are locked in the
        order of their codes, on every server alike."""
        if not self.postgresql:
            return [self.head.run(connection, {"code": code, "device_id": device_id, "key_hash": key_hash})
                    for code, device_id, key_hash in wanted]
        found = {row[0]: row[1:] for row in execute(connection, _HEADS, {"wanted": orjson.dumps(
            [{"n": number, "code": code, "device_id": device_id, "key_hash": key_hash}
             for number, (code, device_id, key_hash) in enumerate(wanted)]).decode()}, rows=True)}
        return [found.get(number) for number in range(len(wanted))]

    def write(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """Write each append's event, its ruling, and its match's new head; ``rows`` are each the event's and the
        ruling's columns, the head's and ``match_id`` (the ruling's ``state`` is the match's)."""
        for statement in self.writes:
            if isinstance(statement, _Records):
                statement.run(connection, rows)
            else:
                for params in rows:
                    statement.run(connection, params)


HEAD_COLUMNS = ("last_seq", "last_hash", "last_at", "state", "score", "status", "seal", "acts_seq")
# The heads of a group's matches (see AppendStatements.heads), by their place in the group.
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
