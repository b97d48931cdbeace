"""What officials do around the rulings (log format 1.2, "Reviews, video and confirmations"): the review of a
contested call and the teams' challenges, the match's video pinned to the log's time, and the confirmation
of each chukker's score, with the flags ``score-query`` and ``after-window``.

None of it changes a ruling, the score, the state, the free hit or the clock: it is kept in fields of the
:class:`~matchstate.engine.play.Play` of its own (so a void refolds it, and a checkpoint keeps it), and read by
:class:`~matchstate.engine.match.Match`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..errors import IllegalEvent
from ..events import Event, ReviewRequest
from ..words import phrases

if TYPE_CHECKING:
    from .play import Play

# The four event types of log format 1.2, accepted in every state (the free-hit machine never sees them).
OFFICIALS_EVENTS = frozenset({"video.sync", "review.request", "review.outcome", "chukker.confirm"})
# What is accepted while a review is open (a decide waits for the outcome).
WHILE_REVIEW = frozenset({"review.outcome", "void", "card", "tick", "video.sync", "clock.stop", "clock.start"})
# The play's events whose effect the officials' fields note: a chukker's end (the score to confirm), the match's.
NOTED = frozenset({"chukker.end", "match.end"})
# USPA's audit window (2021): the final period may be questioned until 15 minutes after the final whistle.
AUDIT_WINDOW_SECONDS = 900
IN_THE_WINDOW = frozenset({"void", "review.request", "chukker.confirm"})
FLAGGED = IN_THE_WINDOW  # the event types that may carry the 1.2 flags
USES_A_CHALLENGE = "stands"  # a team's review that ends so uses its challenge; the other outcomes keep it

# A review: the seq it is about, who asked, its outcome (None while open) and the seq of its outcome.
Review = tuple[int, str, str | None, int | None]
# A chukker's end: the number of the chukker it ended and the score right after it, in match.start's team order.
ChukkerEnd = tuple[int, tuple[float, ...]]
# A confirmation: its chukker, the score it confirms (team order) and the seq of the chukker.end it relies on.
Confirmation = tuple[int, tuple[float, ...], int]
# A clip's sync: the clip's second that shows the sync's `at`, that `at`, and the `at` as logged.
Sync = tuple[float, datetime, str]


def refused(key: str, /, **fields: object) -> IllegalEvent:
    """The refusal [refusal-officials] ``key``, in every language."""
    words = phrases("refusal-officials", key, **fields)
    err = IllegalEvent(words["en"])
    err.words = words
    return err


def refusal_while_review(play: Play, kind: str) -> IllegalEvent | None:
    """Why an event of type ``kind`` waits, where a review is open."""
    if play.review is None or kind in WHILE_REVIEW:
        return None
    about = play.reviews[play.review][0]
    if kind == "review.request":
        return refused("review-twice", about=about, seq=play.review)
    return refused("review-open", kind=kind, about=about, seq=play.review)


def about_refusal(event: ReviewRequest, seq: int, struck: Set[int]) -> IllegalEvent | None:
    """Why a ``review.request`` logged as ``seq`` cannot be about the event it names (judged when it is logged,
    against the events struck out then)."""
    about = event["about"]
    if about >= seq:
        return refused("about-later", about=about)
    if about == 1:
        return refused("about-start")
    if about in struck:
        return refused("about-void", about=about)
    return None


def apply(play: Play, event: Event, seq: int) -> None:
    """Apply one of the :data:`OFFICIALS_EVENTS`, logged as ``seq``, to ``play``'s officials' fields (or refuse it)."""
    if event["type"] == "video.sync":
        play.clips.pop(event["clip"], None)  # in the order of the syncs in force: the latest goes last
        play.clips[event["clip"]] = (event["clip_seconds"], event["at"], event["at_logged"])
    elif event["type"] == "review.request":
        asked_by = event["asked_by"]  # none is open: refusal_while_review saw to it
        if asked_by in play.challenges and play.challenges[asked_by] <= 0:
            raise refused("no-challenge", team=asked_by)
        play.review = seq
        play.reviews[seq] = (event["about"], asked_by, None, None)
    elif event["type"] == "review.outcome":
        if play.review is None:
            raise refused("no-review")
        about, asked_by, _, _ = play.reviews[play.review]
        play.reviews[play.review] = (about, asked_by, event["outcome"], seq)
        if asked_by in play.challenges and event["outcome"] == USES_A_CHALLENGE:
            play.challenges[asked_by] -= 1
        play.review = None
    elif event["type"] == "chukker.confirm":
        ended = latest_end(play, event["chukker"])
        if ended is None:
            raise refused("unended", chukker=event["chukker"])
        play.confirmations[seq] = (event["chukker"], _in_order(play, event["score"]), ended[0])


def note(play: Play, event: Event, seq: int, chukker_in_play: int | None) -> None:
    """Note what a chukker.end or match.end of the play, logged as ``seq``, means to the officials: the score
    right after a chukker's end (of the chukker that was in play), the match.end's `at`."""
    if event["type"] == "match.end":
        play.ended_at = event["at"]
    elif chukker_in_play is not None:
        play.chukker_ends[seq] = (chukker_in_play, tuple(play.score.values()))


def latest_end(play: Play, chukker: int) -> tuple[int, tuple[float, ...]] | None:
    """The latest chukker.end of the play that ended chukker ``chukker``: its seq and the score right after it."""
    return next(((seq, score) for seq, (number, score) in reversed(play.chukker_ends.items()) if number == chukker),
                None)


def flags(play: Play, event: Event) -> tuple[str, ...]:
    """The 1.2 flags of ``event`` (a type of :data:`FLAGGED`), judged before its own effect, in every log."""
    found: tuple[str, ...] = ()
    if event["type"] == "chukker.confirm":
        ended = latest_end(play, event["chukker"])
        if ended is not None and ended[1] != _in_order(play, event["score"]):
            found = ("score-query",)
    if play.ended_at is not None and (event["at"] - play.ended_at).total_seconds() > AUDIT_WINDOW_SECONDS:
        found += ("after-window",)
    return found


def relied_on(play: Play, seq: int) -> int | None:
    """The first confirmation standing in ``play`` that relies on the chukker.end ``seq``, if any."""
    return next((confirm for confirm, (_, _, end) in play.confirmations.items() if end == seq), None)


def _in_order(play: Play, score: Mapping[str, float]) -> tuple[float, ...]:
    return tuple(float(score[team]) for team in play.score)


# -- reading --------------------------------------------------------------------------------------------

def moment(sync: Sync, at: datetime) -> float:
    """The second of a clip that shows an event logged at ``at``, by the clip's ``sync`` (negative: before the
    clip begins)."""
    clip_seconds, synced_at, _ = sync
    return clip_seconds + (at - synced_at).total_seconds()


def clips_json(play: Play) -> list[dict[str, Any]]:
    """The clips in force, as the final object of ``replay --json`` gives them."""
    return [{"clip": clip, "clip_seconds": seconds, "at": logged}
            for clip, (seconds, _, logged) in play.clips.items()]


def reviews_json(play: Play) -> list[dict[str, Any]]:
    """Each review standing, in order, as the final object gives it."""
    return [{"seq": seq, "about": about, "asked_by": asked_by, "outcome": outcome}
            for seq, (about, asked_by, outcome, _) in sorted(play.reviews.items())]


def confirmations(play: Play) -> tuple[list[int], list[int]]:
    """The chukkers confirmed (their latest confirmation agrees with the log as it stands: the score right after
    the chukker.end it relies on, re-folded) and queried (it does not), each in chukker order. A chukker played
    again after its confirmation (flagged ``chukker-order``) has its later end confirmed by a later confirmation."""
    latest: dict[int, Confirmation] = {}
    for _, confirmation in sorted(play.confirmations.items()):
        latest[confirmation[0]] = confirmation
    confirmed: list[int] = []
    queried: list[int] = []
    for chukker, (_, score, end) in sorted(latest.items()):
        ended = play.chukker_ends.get(end)
        (confirmed if ended is not None and ended[1] == score else queried).append(chukker)
    return confirmed, queried


def withdrawn(events: Sequence[Mapping[str, Any]], struck: Set[int]) -> set[int]:
    """The review outcomes struck out with their ``review.request`` (of a whole log's ``events``, match.start
    first, where ``struck`` are the seqs that voids strike)."""
    out: set[int] = set()
    open_request: int | None = None
    for seq, event in enumerate(events, 1):
        kind = event["type"]
        if kind == "review.request":
            open_request = seq
        elif kind == "review.outcome" and seq not in struck:
            if open_request is not None and open_request in struck:
                out.add(seq)
            open_request = None
    return out
