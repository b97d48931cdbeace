"""The tournament desk over HTTP on SQLite and PostgreSQL: made with the league key, its matches played through
the ordinary API, its pages, its iCalendar and JSON feeds and its results packet."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import insert
from sqlalchemy import text as text_sql

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from tournament_helpers import at, desk_client, team

from matchstate.models import TournamentRow
from matchstate.store import Store
from matchstate.tournaments.feeds import folded

LEAGUE = "league-key-for-the-desk"
AUTH = {"Authorization": f"Bearer {LEAGUE}"}


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    yield from desk_client(store, LEAGUE)


def begun(client: TestClient, fixture: str, code: str, slug: str = "cup", **fields: Any) -> dict[str, Any]:
    """The match.start of a result kept on paper for ``fixture``, as the desk gives it, coded ``code``."""
    reply = client.get(f"/api/tournaments/{slug}/fixtures/{fixture}/start", headers=AUTH)
    assert reply.status_code == 200, reply.text
    return {**reply.json(), "at": at(0), "match": code, **fields}


def made(client: TestClient, slug: str = "cup") -> dict[str, Any]:
    body = {"slug": slug, "name": "Copa Ñandú de Otoño, Pilar", "starts": "2026-12-05", "ends": "2026-12-12",
            "venue": "Pilar", "conditions": {"chukkers": 4, "handicap_max": 16},
            "officials": ["Umpire Uno", "Referee Dos"],
            "teams": [team("Blue", 3, 3, 3, 3), team("Red", 3, 2, 2, 2), team("Gold"), team("Green", 1, 1, 1, 1)]}
    reply = client.post("/api/tournaments", json=body, headers=AUTH)
    assert reply.status_code == 201, reply.text
    reply = client.post(f"/api/tournaments/{slug}/draw", json={"format": "bracket", "seed": "s1"}, headers=AUTH)
    assert reply.status_code == 200, reply.text
    drawn: dict[str, Any] = reply.json()
    return drawn


def play(client: TestClient, scorer: str, official: str, code: str, *goals: str) -> None:
    headers = {"Authorization": f"Bearer {scorer}"}
    events: list[dict[str, Any]] = [
        {"type": "chukker.start", "chukker": 1}, *({"type": "goal", "team": name} for name in goals),
        {"type": "chukker.end", "chukker": 1}, {"type": "match.end"}]
    for n, event in enumerate(events, 1):
        reply = client.post(f"/api/matches/{code}/events", json={"event": {**event, "at": at(n)}}, headers=headers)
        assert reply.status_code == 201, reply.text


def test_the_league_key_makes_a_tournament_and_its_refusals_speak_both_languages(client: TestClient) -> None:
    body = {"slug": "cup", "name": "Cup", "teams": [team("Blue")]}
    assert client.post("/api/tournaments", json=body).status_code == 401
    assert client.post("/api/tournaments", json=body, headers={"Authorization": "Bearer no"}).status_code == 403
    bad = client.post("/api/tournaments", json={**body, "conditions": {"tiebreaks": ["luck"]}}, headers=AUTH)
    assert bad.status_code == 400 and bad.json()["words"]["es"].startswith("el campo tiebreaks no puede ser luck")
    missing = client.get("/api/tournaments/nope")
    assert missing.status_code == 404 and missing.json()["words"]["es"] == "ningún torneo se llama nope"


def test_a_bracket_flows_from_its_matches_into_feeds_pages_and_the_packet(client: TestClient) -> None:
    drawn = made(client)
    assert drawn["draw"]["seeds"] == ["Blue", "Red", "Gold", "Green"]
    semi = {f["id"]: f for f in drawn["progress"]["fixtures"]}
    assert (semi["Cup-R1-1"]["home"], semi["Cup-R1-1"]["away"]) == ("Blue", "Green")
    reply = client.put("/api/tournaments/cup/fixtures/Cup-R1-1/schedule",
                       json={"day": "2026-12-05", "time": "15:00", "field": "Field 1"}, headers=AUTH)
    assert reply.status_code == 200
    opened = client.post("/api/tournaments/cup/fixtures/Cup-R1-1/match", headers=AUTH).json()
    code = opened["code"]
    match = client.get(f"/api/matches/{code}").json()
    assert match["score"] == {"Blue": 0, "Green": 5.5}  # 12 against 4 over 4 chukkers: 32/6, a half goal
    play(client, opened["scorer_key"], opened["official_key"], code, *["Blue"] * 7)
    final = {f["id"]: f for f in client.get("/api/tournaments/cup").json()["progress"]["fixtures"]}
    assert final["Cup-R2-1"]["home"] == "Blue" and final["Cup-R1-1"]["status"] == "ended"
    page = client.get("/tournaments/cup")
    assert page.status_code == 200 and "<svg" in page.text and "style=" not in page.text and "onclick" not in page.text
    assert "7 – 5½" in page.text and "5.5" not in page.text  # a half goal as the sheet and the bracket write it
    client.cookies.set("matchstate_lang", "es")
    spanish = client.get("/tournaments/cup").text
    assert "Partidos" in spanish and "terminado" in spanish
    assert "ganador de Cup-R1-2" in spanish and "winner of Cup-R1-2" in page.text  # the final's team to come
    assert "Mesa de control" in client.get("/tournaments/cup/desk").text
    client.cookies.clear()
    ics = client.get("/api/tournaments/cup/calendar.ics")
    assert ics.headers["content-type"].startswith("text/calendar")
    text = ics.text
    assert text.startswith("BEGIN:VCALENDAR\r\n") and text.endswith("END:VCALENDAR\r\n")
    assert "UID:Cup-R1-1@cup." in text and "DTSTART:20261205T150000" in text
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))
    assert "SUMMARY:Blue v Green (7-5½)" in text
    # a team to come is said in words, in the reader's language, as the pages say it (not "winner:Cup-R1-2")
    client.put("/api/tournaments/cup/fixtures/Cup-R2-1/schedule", json={"day": "2026-12-12", "time": "16:00"},
               headers=AUTH)
    english_ics = client.get("/api/tournaments/cup/calendar.ics").text.replace("\r\n ", "")  # lines unfolded
    assert "winner of Cup-R1-2" in english_ics and "round 2" in english_ics and "winner:" not in english_ics
    client.cookies.set("matchstate_lang", "es")
    spanish_ics = client.get("/api/tournaments/cup/calendar.ics").text.replace("\r\n ", "")
    assert "ganador de Cup-R1-2" in spanish_ics and "ronda 2" in spanish_ics and "winner:" not in spanish_ics
    client.cookies.clear()
    results = client.get("/api/tournaments/cup/results.json").json()
    assert results["fixtures"][0]["winner"] == "Blue"
    packet = client.get("/api/tournaments/cup/packet.json").json()
    first = next(m for m in packet["matches"] if m["id"] == "Cup-R1-1")
    assert first["handicap_goals"] == {"Blue": 0, "Green": 5.5} and first["officials"] == ["Umpire Uno", "Referee Dos"]
    assert first["last_hash"] == first["receipt"]["hash"] and first["last_seq"] == first["receipt"]["seq"]
    assert packet["teams"][0] == {"name": "Blue", "handicap": 12, "roster": [
        {"player": n, "name": f"Blue {n}", "handicap": 3} for n in range(1, 5)]}
    csv = client.get("/api/tournaments/cup/packet.csv").text
    assert csv.splitlines()[1].startswith("Cup-R1-1,Cup,1,2026-12-05,15:00,Field 1,Blue,Green,7,5.5,0,5.5,Blue,ended,")


def test_a_result_kept_on_paper_is_entered_as_a_whole_log_and_two_yellows_sit_a_player_out(client: TestClient) -> None:
    made(client)
    log: list[dict[str, Any]] = [begun(client, "Cup-R1-2", "paper-1"),
           {"type": "chukker.start", "chukker": 1, "at": at(1)},
           {"type": "card", "team": "Red", "player": 1, "colour": "yellow", "at": at(2)},
           {"type": "card", "team": "Red", "player": 1, "colour": "yellow", "at": at(3)},
           {"type": "goal", "team": "Red", "at": at(4)}, {"type": "chukker.end", "chukker": 1, "at": at(5)},
           {"type": "match.end", "at": at(6)}]
    text = "\n".join(json.dumps(event) for event in log)
    wrong = client.post("/api/tournaments/cup/fixtures/Cup-R1-1/import", content=text, headers=AUTH)
    assert wrong.status_code == 400 and "Blue v Green" in wrong.json()["detail"]
    entered = client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", content=text, headers=AUTH)
    assert entered.status_code == 201, entered.text
    fixtures = {f["id"]: f for f in client.get("/api/tournaments/cup").json()["progress"]["fixtures"]}
    assert fixtures["Cup-R2-1"]["away"] == "Red"
    # the final put off to a day that is always ahead, the tournament's end with it
    assert client.patch("/api/tournaments/cup", json={"ends": "2099-12-31"}, headers=AUTH).status_code == 200
    assert client.put("/api/tournaments/cup/fixtures/Cup-R2-1/schedule", json={"day": "2099-12-12", "time": "16:00"},
                      headers=AUTH).status_code == 200
    ledger = client.get("/api/discipline", headers=AUTH).json()
    assert ledger == [{"team": "Red", "name": "Red 1", "cards": ledger[0]["cards"], "suspensions": [
        {"seconds": 120, "earned_in": "paper-1", "served_in": "Cup-R2-1", "passed": []}]}]
    assert len(ledger[0]["cards"]) == 2
    refused = client.post("/api/tournaments/cup/fixtures/Cup-R2-1/match", headers=AUTH)
    assert refused.status_code == 400  # Blue v Green has no result yet
    other = [begun(client, "Cup-R1-1", "paper-2") if n == 0 else
             {**event, "team": "Blue"} if "team" in event and event["type"] == "goal" else event
             for n, event in enumerate(log) if event["type"] != "card"]
    lines = "\n".join(json.dumps(event) for event in other)
    assert client.post("/api/tournaments/cup/fixtures/Cup-R1-1/import", content=lines, headers=AUTH).status_code == 201
    final = client.post("/api/tournaments/cup/fixtures/Cup-R2-1/match", headers=AUTH).json()
    sit_outs = client.get(f"/api/matches/{final['code']}/sit-outs").json()
    assert sit_outs == [{"team": "Red", "name": "Red 1", "seconds": 120, "earned_in": "paper-1"}]
    assert client.get("/api/matches/paper-1/sit-outs").json() == []


def test_folding_keeps_each_line_within_75_octets_without_splitting_a_character() -> None:
    line = "SUMMARY:" + "ñ" * 100
    folded_line = folded(line)
    parts = folded_line.split("\r\n ")
    assert "".join(parts) == line and all(len(part.encode()) <= 75 - (i > 0) for i, part in enumerate(parts))


def test_the_packet_prints_every_sheet_and_the_discipline_page_shows_each_players_cards(client: TestClient) -> None:
    """The federation's packet to print: results, rosters with handicaps, officials, cards and suspensions and
    each match's score sheet with its receipt; the record keeper's page per player (league key)."""
    made(client)
    log = [begun(client, "Cup-R1-2", "paper-3", officials=["Umpire Uno"]),
           {"type": "chukker.start", "chukker": 1, "at": at(1)},
           {"type": "card", "team": "Red", "player": 1, "colour": "yellow", "at": at(2)},
           {"type": "card", "team": "Red", "player": 1, "colour": "yellow", "at": at(3)},
           {"type": "goal", "team": "Red", "player": 1, "at": at(4)},
           {"type": "chukker.end", "chukker": 1, "at": at(5)}, {"type": "match.end", "at": at(6)}]
    text = "\n".join(json.dumps(event) for event in log)
    assert client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", content=text, headers=AUTH).status_code == 201
    page = client.get("/tournaments/cup/packet")
    assert page.status_code == 200 and "style=" not in page.text and "onclick" not in page.text
    html = page.text
    assert "Results packet: Copa Ñandú de Otoño, Pilar" in html
    assert "Red 1 – 0½ Gold · Red won" in html  # Gold half a goal up on handicap
    assert "Blue 1 (3)" in html  # a roster line with its handicap
    assert "Red 1 (Red) sits out the first 120 s, for two yellow cards (the second in paper-3)" in html
    assert html.count('class="packet-sheet"') == 1 and 'class="sheet"' in html and "matchstate verify" in html
    client.cookies.set("matchstate_lang", "es")
    assert "Informe de resultados" in client.get("/tournaments/cup/packet").text
    client.cookies.clear()

    assert client.get("/discipline").status_code == 401  # the league's own record
    ledger = client.get(f"/discipline?key={LEAGUE}").text
    assert "Discipline ledger" in ledger and "Red 1" in ledger and ledger.count("yellow card · paper-3") == 2
    one = client.get(f"/discipline?key={LEAGUE}&team=Red&name=Red 1").text
    assert "Every player" in one and "served in the team&#39;s next eligible game" in one.replace("'", "&#39;")


def refusal(reply: Any, english: str, spanish: str) -> None:
    """A 400 whose words say ``english`` and ``spanish`` (each the start of its phrase)."""
    assert reply.status_code == 400, reply.text
    words = reply.json()["words"]
    assert reply.json()["detail"] == words["en"] and words["en"].startswith(english) and words["es"].startswith(spanish)


def still_answered(client: TestClient, *slugs: str) -> None:
    """Every read of the league answers: each tournament's, the discipline ledger and a match's sit-outs."""
    for slug in slugs:
        for path in ("", "/calendar.ics", "/results.json", "/packet.json", "/packet.csv"):
            assert client.get(f"/api/tournaments/{slug}{path}").status_code == 200, (slug, path)
        for page in ("", "/desk", "/packet"):
            assert client.get(f"/tournaments/{slug}{page}").status_code == 200, (slug, page)
    assert client.get("/api/discipline", headers=AUTH).status_code == 200
    assert client.get("/api/tournaments").status_code == 200
    opened = client.post("/api/tournaments/cup/fixtures/Cup-R1-1/match", headers=AUTH)
    code = opened.json()["code"] if opened.status_code == 201 else "cup-Cup-R1-1"
    assert client.get(f"/api/matches/{code}/sit-outs").status_code == 200


A_V_B = {"name": "T", "teams": [{"name": "A"}, {"name": "B"}, {"name": "C"}, {"name": "D"}]}


def test_a_match_code_that_is_not_text_is_refused_and_nothing_is_stored(client: TestClient) -> None:
    made(client)
    for match in ({"x": 1}, ["cup-1"], 5, True):
        fixtures = [{"id": "f1", "home": "A", "away": "B", "match": match}]
        reply = client.post("/api/tournaments", json={**A_V_B, "slug": "t1", "fixtures": fixtures}, headers=AUTH)
        refusal(reply, "field match must be text, not", "el campo match debe ser un texto, no")
        assert client.get("/api/tournaments/t1").status_code == 404
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t1"}, headers=AUTH).status_code == 201
    patched = client.patch("/api/tournaments/t1", headers=AUTH,
                           json={"fixtures": [{"id": "f1", "home": "A", "away": "B", "match": [1]}]})
    refusal(patched, "field match must be text", "el campo match debe ser un texto")
    added = client.post("/api/tournaments/t1/fixtures", headers=AUTH,
                        json=[{"id": "f1", "home": "A", "away": "B", "match": {"x": 1}}])
    refusal(added, "field match must be text", "el campo match debe ser un texto")
    assert client.get("/api/tournaments/t1").json()["fixtures"] == []
    still_answered(client, "t1", "cup")


def test_a_place_from_a_group_the_tournament_lacks_is_refused_and_one_not_decided_yet_waits(
        client: TestClient) -> None:
    place = {"kind": "place", "ref": "G", "place": 1}
    reply = client.post("/api/tournaments", headers=AUTH, json={
        **A_V_B, "slug": "t2", "fixtures": [{"id": "f1", "home": place, "away": {**place, "place": 2}}]})
    refusal(reply, "t2 has no group G to take place 1 from", "t2 no tiene la zona G de la que tomar el puesto 1")
    assert client.get("/api/tournaments/t2").status_code == 404
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t3"}, headers=AUTH).status_code == 201
    drawn = client.post("/api/tournaments/t3/draw", json={"format": "groups", "seed": "s", "groups": 2}, headers=AUTH)
    assert drawn.status_code == 200
    before = client.get("/api/tournaments/t3").json()
    z = {"kind": "place", "ref": "Group Z"}
    for entrants, english in (([{**z, "place": 1}, {**z, "place": 2}], "t3 has no group Group Z to take place 1"),
                              ([{"kind": "place", "ref": "A", "place": 0}, "B"], "a place in group A counts from 1")):
        refusal(client.post("/api/tournaments/t3/brackets", json={"stage": "Cup", "entrants": entrants}, headers=AUTH),
                english, "t3 no tiene la zona" if "Z" in english else "un puesto de la zona A se cuenta desde 1")
    refusal(client.post("/api/tournaments/t3/fixtures", headers=AUTH,
                        json=[{"id": "x", "kind": "knockout", "home": {**z, "place": 1}, "away": "A"}]),
            "t3 has no group Group Z", "t3 no tiene la zona Group Z")
    assert client.get("/api/tournaments/t3").json() == before
    # A group fed by a knockout not played yet: its table has no team, and its places are not decided yet.
    pool = [{"id": "s1", "kind": "knockout", "home": "A", "away": "B"},
            {"id": "s2", "kind": "knockout", "home": "C", "away": "D"},
            {"id": "p1", "stage": "Pool", "home": {"kind": "winner", "ref": "s1"},
             "away": {"kind": "winner", "ref": "s2"}},
            {"id": "final", "kind": "knockout", "home": {"kind": "place", "ref": "Pool", "place": 1},
             "away": {"kind": "place", "ref": "Pool", "place": 2}}]
    reply = client.post("/api/tournaments", json={**A_V_B, "slug": "pool", "name": "Pool", "fixtures": pool},
                        headers=AUTH)
    assert reply.status_code == 201, reply.text
    progress = reply.json()["progress"]
    assert progress["groups"] == {"Pool": []} and progress["complete"] == []
    final = next(f for f in progress["fixtures"] if f["id"] == "final")
    assert (final["home"], final["away"], final["status"]) == (None, None, "waiting")
    made(client)
    still_answered(client, "t3", "pool", "cup")


def test_a_bracket_entrant_of_the_wrong_shape_is_refused(client: TestClient) -> None:
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t4"}, headers=AUTH).status_code == 201
    for entrant, english, spanish in (
            (None, "where a team comes from must be its name or an object with kind and ref, not null",
             "de dónde sale un equipo debe ser su nombre o un objeto con kind y ref, no null"),
            (5, "where a team comes from must be its name or an object with kind and ref, not 5", "de dónde sale"),
            ([], "where a team comes from must be its name or an object with kind and ref, not []", "de dónde sale"),
            ({"kind": "place"}, "missing field ref", "falta el campo ref"),
            ({"kind": "loser", "ref": ["x"]}, 'field ref must be text, not ["x"]', "el campo ref debe ser un texto"),
            ({"kind": "place", "ref": "A", "place": "1"}, 'field place must be a whole number, not "1"',
             "el campo place debe ser un número entero")):
        reply = client.post("/api/tournaments/t4/brackets", json={"stage": "Cup", "entrants": [entrant, "A"]},
                            headers=AUTH)
        refusal(reply, english, spanish)
    assert client.get("/api/tournaments/t4").json()["fixtures"] == []
    made(client)
    still_answered(client, "t4", "cup")


def test_a_bracket_that_would_make_nothing_wait_for_ever_or_share_a_stage_is_refused(client: TestClient) -> None:
    """Answered 200 each: a bracket of one entrant or none (no fixture made), a final fed by place 7 of a group of
    two teams (it waited for ever), and a second bracket under a stage taken ("two fixtures have the same id")."""
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t14"}, headers=AUTH).status_code == 201
    drawn = client.post("/api/tournaments/t14/draw", json={"format": "groups", "seed": "s", "groups": 2}, headers=AUTH)
    assert drawn.status_code == 200
    before = client.get("/api/tournaments/t14").json()
    place = {"kind": "place", "ref": "A"}
    for entrants, stage, english, spanish in (
            ([], "Cup", "a bracket needs two entrants at least: Cup has 0",
             "un cuadro necesita al menos dos participantes: Cup tiene 0"),
            (["A"], "Cup", "a bracket needs two entrants at least: Cup has 1", "un cuadro necesita al menos dos"),
            ([{**place, "place": 1}, {**place, "place": 7}], "Cup", "group A has 2 teams: it has no place 7",
             "la zona A tiene 2 equipos: no tiene el puesto 7"),
            (["A", "B"], "a", "t14 has a stage a already: a new bracket needs a name of its own",
             "t14 ya tiene una etapa a: un cuadro nuevo necesita un nombre propio")):
        refusal(client.post("/api/tournaments/t14/brackets", json={"stage": stage, "entrants": entrants},
                            headers=AUTH), english, spanish)
    assert client.get("/api/tournaments/t14").json() == before
    cup = client.post("/api/tournaments/t14/brackets", headers=AUTH,
                      json={"stage": "Cup", "entrants": [{**place, "place": 1}, {**place, "place": 2}]})
    assert cup.status_code == 200, cup.text


def test_a_fixture_is_scheduled_within_the_tournaments_dates(client: TestClient) -> None:
    """A fixture scheduled on 2026-12-25 was taken for a tournament that ends on 2026-12-20, without a word."""
    dates = {"starts": "2026-12-05", "ends": "2026-12-20"}
    fixture = {"id": "f1", "home": "A", "away": "B"}
    assert client.post("/api/tournaments", json={**A_V_B, **dates, "slug": "t16", "fixtures": [fixture]},
                       headers=AUTH).status_code == 201
    for day in ("2026-12-25", "2026-12-04"):
        refusal(client.put("/api/tournaments/t16/fixtures/f1/schedule", json={"day": day, "time": "15:00"},
                           headers=AUTH),
                f"fixture f1 cannot be played on {day}: the tournament runs from 2026-12-05 to 2026-12-20",
                f"el partido f1 no puede jugarse el {day}: el torneo va del 2026-12-05 al 2026-12-20")
    assert client.get("/api/tournaments/t16").json()["fixtures"][0]["day"] == ""
    for day in ("2026-12-05", "2026-12-20"):
        reply = client.put("/api/tournaments/t16/fixtures/f1/schedule", json={"day": day, "time": "15:00"},
                           headers=AUTH)
        assert reply.status_code == 200, reply.text



def test_a_change_of_the_fixtures_or_the_dates_is_held_to_what_the_schedule_door_holds(client: TestClient) -> None:
    """A PATCH of the fixtures took a day outside the tournament's dates, two fixtures on one field at one kickoff and
    a team in two at once, each of which the schedule door refuses; and new dates that left a scheduled fixture
    outside them, published so by the feeds. Each is refused, naming the fixture, and nothing changes."""
    f1 = {"id": "f1", "home": "A", "away": "B", "day": "2026-12-10", "time": "15:00", "field": "1"}
    f2 = {"id": "f2", "home": "C", "away": "D"}
    body = {**A_V_B, "slug": "t17", "starts": "2026-12-05", "ends": "2026-12-20", "fixtures": [f1, f2]}
    assert client.post("/api/tournaments", json=body, headers=AUTH).status_code == 201
    before = client.get("/api/tournaments/t17").json()
    moves = [
        ({**f2, "day": "2026-12-30", "time": "10:00"}, "fixture f2 cannot be played on 2026-12-30",
         "el partido f2 no puede jugarse el 2026-12-30"),
        ({**f2, "day": "2026-12-10", "time": "15:00", "field": "1"}, "1 has fixture f1 on 2026-12-10 at 15:00 already",
         "1 ya tiene el partido f1 el 2026-12-10 a las 15:00"),
        ({**f2, "home": "A", "day": "2026-12-10", "time": "15:00", "field": "2"},
         "A plays fixture f1 on 2026-12-10 at 15:00 already", "A ya juega el partido f1 el 2026-12-10 a las 15:00")]
    for moved, english, spanish in moves:
        refusal(client.patch("/api/tournaments/t17", json={"fixtures": [f1, moved]}, headers=AUTH), english, spanish)
    refusal(client.patch("/api/tournaments/t17", json={"ends": "2026-12-08"}, headers=AUTH),
            "the tournament cannot run from 2026-12-05 to 2026-12-08: fixture f1 is scheduled on 2026-12-10",
            "el torneo no puede ir del 2026-12-05 al 2026-12-08: el partido f1 está programado el 2026-12-10")
    assert client.get("/api/tournaments/t17").json() == before
    kept = client.patch("/api/tournaments/t17", json={"fixtures": [f1, {**f2, "day": "2026-12-10", "time": "15:00",
                                                                         "field": "2"}], "ends": "2026-12-10"},
                        headers=AUTH)
    assert kept.status_code == 200, kept.text  # another field, other teams, within the new dates

def test_a_tournaments_slug_is_kept_and_a_change_of_it_is_refused(client: TestClient) -> None:
    """`{"slug": "other"}` was answered 200 and changed nothing, the desk taking it for made."""
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t15"}, headers=AUTH).status_code == 201
    before = client.get("/api/tournaments/t15").json()
    refusal(client.patch("/api/tournaments/t15", json={"slug": "other", "venue": "Pilar"}, headers=AUTH),
            'a tournament keeps its slug, t15, which its addresses and its matches\' codes carry: not "other"',
            "un torneo conserva su slug, t15")
    assert client.get("/api/tournaments/t15").json() == before
    reply = client.patch("/api/tournaments/t15", json={"slug": "t15", "venue": "Pilar"}, headers=AUTH)
    assert reply.status_code == 200 and reply.json()["venue"] == "Pilar", reply.text


def test_a_day_and_time_are_checked_on_every_path_in_and_the_calendar_reads_past_what_it_cannot(
        client: TestClient) -> None:
    fixture = {"id": "f1", "home": "A", "away": "B"}
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t5", "fixtures": [fixture]},
                       headers=AUTH).status_code == 201
    late = client.put("/api/tournaments/t5/fixtures/f1/schedule", json={"day": "9999-12-31", "time": "23:00"},
                      headers=AUTH)
    refusal(late, "a match on 9999-12-31 at 23:00 would end past the last day a date can hold",
            "un partido el 9999-12-31 a las 23:00 terminaría después")
    # what is no day or time, and what ISO 8601 reads but a desk would not mean: an hour alone, a week's day, a
    # day without its dashes, an offset, seconds
    for day, time in (("x", "y"), ("2026-13-45", "99:99"), ("0000-01-01", "-1:00"), ("", "15:00"),
                      ("2026-12-06", "15"), ("2026-W49-1", "10:00"), ("20261206", "1000"), ("2026-12-06", "10:00Z"),
                      ("2026-12-06", "10:00:30"), ("٢٠٢٦-١٢-٠٦", "10:00")):
        said = f"the day and time must read as YYYY-MM-DD and HH:MM, not {day} {time}"
        refusal(client.post("/api/tournaments", headers=AUTH,
                            json={**A_V_B, "slug": "t6", "fixtures": [{**fixture, "day": day, "time": time}]}),
                said, "el día y la hora deben leerse como AAAA-MM-DD y HH:MM")
        refusal(client.post("/api/tournaments/t5/fixtures", headers=AUTH,
                            json=[{**fixture, "id": "f2", "day": day, "time": time}]), said, "el día y la hora")
        refusal(client.put("/api/tournaments/t5/fixtures/f1/schedule", json={"day": day, "time": time},
                           headers=AUTH), said, "el día y la hora")
    refusal(client.post("/api/tournaments", headers=AUTH,
                        json={**A_V_B, "slug": "t6", "fixtures": [{**fixture, "day": "9999-12-31", "time": "23:00"}]}),
            "a match on 9999-12-31 at 23:00 would end past", "un partido el 9999-12-31")
    refusal(client.patch("/api/tournaments/t5", headers=AUTH, json={"fixtures": [{**fixture, "day": 20261205}]}),
            "field day must be text, not 20261205", "el campo day debe ser un texto")
    assert client.get("/api/tournaments/t6").status_code == 404
    assert client.get("/api/tournaments/t5").json()["fixtures"][0]["day"] == ""
    made(client)
    still_answered(client, "t5", "cup")


def test_a_fixture_import_whose_teams_are_not_names_is_refused(client: TestClient) -> None:
    made(client)
    for teams in ([["Blue"], "Green"], [{"Blue": 1}, "Green"], [None, "Green"]):
        start = {"type": "match.start", "at": at(0), "match": "paper-odd", "teams": teams}
        reply = client.post("/api/tournaments/cup/fixtures/Cup-R1-1/import", content=json.dumps(start),
                            headers={**AUTH, "Content-Type": "application/jsonl"})
        assert reply.status_code == 422 and reply.json()["line"] == 1, reply.text
        assert reply.json()["detail"].startswith("line 1: match.start: field 'teams' ")
    assert client.get("/api/tournaments/cup").json()["fixtures"][0]["match"] is None
    still_answered(client, "cup")


def test_a_new_time_keeps_the_fixtures_field_and_a_misspelt_field_is_refused(client: TestClient) -> None:
    made(client)
    url = "/api/tournaments/cup/fixtures/Cup-R1-1/schedule"
    assert client.put(url, json={"day": "2026-12-10", "time": "15:00", "field": "Field 3"},
                      headers=AUTH).status_code == 200
    assert client.put(url, json={"day": "2026-12-10", "time": "15:30"}, headers=AUTH).status_code == 200
    fixture = client.get("/api/tournaments/cup").json()["fixtures"][0]
    assert (fixture["time"], fixture["field"]) == ("15:30", "Field 3")
    misspelt = client.put(url, json={"day": "2026-12-11", "time": "16:00", "feild": "Field 4"}, headers=AUTH)
    assert misspelt.status_code == 422 and "feild" in misspelt.json()["words"]["en"], misspelt.text
    for body in ({"format": "bracket", "seed": "s", "sede": "x"}, {"stage": "Plate", "entrants": [], "kind": "x"}):
        path = "draw" if "seed" in body else "brackets"
        assert client.post(f"/api/tournaments/cup/{path}", json=body, headers=AUTH).status_code == 422
    fixture = client.get("/api/tournaments/cup").json()["fixtures"][0]
    assert (fixture["day"], fixture["time"], fixture["field"]) == ("2026-12-10", "15:30", "Field 3")
    assert client.put(url, json={"day": "2026-12-10", "time": "15:30", "field": ""},
                      headers=AUTH).json()["fixtures"][0]["field"] == ""  # given empty, it is emptied


def test_a_knockout_ended_level_says_it_is_decided_by_play_rather_than_wait(client: TestClient) -> None:
    """A semi-final ended level sent no one to the final, which waited for teams with nothing said of why."""
    teams = [team(name, 2, 2, 2, 2) for name in ("A", "B", "C", "D")]  # no goals by handicap: 0 - 0 is level
    assert client.post("/api/tournaments", json={"slug": "ko", "name": "KO", "teams": teams},
                       headers=AUTH).status_code == 201
    drawn = client.post("/api/tournaments/ko/draw", json={"format": "bracket", "seed": "s"}, headers=AUTH).json()
    semi = next(f for f in drawn["progress"]["fixtures"] if f["id"] == "Cup-R1-2")
    opened = client.post("/api/tournaments/ko/fixtures/Cup-R1-2/match", headers=AUTH).json()
    play(client, opened["scorer_key"], opened["official_key"], opened["code"], semi["home"], semi["away"])  # 1 - 1
    fixtures = {f["id"]: f for f in client.get("/api/tournaments/ko").json()["progress"]["fixtures"]}
    assert (fixtures["Cup-R1-2"]["status"], fixtures["Cup-R1-2"]["winner"]) == ("level", None)
    assert fixtures["Cup-R2-1"]["status"] == "waiting"
    assert "ended level: a knockout is decided by play (void its match.end and play on)" in client.get(
        "/tournaments/ko").text
    client.cookies.set("matchstate_lang", "es")
    assert "terminó empatado: una eliminatoria se define jugando" in client.get("/tournaments/ko/desk").text
    client.cookies.clear()


def test_a_group_game_ended_level_shows_in_the_standings_as_level(client: TestClient) -> None:
    """The table had Played and Won only: a team with two games level read as played 2, won 0."""
    teams = [team(name, 2, 2, 2, 2) for name in ("A", "B")]
    assert client.post("/api/tournaments", json={"slug": "gr", "name": "GR", "teams": teams},
                       headers=AUTH).status_code == 201
    drawn = client.post("/api/tournaments/gr/draw", json={"format": "groups", "seed": "s"}, headers=AUTH).json()
    [game] = drawn["progress"]["fixtures"]
    opened = client.post(f"/api/tournaments/gr/fixtures/{game['id']}/match", headers=AUTH).json()
    play(client, opened["scorer_key"], opened["official_key"], opened["code"], "A", "B")
    page = client.get("/tournaments/gr").text
    table = page[page.index('<table class="standings">'):page.index("</table>")]
    assert "<th scope=\"col\">Level</th>" in table and "<th scope=\"col\">Lost</th>" in table
    # each scoreboard's link says whose it is, to a screen reader's list of links too
    assert f'aria-label="scoreboard of {game["home"]} v {game["away"]}"' in page
    for name in ("A", "B"):  # played 1, won 0, level 1, lost 0
        row = table[table.index(f'<th scope="row">{name}</th>'):]
        assert row.split("</tr>")[0].replace("\n", "").replace(" ", "").startswith(
            f'<thscope="row">{name}</th><td>1</td><td>0</td><td>1</td><td>0</td>')


def paper(start: dict[str, Any], *, ended: bool = True, stops: int = 0) -> str:
    """A result kept on paper, begun by ``start``: its home team scores once; ``stops`` clock stops and starts in
    the chukker."""
    events: list[dict[str, Any]] = [start, {"type": "chukker.start", "chukker": 1},
                                    {"type": "goal", "team": start["teams"][0]}]
    events += [{"type": kind} for _ in range(stops) for kind in ("clock.stop", "clock.start")]
    events += [{"type": "chukker.end", "chukker": 1}, *([{"type": "match.end"}] if ended else [])]
    return "\n".join(json.dumps({**event, "at": at(-len(events) + n)}) for n, event in enumerate(events))


def test_a_result_kept_on_paper_that_is_refused_stores_nothing(client: TestClient) -> None:
    """Each refusal comes before the log is stored: no stray match whose keys nobody was given, its code taken."""
    made(client)
    url = "/api/tournaments/cup/fixtures/Cup-R1-1/import"
    start = begun(client, "Cup-R1-1", "paper-first")
    assert client.post(url, content=paper(start), headers=AUTH).status_code == 201
    again = client.post(url, content=paper({**start, "match": "paper-again"}), headers=AUTH)
    assert again.status_code == 409 and again.json()["words"] == {
        "en": "fixture Cup-R1-1 has its match already: paper-first",
        "es": "el partido Cup-R1-1 ya se abrió: paper-first"}
    unended = client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", headers=AUTH,
                          content=paper(begun(client, "Cup-R1-2", "paper-unended"), ended=False))
    refusal(unended, "a result kept on paper is a whole match: the log for fixture Cup-R1-2 must end it (match.end)",
            "un resultado llevado en papel es un partido entero: el registro del partido Cup-R1-2 debe terminarlo")
    for text in ("this is not json", ""):  # what the log is, not whose teams it must have
        pasted = client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", content=text, headers=AUTH)
        assert pasted.status_code in (400, 422) and "teams" not in pasted.json()["detail"], pasted.text
    for code in ("paper-again", "paper-unended"):
        assert client.get(f"/api/matches/{code}").status_code == 404
    fixtures = {f["id"]: f["match"] for f in client.get("/api/tournaments/cup").json()["fixtures"]}
    assert fixtures["Cup-R1-1"] == "paper-first" and fixtures["Cup-R1-2"] is None
    desk = client.get("/tournaments/cup/desk").text
    offered = desk[desk.index('id="import-form"'):desk.index("</form>", desk.index('id="import-form"'))]
    assert 'value="Cup-R1-2"' in offered and 'value="Cup-R1-1"' not in offered  # the desk offers what it takes


def test_the_desk_gives_the_first_line_of_a_result_kept_on_paper(client: TestClient) -> None:
    """The match.start the fixture's match would be opened with at the desk: its teams, their rosters, the
    tournament's conditions and name. The league's to ask; none for a fixture that has its match."""
    made(client)
    start = client.get("/api/tournaments/cup/fixtures/Cup-R1-2/start", headers=AUTH).json()
    assert (start["type"], start["teams"], start["chukkers"], start["event"]) == (
        "match.start", ["Red", "Gold"], 4, "Copa Ñandú de Otoño, Pilar")
    assert [player["handicap"] for player in start["rosters"]["Red"]] == [3, 2, 2, 2]
    assert client.get("/api/tournaments/cup/fixtures/Cup-R1-2/start").status_code == 401
    assert client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", content=paper(begun(client, "Cup-R1-2", "p")),
                       headers=AUTH).status_code == 201
    assert client.get("/api/tournaments/cup/fixtures/Cup-R1-2/start", headers=AUTH).status_code == 409


RINGER = [{"player": 1, "name": "Ringer", "handicap": 10}, {"player": 2, "name": "X", "handicap": 10}]


@pytest.mark.parametrize(("fields", "said"), [
    ({"rosters": {"Red": RINGER, "Gold": [{"player": 1, "name": "Y", "handicap": 0}]}},
     'its match.start gives handicap_goals {"Gold":13.5,"Red":0}, the tournament\'s match gives {"Gold":0.5,"Red":0}'),
    ({"chukkers": 6}, "its match.start gives chukkers 6, the tournament's match gives 4"),
    ({"event": None}, 'its match.start gives event null, the tournament\'s match gives "Copa Ñandú de Otoño, Pilar"'),
    ({"event": "Otra Copa"}, 'gives event "Otra Copa", the tournament\'s match gives "Copa Ñandú de Otoño, Pilar"'),
])
def test_a_result_kept_on_paper_is_refused_where_it_is_not_the_match_the_tournament_plays(
        client: TestClient, fields: dict[str, Any], said: str) -> None:
    """A paper log's match.start was taken as written: rosters of ringers made 20 goals by handicap and won the
    fixture, another number of chukkers, another event (the tournament's statistics and search lost it)."""
    made(client)
    start = {key: value for key, value in {**begun(client, "Cup-R1-2", "paper-ringer"), **fields}.items()
             if value is not None}
    reply = client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", content=paper(start), headers=AUTH)
    refusal(reply, "the log for fixture Cup-R1-2 is not the match the tournament plays: ",
            "el registro del partido Cup-R1-2 no es el partido que juega el torneo: ")
    assert said in reply.json()["detail"]
    assert client.get("/api/matches/paper-ringer").status_code == 404
    assert {f["id"]: f["match"] for f in client.get("/api/tournaments/cup").json()["fixtures"]}["Cup-R1-2"] is None


def test_a_paper_result_written_otherwise_but_played_alike_is_taken(client: TestClient) -> None:
    """What reads the same to the engine is the same match: a roster's players in another order, the default rule
    set named or not, a team with no goals by handicap left out of them."""
    made(client)
    start = begun(client, "Cup-R1-2", "paper-order")
    start["rosters"] = {team: list(reversed(players)) for team, players in reversed(start["rosters"].items())}
    del start["rules"]
    assert client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", content=paper(start),
                       headers=AUTH).status_code == 201
    body = {"slug": "even", "name": "Copa Pareja", "starts": "2026-12-05", "ends": "2026-12-12",
            "conditions": {"chukkers": 6}, "teams": [{"name": "Ash"}, {"name": "Elm"}]}  # no rosters
    assert client.post("/api/tournaments", json=body, headers=AUTH).status_code == 201
    assert client.post("/api/tournaments/even/draw", json={"format": "bracket", "seed": "s1"}, headers=AUTH) \
        .status_code == 200
    [fixture] = client.get("/api/tournaments/even").json()["fixtures"]
    start = {**begun(client, fixture["id"], "paper-even", slug="even"), "handicap_goals": {"Ash": 0}}
    del start["chukkers"]  # 6, the log format's default
    assert client.post(f"/api/tournaments/even/fixtures/{fixture['id']}/import", content=paper(start),
                       headers=AUTH).status_code == 201


