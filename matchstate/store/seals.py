"""Seals: the store secret's HMAC-SHA256 of what the chain of events alone cannot vouch for.

The hash chain shows an event changed behind the store's back, but not the chain's end cut off with
the match's head set back to match, nor a key's hash replaced, nor a whole match deleted. The seals
do, to whoever holds the secret (:mod:`~matchstate.store.secretfiles`):

- a match's **head**: its code, last seq, last hash, and the seq of the store's last act when it was
  sealed, so that acts cut off the end of their chain show as soon as any match is appended to after;
- each **key**: its match's code (none for the league's), role, hash, and when it was issued and revoked;
- each **act** (:mod:`~matchstate.store.acts`), over the seal of the act before it: a chain of its own.

Each seal is the HMAC of a kind's name and the canonical JSON of what it covers, in hex.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .chain import canonical, instant


def seal(secret: bytes, kind: str, material: Mapping[str, Any]) -> str:
    """The HMAC-SHA256, in hex, of ``kind`` and the canonical JSON of ``material``."""
    return hmac.digest(secret, kind.encode("ascii") + b"\n" + canonical(material), "sha256").hex()


def head_seal(secret: bytes, code: str, last_seq: int, last_hash: str, acts_seq: int) -> str:
    return seal(secret, "head", {"match": code, "seq": last_seq, "hash": last_hash, "acts": acts_seq})


def key_seal(secret: bytes, code: str | None, role: str, key_hash: str, issued_at: datetime,
             revoked_at: datetime | None) -> str:
    return seal(secret, "key", {"match": code, "role": role, "key_hash": key_hash, "issued_at": instant(issued_at),
                                "revoked_at": instant(revoked_at) if revoked_at is not None else None})


def holds(found: str | None, expected: str) -> bool:
    """Whether a stored seal is the one expected (compared in constant time)."""
    return found is not None and hmac.compare_digest(found, expected)
