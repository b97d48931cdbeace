"""Backups that restore: the database and its two secret files, written together into one folder.

- SQLite: SQLite's online backup API copies the database as one consistent snapshot while appends go on
  (a ``cp`` of a live store misses what is still in its write-ahead log).
- PostgreSQL: ``pg_dump --format=custom`` (PostgreSQL's own client, which must be on the PATH; a test's
  ``search_path`` schema is dumped alone), restored by ``pg_restore``.

The folder holds ``store.db`` or ``store.pgdump``, ``secret`` and ``secret.ed25519`` (mode 0600), the files
beside the secret that go with it where the store has them (:data:`COMPANIONS`), and ``backup.json`` (what it is
and when it was made). Without the secret a restored store cannot be written to and ``verify`` cannot check its
seals: they all belong together.

A restore checks the whole backup before it writes anything, and puts all of it back or nothing; it only
reads the backup (an SQLite database is opened immutable, so not even a ``-shm`` is made beside it).
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from cryptography import x509
from cryptography.hazmat.primitives.serialization import load_pem_private_key
from sqlalchemy import URL, create_engine

from ..errors import StoreError
from ..tlog.policy import Policy
from ..version import PACKAGE_VERSION
from .database import driver_said
from .secretfiles import SECRET_BYTES, SecretFiles, _create, secret_in, signing_key_in
from .sql import ACTS
from .verify import walk_acts

MANIFEST = "backup.json"
SQLITE_FILE = "store.db"
POSTGRES_FILE = "store.pgdump"
SECRET = "secret"
SIGNING_KEY = SECRET + ".ed25519"


def _read_by(load: Callable[[bytes], object]) -> Callable[[bytes], bool]:
    """The check that ``load`` reads a file's content."""
    def holds(content: bytes) -> bool:
        try:
            load(content)
        except (ValueError, TypeError):
            return False
        return True
    return holds


