"""A match stored under a code a tournament's fixture holds meets the desk's rules by every door, on SQLite and
PostgreSQL: the general import and create, and a correction over HTTP and by the command line. Each refusal names
the tournament and the fixture, in English and Spanish, and nothing recorded changes."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from tournament_helpers import at, desk_client, team

from matchstate.cli import COULD_NOT_RUN, main
from matchstate.models import TournamentRow
from matchstate.store import Store
from matchstate.tournaments.desk import Desk

LEAGUE = "league-key-of-the-doors"
AUTH = {"Authorization": f"Bearer {LEAGUE}"}
HELD = "match cup-Cup-R1-1 is fixture Cup-R1-1's of tournament cup"
HELD_ES = "el partido cup-Cup-R1-1 es el del partido Cup-R1-1 del torneo cup"


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    yield from desk_client(store, LEAGUE)


def cup(client: TestClient) -> str:
    """A four-chukker cup of Blue (12) v Red (8), drawn, its one fixture's match opened at the desk: its code."""
    body = {"slug": "cup", "name": "Copa de las Puertas", "starts": "2026-12-05", "ends": "2026-12-12",
            "conditions": {"chukkers": 4}, "teams": [team("Blue", 3, 3, 3, 3), team("Red")]}
    assert client.post("/api/tournaments", json=body, headers=AUTH).status_code == 201
    assert client.post("/api/tournaments/cup/draw", json={"format": "bracket", "seed": "s"}, headers=AUTH) \
        .status_code == 200
    opened = client.post("/api/tournaments/cup/fixtures/Cup-R1-1/match", headers=AUTH)
    assert opened.status_code == 201, opened.text
    code: str = opened.json()["code"]
    assert code == "cup-Cup-R1-1"
    return code


def played_and_removed(client: TestClient, code: str) -> list[dict[str, Any]]:
    """The fixture's match played to its end (Red wins on goals from the field), its log, then removed."""
    scorer = {"Authorization": f"Bearer {client.post(f'/api/matches/{code}/keys/scorer', headers=AUTH).json()['key']}"}
    events: list[dict[str, Any]] = [{"type": "chukker.start", "chukker": 1}, *[{"type": "goal", "team": "Red"}] * 6,
                                    {"type": "chukker.end", "chukker": 1}, {"type": "match.end"}]
    for n, event in enumerate(events, 1):
        reply = client.post(f"/api/matches/{code}/events", json={"event": {**event, "at": at(n)}}, headers=scorer)
        assert reply.status_code == 201, reply.text
    log = [json.loads(line) for line in client.get(f"/api/matches/{code}/log.jsonl", headers=AUTH).text.splitlines()]
    removed = client.request("DELETE", f"/api/matches/{code}", json={"reason": "entered twice"}, headers=AUTH)
    assert removed.status_code == 200, removed.text
    return log


def fixture_now(client: TestClient) -> tuple[int, dict[str, Any]]:
    """The tournament's version and its fixture's progress."""
    tournament = client.get("/api/tournaments/cup").json()
    [fixture] = tournament["progress"]["fixtures"]
    return tournament["version"], fixture


def said(reply: Any, status: int, english: str, spanish: str) -> None:
    """A refusal of ``status`` whose words begin with ``english`` and ``spanish``."""
    assert reply.status_code == status, reply.text
    words = reply.json()["words"]
    assert reply.json()["detail"] == words["en"], reply.text
    assert words["en"].startswith(english) and words["es"].startswith(spanish), words


def test_the_general_import_of_a_log_under_a_fixtures_code_is_checked_as_the_desk_checks_its_result(
        client: TestClient) -> None:
    """POST /api/matches/import stored a log under the code of a fixture whose match was removed, unchecked: six
    chukkers in a four-chukker cup, unended, between other teams, and it became the fixture's result."""
    code = cup(client)
    log = played_and_removed(client, code)
    version, _ = fixture_now(client)
    start, *rest = log
    other = {**start, "teams": ["Blue", "Green"]}
    del other["rosters"]
    for events, english, spanish in (
            ([{**start, "chukkers": 6}, *rest],
             "the log for fixture Cup-R1-1 is not the match the tournament plays: its match.start gives chukkers 6, "
             "the tournament's match gives 4",
             "el registro del partido Cup-R1-1 no es el partido que juega el torneo: su match.start da chukkers 6"),
            (log[:-1], "a result kept on paper is a whole match: the log for fixture Cup-R1-1 must end it",
             "un resultado llevado en papel es un partido entero"),
            ([other, *rest[:1]], "the log's teams must be fixture Cup-R1-1's: Blue v Red",
             "los equipos del registro deben ser los del partido Cup-R1-1")):
        reply = client.post("/api/matches/import", content="\n".join(json.dumps(event) for event in events),
                            headers=AUTH)
        said(reply, 400, f"{HELD}, and the desk refuses this log as its result: {english}",
             f"{HELD_ES}, y la mesa de control rechaza este registro como su resultado: {spanish}")
        assert client.get(f"/api/matches/{code}").status_code == 404
        now_version, fixture = fixture_now(client)
        assert (now_version, fixture["status"], fixture["winner"]) == (version, "removed", None)

    imported = client.post("/api/matches/import", content="\n".join(json.dumps(event) for event in log), headers=AUTH)
    assert imported.status_code == 201, imported.text
    _, fixture = fixture_now(client)
    assert (fixture["match"], fixture["status"], fixture["winner"]) == (code, "ended", "Red")


