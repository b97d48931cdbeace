"""The tournament desk on the web: its API (``/api/tournaments``), the public tournament page and the record
keeper's desk page. Creating and changing a tournament takes the league key; reading it is public, except on a
private server, where it is the league's as the match list is."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ..errors import InvalidQuery, MatchstateError
from ..store import Also, hash_key, new_key
from ..store.database import deadline
from ..tournaments.bracket import stage_pictures
from ..tournaments.desk import Desk
from ..tournaments.discipline import PlayerRecord, sit_outs
from ..tournaments.feeds import calendar, results_feed
from ..tournaments.league import league_ledger
from ..tournaments.packet import packet, packet_csv
from ..tournaments.refusals import refused
from . import live
from .answers import (
    DisciplineRecord,
    ImportedResult,
    MatchStart,
    OpenedMatch,
    Packet,
    Results,
    SitOut,
    Tournament,
    TournamentRow,
    answers,
    refusals,
    refused_in_json,
)
from .api import IMPORT_BODY, KEY_ERRORS, LEAGUE_ERRORS, READ_ERRORS, KeyDep, ServiceDep, download
from .service import Created, Service
from .templating import reader_lang, templates

api = APIRouter(prefix="/api", tags=["tournaments"])
pages = APIRouter(include_in_schema=False)
NOT_FOUND = {**KEY_ERRORS, **refusals(_404="No such tournament")}
STALE = "Another desk changed the tournament since `expected_version`: `version` is its version now"
CHANGE = {**LEAGUE_ERRORS, **refusals(_400="The change is refused; `detail` says why", _404="No such tournament",
                                      _409=STALE)}
CHANGED = {**answers(200, Tournament, "The tournament as it is now"), **CHANGE}
Body_ = Annotated[dict[str, Any], Body()]
ExpectedVersion = Annotated[int | None, Query(description=(
    "The tournament's `version` the change is made from, as the desk's page shows it: refused (409, with the "
    "`version` now) where another desk has changed the tournament since. Without it the change is made on top "
    "of any other"))]


class DrawRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    format: str = Field(description="`groups` (round robins) or `bracket` (single elimination)")
    seed: str = Field(min_length=1, description="The seed the draw is made from, recorded with it")
    groups: int = Field(1, ge=1, le=16, description="How many groups (`groups` only)")
    seeds: list[str] | None = Field(None, description="The teams in seed order, best first, where the "
                                                      "committee seeded them by hand (`bracket` only)")


class ScheduleRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field ("feild") is refused, not dropped

    day: str = Field(description="YYYY-MM-DD")
    time: str = Field(description="HH:MM, the venue's time")
    field: str | None = Field(None, description="The field it is played on (none: the one it has stays)")


class BracketRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    stage: str = Field(min_length=1, description="The bracket's name: Cup, Subsidiary, Copa de Plata...")
    entrants: list[Any] = Field(description="In seed order: team names, or sources "
                                            "(`{kind: place, ref: A, place: 1}`, `{kind: loser, ref: fixture id}`)")
    consolation: bool = False
    subsidiary: bool = False


def desk_of(service: Service) -> Desk:
    return Desk(service.store)


def _json(desk: Desk, slug: str) -> dict[str, Any]:
    tournament, version = desk.opened(slug)
    return {**tournament.to_json(), "version": version, "progress": desk.progress(tournament).to_json()}


@api.get("/tournaments", response_model=None,
         responses={**answers(200, list[TournamentRow], "Every tournament"), **KEY_ERRORS})
def list_tournaments(service: ServiceDep, key: KeyDep) -> list[dict[str, str]]:
    """Every tournament's slug and name."""
    service.check_list(key)
    return [{"slug": slug, "name": name} for slug, name in desk_of(service).list()]


@api.post("/tournaments", status_code=201, response_model=None,
          responses={**answers(201, Tournament, "The tournament made"), **CHANGE,
                     **refusals(_409="A tournament with this slug exists")})
def create_tournament(service: ServiceDep, key: KeyDep, body: Body_) -> dict[str, Any]:
    """Create a tournament, with the league key: `slug`, `name`, `starts`, `ends`, `venue`, `conditions`
    (`rules`, `chukkers`, `penalty3_defended`, `handicap_min`, `handicap_max`, `tiebreaks`), `teams` (each a
    `name` and a `roster` of `{player, name, handicap}`), `officials`."""
    service.check_league(key)
    desk = desk_of(service)
    return _json(desk, desk.create(body).slug)


@api.get("/tournaments/{slug}", response_model=None,
         responses={**answers(200, Tournament, "The tournament"), **NOT_FOUND})
def read_tournament(service: ServiceDep, key: KeyDep, slug: str) -> dict[str, Any]:
    """The tournament, and its `progress`: each fixture's teams, status and score, each group's standings with
    why each place, all as the matches stand now."""
    service.check_list(key)
    return _json(desk_of(service), slug)


