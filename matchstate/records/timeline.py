"""A match's log replayed for its records: each event with the chukker, the free hit and the score it met.

Records count what stands. An event struck out by a void, and the void itself, are listed but not
replayed, so every record reads as if they had never been logged (as the engine refolds a void).
The engine gives every ruling; nothing here rules anything itself.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine import Match, goals_by_handicap, struck
from ..engine.officials import OFFICIALS_EVENTS

Event = Mapping[str, Any]  # an event's JSON object, as received
AWARDS = ("penalty.award", "knockin.award")
END = "match.end"


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the log and what it met and gave, as the match stands.

    ``ruling``, ``free_hit`` and ``awarded`` are the log format's JSON; for an event that does not
    stand (struck out, or a void) they are None and ``score`` is the score before it.
    """

    seq: int
    event: Event
    struck: bool  # struck out by a void
    ruling: dict[str, Any] | None
    chukker: int | None  # the chukker in play, or the last one started; None before the first
    free_hit: dict[str, Any] | None  # the free hit in progress before the event
    origin: int | None  # the seq of the event that awarded that free hit
    awarded: dict[str, Any] | None  # the free hit this event awarded, by itself or by its ruling
    score: dict[str, float]  # after the event: goals by handicap, scored and awarded
    ended: bool  # a match.end stands at or before this event

    @property
    def stands(self) -> bool:
        """Whether the event counts: neither struck out nor a void."""
        return not self.struck and self.event["type"] != "void"


def replay(events: Sequence[Event]) -> Iterator[Step]:
    """Each event of a log (match.start first), with what it met and gave as the match stands.

    The replay ends at a standing ``match.end``: after it only a void, a card or a tick may come,
    and none of them changes a record.
    """
    struck_out = struck(events)
    match = Match()
    score = goals_by_handicap(events[0])
    chukker: int | None = None
    origin: int | None = None
    ended = False
    for seq, event in enumerate(events, 1):
        kind = event["type"]
        before = match.free_hit.to_json() if match.free_hit is not None else None
        # The officials' events (log format 1.2) change nothing a record counts: they are listed, not replayed.
        if seq in struck_out or kind == "void" or kind in OFFICIALS_EVENTS or ended or kind == END:
            ended |= kind == END and seq not in struck_out
            yield Step(seq, event, seq in struck_out, None, chukker, before, origin, None, dict(score), ended)
            continue
        given = match.feed(event)
        ruling = given.to_json() if given is not None else None
        if kind == "chukker.start":
            chukker = event["chukker"]
        if kind == "goal":
            score[event["team"]] += 1
        if ruling is not None and ruling["kind"] == "goal":
            score[ruling["to"]] += 1
        starts = kind in AWARDS or (ruling is not None and ruling["kind"] == "award")
        awarded = match.free_hit.to_json() if starts and match.free_hit is not None else None
        yield Step(seq, event, False, ruling, chukker, before, origin, awarded, dict(score), ended)
        if awarded is not None:
            origin = seq
        elif match.free_hit is None and match.state != "choosing":
            origin = None


def led_to(steps: Sequence[Step], seq: int) -> list[int]:
    """The seqs of the standing events that led to the ruling of event ``seq`` (of a log's ``replay``): its
    free hit, from its award."""
    target = next((step for step in steps if step.seq == seq and step.stands), None)
    if target is None or target.origin is None:
        return [seq]
    return [step.seq for step in steps if step.stands and target.origin <= step.seq <= seq]
