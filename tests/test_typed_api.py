"""The API typed for generated clients: a client generated with openapi-python-client from a live server's
``/openapi.json`` drives a match (create, append a penalty, read its ruling, a stale append refused as a typed
409), and the document is valid OpenAPI with every answer and refusal modelled."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from matchstate.store import Store, hash_key
from matchstate.web.process import ServerProcess

LEAGUE = "the-typed-league"
AT = "2026-11-29T15:{}Z"  # in the past: an event ahead of the server's clock is refused
START: dict[str, Any] = {
    "type": "match.start", "at": AT.format("12:00.000"), "match": "typed-1", "teams": ["Santa Inés", "El Remanso"]}
METHODS = ("get", "post", "put", "patch", "delete")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("typed")
    url = f"sqlite:///{folder / 'typed.db'}"
    store = Store(url)
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE))
    store.close()
    with ServerProcess(url, log=folder / "server.log") as running:
        yield running


@pytest.fixture(scope="module")
def openapi(server: ServerProcess) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.base}/openapi.json", timeout=10) as answer:
        document: dict[str, Any] = json.load(answer)
    return document


def test_the_document_is_valid_openapi_with_every_answer_and_refusal_modelled(openapi: dict[str, Any]) -> None:
    from openapi_spec_validator import validate

    validate(openapi)
    schemas = openapi["components"]["schemas"]
    assert "HTTPValidationError" not in schemas  # a 422 is a Refusal, as the server sends it
    for path, item in openapi["paths"].items():
        for method in (m for m in METHODS if m in item):
            for status, answer in item[method]["responses"].items():
                contents = answer.get("content", {})
                assert contents, f"{method} {path} {status}: no content described"
                assert all(content.get("schema") for content in contents.values()), f"{method} {path} {status}"
                if status[0] in "45":
                    assert contents["application/json"]["schema"] == {"$ref": "#/components/schemas/Refusal"}
                elif "application/json" in contents:  # a success: a model, a list of one, or a typed map
                    schema = contents["application/json"]["schema"]
                    assert "$ref" in schema or "$ref" in schema.get("items", {}) or \
                        schema.get("additionalProperties") not in (None, True), f"{method} {path}: free-form"
    body = openapi["paths"]["/api/matches/import"]["post"]["requestBody"]["content"]
    assert body["application/jsonl"]["schema"]["format"] == "binary"


@pytest.fixture(scope="module")
def client_package(openapi: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("generated")
    (folder / "openapi.json").write_text(json.dumps(openapi))
    generator = Path(sys.executable).with_name("openapi-python-client")
    made = subprocess.run([str(generator), "generate", "--path", str(folder / "openapi.json"), "--meta", "none",
                           "--output-path", str(folder / "matchstate_client")],
                          capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    sys.path.insert(0, str(folder))
    try:
        yield "matchstate_client"
    finally:
        sys.path.remove(str(folder))
        for name in [name for name in sys.modules if name.split(".")[0] == "matchstate_client"]:
            del sys.modules[name]


def test_a_generated_client_drives_a_match_and_gets_a_stale_append_as_a_typed_409(
        server: ServerProcess, client_package: str) -> None:
    def module(name: str) -> Any:
        return importlib.import_module(f"{client_package}.{name}")

    client = module("client")
    models = module("models")
    create = module("api.league.create_match_api_matches_post")
    append = module("api.events.append_event_api_matches_code_events_post")
    explain = module("api.events.explain_ruling_api_matches_code_rulings_seq_get")
    league = client.AuthenticatedClient(base_url=server.base, token=LEAGUE)

    created = create.sync(client=league, body=models.CreateMatchApiMatchesPostStart.from_dict(START))
    assert isinstance(created, models.Created)
    assert created.code == "typed-1" and created.match.state and created.receipt.seq == 1
    scorer = client.AuthenticatedClient(base_url=server.base, token=created.scorer_key)

    def sent(event: dict[str, Any], expected_seq: int | None = None) -> Any:
        body = models.AppendEventApiMatchesCodeEventsPostAppendRequest.from_dict(
            {"event": event, **({"expected_seq": expected_seq} if expected_seq is not None else {})})
        return append.sync_detailed("typed-1", client=scorer, body=body)

    assert sent({"type": "chukker.start", "at": AT.format("17:20.000"), "chukker": 1}).status_code == 201
    assert sent({"type": "whistle", "at": AT.format("19:04.600")}).status_code == 201
    awarded = sent({"type": "penalty.award", "at": AT.format("19:05.000"), "penalty": "2", "to": "Santa Inés",
                     "from": "center"})
    assert awarded.status_code == 201 and isinstance(awarded.parsed, models.Appended) and awarded.parsed.seq == 4
    assert sent({"type": "ball.place", "at": AT.format("19:26.000")}).status_code == 201
    # The team taking the penalty out of position: the engine awards the other team a penalty, typed as a Ruling.
    improper = sent({"type": "position.improper", "at": AT.format("19:30.500"), "team": "Santa Inés"})
    assert improper.status_code == 201
    appended = improper.parsed
    assert isinstance(appended, models.Appended)
    assert appended.seq == 6 and appended.duplicate is False and appended.receipt.seq == 6
    assert isinstance(appended.ruling, models.Ruling) and appended.ruling.kind == "award"
    assert appended.ruling.to == "El Remanso" and appended.ruling.penalty
    assert appended.ruling.text.en and appended.ruling.text.es and appended.ruling.cite  # both languages, typed
    assert appended.match.seq == 6

    explained = explain.sync("typed-1", 6, client=scorer)
    assert isinstance(explained, models.Explained)
    assert explained.event.seq == 6 and explained.event.ruling.cite == appended.ruling.cite
    assert 4 in [event.seq for event in explained.led_to]  # the penalty it follows

    stale = sent({"type": "play", "at": AT.format("20:01.000")}, expected_seq=1)
    assert stale.status_code == 409
    refusal = stale.parsed
    assert isinstance(refusal, models.Refusal)
    assert refusal.current_seq == 6 and isinstance(refusal.detail, str)
    assert refusal.words.en and refusal.words.es


def test_every_answer_is_what_its_route_declares(tmp_path: Path) -> None:
    """Answers of each kind, successes and refusals, checked against the schema /openapi.json gives their route and
    status: the models describe what is sent."""
    from fastapi.testclient import TestClient
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # it ships no types

    from matchstate.web import create_app

    store = Store(f"sqlite:///{tmp_path / 'declared.db'}")
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE))
    app = create_app(store)
    document = app.openapi()
    client = TestClient(app)
    league = {"Authorization": f"Bearer {LEAGUE}"}

    def pattern(template: str) -> str:
        return re.escape(re.sub(r"\{\w+\}", "PARAMETER", template)).replace("PARAMETER", "[^/]+")

    def checked(method: str, path: str, status: int, **sent: Any) -> Any:
        answer = client.request(method, path, **sent)
        assert answer.status_code == status, answer.text
        # The route's template, as the router would choose it: a literal segment before a parameter.
        template = min((t for t, item in document["paths"].items() if method.lower() in item and
                        re.fullmatch(pattern(t), path.split("?")[0])),
                       key=lambda t: t.count("{"))
        schema = document["paths"][template][method.lower()]["responses"][str(status)]["content"]
        validator = Draft202012Validator({**schema["application/json"]["schema"], **document})
        errors = [f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(answer.json())]
        assert not errors, f"{method} {path} {status}: {errors}"
        return answer.json()

    keys = checked("POST", "/api/matches", 201, json=START, headers=league)
    scorer = {"Authorization": f"Bearer {keys['scorer_key']}"}
    events = "/api/matches/typed-1/events"
    checked("POST", events, 201, json={"event": {"type": "chukker.start", "at": AT.format("17:20.000"),
                                                 "chukker": 1, "id": "d-1"}}, headers=scorer)
    checked("POST", events, 200, json={"event": {"type": "chukker.start", "at": AT.format("17:20.000"),
                                                 "chukker": 1, "id": "d-1"}}, headers=scorer)  # a retry
    for event in ({"type": "whistle", "at": AT.format("19:04.600")},
                  {"type": "penalty.award", "at": AT.format("19:05.000"), "penalty": "2", "to": "Santa Inés",
                   "from": "center"}):
        checked("POST", events, 201, json={"event": event}, headers=scorer)
    for path in ("/api/matches", "/api/matches/typed-1", "/api/matches/typed-1/role?key=" + keys["scorer_key"],
                 events, "/api/matches/typed-1/rulings/4", "/api/matches/typed-1/verify", "/api/receipts/key",
                 "/api/time", "/api/event-types", "/api/rules", "/api/stats", "/api/stats?limit=2",
                 "/api/tournaments", "/api/matches/typed-1/sit-outs"):
        checked("GET", path, 200)
    checked("GET", "/api/discipline", 200, headers=league)
    seat, laptop = "/api/matches/typed-1/seat", {"device": "laptop", "label": "Computer · Chrome"}
    held = {"type": "goal", "team": "Green", "at": AT.format("19:30.000"), "id": "held-1"}
    checked("PUT", seat, 200, json={"device": "tablet", "label": "Tablet", "handed": [held]}, headers=scorer)
    official = {"Authorization": f"Bearer {keys['official_key']}"}
    checked("POST", f"{seat}/handed/held-1/set-aside", 200, json=laptop, headers=official)
    checked("POST", f"{seat}/handed/held-2/set-aside", 404, json=laptop, headers=official)
    checked("POST", f"{seat}/handed/held-1/set-aside", 403, json=laptop, headers=scorer)
    # Refusals, each a Refusal whatever its status.
    checked("POST", events, 401, json={"event": {"type": "whistle", "at": AT.format("20:00.000")}})
    checked("POST", events, 403, json={"event": {"type": "whistle", "at": AT.format("20:00.000")}},
            headers={"Authorization": "Bearer wrong"})
    checked("GET", "/api/matches/no-such-match", 404)
    checked("GET", "/api/matches/typed-1/rulings/99", 404)
    checked("POST", events, 409, json={"event": {"type": "ball.place", "at": AT.format("19:26.000")},
                                       "expected_seq": 1}, headers=scorer)
    checked("POST", events, 422, json={"evt": {}}, headers=scorer)  # not as described: each problem listed
    checked("POST", events, 422, json={"event": {"type": "no.such.type", "at": AT.format("20:00.000")}},
            headers=scorer)  # refused by the engine
    checked("POST", events, 400, content=b"{not json", headers=scorer)
    checked("POST", "/api/matches", 409, json=START, headers=league)
    checked("GET", "/api/stats?season=never", 400)
    checked("POST", "/api/matches/import", 422, content=b'{"type": "match.start"}\n', headers=league)
