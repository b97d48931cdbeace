"""The JSON API under ``/api``: every page works through it, and FastAPI describes it at ``/openapi.json``."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, Literal
from urllib.parse import quote

import orjson
from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse, StreamingResponse
from fastapi.routing import APIRoute
from fastapi.security import HTTPBearer
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError
from starlette.concurrency import run_in_threadpool

from ..authority import OFFICIALS_ONLY
from ..errors import MatchstateError, NotFound
from ..records import EXPORTERS
from ..records.archive import Archive
from ..records.search import Filters
from ..records.tally import STATUSES
from ..store.results import Sort
from . import live
from .answers import (
    Appended,
    Created,
    Explained,
    IssuedKey,
    ListedMatch,
    MatchView,
    ReceiptsKey,
    Removed,
    RevokedKey,
    Role,
    ServerTime,
    StoredEvent,
    Verified,
    answers,
    refusals,
    refused_in_json,
)
from .assets import Asset, compressed, served
from .limits import presented_key
from .proofs import proof_fields
from .service import MAX_SEQ, Service, message
from .service import Created as Made
from .timer import timed
from .views import event_forms, rules_json

router = APIRouter(prefix="/api")


class _Bearer(HTTPBearer):
    """The key a request presents, documented in ``/openapi.json`` as HTTP bearer authentication and read by the
    server's one reading of it (:func:`limits.presented_key`: ``Authorization: Bearer KEY``, else ``?key=``)."""

    async def __call__(self, request: Request) -> str | None:  # type: ignore[override]
        return presented_key(request.scope)


bearer = _Bearer(auto_error=False, scheme_name="HTTPBearer",
                 description="The match's scorer key or official key, or the league key.")
KEY_QUERY = "The key, where no header can be sent (a browser's EventSource)."

# The refusals most routes can give (each a Refusal): a key missing or wrong, a parameter not as described, too
# many requests, the database unavailable; a read also no such match; the league's acts need the league key.
KEY_ERRORS = refusals(401, 403, 422, 429, 503)
READ_ERRORS = refusals(401, 403, 404, 422, 429, 503)
LEAGUE_ERRORS = refusals(401, 422, 429, 503, _403="The key is not the league key")
MAX_IMPORT_BYTES = 64 * 1024 * 1024
# The paths whose body is a whole match log, allowed MAX_IMPORT_BYTES: an import, and a tournament's result kept
# on paper (web.tournaments).
IMPORT_PATHS = re.compile("/api/matches/import|/api/tournaments/[^/]+/fixtures/[^/]+/import")
# An import's body: a match log in JSON Lines, read as bytes whatever its type says; described as a file too
# (application/octet-stream), the body every client generator knows how to send.
_LOG: dict[str, Any] = {"type": "string", "format": "binary",
                        "description": "A match log: one event a line (JSON Lines, UTF-8), its `match.start` first"}
IMPORT_BODY: dict[str, Any] = {"required": True, "content": {"application/jsonl": {"schema": _LOG},
                                                             "application/octet-stream": {"schema": _LOG}}}
LIST_LIMIT, MAX_LIST_LIMIT = 100, 500  # matches in a page of the list: by default, at most


# The dependencies are coroutines: a plain function would be called in a worker thread, a hop that
# costs more than reading an attribute or a header.

async def get_service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


async def get_key(presented: Annotated[str | None, Depends(bearer)],
                  key: Annotated[str | None, Query(description=KEY_QUERY)] = None) -> str | None:
    return presented  # the query's key, declared here for the docs, is read with the header, by presented_key


async def get_archive(request: Request) -> Archive:
    archive: Archive = request.app.state.archive
    return archive


ServiceDep = Annotated[Service, Depends(get_service)]
ArchiveDep = Annotated[Archive, Depends(get_archive)]
KeyDep = Annotated[str | None, Depends(get_key)]
RoleOfKey = Annotated[Literal["scorer", "official"], Path(description="The role whose key it is.")]
# Every seq a request names is one a match can have: 0 (before its first event) to MAX_SEQ.
AfterSeq = Annotated[int, Query(ge=0, le=MAX_SEQ, description="Only the events after this seq.")]


def not_bool_or_float(value: object) -> object:
    """Refuse a seq sent as true, false or a JSON number with a point (1.0), which were read as 1, 0 and 1; its digits
    as text ("2") are read as the number on purpose (a test holds it)."""
    if isinstance(value, bool | float):
        raise PydanticCustomError("int_type", "Input should be a valid integer")
    return value


class AppendRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    event: dict[str, Any] = Field(description="One event in the match log format: `type`, `at`, the device's `id` "
                                              "(a retry with the same `id` is recorded once), `by`, and its fields.")
    expected_seq: Annotated[int | None, BeforeValidator(not_bool_or_float)] = Field(
        None, ge=0, le=MAX_SEQ, description="The last seq this device has seen; if the match has moved on since, "
                                            "nothing is written and the answer is 409.")


class RemoveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reason: str = Field(min_length=1, description="Why the match is removed: kept with the act, who and when.")


@router.post("/matches", status_code=201, tags=["league"], response_model=None,
             responses={**answers(201, Created, "The match is made; its keys are shown only this once", 400,
                                  _409="A match with this code exists, or a tournament's fixture holds the code "
                                       "(its match is opened at the desk)",
                                  _413="The body is too large"),
                        **LEAGUE_ERRORS, **refusals(_422="The match.start is refused; `detail` says why")})
async def create_match(service: ServiceDep, key: KeyDep,
                       start: Annotated[dict[str, Any], Body(description="The match's `match.start` event; its "
                                                                         "`match` is the code that names it: any "
                                                                         "text but `/`, `.` and `..`.")],
                       ) -> dict[str, Any]:
    """Create a match, with the league key. The answer holds the match's scorer key and official key:
    they are shown only this once. A tournament's fixture's match is opened at the desk, under a code of its own:
    a code a fixture holds is refused here (409), its match removed or not."""
    return _created(await run_in_threadpool(service.create, start, key))


@router.post("/matches/import", status_code=201, tags=["league"], response_model=None,
             openapi_extra={"requestBody": IMPORT_BODY},
             responses={**answers(201, Created, "The match is stored; its keys are shown only this once", 400,
                                  _409="A match with this code exists", _413="The log is too large"),
                        **LEAGUE_ERRORS, **refusals(_422="A line is refused; `line` says which and `detail` why")})
async def import_match(service: ServiceDep, key: KeyDep, request: Request) -> dict[str, Any]:
    """Store a whole match log (JSON Lines, UTF-8) as a new match with keys of its own, with the league key:
    all of it, or nothing. The keys are shown only this once. A log under a code a tournament's fixture holds is
    entered as that fixture's result kept on paper is (`POST /api/tournaments/{slug}/fixtures/{id}/import`): refused
    where the desk refuses it, naming the tournament and the fixture."""
    await run_in_threadpool(service.check_league, key)  # before the body is read
    try:  # the app's body limit for this path is MAX_IMPORT_BYTES
        text = (await request.body()).decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise MatchstateError.said("log-not-utf8", error=err) from None
    return _created(await run_in_threadpool(service.import_log, text, key))


def _created(created: Made) -> dict[str, Any]:
    base = f"/matches/{quote(created.code, safe='')}"
    return {"code": created.code, "events": created.events, "scorer_key": created.scorer_key,
            "official_key": created.official_key, "match": created.match, "receipt": created.receipt,
            "links": {"console": f"{base}/console", "review": f"{base}/review", "sheet": f"{base}/sheet"}}


@router.delete("/matches/{code}", tags=["league"], response_model=None,
               responses={**answers(200, Removed, "The match is removed", 404, 400), **LEAGUE_ERRORS})
def remove_match(service: ServiceDep, key: KeyDep, code: str, body: RemoveRequest) -> dict[str, str]:
    """Remove a match and all its events, with the league key and a reason: the store keeps the act
    (who, when, why, and the head the match had), and `matchstate verify` reports it."""
    service.remove(code, body.reason, key)
    service.hub.close(code)
    return {"removed": code, "reason": body.reason}


class CorrectRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    start: dict[str, Any] = Field(description="The corrected `match.start`; its `match` is the match's code.")
    reason: str = Field(min_length=1, description="Why it is corrected: kept with the act, who and when.")


@router.put("/matches/{code}", tags=["league"], response_model=None,
            responses={**answers(200, MatchView, "The corrected match", 400, 404,
                                 _409="The match has begun: only a match not yet started is corrected"),
                       **LEAGUE_ERRORS, **refusals(_422="The match.start is refused; `detail` says why")})
def correct_match(service: ServiceDep, key: KeyDep, code: str, body: CorrectRequest) -> dict[str, Any]:
    """Correct a match not yet started (nothing logged but its `match.start`), with the league key and a
    reason: the store removes it, as a recorded act, and creates it again from the corrected `match.start`
    under the same code and with the same keys. Once it has begun, what is wrong is voided instead. A tournament's
    fixture's match is corrected only into a `match.start` the desk would have opened it with (its teams, chukkers,
    goals by handicap...): else 400, naming the tournament and the fixture."""
    return service.correct(code, body.start, body.reason, key)


