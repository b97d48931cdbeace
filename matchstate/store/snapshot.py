"""A frozen snapshot of a match as stored: what a caller reads of it, never the store's own engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from ..engine import Match
from ..engine.clock import Clock
from ..engine.judges import Foul
from ..rules import RuleSet
from ..rulings import FreeHit, Ruling


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Match ``code`` as its stored events up to ``seq`` (whose hash is ``hash``) leave it.

    The engine's answers, copied: ``state``, the ``score`` with handicap goals, the ``free_hit`` in
    progress, ``play_at`` (when "Play" began the window), the ``options`` of a pending choice, the event
    types it ``accepted`` (:meth:`accepted_types`), the seqs a ``void`` struck, ``info``, its
    match.start as the engine checked it, its ``rules``, the defending team's violations ``waiting`` on the
    free hit, the ``clock`` as the last event left it (read at ``last_at``), whether it has ``ended`` and its
    ``winner``, and the ``officials``' record of log format 1.2 (:func:`officials_of`). Taken inside the
    store's lock on the match, so it is one consistent moment of it; nothing in it changes afterwards, and
    nothing in it can be changed (its mappings are :class:`FrozenDict`, its lists tuples), so snapshots may be
    shared freely.
    """

    code: str
    seq: int
    hash: str
    state: str
    teams: tuple[str, ...]
    score: Mapping[str, float]
    free_hit: FreeHit | None
    play_at: datetime | None
    options: tuple[Ruling, ...]
    accepted: tuple[str, ...]
    void: frozenset[int]
    info: Mapping[str, Any]
    rules: RuleSet
    waiting: tuple[Foul, ...]
    clock: Clock
    last_at: datetime
    ended: bool
    winner: str | None
    officials: Mapping[str, Any]

    @classmethod
    def of(cls, match: Match, digest: str, info: Mapping[str, Any] | None = None) -> Snapshot:
        """A snapshot of ``match`` (whose last event's hash is ``digest``); ``info`` a frozen copy of its
        match.start where one was taken already (it never changes after seq 1)."""
        return cls(code=match.start["match"], seq=match.seq, hash=digest, state=match.state, teams=tuple(match.teams),
                   score=FrozenDict(match.score), free_hit=match.free_hit, play_at=match.play_at,
                   options=tuple(match.options), accepted=tuple(match.accepted_types()), void=frozenset(match.void),
                   info=info if info is not None else frozen_info(match), rules=match.rules, waiting=match.waiting,
                   clock=match.clock, last_at=match.last_at, ended=match.ended, winner=match.winner,
                   officials=officials_of(match))

    def clock_json(self) -> dict[str, Any]:
        """The clock as the last event left it, as ``replay --json`` gives it."""
        return self.clock.to_json(self.last_at)

    def accepted_types(self) -> list[str]:
        """The event types that make sense now, in the log format's order (as :meth:`Match.accepted_types`)."""
        return list(self.accepted)


class FrozenDict(dict[str, Any]):
    """A dict that refuses every change; JSON encoders read it as the dict it is."""

    __slots__ = ()

    def _refuse(self, *_: Any, **__: Any) -> NoReturn:
        raise TypeError("a snapshot cannot be changed")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[str, Any]]]:
        return FrozenDict, (dict(self),)


def officials_of(match: Match) -> FrozenDict:
    """The officials' record of log format 1.2 as a console or review reads it: the ``review`` open (its
    review.request's seq, or None), the ``reviews``, ``challenges_left``, ``clips``, ``confirmed`` and ``queried``
    of ``replay --json``'s final object, and ``chukker_scores``: the score right after each chukker's end, which a
    confirmation logged now is compared with (by chukker, its number written as a JSON key)."""
    frozen: FrozenDict = _frozen({"review": match.review, "reviews": match.reviews,
                                  "challenges_left": match.challenges_left, "clips": match.clips,
                                  "confirmed": match.confirmed, "queried": match.queried,
                                  "chukker_scores": {str(n): score for n, score in match.chukker_scores.items()}})
    return frozen


def frozen_info(match: Match) -> FrozenDict:
    """A copy of the match's checked match.start that nothing can change: it is taken once per cached engine
    and shared by every snapshot of it (it never changes after seq 1)."""
    frozen: FrozenDict = _frozen(match.info)
    return frozen


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return FrozenDict({key: _frozen(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    return value
