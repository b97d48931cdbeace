"""Verify: the pure checks of a match's stored rows against its hash chain and a replay through the engine.

Nothing here reads the database: :meth:`Store.verify <matchstate.store.Store.verify>` hands over the rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Row

from ..engine import Match
from ..errors import RefusedEvent
from ..log import parse_line
from .chain import GENESIS, chain_hash, instant, sealed
from .sql import event_columns, match_columns

_ABSENT = object()  # a key one side of a ruling does not have


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in the store, found by :meth:`Store.verify`: at event ``seq`` of the match, or,
    where ``column`` is given, in that column of the match's own row (then ``seq`` is None)."""

    match: str
    seq: int | None
    what: str
    column: str | None = None

    def __str__(self) -> str:
        where = f"seq {self.seq}" if self.column is None else f"its row's {self.column}"
        return f"match {self.match}, {where}: {self.what}"


def verify_match(row: Row[Any], events: Iterable[Row[Any]], engine_version: str) -> Iterator[Problem]:
    """The problems of one match: its first bad link, stored rulings that differ from what this engine
    (``engine_version``) gives, columns of its row that are wrong."""
    match, digest, first = Match(), GENESIS, None
    for seq, stored in enumerate(_readable(events), 1):
        if isinstance(stored, ValueError):
            yield Problem(row.code, seq, f"changed: a column of its row cannot be read back ({stored})")
            return
        event, fault = _linked(seq, digest, stored)
        if event is not None:
            try:
                ruling = match.feed(event)
            except RefusedEvent as err:
                fault = f"the engine refuses it now: {err.reason}"
            else:
                fault = _column_fault(stored, match.events[-1])
        if fault is not None:
            yield Problem(row.code, seq, fault)
            return
        given = ruling.to_json() if ruling is not None else None
        if (stored.ruling, stored.state) != (given, match.state):
            yield Problem(row.code, seq, _ruling_difference(stored, given, match.state, engine_version))
        first = first or stored
        digest = stored.hash
    if first is None:
        yield Problem(row.code, 1, "missing: the match has no events, not even its match.start")
        return
    yield from _row_problems(row, match, digest, first)


def _readable(rows: Iterable[Row[Any]]) -> Iterator[Row[Any] | ValueError]:
    """The rows, then why the next one cannot be read, if it cannot: SQLite keeps any text written into a
    column, and a time or JSON column holding something else fails as it is read back."""
    rows = iter(rows)
    while True:
        try:
            yield next(rows)
        except StopIteration:
            return
        except ValueError as err:
            yield err
            return


def _linked(seq: int, digest: str, stored: Row[Any]) -> tuple[dict[str, Any] | None, str | None]:
    """``stored``'s event, decoded, where it is the event at ``seq`` after an event with hash ``digest``;
    else None and what is wrong with it."""
    if stored.seq != seq:
        return None, f"missing: the next stored event is seq {stored.seq}"
    if stored.prev_hash != digest:
        return None, "its previous hash is not the hash of the event before it: a row was moved or replaced"
    if stored.engine_version is None:  # the outer join found no ruling row
        return None, "its ruling row is missing: it was removed"
    try:
        event = parse_line(stored.raw)
        material = sealed(event, stored.role, stored.received_at, stored.engine_version)
    except RefusedEvent as err:
        return None, f"its JSON is not an event: {err.reason}"
    if chain_hash(digest, material) != stored.hash:
        return None, ("its JSON, role, received_at and ruling's engine_version do not give its hash: "
                      "the row was changed")
    return event, None


def _column_fault(stored: Row[Any], event: dict[str, Any]) -> str | None:
    """Which of ``stored``'s copies of its event's fields (type, at, device id, by) is not the event's."""
    for column, value in event_columns(event).items():
        if stored._mapping[column] != value:
            return f"its {column} column is {_shown(stored._mapping[column])}, but its JSON gives {_shown(value)}"
    return None


