"""The match list knows where each match stands (scheduled, in play, finished with the winner), and
finds matches by team, event, venue, player (the rosters' names), date and standing, whatever the
case and the accents."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED, hand_log, stored

from matchstate.engine import Match
from matchstate.errors import InvalidQuery
from matchstate.records.search import Filters, Listed, find
from matchstate.store import Store
from matchstate.store.sql import standing
from matchstate.web import create_app

CHUKKER = {"type": "chukker.start", "chukker": 1}
FINAL = hand_log("final", "2026-11-29", CHUKKER, {"type": "goal", "team": RED, "player": 3},
                 event="Copa de Oro — Final", venue="Cancha 1, Pilar",
                 rosters={RED: [{"player": 3, "name": "Facundo Aráoz", "handicap": 7}]})
OPEN = hand_log("open", "2026-12-05", event="Abierto del Sur", venue="Club San Jorge", teams=["Los Álamos", "Gold"])
STRUCK = hand_log("struck", "2026-12-06", CHUKKER, {"type": "void", "seq": 2, "reason": "not yet"})


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(stored(store, FINAL, OPEN, STRUCK))) as client:
        yield client


def codes(client: TestClient, **query: str) -> list[str]:
    answer = client.get("/api/matches", params=query)
    assert answer.status_code == 200, answer.text
    return [row["code"] for row in answer.json()]


def test_the_list_says_where_each_match_stands(client: TestClient) -> None:
    rows = {row["code"]: row for row in client.get("/api/matches").json()}
    assert {code: (row["status"], row["winner"]) for code, row in rows.items()} == {
        "final": ("in_play", None), "open": ("scheduled", None), "struck": ("scheduled", None)}  # voided: not started
    final = rows["final"]
    assert (final["event"], final["venue"], final["date"], final["score"]) == (
        "Copa de Oro — Final", "Cancha 1, Pilar", "2026-11-29", {BLUE: 0, RED: 1})
    assert codes(client, status="scheduled") == ["open", "struck"] and codes(client, status="in_play") == ["final"]
    assert codes(client, status="finished") == []


@pytest.mark.parametrize(("query", "found"), [
    ({"team": "alamos"}, ["open"]),  # accents and case aside
    ({"team": "LOS ÁLAMOS"}, ["open"]),
    ({"team": "blue"}, ["final", "struck"]),
    ({"event": "oro final"}, ["final"]),  # every word, anywhere in the field
    ({"event": "final oro"}, ["final"]),
    ({"event": "oro sur"}, []),
    ({"venue": "san jorge"}, ["open"]),
    ({"player": "araoz"}, ["final"]),  # a name from the rosters
    ({"player": "facundo"}, ["final"]),
    ({"player": "blue"}, []),  # a team is no player
    ({"date": "2026-12"}, ["open", "struck"]),
    ({"date": "2026-11-29"}, ["final"]),
    ({"date": "2025"}, []),
    ({"team": "blue", "status": "scheduled"}, ["struck"]),
    ({"state": "idle", "venue": "pilar"}, ["final"]),
])
def test_search_finds_matches_by_what_a_record_keeper_remembers(client: TestClient, query: dict[str, Any],
                                                               found: list[str]) -> None:
    assert codes(client, **query) == found


def test_a_status_that_does_not_exist_is_refused(client: TestClient) -> None:
    answer = client.get("/api/matches", params={"status": "over"})
    assert answer.status_code == 400 and "scheduled, in_play, finished" in answer.json()["detail"]


def test_the_list_follows_the_matches_as_they_move(client: TestClient, store: Store) -> None:
    assert codes(client, status="in_play") == ["final"]
    store.append("open", {"type": "chukker.start", "chukker": 1, "at": "2026-12-05T15:10:00Z"})
    assert codes(client, status="in_play") == ["final", "open"]
    store.append("open", {"type": "void", "seq": 2, "reason": "wrong match", "at": "2026-12-05T15:11:00Z"})
    assert codes(client, status="in_play") == ["final"]


def listed(events: list[dict[str, Any]], score: dict[str, float]) -> Listed:
    start, match = events[0], Match()
    for event in events:
        match.feed(event)
    return Listed(start["match"], start, score, "idle", len(events), datetime(2026, 11, 29, tzinfo=UTC),
                  standing(match))


def test_a_finished_match_is_listed_with_its_winner() -> None:
    end: list[dict[str, Any]] = [{"type": "chukker.end", "chukker": 1, "at": "2026-11-29T16:59:00Z"},
           {"type": "match.end", "at": "2026-11-29T17:00:00Z"}]
    won = listed([*FINAL, *end], {BLUE: 0, RED: 1})
    tied = listed([*hand_log("tied", "2026-11-29", CHUKKER), *end], {BLUE: 2, RED: 2})
    reopened = listed([*FINAL, *end, {"type": "void", "seq": len(FINAL) + 2, "reason": "x",
                                     "at": "2026-11-29T17:01:00Z"}], {BLUE: 0, RED: 1})
    assert (won.status, won.winner) == ("finished", RED) and won.to_json()["winner"] == RED
    assert (tied.status, tied.winner) == ("finished", None)
    assert (reopened.status, reopened.winner) == ("in_play", None)
    assert find([won, tied, reopened], Filters(status="finished")) == [won, tied]
    assert find([won, tied, reopened], Filters(status="finished", player="aráoz")) == [won]
    with pytest.raises(InvalidQuery):
        Filters(status="done")
