"""Group commit: the appends that wait at the same moment share one transaction and one durable commit.

A durable commit costs a flush to disk (SQLite's fsync of its WAL, PostgreSQL's of its WAL), and a
flush costs about the same for one event as for eight. So appends take turns as a group: the first
to come finds no commit under way and leads at once (a lone append waits for nothing); those that
come while it commits queue up, and the first of them leads them all through the next transaction
as soon as the one before is durable. Each append still returns only once a commit that holds it
has returned, and each one is checked in the transaction as it would be alone (its match's head
read and locked there), so the database keeps each match consistent across servers, not this lock.

Each unit of work (an append) is done in three steps, each the whole group's at once: its match's
head read, locked (:meth:`~matchstate.store.dialects.Statements.heads`); its checks and the engine,
which give its answer and the rows to write, or a :class:`~matchstate.errors.MatchstateError` (a
refused event, a conflict) that is its answer alone and writes nothing; then every row written
(:meth:`~matchstate.store.dialects.Statements.write`). Any other failure (the database's) rolls the
whole transaction back, and each of its units is done again alone, in a transaction of its own, so
that one failing unit fails alone; but where the database could not be reached in time (every wait on it
is bounded: see :mod:`~matchstate.store.database`), the group and every append queued behind it get that
answer at once, rather than each waiting its turn to fail the same way.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection

from ..errors import MatchstateError, StoreError
from .database import Database, unavailable
from .dialects import Found, Wanted
from .leaguelog import APPEND, LeagueLog, event_leaf

T = TypeVar("T")
GROUP_LIMIT = 64  # units in one transaction at most: the last of a long queue waits no more than this many
# A unit's work, given its head (None where no match has its code): its answer, and the rows to write if any.
Work = Callable[[Connection, Found | None], tuple[T, dict[str, Any] | None]]


class _Unit(Generic[T]):
    """One caller's work in a group, and its answer once the group's commit returned."""

    __slots__ = ("answered", "error", "leaf", "turn", "value", "wanted", "work")

    def __init__(self, wanted: Wanted, work: Work[T]) -> None:
        self.wanted, self.work = wanted, work
        self.turn = threading.Event()  # set once it is answered, or once it is its turn to lead
        self.answered = False
        self.value: T | None = None
        self.error: BaseException | None = None
        self.leaf: tuple[int, str | None] | None = None  # its league log leaf's index, the group's checkpoint

    def result(self) -> T:
        if self.error is not None:
            raise self.error
        if not self.answered:
            raise StoreError("the write was not done: the transaction that held it failed")
        return self.value  # type: ignore[return-value]


class GroupCommit:
    """Write transactions shared by the threads that wait at the same moment (see the module's docstring);
    ``grouped=False`` gives each unit a transaction of its own, as before group commit (for comparison)."""

    def __init__(self, database: Database, *, grouped: bool = True, log: LeagueLog | None = None) -> None:
        self.database = database
        self.statements = database.statements
        self.grouped = grouped
        self.log = log
        self._lock = threading.Lock()
        self._queue: list[_Unit[Any]] = []
        self._leading = False
        self.sizes: Counter[int] = Counter()  # how many groups of each size were committed (for /metrics)

    def run(self, wanted: Wanted, work: Work[T]) -> T:
        """Do ``work`` for the match and device id ``wanted`` in a write transaction, maybe with others' work, and
        return its answer once the transaction's commit has returned."""
        return self.run_logged(wanted, work)[0]

    def run_logged(self, wanted: Wanted, work: Work[T]) -> tuple[T, tuple[int, str | None] | None]:
        """:meth:`run`, with the index of the league log leaf the work wrote and the checkpoint its group signed
        (None where it wrote nothing)."""
        unit: _Unit[T] = _Unit(wanted, work)
        if not self.grouped:
            self._commit([unit])
            return unit.result(), unit.leaf
        with self._lock:
            self._queue.append(unit)
            lead = not self._leading
            self._leading = True
        if not lead:
            unit.turn.wait()
        if not unit.answered:  # its turn to lead: the group queued behind the last one, itself first
            self._lead()
        return unit.result(), unit.leaf

    def _lead(self) -> None:
        with self._lock:
            group, self._queue = self._queue[:GROUP_LIMIT], self._queue[GROUP_LIMIT:]
        try:
            self._commit(group)
        finally:
            failed = next((unit.error for unit in group if unit.error is not None and unavailable(unit.error)), None)
            with self._lock:
                if failed is not None:  # those queued would wait their turn only to fail as this group did
                    for unit in self._queue:
                        unit.error, unit.answered = failed, True
                        unit.turn.set()
                    self._queue = []
                if self._queue:
                    self._queue[0].turn.set()  # it leads the next group
                else:
                    self._leading = False
            for unit in group:
                unit.turn.set()

    def _commit(self, group: list[_Unit[Any]]) -> None:
        self.sizes[len(group)] += 1
        try:
            self._transaction(group)
        except Exception as failed:
            if len(group) == 1:
                group[0].error = group[0].error or failed
            elif unavailable(failed):  # each alone would wait as long again, in turn, to fail the same way
                for unit in group:
                    if not isinstance(unit.error, MatchstateError):
                        unit.value, unit.error = None, failed
            else:
                for unit in group:  # each again, alone, that wrote or would have: only one that fails fails
                    if not isinstance(unit.error, MatchstateError):
                        unit.value, unit.error = None, None
                        self._commit([unit])
        for unit in group:
            unit.answered = True

    def _transaction(self, group: list[_Unit[Any]]) -> None:
        """Do the units' work in one transaction, committed; it raises (rolled back) where the database failed."""
        with self.database.transaction(write=True) as connection:
            heads = self.statements.heads(connection, [unit.wanted for unit in group])
            rows, written = [], []
            for unit, head in zip(group, heads, strict=True):
                unit.leaf = None
                try:
                    unit.value, row = unit.work(connection, head)
                except MatchstateError as refused:
                    unit.error = refused
                    continue
                except Exception as failed:
                    unit.error = failed
                    raise
                if row is not None:
                    rows.append(row)
                    written.append(unit)
            if rows:
                # On PostgreSQL, two round trips for the write and the league log's lock, head, leaves, nodes and new
                # head, not one each: only the log's head is read, and it waits for the write and the lock alone.
                with self.statements.pipeline(connection):
                    self.statements.write(connection, rows)
                    if self.log is not None:  # the group's leaves, and one checkpoint signed for all of them
                        added = self.log.add(connection, [event_leaf(APPEND, unit.wanted[0], row["seq"], row["hash"])
                                                          for unit, row in zip(written, rows, strict=True)])
                        for offset, unit in enumerate(written):
                            unit.leaf = (added.first + offset, added.checkpoint)