def _ruling_difference(stored: Row[Any], given: dict[str, Any] | None, state: str, engine_version: str) -> str:
    """How the stored ruling and state after an event differ from the engine's: each key, both values."""
    parts = []
    if stored.ruling is None or given is None:
        if stored.ruling != given:
            parts.append(f"stored {_summary(stored.ruling)}, the engine gives {_summary(given)}")
    else:
        parts += [f"{key}: stored {ours}, engine {theirs}"
                  for key, ours, theirs in _differences(stored.ruling, given)]
    if stored.state != state:
        parts.append(f"state after it: stored {stored.state}, engine {state}")
    what = "the stored ruling differs from the engine's: " + "; ".join(parts)
    if stored.engine_version != engine_version:
        what += f" (ruled by engine {stored.engine_version}; this is engine {engine_version})"
    return what


def _differences(stored: Any, given: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """Each leaf where two JSON values differ: its path (``text.en``, ``options[1].to``) and both values shown."""
    if isinstance(stored, dict) and isinstance(given, dict):
        for key in [*given, *(key for key in stored if key not in given)]:  # the engine's order: kind first
            yield from _differences(stored.get(key, _ABSENT), given.get(key, _ABSENT), f"{path}.{key}" if path else key)
    elif isinstance(stored, list) and isinstance(given, list) and len(stored) == len(given):
        for index, (ours, theirs) in enumerate(zip(stored, given, strict=True)):
            yield from _differences(ours, theirs, f"{path}[{index}]")
    elif stored is _ABSENT or given is _ABSENT or stored != given:
        if isinstance(stored, str) and isinstance(given, str):
            yield path, *_apart(stored, given)
        else:
            yield path, _shown(stored), _shown(given)


def _apart(ours: str, theirs: str, width: int = 48) -> tuple[str, str]:
    """Two differing texts shown from a little before where they part, so that long ones do not look alike."""
    shorter = min(len(ours), len(theirs))
    parting = next((i for i, (a, b) in enumerate(zip(ours[:shorter], theirs[:shorter], strict=True)) if a != b),
                   shorter)
    begin = max(0, parting - 12) if max(len(ours), len(theirs)) > width else 0

    def cut(text: str) -> str:
        piece = json.dumps(text[begin:begin + width], ensure_ascii=False)
        return ("…" if begin else "") + piece + ("…" if begin + width < len(text) else "")

    return cut(ours), cut(theirs)


def _summary(ruling: dict[str, Any] | None) -> str:
    return "no ruling" if ruling is None else f"the ruling {_shown(ruling, 80)}"


def _shown(value: Any, limit: int = 60) -> str:
    """A value as JSON (a time in ISO 8601, UTC), cut at ``limit`` characters."""
    if value is _ABSENT:
        return "nothing (no such key)"
    text = instant(value) if isinstance(value, datetime) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _row_problems(row: Row[Any], match: Match, digest: str, first: Row[Any]) -> Iterator[Problem]:
    """The columns of a match's row that are not what its whole chain (``digest`` its last hash) and replay give."""
    code = row.code
    if (match.seq, digest) != (row.last_seq, row.last_hash):
        if digest == row.last_hash:
            yield Problem(code, None, f"it is {row.last_seq}, but the chain ends at seq {match.seq} with the "
                                      f"row's last_hash", "last_seq")
        elif match.seq == row.last_seq:
            yield Problem(code, None, f"it is not the hash of seq {match.seq}, where the chain ends: the column "
                                      f"was changed, or seq {match.seq} was replaced", "last_hash")
        else:  # what the row says of the match's end (last_at, state, score) is not the chain's end either
            yield Problem(code, min(match.seq, row.last_seq) + 1,
                          f"the chain ends at seq {match.seq}, but the match's head is seq {row.last_seq} with "
                          f"another hash: events were removed or added")
            return
    for column, value in match_columns(match, first.received_at).items():
        found = row._mapping[column]
        if _plain(found) != _plain(value):
            yield Problem(code, None, f"it is {_shown(found)}, but the chain and its replay give {_shown(value)}",
                          column)


def _plain(value: Any) -> Any:
    """A value as it reads back from a JSON column (a time as it is)."""
    return value if isinstance(value, datetime) else json.loads(json.dumps(value))


