"""The JSON API under ``/api``: every page works through it, and FastAPI describes it at ``/openapi.json``."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Body, Depends, Header, HTTPException, Path, Query, Request, Response
from fastapi.responses import PlainTextResponse, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ..records import EXPORTERS
from ..records.archive import Archive
from ..records.search import Filters
from ..records.tally import STATUSES
from . import live
from .service import Service, message
from .views import event_forms, rules_json

router = APIRouter(prefix="/api")
bearer = HTTPBearer(auto_error=False, description="The match's scorer key or official key.")

KEY_ERRORS: dict[int | str, dict[str, Any]] = {401: {"description": "No key given"},
                                               403: {"description": "The key is wrong, or its role may not"}}
READ_ERRORS: dict[int | str, dict[str, Any]] = {404: {"description": "No such match"}, **KEY_ERRORS}


def get_service(request: Request) -> Service:
    return request.app.state.service


def get_key(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
            key: Annotated[str | None, Query(description="The key, where no header can be sent "
                                                         "(a browser's EventSource).")] = None) -> str | None:
    return credentials.credentials if credentials else key


def get_archive(request: Request) -> Archive:
    archive: Archive = request.app.state.archive
    return archive


ServiceDep = Annotated[Service, Depends(get_service)]
ArchiveDep = Annotated[Archive, Depends(get_archive)]
KeyDep = Annotated[str | None, Depends(get_key)]


class AppendRequest(BaseModel):
    event: dict[str, Any] = Field(description="One event in the match log format: `type`, `at`, the device's `id` "
                                              "(a retry with the same `id` is recorded once), `by`, and its fields.")
    expected_seq: int | None = Field(None, description="The last seq this device has seen; if the match has moved "
                                                       "on since, nothing is written and the answer is 409.")


@router.post("/matches", status_code=201, tags=["matches"],
             responses={409: {"description": "A match with this code exists"},
                        422: {"description": "The match.start is refused; `detail` says why"}})
def create_match(service: ServiceDep,
                 start: Annotated[dict[str, Any], Body(description="The match's `match.start` event; its "
                                                                   "`match` is the code that names it: any text "
                                                                   "but `/`, `.` and `..`.")],
                 ) -> dict[str, Any]:
    """Create a match. The answer holds its scorer key and official key: they are shown only this once."""
    created = service.create(start)
    base = f"/matches/{quote(created.code, safe='')}"
    return {"code": created.code, "scorer_key": created.scorer_key, "official_key": created.official_key,
            "match": created.match,
            "links": {"console": f"{base}/console", "review": f"{base}/review", "sheet": f"{base}/sheet"}}


@router.get("/matches", tags=["matches"], responses={400: {"description": "A filter cannot be read"}, **KEY_ERRORS})
def list_matches(service: ServiceDep, archive: ArchiveDep, team: str = "", event: str = "", venue: str = "",
                 player: str = Query("", description="a name from the rosters"),
                 date: str = Query("", description="YYYY, YYYY-MM or YYYY-MM-DD"),
                 status: str = Query("", description=" or ".join(STATUSES)), state: str = "") -> list[dict[str, Any]]:
    """The matches, with score, state and standing (scheduled, in play, finished with the winner); each text
    filter finds every one of its words, whatever the case and accents; the date matches by its start."""
    service.check_list()
    filters = Filters(team, event, venue, player, date, status, state)
    return [match.to_json() for match in archive.matches(filters)]


@router.get("/matches/{code}", tags=["matches"], responses=READ_ERRORS)
def read_match(service: ServiceDep, key: KeyDep, code: str) -> dict[str, Any]:
    """The match now: state, score, free hit in progress, pending options, and the event types it accepts."""
    service.check_read(code, key)
    return service.view(code)


@router.get("/matches/{code}/role", tags=["matches"], responses=READ_ERRORS)
def read_role(service: ServiceDep, key: KeyDep, code: str) -> dict[str, str]:
    """The role the key holds on the match, `scorer` or `official`: what a page may offer its holder."""
    return {"role": service.role(code, key)}


@router.get("/matches/{code}/events", tags=["events"], responses=READ_ERRORS)
def read_events(service: ServiceDep, key: KeyDep, code: str, after_seq: int = 0) -> list[dict[str, Any]]:
    """The log after ``after_seq``: each event as received, its ruling, who recorded it, and when."""
    service.check_read(code, key)
    return service.events(code, after_seq)


@router.post("/matches/{code}/events", status_code=201, tags=["events"],
             responses={200: {"description": "A retry of an event already recorded: the same answer"},
                        409: {"description": "`expected_seq` is stale; `current_seq` is the match's last seq"},
                        413: {"description": "The body is too large"},
                        422: {"description": "The engine refuses the event; `detail` says why"},
                        **READ_ERRORS})
async def append_event(service: ServiceDep, key: KeyDep, code: str, body: AppendRequest,
                       response: Response) -> dict[str, Any]:
    """Append one event and get its ruling. Needs the scorer or official key; deciding a choice, and
    voiding an event another role recorded, need the official key."""
    recorded = await run_in_threadpool(service.append, code, body.event, body.expected_seq, key)
    if recorded.duplicate:
        response.status_code = 200
    elif service.hub.listeners(code):  # the message is made only for open streams
        service.hub.publish(code, (recorded.event["seq"], message(recorded.event, recorded.match)))
    return {"seq": recorded.event["seq"], "ruling": recorded.event["ruling"], "duplicate": recorded.duplicate,
            "event": recorded.event, "match": recorded.match}


@router.get("/matches/{code}/stream", tags=["events"], response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "Server-sent events: each `append` message's data is "
                                            "`{event, match}`, its id the event's seq."}, **READ_ERRORS})
def stream_events(service: ServiceDep, key: KeyDep, code: str, after_seq: int = 0,
                  last_event_id: Annotated[int | None, Header()] = None) -> StreamingResponse:
    """Every event after ``after_seq`` (or the ``Last-Event-ID`` a reconnecting browser sends), then each new one."""
    service.check_read(code, key)
    start = max(after_seq, last_event_id or 0)
    return StreamingResponse(live.stream(service.hub, code, start, service.messages), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@router.get("/matches/{code}/rulings/{seq}", tags=["events"], responses=READ_ERRORS)
def explain_ruling(service: ServiceDep, key: KeyDep, code: str, seq: int) -> dict[str, Any]:
    """An event's ruling with the events that led to it and the text of every clause it cites, in both languages."""
    service.check_read(code, key)
    explained = service.explain(code, seq)
    if explained is None:
        raise HTTPException(404, f"there is no event with seq {seq}")
    return explained


