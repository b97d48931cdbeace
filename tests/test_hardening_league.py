"""A league above its matches, over HTTP: only its key creates, imports and removes matches and issues and
revokes their keys; roles are read from the store on every request, so a revocation holds at once on
every server of the database; a private server tells no code apart without a key; every append is
acknowledged with a signed receipt."""

from __future__ import annotations

import base64
import json
import warnings
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, match_log

from matchstate.store import Store
from matchstate.store.receipts import ProofReceipt
from matchstate.tlog import merkle
from matchstate.tlog.checkpoint import SignedCheckpoint
from matchstate.tlog.note import Verifier
from matchstate.web import create_app
from matchstate.web.access import hash_key
from matchstate.web.process import ServerProcess

LEAGUE_KEY = "the-league-of-the-field"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}
CODE = "league-1"
LOG = match_log(CODE, 6)


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def league_store(store: Store) -> Store:
    store.set_league_key(hash_key(LEAGUE_KEY))
    return store


@pytest.fixture
def client(league_store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(league_store)) as client:
        yield client


def codes(store: Store) -> list[str]:
    return [summary.code for summary in store.summaries()]


def test_only_the_league_key_creates_a_match(client: TestClient, league_store: Store) -> None:
    assert client.post("/api/matches", json=LOG[0]).status_code == 401
    assert client.post("/api/matches", json=LOG[0], headers=bearer("not-the-league")).status_code == 403
    assert codes(league_store) == []
    created = client.post("/api/matches", json=LOG[0], headers=LEAGUE)
    assert created.status_code == 201
    scorer = created.json()["scorer_key"]
    # A match's own keys do not create matches; the league's does not record events.
    assert client.post("/api/matches", json={**LOG[0], "match": "other"}, headers=bearer(scorer)).status_code == 403
    refused = client.post(f"/api/matches/{CODE}/events", json={"event": LOG[1]}, headers=LEAGUE)
    assert refused.status_code == 403 and "scorer or official key" in refused.json()["detail"]
    assert codes(league_store) == [CODE]


def test_an_import_over_http_needs_the_league_key_and_the_match_gets_keys(client: TestClient,
                                                                         league_store: Store) -> None:
    text = "".join(json.dumps(event) + "\n" for event in LOG)
    headers = {"Content-Type": "application/jsonl"}
    assert client.post("/api/matches/import", content=text, headers=headers).status_code == 401
    assert client.post("/api/matches/import", content=text, headers={**headers, **bearer("x")}).status_code == 403
    assert codes(league_store) == []
    imported = client.post("/api/matches/import", content=text, headers={**headers, **LEAGUE})
    assert imported.status_code == 201, imported.text
    assert imported.json()["events"] == 6 and imported.json()["match"]["seq"] == 6
    scorer = imported.json()["scorer_key"]
    appended = client.post(f"/api/matches/{CODE}/events", json={"event": match_log(CODE, 7)[6]},
                           headers=bearer(scorer))
    assert appended.status_code == 201
    broken = text.replace('"type": "play"', '"type": "plays"', 1).replace(CODE, "league-2")
    refused = client.post("/api/matches/import", content=broken, headers={**headers, **LEAGUE})
    assert refused.status_code == 422 and refused.json()["detail"].startswith("line 3: ")
    assert codes(league_store) == [CODE]


def test_the_league_issues_and_revokes_a_matchs_keys(client: TestClient) -> None:
    created = client.post("/api/matches", json=LOG[0], headers=LEAGUE).json()
    old_scorer, official = created["scorer_key"], created["official_key"]
    url = f"/api/matches/{CODE}/keys/scorer"
    assert client.post(url).status_code == 401
    assert client.post(url, headers=bearer(official)).status_code == 403  # an official does not hand out keys
    issued = client.post(url, headers=LEAGUE)
    assert issued.status_code == 201 and issued.json()["role"] == "scorer"
    new_scorer = issued.json()["key"]
    assert new_scorer not in (old_scorer, official)

    def append(key: str, n: int) -> int:
        answer = client.post(f"/api/matches/{CODE}/events", json={"event": LOG[n]}, headers=bearer(key))
        return int(answer.status_code)

    assert append(old_scorer, 1) == 403  # issuing a role's key revokes the one before it
    assert append(new_scorer, 1) == 201
    assert client.delete(url, headers=LEAGUE).json() == {"code": CODE, "role": "scorer", "revoked": "scorer"}
    assert append(new_scorer, 2) == 403
    assert append(official, 2) == 201  # the other role's key still opens the match
    assert client.post(f"/api/matches/{CODE}/keys/league", headers=LEAGUE).status_code == 422
    assert client.post("/api/matches/nope/keys/official", headers=LEAGUE).status_code == 404


