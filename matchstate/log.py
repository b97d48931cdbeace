"""Reading match logs (JSON Lines) and replaying them through the engine."""

from __future__ import annotations

import json
import operator
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import datetime
from itertools import accumulate
from pathlib import Path
from typing import Any, NamedTuple

import orjson

from .engine import Match
from .engine.clock import Clock
from .errors import InvalidEvent, RefusedEvent
from .events import check_time_kept
from .rulings import Ruling

MAX_LINE_BYTES = 16_384  # far above any real event; guards the store and the service too
DECODED_DEPTH = 1024  # orjson reads arrays and objects nested this deep, no deeper


class Step(NamedTuple):
    """One event of a replay and what it gave. Immutable: a replay makes one per event, so it is a tuple, which
    costs a quarter of what a frozen dataclass does to make."""

    seq: int
    line: int
    event: dict[str, Any]
    state: str
    ruling: Ruling | None
    clock_state: Clock  # the match clock right after the event
    flags: tuple[str, ...]

    @property
    def clock(self) -> dict[str, Any]:
        """The match clock right after the event, as ``replay --json`` gives it."""
        return self.clock_state.to_json(self.at)

    @property
    def at(self) -> datetime:
        return datetime.fromisoformat(self.event["at"])

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.event["type"], "state": self.state,
                "ruling": self.ruling.to_json() if self.ruling else None, "clock": self.clock,
                "flags": list(self.flags)}