def test_a_knockout_kept_on_paper_that_ends_level_is_refused(client: TestClient) -> None:
    """It was taken, and the bracket waited for a match that cannot be played on: a knockout is decided by play."""
    body = {"slug": "ko", "name": "Copa KO", "starts": "2026-12-05", "ends": "2026-12-12",
            "conditions": {"chukkers": 4}, "teams": [team("Ash"), team("Elm")]}  # even: no goal by handicap
    assert client.post("/api/tournaments", json=body, headers=AUTH).status_code == 201
    assert client.post("/api/tournaments/ko/draw", json={"format": "bracket", "seed": "s1"}, headers=AUTH).status_code \
        == 200
    [fixture] = client.get("/api/tournaments/ko").json()["fixtures"]
    start = begun(client, fixture["id"], "paper-level", slug="ko")
    home, away = start["teams"]
    events = [start, {"type": "chukker.start", "chukker": 1}, {"type": "goal", "team": home},
              {"type": "goal", "team": away}, {"type": "chukker.end", "chukker": 1}, {"type": "match.end"}]
    level = "\n".join(json.dumps({**event, "at": at(n - len(events))}) for n, event in enumerate(events))
    reply = client.post(f"/api/tournaments/ko/fixtures/{fixture['id']}/import", content=level, headers=AUTH)
    refusal(reply, f"a knockout is decided by play: the log for fixture {fixture['id']} ends level "
                   f"({home} 1 – {away} 1)",
            f"una eliminatoria se decide jugando: el registro del partido {fixture['id']} termina empatado")
    assert client.get("/api/matches/paper-level").status_code == 404


