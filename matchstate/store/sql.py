"""The store's SQL: what its rows hold and the statements that read them, alike on every database (those that
differ are :mod:`~matchstate.store.dialects`'s)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any, NamedTuple, TypeVar

from sqlalchemy import (
    Connection,
    Row,
    Select,
    and_,
    bindparam,
    exists,
    func,
    literal_column,
    or_,
    select,
    tuple_,
)
from sqlalchemy.orm import aliased

from ..engine import Match
from ..errors import InvalidQuery
from ..events import Event
from ..models import ActRow, EventRow, KeyRow, MatchRow, RulingRow
from ..standing import fold, status_of
from .results import SORTS, UNREADABLE, MatchQuery, Unreadable, read_back

T = TypeVar("T")


def event_columns(event: Event) -> dict[str, Any]:
    """The events table's copies of an engine-checked event's fields, as they read back (``at`` in UTC)."""
    return {"type": event["type"], "at": event["at"].astimezone(UTC), "device_id": event["id"], "by": event["by"]}


def match_columns(match: Match, created: datetime) -> dict[str, Any]:
    """The summary columns of a match's row as its engine gives them, ``created`` its first event's receipt."""
    info = match.start
    conditions = {"field_length": info["field_length"], "penalty3_defended": info["penalty3_defended"],
                  "handicap_goals": info["handicap_goals"], "chukkers": info["chukkers"]}
    return {"code": info["match"], "teams": info["teams"], "conditions": conditions,
            "created": created, "last_at": event_columns(match.events[-1])["at"], "state": match.state,
            "score": match.score, **listing_columns(match)}


def listing_columns(match: Match) -> dict[str, Any]:
    """The columns the match list's query filters on: the standing, the match.start's day, the folded teams."""
    first, second = (fold(team) for team in match.start["teams"])
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
# The seq of the event with a device id, read afresh where the head's own read may have been too early.
RETRIED = select(EventRow.seq).where(EventRow.match_id == bindparam("match_id"),
                                     EventRow.device_id == bindparam("device_id"))
# The role that recorded an event (the one a void strikes).
RECORDED_BY = select(EventRow.role).where(EventRow.match_id == bindparam("match_id"), EventRow.seq == bindparam("seq"))
LAST_ACT = select(func.max(ActRow.seq)).scalar_subquery()
LIVE = MatchRow.importing.is_(None)  # a match being imported is no one's to see until it is whole
# Every card of the live matches, by match and seq, from their partial index (ix_events_cards): the type is written
# as a literal, since a planner takes a partial index only for a condition it can see at planning.
CARDS = (select(MatchRow.code, EventRow.seq, EventRow.raw).join(MatchRow, MatchRow.id == EventRow.match_id)
         .where(EventRow.type == literal_column("'card'"), LIVE).order_by(EventRow.match_id, EventRow.seq))
HEAD = select(MatchRow.id, MatchRow.last_seq, MatchRow.last_hash).where(MatchRow.code == bindparam("code"), LIVE)
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


def read_each(connection: Connection, statement: Select[Any], read: Callable[[Row[Any]], T]) -> list[T | Unreadable]:
    """Each match ``statement`` finds (its rows select the matches table's ``code``), in its order, as ``read``
    makes its row, or as :class:`~matchstate.store.results.Unreadable` where the row cannot be read back (see
    :func:`~matchstate.store.results.read_back`). A column whose type cannot read what it holds fails as its row
    is fetched, which ends the fetching of every row after it: then each match's row is fetched on its own."""
    try:
        return [read_back(row.code, partial(read, row)) for row in connection.execute(statement)]
    except UNREADABLE:
        pass

    def fetched(match_id: int) -> T:
        return read(connection.execute(statement.where(MatchRow.id == match_id)).one())

    return [read_back(code, partial(fetched, match_id))
            for match_id, code in connection.execute(statement.with_only_columns(MatchRow.id, MatchRow.code))]


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
