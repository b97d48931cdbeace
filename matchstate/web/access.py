"""Who may do what: the league's key, and each match's scorer and official keys (made and kept by the store,
:mod:`matchstate.store.keys`), and keeping keys out of the access log."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote_plus

from ..errors import AccessDenied
from ..store.keys import LEAGUE, OFFICIAL, SCORER, hash_key, new_key

__all__ = ["LEAGUE", "OFFICIAL", "SCORER", "RedactKeys", "check_role", "hash_key", "new_key", "redact", "role_needed"]

QUERY = re.compile(r"\?[^#\s\"]*")


def role_needed(event: Mapping[str, Any], target_role: str | None = None) -> str:
    """The role an event needs: an official decides, and voids what another role recorded."""
    if event.get("type") == "decide" or (event.get("type") == "void" and target_role != SCORER):
        return OFFICIAL
    return SCORER


def check_role(role: str, needed: str) -> None:
    """Refuse with :class:`AccessDenied` unless ``role`` may do what needs ``needed``."""
    if needed == OFFICIAL and role != OFFICIAL:
        raise AccessDenied.said("official-only")


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
