"""The match clock: each chukker's playing time, its phases and the flags an official should see,
folded from the events' ``at`` alone, beside the free-hit machine (log format 1.1, "The whole match").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from ..errors import IllegalEvent
from ..events import Event
from ..rules import ClockSettings
from ..rulings import Ruling

# Event types the clock refuses: between chukkers a free hit carried over waits for the next chukker's
# start; after the match's end only these are accepted.
NOT_BETWEEN_CHUKKERS = frozenset({"play", "hit", "approach.abort", "ball.retee"})
AFTER_THE_END = frozenset({"void", "card", "tick", "video.sync", "review.request", "review.outcome",
                           "chukker.confirm"})  # and, from log format 1.2, the officials' events
# What ends extra time early in a chukker before the last (besides a goal).
ENDS_EXTRA = frozenset({"goal", "ball.out", "whistle"})
# The event types the clock may flag, and those it may change (as may an event of any type ruled a goal): an
# event of another type, most of a match's, leaves it as it was.
FLAGS_KINDS = frozenset({"goal", "hit", "chukker.start", "chukker.end"})
MOVES_IT = frozenset({"chukker.start", "chukker.end", "match.end", "clock.stop", "clock.start", "hit", *ENDS_EXTRA})


class Clock(NamedTuple):
    """The clock as the events so far leave it. ``played`` is the time played before ``since``; the clock
    runs from ``since`` (None: stopped). Immutable: each event gives a new one (a tuple, as it is made once
    per event)."""

    settings: ClockSettings
    chukkers: int  # planned: the one numbered so, or any later, is the last
    chukker: int | None = None  # in play, or the one that ended last
    in_play: bool = False
    played: float = 0.0
    since: datetime | None = None
    extra_over: bool = False  # extra time ended early in this chukker
    started: bool = False  # a log that never starts a chukker keeps no time
    ended: bool = False  # match.end

    def reading(self, at: datetime) -> float:
        """The chukker's playing time at ``at``, in seconds."""
        return self.played + (at - self.since).total_seconds() if self.since is not None else self.played

    def phase(self, at: datetime) -> str:
        if self.ended:
            return "ended"
        if not self.started:
            return "before"
        if not self.in_play:
            return "between"
        played, bell = self.reading(at), self.settings.chukker_seconds
        if self.extra_over or played >= bell + self.settings.extra_seconds:
            return "over"
        return "extra" if played >= bell else "play"

    def to_json(self, at: datetime) -> dict[str, Any]:
        played = round(self.reading(at), 3)
        return {"chukker": self.chukker, "played": int(played) if played == int(played) else played,
                "running": self.since is not None, "phase": self.phase(at)}

    # -- what an event may do --------------------------------------------------

    def refusal(self, kind: str) -> IllegalEvent | None:
        """Why the clock refuses an event of this type now, or None: decided by ``started``, ``in_play`` and
        ``ended`` alone (``Match.accepted_types`` relies on it)."""
        if self.ended and kind not in AFTER_THE_END:
            return IllegalEvent.said("after-end", kind=kind)
        if kind == "match.end" and self.in_play:
            return IllegalEvent.said("end-in-play", chukker=self.chukker)
        if kind in NOT_BETWEEN_CHUKKERS and self.started and not self.in_play:
            return IllegalEvent.said("between", kind=kind)
        return None

    def flags(self, event: Event) -> tuple[str, ...]:
        """What an official should look at in ``event``, judged at its ``at`` before its own effect."""
        kind, at = event["type"], event["at"]
        if kind not in FLAGS_KINDS:
            return ()
        if not self.started:  # no time is kept yet; the first chukker.start is judged as the one that starts it
            return ("chukker-order",) if event["type"] == "chukker.start" and event["chukker"] != 1 else ()
        if kind in ("goal", "hit") and self.phase(at) == "over":
            return ("after-horn", "clock-stopped") if kind == "goal" and self._stopped() else ("after-horn",)
        if kind == "goal" and self._stopped():
            return ("clock-stopped",)
        if event["type"] == "chukker.start" and (self.in_play or event["chukker"] != (self.chukker or 0) + 1):
            return ("chukker-order",)
        if event["type"] == "chukker.end" and (not self.in_play or event["chukker"] != self.chukker):
            return ("chukker-order",)
        return ()

    def _stopped(self) -> bool:
        return self.started and not self.ended and self.since is None

    def after(self, event: Event, ruling: Ruling | None, score: dict[str, float]) -> Clock:
        """The clock after ``event``, whose ruling was ``ruling`` and after which the score is ``score``."""
        kind, at = event["type"], event["at"]
        goal = kind == "goal" or (ruling is not None and ruling.kind == "goal")
        if kind not in MOVES_IT and not goal:
            return self
        if event["type"] == "chukker.start":
            return self._replace(chukker=event["chukker"], in_play=True, played=0.0, since=at, extra_over=False,
                           started=True)
        if kind == "match.end":
            return self._replace(ended=True)
        if not self.in_play:
            return self
        clock = self
        if self._ends_extra(kind, goal, score) and self.phase(at) == "extra":
            clock = clock._replace(extra_over=True)
        if kind == "chukker.end":
            return clock._replace(in_play=False, played=clock.reading(at), since=None)
        if kind in ("whistle", "clock.stop") and clock.since is not None:
            return clock._replace(played=clock.reading(at), since=None)
        stroke = kind == "hit" and ruling is not None and ruling.kind == "live"
        if (kind == "clock.start" or stroke) and clock.since is None:
            return clock._replace(since=at)
        return clock

    def _ends_extra(self, kind: str, goal: bool, score: dict[str, float]) -> bool:
        if self.chukker is not None and self.chukker >= self.chukkers:
            return goal and len(set(score.values())) > 1  # the last chukker: a goal that leaves it untied
        return goal or kind in ENDS_EXTRA
