"""Access keys: each match has a scorer key and an official key, shown once and stored only hashed."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote_plus

from ..errors import AccessDenied, MissingKey
from ..store import ROLES

SCORER, OFFICIAL = ROLES
QUERY = re.compile(r"\?[^#\s\"]*")


def new_key() -> str:
    """A fresh random key, to be shown once to whoever creates the match."""
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def role_of(key: str | None, scorer_hash: str | None, official_hash: str | None) -> str:
    """The role a key holds on a match: :data:`OFFICIAL` or :data:`SCORER`.

    Raises :class:`MissingKey` without a key and :class:`AccessDenied` for a wrong one.
    """
    if not key:
        raise MissingKey("this needs the match's scorer or official key")
    digest = hash_key(key)
    # Both comparisons always run, so the time taken does not tell which key was near.
    is_official = official_hash is not None and hmac.compare_digest(digest, official_hash)
    is_scorer = scorer_hash is not None and hmac.compare_digest(digest, scorer_hash)
    if is_official:
        return OFFICIAL
    if is_scorer:
        return SCORER
    raise AccessDenied("the key is not this match's scorer or official key")


def role_needed(event: Mapping[str, Any], target_role: str | None = None) -> str:
    """The role an event needs: an official decides, and voids what another role recorded."""
    if event.get("type") == "decide" or (event.get("type") == "void" and target_role != SCORER):
        return OFFICIAL
    return SCORER


def check_role(role: str, needed: str) -> None:
    """Refuse with :class:`AccessDenied` unless ``role`` may do what needs ``needed``."""
    if needed == OFFICIAL and role != OFFICIAL:
        raise AccessDenied("only an official may decide a choice or void an event another role recorded")


class RedactKeys(logging.Filter):
    """Blanks the ``key`` query parameter wherever a log record holds a URL: an EventSource, and a link
    to a private match's sheet or export, can only carry their key there (uvicorn's access log).
    The parameter's name is matched decoded and in any case (``%6Bey``, ``KEY``), as a server may read it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


def redact(text: str) -> str:
    return QUERY.sub(lambda query: "&".join(_redacted(pair) for pair in query.group().split("&")), text)


def _redacted(pair: str) -> str:
    name, equals, _ = pair.partition("=")
    decoded = name.rpartition("?")[2]  # a match code in the path may hold a "?" of its own
    for _ in range(3):  # undo encodings layered on encodings, as far as anyone would go
        decoded = unquote_plus(decoded)
    return f"{name}=REDACTED" if equals and decoded.strip().casefold() == "key" else pair
