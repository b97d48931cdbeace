"""The append's lane (matchstate.web.lane): the append served ahead of FastAPI's router answers every request
exactly as the router answers it, refusals and all; and it is the lane, not the router, that serves it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED

from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.access import hash_key
from matchstate.web.lane import Lane
from matchstate.web.limits import Limits

LEAGUE_KEY = "lane-league-key"
GENEROUS = Limits(anonymous_per_second=1e6, keyed_per_second=1e6, streams_per_client=1000)
START = {"type": "match.start", "at": "2026-12-01T15:00:00Z", "match": "lane-1", "teams": [BLUE, RED], "id": "l/1"}
CHUKKER = {"type": "chukker.start", "at": "2026-12-01T15:01:00Z", "chukker": 1, "id": "l/2"}
GOAL = {"type": "goal", "at": "2026-12-01T15:02:00Z", "team": BLUE, "id": "l/3"}
EVENTS = "/api/matches/lane-1/events"

# Each request as (method, path, body, key's role or a key, extra headers): what a console, a script or an
# attacker sends to the append's path, and next to it.
REQUESTS: list[tuple[str, str, bytes, str | None, dict[str, str]]] = [
    ("POST", EVENTS, b'{"event": %s}' % str(CHUKKER).replace("'", '"').encode(), "scorer", {}),
    ("POST", EVENTS, b'{"event": %s}' % str(CHUKKER).replace("'", '"').encode(), "scorer", {}),  # a retry: 200
    ("POST", EVENTS, b'{"event": %s, "expected_seq": 2}' % str(GOAL).replace("'", '"').encode(), "scorer", {}),
    ("POST", EVENTS, b'{"event": %s, "expected_seq": 1}' % str({**GOAL, "id": "l/4"}).replace("'", '"').encode(),
     "scorer", {}),  # stale: 409
    ("POST", EVENTS, b'{"event": {"type": "goal"', "scorer", {}),  # no JSON: 400
    ("POST", EVENTS, b'{"event": 7}', "scorer", {}),  # not as described: 422
    ("POST", EVENTS, b'{"event": {}, "event": {}}', "scorer", {}),  # a key twice: 422
    ("POST", EVENTS, b'{"event": {"type": "whistle"}}', "scorer", {}),  # the engine refuses it: 422
    ("POST", EVENTS, b'{"event": {"type": "decide", "at": "2026-12-01T15:03:00Z"}}', "scorer", {}),  # 403
    ("POST", EVENTS, b'{"event": {}}', None, {}),  # no key: 401
    ("POST", EVENTS, b'{"event": {}}', "not-a-key", {}),
    ("POST", "/api/matches/no-such/events", b'{"event": {}}', "scorer", {}),
    ("POST", EVENTS, b'[' * 40 + b']' * 40, "scorer", {}),  # too deep: 400
    ("POST", EVENTS, b'{"event": "' + b"x" * 20_000 + b'"}', "scorer", {}),  # too large: 413
    ("POST", EVENTS, b'{"event": {}}', "scorer", {"X-Console-Timer": "device=x; elapsed=soon"}),
    ("POST", EVENTS, b'{"event": {}}', "league", {}),
    ("GET", EVENTS, b"", "scorer", {}),  # the path, another method: the router's
    ("PUT", EVENTS, b"{}", "scorer", {}),  # a method no route takes: 405
    ("POST", EVENTS + "/", b"{}", "scorer", {}),  # redirected to the path without its slash, then 422
]


class Door:
    """One match on a fresh service (with or without its lane), and its keys."""

    def __init__(self, folder: Path, lane: bool) -> None:
        self.store = Store(f"sqlite:///{folder}/store.db")
        self.store.upgrade()
        self.store.set_league_key(hash_key(LEAGUE_KEY))
        app = create_app(self.store, limits=GENEROUS)
        if not lane:  # before the first request builds the middleware stack
            app.user_middleware = [middleware for middleware in app.user_middleware
                                   if middleware.cls is not Lane]  # type: ignore[comparison-overlap]
        self.client = TestClient(app)
        created = self.client.post("/api/matches", json=START, headers={"Authorization": f"Bearer {LEAGUE_KEY}"})
        assert created.status_code == 201, created.text
        self.keys = {"scorer": created.json()["scorer_key"], "official": created.json()["official_key"],
                     "league": LEAGUE_KEY}

    def ask(self, method: str, path: str, body: bytes, key: str | None, headers: dict[str, str]) -> Any:
        if key is not None:
            headers = {**headers, "Authorization": f"Bearer {self.keys.get(key, key)}"}
        return self.client.request(method, path, content=body,
                                   headers={"Content-Type": "application/json", **headers})


@pytest.fixture
def doors(tmp_path: Path) -> Iterator[tuple[Door, Door]]:
    (tmp_path / "lane").mkdir()
    (tmp_path / "router").mkdir()
    laned, routed = Door(tmp_path / "lane", lane=True), Door(tmp_path / "router", lane=False)
    yield laned, routed
    laned.store.close()
    routed.store.close()


def _seen(answer: Any) -> tuple[int, dict[str, str], Any]:
    """What a client sees of an answer, less what differs between two stores (hashes, receipts, times)."""
    headers = {name: value for name, value in answer.headers.items() if name not in ("content-length", "date")}
    if not answer.headers.get("content-type", "").startswith("application/json"):
        return answer.status_code, headers, answer.text
    body = answer.json()
    if isinstance(body, dict) and "seq" in body:
        body = {"seq": body["seq"], "ruling": body["ruling"], "duplicate": body["duplicate"], "match": body["match"],
                "event": {name: value for name, value in body["event"].items() if name not in ("hash", "received_at")},
                "answered": sorted(body)}
    if isinstance(body, list):
        body = [{name: value for name, value in event.items() if name not in ("hash", "received_at")}
                for event in body]
    return answer.status_code, headers, body


def test_the_lane_answers_every_request_as_the_router_does(doors: tuple[Door, Door]) -> None:
    laned, routed = doors
    statuses = []
    for method, path, body, key, headers in REQUESTS:
        seen = _seen(laned.ask(method, path, body, key, headers))
        assert seen == _seen(routed.ask(method, path, body, key, headers)), (method, path, body[:60])
        statuses.append(seen[0])
    assert statuses == [201, 200, 201, 409, 400, 422, 422, 422, 403, 401, 403, 404, 400, 413, 422, 403, 200, 405, 422]


def test_the_append_is_served_by_the_lane_and_every_other_route_by_the_router(
        doors: tuple[Door, Door], monkeypatch: pytest.MonkeyPatch) -> None:
    laned, _ = doors

    async def refused(*_: object) -> None:
        raise AssertionError("the router served it")

    monkeypatch.setattr(APIRoute, "handle", refused)
    goal = laned.ask(*REQUESTS[0])
    assert goal.status_code == 201, goal.text
    with pytest.raises(AssertionError, match="the router served it"):
        laned.ask("GET", EVENTS, b"", "scorer", {})
