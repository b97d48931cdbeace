"""The JSON API, endpoint by endpoint: answers, conflicts, retries, refusals, access, bad bodies."""

from __future__ import annotations

import asyncio
import json
import re
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi.routing import APIRoute

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")  # Starlette would have httpx2; httpx serves as well
    from fastapi.testclient import TestClient

from conftest import BLUE, RED, stamp

from matchstate.cli import main
from matchstate.engine import Match
from matchstate.errors import InvalidEvent, RefusedEvent
from matchstate.log import MAX_LINE_BYTES, parse_line
from matchstate.records import timeline
from matchstate.store import Store
from matchstate.web import create_app, proofs, seats, stats, tournaments
from matchstate.web.access import hash_key
from matchstate.web.api import router
from matchstate.web.app import MAX_BODY_BYTES
from matchstate.web.service import KEPT_MATCHES, MAX_SEQ

CODE = "test-final"
LEAGUE_KEY = "the-league's-key"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}  # creating a match needs it
START: dict[str, Any] = {"type": "match.start", "at": stamp(0), "match": CODE, "teams": [BLUE, RED], "id": "dev-1",
         "handicap_goals": {RED: 1}, "event": "Test Cup",
         "rosters": {BLUE: [{"player": 3, "name": "Aráoz", "handicap": 7}]}}
PENALTY_3: list[dict[str, Any]] = [
    {"type": "penalty.award", "penalty": "3", "to": BLUE}, {"type": "ball.place"}, {"type": "play"},
    {"type": "hit", "player": 3, "contact": "hit"}, {"type": "goal", "team": BLUE, "player": 3}]
# A Penalty 2 whose defenders were out of position, closed by the ball going out: the Umpire chooses.
CHOICE: list[dict[str, Any]] = [{"type": "penalty.award", "penalty": "2", "to": BLUE}, {"type": "play"},
          {"type": "position.improper", "team": RED}, {"type": "hit", "player": 1, "contact": "hit"},
          {"type": "ball.out", "over": "sideline"}]


class Api:
    """A client for one match: ``send`` appends events one second apart with fresh device ids."""

    def __init__(self, client: TestClient, **start: Any) -> None:
        self.client = client
        created = client.post("/api/matches", json={**START, **start}, headers=LEAGUE)
        assert created.status_code == 201, created.text
        self.created = created.json()
        self.scorer = self.created["scorer_key"]
        self.official = self.created["official_key"]
        self.seconds = 0

    def event(self, event: dict[str, Any]) -> dict[str, Any]:
        self.seconds += 1
        return {"at": stamp(self.seconds * 1000), "id": f"dev-{self.seconds + 1}", **event}

    def post(self, event: dict[str, Any], key: str | None = "scorer", expected_seq: int | None = None,
             **kwargs: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {getattr(self, key, key)}"} if key else {}
        answer: httpx.Response = self.client.post(f"/api/matches/{CODE}/events",
                                                  json={"event": event, "expected_seq": expected_seq},
                                                  headers=headers, **kwargs)
        return answer

    def send(self, *events: dict[str, Any], key: str = "scorer") -> list[dict[str, Any]]:
        answers = []
        for event in events:
            answer = self.post(self.event(event), key)
            assert answer.status_code == 201, answer.text
            answers.append(answer.json())
        return answers

    def log(self) -> list[dict[str, Any]]:
        log: list[dict[str, Any]] = self.client.get(f"/api/matches/{CODE}/events").json()
        return log


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'service.db'}")
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE_KEY))
    yield store
    store.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as client:
        yield client


@pytest.fixture
def api(client: TestClient) -> Api:
    return Api(client)


# -- creating and listing -------------------------------------------------------------------------

def test_create_gives_two_keys_once_and_stores_only_their_hashes(api: Api, store: Store) -> None:
    assert api.created["code"] == CODE and api.scorer != api.official
    assert store.key_hashes(CODE) == (hash_key(api.scorer), hash_key(api.official))
    assert api.created["match"]["state"] == "idle" and api.created["match"]["score"] == {BLUE: 0, RED: 1}
    assert api.created["links"]["console"] == f"/matches/{CODE}/console"
    assert "scorer_key" not in api.client.get(f"/api/matches/{CODE}").text


def test_create_refuses_a_duplicate_code_and_a_bad_start(api: Api, store: Store) -> None:
    assert api.client.post("/api/matches", json=START, headers=LEAGUE).status_code == 409
    bad = api.client.post("/api/matches", json={**START, "match": "other", "teams": [BLUE, BLUE]}, headers=LEAGUE)
    assert bad.status_code == 422 and "two different team names" in bad.json()["detail"]
    not_start = api.client.post("/api/matches", json={"type": "play", "at": stamp(0), "match": "x"}, headers=LEAGUE)
    assert not_start.status_code == 422
    assert [summary.code for summary in store.summaries()] == [CODE]


