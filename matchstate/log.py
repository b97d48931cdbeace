"""Reading match logs (JSON Lines) and replaying them through the engine."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .engine import Match
from .errors import InvalidEvent, RefusedEvent
from .rulings import Ruling

MAX_LINE_BYTES = 16_384  # far above any real event; guards the store and the service too


@dataclass(frozen=True, slots=True)
class Step:
    """One event of a replay and what it gave."""

    seq: int
    line: int
    event: dict[str, Any]
    state: str
    ruling: Ruling | None
    clock: dict[str, Any]  # the match clock right after the event
    flags: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.event["type"], "state": self.state,
                "ruling": self.ruling.to_json() if self.ruling else None, "clock": self.clock,
                "flags": list(self.flags)}


def _no_constant(name: str) -> None:
    # Python's json reads NaN and Infinity, which JSON does not have.
    raise json.JSONDecodeError(f"{name} is not a JSON value", name, 0)


_DECODER = json.JSONDecoder(parse_constant=_no_constant)  # one for every line: making one costs as much as a line


def parse_line(line: str) -> dict[str, Any]:
    """Decode one log line into an event object; refuse what is not a JSON object.

    A line is at most :data:`MAX_LINE_BYTES` of UTF-8 without its line break (``\n`` or ``\r\n``).
    """
    # A character is at most 4 bytes of UTF-8: only a line that long can be too long.
    if len(line) > MAX_LINE_BYTES // 4:
        text = line[:-2] if line.endswith("\r\n") else line[:-1] if line.endswith("\n") else line
        if len(text.encode("utf-8", "surrogatepass")) > MAX_LINE_BYTES:
            raise InvalidEvent(f"the line is longer than {MAX_LINE_BYTES} bytes")
    try:
        obj = _DECODER.decode(line)
    except (json.JSONDecodeError, RecursionError) as err:
        raise InvalidEvent(f"not JSON: {err}") from None
    if not isinstance(obj, dict):
        raise InvalidEvent(f"an event must be a JSON object, not {type(obj).__name__}")
    return obj


def read_lines(path: str | Path) -> Iterator[str]:
    """The lines of the log at ``path`` (``-``: standard input), each decoded as UTF-8 or refused."""
    with (open(sys.stdin.fileno(), "rb", closefd=False) if str(path) == "-" else open(path, "rb")) as stream:
        for number, line in enumerate(stream, 1):
            try:
                yield line.decode("utf-8-sig" if number == 1 else "utf-8")  # an editor's byte-order mark
            except UnicodeDecodeError as err:
                raise InvalidEvent(f"not UTF-8 text: {err.reason} at byte {err.start}", number) from None


def read_events(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each event object of a log with its line number; blank lines are skipped."""
    for number, line in enumerate(lines, 1):
        if line.strip():
            try:
                yield number, parse_line(line)
            except RefusedEvent as err:
                raise err.at_line(number) from None


def replay(lines: Iterable[str], match: Match | None = None) -> Iterator[Step]:
    """Feed a log's events to ``match`` (a new one by default), yielding a :class:`Step` each.

    A refused event raises :class:`RefusedEvent` carrying its line number; the events
    before it stay applied, nothing after it is.
    """
    match = match if match is not None else Match()
    for number, obj in read_events(lines):
        try:
            ruling = match.feed(obj)
        except RefusedEvent as err:
            raise err.at_line(number) from None
        yield Step(match.seq, number, obj, match.state, ruling, match.clock_after(match.seq), match.flags[-1])


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
                      "clock": match.clock_json(), "winner": match.winner}}
