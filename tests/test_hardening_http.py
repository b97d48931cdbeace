"""The service at the door, on SQLite and PostgreSQL: rate limits, clocks that run fast or slow, and
edge inputs, each a clear 4xx that writes nothing (found by hand, then by hypothesis)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED

from matchstate.events import FIELDS
from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.access import hash_key
from matchstate.web.limits import BURST_SECONDS, Limits

CODE = "door-1"
GENEROUS = Limits(anonymous_per_second=1e6, keyed_per_second=1e6, streams_per_client=1000)
LEAGUE_KEY = "door-league-key"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}


def now(seconds: float = 0) -> str:
    """The server's clock now, give or take ``seconds``, as an event's ``at``."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


class Door:
    """A client of one match on a fresh service; ``post`` appends, stamped now unless told."""

    def __init__(self, client: TestClient, store: Store) -> None:
        self.client = client
        store.set_league_key(hash_key(LEAGUE_KEY))
        created = client.post("/api/matches", json={"type": "match.start", "at": now(-3600), "match": CODE,
                                                    "teams": [BLUE, RED], "id": "door/1"}, headers=LEAGUE)
        assert created.status_code == 201, created.text
        self.keys = {"scorer": created.json()["scorer_key"], "official": created.json()["official_key"],
                     "league": LEAGUE_KEY}
        self.sent = 1

    def post(self, event: dict[str, Any], role: str = "scorer", **body: Any) -> Any:
        self.sent += 1
        event = {"at": now(), "id": f"door/{self.sent}", **event}
        return self.client.post(f"/api/matches/{CODE}/events", json={"event": event, **body},
                                headers={"Authorization": f"Bearer {self.keys[role]}"})

    def written(self) -> list[tuple[str, int]]:
        return [(row["code"], row["events"]) for row in self.client.get("/api/matches", headers=LEAGUE).json()]


@pytest.fixture
def door(store: Store) -> Iterator[Door]:
    with TestClient(create_app(store, limits=GENEROUS)) as client:
        yield Door(client, store)


# -- rate limits --------------------------------------------------------------------------------

def test_an_address_asking_too_fast_gets_429_with_retry_after_but_a_key_has_its_own_allowance(store: Store) -> None:
    frozen = Limits(anonymous_per_second=1, keyed_per_second=2, clock=lambda: 0.0)  # no time passes
    with TestClient(create_app(store, limits=frozen)) as client:
        door = Door(client, store)  # the create is the league key's, charged to the address until it is known
        for _ in range(BURST_SECONDS - 1):
            assert client.get(f"/api/matches/{CODE}").status_code == 200
        refused = client.get(f"/api/matches/{CODE}")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
        assert "too many requests" in refused.json()["detail"]
        assert client.get("/static/style.css").status_code == 200  # a page's files are not counted
        # A scorer on the same network still sends its queue: its key has its own allowance.
        for _ in range(2 * BURST_SECONDS):
            assert door.post({"type": "chukker.start", "chukker": 1}).status_code in (201, 422)
        assert door.post({"type": "chukker.start", "chukker": 1}).status_code == 429
        assert client.get("/api/event-types", headers=LEAGUE).status_code == 200  # another key, its own allowance


def test_guessing_keys_costs_what_asking_without_one_costs(store: Store) -> None:
    with TestClient(create_app(store, limits=Limits(anonymous_per_second=1, clock=lambda: 0.0))) as client:
        door = Door(client, store)  # the league key's create is charged to the address too, until it is known
        for guess in range(BURST_SECONDS - 1):
            wrong = client.get(f"/api/matches/{CODE}/role", headers={"Authorization": f"Bearer guess-{guess}"})
            assert wrong.status_code == 403
        assert client.get(f"/api/matches/{CODE}/role", headers={"Authorization": "Bearer one-more"}).status_code == 429
        # The scorer's key holds a role: other clients' guesses from its address never refuse it.
        assert door.post({"type": "chukker.start", "chukker": 1}).status_code == 201
        assert client.get(f"/api/matches/{CODE}").status_code == 429  # the guesses spent the address's budget


# -- clocks -------------------------------------------------------------------------------------