def test_a_whole_match_kept_on_paper_is_taken_as_an_import_is_not_cut_at_an_appends_size(client: TestClient) -> None:
    made(client)
    text = paper(begun(client, "Cup-R1-2", "paper-long"), stops=200)
    assert len(text.encode()) > 20_000  # a whole six-chukker match's log (the example full-match is 20,606 bytes)
    entered = client.post("/api/tournaments/cup/fixtures/Cup-R1-2/import", content=text, headers=AUTH)
    assert entered.status_code == 201, entered.text
    assert client.get("/api/matches/paper-long").json()["seq"] == len(text.splitlines())


def test_each_field_of_a_tournament_is_refused_where_it_is_not_the_type_it_must_be(client: TestClient) -> None:
    """A value of the wrong type is never stored as something else: no null read as the name "None", no
    "false" read as true, no limit that is no number left for the discipline ledger to trip on."""
    fixture = {"id": "f1", "home": "A", "away": "B"}
    for change, english, spanish in (
            ({"slug": 5}, "field slug must be text, not 5", "el campo slug debe ser un texto, no 5"),
            ({"name": None}, "field name must be text, not null", "el campo name debe ser un texto, no null"),
            ({"venue": ["Pilar"]}, 'field venue must be text, not ["Pilar"]', "el campo venue debe ser un texto"),
            ({"officials": "Umpire Uno"}, 'field officials must be a list, not "Umpire Uno"',
             "el campo officials debe ser una lista"),
            ({"officials": [None]}, "field officials must be text, not null", "el campo officials debe ser un texto"),
            ({"draw": 5}, "draw is the record of the draw made here", "draw es el registro del sorteo hecho aquí"),
            ({"conditions": []}, "each of conditions must be an object, not []", "cada elemento de conditions"),
            ({"conditions": {"penalty3_defended": "false"}},
             'field penalty3_defended must be true or false, not "false"', "el campo penalty3_defended debe ser true"),
            ({"conditions": {"handicap_max": "abc"}}, 'field handicap_max must be a whole number, not "abc"',
             "el campo handicap_max debe ser un número entero"),
            ({"conditions": {"chukkers": 4.5}}, "field chukkers must be a whole number, not 4.5", "el campo chukkers"),
            ({"conditions": {"tiebreaks": "wins"}}, 'field tiebreaks must be a list, not "wins"', "el campo tiebreaks"),
            ({"teams": "A"}, 'field teams must be a list, not "A"', "el campo teams debe ser una lista"),
            ({"teams": ["A"]}, 'each of teams must be an object, not "A"', "cada elemento de teams"),
            ({"teams": [{"name": 5}]}, "field name must be text, not 5", "el campo name debe ser un texto"),
            ({"teams": [{"name": "A", "roster": [{"player": "1", "name": "Ana", "handicap": 2}]}]},
             'field player must be a whole number, not "1"', "el campo player debe ser un número entero"),
            ({"fixtures": [{**fixture, "id": None}]}, "field id must be text, not null", "el campo id debe ser"),
            ({"fixtures": [{**fixture, "round": "2"}]}, 'field round must be a whole number, not "2"',
             "el campo round"),
            ({"fixtures": [{**fixture, "consolation": "no"}]}, 'field consolation must be true or false, not "no"',
             "el campo consolation debe ser true o false"),
            ({"fixtures": [{**fixture, "kind": {"x": 1}}]}, 'field kind cannot be {"x":1}', "el campo kind no puede"),
            ({"fixtures": ["f1"]}, 'each of fixtures must be an object, not "f1"', "cada elemento de fixtures")):
        body = {**A_V_B, "slug": "t7", **change}
        refusal(client.post("/api/tournaments", json=body, headers=AUTH), english, spanish)
        assert client.get("/api/tournaments/t7").status_code == 404
    assert client.get("/api/tournaments").json() == []
    long = client.post("/api/tournaments", json={**A_V_B, "slug": "t7", "venue": {"x": "y" * 500}}, headers=AUTH)
    assert long.status_code == 400 and len(long.json()["detail"]) < 120  # the value is quoted, cut short
    made(client)
    still_answered(client, "cup")


