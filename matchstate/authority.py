"""Who may log what, as the rules give it: a scorer logs play (and a team's challenge, as the team asks it); an
umpire's decision is the officials', and so are the officials' work of log format 1.2 (a review an umpire or the
referee asks, a review's outcome, a chukker's confirmed score, the video pinned to the log) and a ``void`` of what
another role recorded.

An official can always void the newest event: a void an official stamps earlier than the match's newest
event (a device clock behind the one that logged it) is stamped with that event's ``at`` instead, which the
engine accepts. The store applies :func:`admit` in the append's own transaction, with the role its key holds
there, the role that recorded the struck event and the newest event's ``at``, all read once.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from .errors import AccessDenied
from .events import OFFICIALS

SCORER, OFFICIAL = "scorer", "official"
OFFICIALS_ONLY = frozenset({"decide", "review.outcome", "chukker.confirm", "video.sync"})


def needed(event: Mapping[str, Any], target_role: str | None = None) -> str:
    """The role an event needs: an official logs :data:`OFFICIALS_ONLY`, a review the umpire or the referee asks,
    and a void of what another role recorded (``target_role``: the role that recorded the event it strikes)."""
    kind = event.get("type")
    if kind in OFFICIALS_ONLY or (kind == "void" and target_role != SCORER) or (
            kind == "review.request" and event.get("asked_by") in OFFICIALS):
        return OFFICIAL
    return SCORER


def check(role: str, need: str) -> None:
    """Refuse with :class:`AccessDenied` unless ``role`` may do what needs ``need``."""
    if need == OFFICIAL and role != OFFICIAL:
        raise AccessDenied.said("official-only")


def struck(event: Mapping[str, Any], last_seq: int) -> int | None:
    """The seq a ``void`` strikes, where the match has such an event (else the engine refuses it on its own)."""
    target = event.get("seq") if event.get("type") == "void" else None
    if isinstance(target, int) and not isinstance(target, bool) and 1 <= target <= last_seq:
        return target
    return None


def admit(event: Mapping[str, Any], role: str, target_role: str | None, newest_at: datetime) -> str | None:
    """Refuse ``event`` unless ``role`` may log it; the ``at`` it is to be stored with where that is not its own
    (an official's void stamped before ``newest_at``), else None."""
    check(role, needed(event, target_role if event.get("type") == "void" else None))
    if event.get("type") != "void" or role != OFFICIAL:
        return None
    moment = _moment(event.get("at"))
    if moment is None or moment >= newest_at:
        return None
    return newest_at.astimezone(UTC).isoformat()


def _moment(at: object) -> datetime | None:
    """An event's ``at`` as an aware time, or None where it is none (the engine refuses it, naming the field)."""
    try:
        moment = datetime.fromisoformat(at) if isinstance(at, str) else None
        return moment if moment is not None and moment.tzinfo is not None else None
    except ValueError:
        return None