def parse_line(line: str) -> dict[str, Any]:
    """Decode one log line into an event object; refuse what is not a JSON object.

    A line is at most :data:`MAX_LINE_BYTES` of UTF-8 without its line break (``\\n`` or ``\\r\\n``).
    JSON has no NaN or Infinity, and a string holds Unicode text, so a lone surrogate is refused.
    """
    # A character is at most 4 bytes of UTF-8: only a line that long can be too long.
    if len(line) > MAX_LINE_BYTES // 4:
        text = line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith("\n") else line
        if len(text.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
            raise InvalidEvent.said("line-long", bytes=MAX_LINE_BYTES)
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError as err:
        if "surrogate" in str(err):
            raise InvalidEvent.said("surrogate") from None
        if (depth := nesting(line.encode("utf-8", "surrogatepass"))) > DECODED_DEPTH:
            raise InvalidEvent.said("line-deep", depth=depth, most=DECODED_DEPTH) from None
        raise not_json("not-json", err, err.pos, line) from None
    if not isinstance(obj, dict):
        raise InvalidEvent.said("not-object", kind=type(obj).__name__)
    return obj


def not_json(phrase: str, error: object, at: int, text: str | bytes) -> InvalidEvent:
    """The refusal ``phrase`` of ``text`` that is not JSON, where ``error`` (the parser's words, English alone) stopped
    reading at ``at``: its Spanish names the character there, or says the text ends too soon
    (``phrase``-ends)."""
    if at >= len(text.rstrip()):
        return InvalidEvent.said(f"{phrase}-ends", error=error)
    return InvalidEvent.said(phrase, error=error, at=at + 1)


class _RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _one_value_per_key(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    decoded = dict(pairs)
    if len(decoded) != len(pairs):
        seen: set[str] = set()
        raise _RepeatedKey(next(key for key, _ in pairs if key in seen or seen.add(key)))  # type: ignore[func-returns-value]
    return decoded


_STRICT = json.JSONDecoder(object_pairs_hook=_one_value_per_key)


def refuse_repeated_keys(text: str | bytes, decoded: Any) -> None:
    """Refuse JSON text (``decoded`` already, and valid) where one object holds a key twice: readers disagree
    on which of the two counts. The one definition for every door: a log's replay, the store, the HTTP append."""
    # A key given twice leaves a key and its value out of what was decoded, so the text holds more quotes than
    # the decoded value written again (where a quote in a string is written \", never \u0022); where they
    # agree, and the text writes no quote \u0022, no key is repeated, and the strict parse is spared.
    plain = text if isinstance(text, str) else text.decode("utf-8", "surrogatepass")
    try:
        written = orjson.dumps(decoded)
    except orjson.JSONEncodeError:  # nested deeper than orjson writes: the strict parse decides
        written = b""
    if "\\u0022" not in plain and plain.count('"') == written.count(b'"'):
        return
    try:
        _STRICT.decode(plain)
    except _RepeatedKey as repeated:
        raise InvalidEvent.said("repeated-key", key=repr(repeated.key)) from None
    except RecursionError:  # nested deeper than Python's parser goes, though not orjson's: unchecked, refused
        raise InvalidEvent.said("deep", depth=nesting(plain.encode("utf-8", "surrogatepass"))) from None
    except ValueError:  # what the JSON parser refused or let pass already: its word is the one given
        pass


# A string (or, unterminated, the rest of the text), whose brackets do not count; anything but a bracket.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(rb"[^\[\]{}]+")
_STEPS = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")  # an opening bracket counts 2, a closing one 0


def nesting(text: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest, read without parsing it (brackets inside
    strings do not count); for a text that is not JSON, a number the parser's error makes moot. Every
    step runs in C, a few nanoseconds a byte: a body of any shape costs the event loop no more than its size."""
    steps = _NOT_BRACKET.sub(b"", _STRING.sub(b"", text)).translate(_STEPS)
    # After k brackets, the depth is 2 × (openings so far) - k: the running sum of the steps, less k.
    return max(0, max(map(operator.sub, accumulate(steps), range(1, len(steps) + 1)), default=0))


def read_lines(path: str | Path) -> Iterator[str]:
    """The lines of the log at ``path`` (``-``: standard input), each decoded as UTF-8 or refused."""
    with (open(sys.stdin.fileno(), "rb", closefd=False) if str(path) == "-" else open(path, "rb")) as stream:
        for number, line in enumerate(stream, 1):
            try:
                yield line.decode("utf-8-sig" if number == 1 else "utf-8")  # an editor's byte-order mark
            except UnicodeDecodeError as err:
                raise InvalidEvent.said("not-utf8", number, reason=err.reason, at=err.start) from None


def read_events(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each event object of a log with its line number; blank lines are skipped."""
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                event = parse_line(line)
                refuse_repeated_keys(line, event)
                yield number, event
            except RefusedEvent as err:
                raise err.at_line(number) from None


def replay(lines: Iterable[str], match: Match | None = None, *, kept: bool = False) -> Iterator[Step]:
    """Feed a log's events to ``match`` (a new one by default), yielding a :class:`Step` each; ``kept``: the log is
    a store's, whose events are read as they were stored (:func:`~matchstate.events.check_time_kept` is not asked).

    A refused event raises :class:`RefusedEvent` carrying its line number; the events
    before it stay applied, nothing after it is. A log with no event (empty, or blank lines only) lacks its
    match.start and is refused as the import refuses it, with no line to name.
    """
    match = match if match is not None else Match()
    for number, obj in read_events(lines):
        try:
            if not kept:
                check_time_kept(obj)
            ruling = match.feed(obj)
        except RefusedEvent as err:
            raise err.at_line(number) from None
        yield Step(match.seq, number, obj, match.state, ruling, match.clock, match.flags[-1])
    if not match.seq:
        raise InvalidEvent.said("no-events")


def load(path: str | Path) -> Match:
    """A match replayed from the log at ``path``."""
    match = Match()
    for _ in replay(read_lines(path), match):
        pass
    return match


def final(match: Match) -> dict[str, Any]:
    """The closing object of ``replay --json``."""
    return {"final": {"score": dict(match.score), "state": match.state,
                      "free_hit": match.free_hit.to_json() if match.free_hit else None,
                      "clock": match.clock_json(), "winner": match.winner,
                      # log format 1.2: the officials' video, reviews, challenges and confirmed chukkers
                      "clips": match.clips, "reviews": match.reviews, "challenges_left": match.challenges_left,
                      "confirmed": match.confirmed, "queried": match.queried}}
