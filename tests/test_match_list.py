"""The match list in SQL: pages (`limit`, `offset`, `X-Next-Offset`), sorts, and the filters the query applies
(team, date, standing, state), alike on SQLite and PostgreSQL; the columns they read kept by every append, and
filled in for the matches stored before them."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import BLUE, RED, hand_log, stored

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from alembic import command
from test_store_schema import migrate

from matchstate.store import Store
from matchstate.web import create_app

CHUKKER = {"type": "chukker.start", "chukker": 1}
MANY = 130  # more than a page of 100


def season() -> list[list[dict[str, Any]]]:
    """Matches on two days; every fifth started, every third played by Los Álamos, and one 100% Polo."""
    logs = []
    for n in range(MANY):
        teams = ["Los Álamos" if n % 3 == 0 else BLUE, "100% Polo" if n == 7 else RED]
        logs.append(hand_log(f"m-{n:03}", "2026-11-29" if n < 60 else "2026-12-06",
                             *([CHUKKER] if n % 5 == 0 else []), teams=teams))
    return logs


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(stored(store, *season()))) as client:
        yield client


def page(client: TestClient, **query: object) -> tuple[list[str], str | None]:
    answer = client.get("/api/matches", params=query)
    assert answer.status_code == 200, answer.text
    return [row["code"] for row in answer.json()], answer.headers.get("X-Next-Offset")


def every_page(client: TestClient, **query: object) -> list[str]:
    """Each page after the next, as the records page would read them, until no next offset is given."""
    found, offset = [], 0
    while True:
        codes, following = page(client, **query, offset=offset)
        found += codes
        if following is None:
            return found
        offset = int(following)


ALL = [f"m-{n:03}" for n in range(MANY)]


def test_the_list_comes_a_page_at_a_time_and_the_pages_make_the_whole_list(client: TestClient) -> None:
    first, following = page(client)
    assert first == ALL[:100] and following == "100"
    assert page(client, offset=100) == (ALL[100:], None)
    assert every_page(client, limit=7) == ALL
    assert page(client, limit=500)[0] == ALL
    for bad in ({"limit": 0}, {"limit": 501}, {"offset": -1}, {"sort": "newest"}):
        assert client.get("/api/matches", params=bad).status_code == 422


def test_the_list_sorts_newest_first_or_by_code(client: TestClient) -> None:
    assert page(client, sort="-created", limit=3)[0] == ALL[::-1][:3]
    assert every_page(client, sort="-code", limit=50) == ALL[::-1]
    assert page(client, sort="code", limit=2)[0] == ALL[:2]


def test_the_query_filters_by_team_date_standing_and_state(client: TestClient) -> None:
    alamos = [code for n, code in enumerate(ALL) if n % 3 == 0]
    assert every_page(client, team="los alamos", limit=10) == alamos  # case and accents folded
    assert every_page(client, team="ÁLAMOS LOS") == alamos  # every word, in any order, in one team's name
    assert page(client, team="alamos red")[0] == []  # the words of two teams are not one team
    assert page(client, team="100%")[0] == ["m-007"]  # a % is a percent sign, not a wildcard
    assert page(client, team="%")[0] == ["m-007"]
    assert every_page(client, date="2026-12") == ALL[60:]
    assert page(client, date="2026-11-29", limit=500)[0] == ALL[:60]
    started = [code for n, code in enumerate(ALL) if n % 5 == 0]
    assert every_page(client, status="in_play") == started
    assert len(every_page(client, status="scheduled")) == MANY - len(started)
    assert page(client, status="in_play", date="2026-12-06", team="alamos")[0] == \
        [code for n, code in enumerate(ALL) if n % 15 == 0 and n >= 60]
    assert every_page(client, state="idle") == ALL


@pytest.mark.parametrize("date", ["garbage", "2026-13", "2026-02-30", "20261207", "2026-W49-1", "2026-12-7"])
def test_a_date_that_names_no_year_month_or_day_is_refused_naming_it(client: TestClient, date: str) -> None:
    """It was answered 200 with no match at all, as though the league had played none that day."""
    answer = client.get("/api/matches", params={"date": date})
    assert answer.status_code == 400, answer.text
    assert answer.json()["words"] == {
        "en": f"date must be a year, a month or a day (YYYY, YYYY-MM or YYYY-MM-DD), not {date!r}",
        "es": f"date debe ser un año, un mes o un día (YYYY, YYYY-MM o YYYY-MM-DD), no {date!r}"}


def test_a_text_search_pages_alike(store: Store) -> None:
    logs = [hand_log(f"v-{n}", "2026-11-29", venue="Cancha 1, Pilar" if n % 2 else "Palermo") for n in range(9)]
    with TestClient(create_app(stored(store, *logs))) as client:
        assert every_page(client, venue="pilar", limit=2) == [f"v-{n}" for n in range(1, 9, 2)]
        assert page(client, venue="pilar", limit=2, offset=2) == (["v-5", "v-7"], None)


def test_each_append_keeps_the_standing_the_query_reads(store: Store) -> None:
    with TestClient(create_app(stored(store, hand_log("live", "2026-11-29", teams=[BLUE, RED])))) as client:
        assert page(client, status="scheduled")[0] == ["live"]
        store.append("live", {"type": "chukker.start", "chukker": 1, "at": "2026-11-29T15:10:00Z"})
        assert page(client, status="in_play")[0] == ["live"]
        store.append("live", {"type": "chukker.end", "chukker": 1, "at": "2026-11-29T15:17:00Z"})
        store.append("live", {"type": "match.end", "at": "2026-11-29T15:18:00Z"})
        assert page(client, status="finished")[0] == ["live"]
        store.append("live", {"type": "void", "seq": 4, "reason": "not over", "at": "2026-11-29T15:19:00Z"})
        assert page(client, status="in_play")[0] == ["live"]
    assert store.verify() == []


def test_the_matches_stored_before_the_columns_get_them_from_their_replay(store: Store) -> None:
    stored(store, hand_log("older", "2026-11-29", CHUKKER, teams=["Los Álamos", RED]), hand_log("plain", "2026-12-01"))
    migrate(store, command.downgrade, "0004", "allow-drop=yes")  # past the league log, which it drops
    store.upgrade()
    with TestClient(create_app(store)) as client:
        assert page(client, status="in_play", team="alamos", date="2026-11")[0] == ["older"]
        assert page(client, status="scheduled")[0] == ["plain"]
    assert store.verify() == []