@pytest.mark.parametrize("code", ["a b", "what?", "no#1", "100%", "Copa: semi final?"])
def test_a_code_with_url_characters_works_in_every_route_and_link(client: TestClient, code: str) -> None:
    created = client.post("/api/matches", json={**START, "match": code}, headers=LEAGUE)
    assert created.status_code == 201, created.text
    quoted = quote(code, safe="")
    assert created.json()["links"] == {page: f"/matches/{quoted}/{page}" for page in ("console", "review", "sheet")}
    auth = {"Authorization": f"Bearer {created.json()['scorer_key']}"}
    event = {"type": "penalty.award", "penalty": "3", "to": BLUE, "at": stamp(1000)}
    assert client.post(f"/api/matches/{quoted}/events", json={"event": event}, headers=auth).status_code == 201
    for path in ("", "/events", "/verify", "/rulings/2", "/log.jsonl", "/log.csv", "/role"):
        assert client.get(f"/api/matches/{quoted}{path}", headers=auth).status_code == 200, path
    for page in ("console", "review", "sheet"):
        html = client.get(f"/matches/{quoted}/{page}")
        assert html.status_code == 200, page
        assert f'href="/matches/{quoted}/' in html.text or f'href="/api/matches/{quoted}/' in html.text, page
    assert client.get("/api/matches").json()[0]["code"] == code


@pytest.mark.parametrize("code", ["a/b", "/", ".", ".."])
def test_a_code_no_url_can_name_is_refused_at_creation(client: TestClient, code: str) -> None:
    refused = client.post("/api/matches", json={**START, "match": code}, headers=LEAGUE)
    assert refused.status_code == 422 and "any character but '/'" in refused.json()["detail"]
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize(("code", "char"), [("a\nb", "U+000A"), ("bell\x07", "U+0007"), ("ab\u202ecd", "U+202E"),
                                           ("a\x85b", "U+0085"), ("a\u2028b", "U+2028")])
def test_a_code_holding_a_control_or_formatting_character_is_refused(client: TestClient, store: Store, code: str,
                                                                     char: str) -> None:
    """Created with 201: `matchstate matches` printed a line more than the matches, and `archive` made folders
    whose names held a line break."""
    answer = client.post("/api/matches", json={**START, "match": code}, headers=LEAGUE)
    assert answer.status_code == 422 and f"holds {char}, a control or formatting character" in answer.json()["detail"]
    assert client.get("/api/matches").json() == []
    with pytest.raises(RefusedEvent, match=re.escape(char)):
        store.create_match({**START, "match": code})


@pytest.mark.parametrize("code", ["a/b", "/", ".", ".."])
def test_every_door_that_creates_a_match_refuses_a_code_no_url_can_name(
        client: TestClient, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], code: str) -> None:
    """`matchstate import` stored a match coded "a/b" or "..", whose pages and API no address can reach (the
    web refused such a code, the command line and the store did not): each door says the web's words."""
    said = (f"match.start: field 'match' {code!r} cannot name a match in a URL: a code may hold any character "
            "but '/', and may not be '.' or '..'")
    log = tmp_path / "match.jsonl"
    log.write_text(json.dumps({**START, "match": code}) + "\n", encoding="utf-8")
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["import", str(log)]) == 2
    assert capsys.readouterr() == ("", f"line 1: {said}\n")
    assert client.post("/api/matches", json={**START, "match": code}, headers=LEAGUE).json()["detail"] == said
    imported = client.post("/api/matches/import", content=log.read_bytes(), headers=LEAGUE)
    assert (imported.status_code, imported.json()["detail"]) == (422, f"line 1: {said}")
    with pytest.raises(RefusedEvent, match=re.escape(said)):
        store.create_match({**START, "match": code})
    assert store.match_count() == 0 and client.get("/api/matches").json() == []


def test_refused_creates_leave_nothing_behind_and_kept_reads_are_bounded(store: Store) -> None:
    app = create_app(store)
    service = app.state.service

    def held() -> dict[str, int]:
        return {name: len(value) for name, value in vars(service).items() if isinstance(value, dict | list | set)}

    with TestClient(app) as client:
        before = held()
        for n in range(100):
            refused = client.post("/api/matches", json={**START, "match": f"x-{n}", "teams": [BLUE, BLUE]},
                                  headers=LEAGUE)
            assert refused.status_code == 422
        assert held() == before
        for n in range(KEPT_MATCHES + 4):
            client.post("/api/matches", json={**START, "match": f"kept-{n}"}, headers=LEAGUE)
            assert client.get(f"/api/matches/kept-{n}/verify").json()["ok"]
            assert client.get(f"/api/matches/kept-{n}/rulings/1").status_code == 200
        assert max(held().values()) <= KEPT_MATCHES


