"""Statistics for a season or a tournament: the page (``/stats``) and the API (``/api/stats``, ``.csv``).

Like the match list, they read every match: a private server closes them.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from ..errors import InvalidQuery
from ..records.stats import Scope
from ..words import LANGUAGES
from .api import KEY_ERRORS, ArchiveDep, KeyDep, ServiceDep, download
from .templating import templates

api = APIRouter(prefix="/api", tags=["records"])
pages = APIRouter(include_in_schema=False)

Event = Annotated[str, Query(description="a tournament: match.start's `event`, whatever the case and accents")]
Season = Annotated[str, Query(description="a year (`2026`) or a date range (`2026-03-01..2026-09-30`)")]
ERRORS: dict[int | str, dict[str, Any]] = {400: {"description": "The season cannot be read"}, **KEY_ERRORS}


@api.get("/stats", responses=ERRORS)
def stats_json(service: ServiceDep, archive: ArchiveDep, key: KeyDep, event: Event = "",
               season: Season = "") -> dict[str, Any]:
    """Per team and per player: goals (field and penalty), penalties by number awarded (to a team) or taken
    (by a player) and converted, knock-ins, fouls against; over the matches of the event and the season."""
    service.check_list(key)
    return archive.stats(Scope.of(event, season)).to_json()


@api.get("/stats.csv", response_class=PlainTextResponse, responses=ERRORS)
def stats_csv(service: ServiceDep, archive: ArchiveDep, key: KeyDep, event: Event = "",
              season: Season = "") -> PlainTextResponse:
    """The same numbers as `/api/stats`, as CSV: a row per team, then a row per player."""
    service.check_list(key)
    return download(archive.stats(Scope.of(event, season)).to_csv(), "stats.csv", "text/csv; charset=utf-8")


@pages.get("/stats", response_class=HTMLResponse)
def stats_page(request: Request, service: ServiceDep, archive: ArchiveDep, key: KeyDep, event: str = "",
               season: str = "") -> HTMLResponse:
    """The statistics with their charts; a season that cannot be read is said on the page, beside its form."""
    service.check_list(key)
    events = sorted({match.start["event"] for match in archive.matches() if match.start.get("event")})
    context: dict[str, Any] = {"events": events, "event": event, "season": season, "query": request.url.query}
    try:
        context["stats"] = archive.stats(Scope.of(event, season))
    except InvalidQuery as err:
        words = err.worded() or dict.fromkeys(LANGUAGES, str(err))
        return templates.TemplateResponse(request, "stats.html", {**context, "error": words}, status_code=400)
    return templates.TemplateResponse(request, "stats.html", context)
