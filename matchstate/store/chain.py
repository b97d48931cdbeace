"""The tamper contract: what each event's hash covers, and how the hashes chain.

An event's hash is SHA-256 over the previous event's hash (64 hex digits in ASCII; before a
match's first event, :data:`GENESIS`) followed by :func:`sealed`: the canonical JSON of the event
as received together with the server's own facts about it. Anyone can recompute a chain from
these few lines and the stored rows (``tests/test_store_tamper.py`` does, without this module).

Each event row records the chain version its hash was made under (``events.chain_version``): version 1
(rows written before it) is Python's sorted-key JSON (:func:`canonical`), version 2 (every row written
since) RFC 8785 (:mod:`matchstate.jcs`), which any JCS implementation recomputes. The two differ only for
numbers with a fraction or an exponent and for keys outside the Basic Multilingual Plane's sort order;
each row verifies under its own version, so chains written before keep verifying as they were.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import orjson

from .. import jcs
from ..errors import InvalidEvent
from ..log import parse_line, refuse_repeated_keys

GENESIS = "0" * 64  # the previous hash of every match's first event
CHAIN_VERSION = 2  # the version of the rows written now: RFC 8785 canonical JSON
CHAIN_VERSIONS = (1, 2)


def canonical(value: Mapping[str, Any]) -> bytes:
    """The canonical JSON of an object in UTF-8: keys sorted at every level, no spaces."""
    if jcs.plain(value):
        with contextlib.suppress(orjson.JSONEncodeError):  # a whole number past 64 bits, a lone surrogate
            return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidEvent.said("surrogate") from None


def instant(moment: datetime) -> str:
    """A time as the chain writes it: UTC, to the microsecond, ``2026-11-29T15:00:01.234567Z``."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")  # strftime's, faster


def sealed(event: Mapping[str, Any], role: str | None, received_at: datetime, engine_version: str,
           version: int = CHAIN_VERSION) -> bytes:
    """What an event's hash covers after the previous hash: the canonical JSON of the event as received
    together with the server's own facts about it, which the event's JSON does not hold::

        {"engine_version": "0.1.0", "event": {...}, "received_at": "2026-11-29T15:00:01.234567Z", "role": "scorer"}

    ``event`` is the received JSON object, decoded; ``received_at`` is in UTC to the microsecond, as the
    database keeps it; ``role`` may be null; ``engine_version`` is the version of the engine that ruled it.
    ``version`` is the chain version (see the module's docstring): 1 :func:`canonical`, 2 RFC 8785, which
    refuses a whole number beyond 2**53 (a double would round it, so two events would hash alike).
    """
    material = {"engine_version": engine_version, "event": event, "received_at": instant(received_at), "role": role}
    if version == 1:
        return canonical(material)
    if version != 2:
        raise ValueError(f"no chain version {version!r}: the versions are {CHAIN_VERSIONS}")
    try:
        return jcs.canonical(material)
    except jcs.NotCanonical as err:
        if err.kind == "surrogate":
            raise InvalidEvent.said("surrogate") from None
        raise InvalidEvent.said("unsafe-integer") from None  # the one left: orjson reads no NaN, keys are strings


def chain_hash(prev_hash: str, sealed_json: bytes) -> str:
    """An event's hash: SHA-256 over the previous event's hash (64 hex digits, ASCII) and :func:`sealed`."""
    return hashlib.sha256(prev_hash.encode("ascii") + sealed_json).hexdigest()


def decode(raw: str) -> dict[str, Any]:
    """An event's text decoded as the log format reads it (``log.parse_line``), and refused where one object holds a
    key twice: readers disagree on which of the two counts, so the hash of what Python read would vouch for a
    text that another reader reads otherwise."""
    event = parse_line(raw)
    refuse_repeated_keys(raw, event)
    return event
