"""Backups that restore: the database and its two secret files, written together into one folder.

- SQLite: SQLite's online backup API copies the database as one consistent snapshot while appends go on
  (a ``cp`` of a live store misses what is still in its write-ahead log).
- PostgreSQL: ``pg_dump --format=custom`` (PostgreSQL's own client, which must be on the PATH; a test's
  ``search_path`` schema is dumped alone), restored by ``pg_restore``.

The folder holds ``store.db`` or ``store.pgdump``, ``secret`` and ``secret.ed25519`` (mode 0600) and
``backup.json`` (what it is and when it was made). Without the secret a restored store cannot be
written to and ``verify`` cannot check its seals: the two belong together.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import URL

from ..errors import StoreError
from ..version import PACKAGE_VERSION
from .secretfiles import SecretFiles

MANIFEST = "backup.json"
SQLITE_FILE = "store.db"
POSTGRES_FILE = "store.pgdump"
SECRET = "secret"


def backup(url: URL, secrets: SecretFiles, destination: Path) -> dict[str, object]:
    """Write the store at ``url`` and its secret files into the new or empty folder ``destination``; what
    was written (the manifest)."""
    if destination.exists() and any(destination.iterdir()):
        raise StoreError(f"{destination.resolve()} is not empty: a backup goes into a new or empty folder")
    if not secrets.exist():
        raise StoreError(f"the store's secret files are missing ({secrets.path}): a backup without them restores "
                         "a store that cannot be written to or checked")
    destination.mkdir(mode=0o700, parents=True, exist_ok=True)
    if url.get_backend_name() == "sqlite":
        source = sqlite3.connect(f"file:{url.database}?mode=ro", uri=True)
        target = sqlite3.connect(destination / SQLITE_FILE)
        try:
            source.backup(target)  # one step: the snapshot of one read transaction
        finally:
            target.close()
            source.close()
        kind, file = "sqlite", SQLITE_FILE
    else:
        _run(["pg_dump", "--format=custom", "--no-owner", *_schema(url), f"--file={destination / POSTGRES_FILE}",
              _libpq(url)])
        kind, file = "postgresql", POSTGRES_FILE
    for source_path, name in ((secrets.path, SECRET), (secrets.signing_path, SECRET + ".ed25519")):
        _copy_private(source_path, destination / name)
    manifest: dict[str, object] = {"kind": kind, "database": file, "secret": SECRET,
                                   "signing_key": SECRET + ".ed25519", "made": datetime.now(UTC).isoformat(),
                                   "matchstate": PACKAGE_VERSION}
    (destination / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def restore(source: Path, url: URL, secrets: SecretFiles) -> dict[str, object]:
    """Put the backup in ``source`` back: into the database at ``url`` (which must be empty or not there)
    and its secret files where the store looks for them (which must not hold other secrets)."""
    try:
        manifest = json.loads((source / MANIFEST).read_text())
    except (OSError, ValueError) as err:
        raise StoreError(f"{source.resolve()} is not a matchstate backup: {err}") from None
    for kept, there in ((source / SECRET, secrets.path), (source / (SECRET + ".ed25519"), secrets.signing_path)):
        if there.exists() and there.read_bytes() != kept.read_bytes():
            raise StoreError(f"{there} holds another store's secret: move it away first")
    if manifest["kind"] != url.get_backend_name():
        raise StoreError(f"the backup is of {manifest['kind']}, the database {url} is not")
    if manifest["kind"] == "sqlite":
        target_path = Path(url.database or "")
        if target_path.exists() and target_path.stat().st_size:
            raise StoreError(f"{target_path.resolve()} is there already: restore into a new file")
        backup_copy = sqlite3.connect(f"file:{source / SQLITE_FILE}?mode=ro", uri=True)
        target = sqlite3.connect(target_path)
        try:
            backup_copy.backup(target)
        finally:
            target.close()
            backup_copy.close()
    else:
        _run(["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={_libpq(url)}", str(source / POSTGRES_FILE)])
    for kept, there in ((source / SECRET, secrets.path), (source / (SECRET + ".ed25519"), secrets.signing_path)):
        if not there.exists():
            _copy_private(kept, there)
    return dict(manifest)


def _copy_private(source: Path, target: Path) -> None:
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as file:
        file.write(source.read_bytes())
        file.flush()
        os.fsync(file.fileno())


def _libpq(url: URL) -> str:
    """The database's URL as PostgreSQL's own clients take it (no driver, no options but the connection's)."""
    plain = url.set(drivername="postgresql", query={})
    return plain.render_as_string(hide_password=False)


def _schema(url: URL) -> list[str]:
    """``--schema`` for a URL that names its schema by ``options=-csearch_path=...`` (the tests' own)."""
    options = url.query.get("options", "")
    text = options if isinstance(options, str) else " ".join(options)
    found = [part.split("=", 1)[1] for part in text.replace("-c ", "-c").split() if part.startswith("-csearch_path=")]
    return [f"--schema={found[0].split(',')[0]}"] if found else []


def _run(command: list[str]) -> None:
    if shutil.which(command[0]) is None:
        raise StoreError(f"{command[0]} is not on the PATH: install PostgreSQL's client (Debian: postgresql-client)")
    env = {**os.environ, "PGOPTIONS": ""}
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise StoreError(f"{command[0]} failed: {done.stderr.strip()}")