def test_a_new_match_under_a_fixtures_code_is_refused_at_the_general_create_and_opened_at_the_desk(
        client: TestClient) -> None:
    """POST /api/matches made a new match under the code of a fixture whose match was removed, its match.start as
    written (eight chukkers, say), and the fixture played it as its match. The desk opens the fixture's match, as
    the tournament plays it, under a code of its own; a code no fixture holds is created as before."""
    code = cup(client)
    played_and_removed(client, code)
    version, _ = fixture_now(client)
    start = {"type": "match.start", "at": at(0), "match": code, "teams": ["Blue", "Red"], "chukkers": 8}
    reply = client.post("/api/matches", json=start, headers=AUTH)
    said(reply, 409, f"{HELD}, whose match is opened at the desk (POST /api/tournaments/cup/fixtures/Cup-R1-1/match)",
         f"{HELD_ES}, cuyo partido se abre en la mesa de control (POST /api/tournaments/cup/fixtures/Cup-R1-1/match)")
    assert client.get(f"/api/matches/{code}").status_code == 404
    now_version, fixture = fixture_now(client)
    assert (now_version, fixture["status"]) == (version, "removed")

    assert client.post("/api/matches", json={**start, "match": "friendly"}, headers=AUTH).status_code == 201
    opened = client.post("/api/tournaments/cup/fixtures/Cup-R1-1/match", headers=AUTH)
    assert opened.status_code == 201 and opened.json()["code"] == f"{code}~1", opened.text
    _, fixture = fixture_now(client)
    assert (fixture["match"], fixture["status"]) == (f"{code}~1", "scheduled")


def stored_start(client: TestClient, code: str) -> dict[str, Any]:
    events = client.get(f"/api/matches/{code}/events", headers=AUTH).json()
    assert len(events) == 1
    start: dict[str, Any] = events[0]["event"]
    return start


CORRECTED = (  # a fixture's match.start corrected otherwise than the desk opened it, and what the desk says of it
    ({"chukkers": 6}, "the log for fixture Cup-R1-1 is not the match the tournament plays: its match.start gives "
                      "chukkers 6, the tournament's match gives 4",
     "el registro del partido Cup-R1-1 no es el partido que juega el torneo: su match.start da chukkers 6"),
    ({"teams": ["Blue", "Green"], "rosters": None}, "the log's teams must be fixture Cup-R1-1's: Blue v Red",
     "los equipos del registro deben ser los del partido Cup-R1-1: Blue v Red"),
    ({"handicap_goals": {"Blue": 5}}, "the log for fixture Cup-R1-1 is not the match the tournament plays: its "
                                      'match.start gives handicap_goals {"Blue":5,"Red":0}',
     "el registro del partido Cup-R1-1 no es el partido que juega el torneo: su match.start da handicap_goals"),
)


