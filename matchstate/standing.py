"""A match's standing (scheduled, in play, finished) and text as the match list compares it: the words the
store's listing columns and the records' search share, so that neither imports the other."""

from __future__ import annotations

import unicodedata

SCHEDULED, IN_PLAY, FINISHED = "scheduled", "in_play", "finished"
STATUSES = (SCHEDULED, IN_PLAY, FINISHED)


def status_of(started: bool, ended: bool) -> str:
    """Scheduled (no chukker started), in play, or finished (a match.end stands)."""
    return FINISHED if ended else IN_PLAY if started else SCHEDULED


def fold(text: str) -> str:
    """Text as search compares it: case folded, accents dropped ("Aráoz" and "araoz" are one)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))
