"""The ASGI app: the API and the pages over one :class:`Service`, errors as HTTP answers, limits on
requests (rates, streams, a body's size and nesting)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from importlib import resources
from typing import Any

import orjson
from fastapi import FastAPI, HTTPException, Request
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
    NotFound,
    RefusedEvent,
    UnknownMatch,
)
from ..log import MAX_LINE_BYTES
from ..records.archive import Archive
from ..store import Store
from ..words import phrases
from . import api, apidocs, ops, pages, stats
from .limits import Limits, RequestLimits
from .service import CLOCK_TOLERANCE_SECONDS, MAX_SEQ, Service
from .watch import watch

# One event as long as the log allows, with room for the {"event": ..., "expected_seq": N} around it.
MAX_BODY_BYTES = MAX_LINE_BYTES + 1024
# No event nests deeper than a roster ({"event": {"rosters": {team: [{player}]}}} is 5 deep); a parser
# would go on to hundreds, and run out of stack somewhere past that.
MAX_BODY_DEPTH = 32

# The HTTP status of each of matchstate's errors, most specific first.
STATUS: list[tuple[type[MatchstateError], int]] = [
    (MissingKey, 401), (AccessDenied, 403), (UnknownMatch, 404), (NotFound, 404),
    (ConflictError, 409), (DuplicateMatch, 409), (RefusedEvent, 422), (MatchstateError, 400),
]


def create_app(store: Store, *, private: bool = False, limits: Limits | None = None,
               clock_tolerance: float = CLOCK_TOLERANCE_SECONDS) -> FastAPI:
    """The service over ``store``; with ``private``, reading a match needs one of its keys. ``limits``
    caps each client's requests and streams; an event more than ``clock_tolerance`` seconds ahead of
    the server's clock is refused."""
    service = Service(store, private=private, clock_tolerance=clock_tolerance)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        watching = asyncio.create_task(watch(service))  # the appends other server processes make
        try:
            yield
        finally:
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching

    app = FastAPI(title="matchstate", version=__version__, docs_url=None, redoc_url=None,  # /docs is our own page
                  description="Live polo match state, exact to USPA Rule 36: append events, get rulings.",
                  lifespan=lifespan)
    app.state.service = service
    app.state.archive = Archive(store)
    app.add_exception_handler(MatchstateError, _matchstate_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(BodyRefused, _body_refused)
    app.include_router(api.router)
    app.include_router(stats.api)
    app.include_router(pages.router)
    app.include_router(stats.pages)
    app.include_router(apidocs.router)
    static = resources.files(__package__).joinpath("static")
    app.mount("/static", StaticFiles(directory=str(static)), name="static")
    app.add_middleware(PlainAppends, service=service)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, larger={"/api/matches/import": api.MAX_IMPORT_BYTES})
    app.add_middleware(RequestLimits, limits=limits or Limits())  # a refused client costs least
    ops.mount(app)  # the operator's routes (setup, manifest, health) and, outermost, HEAD and the metrics
    return app


async def _matchstate_error(_: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, MatchstateError)
    return error_answer(err)


def error_answer(err: MatchstateError) -> JSONResponse:
    """The answer to one of matchstate's errors: its status, its reason, and what else the client needs."""
    status = next(code for kind, code in STATUS if isinstance(err, kind))
    body = err.body()  # a refusal's reason, after its line where it has one
    if isinstance(err, RefusedEvent) and err.line is not None:
        body["line"] = err.line
    if isinstance(err, ConflictError):
        body["current_seq"] = err.current_seq
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse(body, status_code=status, headers=headers)


async def _invalid_request(_: Request, err: Exception) -> JSONResponse:
    """A body that is not JSON at all is a 400 that says so; other invalid requests are 422s listing, as
    FastAPI does, each error's type, place and message (not the value sent, which may be no JSON: NaN)."""
    assert isinstance(err, RequestValidationError)
    broken = next((e for e in err.errors() if e.get("type") == "json_invalid"), None)
    if broken is not None:
        refused = MatchstateError.said("body-json", error=broken.get("ctx", {}).get("error", ""))
        return JSONResponse(refused.body(), status_code=400)
    errors = [{"type": e["type"], "loc": list(e["loc"]), "msg": e["msg"]} for e in err.errors()]
    fields = ", ".join(dict.fromkeys(".".join(map(str, e["loc"])) for e in errors))
    return JSONResponse({"detail": errors, "words": phrases("refusal", "request", fields=fields)}, status_code=422)