def test_an_event_from_a_fast_clock_is_refused_saying_by_how_much_and_freezes_nothing(door: Door) -> None:
    fast = door.post({"type": "goal", "team": BLUE, "at": now(600)})
    assert fast.status_code == 422
    assert "is 600 s ahead of the server's clock, more than the 120 s allowed" in fast.json()["detail"]
    for event in ({"type": "chukker.start", "chukker": 1}, {"type": "goal", "team": RED, "player": 1}):
        assert door.post(event).status_code == 201
    assert door.post({"type": "whistle"}, "official").status_code == 201
    assert door.post({"type": "void", "seq": 3, "reason": "wrong team"}, "official").status_code == 201
    assert door.written() == [(CODE, 5)]


def test_an_official_voids_a_near_future_event_from_a_clock_behind_it(door: Door) -> None:
    ahead = door.post({"type": "goal", "team": BLUE, "at": now(100)})
    assert ahead.status_code == 201
    # The official's device is on time, so 100 s behind that event: the void is stamped with its at.
    void = {"type": "void", "seq": 2, "reason": "clock was fast", "at": now(), "id": "official/1"}
    answer = door.client.post(f"/api/matches/{CODE}/events", json={"event": void},
                              headers={"Authorization": f"Bearer {door.keys['official']}"})
    assert answer.status_code == 201, answer.text
    assert answer.json()["event"]["at"] == ahead.json()["event"]["at"]
    assert answer.json()["match"]["score"] == {BLUE: 0, RED: 0} and answer.json()["match"]["void"] == [2]
    retried = door.client.post(f"/api/matches/{CODE}/events", json={"event": void},
                               headers={"Authorization": f"Bearer {door.keys['official']}"})
    assert retried.status_code == 200 and retried.json()["seq"] == 3
    # A scorer's clock behind is still refused: only an official's void is stamped.
    late = door.post({"type": "goal", "team": RED})
    assert late.status_code == 422 and "earlier than the event before" in late.json()["detail"]


# -- edge inputs, by hand -----------------------------------------------------------------------

@pytest.mark.parametrize("path", [
    f"/api/matches/{CODE}/events?after_seq={2**31}", f"/api/matches/{CODE}/events?after_seq={2**63}",
    f"/api/matches/{CODE}/events?after_seq=-1", f"/api/matches/{CODE}/rulings/{2**31}",
    f"/api/matches/{CODE}/rulings/{2**63}", f"/api/matches/{CODE}/stream?after_seq={2**63}",
])
def test_a_seq_no_match_can_have_is_422(door: Door, path: str) -> None:
    answer = door.client.get(path)
    assert answer.status_code == 422
    assert ("greater than or equal to" if path.endswith("=-1") else "less than or equal to 2147483647") in answer.text


def test_a_last_event_id_no_match_can_have_is_422_not_a_broken_stream(door: Door) -> None:
    answer = door.client.get(f"/api/matches/{CODE}/stream", headers={"Last-Event-ID": str(10**20)})
    assert answer.status_code == 422 and "last-event-id" in answer.text


@pytest.mark.parametrize("seq", [2**31, 2**63, 10**30])
def test_a_void_of_a_seq_no_match_can_have_is_refused_by_the_engine(door: Door, seq: int) -> None:
    answer = door.post({"type": "void", "seq": seq, "reason": "x"}, "official")
    assert 400 <= answer.status_code < 500 and door.written() == [(CODE, 1)]


@pytest.mark.parametrize("body", [
    b'{"event": {"type": "goal", "team": "Blue"}, "expected_seq": NaN}',
    b'{"event": {"type": "goal", "team": "Blue"}, "expected_seq": 1e400}',
    b'{"event": {"type": "goal", "team": "Blue"}, "expected_seq": ' + str(2**64).encode() + b"}",
    b'{"event": {"type": "goal", "team": "Blue"}, "expected_seq": ' + b"9" * 5000 + b"}",
])
def test_an_expected_seq_that_is_not_a_seq_is_a_clear_4xx(door: Door, body: bytes) -> None:
    answer = door.client.post(f"/api/matches/{CODE}/events", content=body, headers={
        "Authorization": f"Bearer {door.keys['scorer']}", "Content-Type": "application/json"})
    assert 400 <= answer.status_code < 500 and answer.json()["detail"]
    assert door.written() == [(CODE, 1)]


