"""Shared test helpers.

Keep each section separate: other suites (e.g. the store's database fixtures) add their own below.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import pytest

from matchstate import Match
from matchstate.errors import MatchstateError
from matchstate.words import Words

# ---------------------------------------------------------------------------------------------
# Engine: a scorer's device logging events into a Match (used by test_table, test_clauses,
# test_refusals and test_replay_cli). Blue takes the free hit unless told; Red defends.
# ---------------------------------------------------------------------------------------------

T = TypeVar("T")
JSON = Any  # a value of the log format's JSON as a test reads it: a ruling, an event, an answer (or None)
BLUE, RED = "Blue", "Red"
KICKOFF = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)

# How a scorer logs each free hit of Rule 36's misexecution table (the table's columns).
FREE_HIT_AWARDS: dict[str, tuple[str, dict[str, Any]]] = {
    "2": ("penalty.award", {"penalty": "2"}),
    "3": ("penalty.award", {"penalty": "3"}),
    "4": ("penalty.award", {"penalty": "4"}),
    "6": ("penalty.award", {"penalty": "6"}),
    "5a": ("penalty.award", {"penalty": "5a", "yards_to_goal": 100}),
    "5b": ("penalty.award", {"penalty": "5b"}),
    "knockin": ("knockin.award", {}),
}


def known(value: T | None) -> T:
    """``value``, which the test knows is there."""
    assert value is not None
    return value


def words_of(err: MatchstateError) -> Words:
    """A refusal's words in every language (a refusal always has them)."""
    assert err.words is not None, err
    return err.words


