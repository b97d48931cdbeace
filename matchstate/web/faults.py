"""The database failing under a request: a 503 in the API's refusal shape, never a bare 500.

Every wait on the database is bounded (:mod:`matchstate.store.database`), so a request whose database is
silent, full or read-only fails in time; :class:`DatabaseFaults` answers it ``503`` with ``Retry-After`` and
the reason in every language, and logs one line for it, not a traceback. A server process recovers by
itself: the failed connection was dropped, and the next request opens a fresh one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import MatchstateError
from ..store.database import deadline, driver_said, unavailable
from ..words import phrases

IMPORT_PATH = "/api/matches/import"
RETRY_AFTER_SECONDS = 5  # what a 503 tells its client to wait before asking again

log = logging.getLogger(__name__)


class DatabaseFaults:
    """ASGI middleware: a request that fails because the database is unavailable is answered 503; each request
    (but a live stream's and an import's, which take as long as they take) is done with the database within
    ``seconds`` in all."""

    def __init__(self, app: ASGIApp, seconds: float) -> None:
        self.app = app
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False
        path: str = scope["path"]

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if message["status"] == 503:  # a DatabaseUnavailable, answered by the app's own handler
                    log.warning("%s %s: 503, the database is unavailable: no answer in time", scope["method"], path)
            await send(message)

        try:
            if path.endswith("/stream") or path == IMPORT_PATH:
                await self.app(scope, receive, sending)
            else:
                with deadline(self.seconds):
                    await self.app(scope, receive, sending)
        except Exception as err:
            if started or not unavailable(err):
                raise
            log.warning("%s %s: 503, the database is unavailable: %s", scope["method"], path, driver_said(err))
            await send_unavailable(send)


@contextmanager
def said_if_unavailable(what: str) -> Iterator[None]:
    """Within it, an error that says the database is unavailable ends the work with one line logged (``what``
    is left undone), not a traceback; any other error goes on up. For work whose answer has begun, or that no
    request waits for: a request's own is answered 503 by :class:`DatabaseFaults`."""
    try:
        yield
    except Exception as err:
        if not unavailable(err):
            raise
        log.warning("%s: the database is unavailable: %s", what, driver_said(err))




def fault_body(phrase: str, **fields: object) -> bytes:
    """The JSON of a refusal said by the ``faults`` ``phrase``, as the app's handlers answer one (``detail`` and
    ``words``), for an answer made outside them."""
    return orjson.dumps(MatchstateError.worded_as(phrases("faults", phrase, **fields)).body())


async def send_unavailable(send: Send) -> None:
    """Send the answer to a request the database could not serve."""
    body = fault_body("database-failed")
    await send({"type": "http.response.start", "status": 503,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"retry-after", str(RETRY_AFTER_SECONDS).encode())]})
    await send({"type": "http.response.body", "body": body})
