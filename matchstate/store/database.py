"""Which database, its schema, and transactions whose every commit is durable when it returns.

The database is SQLite or PostgreSQL, named by a URL: the one given, else ``MATCHSTATE_DATABASE_URL``,
else the SQLite file ``matchstate.db`` in the working directory. PostgreSQL commits durably with its
default ``synchronous_commit = on``; SQLite is set here to WAL mode with ``synchronous = FULL``, and a
write takes the write lock as it begins (``BEGIN IMMEDIATE``).

No wait on the database is unbounded (:func:`database_timeout`, ``MATCHSTATE_DATABASE_TIMEOUT``, default
10 s): PostgreSQL's connect, a turn at its pool's connections (within a request's deadline, see :func:`deadline`),
each statement and commit (cut by :class:`Watchdog` where
the server, or a middlebox, falls silent: a request's within that time in all, the statements of work no one
waits on, an import's or a verify's, each within the server's own limit), and, on the server's side, a statement
and an idle transaction (6 times as long); TCP keepalives find a dead peer. A cut connection is invalidated, and
the pool with it, so the next transaction opens a fresh one. SQLite waits that long for its write lock.

What a transaction leaves for after its commit (:func:`after_commit`: the league log's nodes for its cache) is done
only once its COMMIT returned; a rollback, or a COMMIT that fails, drops it.
"""

from __future__ import annotations

import math
import os
import socket
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import psycopg
from alembic import command, context
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from ..errors import DatabaseUnavailable, StoreError
from .dialects import json_text, statements_for

DEFAULT_URL = "sqlite:///matchstate.db"
# Inside the package when installed from a wheel; at the repository's top in a checkout.
_HERE = Path(__file__).resolve().parent.parent
MIGRATIONS = next(folder for folder in (_HERE / "migrations", _HERE.parent / "migrations") if folder.is_dir())
DATABASE_TIMEOUT_SECONDS = 10.0  # the default of MATCHSTATE_DATABASE_TIMEOUT
SERVER_SIDE_FACTOR = 6  # PostgreSQL's own statement and idle-transaction timeouts, in database timeouts
POOL_SIZE, POOL_OVERFLOW = 5, 10  # PostgreSQL's connections kept open, and those opened beyond them at a peak
LEAST_CONNECT_TIMEOUT = 2  # libpq's (and psycopg's): a shorter connect_timeout is taken as 2 s
# PostgreSQL advisory locks, each taken per schema (the second key is the schema's): see Database.lock.
MIGRATION_LOCK = 36_001
SEALING = "sealing"  # set in a migration's configuration where the store will seal what the migration leaves
ACTS_LOCK = 36_002


def database_url(url: str | None = None) -> URL:
    """``url``, else ``MATCHSTATE_DATABASE_URL``, else ``matchstate.db`` here; PostgreSQL through psycopg 3."""
    chosen = make_url(url or os.environ.get("MATCHSTATE_DATABASE_URL") or DEFAULT_URL)
    return chosen.set(drivername="postgresql+psycopg") if chosen.drivername == "postgresql" else chosen