def test_list_searches_by_team_date_and_state(api: Api) -> None:
    other = {**START, "match": "other", "teams": ["Green", "Gold"], "at": "2026-11-25T10:00:00Z",
             "handicap_goals": {}, "rosters": None, "id": "o-1"}
    assert api.client.post("/api/matches", json=other, headers=LEAGUE).status_code == 201
    api.send(PENALTY_3[0])

    def codes(**query: str) -> list[str]:
        return [row["code"] for row in api.client.get("/api/matches", params=query).json()]

    assert codes() == [CODE, "other"]
    assert codes(team="gre") == ["other"]
    assert codes(date="2026-11-29") == [CODE]
    assert codes(state="awarded") == [CODE]
    assert codes(team="blue", state="idle") == []
    row = api.client.get("/api/matches", params={"team": "Blue"}).json()[0]
    assert row["score"] == {BLUE: 0, RED: 1} and row["events"] == 2 and row["started"].startswith("2026-11-29")


# -- reading --------------------------------------------------------------------------------------

def test_read_gives_the_engines_state_and_accepted_types(api: Api) -> None:
    api.send(*PENALTY_3[:3])
    view = api.client.get(f"/api/matches/{CODE}").json()
    engine = Match()
    for row in api.log():
        engine.feed(row["event"])
    assert view["accepted"] == engine.accepted_types()
    assert view["state"] == "play_called" and view["timed"] and view["play_at"] is not None
    assert view["free_hit"]["penalty"] == "3" and view["free_hit_text"]["es"].startswith("Penal 3 para Blue")
    assert api.client.get("/api/matches/nope").status_code == 404


def test_events_give_each_event_as_sent_with_ruling_role_and_times(api: Api) -> None:
    answers = api.send(*PENALTY_3)
    assert answers[3]["ruling"]["kind"] == "live" and answers[4]["match"]["score"] == {BLUE: 1, RED: 1}
    log = api.log()
    assert [row["seq"] for row in log] == [1, 2, 3, 4, 5, 6]
    assert log[4]["event"] == {"at": stamp(4000), "id": "dev-5", **PENALTY_3[3]}
    assert log[4]["role"] == "scorer" and log[4]["device_id"] == "dev-5" and log[4]["received_at"]
    after = api.client.get(f"/api/matches/{CODE}/events", params={"after_seq": 4}).json()
    assert [row["seq"] for row in after] == [5, 6]


def test_a_ruling_is_explained_by_the_events_that_led_to_it_and_its_clauses(api: Api) -> None:
    api.send({"type": "penalty.award", "penalty": "2", "to": BLUE}, {"type": "play"}, {"type": "dribble"})
    explained = api.client.get(f"/api/matches/{CODE}/rulings/4").json()
    assert explained["event"]["ruling"]["penalty"] == "5a"
    assert [row["seq"] for row in explained["led_to"]] == [2, 3, 4]
    one_stroke = next(c for c in explained["clauses"] if c["id"] == "36/one-stroke")
    assert one_stroke["heading"] == {"en": "One stroke at goal", "es": "Un solo golpe al arco"}
    assert api.client.get(f"/api/matches/{CODE}/rulings/99").status_code == 404