@router.post("/matches/{code}/keys/{role}", status_code=201, tags=["league"], response_model=None,
             responses={**answers(201, IssuedKey, "The new key", 404), **LEAGUE_ERRORS})
def issue_key(service: ServiceDep, key: KeyDep, code: str, role: RoleOfKey) -> dict[str, str]:
    """A new scorer or official key for the match, with the league key; shown only this once. The key the
    role had before opens nothing from now on, on every server of the database."""
    return {"code": code, "role": role, "key": service.issue_key(code, role, key)}


@router.delete("/matches/{code}/keys/{role}", tags=["league"], response_model=None,
               responses={**answers(200, RevokedKey, "The key is revoked", 404), **LEAGUE_ERRORS})
def revoke_key(service: ServiceDep, key: KeyDep, code: str, role: RoleOfKey) -> dict[str, str]:
    """Revoke the match's scorer or official key, with the league key: from now on it opens nothing, on
    every server of the database, until a new one is issued."""
    service.revoke_key(code, role, key)
    return {"code": code, "role": role, "revoked": role}


@router.get("/receipts/key", tags=["reference"], response_model=None,
            responses=answers(200, ReceiptsKey, "The receipts' public key", 429, 503))
def receipts_key(service: ServiceDep) -> dict[str, str]:
    """The public key that checks every receipt the store signs (Ed25519): raw in base64, its fingerprint
    (each receipt's `key`), and as PEM."""
    return service.receipts_key()


@router.get("/matches", tags=["matches"], response_model=None,
            responses={**answers(200, list[ListedMatch], "A page of the matches",
                                 _400="A filter cannot be read"), **KEY_ERRORS})
def list_matches(service: ServiceDep, archive: ArchiveDep, key: KeyDep, response: Response, team: str = "",
                 event: str = "", venue: str = "",
                 player: str = Query("", description="a name from the rosters"),
                 date: str = Query("", description="YYYY, YYYY-MM or YYYY-MM-DD"),
                 status: str = Query("", description=" or ".join(STATUSES)), state: str = "",
                 sort: Annotated[Sort, Query(description="`created` (oldest first), `-created` (newest first), "
                                                         "`code` or `-code`")] = "created",
                 limit: Annotated[int, Query(ge=1, le=MAX_LIST_LIMIT, description="matches in this page")] = LIST_LIMIT,
                 offset: Annotated[int, Query(ge=0, le=MAX_SEQ, description="matches skipped before it")] = 0,
                 cursor: Annotated[str | None, Query(description="the page after this match (a page's "
                                                                 "`X-Next-Cursor`)")] = None,
                 ) -> list[dict[str, Any]]:
    """A page of the matches, with score, state and standing (scheduled, in play, finished with the winner);
    each text filter finds every one of its words, whatever the case and accents; the date matches by its
    start. Where more matches follow, the `X-Next-Cursor` header is the `cursor` of the next page, URL-encoded
    (as fast at any depth), and `X-Next-Offset` its `offset`. A match whose stored row cannot be read back is in
    its place as `unreadable`, with what is said of it (`matchstate verify` says what was changed).
    On a private server, for the league key only."""
    service.check_list(key)
    filters = Filters(team, event, venue, player, date, status, state)
    found = archive.matches(filters, sort=sort, limit=limit + 1, offset=offset, after=cursor)
    if len(found) > limit:
        response.headers["X-Next-Offset"] = str(offset + limit)
        response.headers["X-Next-Cursor"] = quote(found[limit - 1].code, safe="")  # as it goes in a URL
    return [match.to_json() for match in found[:limit]]


@router.get("/matches/{code}", tags=["matches"], response_model=None,
            responses={**answers(200, MatchView, "The match now"), **READ_ERRORS})
def read_match(service: ServiceDep, key: KeyDep, code: str) -> dict[str, Any]:
    """The match now: state, score, free hit in progress, pending options, and the event types it accepts."""
    service.check_read(code, key)
    return service.view(code)


@router.get("/matches/{code}/role", tags=["matches"], response_model=None,
            responses={**answers(200, Role, "The key's role"), **READ_ERRORS})
def read_role(service: ServiceDep, key: KeyDep, code: str) -> dict[str, Any]:
    """The role the key holds on the match, `scorer`, `official` or `league`: what a page may offer its holder."""
    return {"role": service.role(code, key), "official_only": sorted(OFFICIALS_ONLY)}


