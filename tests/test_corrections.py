"""A match not yet started is corrected or removed with the league key, each a recorded act: a correction
puts the corrected match.start in place under the same code and keys, so the links handed out still open
it; once anything else is logged the match is corrected by voids, and nothing recorded is changed. On
SQLite and PostgreSQL, through the store and over HTTP."""

from __future__ import annotations

import itertools
import json
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED, match_log, stamp

from matchstate.cli import main
from matchstate.errors import ConflictError, RefusedEvent, StoreError, UnknownMatch
from matchstate.store import Store
from matchstate.store.sql import ACTS
from matchstate.web import create_app
from matchstate.web.access import hash_key

LEAGUE_KEY = "the-league-of-the-field"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}
CODE = "fix-1"
START: dict[str, Any] = {"type": "match.start", "at": stamp(0), "match": CODE, "teams": [BLUE, RED], "id": "start-1"}
CORRECTED = {**START, "teams": [BLUE, "Green"], "handicap_goals": {"Green": 2}, "id": "start-2"}


def test_a_match_not_yet_started_is_corrected_in_place_keeping_its_keys_as_a_recorded_act(store: Store) -> None:
    store.create_match(START, keys={"scorer": "s" * 64, "official": "o" * 64})
    corrected = store.correct_match(CODE, CORRECTED, reason="the second team was Green", by="league")
    assert corrected.match.teams == (BLUE, "Green") and corrected.match.score == {BLUE: 0, "Green": 2}
    assert store.key_hashes(CODE) == ("s" * 64, "o" * 64)
    assert [json.loads(event.raw)["teams"] for event in store.events(CODE)] == [[BLUE, "Green"]]
    (removal,) = store.removals()
    assert (removal.code, removal.reason, removal.by, removal.last_seq) == (CODE, "the second team was Green",
                                                                            "league", 1)
    assert store.verify() == []  # a removal, not tampering


def test_a_match_that_has_begun_is_not_corrected_and_nothing_of_it_changes(store: Store) -> None:
    log = match_log(CODE, 3)
    store.create_match(log[0])
    store.append(CODE, log[1])
    with pytest.raises(ConflictError, match="has begun"):
        store.correct_match(CODE, {**log[0], "teams": [BLUE, "Green"]}, reason="too late")
    assert [event.seq for event in store.events(CODE)] == [1, 2] and store.removals() == []


def test_a_refused_correction_removes_nothing(store: Store) -> None:
    store.create_match(START)
    with pytest.raises(RefusedEvent):
        store.correct_match(CODE, {**START, "teams": [BLUE, BLUE]}, reason="a typo")
    with pytest.raises(StoreError, match="names match other"):
        store.correct_match(CODE, {**START, "match": "other"}, reason="a typo")
    # each said as what it is: it said "a match is removed only with a reason", and "names match ..., not nope"
    with pytest.raises(StoreError, match=r"a match\.start is corrected only with a reason"):
        store.correct_match(CODE, {**START, "teams": [BLUE, "Green"]}, reason=" ")
    with pytest.raises(UnknownMatch):
        store.correct_match("nope", {**START, "teams": [BLUE, "Green"]}, reason="a typo")
    assert store.match(CODE).teams == (BLUE, RED) and store.removals() == []


