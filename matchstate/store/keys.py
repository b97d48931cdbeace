"""Access keys: the league's key and each match's scorer and official keys, kept only as SHA-256 hashes.

A key is shown once, to whoever it is made for, and kept in the ``keys`` table as its hash, sealed
(:func:`~matchstate.store.seals.key_seal`). Issuing a role's key revokes the one before it; which key
a request holds is read from the database every time (:func:`role_of`; an append's, in its own transaction
with the match's head: :func:`role_held`), so a revocation holds at once on every server of the database,
and a row whose seal does not hold grants nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Connection, bindparam, insert, or_, select, update

from ..authority import OFFICIAL as OFFICIAL
from ..authority import SCORER as SCORER
from ..models import KeyRow, MatchRow
from .seals import holds, key_seal

LEAGUE = "league"
ROLES = (SCORER, OFFICIAL)  # a match's roles; the league's key is above every match


@dataclass(frozen=True, slots=True)
class KeyCheck:
    """A key an append is made with, checked in the append's own transaction: ``key_hash`` its hash; ``admit``,
    given the role it holds on the match (None: none) and whether the match exists, gives the role the event is
    recorded as, or raises a :class:`~matchstate.errors.MatchstateError` that refuses this append alone."""

    key_hash: str
    admit: Callable[[str | None, bool], str]


def new_key() -> str:
    """A fresh random key, to be shown once to whoever it is for."""
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    """How a key is kept: its SHA-256, in hex."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def issue(connection: Connection, secret: bytes, match_id: int | None, code: str | None, role: str, key_hash: str,
          at: datetime) -> None:
    """Make ``key_hash`` the live key of ``role`` on the match (``match_id`` None: the league's), revoking the
    one before it."""
    revoke(connection, secret, match_id, code, role, at)
    connection.execute(insert(KeyRow).values(match_id=match_id, role=role, key_hash=key_hash, issued_at=at,
                                             seal=key_seal(secret, code, role, key_hash, at, None)))


def seal_row(connection: Connection, secret: bytes, key_id: int, code: str | None, role: str, key_hash: str,
             issued_at: datetime, revoked_at: datetime | None = None) -> None:
    """Seal a key's row as it stands (a key kept before seals were)."""
    connection.execute(update(KeyRow).where(KeyRow.id == key_id).values(
        seal=key_seal(secret, code, role, key_hash, issued_at, revoked_at)))


def has_league_key(connection: Connection) -> bool:
    """Whether a league key is live."""
    return connection.execute(select(KeyRow.id).where(KeyRow.match_id.is_(None), KeyRow.role == LEAGUE,
                                                      KeyRow.revoked_at.is_(None))).first() is not None


def live_hashes(connection: Connection, match_id: int) -> dict[str, str]:
    """The hashes of a match's live keys, by role."""
    found = connection.execute(select(KeyRow.role, KeyRow.key_hash).where(KeyRow.match_id == match_id,
                                                                          KeyRow.revoked_at.is_(None)))
    return {role: key_hash for role, key_hash in found}


def revoke(connection: Connection, secret: bytes, match_id: int | None, code: str | None, role: str,
           at: datetime) -> bool:
    """Revoke the live key of ``role`` on the match (None: the league's); whether there was one."""
    place = KeyRow.match_id.is_(None) if match_id is None else KeyRow.match_id == match_id
    live = connection.execute(select(KeyRow.id, KeyRow.key_hash, KeyRow.issued_at)
                              .where(place, KeyRow.role == role, KeyRow.revoked_at.is_(None))).all()
    for row in live:
        connection.execute(update(KeyRow).where(KeyRow.id == row.id).values(revoked_at=at))
        seal_row(connection, secret, row.id, code, role, row.key_hash, row.issued_at, at)
    return bool(live)


# The live keys with a hash, the league's or match :code's. Built once: every request asks it, and building
# a statement costs more than SQLAlchemy's compiled cache then saves.
LIVE_KEYS = (select(KeyRow.role, KeyRow.key_hash, KeyRow.issued_at, KeyRow.seal, MatchRow.code)
             .outerjoin(MatchRow, MatchRow.id == KeyRow.match_id)
             .where(KeyRow.key_hash == bindparam("key_hash"), KeyRow.revoked_at.is_(None),
                    or_(KeyRow.match_id.is_(None), MatchRow.code == bindparam("code"))))


def role_of(connection: Connection, secret: bytes, code: str | None, key_hash: str) -> str | None:
    """The role the key whose hash is ``key_hash`` holds: :data:`LEAGUE` for the live league key (whatever the
    match), else its live role on match ``code``, else None. A key whose row's seal does not hold is none."""
    rows = connection.execute(LIVE_KEYS, {"key_hash": key_hash, "code": code})
    return _strongest({row.role for row in rows
                       if holds(row.seal, key_seal(secret, row.code, row.role, row.key_hash, row.issued_at, None))})


def holds_a_role(connection: Connection, secret: bytes, key_hash: str) -> bool:
    """Whether the key whose hash is ``key_hash`` holds a live role anywhere (the league's, or on some match)."""
    rows = connection.execute(select(KeyRow.role, KeyRow.issued_at, KeyRow.seal, MatchRow.code)
                              .outerjoin(MatchRow, MatchRow.id == KeyRow.match_id)
                              .where(KeyRow.key_hash == key_hash, KeyRow.revoked_at.is_(None)))
    return any(holds(row.seal, key_seal(secret, row.code, row.role, key_hash, row.issued_at, None)) for row in rows)


def role_held(secret: bytes, code: str, key_hash: str, held: str | list[list[Any]] | None) -> str | None:
    """As :func:`role_of`, from the live rows of the key that an append's read of match ``code``'s head gives
    (:func:`~matchstate.store.sql.held_keys`: JSON text, or decoded by the driver; none where it has none)."""
    rows = orjson.loads(held) if isinstance(held, str) else held or []
    return _strongest({role for league_wide, role, issued_at, seal in rows
                       if holds(seal, key_seal(secret, None if league_wide else code, role, key_hash,
                                               _utc(issued_at), None))})


def _strongest(roles: set[str]) -> str | None:
    return next((role for role in (LEAGUE, OFFICIAL, SCORER) if role in roles), None)


def _utc(text: str) -> datetime:
    """A time as JSON gives it: PostgreSQL's with its offset, SQLite's without (UTC by agreement)."""
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