def test_rulings_replay_the_match_once_per_event_however_many_readers_ask(api: Api,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    replays: list[int] = []
    replayed = timeline.replay

    def replay(events: list[Any]) -> Any:
        replays.append(len(events))
        return replayed(events)

    monkeypatch.setattr(timeline, "replay", replay)
    api.send(*PENALTY_3)
    for reader in range(16):
        assert api.client.get(f"/api/matches/{CODE}/rulings/{reader % 6 + 1}").status_code == 200
    assert replays == [6]
    api.send({"type": "void", "seq": 6, "reason": "no goal"})
    assert [row["seq"] for row in api.client.get(f"/api/matches/{CODE}/rulings/5").json()["led_to"]] == [2, 3, 4, 5]
    assert replays == [6, 7]


def test_verify_says_the_chain_holds(api: Api) -> None:
    api.send(*PENALTY_3)
    assert api.client.get(f"/api/matches/{CODE}/verify").json() == {"ok": True, "events": 6, "problems": [],
                                                                     "bad_seq": None}


def test_verify_checks_again_on_every_request_and_names_the_edited_seq(api: Api, store: Store) -> None:
    api.send(*PENALTY_3)
    assert api.client.get(f"/api/matches/{CODE}/verify").json()["ok"]
    with store.engine.begin() as connection:  # an edit behind the store's back, no event since
        connection.exec_driver_sql("UPDATE events SET raw = replace(raw, '\"player\": 3', '\"player\": 2') "
                                   "WHERE seq = 5")
    verified = api.client.get(f"/api/matches/{CODE}/verify").json()
    assert not verified["ok"] and verified["bad_seq"] == 5
    assert "seq 5" in verified["problems"][0]


def test_readers_asking_at_once_share_one_verify_begun_after_they_asked(store: Store,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(store)
    with TestClient(app) as client:
        Api(client).send(*PENALTY_3[:2])
    verified: list[str | None] = []
    checked = store.verify

    def counted(code: str | None = None) -> list[Any]:
        verified.append(code)
        time.sleep(0.5)  # a check long enough that every reader asks while the first one runs, however slow the machine
        return checked(code)

    monkeypatch.setattr(store, "verify", counted)

    async def ask_together() -> list[dict[str, Any]]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            answers = await asyncio.gather(*(client.get(f"/api/matches/{CODE}/verify") for _ in range(8)))
        return [answer.json() for answer in answers]

    answers = asyncio.run(ask_together())
    assert all(answer["ok"] and answer["events"] == 3 for answer in answers)
    assert 1 <= len(verified) <= 2  # the first, and one for those who asked while it ran


def test_reference_endpoints_describe_the_event_forms_and_the_rules(client: TestClient) -> None:
    forms = client.get("/api/event-types").json()
    hit = {field["name"]: field for field in forms["hit"]}
    assert hit["player"]["kind"] == "player" and hit["player"]["required"]
    assert hit["contact"]["choices"] == ["hit", "mishit", "miss"]
    assert hit["deliberate"] == {"name": "deliberate", "kind": "flag", "required": False, "default": False,
                                 "choices": None, "required_when": [], "applies_when": None, "must": None}
    award = {field["name"]: field for field in forms["penalty.award"]}
    # The yards are optional, but needed where the award is from the spot: a Penalty 5.a, a Penalty 2 so given.
    assert not award["yards_to_goal"]["required"]
    assert {"penalty": "5a", "from": "spot"} in award["yards_to_goal"]["required_when"]
    # A place (from) means something on a Penalty 2 only: the console logs it with no other penalty.
    assert award["from"]["applies_when"] == [{"penalty": "2"}]
    # A number's bounds, by the catalog's words of them: a form checks them before it sends.
    returned = {field["name"]: field for field in forms["player.return"]}
    assert award["yards_to_goal"]["must"] == "yards-to-goal" and returned["closest_yards"]["must"] == "distance"
    assert forms["play"] == []
    assert client.get("/api/rules").json()["36/one-stroke"]["heading"]["es"] == "Un solo golpe al arco"


def test_the_role_tells_a_page_what_its_key_may_do(api: Api) -> None:
    def role(key: str | None) -> Any:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return api.client.get(f"/api/matches/{CODE}/role", headers=headers)

    official_only = ["chukker.confirm", "decide", "review.outcome", "video.sync"]  # a page offers them to no other
    assert role(api.scorer).json() == {"role": "scorer", "official_only": official_only}
    assert role(api.official).json() == {"role": "official", "official_only": official_only}
    assert (role(None).status_code, role("wrong").status_code) == (401, 403)
    assert api.client.get("/api/matches/nope/role", headers={"Authorization": "Bearer x"}).status_code == 404


def test_openapi_describes_every_api_route(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    routes = (*router.routes, *stats.api.routes, *tournaments.api.routes, *proofs.router.routes, *seats.api.routes)
    assert {route.path for route in routes if isinstance(route, APIRoute)} == set(paths)
    assert all(isinstance(route, APIRoute) for route in routes)
    assert "409" in paths["/api/matches/{code}/events"]["post"]["responses"]


def test_openapi_describes_the_append_as_its_one_route_reads_it(client: TestClient) -> None:
    """The append route reads its own request (issue 16, finding 3: a middleware took most appends before
    the route): the docs still give its body, its bounds, and the two ways of presenting a key."""
    described = client.get("/openapi.json").json()
    append = described["paths"]["/api/matches/{code}/events"]["post"]
    body = append["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["event"] and body["properties"]["event"]["type"] == "object"
    expected = next(kind for kind in body["properties"]["expected_seq"]["anyOf"] if kind["type"] == "integer")
    assert (expected["minimum"], expected["maximum"]) == (0, MAX_SEQ)
    assert {(parameter["name"], parameter["in"]) for parameter in append["parameters"]} == {("code", "path"),
                                                                                         ("X-Console-Timer", "header"),
                                                                                         ("key", "query")}
    assert append["security"] == [{"HTTPBearer": []}]
    assert described["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"


# -- appending: conflicts, retries, refusals ------------------------------------------------------

def test_each_refusal_a_page_shows_says_its_reason_in_english_and_in_spanish(api: Api) -> None:
    """``detail`` stays the English clients read; ``words`` holds it in every language, for a page to show."""
    refusals = {
        "duplicate": api.client.post("/api/matches", json=START, headers=LEAGUE),
        "no key": api.client.post("/api/matches", json={**START, "match": "other"}),
        "wrong key": api.post(api.event({"type": "tick"}), key="not-a-key"),
        "no sense": api.post(api.event({"type": "hit", "player": 1, "contact": "hit"})),
        "ill-formed": api.post(api.event({"type": "goal", "team": "Green"})),
        "stale": api.post(api.event({"type": "tick"}), expected_seq=7),
        "ahead": api.post({**api.event({"type": "tick"}), "at": "2999-01-01T00:00:00Z"}),
    }
    spanish = {name: (answer.status_code, answer.json()["words"]["es"]) for name, answer in refusals.items()}
    assert spanish == {
        "duplicate": (409, f"el partido {CODE!r} ya está en el almacén"),
        "no key": (401, "esto necesita la clave de la liga"),
        "wrong key": (403, "la clave no es la del planillero ni la de los oficiales de este partido"),
        "no sense": (422, "hit no tiene sentido en el estado idle: ningún tiro espera su golpe"),
        "ill-formed": (422, "goal: el campo 'team' nombra un equipo desconocido 'Green': los equipos son Blue y Red"),
        "stale": (409, f"el partido {CODE} está en el seq 1, no en el 7: recargue y vuelva a intentar"),
        "ahead": (422, spanish["ahead"][1]),
    }
    assert spanish["ahead"][1].startswith("tick: 'at' 2999-01-01T00:00:00Z va ")
    assert all(answer.json()["words"]["en"] == answer.json()["detail"] for answer in refusals.values())


def test_the_refusals_of_a_request_itself_say_why_in_english_and_in_spanish(api: Api) -> None:
    """A log that is no UTF-8, a seq or an export format not there, a body too large or too deep however it
    comes: ``detail`` as ever, and ``words`` in both languages."""
    scorer = {"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"}

    def streamed(*chunks: bytes) -> Iterator[bytes]:  # no Content-Length: the limits hold as the body streams in
        yield from chunks

    big = (b"y" * 1000 for _ in range(MAX_BODY_BYTES // 1000 + 1))
    refusals = {
        "not utf-8": api.client.post("/api/matches/import", content=b'{"type": "match.start"\xff}', headers=LEAGUE),
        "no seq": api.client.get(f"/api/matches/{CODE}/rulings/99"),
        "no format": api.client.get(f"/api/matches/{CODE}/log.xml"),
        "too large": api.client.post(f"/api/matches/{CODE}/events", headers=scorer,
                                     content=streamed(b'{"event": {"type": "goal", "by": "', *big, b'"}}')),
        "too deep": api.client.post(f"/api/matches/{CODE}/events", headers=scorer,
                                    content=streamed(b'{"event": {"by": ', b"[" * 40, b"]" * 40, b"}}")),
    }
    said = {name: (answer.status_code, answer.json()["detail"], answer.json()["words"]["es"])
            for name, answer in refusals.items()}
    utf8 = "'utf-8' codec can't decode byte 0xff in position 22: invalid start byte"
    assert said == {
        "not utf-8": (400, f"the log is not UTF-8: {utf8}", f"el registro no es UTF-8: {utf8}"),
        "no seq": (404, "there is no event with seq 99", "no hay ningún evento con seq 99"),
        "no format": (404, "no export format 'xml': the formats are jsonl, csv",
                      "no hay ningún formato de exportación 'xml': los formatos son jsonl, csv"),
        "too large": (413, f"the body is over {MAX_BODY_BYTES} bytes", f"el cuerpo supera los {MAX_BODY_BYTES} bytes"),
        "too deep": (400, "the body's JSON nests 42 deep; no request needs more than 32",
                     "el JSON del cuerpo anida 42 niveles; ningún pedido necesita más de 32"),
    }
    assert all(answer.json()["words"]["en"] == answer.json()["detail"] for answer in refusals.values())
    assert len(api.log()) == 1


def test_a_request_unlike_the_api_keeps_fastapis_list_and_says_which_fields_in_both_languages(api: Api) -> None:
    # A seq that is not a number, sent on purpose.
    answer = api.post(api.event({"type": "tick"}), expected_seq="last")  # type: ignore[arg-type]
    assert answer.status_code == 422
    assert [(error["loc"], error["type"]) for error in answer.json()["detail"]] == [
        (["body", "expected_seq"], "int_parsing")]
    assert answer.json()["words"] == {"en": "the request is not as the API describes it: body.expected_seq",
                                      "es": "el pedido no es como lo describe la API: body.expected_seq"}


def test_a_stale_expected_seq_gets_409_with_the_current_seq_and_writes_nothing(api: Api) -> None:
    api.send(PENALTY_3[0])
    stale = api.post(api.event(PENALTY_3[1]), expected_seq=1)
    assert stale.status_code == 409 and stale.json()["current_seq"] == 2
    assert len(api.log()) == 2
    assert api.post(api.event(PENALTY_3[1]), expected_seq=2).status_code == 201


def test_a_retried_device_id_gets_the_same_answer_and_one_row(api: Api) -> None:
    event = api.event(PENALTY_3[0])
    first = api.post(event, expected_seq=1)
    again = api.post(event, expected_seq=1)  # the answer was lost; the device's view is now stale
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["duplicate"] and not first.json()["duplicate"]
    assert again.json()["seq"] == first.json()["seq"] == 2 and again.json()["ruling"] == first.json()["ruling"]
    assert len(api.log()) == 2


def test_a_refused_event_gets_422_with_the_engines_reason_and_writes_nothing(api: Api) -> None:
    refused = api.post(api.event({"type": "hit", "player": 3, "contact": "hit"}))
    assert refused.status_code == 422
    assert refused.json()["detail"] == "hit makes no sense in state idle: no free hit is awaiting its stroke"
    unknown_team = api.post(api.event({"type": "goal", "team": "Green"}))
    assert unknown_team.status_code == 422 and "unknown team 'Green'" in unknown_team.json()["detail"]
    assert len(api.log()) == 1



def test_an_append_is_answered_alike_however_its_request_is_written(api: Api) -> None:
    """The plain request every console sends and each other way of writing the same append (a key in the
    query, a number as text, another spelling of JSON's media type, a body that is no object) go through the
    one route: the answers are the same."""
    ways: list[tuple[dict[str, str], str, Callable[[int], dict[str, Any]]]] = [
        ({"Authorization": f"Bearer {api.scorer}"}, "", lambda seq: {"expected_seq": seq}),
        ({}, f"?key={api.scorer}", lambda seq: {"expected_seq": seq}),
        ({"Authorization": f"Bearer {api.scorer}"}, "", lambda seq: {"expected_seq": str(seq)}),
        ({"Authorization": f"bearer   {api.scorer} ", "Content-Type": "Application/JSON; charset=utf-8"}, "",
         lambda seq: {"expected_seq": seq}),
    ]
    for number, (headers, query, rest) in enumerate(ways):
        seq = api.log()[-1]["seq"]
        body = json.dumps({"event": api.event(PENALTY_3[number % 2]), **rest(seq)})
        answer = api.client.post(f"/api/matches/{CODE}/events{query}", content=body,
                                 headers={"Content-Type": "application/json", **headers})
        assert answer.status_code == 201, (number, answer.text)
        assert answer.headers["content-type"] == "application/json"
        assert answer.json()["seq"] == seq + 1 and answer.json()["receipt"]["seq"] == seq + 1
        stale = api.client.post(f"/api/matches/{CODE}/events{query}", headers={"Content-Type": "application/json",
                                                                                 **headers},
                                content=json.dumps({"event": api.event(PENALTY_3[0]), **rest(seq)}))
        assert stale.status_code == 409 and stale.json()["current_seq"] == seq + 1, (number, stale.text)
    for body in ("[1]", '{"event": 1}', '{"event": {}, "expected_seq": -1}', "{"):
        refused = api.client.post(f"/api/matches/{CODE}/events", content=body,
                                  headers={"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})
        assert refused.status_code in (400, 422) and "detail" in refused.json(), body

def test_a_misspelt_field_of_an_appends_body_is_refused_naming_it_and_nothing_is_recorded(api: Api) -> None:
    """A field the append's body does not have was dropped: `expectedSeq` for `expected_seq` recorded the event
    over a match that had moved on, the check the device asked for skipped without a word."""
    seq = api.log()[-1]["seq"]
    api.post(api.event(PENALTY_3[0]))  # another device's event: this one's view is stale
    for misspelt in ("expectedSeq", "expected-seq"):
        refused = api.client.post(f"/api/matches/{CODE}/events", json={"event": api.event(PENALTY_3[1]),
                                                                       misspelt: seq},
                                  headers={"Authorization": f"Bearer {api.scorer}"})
        assert refused.status_code == 422, refused.text
        assert refused.json()["words"] == {"en": f"the request is not as the API describes it: body.{misspelt}",
                                           "es": f"el pedido no es como lo describe la API: body.{misspelt}"}
    assert api.log()[-1]["seq"] == seq + 1


def test_append_to_an_unknown_match_is_404(api: Api) -> None:
    answer = api.client.post("/api/matches/nope/events", json={"event": api.event(PENALTY_3[0])},
                             headers={"Authorization": f"Bearer {api.scorer}"})
    assert answer.status_code == 404


# -- access ---------------------------------------------------------------------------------------

def test_appending_without_a_key_is_401_and_with_a_wrong_one_403(api: Api, client: TestClient) -> None:
    missing = api.post(api.event(PENALTY_3[0]), key=None)
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert api.post(api.event(PENALTY_3[0]), key="not-a-key").status_code == 403
    other = client.post("/api/matches", json={**START, "match": "other", "id": "o-1"}, headers=LEAGUE).json()
    assert api.post(api.event(PENALTY_3[0]), key=other["scorer_key"]).status_code == 403
    assert len(api.log()) == 1


def test_only_an_official_decides_a_choice(api: Api) -> None:
    answers = api.send(*CHOICE)
    assert answers[-1]["ruling"]["kind"] == "choose" and answers[-1]["match"]["state"] == "choosing"
    assert len(answers[-1]["match"]["options"]) == 2
    assert api.post(api.event({"type": "decide", "option": 2})).status_code == 403
    decided = api.post(api.event({"type": "decide", "option": 2}), key="official")
    assert decided.status_code == 201 and decided.json()["ruling"]["kind"] == "goal"
    assert decided.json()["event"]["role"] == "official"


def test_only_an_official_logs_the_officials_work_but_a_scorer_logs_a_teams_challenge(client: TestClient) -> None:
    """A scorer's key could decide a review (even "overturned"), confirm a chukker's score, pin video and ask a
    review in the umpire's name: each is the officials' ("an official confirms the score"). A team's challenge is
    logged as the team asks it, by either."""
    api = Api(client, challenges=1)
    api.send({"type": "chukker.start", "chukker": 1}, {"type": "goal", "team": BLUE})
    refused = api.post(api.event({"type": "review.request", "about": 3, "asked_by": "umpire"}))
    assert refused.status_code == 403 and "only an official may" in refused.json()["detail"]
    assert refused.json()["words"]["es"].startswith("solo un oficial puede")
    api.send({"type": "review.request", "about": 3, "asked_by": RED})  # Red's challenge, as Red asks it
    assert api.post(api.event({"type": "review.outcome", "outcome": "overturned"})).status_code == 403
    api.send({"type": "review.outcome", "outcome": "stands"}, key="official")
    api.send({"type": "chukker.end", "chukker": 1})
    for event in ({"type": "chukker.confirm", "chukker": 1, "score": {BLUE: 1, RED: 1}},
                  {"type": "video.sync", "clip": "umpire-1.mp4", "clip_seconds": 4}):
        assert api.post(api.event(event)).status_code == 403, event
        api.send(event, key="official")
    assert [(event["type"], event["role"]) for event in api.log()[3:]] == [
        ("review.request", "scorer"), ("review.outcome", "official"), ("chukker.end", "scorer"),
        ("chukker.confirm", "official"), ("video.sync", "official")]
    # Voiding the team's request strikes the official's outcome with it: the scorer who logged it may not.
    request = next(event["seq"] for event in api.log() if event["type"] == "review.request")
    assert api.post(api.event({"type": "void", "seq": request, "reason": "asked in error"})).status_code == 403
    api.send({"type": "void", "seq": request, "reason": "asked in error"}, key="official")


def test_a_scorer_voids_its_own_event_but_only_an_official_voids_anothers(api: Api) -> None:
    api.send(PENALTY_3[0])
    api.send({"type": "card", "team": RED, "player": 2, "colour": "yellow"}, key="official")
    refused = api.post(api.event({"type": "void", "seq": 3, "reason": "wrong player"}))
    assert refused.status_code == 403
    own = api.post(api.event({"type": "void", "seq": 2, "reason": "logged in error"}))
    assert own.status_code == 201 and own.json()["match"]["void"] == [2] and own.json()["match"]["state"] == "idle"
    by_official = api.post(api.event({"type": "void", "seq": 3, "reason": "wrong player"}), key="official")
    assert by_official.status_code == 201 and by_official.json()["match"]["void"] == [2, 3]
    assert api.post(api.event({"type": "void", "seq": 42, "reason": "x"})).status_code == 422


def test_a_private_server_opens_reading_only_to_key_holders(store: Store) -> None:
    with TestClient(create_app(store, private=True)) as client:
        api = Api(client)
        api.send(PENALTY_3[0])
        for path in ("", "/events", "/verify", "/rulings/2", "/log.jsonl", "/log.csv"):
            assert client.get(f"/api/matches/{CODE}{path}").status_code == 401, path
            assert client.get(f"/api/matches/{CODE}{path}", params={"key": "wrong"}).status_code == 403, path
            assert client.get(f"/api/matches/{CODE}{path}", headers={"Authorization": f"Bearer {api.scorer}"}
                              ).status_code == 200, path
        assert client.get(f"/matches/{CODE}/console").status_code == 200  # the page; its data needs the key
        assert client.get(f"/matches/{CODE}/sheet").status_code == 401
        sheet = client.get(f"/matches/{CODE}/sheet", params={"key": api.official})
        assert sheet.status_code == 200
        for export in ("log.jsonl", "log.csv"):  # its links work: they carry the key
            assert f'href="/api/matches/{CODE}/{export}?key={api.official}"' in sheet.text
            assert client.get(f"/api/matches/{CODE}/{export}", params={"key": api.official}).status_code == 200
        for page in ("/", f"/matches/{CODE}/console", f"/matches/{CODE}/review"):  # their scripts key the links
            assert "data-private" in client.get(page).text, page
        assert client.get("/api/matches").status_code == 401


# -- bad bodies -----------------------------------------------------------------------------------

def test_an_oversized_body_is_413_and_writes_nothing(api: Api) -> None:
    big = api.event({**PENALTY_3[0], "by": "x" * MAX_BODY_BYTES})
    assert api.post(big).status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit holds as the body streams in
        yield b'{"event": {"type": "goal", "by": "'
        for _ in range(MAX_BODY_BYTES // 1000 + 1):
            yield b"y" * 1000
        yield b'"}}'

    streamed = api.client.post(f"/api/matches/{CODE}/events", content=chunks(),
                               headers={"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})
    assert streamed.status_code == 413
    assert len(api.log()) == 1


def test_an_event_as_long_as_the_log_allows_fits_in_a_body(api: Api) -> None:
    api.send(PENALTY_3[0])

    def void(line_bytes: int) -> bytes:
        """A body whose event, as the store writes it, is ``line_bytes`` long."""
        event = api.event({"type": "void", "seq": 2, "reason": "logged in error", "by": ""})
        event["by"] = "x" * (line_bytes - len(json.dumps(event, ensure_ascii=False)))
        return json.dumps({"event": event, "expected_seq": 2}).encode()

    def post(body: bytes) -> Any:
        return api.client.post(f"/api/matches/{CODE}/events", content=body,
                               headers={"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})

    too_long = post(void(MAX_LINE_BYTES + 1))
    assert too_long.status_code == 422 and "longer than" in too_long.json()["detail"]
    at_limit = void(MAX_LINE_BYTES)
    assert len(at_limit) > MAX_LINE_BYTES
    assert post(at_limit).status_code == 201
    assert len(api.log()) == 3


@pytest.mark.parametrize(("body", "status", "says"), [
    (b'{"event": {"type": "play",', 400, "not valid JSON"),
    (b"[1, 2]", 422, "valid dictionary"),
    (b'{"expected_seq": 1}', 422, "Field required"),
    (b'{"event": "play"}', 422, "valid dictionary"),
    (b'{"event": {"type": "play"}, "expected_seq": "last"}', 422, "valid integer"),
])
def test_a_malformed_body_gets_a_clear_4xx_and_writes_nothing(api: Api, body: bytes, status: int, says: str) -> None:
    answer = api.client.post(f"/api/matches/{CODE}/events", content=body,
                             headers={"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})
    assert answer.status_code == status and says in json.dumps(answer.json())
    assert len(api.log()) == 1


@pytest.mark.parametrize("path", [f"/api/matches/{CODE}/events", "/api/matches"])  # the append's own reading, and
def test_a_body_that_is_not_json_is_refused_in_spanish_words_naming_where(api: Api, path: str) -> None:  # FastAPI's
    answer = api.client.post(path, content=b'{"event": nope}', headers={
        "Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})
    words = answer.json()["words"]
    assert answer.status_code == 400 and words["en"].startswith("the body is not valid JSON: ")
    # The parser's own words are English: the Spanish says where it stopped reading instead ('n', the 11th).
    assert words["es"] == "el cuerpo no es JSON válido: no se lee desde el carácter 11"


def test_a_log_line_that_is_not_json_is_refused_in_spanish_words_naming_where() -> None:
    with pytest.raises(InvalidEvent) as refused:
        parse_line('{"type": "play", "at": nope}')
    assert (words := refused.value.worded()) is not None
    assert words["es"] == "no es JSON: no se lee desde el carácter 24" and words["en"].startswith("not JSON: invalid")
    with pytest.raises(InvalidEvent) as refused:
        parse_line('{"type": "play", "at": \n')
    assert refused.value.worded() == {"en": "not JSON: unexpected end of data: line 2 column 1 (char 24)",
                                      "es": "no es JSON: termina antes de completarse"}


def test_an_event_without_at_is_refused_by_the_engine(api: Api) -> None:
    answer = api.post({"type": "penalty.award", "penalty": "3", "to": BLUE})
    assert answer.status_code == 422 and answer.json()["detail"] == "penalty.award: missing field 'at'"


# -- pages ----------------------------------------------------------------------------------------

def test_the_pages_render_and_an_unknown_match_is_404(api: Api) -> None:
    for path in ("/", f"/matches/{CODE}/console", f"/matches/{CODE}/review", f"/matches/{CODE}/sheet",
                 "/static/console.mjs", "/static/style.css"):
        assert api.client.get(path).status_code == 200, path
    assert api.client.get("/matches/nope/console").status_code == 404


def test_the_score_sheet_replays_only_the_events_that_stand(api: Api) -> None:
    # A dribble's Penalty 5.a, voided: the goal converts the Penalty 2, as if the dribble never was
    # (feeding the whole log, voids and all, would take the goal for the struck dribble's).
    api.send({"type": "penalty.award", "penalty": "2", "to": BLUE}, {"type": "play"}, {"type": "dribble"},
             {"type": "void", "seq": 4, "reason": "no dribble"}, {"type": "hit", "player": 3, "contact": "hit"},
             {"type": "goal", "team": BLUE, "player": 3})
    sheet = api.client.get(f"/matches/{CODE}/sheet").text
    assert '<span class="mark circled">2</span>' in sheet and '>5a</span>' not in sheet
    assert '<span class="mark circled">A</span>' in sheet


def test_the_score_sheet_letters_goals_and_circles_penalties(api: Api) -> None:
    api.send({"type": "chukker.start", "chukker": 1}, {"type": "goal", "team": RED, "player": 2}, *PENALTY_3,
             {"type": "penalty.award", "penalty": "1", "to": RED})
    sheet = api.client.get(f"/matches/{CODE}/sheet").text
    assert '<span class="mark">A</span>' in sheet  # Red's field goal
    assert '<span class="mark circled">B</span>' in sheet  # Blue's Penalty 3, converted
    assert '<span class="mark circled">C</span>' in sheet  # Red's Penalty 1
    assert '<span class="mark circled">3</span>' in sheet and '<span class="mark circled">1</span>' in sheet
    assert "Aráoz" in sheet and "goals by handicap 1" in sheet