def test_what_was_stored_before_the_door_checked_it_reads_as_nothing_rather_than_failing(
        client: TestClient, store: Store) -> None:
    """A tournament kept before these checks, with a match that is no code, a place from no group, a day no
    calendar can hold and a level that is no number: every read of the league still answers."""
    made(client)
    doc = {"slug": "old", "name": "Old", "starts": "", "ends": "", "venue": "", "draw": 5, "officials": [],
           "conditions": {"rules": "uspa-2026", "chukkers": 6, "penalty3_defended": True, "handicap_min": None,
                          "handicap_max": "abc", "tiebreaks": ["wins", "net", "gross"]},
           "teams": [{"name": name, "roster": []} for name in ("Blue", "Red")],
           "fixtures": [{"id": "f1", "stage": "", "kind": "knockout", "round": 1,
                         "home": {"kind": "team", "ref": "Blue"}, "away": {"kind": "team", "ref": "Red"},
                         "day": "9999-12-31", "time": "23:00", "field": "",
                         "match": {"x": 1}, "consolation": False, "subsidiary_first_round": False},
                        {"id": "f2", "stage": "", "kind": "knockout", "round": 2,
                         "home": {"kind": "place", "ref": "G", "place": 1}, "away": {"kind": "team", "ref": "Red"},
                         "day": "x", "time": "y", "field": "", "match": None, "consolation": False,
                         "subsidiary_first_round": False}]}
    with store.database.transaction(write=True) as connection:
        connection.execute(insert(TournamentRow).values(slug="old", name="Old", doc=doc, created=datetime.now(UTC),
                                                        updated=datetime.now(UTC)))
    still_answered(client, "old", "cup")
    fixtures = client.get("/api/tournaments/old").json()["progress"]["fixtures"]
    assert [(f["match"], f["home"], f["status"]) for f in fixtures] == [(None, "Blue", "scheduled"),
                                                                        (None, None, "waiting")]
    assert "BEGIN:VEVENT" not in client.get("/api/tournaments/old/calendar.ics").text
    refusal(client.patch("/api/tournaments/old", json={"name": "Older"}, headers=AUTH),
            "a match on 9999-12-31 at 23:00 would end past", "un partido el 9999-12-31")  # a change names what to mend
    # a match for it too is refused before it is stored: it was stored, then its tournament refused (a stray match)
    matches = len(store.summaries())
    for opened in (client.post("/api/tournaments/old/fixtures/f1/match", headers=AUTH),
                   client.post("/api/tournaments/old/fixtures/f1/import", headers=AUTH,
                               content=paper({"type": "match.start", "match": "paper-old", "teams": ["Blue", "Red"]}))):
        refusal(opened, "a match on 9999-12-31 at 23:00 would end past", "un partido el 9999-12-31")
    assert len(store.summaries()) == matches


