"""Who holds what: the league's key, and each match's scorer and official keys (made and kept by the store,
:mod:`matchstate.store.keys`), and keeping keys out of the access log."""

from __future__ import annotations

import re
from urllib.parse import unquote_plus

from ..store.keys import LEAGUE, OFFICIAL, SCORER, hash_key, new_key

__all__ = ["LEAGUE", "OFFICIAL", "SCORER", "hash_key", "new_key", "redact"]

QUERY = re.compile(r"\?[^#\s\"]*")


def redact(text: str) -> str:
    """``text`` with the value of every ``key`` query parameter in its URLs blanked: an EventSource, and a link
    to a private match's sheet or export, can only carry their key there. The parameter's name is matched
    decoded and in any case (``%6Bey``, ``KEY``), as a server may read it."""
    return QUERY.sub(lambda query: "&".join(_redacted(pair) for pair in query.group().split("&")), text)


def _redacted(pair: str) -> str:
    name, equals, _ = pair.partition("=")
    decoded = name.rpartition("?")[2]  # a match code in the path may hold a "?" of its own
    for _ in range(3):  # undo encodings layered on encodings, as far as anyone would go
        decoded = unquote_plus(decoded)
    return f"{name}=REDACTED" if equals and decoded.strip().casefold() == "key" else pair