# The moment (time.monotonic) by which the request being served must be done with the database, where one
# set it (see :func:`deadline`): a request's waits, one after another, are bounded all together by it.
DEADLINE: ContextVar[float | None] = ContextVar("database_deadline", default=None)


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Within it (and in the threads it starts work in), every wait on the database ends ``seconds`` from now."""
    token = DEADLINE.set(time.monotonic() + seconds)
    try:
        yield
    finally:
        DEADLINE.reset(token)


def driver_said(err: Exception) -> str:
    """The first line of what the driver said of a database it could not use: what a log line or a refusal gives."""
    reason = str(getattr(err, "orig", None) or err).strip().splitlines()
    return reason[0] if reason else type(err).__name__


def database_timeout() -> float:
    """The longest a request waits on the database: ``MATCHSTATE_DATABASE_TIMEOUT`` seconds, else 10."""
    given = os.environ.get("MATCHSTATE_DATABASE_TIMEOUT", "")
    try:
        seconds = float(given) if given else DATABASE_TIMEOUT_SECONDS
    except ValueError:
        seconds = 0
    if not 0 < seconds < math.inf:
        raise StoreError(f"MATCHSTATE_DATABASE_TIMEOUT must be a number of seconds above 0, not {given!r}")
    return seconds


def postgresql_options(url: URL, seconds: float) -> dict[str, Any]:
    """libpq's connection options bounding every wait by ``seconds`` (the server's own timeouts, longer),
    beside those the URL gives (its ``options``, say a search_path, kept)."""
    server_ms = int(seconds * SERVER_SIDE_FACTOR * 1000)
    given = url.query.get("options", "")
    options = " ".join(filter(None, [given if isinstance(given, str) else " ".join(given),
                                     f"-c statement_timeout={server_ms}",
                                     f"-c idle_in_transaction_session_timeout={server_ms}"]))
    return {"connect_timeout": max(LEAST_CONNECT_TIMEOUT, math.ceil(seconds)), "options": options,
            "keepalives": 1, "keepalives_idle": max(1, math.ceil(seconds / 2)), "keepalives_interval": 1,
            "keepalives_count": 3, "tcp_user_timeout": int(seconds * 1000)}


def make_engine(url: URL, seconds: float | None = None) -> Engine:
    """An engine whose every commit is durable when it returns and whose every wait is bounded by ``seconds``
    (default :func:`database_timeout`; see the module's docstring)."""
    seconds = seconds or database_timeout()
    if url.get_backend_name() != "sqlite":
        return create_engine(url, connect_args=postgresql_options(url, seconds), pool_timeout=seconds,
                             pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW, json_serializer=json_text)
    engine = create_engine(url, connect_args={"timeout": seconds}, json_serializer=json_text)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(connection: Any, _: Any) -> None:
    connection.isolation_level = None  # transactions are begun by _sqlite_begin, not by the sqlite3 module
    _wal(connection)
    connection.execute("PRAGMA synchronous=FULL")  # in WAL mode, NORMAL may lose the last commits on power loss
    connection.execute("PRAGMA foreign_keys=ON")  # SQLite checks none unless told, on each connection


def _wal(connection: sqlite3.Connection) -> None:
    """Put the database in WAL mode. A new database's first connections race to do it, and the losers are told
    "database is locked" at once, without the busy timeout's wait: they wait their turn here instead."""
    deadline = time.monotonic() + database_timeout()
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


ON_COMMIT = "matchstate.on-commit"  # in a connection's info: what its transaction leaves to do once committed


def after_commit(connection: Connection, work: Callable[[], None]) -> None:
    """Do ``work`` once the transaction of ``connection`` (one of :meth:`Database.transaction`) has committed; never
    where it rolls back or its COMMIT fails."""
    connection.info.setdefault(ON_COMMIT, []).append(work)


@contextmanager
def _committed(connection: Connection) -> Iterator[Connection]:
    """The transaction of ``connection``, then the work it left for after its commit (:func:`after_commit`)."""
    with connection.begin():
        yield connection
        done = connection.info.pop(ON_COMMIT, ())  # taken before the COMMIT: if it fails, none is done
    for work in done:
        work()


def _rolled_back(connection: Connection) -> None:
    # A transaction's work for after its commit goes with its rollback. A connection the watchdog cut (invalidated)
    # has no info to read: the pool clears it before the connection is used again.
    if not connection.invalidated:
        connection.info.pop(ON_COMMIT, None)


def _sqlite_begin(connection: Connection) -> None:
    # A deferred transaction that read first cannot take the write lock once another writer has
    # committed: it fails at once. An immediate one waits its turn (the busy timeout) instead.
    immediate = connection.get_execution_options().get("write", False)
    connection.connection.driver_connection.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")  # type: ignore[union-attr]


def unavailable(err: BaseException) -> bool:
    """Whether ``err`` says the database could not be reached or written in time (so trying again later may
    succeed), not that something asked of it was wrong."""
    return isinstance(err, DatabaseUnavailable | OperationalError | InterfaceError | PoolTimeout
                      # the drivers' own, from statements run on a cursor itself (the append's)
                      | sqlite3.OperationalError | psycopg.OperationalError | psycopg.InterfaceError) or (
        isinstance(err, DBAPIError) and err.connection_invalidated)


class Watchdog:
    """Cuts (shuts down the socket of) a PostgreSQL connection whose statement or commit has waited too long: a
    silent server or middlebox then fails the transaction at once, where it would hold its thread, and every
    append grouped behind it, for as long as the silence lasts. A transaction arms it as it begins; each
    statement and commit is watched while it waits on the database (the work's own time between them is not the
    database's); and it is disarmed as the transaction ends."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        # The id of a driver connection: its deadline now, its socket, the deadline of its transaction in all, and
        # the longest one statement may wait.
        self._armed: dict[int, tuple[float, int, float, float]] = {}
        self._started = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()  # the running thread's: set, it ends

    def arm(self, driver_connection: Any, seconds: float, statement: float | None = None) -> None:
        """Watch ``driver_connection``: cut it in ``seconds`` (the most its transaction may take in all: ``inf`` for
        work no one waits on), or, where sooner, once a statement or commit has waited ``statement`` seconds (the
        watchdog's, where not given)."""
        now, fd = time.monotonic(), driver_connection.fileno()
        self._armed[id(driver_connection)] = (now + seconds, fd, now + seconds, statement or self.seconds)
        with self._started:  # not a read outside it: a thread stopping just then would leave this one unwatched
            if self._thread is None:
                self._stopping = threading.Event()
                self._thread = threading.Thread(target=self._watch, args=(self._stopping,), name="database-watchdog",
                                                daemon=True)
                self._thread.start()

    def stop(self) -> None:
        """End the watching thread, its database closed (a transaction armed after it starts another): each
        database's thread lived as long as the process, and a process that opened many (a test session, a
        season's commands) ran hundreds, each waking four times a second."""
        with self._started:
            self._stopping.set()
            self._thread = None

    def extend(self, connection: Connection, *_: Any) -> None:
        """A statement or commit begins to wait on the database (an engine's ``before_cursor_execute`` and
        ``commit``): it is cut if no answer comes within a statement's seconds. (A failed statement's rollback is
        timed from that statement.)"""
        key = id(connection.connection.driver_connection)
        armed = self._armed.get(key)
        if armed is not None:
            self._armed[key] = (min(armed[2], time.monotonic() + armed[3]), armed[1], armed[2], armed[3])

    def rest(self, connection: Connection, *_: Any) -> None:
        """The database answered (``after_cursor_execute``): until the next statement only the transaction's own
        deadline holds, so that an import's or a verify's work between statements is never taken for silence."""
        key = id(connection.connection.driver_connection)
        armed = self._armed.get(key)
        if armed is not None:
            self._armed[key] = (armed[2], armed[1], armed[2], armed[3])

    def disarm(self, driver_connection: Any) -> None:
        self._armed.pop(id(driver_connection), None)

    def _watch(self, stopping: threading.Event) -> None:
        while not stopping.wait(min(0.25, self.seconds / 4)):
            now = time.monotonic()
            for key, (due, fd, _, _) in list(self._armed.items()):
                if due < now and self._armed.pop(key, None) is not None:
                    _cut(fd)


def _cut(fd: int) -> None:
    """Shut down the socket ``fd`` (the driver's own descriptor stays its to close): a read waiting on it ends."""
    try:
        cutting = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        cutting.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        cutting.close()


class Database:
    """The store's database: its engine, its transactions and its schema. May be shared by threads."""

    def __init__(self, url: URL) -> None:
        self.url = url
        self.timeout = database_timeout()
        self.engine = make_engine(url, self.timeout)
        self.sqlite = url.get_backend_name() == "sqlite"
        self.statements = statements_for(self.engine.dialect)  # the statements that differ, chosen once
        self._writer: Connection | None = None  # SQLite's one write connection, see transaction
        self._writer_lock = threading.Lock()
        self.watchdog = None if self.sqlite else Watchdog(self.timeout)
        # A turn at the pool's connections, waited for within the request's deadline: the pool's own wait is its
        # whole timeout, however late a request comes to it (one that had waited for a thread, or behind others).
        self._turns = threading.BoundedSemaphore(POOL_SIZE + POOL_OVERFLOW)
        event.listen(self.engine, "rollback", _rolled_back)
        if self.watchdog is not None:
            for waits in ("before_cursor_execute", "commit"):
                event.listen(self.engine, waits, self.watchdog.extend)
            event.listen(self.engine, "after_cursor_execute", self.watchdog.rest)
            event.listen(self.engine, "do_connect", self._connecting)

    def remaining(self) -> float:
        """The seconds the work being done may still wait on the database: the request's deadline, else the
        database's timeout. :class:`DatabaseUnavailable` where the deadline has passed."""
        due = DEADLINE.get()
        if due is None:
            return self.timeout
        left = due - time.monotonic()
        if left <= 0:
            raise DatabaseUnavailable.waited(self.timeout)
        return left

    def _connecting(self, _: Any, __: Any, ___: Any, options: dict[str, Any]) -> None:
        left = min(self.remaining(), self.timeout)
        # A connection is not begun with less than half libpq's least connect timeout left (or half the timeout, set
        # shorter): a silent server would hold the request that long past its deadline (a request that came late,
        # behind others, to an empty pool).
        if left < min(LEAST_CONNECT_TIMEOUT, self.timeout) / 2:
            raise DatabaseUnavailable.waited(self.timeout)
        options["connect_timeout"] = max(LEAST_CONNECT_TIMEOUT, math.ceil(left))

    def close(self) -> None:
        """Close the database connections."""
        with self._writer_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self.engine.dispose()
        if self.watchdog is not None:
            self.watchdog.stop()

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[Connection]:
        """A transaction; a read sees one snapshot, so that a match's head and its events agree."""
        if write and self.sqlite:
            # SQLite has one writer at a time anyway: this process's writes take turns on one
            # connection, kept open, rather than each checking one out of the pool.
            if not self._writer_lock.acquire(timeout=self.remaining()):
                raise DatabaseUnavailable.waited(self.timeout)
            try:
                if self._writer is None:
                    self._writer = self.engine.connect().execution_options(write=True)
                with _committed(self._writer):
                    yield self._writer
            except BaseException:
                self._end_a_failed_commit()
                raise
            finally:
                self._writer_lock.release()
            return
        if self.sqlite:  # SQLite's reads are snapshots already
            with self.engine.connect() as connection, _committed(connection):
                yield connection
            return
        if not self._turns.acquire(timeout=self.remaining()):
            raise DatabaseUnavailable.waited(self.timeout)
        try:
            with self.engine.connect() as connection:
                connection.execution_options(write=write)
                if not write:
                    connection.execution_options(isolation_level="REPEATABLE READ")
                driver = connection.connection.driver_connection
                assert self.watchdog is not None
                if DEADLINE.get() is None:
                    # Work with no one waiting on it (a command, an import, a verify of a season) may take long in
                    # all; each of its statements, as long as the server's own limit lets one run, not longer: a
                    # server gone silent would hold it for ever, as its socket's peer (a middlebox) answers still.
                    self.watchdog.arm(driver, math.inf, self.timeout * SERVER_SIDE_FACTOR)
                else:
                    self.watchdog.arm(driver, self.remaining())
                try:
                    with _committed(connection):
                        yield connection
                finally:
                    self.watchdog.disarm(driver)
        finally:
            self._turns.release()

    def _end_a_failed_commit(self) -> None:
        # A COMMIT that fails (a full disk, an I/O error) may leave SQLite's transaction open, and the writer, kept
        # for the next, could begin none: SQLite asks for a ROLLBACK then (a pooled connection gets one on return).
        if self._writer is not None and not self._writer.invalidated:
            driver = self._writer.connection.driver_connection
            if driver is not None and driver.in_transaction:
                driver.rollback()

    def lock(self, connection: Connection, key: int) -> None:
        """On PostgreSQL, take advisory lock ``key`` of the current schema until the transaction ends (SQLite's
        write transactions are one at a time already)."""
        self.statements.lock(connection, key)

    # -- the schema ------------------------------------------------------------------

    @staticmethod
    def alembic() -> Config:
        """Alembic's configuration for the migrations that ship with matchstate."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        return config

    @contextmanager
    def migration(self) -> Iterator[Connection]:
        """A write transaction to migrate in, one process at a time: on PostgreSQL under an advisory lock, so
        that concurrent first upgrades take turns; on SQLite with its foreign keys off, as Alembic's batch
        mode needs to rebuild a table others refer to (rows that refer to nothing are verify's to report)."""
        with self.engine.connect() as connection:
            if self.sqlite:  # a pragma that has no effect inside a transaction
                connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")  # type: ignore[union-attr]
            try:
                with _committed(connection.execution_options(write=True)):
                    if not self.sqlite:  # a migration takes as long as it takes
                        connection.execute(text("SET LOCAL statement_timeout = 0"))
                    self.lock(connection, MIGRATION_LOCK)
                    yield connection
            finally:
                if self.sqlite:
                    connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")  # type: ignore[union-attr]

    def migrate(self, connection: Connection) -> str | None:
        """Bring the database to the latest schema (``alembic upgrade head``) in ``connection``'s transaction
        (one of :meth:`migration`), for :meth:`Store.upgrade`, which seals what it finds unsealed; the revision
        it was at before (None: a new database)."""
        before = MigrationContext.configure(connection).get_current_revision()
        config = self.alembic()
        config.attributes["connection"] = connection
        config.attributes[SEALING] = True
        command.upgrade(config, "head")
        return before

    def revisions(self) -> tuple[list[str], list[str]]:
        """The migrations the database has had (its heads), and the latest that ship with matchstate: read in a
        transaction, so that a request's deadline bounds it (a monitor's ``/readyz`` of a silent server)."""
        with self.transaction() as connection:
            current = sorted(MigrationContext.configure(connection).get_current_heads())
        return current, sorted(ScriptDirectory.from_config(self.alembic()).get_heads())

    def schema_is_current(self) -> bool:
        """Whether the database has had every migration."""
        current, latest = self.revisions()
        return current == latest


def require_drop_allowed(what: str) -> None:
    """In a migration's downgrade: refuse, unless run with ``-x allow-drop=yes``, to drop ``what``."""
    if context.get_x_argument(as_dictionary=True).get("allow-drop") != "yes":
        raise CommandError(f"this downgrade drops {what}: run it with `-x allow-drop=yes` if that is what you mean")


def require_sealing(unsealed: str) -> None:
    """In a migration's upgrade: refuse, unless the store runs it (and seals what it leaves), where ``unsealed``
    is something the database holds that it needs the store's secret to seal."""
    if not context.config.attributes.get(SEALING):
        raise CommandError(f"the database holds {unsealed} from before seals: upgrade it with `matchstate db "
                           "upgrade`, which seals them with the store's secret")
