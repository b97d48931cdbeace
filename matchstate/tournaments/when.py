"""When a fixture is played: its day and time, checked the one way on every path in (a fixture entered, a
fixture scheduled), and read without failing where a stored one cannot be."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

from ..errors import InvalidQuery
from .refusals import refused

MATCH_LENGTH = timedelta(hours=2)  # a fixture's block in the calendar: six chukkers and their intervals
# The one way each is written (what a browser's date and time inputs give): ISO 8601 reads more ("15", a week's
# day, an offset, seconds), and a desk would store a day and time that the calendar reads otherwise than meant.
DAY = re.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}")
TIME = re.compile("[0-9]{2}:[0-9]{2}")


def kickoff(day: str, time: str) -> datetime | None:
    """The start of a fixture played on ``day`` (YYYY-MM-DD) at ``time`` (HH:MM, the venue's; none: midnight);
    None where it has neither. Refused where they do not read as a moment, or its match would end past the last
    day a date can hold (the calendar gives each fixture its block)."""
    if not day and not time:
        return None
    if not DAY.fullmatch(day) or (time and not TIME.fullmatch(time)):
        raise refused(InvalidQuery, "when", day=day, time=time)
    try:
        start = datetime.fromisoformat(f"{day}T{time or '00:00'}")
    except ValueError:
        raise refused(InvalidQuery, "when", day=day, time=time) from None
    try:
        start + MATCH_LENGTH
    except OverflowError:
        raise refused(InvalidQuery, "when-too-late", day=day, time=time) from None
    return start


def kickoff_read(day: str, time: str) -> datetime | None:
    """``kickoff`` of a stored fixture: None where it cannot be read (stored before the door checked it), so
    the calendar and the ledger leave it unscheduled rather than fail."""
    try:
        return kickoff(day, time)
    except InvalidQuery:
        return None