class BodyRefused(HTTPException):
    """A body refused as it streams in, answered as matchstate's errors are (``detail`` and ``words``). An
    HTTPException, the one kind FastAPI lets through from reading a body (it makes any other a bare 400)."""

    def __init__(self, status: int, refusal: MatchstateError) -> None:
        super().__init__(status, str(refusal))
        self.refusal = refusal

    def answer(self) -> JSONResponse:
        return JSONResponse(self.refusal.body(), status_code=self.status_code)


async def _body_refused(_: Request, err: Exception) -> JSONResponse:
    assert isinstance(err, BodyRefused)
    return err.answer()


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with 413 (over ``larger[path]`` for the paths given), by
    its Content-Length or as it streams in; and one whose JSON nests deeper than :data:`MAX_BODY_DEPTH`
    with 400, before anything parses it."""

    def __init__(self, app: ASGIApp, limit: int, larger: dict[str, int]) -> None:
        self.app = app
        self.limit = limit
        self.larger = larger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.limit)
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if length.isdigit() and int(length) > limit:
            await BodyRefused(413, MatchstateError.said("body-large", limit=limit)).answer()(scope, receive, send)
            return
        body = bytearray()

        async def limited() -> Message:
            message = await receive()
            body.extend(message.get("body", b""))
            if len(body) > limit:
                raise BodyRefused(413, MatchstateError.said("body-large", limit=limit))
            if not message.get("more_body", False) and (depth := nesting(bytes(body))) > MAX_BODY_DEPTH:
                raise BodyRefused(400, MatchstateError.said("body-deep", depth=depth, most=MAX_BODY_DEPTH))
            return message

        await self.app(scope, limited, send)


APPEND_PATH = re.compile(r"^/api/matches/([^/]+)/events$")


class PlainAppends:
    """The append, the API's hot path, taken the short way: a request as every console sends it (a bearer key,
    a JSON object with an ``event`` object and an integer ``expected_seq`` or none) is appended here, without
    FastAPI's routing, dependencies and validation, which cost more than the rest of the server's part of
    an append. Any other request to the path goes on to the route, which answers it as ever (a 422 names
    what is wrong); both answer through :func:`api.append`. Inside :class:`BodyLimit`, whose refusals of
    the body are answered here as the routes answer them."""

    def __init__(self, app: ASGIApp, service: Service) -> None:
        self.app = app
        self.service = service

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = APPEND_PATH.match(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        if found is None:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        try:
            while True:
                message = await receive()
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    break
        except BodyRefused as err:
            await err.answer()(scope, receive, send)
            return
        body = b"".join(chunks)
        plain = _plain_append(scope, body)
        if plain is None:
            await self.app(scope, _replaying(body, receive), send)
            return
        try:
            answer = await api.append(self.service, found[1], *plain)
        except MatchstateError as err:
            answer = error_answer(err)
        await answer(scope, receive, send)


def _plain_append(scope: Scope, body: bytes) -> tuple[dict[str, Any], int | None, str | None] | None:
    """The event, ``expected_seq`` and key of an append asked as the route reads them, where nothing in the
    request could make the route read it otherwise; else None."""
    authorization = content_type = None
    for name, value in scope["headers"]:
        if name == b"authorization" and authorization is None:
            authorization = value
        elif name == b"content-type" and content_type is None:
            content_type = value
    if content_type is None or content_type.partition(b";")[0].strip().lower() != b"application/json":
        return None
    key = None
    if authorization is not None:  # as FastAPI's HTTPBearer reads it
        scheme, _, credentials = authorization.decode("latin-1").partition(" ")
        if scheme.lower() == "bearer" and credentials.strip():
            key = credentials.strip()
    if key is None and scope["query_string"]:  # a ?key= maybe: the route reads it
        return None
    try:
        asked = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(asked, dict) or not isinstance(event := asked.get("event"), dict):
        return None
    expected = asked.get("expected_seq")
    if expected is not None and (type(expected) is not int or not 0 <= expected <= MAX_SEQ):
        return None
    return event, expected, key


def _replaying(body: bytes, receive: Receive) -> Receive:
    """``receive``, after giving the body already read once more."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}
    return replayed


_STRUCTURE = re.compile(rb'[\[\]{}"\\]')


def nesting(text: bytes) -> int:
    """How deep the arrays and objects of a JSON text nest, read without parsing it (brackets inside
    strings do not count); for a text that is not JSON, a number the parser's error makes moot."""
    depth = deepest = 0
    in_string, escaped = False, -1
    for found in _STRUCTURE.finditer(text):
        at = found.start()
        char = text[at]
        if at == escaped:
            continue
        if in_string:
            if char == 0x5C:  # a backslash: the next byte is escaped
                escaped = at + 1
            elif char == 0x22:
                in_string = False
        elif char == 0x22:
            in_string = True
        elif char in b"[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in b"]}":
            depth -= 1
    return deepest
