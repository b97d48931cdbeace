"""Statistics for a season or a tournament: the page (``/stats``) and the API (``/api/stats``, ``.csv``).

Summed from the kept statistics (:mod:`matchstate.store.statistics`). The page shows every team and the
players a page at a time, or one team's; like the match list, a private server closes them.
"""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse

from ..errors import InvalidQuery
from ..records.search import fold
from ..records.stats import Scope
from ..store.statistics import PAGE
from ..words import LANGUAGES
from .answers import Statistics, answers, refusals, refused_in_json
from .api import KEY_ERRORS, ArchiveDep, KeyDep, ServiceDep, download
from .templating import templates

api = APIRouter(prefix="/api", tags=["records"])
pages = APIRouter(include_in_schema=False)

Event = Annotated[str, Query(description="a tournament: match.start's `event`, whatever the case and accents")]
Season = Annotated[str, Query(description="a year (`2026`) or a date range (`2026-03-01..2026-09-30`)")]
Team = Annotated[str | None, Query(description="one team's players (the page's `team`)")]
Cursor = Annotated[str | None, Query(description="the players after this cursor (a page's `next`)")]
Limit = Annotated[int | None, Query(ge=1, le=1000, description="at most this many players, then `next`")]
ERRORS = {**KEY_ERRORS, **refusals(_400="The season or the cursor cannot be read")}


@api.get("/stats", response_model=None, responses={**answers(200, Statistics, "The statistics"), **ERRORS})
def stats_json(service: ServiceDep, archive: ArchiveDep, key: KeyDep, event: Event = "",
               season: Season = "", team: Team = None, cursor: Cursor = None, limit: Limit = None) -> dict[str, Any]:
    """Per team and per player: goals (field and penalty), penalties by number awarded (to a team) or taken
    (by a player) and converted, knock-ins, fouls against; over the matches of the event and the season.
    With `team`, that team's players alone; with `limit` (or `cursor`), a page of players and the `next`
    page's cursor (null on the last). A match whose log cannot be read back is left out, and named in
    `unreadable`."""
    service.check_list(key)
    scope = Scope.of(event, season)
    if team is None and cursor is None and limit is None:
        found = archive.stats(scope).to_json()
    else:
        page = archive.kept.page(scope, team=team, after=_after(cursor), size=limit or PAGE)
        found = {**page.stats.to_json(), "next": _cursor(page.following)}
    unreadable = archive.kept.unreadable  # left out of the sums, and named
    return {**found, "unreadable": [match.to_json() for match in unreadable]} if unreadable else found


@api.get("/stats.csv", response_class=PlainTextResponse,
         responses={200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "The CSV"},
                    **refused_in_json(ERRORS)})
def stats_csv(service: ServiceDep, archive: ArchiveDep, key: KeyDep, event: Event = "",
              season: Season = "") -> PlainTextResponse:
    """The same numbers as `/api/stats`, as CSV: a row per team, then a row per player; then a row of kind
    `unreadable` naming (in `team`'s place) each match whose log cannot be read back, left out of the sums."""
    service.check_list(key)
    counted = archive.stats(Scope.of(event, season))
    unreadable = [match.code for match in archive.kept.unreadable]
    return download(counted.to_csv(unreadable), "stats.csv", "text/csv; charset=utf-8")


@pages.get("/stats", response_class=HTMLResponse)
def stats_page(request: Request, service: ServiceDep, archive: ArchiveDep, key: KeyDep, event: str = "",
               season: str = "", team: str | None = None, cursor: str | None = None) -> HTMLResponse:
    """The statistics with their charts: every team, and a page of players or one team's; a season that cannot
    be read is said on the page, beside its form."""
    service.check_list(key)
    events = archive.kept.events()
    # The tournament the scope counts, as the picker names it: "copa otono" counts Copa Otoño's matches, so the
    # picker shows Copa Otoño chosen, and a name it does not hold among its own (none is counted), not "every".
    event = event.strip()  # as the scope reads it
    chosen = event if event in events else next((name for name in events if fold(name) == fold(event)), event)
    scope_query = urlencode({name: value for name, value in (("event", event), ("season", season)) if value})
    context: dict[str, Any] = {"events": events if chosen in events or not event else [*events, event],
                               "event": chosen, "season": season, "query": scope_query, "team": team, "cursor": cursor}
    try:
        page = archive.kept.page(Scope.of(event, season), team=team or None, after=_after(cursor))
        context["stats"], context["next"] = page.stats, _cursor(page.following)
        context["unreadable"] = archive.kept.unreadable  # left out of the sums, and named
    except InvalidQuery as err:
        words = err.worded() or dict.fromkeys(LANGUAGES, str(err))
        return templates.TemplateResponse(request, "stats.html", {**context, "error": words}, status_code=400)
    return templates.TemplateResponse(request, "stats.html", context)


def _cursor(following: tuple[str, str] | None) -> str | None:
    """A page's cursor: the last player's team and name, as URL-safe base64 of their JSON."""
    if following is None:
        return None
    return base64.urlsafe_b64encode(json.dumps(following, ensure_ascii=False).encode()).decode().rstrip("=")


def _after(cursor: str | None) -> tuple[str, str] | None:
    """The team and name a cursor names; :class:`InvalidQuery` for one no page gave."""
    if not cursor:
        return None
    try:
        team, player = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if isinstance(team, str) and isinstance(player, str):
            return team, player
    except (ValueError, TypeError):
        pass
    raise InvalidQuery.said("cursor", cursor=repr(cursor))