@router.get("/matches/{code}/verify", tags=["matches"], responses=READ_ERRORS)
def verify_match(service: ServiceDep, key: KeyDep, code: str) -> dict[str, Any]:
    """Whether the hash chain holds and every stored ruling is what the engine rules now."""
    service.check_read(code, key)
    return service.verify(code)


@router.get("/matches/{code}/log.{format}", tags=["records"], response_class=PlainTextResponse,
             responses={404: {"description": "No such match, or no such format"}, **KEY_ERRORS})
def export_log(service: ServiceDep, key: KeyDep, code: str,
               format: Annotated[str, Path(description=", ".join(f"`{name}`: {exporter.description}"
                                                                 for name, exporter in EXPORTERS.items()))],
               ) -> PlainTextResponse:
    """The match log, exported: `jsonl` gives each line exactly as it was received, `csv` one row per event."""
    exporter = EXPORTERS.get(format)
    if exporter is None:
        raise HTTPException(404, f"no export format {format!r}: the formats are {', '.join(EXPORTERS)}")
    service.check_read(code, key)
    return download(exporter.write(service.store.events(code)), f"{code}.{exporter.name}", exporter.media_type)


def download(text: str, filename: str, media_type: str) -> PlainTextResponse:
    safe = re.sub(r"[^\w.-]", "_", filename, flags=re.ASCII)
    return PlainTextResponse(text, media_type=media_type,
                             headers={"Content-Disposition": f'attachment; filename="{safe}"'})


@router.get("/event-types", tags=["reference"])
def event_types() -> dict[str, list[dict[str, Any]]]:
    """Each event type's fields (name, kind, required, default, choices), for building forms."""
    return event_forms()


@router.get("/rules", tags=["reference"])
def rules() -> dict[str, dict[str, dict[str, str]]]:
    """Every clause and table cell of Rule 36 that rulings cite, in English and Spanish."""
    return rules_json()


@router.get("/time", tags=["reference"])
def server_time() -> dict[str, str]:
    """The server's clock, UTC to the millisecond: a console measures its own clock's offset from it."""
    return {"now": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")}
