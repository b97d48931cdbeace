"""Group commit: the appends that wait at the same moment share one transaction and one durable commit.

A durable commit costs a flush to disk (SQLite's fsync of its WAL, PostgreSQL's of its WAL), and a
flush costs about the same for one event as for eight. So appends take turns as a group: the first
to come finds no commit under way and leads at once (a lone append waits for nothing); those that
come while it commits queue up, and the first of them leads them all through the next transaction
as soon as the one before is durable. Each append still returns only once a commit that holds it
has returned, and each one is checked in the transaction as it would be alone (its match's head
read and locked there), so the database keeps each match consistent across servers, not this lock.

A unit of work raises a :class:`~matchstate.errors.MatchstateError` only before it writes anything:
that is its own answer (a refused event, a conflict), and the others in its transaction go on. Any
other failure (the database's) rolls the whole transaction back, and each of its units is done again
alone, in a transaction of its own, so that one failing unit fails alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from sqlalchemy import Connection

from ..errors import MatchstateError, StoreError
from .database import Database

T = TypeVar("T")
GROUP_LIMIT = 64  # units in one transaction at most: the last of a long queue waits no more than this many


class _Unit(Generic[T]):
    """One caller's work in a group, and its answer once the group's commit returned."""

    __slots__ = ("answered", "error", "order", "turn", "value", "work")

    def __init__(self, work: Callable[[Connection], T], order: str) -> None:
        self.work, self.order = work, order
        self.turn = threading.Event()  # set once it is answered, or once it is its turn to lead
        self.answered = False
        self.value: T | None = None
        self.error: BaseException | None = None

    def run(self, connection: Connection) -> bool:
        """Do the work in ``connection``'s transaction; False where the database failed it (the transaction is
        in doubt). A refusal is its answer."""
        try:
            self.value = self.work(connection)
        except MatchstateError as refused:
            self.error = refused
        except Exception as failed:  # the database's: the transaction must be rolled back
            self.error = failed
            return False
        return True

    def result(self) -> T:
        if self.error is not None:
            raise self.error
        if not self.answered:
            raise StoreError("the write was not done: the transaction that held it failed")
        return self.value  # type: ignore[return-value]


class GroupCommit:
    """Write transactions shared by the threads that wait at the same moment (see the module's docstring);
    ``grouped=False`` gives each unit a transaction of its own, as before group commit (for comparison)."""

    def __init__(self, database: Database, *, grouped: bool = True) -> None:
        self.database = database
        self.grouped = grouped
        self._lock = threading.Lock()
        self._queue: list[_Unit[object]] = []
        self._leading = False

    def run(self, work: Callable[[Connection], T], order: str = "") -> T:
        """Do ``work`` in a write transaction, maybe with others' work, and return what it returned once the
        transaction's commit has returned. Units of one group run in the order of ``order`` (a match's
        code), so that servers sharing a PostgreSQL database lock matches' rows in one order."""
        if not self.grouped:
            with self.database.transaction(write=True) as connection:
                return work(connection)
        unit: _Unit[T] = _Unit(work, order)
        with self._lock:
            self._queue.append(unit)  # type: ignore[arg-type]
            lead = not self._leading
            self._leading = True
        if not lead:
            unit.turn.wait()
        if not unit.answered:  # its turn to lead: the group queued behind the last one, itself first
            self._lead()
        return unit.result()

    def _lead(self) -> None:
        with self._lock:
            group, self._queue = self._queue[:GROUP_LIMIT], self._queue[GROUP_LIMIT:]
        try:
            self._commit(sorted(group, key=lambda unit: unit.order))
        finally:
            with self._lock:
                if self._queue:
                    self._queue[0].turn.set()  # it leads the next group
                else:
                    self._leading = False
            for unit in group:
                unit.answered = True
                unit.turn.set()

    def _commit(self, group: list[_Unit[object]]) -> None:
        try:
            self._transaction(group)
        except Exception as failed:
            if len(group) == 1:
                group[0].error = group[0].error or failed
                return
            for unit in group:  # each again, alone, that wrote or would have: only one that fails fails
                if not isinstance(unit.error, MatchstateError):
                    unit.value, unit.error = None, None
                    try:
                        self._transaction([unit])
                    except Exception as alone:
                        unit.error = unit.error or alone

    def _transaction(self, group: list[_Unit[object]]) -> None:
        """Do each unit's work in one transaction, committed; :class:`_Failed` (rolled back) where one failed."""
        with self.database.transaction(write=True) as connection:
            for unit in group:
                if not unit.run(connection):
                    raise _Failed


class _Failed(Exception):
    """A unit's work failed in the database: its transaction is rolled back."""