@api.patch("/tournaments/{slug}", response_model=None, responses=CHANGED)
def change_tournament(service: ServiceDep, key: KeyDep, slug: str, body: Body_,
                      expected_version: ExpectedVersion = None) -> dict[str, Any]:
    """Change a tournament's fields, with the league key: a field it does not have is refused, naming it."""
    service.check_league(key)
    desk = desk_of(service)
    desk.change(slug, body, expected_version)
    return _json(desk, slug)


@api.post("/tournaments/{slug}/draw", response_model=None, responses=CHANGED)
def draw(service: ServiceDep, key: KeyDep, slug: str, body: DrawRequest,
         expected_version: ExpectedVersion = None) -> dict[str, Any]:
    """Make the draw from a seed (recorded with the algorithm's version), with the league key; again, until a
    match of it is created."""
    service.check_league(key)
    desk = desk_of(service)
    if body.format == "groups":
        desk.draw_groups(slug, body.groups, body.seed, expected_version)
    elif body.format == "bracket":
        desk.draw_bracket(slug, body.seed, seeds=body.seeds, expected=expected_version)
    else:
        raise refused(InvalidQuery, "bad-field", name="format", value=body.format, allowed="groups, bracket")
    return _json(desk, slug)


@api.post("/tournaments/{slug}/brackets", response_model=None, responses=CHANGED)
def add_bracket(service: ServiceDep, key: KeyDep, slug: str, body: BracketRequest,
                expected_version: ExpectedVersion = None) -> dict[str, Any]:
    """Add a bracket fed by teams, a group's places or another bracket's losers, with the league key."""
    service.check_league(key)
    desk = desk_of(service)
    desk.add_bracket(slug, body.stage, body.entrants, consolation=body.consolation, subsidiary=body.subsidiary,
                     expected=expected_version)
    return _json(desk, slug)


@api.post("/tournaments/{slug}/fixtures", response_model=None, responses=CHANGED)
def add_fixtures(service: ServiceDep, key: KeyDep, slug: str, body: Annotated[list[dict[str, Any]], Body()],
                 expected_version: ExpectedVersion = None) -> dict[str, Any]:
    """Add fixtures entered by hand (a shootout for a place: `kind: shootout`), with the league key."""
    service.check_league(key)
    desk = desk_of(service)
    desk.add_fixtures(slug, body, expected_version)
    return _json(desk, slug)


@api.put("/tournaments/{slug}/fixtures/{fixture}/schedule", response_model=None, responses=CHANGED)
def schedule(service: ServiceDep, key: KeyDep, slug: str, fixture: str, body: ScheduleRequest,
             expected_version: ExpectedVersion = None) -> dict[str, Any]:
    """Give a fixture its day, time and field, with the league key."""
    service.check_league(key)
    desk = desk_of(service)
    desk.schedule(slug, fixture, body.day, body.time, body.field, expected_version)
    return _json(desk, slug)


@api.post("/tournaments/{slug}/fixtures/{fixture}/match", status_code=201, response_model=None,
          responses={**answers(201, OpenedMatch, "The fixture's match; its keys are shown only this once"),
                     **CHANGE, **refusals(_409=f"The fixture has its match already, or: {STALE.lower()}")})
def open_match(service: ServiceDep, key: KeyDep, slug: str, fixture: str,
               expected_version: ExpectedVersion = None) -> dict[str, Any]:
    """Create the fixture's match (its teams, rosters, conditions), with the league key. The answer holds its
    scorer key and official key: they are shown only this once."""
    service.check_league(key)
    keys = {"scorer": new_key(), "official": new_key()}
    kept, code = desk_of(service).open_match(slug, fixture, {role: hash_key(made) for role, made in keys.items()},
                                             expected_version)
    return {"code": code, "scorer_key": keys["scorer"], "official_key": keys["official"],
            "console": f"/matches/{quote(code, safe='')}/console", "version": kept.version}


@api.get("/tournaments/{slug}/fixtures/{fixture}/start", response_model=None,
         responses={**answers(200, MatchStart, "The fixture's match.start, stamped now"), **CHANGE,
                    **refusals(_409="The fixture has its match already")})
def paper_start(service: ServiceDep, key: KeyDep, slug: str, fixture: str) -> dict[str, Any]:
    """The first line of a result kept on paper for the fixture, with the league key: the match.start its match
    opened at the desk would have (its teams, their rosters, the tournament's conditions and name), stamped now.
    A result entered for the fixture must be played as it says (`POST .../import`)."""
    service.check_league(key)
    return desk_of(service).paper_start(slug, fixture)


