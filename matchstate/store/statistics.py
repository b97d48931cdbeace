"""Kept statistics: each match's statistics lines stored beside its log, so that a season's tables are sums
over an index instead of a recount of every log on every request.

Each match has a mark, the seq its lines were counted up to. A read first catches up: it counts again
every match whose ``last_seq`` is past its mark (or that has none), from its stored log, and writes the
match's lines and its new mark in one transaction. A match is counted whole, never patched: a ``void``
may change what the events before it gave, and a recount of the one match that moved is always right.
The append's path is untouched; a restart loses nothing (the lines are in the database), and
``matchstate stats rebuild`` counts every match again. :func:`problems` is what ``verify`` checks:
the lines of every match counted up to its head are its log's recount.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar, cast

from sqlalchemy import ColumnElement, Connection, Select, delete, func, insert, or_, select, tuple_

from ..models import STAT_COUNTS, STAT_LINES, EventRow, MatchRow, StatMarkRow
from ..records.search import fold, match_date
from ..records.stats import Line, Scope, Stats, lines_of
from ..records.tally import FINISHED, Tally, tally
from .database import Database
from .results import Unreadable, read_back
from .sql import LIVE
from .verify import Problem

STATS_LOCK = 36_003  # PostgreSQL: one catch-up writes at a time (see Database.lock)
BATCH = 200  # matches counted and written per transaction while catching up
PAGE = 50  # players on a page of the statistics
TEAM_LINE = ""  # the ``player`` of a team's line
KEPT_ANSWERS = 256  # answers kept in memory, the oldest dropped first
T = TypeVar("T")

_COUNTS = [STAT_LINES.c[name] for name in STAT_COUNTS]
_SUMS = [func.sum(column) for column in _COUNTS]
_KEYS = (STAT_LINES.c.team_key, STAT_LINES.c.team, STAT_LINES.c.player_key, STAT_LINES.c.player)
# What changes whenever any match is counted again, added or removed.
FINGERPRINT = select(func.count(), func.coalesce(func.sum(StatMarkRow.seq), 0),
                     func.coalesce(func.sum(StatMarkRow.match_id), 0))
# The matches whose log has grown past their mark, or that have none yet.
MOVED = (select(MatchRow.id).outerjoin(StatMarkRow, StatMarkRow.match_id == MatchRow.id)
         .where(LIVE, or_(StatMarkRow.seq.is_(None), StatMarkRow.seq != MatchRow.last_seq)).order_by(MatchRow.id))


@dataclass(frozen=True, slots=True)
class PlayersPage:
    """A page of a season's player lines, in the table's order (team, then name): one team's (``team``) or
    the whole season's after ``after`` (a player's team and name); ``following`` is the cursor of the next
    page, None on the last."""

    stats: Stats
    team: str | None
    following: tuple[str, str] | None


class KeptStatistics:
    """The kept statistics of the matches in ``database``. Threads and processes may share it.

    Each answer is also kept in memory with the marks' fingerprint it was summed at (their count and the sums
    of their seqs and match ids, one indexed read): while no match has moved, here or on another server, the
    same question is answered without summing again."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._answers: dict[tuple[Any, ...], tuple[tuple[int, ...], Any]] = {}
        self.unreadable: list[Unreadable] = []  # the matches the last catch-up could not count: not in the sums

    def _kept(self, question: tuple[Any, ...], answer: Callable[[Connection], T]) -> T:
        """``answer``, summed afresh unless the marks are as they were when it was last given."""
        self.catch_up()
        with self.database.transaction() as connection:
            marks = tuple(int(n) for n in connection.execute(FINGERPRINT).one())
            kept = self._answers.get(question)
            if kept is not None and kept[0] == marks:
                return cast(T, kept[1])
            given = answer(connection)
        if len(self._answers) >= KEPT_ANSWERS:
            self._answers.pop(next(iter(self._answers)))
        self._answers[question] = (marks, given)
        return given

    def catch_up(self) -> int:
        """Count again each match whose log grew since it was counted; how many there were. A match whose log
        cannot be read back is not counted (nor marked: the next catch-up tries it again), and is named in
        :attr:`unreadable`."""
        with self.database.transaction() as connection:
            moved = [match_id for (match_id,) in connection.execute(MOVED)]
        self.unreadable = [match for first in range(0, len(moved), BATCH)
                           for match in self._count(moved[first:first + BATCH])]
        return len(moved) - len(self.unreadable)

    def rebuild(self) -> int:
        """Forget every count and count every match from its log; how many matches were counted."""
        with self.database.transaction(write=True) as connection:
            self.database.lock(connection, STATS_LOCK)
            connection.execute(delete(STAT_LINES))
            connection.execute(delete(StatMarkRow))
        return self.catch_up()

    def stats(self, scope: Scope) -> Stats:
        """The statistics of the matches ``scope`` covers: every team and every player."""
        return self._kept(("stats", scope), lambda connection: self._stats(
            connection, scope, list(connection.execute(_players(scope)))))

    def page(self, scope: Scope, *, team: str | None = None, after: tuple[str, str] | None = None,
             size: int = PAGE) -> PlayersPage:
        """Every team's line, and a page of players: ``team``'s (all of them), or ``size`` after ``after``."""
        return self._kept(("page", scope, team, after, size),
                          lambda connection: self._page(connection, scope, team, after, size))

    def _page(self, connection: Connection, scope: Scope, team: str | None, after: tuple[str, str] | None,
              size: int) -> PlayersPage:
        query = _players(scope)
        if team is not None:
            query = query.where(STAT_LINES.c.team == team)
        else:
            if after is not None:
                query = query.where(tuple_(*_KEYS) > tuple_(fold(after[0]), after[0], fold(after[1]), after[1]))
            query = query.limit(size + 1)
        rows = list(connection.execute(query))
        more = team is None and len(rows) > size
        stats = self._stats(connection, scope, rows[:size] if more else rows)
        last = stats.players[-1] if more and stats.players else None
        return PlayersPage(stats, team, (last.team, last.player or "") if last is not None else None)

    def events(self) -> list[str]:
        """The tournaments of the matches counted, by name as their match.start writes it, in order."""
        return self._kept(("events",), lambda connection: sorted(connection.execute(
            select(StatMarkRow.event).distinct().where(StatMarkRow.event != "")).scalars()))

    def _stats(self, connection: Connection, scope: Scope, players: Sequence[Any]) -> Stats:
        matches, finished = connection.execute(
            select(func.count(), func.coalesce(func.sum(StatMarkRow.finished), 0)).where(*_marks_in(scope))).one()
        teams = [Line.of_counts(row[0], None, row[1:]) for row in connection.execute(_teams(scope))]
        return Stats(scope, int(matches), int(finished), teams,
                     [Line.of_counts(row[0], row[1], row[2:]) for row in players])

    def _count(self, match_ids: list[int]) -> list[Unreadable]:
        """Count these matches from their logs as they stand now, and write their lines and marks; those whose log
        cannot be read back."""
        with self.database.transaction() as connection:
            heads = {match_id: (code, seq) for match_id, code, seq in connection.execute(
                select(MatchRow.id, MatchRow.code, MatchRow.last_seq).where(MatchRow.id.in_(match_ids), LIVE))}
            logs = _logs(connection, {match_id: seq for match_id, (_, seq) in heads.items()})
        read = {match_id: read_back(heads[match_id][0], partial(_tally, log)) for match_id, log in logs.items() if log}
        counted = {match_id: tallied for match_id, tallied in read.items() if isinstance(tallied, Tally)}
        with self.database.transaction(write=True) as connection:
            self.database.lock(connection, STATS_LOCK)
            still = set(connection.execute(select(MatchRow.id).where(MatchRow.id.in_(list(counted)))).scalars())
            connection.execute(delete(STAT_LINES).where(STAT_LINES.c.match_id.in_(match_ids)))
            connection.execute(delete(StatMarkRow).where(StatMarkRow.match_id.in_(match_ids)))
            lines = [row for match_id in still for row in line_rows(match_id, counted[match_id])]
            if lines:
                connection.execute(insert(STAT_LINES), lines)
            if still:
                connection.execute(insert(StatMarkRow), [mark_row(match_id, heads[match_id][1], counted[match_id])
                                                         for match_id in still])
        return [unread for unread in read.values() if isinstance(unread, Unreadable)]