@pytest.mark.parametrize("fixture_id", ["", "a/b", ".", "..", "a\nb"])
def test_a_fixture_id_no_route_could_name_is_refused(client: TestClient, fixture_id: str) -> None:
    """Its routes name a fixture (`/api/tournaments/{slug}/fixtures/{id}/schedule`): one they cannot name could
    be neither scheduled nor opened; nor its match, whose code holds it, where it holds a line break."""
    fixtures = [{"id": fixture_id, "home": "A", "away": "B"}]
    reply = client.post("/api/tournaments", json={**A_V_B, "slug": "t7", "fixtures": fixtures}, headers=AUTH)
    refusal(reply, f"field id must be text without / (nor . or ..) or control characters, not "
                   f"{json.dumps(fixture_id)}", f"el campo id debe ser un texto sin / (ni . ni ..) ni caracteres de "
                                                f"control, no {json.dumps(fixture_id)}")  # no English in it
    assert client.get("/api/tournaments/t7").status_code == 404


@pytest.mark.parametrize("slug", ["copa\notoño", "copa\u202eoñoto"])
def test_a_tournament_slug_holding_a_control_character_is_refused(client: TestClient, slug: str) -> None:
    """Accepted, its slug never changes, and every fixture's match (its code the slug's) was refused when opened."""
    reply = client.post("/api/tournaments", json={**A_V_B, "slug": slug}, headers=AUTH)
    assert reply.status_code == 400 and "control characters" in reply.json()["detail"]
    assert client.get("/api/tournaments", headers=AUTH).json() == []


