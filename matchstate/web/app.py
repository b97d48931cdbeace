"""The ASGI app: the API and the pages over one :class:`Service`, errors as HTTP answers, a body limit."""

from __future__ import annotations

from importlib import resources

from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..errors import (
    AccessDenied,
    ConflictError,
    DuplicateMatch,
    MatchstateError,
    MissingKey,
    RefusedEvent,
    UnknownMatch,
)
from ..log import MAX_LINE_BYTES
from ..records.archive import Archive
from ..store import Store
from . import api, apidocs, pages, stats
from .service import Service

# One event as long as the log allows, with room for the {"event": ..., "expected_seq": N} around it.
MAX_BODY_BYTES = MAX_LINE_BYTES + 1024

# The HTTP status of each of matchstate's errors, most specific first.
STATUS: list[tuple[type[MatchstateError], int]] = [
    (MissingKey, 401), (AccessDenied, 403), (UnknownMatch, 404),
    (ConflictError, 409), (DuplicateMatch, 409), (RefusedEvent, 422), (MatchstateError, 400),
]


def create_app(store: Store, *, private: bool = False) -> FastAPI:
    """The service over ``store``; with ``private``, reading a match needs one of its keys."""
    app = FastAPI(title="matchstate", version=__version__, docs_url=None, redoc_url=None,  # /docs is our own page
                  description="Live polo match state, exact to USPA Rule 36: append events, get rulings.")
    app.state.service = Service(store, private=private)
    app.state.archive = Archive(store)
    app.add_exception_handler(MatchstateError, _matchstate_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.include_router(api.router)
    app.include_router(stats.api)
    app.include_router(pages.router)
    app.include_router(stats.pages)
    app.include_router(apidocs.router)
    static = resources.files(__package__).joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    return app


async def _matchstate_error(_: Request, err: Exception) -> JSONResponse:
    status = next(code for kind, code in STATUS if isinstance(err, kind))
    body: dict[str, object] = {"detail": err.reason if isinstance(err, RefusedEvent) else str(err)}
    if isinstance(err, ConflictError):
        body["current_seq"] = err.current_seq
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(body, status_code=status, headers=headers)


async def _invalid_request(request: Request, err: Exception) -> JSONResponse:
    """A body that is not JSON at all is a 400 that says so; other invalid requests stay FastAPI's 422."""
    assert isinstance(err, RequestValidationError)
    broken = next((e for e in err.errors() if e.get("type") == "json_invalid"), None)
    if broken is not None:
        return JSONResponse({"detail": f"the body is not valid JSON: {broken.get('ctx', {}).get('error', '')}"},
                            status_code=400)
    return await request_validation_exception_handler(request, err)


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413, by its Content-Length or as it streams in."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if length.isdigit() and int(length) > self.limit:
            await JSONResponse({"detail": f"the body is over {self.limit} bytes"}, status_code=413)(
                scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.limit:
                raise HTTPException(413, f"the body is over {self.limit} bytes")
            return message

        await self.app(scope, limited, send)