@pytest.mark.parametrize("seq", ["true", "false", "1.0", "1e0", "2.5"])
def test_an_expected_seq_of_true_false_or_a_point_is_refused_naming_it(door: Door, seq: str) -> None:
    """Read as 1, 0 and 1 (one written on a view it never had, one a 409 that named no field); its digits as text
    ("2") are taken on purpose (tests/test_service.py)."""
    body = b'{"event": {"type": "goal", "team": "Blue"}, "expected_seq": %s}' % seq.encode()
    answer = door.client.post(f"/api/matches/{CODE}/events", content=body, headers={
        "Authorization": f"Bearer {door.keys['scorer']}", "Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["words"] == {"en": "the request is not as the API describes it: body.expected_seq",
                                      "es": "el pedido no es como lo describe la API: body.expected_seq"}
    assert door.written() == [(CODE, 1)]


# Every door that takes a JSON body: the league's, the append, a removal, the seat, the tournament desk.
DOORS = [("POST", "/api/matches"), ("POST", f"/api/matches/{CODE}/events"), ("DELETE", f"/api/matches/{CODE}"),
         ("PUT", f"/api/matches/{CODE}/seat"), ("POST", "/api/tournaments")]


@pytest.mark.parametrize(("method", "path"), DOORS)
def test_a_body_not_in_utf8_is_400_in_both_languages_and_writes_nothing(door: Door, method: str, path: str) -> None:
    """A UTF-16 body was read by the league's door (and a removal taken), and answered 500 by the checks after it."""
    for body in (json.dumps({"reason": "x", "type": "match.start"}).encode("utf-16"), b'{"reason": "\xff"}'):
        answer = door.client.request(method, path, content=body, headers={**LEAGUE, "Content-Type": "application/json"})
        assert answer.status_code == 400, answer.text
        assert answer.json()["words"]["es"].startswith("el cuerpo no está en UTF-8: el byte ")
    assert door.written() == [(CODE, 1)] and door.client.get("/api/tournaments").json() == []


@pytest.mark.parametrize(("method", "path", "body"), [
    ("DELETE", f"/api/matches/{CODE}", b'{"reason": "first", "reason": "second"}'),
    ("POST", "/api/tournaments", b'{"slug": "dup-cup", "name": "Dup", "teams": [], "slug": "dup-cup-2"}'),
    ("PUT", f"/api/matches/{CODE}/seat", b'{"ask": "open", "device": "d1", "label": "A", "device": "d2"}'),
    # What the routes' own parser takes and orjson does not: a byte-order mark, NaN.
    ("POST", "/api/tournaments", b'\xef\xbb\xbf{"slug": "dup-cup", "name": "Dup", "teams": [], "slug": "dup-cup-2"}'),
    ("DELETE", f"/api/matches/{CODE}", b'{"reason": "first", "reason": "second", "n": NaN}'),
])
def test_a_key_given_twice_is_refused_at_every_door(door: Door, method: str, path: str, body: bytes) -> None:
    """Readers disagree on which of the two counts: each of these took the last without a word."""
    answer = door.client.request(method, path, content=body, headers={**LEAGUE, "Content-Type": "application/json"})
    assert answer.status_code == 422 and "twice in one object" in answer.json()["detail"]
    assert door.written() == [(CODE, 1)] and door.client.get("/api/tournaments").json() == []
    assert door.client.get(f"/api/matches/{CODE}/seat").json()["holder"] is None


@pytest.mark.parametrize(("method", "path", "body", "field"), [
    ("DELETE", f"/api/matches/{CODE}", {"reason": "entered twice", "reasons": "x"}, "reasons"),
    ("PUT", f"/api/matches/{CODE}", {"start": {"type": "match.start", "at": now(-3600), "match": CODE,
                                               "teams": [BLUE, "Gold"]}, "reason": "the teams", "reson": "x"},
     "reson"),
    ("PUT", f"/api/matches/{CODE}/seat", {"device": "d1", "label": "Tablet", "ask": "open", "hande": []}, "hande"),
])
def test_a_field_a_door_does_not_know_is_refused_naming_it_and_nothing_is_done(
        door: Door, method: str, path: str, body: dict[str, Any], field: str) -> None:
    """A misspelt field was dropped without a word, and the removal, the correction or the seat taken without it."""
    key = door.keys["scorer" if path.endswith("/seat") else "league"]
    answer = door.client.request(method, path, json=body, headers={"Authorization": f"Bearer {key}"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["words"] == {"en": f"the request is not as the API describes it: body.{field}",
                                      "es": f"el pedido no es como lo describe la API: body.{field}"}
    assert door.written() == [(CODE, 1)] and door.client.get(f"/api/matches/{CODE}").json()["teams"] == [BLUE, RED]
    assert door.client.get(f"/api/matches/{CODE}/seat").json()["holder"] is None


def test_a_body_sent_with_a_get_is_left_alone_even_on_a_live_stream(door: Door) -> None:
    """Checked as the stream's answer had begun (its receive() goes on), one byte not in UTF-8 broke the stream."""
    with door.client.stream("GET", f"/api/matches/{CODE}/stream", content=b'{"a": 1, "a": "\xff"}',
                            headers={"Authorization": f"Bearer {door.keys['scorer']}"}) as stream:
        assert stream.status_code == 200
        assert next(stream.iter_lines()).startswith("retry:")
    assert door.client.request("GET", "/api/event-types", content=b"\xff").status_code == 200


def test_json_nested_990_deep_is_400_with_a_reason(door: Door) -> None:
    body = b'{"event": {"type": "goal", "team": "Blue", "by": ' + b"[" * 990 + b"]" * 990 + b"}}"
    answer = door.client.post(f"/api/matches/{CODE}/events", content=body, headers={
        "Authorization": f"Bearer {door.keys['scorer']}", "Content-Type": "application/json"})
    assert answer.status_code == 400 and "nests 992 deep" in answer.json()["detail"]
    brackets_in_text = {"type": "goal", "team": "Blue", "by": "[[[{{{" * 200 + '\\"'}
    assert door.post(brackets_in_text).status_code == 201


@pytest.mark.parametrize("field", ["by", "id", "team"])
def test_a_nul_in_a_text_is_refused(door: Door, field: str) -> None:
    answer = door.post({"type": "goal", "team": BLUE, field: "a\x00b"})
    assert answer.status_code == 422 and "NUL" in answer.json()["detail"]
    assert door.written() == [(CODE, 1)]


@pytest.mark.parametrize("address", [
    "/api/matches/a%00b", "/api/matches/a%00b/events", "/api/stats?event=%00", "/api/stats?season=2026&team=%00",
    "/api/stats.csv?event=%00", "/stats?team=%00", "/api/matches?cursor=%00", "/api/matches?date=%00",
    "/api/matches?state=%00", "/api/tournaments/%00", "/tournaments/%00"])
def test_a_nul_in_an_address_is_400_naming_it(door: Door, address: str) -> None:
    """PostgreSQL refuses a NUL in any text: each of these answered 500 there."""
    answer = door.client.get(address, headers=LEAGUE)
    assert answer.status_code == 400 and "NUL character" in answer.json()["detail"], address


def test_a_match_start_holding_a_key_twice_is_422_and_nothing_is_created(door: Door) -> None:
    """Created with the second of each: match "b" with the teams X and Y."""
    text = (f'{{"type": "match.start", "at": "{now(-60)}", "match": "a", "match": "b", '
            f'"teams": ["{BLUE}", "{RED}"], "teams": ["X", "Y"]}}')
    answer = door.client.post("/api/matches", content=text, headers={"Content-Type": "application/json", **LEAGUE})
    assert answer.status_code == 422 and "the key 'match' twice" in answer.json()["detail"]
    assert door.written() == [(CODE, 1)]


def test_a_nul_in_a_match_code_is_422(door: Door) -> None:
    created = door.client.post("/api/matches", json={"type": "match.start", "at": now(-60), "match": "a\x00b",
                                                     "teams": [BLUE, RED]}, headers=LEAGUE)
    assert created.status_code == 422 and door.written() == [(CODE, 1)]


@pytest.mark.parametrize(("field", "value"), [
    ("handicap_goals", {RED: 10**4000}), ("handicap_goals", {RED: 1e308 * 10}), ("field_length", 1e400),
    ("at", "0001-01-01T00:00:00+05:00"), ("at", "9999-12-31T23:59:59-05:00"),
])
def test_a_start_with_numbers_or_times_beyond_what_is_kept_is_422(door: Door, field: str, value: Any) -> None:
    start = {"type": "match.start", "at": now(-60), "match": "edge", "teams": [BLUE, RED], field: value}
    text = json.dumps(start).replace("Infinity", "1e400")  # the literal a device would send
    answer = door.client.post("/api/matches", content=text, headers={"Content-Type": "application/json", **LEAGUE})
    assert answer.status_code == 422, answer.text
    assert door.written() == [(CODE, 1)]


# -- edge inputs, by hypothesis -----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(min_value=2**31 - 2, max_value=2**64)
    | st.floats() | st.text(max_size=8) | st.sampled_from(["", "\x00", "Blue", "Red", now(-30), "1", "void"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8)
FIELD_NAMES = sorted({"type", "at", "id", "by", *(name for fields in FIELDS.values() for name in fields)})
BASES: list[dict[str, Any]] = [
    {"type": "penalty.award", "penalty": "3", "to": BLUE}, {"type": "goal", "team": BLUE, "player": 2},
    {"type": "void", "seq": 2, "reason": "x"}, {"type": "chukker.start", "chukker": 1}, {"type": "whistle"}]
READS = ["", "/role", "/events", "/verify", "/rulings/{seq}", "/log.jsonl", "/log.csv"]
texts = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12) | st.integers().map(str)


def changed(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    return {**base, "at": now(), **changes}


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    """One request: (method, path, httpx arguments), aimed at one field or parameter of an endpoint."""
    kind = draw(st.sampled_from(["append", "append-body", "create", "create-body", "import", "keys", "remove",
                                 "read", "stream", "list"]))
    field_changes = st.dictionaries(st.sampled_from(FIELD_NAMES) | st.text(max_size=4), json_values,
                                    min_size=1, max_size=2)
    role = draw(st.sampled_from(["scorer", "official", "league", "none", "wrong"]))
    if kind == "append":
        body: Any = {"event": changed(draw(st.sampled_from(BASES)), draw(field_changes))}
        if draw(st.booleans()):
            body["expected_seq"] = draw(json_values)
        return "POST", f"/api/matches/{CODE}/events", {"json": body, "role": role}
    if kind == "append-body":
        return "POST", f"/api/matches/{CODE}/events", {"json": draw(json_values), "role": role}
    if kind == "create":
        start = {"type": "match.start", "at": now(-60), "match": draw(st.text(max_size=6)), "teams": [BLUE, RED]}
        return "POST", "/api/matches", {"json": {**start, **draw(field_changes)}, "role": role}
    if kind == "create-body":
        return "POST", "/api/matches", {"json": draw(json_values), "role": role}
    if kind == "import":
        start = {"type": "match.start", "at": now(-60), "match": draw(st.text(max_size=6)), "teams": [BLUE, RED]}
        bases = draw(st.lists(st.sampled_from(BASES), max_size=3))
        lines: list[Any] = [start, *(changed(base, draw(field_changes)) for base in bases)]
        if draw(st.booleans()):
            lines[draw(st.integers(0, len(lines) - 1))] = draw(json_values)
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        return "POST", "/api/matches/import", {"content": text.encode("utf-8", "surrogatepass"), "role": role}
    other = quote(draw(st.text(max_size=6)) + "-other", safe="")  # never the door's match: it keeps its keys
    if kind == "keys":
        method = draw(st.sampled_from(["POST", "DELETE"]))
        return method, f"/api/matches/{other}/keys/{quote(draw(texts), safe='')}", {"role": role}
    if kind == "remove":
        return "DELETE", f"/api/matches/{other}", {"json": draw(json_values), "role": role}
    code = draw(st.just(CODE) | st.text(max_size=6))
    if kind == "stream":  # only where it cannot stream: a test client would wait on an open stream forever
        return "GET", f"/api/matches/{quote(code + '-none', safe='')}/stream", {
            "params": {"after_seq": draw(texts)}, "headers": {"Last-Event-ID": draw(texts)}}
    if kind == "list":
        return "GET", "/api/matches", {"params": {name: draw(texts) for name in ("team", "date", "state")}}
    path = draw(st.sampled_from(READS)).format(seq=quote(draw(texts), safe=""))
    return "GET", f"/api/matches/{quote(code, safe='')}{path}", {"params": {"after_seq": draw(texts)}, "role": role}


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(request=requests())
def test_arbitrary_json_at_any_endpoint_gets_no_5xx_and_a_refusal_writes_nothing(
        door: Door, request: tuple[str, str, dict[str, Any]]) -> None:
    method, path, arguments = request
    role = arguments.pop("role", "none")
    key = {"none": None, "wrong": "wrong-key"}.get(role, door.keys.get(role))
    headers = {**arguments.pop("headers", {}), **({"Authorization": f"Bearer {key}"} if key else {})}
    if "json" in arguments:  # as a device may send it: NaN and Infinity included
        arguments["content"] = json.dumps(arguments.pop("json"), ensure_ascii=False).encode("utf-8", "surrogatepass")
        headers["Content-Type"] = "application/json"
    before = door.written()
    answer = door.client.request(method, path, headers=headers, **arguments)
    assert answer.status_code < 500, f"{method} {path} {arguments}: {answer.status_code} {answer.text[:300]}"
    if answer.status_code >= 400:
        assert door.written() == before, f"{method} {path} {arguments}: {answer.status_code} wrote"
