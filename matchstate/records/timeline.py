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
from ..events import Event as Checked
from ..events import check_event
from ..rulings import FreeHit, Ruling

Event = Mapping[str, Any]  # an event's JSON object, as received
AWARDS = ("penalty.award", "knockin.award")
END = "match.end"


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the log and what it met and gave, as the match stands.

    ``event`` is the event as checked (typed; the match.start's defaults are left unresolved), ``logged`` its
    JSON as received, for an exporter. For an event that does not stand (struck out, or a void) ``ruling`` and
    ``awarded`` are None and ``score`` is the score before it.
    """

    seq: int
    event: Checked
    logged: Event
    struck: bool  # struck out by a void
    ruling: Ruling | None
    chukker: int | None  # the chukker in play, or the last one started; None before the first
    free_hit: FreeHit | None  # the free hit in progress before the event
    origin: int | None  # the seq of the event that awarded that free hit
    awarded: FreeHit | None  # the free hit this event awarded, by itself or by its ruling
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
    for seq, logged in enumerate(events, 1):
        kind = logged["type"]
        before = match.free_hit
        # The officials' events (log format 1.2) change nothing a record counts: they are listed, not replayed.
        if seq in struck_out or kind == "void" or kind in OFFICIALS_EVENTS or ended or kind == END:
            ended |= kind == END and seq not in struck_out
            yield Step(seq, check_event(logged, match.context), logged, seq in struck_out, None, chukker, before,
                       origin, None, dict(score), ended)
            continue
        ruling = match.feed(logged)
        event = check_event(logged, match.context) if kind == "match.start" else match.events[-1]
        if event["type"] == "chukker.start":
            chukker = event["chukker"]
        if event["type"] == "goal":
            score[event["team"]] += 1
        if ruling is not None and ruling.kind == "goal" and ruling.to is not None:
            score[ruling.to] += 1
        starts = kind in AWARDS or (ruling is not None and ruling.kind == "award")
        awarded = match.free_hit if starts else None
        yield Step(seq, event, logged, False, ruling, chukker, before, origin, awarded, dict(score), ended)
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