def test_a_correction_cut_short_after_the_removal_leaves_the_match_its_keys_and_the_record_as_they_were(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The removal and the new match.start were two transactions: a fault between them (the database gone, the
    process ended) left the match removed, its keys with it, and every link handed out opening nothing."""
    store.create_match(START, keys={"scorer": "s" * 64, "official": "o" * 64})
    before = (store.match(CODE).hash, [event.raw for event in store.events(CODE)], store.key_hashes(CODE))

    def cut_short(*_: object) -> None:
        raise StoreError("the database went away")

    monkeypatch.setattr(store._writer, "register", cut_short)  # the new match's acts, after the removal's
    with pytest.raises(StoreError, match="the database went away"):
        store.correct_match(CODE, CORRECTED, reason="the second team was Green", by="league")
    monkeypatch.undo()
    assert (store.match(CODE).hash, [event.raw for event in store.events(CODE)], store.key_hashes(CODE)) == before
    assert store.removals() == [] and store.verify() == []
    assert store.correct_match(CODE, CORRECTED, reason="the second team was Green").match.teams == (BLUE, "Green")


def test_a_correction_s_acts_and_its_new_match_start_are_dated_in_the_order_they_were_made(store_url: str) -> None:
    """The corrected match.start was received before the correction's transaction began, and its creation's acts
    took that time: the record showed the match created before it was removed (by as long as the correction
    waited for its lock)."""
    ticks = itertools.count()
    store = Store(store_url, clock=lambda: datetime(2026, 12, 5, 15, tzinfo=UTC) + timedelta(seconds=next(ticks)))
    store.upgrade()
    store.create_match(START, keys={"scorer": "s" * 64})
    store.correct_match(CODE, CORRECTED, reason="the second team was Green", by="league")
    with store.database.transaction() as connection:
        made = [(row.act, row.at) for row in connection.execute(ACTS) if row.code == CODE]
    assert [act for act, _ in made] == ["create", "issue", "remove", "create", "issue"]
    assert [at for _, at in made] == sorted(at for _, at in made)
    (removed,) = store.removals()
    assert store.events(CODE)[0].received_at >= removed.at
    store.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    store.set_league_key(hash_key(LEAGUE_KEY))
    with TestClient(create_app(store)) as client:
        yield client


def test_over_http_a_correction_needs_the_league_key_and_keeps_the_scorers_key(client: TestClient) -> None:
    created = client.post("/api/matches", json=START, headers=LEAGUE).json()
    body = {"start": CORRECTED, "reason": "the second team was Green"}
    assert client.put(f"/api/matches/{CODE}", json=body).status_code == 401
    scorer = {"Authorization": f"Bearer {created['scorer_key']}"}
    assert client.put(f"/api/matches/{CODE}", json=body, headers=scorer).status_code == 403
    answer = client.put(f"/api/matches/{CODE}", json=body, headers=LEAGUE)
    assert answer.status_code == 200, answer.text
    assert answer.json()["teams"] == [BLUE, "Green"]
    # The scorer's key, handed out with the match, still records in it.
    event = {"type": "chukker.start", "at": stamp(1000), "chukker": 1}
    assert client.post(f"/api/matches/{CODE}/events", json={"event": event}, headers=scorer).status_code == 201
    # Begun: a correction is refused (409), in both languages, and the match stays as it is.
    late = client.put(f"/api/matches/{CODE}", json=body, headers=LEAGUE)
    assert late.status_code == 409 and "has begun" in late.json()["detail"]
    assert "ya empezó" in late.json()["words"]["es"]
    assert client.get(f"/api/matches/{CODE}").json()["seq"] == 2
    assert client.put("/api/matches/nope", json={**body, "start": {**CORRECTED, "match": "nope"}},
                      headers=LEAGUE).status_code == 404
    assert client.put(f"/api/matches/{CODE}", json={"start": CORRECTED, "reason": ""},
                      headers=LEAGUE).status_code == 422


def test_the_command_line_corrects_and_removes_a_match(store: Store, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    store.create_match(START, keys={"scorer": "s" * 64})
    corrected = tmp_path / "start.jsonl"
    corrected.write_text(json.dumps(CORRECTED) + "\n\n")
    assert main(["correct", CODE, str(corrected), "--reason", "the second team was Green", "--by", "Ana"]) == 0
    assert "its keys kept: Blue – Green" in capsys.readouterr().out
    assert store.match(CODE).teams == (BLUE, "Green") and store.key_hashes(CODE)[0] == "s" * 64
    assert main(["remove", CODE, "--reason", "created by mistake"]) == 0
    assert [act.reason for act in store.removals()] == ["the second team was Green", "created by mistake"]
    assert main(["remove", CODE, "--reason", "again"]) == 2  # no such match now
    assert "fix-1" in capsys.readouterr().err
