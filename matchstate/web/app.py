"""The ASGI app: the API and the pages over one :class:`Service`, errors as HTTP answers, limits on
requests (rates, streams, a body's size and nesting)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator

import orjson
from fastapi import FastAPI, HTTPException, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.telemetry import TelemetryConfig
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .. import __version__
from ..errors import (
    AccessDenied,
    AlreadyLogged,
    ConflictError,
    DatabaseUnavailable,
    DuplicateMatch,
    MatchstateError,
    MissingKey,
    NotFound,
    RefusedEvent,
    SeatNotHeld,
    TournamentChanged,
    UnknownMatch,
)
from ..log import MAX_LINE_BYTES, nesting, not_json, refuse_repeated_keys
from ..records.archive import Archive
from ..store import Store
from ..words import phrases
from . import api, apidocs, assets, ops, pages, proofs, seats, stats, tournaments
from .compression import MINIMUM_BYTES, Compression
from .faults import RETRY_AFTER_SECONDS, DatabaseFaults
from .headers import SecurityHeaders
from .lane import Lane
from .limits import Limits, RequestLimits
from .service import CLOCK_TOLERANCE_SECONDS, Service
from .templating import LanguageVary
from .watch import watch
from .witnessing import Witnessing

# One event as long as the log allows, with room for the {"event": ..., "expected_seq": N} around it.
MAX_BODY_BYTES = MAX_LINE_BYTES + 1024
# No event nests deeper than a roster ({"event": {"rosters": {team: [{player}]}}} is 5 deep); a parser
# would go on to hundreds, and run out of stack somewhere past that.
MAX_BODY_DEPTH = 32

# FastAPI's own OpenTelemetry off: the server's metrics are its own (/metrics, web.metrics), and FastAPI's asks the
# environment for OpenTelemetry's providers on every request, some 0.1 ms of CPU, to find none.
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}

# The HTTP status of each of matchstate's errors, most specific first.
STATUS: list[tuple[type[MatchstateError], int]] = [
    (DatabaseUnavailable, 503), (MissingKey, 401), (AccessDenied, 403), (UnknownMatch, 404), (NotFound, 404),
    (ConflictError, 409), (TournamentChanged, 409), (DuplicateMatch, 409), (SeatNotHeld, 409), (AlreadyLogged, 409),
    (RefusedEvent, 422),
    (MatchstateError, 400),
]


def create_app(store: Store, *, private: bool = False, limits: Limits | None = None,
               clock_tolerance: float = CLOCK_TOLERANCE_SECONDS, hosts: frozenset[str] | None = None,
               witnessing: Witnessing | None = None) -> FastAPI:
    """The service over ``store``; with ``private``, reading a match needs one of its keys. ``limits``
    caps each client's requests and streams; an event more than ``clock_tolerance`` seconds ahead of
    the server's clock is refused; a request whose Host is not one of ``hosts`` (where given) is refused;
    ``witnessing`` sends the league log's checkpoints to witnesses (:mod:`.witnessing`)."""
    service = Service(store, private=private, clock_tolerance=clock_tolerance)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        tasks = [asyncio.create_task(watch(service))]  # the appends other server processes make
        if witnessing is not None:
            tasks.append(asyncio.create_task(witnessing.run()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    app = FastAPI(title="matchstate", version=__version__, docs_url=None, redoc_url=None,  # /docs is our own page
                  description="Live polo match state, exact to USPA Rule 36: append events, get rulings.",
                  lifespan=lifespan, telemetry=NO_TELEMETRY)
    app.state.service = service
    app.state.archive = Archive(store)
    app.add_exception_handler(MatchstateError, _matchstate_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(BodyRefused, _body_refused)
    app.include_router(api.router)
    app.include_router(proofs.router)
    app.include_router(seats.api)
    app.include_router(stats.api)
    app.include_router(pages.router)
    app.include_router(stats.pages)
    app.include_router(apidocs.router)
    app.include_router(tournaments.api)
    app.include_router(tournaments.pages)
    app.include_router(assets.router)  # the static files, compressed ahead and versioned
    app.add_middleware(Lane, routes=api.lane_routes(), handlers=app.exception_handlers)  # inside every middleware
    app.add_middleware(LanguageVary)  # inside the compression, which names Accept-Encoding after it in one Vary
    app.add_middleware(Compression, minimum_size=MINIMUM_BYTES)  # as the client takes it
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES, larger=(api.IMPORT_PATHS, api.MAX_IMPORT_BYTES))
    app.add_middleware(DatabaseFaults, seconds=store.database.timeout)
    if witnessing is not None:  # its routes, and its refusal of writes outside the database's (not a fault of it)
        witnessing.mount(app)
    app.add_middleware(RequestLimits, limits=limits or Limits(), holds_role=store.key_holds_a_role)  # a refused
    # client costs least; outside it the operator's routes (setup, manifest, health) and HEAD and the metrics,
    # which count every request; outermost the headers every answer has.
    ops.mount(app)
    app.add_middleware(SecurityHeaders, hosts=hosts)
    return app


async def _matchstate_error(request: Request, err: Exception) -> Response:
    assert isinstance(err, MatchstateError)
    answer = error_answer(err)
    if pages.navigated(request):  # a page opened in a browser: the reason in words, where it showed raw JSON
        kept = {name: answer.headers[name] for name in ("Retry-After", "WWW-Authenticate") if name in answer.headers}
        return pages.refused_page(request, answer.status_code, err.worded(), str(err), kept or None)
    return answer


async def _http_error(request: Request, err: Exception) -> Response:
    """An address no route takes, opened in a browser: a page that says so; anything else as FastAPI answers it."""
    assert isinstance(err, StarletteHTTPException)
    if err.status_code == 404 and pages.navigated(request):
        return pages.refused_page(request, 404, phrases("page", "not-found"), str(err.detail))
    return await http_exception_handler(request, err)


def error_answer(err: MatchstateError) -> JSONResponse:
    """The answer to one of matchstate's errors: its status, its reason, and what else the client needs."""
    status = next(code for kind, code in STATUS if isinstance(err, kind))
    body = err.body()  # a refusal's reason, after its line where it has one
    if isinstance(err, RefusedEvent) and err.line is not None:
        body["line"] = err.line
    if isinstance(err, ConflictError):
        body["current_seq"] = err.current_seq
    if isinstance(err, TournamentChanged):
        body["version"] = err.version
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if status == 503:
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    return JSONResponse(body, status_code=status, headers=headers)


async def _invalid_request(request: Request, err: Exception) -> JSONResponse:
    """A body that is not JSON at all is a 400 that says so; other invalid requests are 422s listing, as
    FastAPI does, each error's type, place and message (not the value sent, which may be no JSON: NaN)."""
    assert isinstance(err, RequestValidationError)
    broken = next((e for e in err.errors() if e.get("type") == "json_invalid"), None)
    if broken is not None:
        at = broken["loc"][-1] if isinstance(broken["loc"][-1], int) else 0  # where the parser stopped reading
        body = (await request.body()).decode("utf-8", "replace")  # UTF-8 (check_body): at counts its characters
        refused = not_json("body-json", broken.get("ctx", {}).get("error", ""), at, body)
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
    """Refuse a request body over ``limit`` bytes with 413 (``larger``: a pattern of paths, and their larger limit),
    by its Content-Length or as it streams in; one :func:`check_body` refuses, before any route reads it;
    and, with 400, an address holding a NUL, which no code, team or date has
    and PostgreSQL refuses in any text (it answered 500)."""

    def __init__(self, app: ASGIApp, limit: int, larger: tuple[re.Pattern[str], int]) -> None:
        self.app = app
        self.limit = limit
        self.larger_paths, self.larger = larger

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if "\x00" in scope["path"] or b"%00" in scope["query_string"]:
            await BodyRefused(400, MatchstateError.said("nul-in-address")).answer()(scope, receive, send)
            return
        limit = self.larger if self.larger_paths.fullmatch(scope["path"]) else self.limit
        length = dict(scope["headers"]).get(b"content-length", b"0")
        if length.isdigit() and int(length) > limit:
            await BodyRefused(413, MatchstateError.said("body-large", limit=limit)).answer()(scope, receive, send)
            return
        body = bytearray()
        # A larger body (an import's) is JSON Lines, each line read and checked as a log's; a GET's or a HEAD's is
        # read by no route, and a live stream's receive() goes on after its answer has begun.
        unchecked = limit == self.limit and scope["method"] not in ("GET", "HEAD")

        async def limited() -> Message:
            nonlocal unchecked
            message = await receive()
            body.extend(message.get("body", b""))
            if len(body) > limit:
                raise BodyRefused(413, MatchstateError.said("body-large", limit=limit))
            if unchecked and message["type"] == "http.request" and not message.get("more_body", False):
                unchecked = False
                await check_body(bytes(body))
            return message

        await self.app(scope, limited, send)


async def check_body(body: bytes) -> None:
    """Refuse, as :class:`BodyRefused`, a whole body (not an import's) whose JSON nests deeper than
    :data:`MAX_BODY_DEPTH`, that is not UTF-8 (RFC 8259's one encoding for JSON between systems: a parser that
    read UTF-16 left the checks after it reading another text), or whose JSON holds a key twice in one object
    (every door: readers disagree on which of the two counts). A body that is no JSON is left to its route."""
    if (depth := await body_depth(body)) > MAX_BODY_DEPTH:
        raise BodyRefused(400, MatchstateError.said("body-deep", depth=depth, most=MAX_BODY_DEPTH))
    try:
        text = body.decode("utf-8")  # decoded once: the repeated keys' check reads the text
    except UnicodeDecodeError as err:
        raise BodyRefused(400, MatchstateError.said("body-utf8", at=err.start + 1)) from None
    if not body.strip():
        return
    try:
        decoded = orjson.loads(text)
    except orjson.JSONDecodeError:  # a route's own parser may take it (a byte-order mark, NaN): read strictly
        text, decoded = text.removeprefix("\ufeff"), None
    try:
        refuse_repeated_keys(text, decoded)
    except RefusedEvent as err:
        raise BodyRefused(422, err) from None


async def body_depth(body: bytes) -> int:
    """:func:`~matchstate.log.nesting`, at once where the body has too few brackets to nest too deep (every append
    as consoles send it), else in a thread: a body of brackets costs the event loop nothing."""
    if body.count(b"[") + body.count(b"{") <= MAX_BODY_DEPTH:
        return 0
    return await run_in_threadpool(nesting, body)