def stamp(millis: int) -> str:
    """The `at` of an event this many milliseconds after the first event."""
    return (KICKOFF + timedelta(milliseconds=millis)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Scorer:
    """Logs events into a fresh Match, each ``dt`` seconds (default 1) after the one before.

    ``log`` returns the event's ruling as the log format's JSON (or None); ``event`` builds an
    event without logging it. Field names may end in ``_`` (``from_``) to dodge Python keywords.
    """

    def __init__(self, **start_fields: Any) -> None:
        self.match = Match()
        self.events: list[dict[str, Any]] = []
        self.clock = 0  # milliseconds
        self.log("match.start", dt=0, **{"match": "m-1", "teams": [BLUE, RED], **start_fields})

    def event(self, kind: str, dt: float = 1.0, **fields: Any) -> dict[str, Any]:
        fields = {name.rstrip("_"): value for name, value in fields.items()}
        return {"type": kind, "at": stamp(self.clock + round(dt * 1000)), **fields}

    def log(self, kind: str, dt: float = 1.0, **fields: Any) -> JSON:
        event = self.event(kind, dt, **fields)
        ruling = self.match.feed(event)
        self.clock += round(dt * 1000)
        self.events.append(event)
        return ruling.to_json() if ruling is not None else None

    def award(self, free_hit: str, to: str = BLUE, **fields: Any) -> JSON:
        """Award one of the table's free hits (``FREE_HIT_AWARDS`` keys) to ``to``."""
        kind, defaults = FREE_HIT_AWARDS[free_hit]
        return self.log(kind, to=to, **{**defaults, **fields})

    def call_play(self, free_hit: str, to: str = BLUE, **fields: Any) -> None:
        """Award the free hit, place the ball and call "Play": the 20 seconds start."""
        self.award(free_hit, to, **fields)
        self.log("ball.place")
        self.log("play")

    def strike(self, free_hit: str, to: str = BLUE, contact: str = "hit", **fields: Any) -> JSON:
        """Award the free hit, call "Play" and take the stroke; returns the stroke's ruling."""
        self.call_play(free_hit, to, **fields)
        return self.log("hit", player=3, contact=contact)

    @property
    def free_hit(self) -> JSON:
        return self.match.free_hit.to_json() if self.match.free_hit is not None else None

    def snapshot(self) -> dict[str, Any]:
        """What a user sees of the match: seq, state, score and the free hit in progress."""
        return {"seq": self.match.seq, "state": self.match.state, "score": dict(self.match.score),
                "free_hit": self.free_hit}

    def lines(self) -> list[str]:
        return [json.dumps(event) for event in self.events]


@pytest.fixture
def scorer() -> Scorer:
    """A started match between Blue and Red on a 300-yard field, defaults otherwise."""
    return Scorer()


@pytest.fixture
def start_match() -> type[Scorer]:
    """Start a match with these match.start fields (field_length, penalty3_defended, handicap_goals...)."""
    return Scorer


# ---------------------------------------------------------------------------------------------
# Store: an empty database of its own for each test, on SQLite and on PostgreSQL (test_store*).
# PostgreSQL is 127.0.0.1:5432, database `test` (MATCHSTATE_TEST_POSTGRES_URL overrides), a new
# schema per test. Where no server answers, its tests skip with the reason, or fail where
# MATCHSTATE_REQUIRE_POSTGRES=1 (CI).
# ---------------------------------------------------------------------------------------------

import os  # noqa: E402
import uuid  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402

from sqlalchemy import create_engine, make_url  # noqa: E402
from sqlalchemy.exc import OperationalError  # noqa: E402

from matchstate.store import Store  # noqa: E402

POSTGRES_URL = os.environ.get("MATCHSTATE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
# One free hit after another, each scored: a log can go on as long as a test needs.
RALLY = (
    {"type": "penalty.award", "penalty": "4", "to": BLUE},
    {"type": "play"},
    {"type": "hit", "player": 2, "contact": "hit"},
    {"type": "goal", "team": BLUE, "player": 2},
)


def match_log(code: str, events: int) -> list[dict[str, Any]]:
    """A valid log of ``events`` events: a match.start, then rallies; each event has a device id, by seq."""
    start = {"type": "match.start", "at": stamp(0), "match": code, "teams": [BLUE, RED], "id": f"{code}/1"}
    return [start] + [{**RALLY[(seq - 2) % len(RALLY)], "at": stamp(seq * 1000), "id": f"{code}/{seq}"}
                      for seq in range(2, events + 1)]


def live_match(store: Store, code: str, events: int, appended: int) -> list[dict[str, Any]]:
    """Match ``code`` created in ``store`` from :func:`match_log`'s log of ``events`` events, and its events up to seq
    ``appended`` appended one by one, as a console logs them; the whole log."""
    log = match_log(code, events)
    store.create_match(log[0])
    for event in log[1:appended]:
        store.append(code, event)
    return log


def league_store(url: str, league_key: str) -> None:
    """An empty store at ``url``, at the latest schema, whose league key is ``league_key``: what a server a test
    starts is given."""
    from matchstate.web.access import hash_key

    store = Store(url)
    store.upgrade()
    store.set_league_key(hash_key(league_key))
    store.close()


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The test PostgreSQL's URL, once it has answered."""
    engine = create_engine(POSTGRES_URL, connect_args={"connect_timeout": 3})
    try:
        with engine.connect():
            return POSTGRES_URL
    except OperationalError as err:
        reason = f"no PostgreSQL answers at {make_url(POSTGRES_URL)}: {str(err).splitlines()[0]}"
        if os.environ.get("MATCHSTATE_REQUIRE_POSTGRES") == "1":
            pytest.fail(reason + " (MATCHSTATE_REQUIRE_POSTGRES=1)")
        pytest.skip(reason)
    finally:
        engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The URL of an empty database that only this test uses. The store's secret is beside an SQLite file;
    for PostgreSQL, in this test's folder too (MATCHSTATE_SECRET_FILE)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.db'}"
        return
    monkeypatch.setenv("MATCHSTATE_SECRET_FILE", str(tmp_path / "store.secret"))
    server = make_url(request.getfixturevalue("postgres_server"))
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    yield server.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    admin.dispose()


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    """A Store on an empty database brought to the latest schema."""
    store = Store(store_url)
    store.upgrade()
    yield store
    store.close()


# ---------------------------------------------------------------------------------------------
# Records (test_records*, test_sheet*, test_stats*): match logs written by hand, event by event,
# and stored by import, as a league's back office would load a season.
# ---------------------------------------------------------------------------------------------

def hand_log(code: str, day: str, *events: dict[str, Any], **start: object) -> list[dict[str, Any]]:
    """A match log: its match.start (Blue v Red unless ``teams`` is given), then ``events`` five seconds
    apart, from 15:00 UTC on ``day`` (YYYY-MM-DD)."""
    first = datetime.fromisoformat(f"{day}T15:00:00+00:00")

    def at(n: int) -> str:
        return (first + timedelta(seconds=5 * n)).isoformat().replace("+00:00", "Z")

    opening = {"type": "match.start", "at": at(0), "match": code, "teams": [BLUE, RED], **start}
    return [opening, *({**event, "at": at(n)} for n, event in enumerate(events, 1))]


def stored(store: Store, *logs: list[dict[str, Any]]) -> Store:
    """``store`` with each log imported as a match."""
    for log in logs:
        store.import_log(json.dumps(event, ensure_ascii=False) for event in log)
    return store
