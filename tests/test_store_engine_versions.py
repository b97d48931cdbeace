"""Stored matches stay honest across an engine's change: `verify` on rulings given by the previous engine (log
format 1.0) reports only those this engine (1.1) gives differently, naming the engine that stored them, and an
upgrade rewrites none of them."""

from __future__ import annotations

from typing import Any

from conftest import BLUE, stamp
from sqlalchemy import text

from matchstate.store import Store
from matchstate.version import ENGINE_VERSION

START: dict[str, Any] = {"type": "match.start", "at": stamp(0), "match": "old-1", "teams": [BLUE, "Red"]}
# A Penalty 4 whose 20 seconds run out, then the umpire's whistle: engine 0.1.0 closed the free hit with no
# ruling; engine 1.1 gives the failure (Penalty 5.a to Red) and keeps it in progress.
LOG: list[dict[str, Any]] = [{"type": "chukker.start", "at": stamp(1_000), "chukker": 1},
       {"type": "penalty.award", "at": stamp(2_000), "penalty": "4", "to": BLUE},
       {"type": "play", "at": stamp(3_000)},
       {"type": "whistle", "at": stamp(30_000)},
       {"type": "penalty.award", "at": stamp(60_000), "penalty": "3", "to": "Red"}]
WHISTLE = 5


def stored_by_the_previous_engine(url: str) -> None:
    """The log as matchstate 0.1.0 stored it: its rulings and states, no clock or flags, engine 0.1.0."""
    older = Store(url, engine_version="0.1.0")
    older.create_match(START)
    for event in LOG:
        older.append("old-1", event)
    with older.engine.begin() as connection:
        connection.execute(text("UPDATE rulings SET clock = NULL, flags = NULL"))
        connection.execute(text("UPDATE rulings SET ruling = NULL, state = 'idle' WHERE seq = :seq"),
                           {"seq": WHISTLE})
    older.close()


def test_verify_names_only_the_rulings_this_engine_gives_differently_and_who_stored_them(store_url: str) -> None:
    Store(store_url).upgrade()
    stored_by_the_previous_engine(store_url)
    store = Store(store_url)
    problems = store.verify()
    assert [(problem.match, problem.seq) for problem in problems] == [("old-1", WHISTLE)]
    assert "stored no ruling, the engine gives the ruling {\"kind\": \"award\", \"penalty\": \"5a\"" in str(problems[0])
    assert f"(ruled by engine 0.1.0; this is engine {ENGINE_VERSION})" in str(problems[0])
    store.close()


def test_an_upgrade_leaves_every_stored_ruling_as_it_was(store_url: str) -> None:
    Store(store_url).upgrade()
    stored_by_the_previous_engine(store_url)
    store = Store(store_url)
    with store.engine.connect() as connection:
        before = connection.execute(text("SELECT * FROM rulings ORDER BY 1, 2")).all()
    store.upgrade()
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT * FROM rulings ORDER BY 1, 2")).all() == before
    assert [problem.seq for problem in store.verify()] == [WHISTLE]
    store.close()


def test_events_appended_by_this_engine_keep_their_clock_and_flags(store: Store) -> None:
    store.create_match(START)
    for event in LOG[:1]:
        store.append("old-1", event)
    goal = store.append("old-1", {"type": "goal", "at": stamp(2_500), "team": BLUE}).event
    assert goal.clock == {"chukker": 1, "played": 1.5, "running": True, "phase": "play"} and goal.flags == []
    assert store.events("old-1")[-1].clock == goal.clock
    assert store.verify() == []