def corrected(start: dict[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """``start`` with ``fields`` (a field given None left out)."""
    return {name: value for name, value in {**start, **fields}.items() if value is not None}


def test_a_correction_over_http_of_a_fixtures_match_start_is_checked_as_the_desk_opened_it(
        client: TestClient, store: Store) -> None:
    """PUT /api/matches/{code} put another match.start in the place of a fixture's match opened at the desk,
    unchecked: six chukkers in a four-chukker cup, other teams, goals by handicap of its own."""
    code = cup(client)
    start = stored_start(client, code)
    version, _ = fixture_now(client)
    for fields, english, spanish in CORRECTED:
        reply = client.put(f"/api/matches/{code}", json={"start": corrected(start, fields), "reason": "r"},
                           headers=AUTH)
        said(reply, 400, f"{HELD}, and the desk refuses this match.start for it: {english}",
             f"{HELD_ES}, y la mesa de control rechaza este match.start para él: {spanish}")
        assert stored_start(client, code) == start and not store.removals()
        now_version, fixture = fixture_now(client)
        assert (now_version, fixture["status"]) == (version, "scheduled")

    kickoff = {**start, "at": at(60), "venue": "Cancha 2"}  # what decides no result is corrected
    reply = client.put(f"/api/matches/{code}", json={"start": kickoff, "reason": "a later kickoff"}, headers=AUTH)
    assert reply.status_code == 200, reply.text
    assert stored_start(client, code) == kickoff


def test_a_tournament_changed_while_a_correction_is_checked_is_checked_again_before_the_correction_stands(
        client: TestClient, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The desk checked the correction against the tournament, then the store corrected, in another transaction: a
    roster changed at another desk in between (a player's handicap, and so the goals by handicap) was not seen,
    and the fixture's match kept goals the tournament no longer gives."""
    code = cup(client)
    start = stored_start(client, code)
    correct = store.correct_match

    def after_another_desk(*args: Any, **kwargs: Any) -> Any:
        monkeypatch.setattr(store, "correct_match", correct)  # the other desk's change lands once
        teams = client.get("/api/tournaments/cup").json()["teams"]
        teams[0]["roster"][0]["handicap"] = 5  # Blue 14 against Red 8: Red's 2.5 goals by handicap become 4
        Desk(store).change("cup", {"teams": teams})
        return correct(*args, **kwargs)

    monkeypatch.setattr(store, "correct_match", after_another_desk)
    reply = client.put(f"/api/matches/{code}", json={"start": {**start, "venue": "Cancha 2"}, "reason": "r"},
                       headers=AUTH)
    said(reply, 400, f"{HELD}, and the desk refuses this match.start for it: the log for fixture Cup-R1-1 is not "
                     'the match the tournament plays: its match.start gives handicap_goals {"Blue":0,"Red":2.5}, '
                     'the tournament\'s match gives {"Blue":0,"Red":4}', HELD_ES)
    assert stored_start(client, code) == start and not store.removals()


def test_matchstate_correct_of_a_fixtures_match_start_is_checked_as_the_desk_opened_it(
        client: TestClient, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`matchstate correct` put another match.start in the place of a fixture's match opened at the desk,
    unchecked, as the web's correction did."""
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    code = cup(client)
    start = stored_start(client, code)
    path = tmp_path / "start.json"
    for fields, english, _ in CORRECTED:
        path.write_text(json.dumps(corrected(start, fields)) + "\n", encoding="utf-8")
        assert main(["correct", code, str(path), "--reason", "r"]) == COULD_NOT_RUN
        assert capsys.readouterr().err.startswith(
            f"matchstate: {HELD}, and the desk refuses this match.start for it: {english}")
        assert stored_start(client, code) == start and not store.removals()

    path.write_text(json.dumps({**start, "officials": ["Umpire Tres"]}) + "\n", encoding="utf-8")
    assert main(["correct", code, str(path), "--reason", "another umpire"]) == 0
    assert stored_start(client, code)["officials"] == ["Umpire Tres"]


def test_a_fixture_whose_match_stands_keeps_its_place_and_teams_and_only_its_time_and_field_change(
        client: TestClient, store: Store) -> None:
    """A change of the fixtures dropped one whose match was played ({"fixtures": []}: the result gone from the
    standings, the match held by no fixture, and the draw made again over it) or set other teams against its match."""
    code = cup(client)
    fixtures = client.get("/api/tournaments/cup").json()["fixtures"]
    swapped = [{**fixtures[0], "home": fixtures[0]["away"], "away": fixtures[0]["home"]}]
    for change, english, spanish in (
            ([], f"fixture Cup-R1-1 holds match {code}, which stands: a change cannot leave the fixture out",
             f"el partido Cup-R1-1 ya tiene su partido, {code}, que sigue en pie: un cambio no puede quitarlo"),
            (swapped, f"fixture Cup-R1-1 holds match {code}, which stands: only its day, time and field can change "
                      "(remove the match first to change anything else of it)",
             f"el partido Cup-R1-1 ya tiene su partido, {code}, que sigue en pie: solo pueden cambiar su día")):
        version, before = fixture_now(client)
        said(client.patch("/api/tournaments/cup", json={"fixtures": change}, headers=AUTH), 400, english, spanish)
        assert fixture_now(client) == (version, before)
    said(client.post("/api/tournaments/cup/draw", json={"format": "bracket", "seed": "again"}, headers=AUTH), 400,
         "", "")
    # Moved, given back with its match or without it (the desk's own field, which a client need not send): it keeps
    # its match either way, where a fixture sent without one had been refused as changed.
    for moved in ({**fixtures[0], "day": "2026-12-06", "time": "15:30", "field": "Cancha 2"},
                  {name: value for name, value in fixtures[0].items() if name != "match"}
                  | {"day": "2026-12-07", "time": "16:00"}):
        reply = client.patch("/api/tournaments/cup", json={"fixtures": [moved]}, headers=AUTH)
        assert reply.status_code == 200, reply.text
        assert (fixture_now(client)[1]["time"], fixture_now(client)[1]["match"]) == (moved["time"], code)

    played_and_removed(client, code)  # the match gone: the fixture is the desk's to change again
    reply = client.patch("/api/tournaments/cup", json={"fixtures": swapped}, headers=AUTH)
    assert reply.status_code == 200, reply.text


def test_a_tournament_that_cannot_be_read_stops_no_other_match_from_being_created(client: TestClient,
                                                                                  store: Store) -> None:
    cup(client)
    with store.database.transaction(write=True) as connection:  # a document changed behind the desk's back
        connection.execute(update(TournamentRow).values(doc={"slug": "cup", "fixtures": [{"match": 7}], "teams": 3}))
    created = client.post("/api/matches", json={"type": "match.start", "at": at(0), "match": "friendly",
                                                "teams": ["Blue", "Red"]}, headers=AUTH)
    assert created.status_code == 201, created.text