def line_rows(match_id: int, counted: Tally) -> list[dict[str, Any]]:
    """The stat_lines rows of one match's tally."""
    event_key, day = _event_key(counted), match_date(counted.start).isoformat()
    return [{"match_id": match_id, "team": line.team, "player": line.player or TEAM_LINE,
             "team_key": fold(line.team), "player_key": fold(line.player or ""), "event_key": event_key, "day": day,
             **dict(zip(STAT_COUNTS, line.counts(), strict=True))} for line in lines_of(counted)]


def mark_row(match_id: int, seq: int, counted: Tally) -> dict[str, Any]:
    """The stat_marks row of a match counted up to ``seq``."""
    return {"match_id": match_id, "seq": seq, "event": counted.start.get("event") or "",
            "event_key": _event_key(counted),
            "day": match_date(counted.start).isoformat(), "finished": int(counted.status == FINISHED)}


def problems(connection: Connection, matches: Iterable[tuple[int, str, int]]) -> Iterator[Problem]:
    """Where kept statistics are not a recount: each of ``matches`` (id, code, last_seq) counted up to its head
    whose lines or mark differ from its log's tally, and lines kept for a match with no mark. A match not yet
    counted up to its head is no problem (the next read counts it)."""
    listed = list(matches)
    for first in range(0, len(listed), BATCH):
        yield from _batch_problems(connection, {match_id: (code, last_seq)
                                                for match_id, code, last_seq in listed[first:first + BATCH]})