def test_removing_a_match_is_an_act_of_the_league_with_a_reason(client: TestClient, league_store: Store) -> None:
    created = client.post("/api/matches", json=LOG[0], headers=LEAGUE).json()
    url = f"/api/matches/{CODE}"
    assert client.request("DELETE", url, json={"reason": "entered twice"}).status_code == 401
    assert client.request("DELETE", url, json={"reason": "entered twice"},
                          headers=bearer(created["official_key"])).status_code == 403
    assert client.request("DELETE", url, json={"reason": ""}, headers=LEAGUE).status_code == 422
    assert client.request("DELETE", url, headers=LEAGUE).status_code == 422  # no reason, no removal
    assert codes(league_store) == [CODE]
    removed = client.request("DELETE", url, json={"reason": "entered twice"}, headers=LEAGUE)
    assert removed.status_code == 200 and removed.json() == {"removed": CODE, "reason": "entered twice"}
    assert client.get(url).status_code == 404
    (act,) = league_store.removals()
    assert (act.code, act.reason, act.by) == (CODE, "entered twice", "league")


def test_a_private_server_answers_an_unknown_match_as_a_known_one(league_store: Store) -> None:
    with TestClient(create_app(league_store, private=True)) as client:
        created = client.post("/api/matches", json=LOG[0], headers=LEAGUE).json()
        for code in (CODE, "no-such-match"):
            for path in ("", "/events", "/verify", "/rulings/1", "/log.jsonl", "/log.csv", "/role", "/stream"):
                assert client.get(f"/api/matches/{code}{path}").status_code == 401, (code, path)
                assert client.get(f"/api/matches/{code}{path}", headers=bearer("guess")).status_code == 403, path
            for page in ("console", "review"):  # the page, whose data needs the key
                assert client.get(f"/matches/{code}/{page}").status_code == 200
            assert client.get(f"/matches/{code}/sheet").status_code == 401
        assert client.get(f"/api/matches/{CODE}", headers=bearer(created["scorer_key"])).status_code == 200
        for path in ("", "/role"):  # the league may know which matches there are
            assert client.get(f"/api/matches/no-such-match{path}", headers=LEAGUE).status_code == 404
        assert client.get(f"/api/matches/{CODE}/role", headers=LEAGUE).json()["role"] == "league"
        assert client.get("/api/matches").status_code == 401
        assert [row["code"] for row in client.get("/api/matches", headers=LEAGUE).json()] == [CODE]