@router.get("/matches/{code}/events", tags=["events"], response_model=None,
            responses={**answers(200, list[StoredEvent], "The events after `after_seq`"), **READ_ERRORS})
def read_events(service: ServiceDep, key: KeyDep, code: str, after_seq: AfterSeq = 0) -> list[dict[str, Any]]:
    """The log after ``after_seq``: each event as received, its ruling, who recorded it, and when."""
    service.check_read(code, key)
    return service.events(code, after_seq)


@router.post("/matches/{code}/events", status_code=201, tags=["events"], response_model=None,
             responses={**answers(201, Appended, "The event is recorded: its seq, ruling, the stored event, the "
                                  "match after it, its receipt, and the league log's signed checkpoint and "
                                  "inclusion proof that hold it"),
                        **answers(200, Appended, "A retry of an event already recorded: the same answer"),
                        **READ_ERRORS,
                        **refusals(413, _400="The body is not JSON, or nests too deep",
                                   _409="`expected_seq` is stale; `current_seq` is the match's last seq",
                                   _422="The body is not as described, or the engine refuses the event; "
                                        "`detail` says why")},
             # The route reads its request itself (the API's hot path, served by web.lane ahead of the router, with
             # no dependencies or body model to solve): what it reads is described here as FastAPI would describe
             # the parameters.
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {
                                "schema": AppendRequest.model_json_schema()}}},
                            "parameters": [{"name": "key", "in": "query", "required": False,
                                            "description": KEY_QUERY, "schema": {"type": "string"}},
                                           {"name": "X-Console-Timer", "in": "header", "required": False,
                                            "description": "`device=ID; elapsed=SECONDS`: a clock check the "
                                                           "console's timer logged, not a person (only the device "
                                                           "holding the match's scoring seat may: else 409)",
                                            "schema": {"type": "string"}}],
                            "security": [{bearer.scheme_name: []}]})
async def append_event(request: Request, code: str) -> Response:
    """Append one event and get its ruling. Needs the scorer or official key; deciding a choice, and
    voiding an event another role recorded, need the official key."""
    event, expected_seq = read_append(await request.body())
    service = request.app.state.service
    return await timed(request, service, code, event,  # the seat's one hook: its timer's clock checks
                             lambda: append(service, code, event, expected_seq, presented_key(request.scope)))


def lane_routes() -> list[APIRoute]:
    """The routes the app serves ahead of FastAPI's router (:mod:`.lane`): the append's, which reads its request
    itself."""
    return [route for route in router.routes if isinstance(route, APIRoute) and route.endpoint is append_event]


def read_append(body: bytes) -> tuple[dict[str, Any], int | None]:
    """The event and ``expected_seq`` of an append's body, read once; a body that is not JSON, or not as
    :class:`AppendRequest` describes it, is refused as FastAPI refuses any route's body (answered by the
    app's handler of :class:`RequestValidationError`: 400 for no JSON, else 422 naming each field). A key given twice
    in one object is refused before, at every door (:func:`~matchstate.web.app.check_body`)."""
    try:
        asked = orjson.loads(body)
    except orjson.JSONDecodeError as err:
        raise RequestValidationError([{"type": "json_invalid", "loc": ("body", err.pos), "msg": "JSON decode error",
                                       "input": {}, "ctx": {"error": err.msg}}]) from err
    try:
        read = AppendRequest.model_validate(asked)
    except ValidationError as err:
        raise RequestValidationError([{**error, "loc": ("body", *error["loc"])} for error in err.errors()]) from err
    return read.event, read.expected_seq


async def append(service: Service, code: str, event: dict[str, Any], expected_seq: int | None,
                 key: str | None) -> Response:
    """The append and its answer. The answer is JSON the service made: written as it is, with no response
    model to check it against."""
    recorded = await run_in_threadpool(service.append, code, event, expected_seq, key)
    if not recorded.duplicate and service.hub.listeners(code):  # the message is made only for open streams
        service.hub.publish(code, message(recorded.event, recorded.match))
    answer = {"seq": recorded.event["seq"], "ruling": recorded.event["ruling"], "duplicate": recorded.duplicate,
              "event": recorded.event, "match": recorded.match, "receipt": recorded.receipt,
              **proof_fields(recorded.receipt)}
    return Response(orjson.dumps(answer), status_code=200 if recorded.duplicate else 201,
                    media_type="application/json")


@router.get("/matches/{code}/stream", tags=["events"], response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                             "description": "Server-sent events: each `append` message's data is "
                                            "`{event, match}`, its id the event's seq."}, **READ_ERRORS})
