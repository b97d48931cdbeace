"""The append's one hook for the scoring seat: an automatic clock check from a console without the seat is
refused, and one from the seat is kept as the timer's (:mod:`matchstate.store.seats`).

A console marks an append as its timer's with the request header ``X-Console-Timer: device=ID;
elapsed=SECONDS`` (the device that holds the seat, the seconds since the window opened): outside the event,
whose fields the log format fixes.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request, Response
from starlette.concurrency import run_in_threadpool

from ..errors import InvalidEvent
from ..store.seats import Seats
from ..words import phrases
from .service import Service

TIMER_HEADER = "x-console-timer"
TIMER = re.compile(r"^\s*device=([\w.:-]{1,64})\s*;\s*elapsed=(\d{1,6}(?:\.\d{1,3})?)\s*$")


async def timed(request: Request, service: Service, code: str, event: dict[str, Any],
                append: Callable[[], Awaitable[Response]]) -> Response:
    """The append, where its request is the seat's timer's: refused unless the device holds the seat and the
    event is a clock check; kept as the timer's. Any other append goes straight through."""
    header = request.headers.get(TIMER_HEADER)
    if header is None:
        return await append()
    found = TIMER.match(header)
    if found is None or event.get("type") != "tick" or not isinstance(event.get("id"), str):
        raise InvalidEvent(phrases("seat", "timer-header")["en"])
    device, elapsed = found.group(1), float(found.group(2))
    seats = Seats(service.store)
    await run_in_threadpool(seats.check_timer, code, device)
    # Kept before the append, so a page that hears of the clock check finds it marked; taken back if refused.
    kept = await run_in_threadpool(seats.record_timer, code, event["id"], device, elapsed)
    try:
        answer = await append()
    except BaseException:
        if kept:
            await run_in_threadpool(seats.forget_timer, code, event["id"])
        raise
    return answer
