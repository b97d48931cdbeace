"""A witness's state: the latest cosigned checkpoint of each log, in an SQLite file of its own.

A request's check of the old size and its write of the new checkpoint run in one ``BEGIN IMMEDIATE``
transaction (SQLite's one writer), committed with ``synchronous=FULL`` before the cosignature is answered: two
requests at once cannot both pass the same check, and a witness that crashes after answering has the checkpoint it
cosigned (else it could cosign a smaller, inconsistent one after a restart: the race tlog-witness warns of)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

SCHEMA = """CREATE TABLE IF NOT EXISTS latest (
    origin TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    root BLOB NOT NULL,
    note TEXT NOT NULL
)"""


class WitnessState:
    """The latest cosigned checkpoint of each log, in the SQLite file at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._connection.execute("PRAGMA journal_mode=WAL")
        self._connection.execute("PRAGMA synchronous=FULL")
        self._connection.execute(SCHEMA)
        self._lock = threading.Lock()

    def latest(self, origin: str) -> tuple[int, bytes] | None:
        """The size and root of the latest checkpoint of ``origin`` cosigned; None where none was."""
        with self._lock:
            row = self._connection.execute("SELECT size, root FROM latest WHERE origin = ?", (origin,)).fetchone()
        return None if row is None else (int(row[0]), bytes(row[1]))

    def advance(self, origin: str, size: int, root: bytes, note: str,
                check: Callable[[tuple[int, bytes] | None], None]) -> None:
        """Make the checkpoint (``size``, ``root``, its ``note``) the latest of ``origin``, once ``check`` of the
        latest one stored (None: none) returns; what ``check`` raises leaves the state as it was."""
        with self._lock:
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                row = self._connection.execute("SELECT size, root FROM latest WHERE origin = ?",
                                               (origin,)).fetchone()
                check(None if row is None else (int(row[0]), bytes(row[1])))
                self._connection.execute(
                    "INSERT INTO latest (origin, size, root, note) VALUES (?, ?, ?, ?) ON CONFLICT (origin) "
                    "DO UPDATE SET size = excluded.size, root = excluded.root, note = excluded.note",
                    (origin, size, root, note))
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")

    def close(self) -> None:
        self._connection.close()