@pytest.mark.parametrize(("change", "field"), [
    ({"name": "Copa\u0000Nul"}, "name"), ({"venue": "x\u0000y"}, "venue"),
    ({"teams": [{"name": "A\u0000B"}, {"name": "C"}]}, "teams[0].name")])
def test_a_nul_in_any_text_of_a_tournament_is_refused_naming_its_field(client: TestClient, change: dict[str, Any],
                                                                        field: str) -> None:
    """Stored, a team named with one blocked its fixtures for good (its match refused), and a page showed it raw."""
    refusal(client.post("/api/tournaments", json={**A_V_B, "slug": "t10", **change}, headers=AUTH),
            f"field {field} holds a NUL character", f"el campo {field} contiene un carácter NUL")
    assert client.get("/api/tournaments/t10").status_code == 404
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t10"}, headers=AUTH).status_code == 201
    refusal(client.patch("/api/tournaments/t10", json=change, headers=AUTH), f"field {field} holds a NUL",
            f"el campo {field} contiene un carácter NUL")
    assert "\x00" not in client.get("/api/tournaments/t10").text


FIXTURE_FIELDS = "id, stage, kind, round, home, away, day, time, field, match, consolation, subsidiary_first_round"


@pytest.mark.parametrize(("method", "path", "body", "field", "fields"), [
    ("PATCH", "/api/tournaments/t12", {"vnue": "Cancha 2"}, "vnue",
     "slug, name, starts, ends, venue, conditions, teams, fixtures, officials"),  # not `draw`: the desk's own
    ("PATCH", "/api/tournaments/t12", {"conditions": {"chukers": 4}}, "conditions.chukers",
     "rules, chukkers, penalty3_defended, handicap_min, handicap_max, tiebreaks"),
    ("PATCH", "/api/tournaments/t12", {"teams": [{"name": "A"}, {"name": "B", "roster": [
        {"player": 1, "name": "Ann", "hcp": 2}]}]}, "teams[1].roster[0].hcp", "player, name, handicap"),
    ("PATCH", "/api/tournaments/t12", {"fixtures": [{"id": "f1", "home": "A", "away": "B", "feild": "2"}]},
     "fixtures[0].feild", FIXTURE_FIELDS),
    ("POST", "/api/tournaments/t12/fixtures", [{"id": "f1", "home": {"kind": "team", "ref": "A", "seed": 1},
                                               "away": "B"}], "[0].home.seed", "kind, ref, place"),
    ("POST", "/api/tournaments/t12/brackets", {"stage": "Cup", "entrants": ["A", {"kind": "team", "ref": "B",
                                                                                 "plce": 1}]},
     "entrants[1].plce", "kind, ref, place"),
    ("POST", "/api/tournaments", {**A_V_B, "slug": "t13", "vnue": "Pilar"}, "vnue", "slug, name, starts"),
])
def test_a_field_the_desk_does_not_know_is_refused_naming_it_and_nothing_changes(
        client: TestClient, method: str, path: str, body: Any, field: str, fields: str) -> None:
    """A misspelt field ("vnue", "chukers") was dropped without a word: the change was stored without it, and the
    desk took it for made."""
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t12"}, headers=AUTH).status_code == 201
    before = client.get("/api/tournaments/t12").json()
    refusal(client.request(method, path, json=body, headers=AUTH), f"there is no field {field}: the fields are "
            f"{fields}", f"no existe el campo {field}: los campos son {fields}")
    assert client.get("/api/tournaments/t12").json() == before
    assert client.get("/api/tournaments/t13").status_code == 404