# The files beside the store's secret that go with it where the store has them, by their field in backup.json: each
# its suffix to the secret's name (as store.logkeys and web.tls name them), what it is, and the check that it is.
# Restored without the league log's rotated key and policy, a store signs its log with the key its policy retired;
# without the laptop's own certificate authority, every tablet installs a new one (the server's certificate is made
# again from it).
COMPANIONS: dict[str, tuple[str, str, Callable[[bytes], bool]]] = {
    "log_key": (".log.ed25519", "an Ed25519 private key in PEM", lambda content: signing_key_in(content) is not None),
    "log_policy": (".log-policy", "a log policy", _read_by(Policy.parse)),
    "tls_ca": (".tls-ca.pem", "a certificate in PEM", _read_by(x509.load_pem_x509_certificate)),
    "tls_ca_key": (".tls-ca.key", "a private key in PEM",
                   _read_by(lambda content: load_pem_private_key(content, password=None))),
}
KINDS = {"sqlite": SQLITE_FILE, "postgresql": POSTGRES_FILE}  # the database's file in a backup of each kind


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
    companions = {field: SECRET + suffix for field, (suffix, _, _) in COMPANIONS.items()
                  if secrets.beside(suffix).exists()}
    for source_path, name in ((secrets.path, SECRET), (secrets.signing_path, SIGNING_KEY),
                              *((secrets.beside(COMPANIONS[field][0]), name) for field, name in companions.items())):
        _copy_private(source_path, destination / name)
    manifest: dict[str, object] = {"kind": kind, "database": file, "secret": SECRET,
                                   "signing_key": SIGNING_KEY, "made": datetime.now(UTC).isoformat(),
                                   "matchstate": PACKAGE_VERSION, **companions}
    (destination / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def restore(source: Path, url: URL, secrets: SecretFiles) -> dict[str, object]:
    """Put the backup in ``source`` back: into the database at ``url`` (which must be empty or not there)
    and its secret files where the store looks for them (which must not hold other secrets).

    All of it or nothing: the whole backup is checked first (its manifest, every file, the database a
    matchstate store at a schema this release knows, the secrets well formed), and a restore that fails
    takes away what it wrote. The backup is only read, never written to."""
    manifest = _manifest(source)
    kind = str(manifest["kind"])
    if kind != url.get_backend_name():
        raise StoreError(f"the backup is of {kind}, the database {url} is not")
    companions = [field for field in COMPANIONS if field in manifest]
    for name in (KINDS[kind], SECRET, SIGNING_KEY, *(str(manifest[field]) for field in companions)):
        if not (source / name).is_file():
            raise _unusable(source, f"{name} is missing")
    log = source / f"{SQLITE_FILE}-wal"
    if kind == "sqlite" and log.exists() and log.stat().st_size:  # the database read without it would miss its end
        raise _unusable(source, f"{log.name} is beside {SQLITE_FILE}: a backup has its database whole in one file "
                                "(was this folder copied from a live store?)")
    secret, signing_key = (source / SECRET).read_bytes(), (source / SIGNING_KEY).read_bytes()
    sealing = secret_in(secret)
    if sealing is None:
        raise _unusable(source, f"{SECRET} is not a matchstate secret ({SECRET_BYTES * 2} hex digits)")
    if signing_key_in(signing_key) is None:
        raise _unusable(source, f"{SIGNING_KEY} is not an Ed25519 private key in PEM")
    files = [(secret, secrets.path), (signing_key, secrets.signing_path)]  # each file's content, and where it goes
    for field in companions:
        suffix, what, holds = COMPANIONS[field]
        content = (source / (SECRET + suffix)).read_bytes()
        if not holds(content):
            raise _unusable(source, f"{SECRET + suffix} is not {what}")
        files.append((content, secrets.beside(suffix)))
    _check_schema(source, KINDS[kind], _sqlite_revisions(source) if kind == "sqlite" else _dump_revisions(source))
    if kind == "sqlite" and (wrong := _unsealed_acts(source / SQLITE_FILE, sealing)):
        raise _unusable(source, f"{SECRET} and {SQLITE_FILE}: {wrong}")
    for kept, there in files:
        if there.exists() and there.read_bytes() != kept:
            raise StoreError(f"{there} holds another store's secret: move it away first")
    target_path = Path(url.database or "")
    if kind == "sqlite":
        for there in (target_path, Path(f"{target_path}-wal")):  # a log left beside the file is part of its database
            if there.exists() and there.stat().st_size:
                raise StoreError(f"{there.resolve()} is there already: restore into a new file")
    elif tables := _postgresql_tables(url):  # pg_restore would say only that the first of them exists already
        raise StoreError(f"the database {url.render_as_string(hide_password=True)} is not empty (it has "
                         f"{len(tables)} tables, {', '.join(tables[:3])}{', ...' if len(tables) > 3 else ''}): "
                         "restore into an empty database")
    made: list[Path] = []  # what this restore wrote, taken away again if the rest fails
    try:
        for kept, there in files:
            if _create(there, kept):
                made.append(there)
        if kind == "sqlite":
            _restore_sqlite(source / SQLITE_FILE, target_path)
        else:  # one transaction: a dump that fails halfway leaves the database as it was
            _run(["pg_restore", "--no-owner", "--single-transaction", "--exit-on-error", f"--dbname={_libpq(url)}",
                  str(source / POSTGRES_FILE)])
    except BaseException:
        for path in made:
            path.unlink(missing_ok=True)
        raise
    return dict(manifest)


def _unusable(source: Path, what: str) -> StoreError:
    return StoreError(f"nothing restored from {source.resolve()}: {what}")


def _manifest(source: Path) -> dict[str, object]:
    """The backup's manifest, checked to be what :func:`backup` writes."""
    try:
        manifest = json.loads((source / MANIFEST).read_text())
    except (OSError, ValueError) as err:
        raise StoreError(f"{source.resolve()} is not a matchstate backup: {err}") from None
    if not isinstance(manifest, dict):
        raise _unusable(source, f"{MANIFEST} is not a JSON object")
    kind = manifest.get("kind")
    if kind not in KINDS:
        raise _unusable(source, f"{MANIFEST} gives its kind as {json.dumps(kind)}, neither sqlite nor postgresql")
    companions = [(field, SECRET + suffix) for field, (suffix, _, _) in COMPANIONS.items() if field in manifest]
    for field, written in (("database", KINDS[kind]), ("secret", SECRET), ("signing_key", SIGNING_KEY), *companions):
        if manifest.get(field) != written:
            raise _unusable(source, f"{MANIFEST} names its {field} {json.dumps(manifest.get(field))}, where a "
                                    f"backup of {kind} has {json.dumps(written)}")
    if not isinstance(manifest.get("made"), str):
        raise _unusable(source, f"{MANIFEST} does not say when it was made")
    return manifest


def _read_only(path: Path) -> sqlite3.Connection:
    """The SQLite database at ``path``, opened so that nothing is written beside it (immutable: no ``-wal`` or
    ``-shm``, which even a read-only open of a WAL database makes)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def _unsealed_acts(database: Path, secret: bytes) -> str | None:
    """What ``verify`` would say of the first acts of the SQLite database at ``database`` with ``secret``, where
    they are not sealed by it (a secret that does not seal them seals nothing of the store); None where they are."""
    engine = create_engine("sqlite://", creator=lambda: _read_only(database))
    try:
        with engine.connect() as connection:
            _, found = walk_acts(connection.execute(ACTS.limit(2)), secret)
    except (ValueError, KeyError, TypeError) as err:  # SQLite keeps any text written into any column
        return f"its first acts cannot be read back ({err})"
    finally:
        engine.dispose()
    return found[0].what if found else None


def _sqlite_revisions(source: Path) -> list[str]:
    """The migrations the backup's SQLite database has had, once it is found whole."""
    database = _read_only(source / SQLITE_FILE)
    try:
        checked = database.execute("PRAGMA integrity_check(1)").fetchall()
        if checked != [("ok",)]:
            raise _unusable(source, f"{SQLITE_FILE} is damaged ({checked[0][0] if checked else 'no answer'})")
        if database.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'").fetchone():
            return [row[0] for row in database.execute("SELECT version_num FROM alembic_version")]
        return []
    except sqlite3.DatabaseError as err:
        raise _unusable(source, f"{SQLITE_FILE} is not a whole SQLite database ({err})") from None
    finally:
        database.close()


def _dump_revisions(source: Path) -> list[str]:
    """The migrations the backup's PostgreSQL dump has had, once pg_restore has read it whole."""
    failed = f"nothing restored from {source.resolve()}: {POSTGRES_FILE} cannot be read"
    _run(["pg_restore", "--file=/dev/null", str(source / POSTGRES_FILE)], failed)
    script = _run(["pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(source / POSTGRES_FILE)],
                  failed)
    lines = script.splitlines()
    start = next((n for n, line in enumerate(lines) if line.startswith("COPY ") and ".alembic_version " in line), None)
    if start is None:
        return []
    return list(itertools.takewhile(lambda line: line != "\\.", lines[start + 1:]))


def _check_schema(source: Path, file: str, revisions: list[str]) -> None:
    from alembic.script import ScriptDirectory

    from .database import Database

    if not revisions:
        raise _unusable(source, f"{file} is not a matchstate store (it has had no migration of matchstate's)")
    known = {script.revision for script in ScriptDirectory.from_config(Database.alembic()).walk_revisions()}
    unknown = sorted(set(revisions) - known)
    if unknown:
        raise _unusable(source, f"{file} is at schema {', '.join(unknown)}, which matchstate {PACKAGE_VERSION} does "
                                "not know: restore it with the release that made it, or a later one")


def _restore_sqlite(kept: Path, target: Path) -> None:
    """Copy the backup's database to a new file beside ``target`` and put it in place whole, or not at all."""
    target.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.restoring-")  # mode 0600
    os.close(descriptor)
    staged = Path(name)
    try:
        backup_copy, copy = _read_only(kept), sqlite3.connect(staged)
        try:
            backup_copy.backup(copy)
        finally:
            copy.close()
            backup_copy.close()
        if target.exists():  # empty, as checked: it may be replaced
            os.replace(staged, target)
        else:
            try:
                os.link(staged, target)  # unlike a rename, never replaces a database made meanwhile
            except FileExistsError:
                raise StoreError(f"{target.resolve()} appeared while restoring: restore into a new file") from None
    finally:
        for leftover in (staged, Path(f"{staged}-journal")):
            leftover.unlink(missing_ok=True)
    folder = os.open(target.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


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


def _postgresql_tables(url: URL) -> list[str]:
    """The tables in the schema a restore at ``url`` writes into (the URL's search_path's, else ``public``)."""
    named = _schema(url)
    schema = named[0].split("=", 1)[1] if named else "public"
    try:
        with psycopg.connect(_libpq(url), connect_timeout=10) as connection:
            found = connection.execute("SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY tablename",
                                       (schema,))
            return [str(name) for (name,) in found.fetchall()]
    except psycopg.Error as err:
        raise StoreError(f"the database {url.render_as_string(hide_password=True)} cannot be reached: "
                         f"{driver_said(err)}") from None


def _schema(url: URL) -> list[str]:
    """``--schema`` for a URL that names its schema by ``options=-csearch_path=...`` (the tests' own)."""
    options = url.query.get("options", "")
    text = options if isinstance(options, str) else " ".join(options)
    found = [part.split("=", 1)[1] for part in text.replace("-c ", "-c").split() if part.startswith("-csearch_path=")]
    return [f"--schema={found[0].split(',')[0]}"] if found else []


def _run(command: list[str], failed: str | None = None) -> str:
    """What ``command`` wrote to its standard output; where it fails, :class:`StoreError` saying ``failed`` (else
    that it failed) and what it wrote to its standard error."""
    if shutil.which(command[0]) is None:
        raise StoreError(f"{command[0]} is not on the PATH: install PostgreSQL's client (Debian: postgresql-client)")
    env = {**os.environ, "PGOPTIONS": ""}
    done = subprocess.run(command, capture_output=True, text=True, errors="replace", env=env)
    if done.returncode != 0:
        raise StoreError(f"{failed or command[0] + ' failed'}: {done.stderr.strip()}")
    return done.stdout
