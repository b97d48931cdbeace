"""A match: its log folded into play, event by event, with voids that refold it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from ..errors import IllegalEvent, RefusedEvent
from ..events import TYPES, Context, Event, check_event
from ..rules import DEFAULT, ClockSettings, RuleSet, find_rules
from ..rulings import FreeHit, Ruling, Wording
from ..words import catalog, phrases
from .clock import Clock
from .handicap import goals_by_handicap
from .judges import Foul
from .machine import ACCEPTS, QUIET, TRIGGER_OF
from .penalties import Conditions
from .play import Play

# A void refolds the log from the last checkpoint before the first event it changes, not from the
# start: "undo last" in a long match costs at most this many events.
CHECKPOINT_EVERY = 256
# The event types accepted in each situation (state, and whether a chukker started, is in play, the match
# ended): a console asks after every event, and there are few situations.
_ACCEPTED: dict[tuple[str, bool, bool, bool], tuple[str, ...]] = {}
_NOT_STARTED = Conditions(DEFAULT, (), 300, True, DEFAULT.clock, 6)


class Match:
    """One match: fed its log's events one at a time, it gives each event's ruling.

    ``state`` is one of :data:`~matchstate.engine.machine.STATES`; ``free_hit`` the free hit in
    progress; ``score`` the score with handicap goals; ``clock`` the match clock; ``winner`` the
    team ahead once the match has ended. ``rulings``, ``clocks`` and ``flags`` are what each event
    gave, by seq, as given at the time. A refused event raises :class:`RefusedEvent` and changes nothing.
    """

    def __init__(self) -> None:
        self.info: Event = {}
        self.context = Context()
        self.rules: RuleSet = DEFAULT
        self.events: list[Event] = []
        self.rulings: list[Ruling | None] = []
        self._clocks: list[Clock] = []  # the clock after each event, read at its `at`
        self.flags: list[tuple[str, ...]] = []
        self.void: set[int] = set()
        self._play = Play(_NOT_STARTED, Wording(DEFAULT), Clock(DEFAULT.clock, 6))
        self._checkpoints: dict[int, Play] = {}  # seq -> the play folded up to it

    # -- reading -----------------------------------------------------------------

    @property
    def seq(self) -> int:
        """The seq of the last event fed (0 before the first)."""
        return len(self.events)

    @property
    def state(self) -> str:
        return self._play.state

    @property
    def score(self) -> dict[str, float]:
        return self._play.score

    @property
    def free_hit(self) -> FreeHit | None:
        return self._play.free_hit

    @property
    def options(self) -> tuple[Ruling, ...]:
        """The options of a pending choice."""
        return self._play.options

    @property
    def play_at(self) -> datetime | None:
        """When the "Play" that began the window was called, while a free hit awaits its stroke."""
        return self._play.play_at

    @property
    def waiting(self) -> tuple[Foul, ...]:
        """The defending team's violations waiting for the free hit to close."""
        return tuple(self._play.waiting)

    @property
    def clock(self) -> Clock:
        return self._play.clock

    def clock_after(self, seq: int) -> dict[str, Any]:
        """The clock right after the event ``seq``, as given at the time (a void does not change it)."""
        return self._clocks[seq - 1].to_json(self.events[seq - 1]["at"])

    @property
    def clocks(self) -> list[dict[str, Any]]:
        """The clock right after each event, by seq - 1."""
        return [self.clock_after(seq) for seq in range(1, self.seq + 1)]

    @property
    def ended(self) -> bool:
        """Whether the match has ended (a ``match.end`` stands)."""
        return self._play.clock.ended

    @property
    def winner(self) -> str | None:
        """The team ahead once the match has ended; None before, or when it ended tied."""
        if not self.ended:
            return None
        (first, goals), (second, theirs) = self.score.items()
        return first if goals > theirs else second if theirs > goals else None

    def clock_json(self) -> dict[str, Any]:
        """The clock as of the last event, as ``replay --json`` gives it."""
        return self.clock.to_json(self.events[-1]["at"] if self.events else datetime.min)  # unstarted: no time

    @property
    def teams(self) -> tuple[str, ...]:
        return self.context.teams

    @property
    def hitting_team(self) -> str | None:
        return self.free_hit.to if self.free_hit else None

    @property
    def defending_team(self) -> str | None:
        return self._play.defending_team

    def accepts(self, event_type: str) -> bool:
        """Whether an event of this type makes sense now (its fields aside)."""
        if not self.info:
            return event_type == "match.start"
        return event_type in ACCEPTS[self.state] and self.clock.refusal(event_type) is None

    def accepted_types(self) -> list[str]:
        """The event types that make sense now, in the log format's order."""
        if not self.info:
            return ["match.start"]
        clock = self.clock
        situation = (self.state, clock.started, clock.in_play, clock.ended)  # all that accepts() reads
        if situation not in _ACCEPTED:
            _ACCEPTED[situation] = tuple(kind for kind in TYPES if self.accepts(kind))
        return list(_ACCEPTED[situation])

    # -- feeding -----------------------------------------------------------------

    def feed(self, obj: Mapping[str, Any]) -> Ruling | None:
        """Check one event, apply it and return its ruling (``None`` where it gives none)."""
        if not self.info and isinstance(obj, Mapping) and obj.get("type") != "match.start":
            raise IllegalEvent.said("first-start", type=repr(obj.get("type")))
        event = check_event(obj, self.context)
        if self.events and event["at"] < self.events[-1]["at"]:
            raise IllegalEvent.said("earlier", kind=event["type"], at=obj["at"])
        flags: tuple[str, ...] = ()
        if event["type"] == "void":
            self._strike(event)
            ruling = None
        else:
            flags = self._play.clock.flags(event)
            ruling = self._apply(self._play, event)
        self.events.append(event)
        self.rulings.append(ruling)
        self._clocks.append(self._play.clock)
        self.flags.append(flags)
        seq = len(self.events)
        if seq % CHECKPOINT_EVERY == 0:
            self._checkpoints[seq] = self._play.copy()
        return ruling

    def _apply(self, play: Play, event: Event) -> Ruling | None:
        kind = event["type"]
        if not self.info or kind == "match.start":
            self._start(event)
            return None
        refusal = play.clock.refusal(kind)
        if refusal:
            raise refusal
        if kind not in ACCEPTS[play.state]:
            why = "choosing" if play.state == "choosing" else kind
            if why in catalog()["why-not"]:
                raise IllegalEvent.said("no-sense-why", kind=kind, state=play.state, why=phrases("why-not", why))
            raise IllegalEvent.said("no-sense", kind=kind, state=play.state)
        if kind == "decide" and event["option"] > len(play.options):
            raise IllegalEvent.said("option", option=event["option"], offered=len(play.options))
        ruling = None if kind in QUIET[play.state] else play.rule(TRIGGER_OF[kind], event)
        play.clock = play.clock.after(event, ruling, play.score)
        return ruling

    def _start(self, event: Event) -> None:
        if self.info:
            raise IllegalEvent.said("start-twice")
        rules = find_rules(event["rules"]) if event["rules"] is not None else DEFAULT
        if event["penalty3_defended"] is None:
            event["penalty3_defended"] = rules.penalty3_defended
        if event["handicap_goals"] is None:
            event["handicap_goals"] = goals_by_handicap(event)
        clock = ClockSettings(**{**_settings(rules.clock), **(event["clock"] or {})})
        self.info, self.rules = event, rules
        self.context = Context(event["teams"], event["field_length"])
        conditions = Conditions(rules, self.context.teams, event["field_length"], event["penalty3_defended"], clock,
                                event["chukkers"])
        self._play = Play(conditions, Wording(rules), Clock(clock, event["chukkers"]))
        self._play.score = self._starting_score()

    def _starting_score(self) -> dict[str, float]:
        handicap = self.info["handicap_goals"]
        return {team: handicap.get(team, 0) for team in self.teams}

    def _strike(self, event: Event) -> None:
        """Void an event: refold the log without it, or refuse if that breaks a later event."""
        target = event["seq"]
        if target > len(self.events):
            raise IllegalEvent.said("void-none", seq=target)
        if target == 1:
            raise IllegalEvent.said("void-start")
        if target in self.void:
            raise IllegalEvent.said("void-twice", seq=target)
        struck_out = struck([*self.events, event])
        first = min(struck_out ^ self.void)  # the first event whose standing changes
        checkpoints = {seq: folded for seq, folded in self._checkpoints.items() if seq < first}
        begin = max(checkpoints, default=0)
        play = checkpoints[begin].copy() if begin else self._started()
        for seq in range(max(begin, 1) + 1, len(self.events) + 1):
            kept = self.events[seq - 1]
            if seq not in struck_out and kept["type"] != "void":
                try:
                    self._apply(play, kept)
                except RefusedEvent as err:
                    raise IllegalEvent.said("void-breaks", target=target, seq=seq, reason=err.reason_words) from None
            if seq % CHECKPOINT_EVERY == 0:
                checkpoints[seq] = play.copy()
        self._play, self.void, self._checkpoints = play, struck_out, checkpoints

    def _started(self) -> Play:
        """The play as the match's start leaves it."""
        conditions = self._play.conditions
        return Play(conditions, self._play.wording, Clock(conditions.clock, conditions.chukkers),
                    score=self._starting_score())


def _settings(settings: ClockSettings) -> dict[str, float]:
    return {"chukker_seconds": settings.chukker_seconds, "extra_seconds": settings.extra_seconds}


def struck(events: Sequence[Mapping[str, Any]]) -> set[int]:
    """The seqs struck out: a void counts unless a later void strikes it."""
    struck: set[int] = set()
    for seq in range(len(events), 0, -1):
        event = events[seq - 1]
        if event["type"] == "void" and seq not in struck:
            struck.add(event["seq"])
    return struck
