"""A match: its log folded into play, event by event, with voids that refold it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..errors import IllegalEvent, RefusedEvent
from ..events import TYPES, Context, Event, MatchStart, Void, check_event
from ..rules import DEFAULT, ClockSettings, RuleSet, find_rules
from ..rulings import FreeHit, Ruling, Wording
from ..words import catalog, phrases
from . import officials
from .clock import Clock
from .handicap import goals_by_handicap
from .judges import Foul
from .machine import ACCEPTS, QUIET, TRIGGER_OF
from .officials import FLAGGED, NOTED, OFFICIALS_EVENTS
from .penalties import Conditions
from .play import Play

# A void refolds the log from the last checkpoint before the first event it changes, not from the
# start: "undo last" in a long match costs at most this many events.
CHECKPOINT_EVERY = 256
# The event types accepted in each situation (state, and whether a chukker started, is in play, the match
# ended): a console asks after every event, and there are few situations.
_ACCEPTED: dict[tuple[str, bool, bool, bool, bool], tuple[str, ...]] = {}
_NOT_STARTED = Conditions(DEFAULT, (), 300, True, DEFAULT.clock, 6)


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A match as its events up to ``seq`` leave it, to resume from (:meth:`Match.resume`): the ``play``, the
    last event's ``at``, every ``void`` so far (its seq → the seq it strikes), and every review outcome so far
    (its seq → the seq of the request it answers)."""

    seq: int
    last_at: datetime
    play: Play
    voids: Mapping[int, int]
    answers: Mapping[int, int]