def test_every_acknowledged_append_carries_its_checkpoint_and_inclusion_proof(client: TestClient) -> None:
    """Issue 19: an append's answer is its league log leaf's tlog proof in its group's signed checkpoint, which
    the published key checks; the log's latest checkpoint and a consistency proof from any older one are served."""
    created = client.post("/api/matches", json=LOG[0], headers=LEAGUE).json()
    published = client.get("/api/receipts/key").json()
    public = Ed25519PublicKey.from_public_bytes(base64.b64decode(published["public_key"]))
    assert created["receipt"]["seq"] == 1 and created["receipt"]["leaf"] == "append"
    headers = bearer(created["scorer_key"])
    first = client.post(f"/api/matches/{CODE}/events", json={"event": LOG[1]}, headers=headers)
    again = client.post(f"/api/matches/{CODE}/events", json={"event": LOG[1]}, headers=headers)
    assert (first.status_code, again.status_code) == (201, 200)
    answer = first.json()
    receipt = answer["receipt"]
    assert again.json()["receipt"]["proof"].split("\n\n")[0] == receipt["proof"].split("\n\n")[0]  # the same leaf
    assert receipt["match"] == CODE and receipt["seq"] == 2 and receipt["hash"] == answer["event"]["hash"]
    assert answer["proof"] == receipt["proof"] and receipt["proof"].endswith("\n\n" + answer["checkpoint"])
    origin = f"matchstate.league/{published['fingerprint']}"
    tree = ProofReceipt.from_json(receipt).verified([Verifier.ed25519(origin, public)], origin).checkpoint
    latest = client.get("/api/log/checkpoint")
    assert latest.status_code == 200
    newest = SignedCheckpoint.open(latest.text, origin, [Verifier.ed25519(origin, public)]).checkpoint
    proof = client.get("/api/log/consistency", params={"from": tree.size, "to": newest.size}).json()
    assert merkle.verify_consistency(tree.size, newest.size, [base64.b64decode(step) for step in proof["proof"]],
                                     tree.root, newest.root)
    fewer = client.get("/api/log/consistency", params={"from": 1, "to": newest.size + 1})
    assert fewer.status_code == 400 and fewer.json()["words"] == {  # the Spanish said the driver's English
        "en": f"no consistency proof from size 1 to size {newest.size + 1}: the league log holds fewer than "
              f"{newest.size + 1} leaves",
        "es": f"no hay prueba de consistencia del tamaño 1 al {newest.size + 1}: el registro de la liga tiene menos de "
              f"{newest.size + 1} hojas"}
    backwards = client.get("/api/log/consistency", params={"from": 3, "to": 2})
    assert backwards.status_code == 400 and "un árbol de 3 hojas no es prefijo de uno menor" in \
        backwards.json()["words"]["es"]
    described = client.get("/openapi.json").json()
    assert "/api/log/consistency" in described["paths"] and "ProofReceipt" in described["components"]["schemas"]


# -- two servers, one database ----------------------------------------------------------------------

@pytest.fixture
def two_servers(store_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    store = Store(store_url)
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE_KEY))
    store.close()
    with ServerProcess(store_url, log=tmp_path / "a.log") as one, \
            ServerProcess(store_url, log=tmp_path / "b.log") as two:
        yield one, two


def test_a_key_revoked_through_one_server_is_refused_at_once_by_another(
        two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    one, two = two_servers
    with httpx.Client(base_url=one.base, timeout=10) as first, httpx.Client(base_url=two.base, timeout=10) as second:
        created = first.post("/api/matches", json=LOG[0], headers=LEAGUE).json()
        scorer = bearer(created["scorer_key"])
        assert second.post(f"/api/matches/{CODE}/events", json={"event": LOG[1]}, headers=scorer).status_code == 201
        assert second.get(f"/api/matches/{CODE}/role", headers=scorer).json()["role"] == "scorer"
        assert first.delete(f"/api/matches/{CODE}/keys/scorer", headers=LEAGUE).status_code == 200
        refused = second.post(f"/api/matches/{CODE}/events", json={"event": LOG[2]}, headers=scorer)
        assert refused.status_code == 403
        assert second.get(f"/api/matches/{CODE}/role", headers=scorer).status_code == 403
        issued = first.post(f"/api/matches/{CODE}/keys/scorer", headers=LEAGUE).json()["key"]
        assert second.post(f"/api/matches/{CODE}/events", json={"event": LOG[2]},
                           headers=bearer(issued)).status_code == 201
        assert second.get(f"/api/matches/{CODE}").json()["score"] == {BLUE: 0, "Red": 0}


def test_removing_a_match_ends_its_live_streams(two_servers: tuple[ServerProcess, ServerProcess]) -> None:
    server = two_servers[0]
    with httpx.Client(base_url=server.base, timeout=10) as client:
        client.post("/api/matches", json=LOG[0], headers=LEAGUE)
        with client.stream("GET", f"/api/matches/{CODE}/stream", params={"after_seq": 1}) as stream:
            lines = stream.iter_lines()
            assert next(lines).startswith("retry:")
            removed = httpx.request("DELETE", f"{server.base}/api/matches/{CODE}", json={"reason": "a test match"},
                                    headers=LEAGUE, timeout=10)
            assert removed.status_code == 200
            assert [line for line in lines if line] == []  # the stream ends, with nothing more
        assert client.get(f"/api/matches/{CODE}/stream").status_code == 404  # and a browser reconnecting is told