@api.post("/tournaments/{slug}/fixtures/{fixture}/import", status_code=201, response_model=None,
          responses={**answers(201, ImportedResult, "The fixture's match, stored; its keys are shown only this once",
                               413), **CHANGE,
                     **refusals(_409=f"A match with this code exists, or: {STALE.lower()}",
                                _422="A line is refused; `line` says which and `detail` why")},
          openapi_extra={"requestBody": IMPORT_BODY})
async def import_result(service: ServiceDep, key: KeyDep, slug: str, fixture: str, request: Request,
                        expected_version: ExpectedVersion = None) -> dict[str, Any]:
    """A result kept on paper, entered as its whole match log (JSON Lines), with the league key: its teams
    must be the fixture's; it becomes the fixture's match, in the transaction that stores it."""
    await run_in_threadpool(service.check_league, key)
    try:
        text = (await request.body()).decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise MatchstateError.said("log-not-utf8", error=err) from None

    def store_log(hold: Also) -> Created:
        return service.import_log(text, key, hold)

    _, created = await run_in_threadpool(desk_of(service).enter_result, slug, fixture, text.splitlines(), store_log,
                                         expected_version)
    return {"code": created.code, "scorer_key": created.scorer_key, "official_key": created.official_key}


LIVE_FIELDS = ("id", "match", "seq", "home", "away", "score", "status")  # what a fixture's row shows live


# A live stream's reads, each within the database's timeout as a request's are: a stream has no deadline of its own.

def live_matches(service: Service, slug: str) -> list[str | None]:
    """Each fixture's match: one read of the tournament."""
    with deadline(service.store.database.timeout):
        return [fixture.match for fixture in desk_of(service).get(slug).fixtures]


def live_fixtures(service: Service, slug: str) -> list[dict[str, Any]]:
    """Each fixture's match, teams, score and status, as the public page shows them: a read of every match."""
    with deadline(service.store.database.timeout):
        fixtures = desk_of(service).progress(slug).to_json()["fixtures"]
    return [{name: fixture[name] for name in LIVE_FIELDS} for fixture in fixtures]


@api.get("/tournaments/{slug}/stream", response_class=StreamingResponse,
         responses={200: {"content": {"text/event-stream": {"schema": {"type": "string"}}},
                          "description": "Server-sent events: a `progress` message's data is `{fixtures}`, each "
                                         "fixture's `id`, `match`, `seq`, `home`, `away`, `score` and `status`; "
                                         "an `append` message's is `{event, match}`, as a match's stream sends "
                                         "it"}, **NOT_FOUND})
def tournament_stream(service: ServiceDep, key: KeyDep, slug: str) -> StreamingResponse:
    """Every fixture's score live, in one stream for the whole tournament: its progress, then each append to
    any of its matches; a match opened since is followed within 15 s, and the progress sent again, as it is after
    an append that ends a match or reopens it (a fixture's status is the tournament's to say). The stream
    counts as one against a client's streams however many matches it follows; a browser that reconnects is
    sent the progress again."""
    service.check_list(key)
    desk_of(service).get(slug)  # no such tournament: 404, before the stream begins
    return StreamingResponse(live.tournament(service.hub, lambda: live_matches(service, slug),
                                             lambda: live_fixtures(service, slug)),
                             media_type="text/event-stream", headers=live.HEADERS)


@api.get("/tournaments/{slug}/calendar.ics", response_class=PlainTextResponse,
         responses={200: {"content": {"text/calendar": {"schema": {"type": "string"}}},
                          "description": "The iCalendar"}, **refused_in_json(NOT_FOUND)})
def calendar_feed(service: ServiceDep, key: KeyDep, slug: str, request: Request) -> PlainTextResponse:
    """The fixtures as an iCalendar (RFC 5545), one event per scheduled fixture."""
    service.check_list(key)
    desk = desk_of(service)
    text = calendar(desk.progress(slug), request.url.hostname or "matchstate", datetime.now(UTC), reader_lang(request))
    return download(text, f"{slug}.ics", "text/calendar")


@api.get("/tournaments/{slug}/results.json", response_model=None,
         responses={**answers(200, Results, "The results and standings"), **NOT_FOUND})
def results(service: ServiceDep, key: KeyDep, slug: str) -> dict[str, Any]:
    """The results so far and the standings, for a club's website."""
    service.check_list(key)
    return results_feed(desk_of(service).progress(slug))


@api.get("/tournaments/{slug}/packet.{format}", response_model=None,
         responses={200: {"model": Packet, "content": {"text/csv": {"schema": {"type": "string"}}},
                          "description": "The packet, as JSON or CSV"},
                    **NOT_FOUND, **refusals(_400="No such format: `json` or `csv`")})