class Match:
    """One match: fed its log's events one at a time, it gives each event's ruling.

    ``state`` is one of :data:`~matchstate.engine.machine.STATES`; ``free_hit`` the free hit in
    progress; ``score`` the score with handicap goals; ``clock`` the match clock; ``winner`` the
    team ahead once the match has ended. ``rulings``, ``clocks`` and ``flags`` are what each event
    gave, by seq, as given at the time. A refused event raises :class:`RefusedEvent` and changes nothing.

    A match resumed from a :class:`Checkpoint` (or told to :meth:`keep_last` events) holds the events from
    seq :attr:`first` on: ``events``, ``rulings``, ``clocks`` and ``flags`` start there. A void that changes an
    event before it asks :attr:`earlier` for the whole match, replayed, and goes on from that.
    """

    def __init__(self) -> None:
        self.info: MatchStart | None = None  # the match.start as kept, its defaults resolved
        self.context = Context()
        self.rules: RuleSet = DEFAULT
        self.events: list[Event] = []
        self.rulings: list[Ruling | None] = []
        self._clocks: list[Clock] = []  # the clock after each event, read at its `at`
        self.flags: list[tuple[str, ...]] = []
        self.void: set[int] = set()
        self._play = Play(_NOT_STARTED, Wording(DEFAULT), Clock(DEFAULT.clock, 6))
        self._checkpoints: dict[int, Play] = {}  # seq -> the play folded up to it
        self.first = 1  # the seq of events[0]
        self._last_at = datetime.min  # the `at` of the event before `first` (none: unstarted)
        self._voids: dict[int, int] = {}  # every void: its seq -> the seq it strikes
        self._answers: dict[int, int] = {}  # every review outcome: its seq -> the seq of the request it answers
        self.earlier: Callable[[], Match] | None = None  # the whole match replayed, where it holds only the last events

    @classmethod
    def resume(cls, start: Mapping[str, Any], checkpoint: Checkpoint) -> Match:
        """The match ``checkpoint`` was taken of, whose match.start is ``start``, from the checkpoint on."""
        match = cls()
        match.feed(start)
        play = checkpoint.play.copy()
        play.conditions, play.wording = match._play.conditions, match._play.wording  # the match.start's, shared
        match._resumed(checkpoint.seq, checkpoint.last_at, play)
        match._voids, match._answers = dict(checkpoint.voids), dict(checkpoint.answers)
        match.void = _struck_out(match._voids, match._answers)
        return match

    def checkpoint(self) -> Checkpoint:
        """The match as it stands, to resume from."""
        return Checkpoint(self.seq, self.last_at, self._play.copy(), dict(self._voids), dict(self._answers))

    def keep_last(self, events: int) -> None:
        """Drop the events before the last checkpoint that leaves at least ``events`` of them held."""
        kept = [seq for seq in self._checkpoints if self.first <= seq <= self.seq - events]
        if kept:
            seq = max(kept)
            self._resumed(seq, self.events[seq - self.first]["at"], self._checkpoints[seq])

    def _resumed(self, seq: int, last_at: datetime, play: Play) -> None:
        """Hold only what comes after event ``seq``, which left ``play`` (at ``last_at``)."""
        drop = seq - self.first + 1
        for held in (self.events, self.rulings, self._clocks, self.flags):
            del held[:drop]
        self.first, self._last_at = seq + 1, last_at
        self._checkpoints = {at: folded for at, folded in self._checkpoints.items() if at > seq}
        self._checkpoints[seq] = play.copy()
        if seq == self.seq:
            self._play = play

    # -- reading -----------------------------------------------------------------

    @property
    def start(self) -> MatchStart:
        """The match.start as kept, its defaults resolved (asked only of a match that has started)."""
        assert self.info is not None, "a match has a start once its first event is fed"
        return self.info

    @property
    def seq(self) -> int:
        """The seq of the last event fed (0 before the first)."""
        return self.first - 1 + len(self.events)

    @property
    def last_at(self) -> datetime:
        """The last event's ``at`` (``datetime.min`` before the first)."""
        return self.events[-1]["at"] if self.events else self._last_at

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
        return self._clocks[seq - self.first].to_json(self.events[seq - self.first]["at"])

    @property
    def clocks(self) -> list[dict[str, Any]]:
        """The clock right after each event, by seq - :attr:`first`."""
        return [self.clock_after(seq) for seq in range(self.first, self.seq + 1)]

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

    # -- the officials' (log format 1.2) --------------------------------------------

    @property
    def review(self) -> int | None:
        """The seq of the review.request open, if one is."""
        return self._play.review

    def outcome_of(self, seq: int) -> int | None:
        """The seq of the review.outcome that decided the review.request ``seq`` (None: no such request, or open)."""
        review = self._play.reviews.get(seq)
        return review[3] if review is not None else None

    @property
    def reviews(self) -> list[dict[str, Any]]:
        """Each review.request standing, in order: ``seq``, ``about``, ``asked_by``, ``outcome`` (None: open)."""
        return officials.reviews_json(self._play)

    @property
    def challenges_left(self) -> dict[str, int]:
        return dict(self._play.challenges)

    @property
    def clips(self) -> list[dict[str, Any]]:
        """The clips in force: ``clip``, ``clip_seconds`` and the sync's ``at`` as logged, in the syncs' order."""
        return officials.clips_json(self._play)

    def moment(self, clip: str, at: datetime) -> float | None:
        """The second of ``clip`` that shows an event logged at ``at`` (None: the clip has no sync in force)."""
        sync = self._play.clips.get(clip)
        return officials.moment(sync, at) if sync is not None else None

    @property
    def chukker_scores(self) -> dict[int, dict[str, float]]:
        """The score right after each chukker's latest chukker.end, by chukker: what a confirmation logged now is
        compared with."""
        teams = list(self._play.score)
        latest = dict(self._play.chukker_ends.values())  # in log order: each chukker's last end stays
        return {chukker: dict(zip(teams, latest[chukker], strict=True)) for chukker in sorted(latest)}

    @property
    def confirmed(self) -> list[int]:
        """The chukkers whose latest confirmation agrees with the log as it stands."""
        return officials.confirmations(self._play)[0]

    @property
    def queried(self) -> list[int]:
        """The chukkers whose latest confirmation does not agree with the log as it stands."""
        return officials.confirmations(self._play)[1]

    def clock_json(self) -> dict[str, Any]:
        """The clock as of the last event, as ``replay --json`` gives it."""
        return self.clock.to_json(self.last_at)

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
        play = self._play
        if event_type == "review.outcome":
            return play.review is not None
        if event_type == "review.request" and play.review is not None:
            return False
        return ((event_type in ACCEPTS[play.state] or event_type in OFFICIALS_EVENTS)
                and play.clock.refusal(event_type) is None and officials.refusal_while_review(play, event_type) is None)

    def accepted_types(self) -> list[str]:
        """The event types that make sense now, in the log format's order."""
        if not self.info:
            return ["match.start"]
        clock = self.clock
        # all that accepts() reads
        situation = (self.state, clock.started, clock.in_play, clock.ended, self.review is not None)
        if situation not in _ACCEPTED:
            _ACCEPTED[situation] = tuple(kind for kind in TYPES if self.accepts(kind))
        return list(_ACCEPTED[situation])

    # -- feeding -----------------------------------------------------------------

    def feed(self, obj: Mapping[str, Any]) -> Ruling | None:
        """Check one event, apply it and return its ruling (``None`` where it gives none)."""
        if not self.info and isinstance(obj, Mapping) and obj.get("type") != "match.start":
            raise IllegalEvent.said("first-start", type=repr(obj.get("type")))
        event = check_event(obj, self.context)
        seq = self.seq + 1  # this event's
        if seq > 1 and event["at"] < self.last_at:
            raise IllegalEvent.said("earlier", kind=event["type"], at=obj["at"])
        kind = event["type"]
        flags = self._play.clock.flags(event)
        if kind in FLAGGED:
            flags += officials.flags(self._play, event)
        if event["type"] == "void":
            self._strike(event)
            self._voids[seq] = event["seq"]
            ruling = None
        else:
            if event["type"] == "review.request" and (refusal := officials.about_refusal(event, seq, self.void)):
                raise refusal  # judged when it is logged: a later void of the event under review leaves it
            request = self._play.review  # the review an outcome answers, open until it is applied
            ruling = self._apply(self._play, event, seq)
            if event["type"] == "review.outcome" and request is not None:
                self._answers[seq] = request
            if event["type"] == "match.start":
                event = self.start  # its defaults resolved
        self.events.append(event)
        self.rulings.append(ruling)
        self._clocks.append(self._play.clock)
        self.flags.append(flags)
        if seq % CHECKPOINT_EVERY == 0:
            self._checkpoints[seq] = self._play.copy()
        return ruling

    def _apply(self, play: Play, event: Event, seq: int) -> Ruling | None:
        kind = event["type"]
        if event["type"] == "match.start":
            self._start(event)
            return None
        refusal = play.clock.refusal(kind)
        if refusal is None and play.review is not None:
            refusal = officials.refusal_while_review(play, kind)
        if refusal:
            raise refusal
        if kind in OFFICIALS_EVENTS:
            officials.apply(play, event, seq)
            return None
        if kind not in ACCEPTS[play.state]:
            why = "choosing" if play.state == "choosing" else kind
            if why in catalog()["why-not"]:
                raise IllegalEvent.said("no-sense-why", kind=kind, state=play.state, why=phrases("why-not", why))
            raise IllegalEvent.said("no-sense", kind=kind, state=play.state)
        if event["type"] == "decide" and event["option"] > len(play.options):
            raise IllegalEvent.said("option", option=event["option"], offered=len(play.options))
        clock = play.clock
        ruling = None if kind in QUIET[play.state] else play.rule(TRIGGER_OF[kind], event)
        play.clock = clock.after(event, ruling, play.score)
        if kind in NOTED:
            officials.note(play, event, seq, clock.chukker if clock.in_play else None)
        return ruling

    def _start(self, event: MatchStart) -> None:
        if self.info:
            raise IllegalEvent.said("start-twice")
        rules = find_rules(event["rules"]) if event["rules"] is not None else DEFAULT
        defended = rules.penalty3_defended if event["penalty3_defended"] is None else event["penalty3_defended"]
        # The start as kept: its defaults resolved in a new event, the one given left as it was.
        event = {**event, "penalty3_defended": defended,
                 "handicap_goals": goals_by_handicap(event) if event["handicap_goals"] is None
                 else event["handicap_goals"]}
        clock = ClockSettings(**{**_settings(rules.clock), **(event["clock"] or {})})
        self.info, self.rules = event, rules
        self.context = Context(event["teams"], event["field_length"])
        conditions = Conditions(rules, self.context.teams, event["field_length"], defended, clock, event["chukkers"])
        self._play = Play(conditions, Wording(rules), Clock(clock, event["chukkers"]))
        self._play.score = self._starting_score()
        self._play.challenges = self._starting_challenges()

    def _starting_score(self) -> dict[str, float]:
        handicap = self.start["handicap_goals"] or {}  # resolved at the start: None only to the type checker
        return {team: handicap.get(team, 0) for team in self.teams}

    def _starting_challenges(self) -> dict[str, int]:
        return dict.fromkeys(self.teams, self.start["challenges"])

    def _strike(self, event: Void) -> None:
        """Void an event: refold the log without it, or refuse if that breaks a later event."""
        target = event["seq"]
        if target > self.seq:
            raise IllegalEvent.said("void-none", seq=target)
        if target == 1:
            raise IllegalEvent.said("void-start")
        if target in self.void:
            raise IllegalEvent.said("void-twice", seq=target)
        if (confirmation := officials.relied_on(self._play, target)) is not None:
            raise officials.refused("void-confirmed", seq=confirmation, target=target)
        struck_out = _struck_out({**self._voids, self.seq + 1: target}, self._answers)
        first = min(struck_out ^ self.void)  # the first event whose standing changes
        if first < self.first:
            self._replayed_whole()
        checkpoints = {seq: folded for seq, folded in self._checkpoints.items() if seq < first}
        begin = max(checkpoints, default=0)
        play = checkpoints[begin].copy() if begin else self._started()
        for seq in range(max(begin, 1) + 1, self.seq + 1):
            kept = self.events[seq - self.first]
            if seq not in struck_out and kept["type"] != "void":
                try:
                    self._apply(play, kept, seq)
                except RefusedEvent as err:
                    raise IllegalEvent.said("void-breaks", target=target, seq=seq, reason=err.reason_words) from None
            if seq % CHECKPOINT_EVERY == 0:
                checkpoints[seq] = play.copy()
        self._play, self.void, self._checkpoints = play, struck_out, checkpoints

    def _replayed_whole(self) -> None:
        """Become the whole match, replayed (:attr:`earlier`), where only its last events are held."""
        earlier = self.earlier
        assert earlier is not None, "a match that holds only its last events is given `earlier` by its keeper"
        whole = earlier()
        assert (whole.seq, whole.last_at) == (self.seq, self.last_at), "`earlier` gave another match"
        vars(self).update(vars(whole))
        self.earlier = earlier

    def _started(self) -> Play:
        """The play as the match's start leaves it."""
        conditions = self._play.conditions
        return Play(conditions, self._play.wording, Clock(conditions.clock, conditions.chukkers),
                    score=self._starting_score(), challenges=self._starting_challenges())


def _settings(settings: ClockSettings) -> dict[str, float]:
    return {"chukker_seconds": settings.chukker_seconds, "extra_seconds": settings.extra_seconds}


def _struck_out(voids: Mapping[int, int], answers: Mapping[int, int]) -> set[int]:
    """The seqs struck out by ``voids`` (each void's seq -> the seq it strikes) where a review.request struck out
    strikes its outcome with it (``answers``: each outcome's seq -> its request's), however a chain of voids
    strikes or restores the request."""
    by_void = struck_by(voids)
    return by_void | {outcome for outcome, request in answers.items() if request in by_void}


def struck(events: Sequence[Mapping[str, Any]]) -> set[int]:
    """The seqs struck out: a void counts unless a later void strikes it, and a review.request struck out
    strikes its outcome with it."""
    by_void = struck_by({seq: event["seq"] for seq, event in enumerate(events, 1) if event["type"] == "void"})
    return by_void | officials.withdrawn(events, by_void)


def struck_by(voids: Mapping[int, int]) -> set[int]:
    """The seqs struck out by ``voids`` (each void's seq → the seq it strikes)."""
    struck: set[int] = set()
    for seq in sorted(voids, reverse=True):
        if seq not in struck:
            struck.add(voids[seq])
    return struck
