"""Which database, its schema, and transactions whose every commit is durable when it returns.

The database is SQLite or PostgreSQL, named by a URL: the one given, else ``MATCHSTATE_DATABASE_URL``,
else the SQLite file ``matchstate.db`` in the working directory. PostgreSQL commits durably with its
default ``synchronous_commit = on``; SQLite is set here to WAL mode with ``synchronous = FULL``, and a
write takes the write lock as it begins (``BEGIN IMMEDIATE``).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from alembic import command, context
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url, text

DEFAULT_URL = "sqlite:///matchstate.db"
# Inside the package when installed from a wheel; at the repository's top in a checkout.
_HERE = Path(__file__).resolve().parent.parent
MIGRATIONS = next(folder for folder in (_HERE / "migrations", _HERE.parent / "migrations") if folder.is_dir())
SQLITE_BUSY_SECONDS = 30
# PostgreSQL advisory locks, each taken per schema (the second key is the schema's): see Database.lock.
MIGRATION_LOCK = 36_001
SEALING = "sealing"  # set in a migration's configuration where the store will seal what the migration leaves
ACTS_LOCK = 36_002


def database_url(url: str | None = None) -> URL:
    """``url``, else ``MATCHSTATE_DATABASE_URL``, else ``matchstate.db`` here; PostgreSQL through psycopg 3."""
    chosen = make_url(url or os.environ.get("MATCHSTATE_DATABASE_URL") or DEFAULT_URL)
    return chosen.set(drivername="postgresql+psycopg") if chosen.drivername == "postgresql" else chosen


def make_engine(url: URL) -> Engine:
    """An engine whose every commit is durable when it returns (see the module's docstring)."""
    if url.get_backend_name() != "sqlite":
        return create_engine(url)
    engine = create_engine(url, connect_args={"timeout": SQLITE_BUSY_SECONDS})
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
    deadline = time.monotonic() + SQLITE_BUSY_SECONDS
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _sqlite_begin(connection: Connection) -> None:
    # A deferred transaction that read first cannot take the write lock once another writer has
    # committed: it fails at once. An immediate one waits its turn (the busy timeout) instead.
    immediate = connection.get_execution_options().get("write", False)
    connection.connection.driver_connection.execute("BEGIN IMMEDIATE" if immediate else "BEGIN")  # type: ignore[union-attr]


class Database:
    """The store's database: its engine, its transactions and its schema. May be shared by threads."""

    def __init__(self, url: URL) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sqlite = url.get_backend_name() == "sqlite"
        self._writer: Connection | None = None  # SQLite's one write connection, see transaction
        self._writer_lock = threading.Lock()

    def close(self) -> None:
        """Close the database connections."""
        with self._writer_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        self.engine.dispose()

    @contextmanager
    def transaction(self, write: bool = False) -> Iterator[Connection]:
        """A transaction; a read sees one snapshot, so that a match's head and its events agree."""
        if write and self.sqlite:
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
            if not write and not self.sqlite:  # SQLite's reads are snapshots already
                connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                yield connection

    def lock(self, connection: Connection, key: int) -> None:
        """On PostgreSQL, take advisory lock ``key`` of the current schema until the transaction ends (SQLite's
        write transactions are one at a time already)."""
        if not self.sqlite:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key, hashtext(current_schema()))"), {"key": key})

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
                with connection.execution_options(write=True).begin():
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
        """The migrations the database has had (its heads), and the latest that ship with matchstate."""
        with self.engine.connect() as connection:
            current = sorted(MigrationContext.configure(connection).get_current_heads())
        return current, sorted(ScriptDirectory.from_config(self.alembic()).get_heads())

    def schema_is_current(self) -> bool:
        """Whether the database has had every migration."""
        with self.engine.connect() as connection:
            current = set(MigrationContext.configure(connection).get_current_heads())
        return current == set(ScriptDirectory.from_config(self.alembic()).get_heads())


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