def stream_events(service: ServiceDep, key: KeyDep, code: str, after_seq: AfterSeq = 0,
                  last_event_id: Annotated[int | None, Header(ge=0, le=MAX_SEQ)] = None) -> StreamingResponse:
    """Every event after ``after_seq`` (or the ``Last-Event-ID`` a reconnecting browser sends), then each new one."""
    service.check_read(code, key)
    start = max(after_seq, last_event_id or 0)
    return StreamingResponse(live.stream(service.hub, code, start, service.messages), media_type="text/event-stream",
                             headers=live.HEADERS)


@router.get("/matches/{code}/rulings/{seq}", tags=["events"], response_model=None,
            responses={**answers(200, Explained, "The ruling explained"), **READ_ERRORS,
                       **refusals(_404="No such match, or no event with that seq")})
async def explain_ruling(service: ServiceDep, key: KeyDep, code: str,
                         seq: Annotated[int, Path(ge=1, le=MAX_SEQ)]) -> dict[str, Any]:
    """An event's ruling with the events that led to it and the text of every clause it cites, in both languages."""
    await run_in_threadpool(service.check_read, code, key)
    explained = await service.explain(code, seq)
    if explained is None:
        raise NotFound.said("no-seq", seq=seq)
    return explained


@router.get("/matches/{code}/verify", tags=["matches"], response_model=None,
            responses={**answers(200, Verified, "What the check found"), **READ_ERRORS})
async def verify_match(service: ServiceDep, key: KeyDep, code: str) -> dict[str, Any]:
    """Whether the hash chain holds and every stored ruling is what the engine rules now, checked as asked:
    `problems` says what is wrong, `bad_seq` names the first event found changed, removed or misruled."""
    await run_in_threadpool(service.check_read, code, key)
    return await service.verify(code)


@router.get("/matches/{code}/log.{format}", tags=["records"], response_class=PlainTextResponse,
             responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                              "description": "The log, as a file to download"},
                        **refused_in_json({**KEY_ERRORS, **refusals(_404="No such match, or no such format")})})
def export_log(service: ServiceDep, key: KeyDep, code: str,
               format: Annotated[str, Path(description=", ".join(f"`{name}`: {exporter.description}"
                                                                 for name, exporter in EXPORTERS.items()))],
               ) -> PlainTextResponse:
    """The match log, exported: `jsonl` gives each line exactly as it was received, `csv` one row per event."""
    exporter = EXPORTERS.get(format)
    if exporter is None:
        raise NotFound.said("no-format", format=repr(format), formats=", ".join(EXPORTERS))
    service.check_read(code, key)
    return download(exporter.exported(service.store, code), f"{code}.{exporter.name}", exporter.media_type)


def download(text: str, filename: str, media_type: str) -> PlainTextResponse:
    safe = re.sub(r"[^\w.-]", "_", filename, flags=re.ASCII)
    return PlainTextResponse(text, media_type=media_type,
                             headers={"Content-Disposition": f'attachment; filename="{safe}"'})


# The reference answers: they change only with the package, so each is made and compressed once, as the static
# files are, and a browser's copy is asked again by its ETag.
REFERENCE: dict[str, Callable[[], object]] = {"event-types": event_forms, "rules": rules_json}


@cache
def reference(name: str) -> tuple[Asset, str]:
    """The reference answer ``name`` as served, and its ETag."""
    found = compressed("application/json", orjson.dumps(REFERENCE[name]()))
    return found, hashlib.sha256(found.plain).hexdigest()[:16]


def reference_answer(name: str, request: Request) -> Response:
    found, tag = reference(name)
    return served(found, tag, request.headers.get("accept-encoding", ""), request.headers.get("if-none-match"),
                  "no-cache")


@router.get("/event-types", tags=["reference"], responses=refusals(429),
            response_model=dict[str, list[dict[str, Any]]])
def event_types(request: Request) -> Response:
    """Each event type's fields (name, kind, required, default, choices), for building forms."""
    return reference_answer("event-types", request)


@router.get("/rules", tags=["reference"], responses=refusals(429), response_model=dict[str, dict[str, dict[str, str]]])
def rules(request: Request) -> Response:
    """Every clause and table cell of Rule 36 that rulings cite, in English and Spanish."""
    return reference_answer("rules", request)


@router.get("/time", tags=["reference"], response_model=None,
            responses=answers(200, ServerTime, "The server's clock", 429))
def server_time() -> dict[str, str]:
    """The server's clock, UTC to the millisecond: a console measures its own clock's offset from it."""
    return {"now": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")}
