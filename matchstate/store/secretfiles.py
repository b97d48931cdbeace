"""The store's secret and its signing key: two files outside the database, made once by ``matchstate db upgrade``.

- The secret: 32 random bytes, written as 64 hex digits. It is the HMAC-SHA256 key that seals each
  match's head, each key and each of the store's acts (:mod:`~matchstate.store.seals`), so that an edit
  of the database by someone who does not hold the file shows in ``verify``.
- The signing key: an Ed25519 private key (PKCS #8, PEM) that signs each append's receipt
  (:mod:`~matchstate.store.receipts`); its public key is what anyone checks a receipt with.

Where: ``MATCHSTATE_SECRET_FILE``, else beside an SQLite database file (``matchstate.db.secret``), else,
for PostgreSQL, ``$XDG_CONFIG_HOME/matchstate/store.secret`` (``~/.config`` without ``XDG_CONFIG_HOME``):
not named after the database, so a store restored under another name finds it. A store made before
0.2.0 kept it as ``HOST-PORT-DATABASE.secret`` there; that file is used while it is the only one. The
signing key is the secret's path with ``.ed25519`` added. Both are mode 0600;
a folder made for them is 0700. Every server of one database needs the same two files.
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from pathlib import Path

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy import URL

from ..errors import StoreError

SECRET_BYTES = 32


def secret_path(url: URL, given: str | Path | None = None) -> Path:
    """Where the secret of the database at ``url`` is: ``given``, else ``MATCHSTATE_SECRET_FILE``, else the
    default for its kind of database (see the module's docstring)."""
    chosen = given or os.environ.get("MATCHSTATE_SECRET_FILE")
    if chosen:
        return Path(chosen).expanduser()
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            raise StoreError("an SQLite database in memory has no folder for its secret: set MATCHSTATE_SECRET_FILE")
        return Path(url.database + ".secret").resolve()
    folder = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "matchstate"
    name = "-".join(str(part) for part in (url.host or "localhost", url.port or 5432, url.database or "postgres"))
    before = folder / f"{name}.secret"  # where 0.1.0 kept it, by the database's name
    chosen_now = folder / "store.secret"
    return before if before.exists() and not chosen_now.exists() else chosen_now


class SecretFiles:
    """The secret at ``path`` and the signing key beside it, read once and kept."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.signing_path = self.beside(".ed25519")
        self._secret: bytes | None = None
        self._signing_key: Ed25519PrivateKey | None = None

    def beside(self, suffix: str) -> Path:
        """A file kept beside the secret, its name the secret's with ``suffix`` added (``.ed25519``, ...)."""
        return self.path.with_name(self.path.name + suffix)

    def exist(self) -> bool:
        return self.path.exists() and self.signing_path.exists()

    def make(self) -> bool:
        """Make whichever of the two files is missing; whether any was made. Each appears whole or not at all,
        and where another process makes it at the same moment, its file is the one kept."""
        made = False
        if not self.path.exists():
            made |= _create(self.path, secrets.token_hex(SECRET_BYTES).encode("ascii") + b"\n")
        if not self.signing_path.exists():
            pem = Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
            made |= _create(self.signing_path, pem)
        return made

    def secret(self) -> bytes:
        """The HMAC key; :class:`StoreError` if its file is missing, readable by others or not a secret."""
        if self._secret is None:
            secret = secret_in(_read(self.path, "secret"))
            if secret is None:
                raise StoreError(f"{self.path} is not a matchstate secret ({SECRET_BYTES * 2} hex digits)")
            self._secret = secret
        return self._secret

    def signing_key(self) -> Ed25519PrivateKey:
        """The receipts' signing key; :class:`StoreError` as for :meth:`secret`."""
        if self._signing_key is None:
            key = signing_key_in(_read(self.signing_path, "signing key"))
            if key is None:
                raise StoreError(f"{self.signing_path} is not an Ed25519 private key in PEM")
            self._signing_key = key
        return self._signing_key

    def public_key(self) -> Ed25519PublicKey:
        return self.signing_key().public_key()


def secret_in(content: bytes) -> bytes | None:
    """The secret a secret file's ``content`` holds; None where it holds no such thing."""
    try:
        secret = bytes.fromhex(content.decode("ascii", "replace").strip())
    except ValueError:
        return None
    return secret if len(secret) == SECRET_BYTES else None


def signing_key_in(content: bytes) -> Ed25519PrivateKey | None:
    """The Ed25519 private key a signing key file's ``content`` holds (PEM); None where it holds no such thing."""
    try:
        key = serialization.load_pem_private_key(content, password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm):  # TypeError: a key that wants a password
        return None
    return key if isinstance(key, Ed25519PrivateKey) else None


def _read(path: Path, what: str) -> bytes:
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise StoreError(f"the store's {what} {path} is missing: `matchstate db upgrade` makes it for a new "
                         "store; a store sealed with it needs that very file back") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise StoreError(f"the store's {what} {path} may be read by others (mode {stat.S_IMODE(mode):o}): "
                         f"`chmod 600 {path}`")
    return path.read_bytes()


def _create(path: Path, content: bytes) -> bool:
    """Write ``content`` to a new file at ``path``, mode 0600, all at once; False if ``path`` exists by then."""
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    descriptor, staged = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        os.link(staged, path)  # unlike a rename, never replaces a file another process made meanwhile
    except FileExistsError:
        return False
    finally:
        os.unlink(staged)
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
    return True