def results_packet(service: ServiceDep, key: KeyDep, slug: str, format: str) -> dict[str, Any] | PlainTextResponse:
    """The federation's results packet, as `json` or `csv`: results, rosters with handicaps, officials, cards
    and suspensions, goals by handicap, each match's last seq, hash and signed receipt."""
    service.check_list(key)
    desk = desk_of(service)
    made = packet(desk, desk.progress(slug), league_ledger(desk))
    if format == "json":
        return made
    if format == "csv":
        return download(packet_csv(made), f"{slug}-results.csv", "text/csv")
    raise refused(InvalidQuery, "bad-field", name="format", value=format, allowed="json, csv")


def record_json(record: PlayerRecord) -> dict[str, Any]:
    return {"team": record.team, "name": record.name,
            "cards": [{"match": c.match, "seq": c.seq, "at": c.at.isoformat(), "colour": c.colour}
                      for c in record.cards],
            "suspensions": [{"seconds": s.seconds, "earned_in": s.earned_in, "served_in": s.served_in,
                             "passed": list(s.passed)} for s in record.suspensions]}


@api.get("/discipline", response_model=None,
         responses={**answers(200, list[DisciplineRecord], "The discipline ledger"), **LEAGUE_ERRORS})
def discipline(service: ServiceDep, key: KeyDep) -> list[dict[str, Any]]:
    """The discipline ledger: every player with a card in the league, their cards and suspensions (league key)."""
    service.check_league(key)
    records = league_ledger(desk_of(service))
    return [record_json(records[found]) for found in sorted(records)]


@api.get("/matches/{code}/sit-outs", response_model=None,
         responses={**answers(200, list[SitOut], "Who sits out, and for how long"), **READ_ERRORS})
def match_sit_outs(service: ServiceDep, key: KeyDep, code: str) -> list[dict[str, Any]]:
    """Who must sit out of the start of this match, and for how long, from earlier cards."""
    service.check_read(code, key)
    return [{"team": s.team, "name": s.name, "seconds": s.seconds, "earned_in": s.earned_in}
            for s in sit_outs(league_ledger(desk_of(service)).values(), code)]


# -- pages -------------------------------------------------------------------------------

@pages.get("/tournaments", response_class=HTMLResponse)
def tournaments_page(request: Request, service: ServiceDep,
                     key: Annotated[str | None, Query()] = None) -> HTMLResponse:
    """Every tournament, each with its page and its desk, and the form that creates one with the league key."""
    service.check_list(key)
    return templates.TemplateResponse(request, "tournaments.html", {
        "tournaments": desk_of(service).list(), "private": service.private})


@pages.get("/tournaments/{slug}", response_class=HTMLResponse)
def tournament_page(request: Request, service: ServiceDep, slug: str,
                    key: Annotated[str | None, Query()] = None) -> HTMLResponse:
    return _page(request, service, slug, key, "tournament.html")


@pages.get("/tournaments/{slug}/desk", response_class=HTMLResponse)
def desk_page(request: Request, service: ServiceDep, slug: str,
              key: Annotated[str | None, Query()] = None) -> HTMLResponse:
    return _page(request, service, slug, key, "tournament_desk.html")


@pages.get("/tournaments/{slug}/packet", response_class=HTMLResponse)
def packet_page(request: Request, service: ServiceDep, slug: str,
                key: Annotated[str | None, Query()] = None) -> HTMLResponse:
    """The federation's results packet to print (A4 or Letter): the results, the teams with their handicaps,
    the cards and suspensions, and every match's score sheet with its signed receipt."""
    service.check_list(key)
    desk = desk_of(service)
    made = packet(desk, desk.progress(slug), league_ledger(desk))
    sheets = [(row["match"], *service.sheet(row["match"])) for row in made["matches"] if row.get("last_seq")]
    return templates.TemplateResponse(request, "tournament_packet.html", {
        "packet": made, "sheets": sheets, "private": service.private})


@pages.get("/discipline", response_class=HTMLResponse)
def discipline_page(request: Request, service: ServiceDep, key: Annotated[str | None, Query()] = None,
                    team: str = "", name: str = "") -> HTMLResponse:
    """The record keeper's page of the discipline ledger: each player with a card in the league, or the one
    player asked for (``team`` and ``name``), with their cards and the suspensions they carry."""
    service.check_league(key)
    records = league_ledger(desk_of(service))
    chosen = [records[found] for found in sorted(records)
              if (not team or found[0] == team) and (not name or found[1] == name)]
    return templates.TemplateResponse(request, "discipline.html", {
        "records": chosen, "player": bool(team and name), "key": key or "", "private": service.private})


def _page(request: Request, service: Service, slug: str, key: str | None, template: str) -> HTMLResponse:
    service.check_list(key)
    desk = desk_of(service)
    tournament, version = desk.opened(slug)
    progress = desk.progress(tournament)
    return templates.TemplateResponse(request, template, {
        "tournament": tournament, "version": version, "progress": progress.to_json(),
        "pictures": stage_pictures(progress, reader_lang(request)), "private": service.private})