@pytest.mark.parametrize(("method", "path", "body"), [
    ("PATCH", "/api/tournaments/t14", {"draw": {"sed": "typo"}}),
    ("PATCH", "/api/tournaments/t14", {"draw": {"seed": "s", "algorithm": "matchstate-draw-1", "format": "bracket"}}),
    ("POST", "/api/tournaments", {**A_V_B, "slug": "t15", "draw": {"sed": "typo", "format": "groups"}}),
])
def test_a_draw_given_with_a_tournament_is_refused_its_record_is_the_desks(
        client: TestClient, method: str, path: str, body: Any) -> None:
    """The draw records the one the desk made (its seed and algorithm): one given with a tournament, whatever it
    held, was stored as the tournament's draw."""
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t14"}, headers=AUTH).status_code == 201
    assert client.post("/api/tournaments/t14/draw", json={"format": "bracket", "seed": "s"}, headers=AUTH) \
        .status_code == 200
    before = client.get("/api/tournaments/t14").json()
    slug = path.rsplit("/", 1)[1] if method == "PATCH" else "t15"
    refusal(client.request(method, path, json=body, headers=AUTH),
            f"draw is the record of the draw made here (POST /api/tournaments/{slug}/draw), not a field to give",
            f"draw es el registro del sorteo hecho aquí (POST /api/tournaments/{slug}/draw), no un campo que se "
            "entrega")
    assert client.get("/api/tournaments/t14").json() == before
    assert client.get("/api/tournaments/t15").status_code == 404


def test_a_fixtures_match_given_with_a_tournament_is_refused_its_match_is_the_desks(client: TestClient) -> None:
    """A fixture's match is opened or entered at the desk, its checks passed: a change that named a match stored
    elsewhere (between other teams, of six chukkers) made it the fixture's result, unchecked."""
    other = {"type": "match.start", "at": "2026-12-05T15:00:00Z", "match": "friendly-9", "teams": ["X", "Y"]}
    assert client.post("/api/matches", json=other, headers=AUTH).status_code == 201
    assert client.post("/api/tournaments", json={**A_V_B, "slug": "t16"}, headers=AUTH).status_code == 201
    assert client.post("/api/tournaments/t16/draw", json={"format": "bracket", "seed": "s"}, headers=AUTH) \
        .status_code == 200
    first_id = client.get("/api/tournaments/t16").json()["fixtures"][0]["id"]
    assert client.post(f"/api/tournaments/t16/fixtures/{first_id}/match", headers=AUTH).status_code == 201
    before = client.get("/api/tournaments/t16").json()
    first = before["fixtures"][0]
    assert first["match"]  # opened at the desk: given back as it is, below, it changes nothing
    claimed = [{**first, "match": "friendly-9"}, *before["fixtures"][1:]]
    english = f"fixture {first['id']}'s match is the desk's to open or to enter (POST /api/tournaments/t16/fixtures/"
    spanish = f"el partido de {first['id']} lo abre o lo ingresa la mesa"
    refusal(client.patch("/api/tournaments/t16", json={"fixtures": claimed}, headers=AUTH), english, spanish)
    refusal(client.post("/api/tournaments/t16/fixtures", json=[{"id": "f9", "home": "A", "away": "B",
                                                               "match": "friendly-9"}], headers=AUTH),
            "fixture f9's match is the desk's", "el partido de f9 lo abre")
    refusal(client.post("/api/tournaments", json={**A_V_B, "slug": "t17", "fixtures": [
        {"id": "f1", "home": "A", "away": "B", "match": "friendly-9"}]}, headers=AUTH),
        "fixture f1's match is the desk's", "el partido de f1 lo abre")
    assert client.get("/api/tournaments/t16").json() == before
    assert client.get("/api/tournaments/t17").status_code == 404
    # The fixtures given back as the desk keeps them (a page sends what it read) change nothing.
    assert client.patch("/api/tournaments/t16", json={"fixtures": before["fixtures"]}, headers=AUTH).status_code == 200