def _batch_problems(connection: Connection, wanted: dict[int, tuple[str, int]]) -> Iterator[Problem]:
    marks = {row.match_id: row for row in connection.execute(select(*StatMarkRow.__table__.columns).where(
        StatMarkRow.match_id.in_(list(wanted))))}
    kept: dict[int, set[tuple[Any, ...]]] = {match_id: set() for match_id in marks}
    columns = [STAT_LINES.c.match_id, *(STAT_LINES.c[name] for name in _ROW)]
    for row in connection.execute(select(*columns).where(STAT_LINES.c.match_id.in_(list(wanted)))):
        kept.setdefault(row[0], set()).add(tuple(row[1:]))
    for match_id in kept.keys() - marks.keys():
        yield Problem(wanted[match_id][0], None, "it has kept statistics lines but no mark")
    current = {match_id: mark for match_id, mark in marks.items() if mark.seq == wanted[match_id][1]}
    logs = _logs(connection, {match_id: mark.seq for match_id, mark in current.items()})
    for match_id, mark in current.items():
        counted = _tally(logs[match_id])
        recount = {tuple(row[name] for name in _ROW) for row in line_rows(match_id, counted)}
        expected = mark_row(match_id, mark.seq, counted)
        if kept[match_id] != recount or any(getattr(mark, name) != expected[name] for name in expected):
            differ = sorted({f"{row[0]} {row[1]}".strip() for row in kept[match_id] ^ recount}) or ["its mark"]
            yield Problem(wanted[match_id][0], None, "its kept statistics are not its log's recount (run "
                                                     f"`matchstate stats rebuild`): {', '.join(differ)}")


_ROW = ("team", "player", "event_key", "day", *STAT_COUNTS)


def _logs(connection: Connection, heads: dict[int, int]) -> dict[int, list[str]]:
    """Each match's events' JSON text, up to its head's seq (a log only grows)."""
    logs: dict[int, list[str]] = {match_id: [] for match_id in heads}
    if heads:
        for match_id, seq, raw in connection.execute(select(EventRow.match_id, EventRow.seq, EventRow.raw).where(
                EventRow.match_id.in_(list(heads))).order_by(EventRow.match_id, EventRow.seq)):
            if seq <= heads[match_id]:
                logs[match_id].append(raw)
    return logs


def _tally(log: list[str]) -> Tally:
    """The tally of a match's events' JSON text."""
    return tally([json.loads(raw) for raw in log])


def _event_key(counted: Tally) -> str:
    return fold(counted.start.get("event") or "")


def _in(scope: Scope, event_key: Any, day: Any) -> list[ColumnElement[bool]]:
    """The conditions of ``scope`` on a table's event key and day."""
    where: list[ColumnElement[bool]] = []
    if scope.event:
        where.append(event_key == fold(scope.event))
    if scope.season:
        where.append(day.between(scope.first.isoformat(), scope.last.isoformat()))
    return where


def _marks_in(scope: Scope) -> list[ColumnElement[bool]]:
    return _in(scope, StatMarkRow.event_key, StatMarkRow.day)


def _teams(scope: Scope) -> Select[Any]:
    return (select(STAT_LINES.c.team, *_SUMS)
            .where(STAT_LINES.c.player == TEAM_LINE, *_in(scope, STAT_LINES.c.event_key, STAT_LINES.c.day))
            .group_by(STAT_LINES.c.team_key, STAT_LINES.c.team).order_by(STAT_LINES.c.team_key, STAT_LINES.c.team))


def _players(scope: Scope) -> Select[Any]:
    return (select(STAT_LINES.c.team, STAT_LINES.c.player, *_SUMS)
            .where(STAT_LINES.c.player != TEAM_LINE, *_in(scope, STAT_LINES.c.event_key, STAT_LINES.c.day))
            .group_by(*_KEYS).order_by(*_KEYS))