def test_a_change_that_changes_nothing_leaves_the_version_for_the_other_desk(client: TestClient) -> None:
    """Each such PATCH counted a version, so the other desk's next change, made from the version it showed, was
    refused as if the tournament had changed under it."""
    made = client.post("/api/tournaments", json={**A_V_B, "slug": "t11"}, headers=AUTH).json()
    same: dict[str, Any]
    for same in ({}, {"name": made["name"]}, {"conditions": {}}):
        assert client.patch("/api/tournaments/t11", json=same, headers=AUTH).json()["version"] == made["version"]
    other_desk = client.patch("/api/tournaments/t11", json={"venue": "Cancha 2"}, headers=AUTH,
                              params={"expected_version": made["version"]})
    assert other_desk.status_code == 200 and other_desk.json()["version"] == made["version"] + 1


def roster(*handicaps: int, numbers: tuple[int, ...] | None = None) -> list[dict[str, Any]]:
    """Players P1, P2, ... (numbered 1, 2, ... unless ``numbers`` says) of these handicaps."""
    worn = numbers or tuple(range(1, len(handicaps) + 1))
    return [{"player": n, "name": f"P{n}", "handicap": h} for n, h in zip(worn, handicaps, strict=True)]


@pytest.mark.parametrize(("change", "english", "spanish"), [
    ({"starts": "2026-12-12", "ends": "2026-12-05"},
     "the tournament's dates must read as YYYY-MM-DD, its end on or after its start, not 2026-12-12 to 2026-12-05",
     "las fechas del torneo deben leerse como AAAA-MM-DD"),
    ({"starts": "2026-13-01"}, "the tournament's dates must read as YYYY-MM-DD", "las fechas del torneo"),
    ({"ends": "12/05/2026"}, "the tournament's dates must read as YYYY-MM-DD", "las fechas del torneo"),
    ({"teams": [{"name": "Ann"}, {"name": " ANN "}]},
     "Ann is entered twice (names are told apart by more than their capitals and spaces)",
     "Ann está inscrito dos veces"),
    ({"teams": [{"name": "Ann"}, {"name": "  "}]}, "a team must have a name", "un equipo debe tener nombre"),
    ({"teams": [{"name": ""}, {"name": "  "}]}, "a team must have a name", "un equipo debe tener nombre"),
    ({"teams": [{"name": "Ann", "roster": roster(2, 2, numbers=(1, 1))}]}, "Ann lists player 1 twice",
     "Ann lista dos veces al jugador 1"),
    ({"teams": [{"name": "Ann", "roster": roster(11)}]},
     "P1 of Ann has a handicap of 11: a player's handicap is -2 to 10", "P1 de Ann tiene 11 de hándicap"),
    ({"teams": [{"name": "Ann", "roster": roster(-3)}]}, "P1 of Ann has a handicap of -3", "P1 de Ann tiene -3"),
    ({"teams": [{"name": "Ann"}], "fixtures": [{"id": "f1", "home": "Ann", "away": "Ann"}]},
     "fixture f1 sets Ann against itself", "el partido f1 enfrenta a Ann consigo mismo"),
    ({"fixtures": [{"id": "f1", "home": "A", "away": "B"}, {"id": "f1", "home": "B", "away": "A"}]},
     "two fixtures have the same id: f1", "dos partidos tienen el mismo id: f1"),
    ({"conditions": {"handicap_max": 8}, "teams": [{"name": "Ann", "roster": roster(3, 3, 3)}]},
     "Ann's handicap totals 9, over the tournament's limit of 8",
     "el hándicap de Ann suma 9, más que el límite del torneo, 8"),
    ({"conditions": {"handicap_min": 4}, "teams": [{"name": "Ann", "roster": roster(1)}]},
     "Ann's handicap totals 1, under the tournament's least of 4",
     "el hándicap de Ann suma 1, menos que el mínimo del torneo, 4"),
])
def test_what_no_match_could_take_is_refused_when_the_tournament_is_entered(
        client: TestClient, change: dict[str, Any], english: str, spanish: str) -> None:
    """Each was taken (201) and failed only later, as a match was opened, or never: a tournament ending before
    it starts, a team entered twice in other capitals, a number worn twice, a handicap no player has, a team
    against itself."""
    refusal(client.post("/api/tournaments", json={**A_V_B, "slug": "t9", **change}, headers=AUTH), english, spanish)
    assert client.get("/api/tournaments/t9").status_code == 404


def test_a_roster_player_number_a_match_would_refuse_is_refused_at_the_door(client: TestClient) -> None:
    """A match's roster numbers its players 1 to 4: a tournament took a 7, and opening its match then failed."""
    teams = [{"name": "A", "roster": [{"player": 7, "name": "Siete", "handicap": 2}]}, {"name": "B"}]
    reply = client.post("/api/tournaments", json={"slug": "t8", "name": "T", "teams": teams}, headers=AUTH)
    refusal(reply, "field player cannot be 7: it is one of 1, 2, 3, 4", "el campo player no puede ser 7")
    assert client.get("/api/tournaments/t8").status_code == 404


def test_the_ledger_reads_the_cards_alone_so_a_broken_log_without_one_stops_no_match_from_opening(
        client: TestClient, store: Store) -> None:
    """A console and a review ask who sits out as they open, and the ledger read every event of every match of the
    league to find the cards: half a minute at 10,000 matches, and one broken row in any match refused every
    match's answer. It reads the cards alone: a voided card is not counted, and a broken card names its match."""
    def log(code: str, *cards: dict[str, Any]) -> str:
        return "\n".join(json.dumps(event) for event in [
            {"type": "match.start", "at": at(0), "match": code, "teams": ["Red", "Gold"],
             "rosters": {"Red": [{"player": 1, "name": "Ana", "handicap": 2}]}},
            {"type": "chukker.start", "chukker": 1, "at": at(1)}, *cards,
            {"type": "goal", "team": "Gold", "at": at(5)}])

    def yellow(n: int, player: int = 1) -> dict[str, Any]:
        return {"type": "card", "team": "Red", "player": player, "colour": "yellow", "at": at(n)}

    voided = {"type": "void", "seq": 4, "reason": "the wrong player", "at": at(4)}
    for text in (log("carded", yellow(2), yellow(3, 2), voided), log("quiet")):
        imported = client.post("/api/matches/import", content=text, headers=AUTH)
        assert imported.status_code == 201, imported.text
    with store.engine.begin() as connection:  # changed behind the store's back, as `matchstate verify` would find
        connection.execute(text_sql("UPDATE events SET raw = '{garbled' WHERE type = 'goal' AND match_id = "
                                    "(SELECT id FROM matches WHERE code = 'quiet')"))
    ledger = client.get("/api/discipline", headers=AUTH)
    assert ledger.status_code == 200, ledger.text
    assert [(record["name"], [card["seq"] for card in record["cards"]]) for record in ledger.json()] == [("Ana", [3])]
    assert client.get("/api/matches/quiet/sit-outs").json() == []
    with store.engine.begin() as connection:
        connection.execute(text_sql("UPDATE events SET raw = '{garbled' WHERE type = 'card'"))
    refused = client.get("/api/matches/quiet/sit-outs")
    assert refused.status_code == 400 and "carded" in refused.json()["detail"], refused.text
