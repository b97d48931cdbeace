"""The database failing under the server: a PostgreSQL gone silent behind the test's own TCP proxy (never
PostgreSQL stopped), and a database that cannot be written (a full disk, a read-only file) on SQLite and
PostgreSQL. Each request is answered 503 in the API's refusal shape with ``Retry-After`` within the configured
timeout, one log line each and no traceback; appends on a healthy path keep being answered; the server recovers
by itself, and no acknowledged event is lost."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import httpx
import psycopg
import pytest
from conftest import BLUE, RED, match_log
from fastapi import FastAPI
from silent_proxy import SilentProxy, postgres_schema, through
from sqlalchemy import event, make_url
from sqlalchemy.exc import OperationalError
from starlette.concurrency import run_in_threadpool

from matchstate.store import Store, dialects
from matchstate.store.database import (
    LEAST_CONNECT_TIMEOUT,
    POOL_OVERFLOW,
    POOL_SIZE,
    SERVER_SIDE_FACTOR,
    deadline,
    unavailable,
)
from matchstate.web import create_app
from matchstate.web.access import hash_key
from matchstate.web.limits import Limits

TIMEOUT = 2.0  # MATCHSTATE_DATABASE_TIMEOUT in these tests
# Only a guard against hanging: an answer within the timeout, plus the watchdog's tick and a loaded machine.
WITHIN = 3 * TIMEOUT
GENEROUS = Limits(anonymous_per_second=1e6, keyed_per_second=1e6, streams_per_client=1000)
LEAGUE_KEY = "faults-league-key"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}
T = TypeVar("T")


def at(seconds: float = 0) -> str:
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


@asynccontextmanager
async def client_of(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1", timeout=60) as client:
        yield client


class Scorer:
    """One match's scorer over an API client; remembers the ids of the events the server acknowledged."""

    def __init__(self, client: httpx.AsyncClient, code: str) -> None:
        self.client, self.code = client, code
        self.key = ""
        self.sent = 0
        self.acknowledged: list[str] = []

    async def create(self) -> None:
        made = await self.client.post("/api/matches", headers=LEAGUE, json={
            "type": "match.start", "at": at(-3600), "match": self.code, "teams": [BLUE, RED], "id": f"{self.code}/0"})
        assert made.status_code == 201, made.text
        self.key = made.json()["scorer_key"]
        self.acknowledged.append(f"{self.code}/0")

    async def append(self) -> httpx.Response:
        self.sent += 1
        event = {"type": "chukker.start", "chukker": 1} if self.sent == 1 else {"type": "tick"}
        ident = f"{self.code}/{self.sent}"
        answer = await self.client.post(f"/api/matches/{self.code}/events",
                                        headers={"Authorization": f"Bearer {self.key}"},
                                        json={"event": {**event, "at": at(), "id": ident}})
        if answer.status_code in (200, 201):
            self.acknowledged.append(ident)
        return answer


def assert_unavailable(answer: httpx.Response) -> None:
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"] == "application/json" and int(answer.headers["retry-after"]) >= 1
    assert "database" in answer.json()["detail"] and "base de datos" in answer.json()["words"]["es"]


def assert_one_line_each(caplog: pytest.LogCaptureFixture, refused: int) -> None:
    lines = [record for record in caplog.records if record.levelno >= logging.WARNING
             and record.name.startswith(("matchstate", "uvicorn", "fastapi", "starlette"))]
    assert refused <= len(lines) and all(record.exc_info is None and "\n" not in record.getMessage()
                                         for record in lines)


@pytest.fixture
def schema_url(postgres_server: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A PostgreSQL schema of this test's own (its URL, straight to the server)."""
    monkeypatch.setenv("MATCHSTATE_SECRET_FILE", str(tmp_path / "store.secret"))
    monkeypatch.setenv("MATCHSTATE_DATABASE_TIMEOUT", str(TIMEOUT))
    with postgres_schema(postgres_server) as url:
        yield url


@pytest.fixture
def silenceable(schema_url: str) -> Iterator[tuple[SilentProxy, Store]]:
    """A store of this test's schema reached through a proxy that can fall silent, its league key set; the proxy
    flows again before the store closes."""
    direct = make_url(schema_url)
    with SilentProxy((direct.host or "127.0.0.1", direct.port or 5432)) as proxy:
        proxied = Store(through(proxy, schema_url))
        proxied.upgrade()
        proxied.set_league_key(hash_key(LEAGUE_KEY))
        try:
            yield proxy, proxied
        finally:
            proxy.resume()
            proxied.close()


def test_a_silent_postgresql_gives_503_in_time_and_the_server_recovers_losing_nothing(
        schema_url: str, silenceable: tuple[SilentProxy, Store], caplog: pytest.LogCaptureFixture) -> None:
    healthy = Store(schema_url)  # another server of the same database, on a path that stays healthy
    try:
        asyncio.run(_silence_and_recover(*silenceable, healthy, caplog))
    finally:
        healthy.close()


async def _silence_and_recover(proxy: SilentProxy, proxied: Store, healthy: Store,
                               caplog: pytest.LogCaptureFixture) -> None:
    async with client_of(create_app(proxied, limits=GENEROUS)) as client, \
            client_of(create_app(healthy, limits=GENEROUS)) as other:
        scorer, elsewhere = Scorer(client, "silent-1"), Scorer(other, "healthy-1")
        await scorer.create()
        await elsewhere.create()
        for _ in range(3):
            assert (await scorer.append()).status_code == 201
        proxy.silence()
        # A read through SQLAlchemy on an idle connection of the pool: the watchdog's cut invalidates it inside its
        # transaction, and the rollback that follows must not fail on it.
        assert_unavailable(await client.get("/api/log/consistency?from=1&to=2"))
        refused = 1
        for _ in range(3):  # the connections in the pool go silent; then new ones cannot be made
            began = time.monotonic()
            answers = await asyncio.gather(scorer.append(), scorer.append(), client.get("/api/matches/silent-1"))
            took = time.monotonic() - began
            for answer in answers:
                assert_unavailable(answer)
            refused += len(answers)
            assert took < WITHIN, f"503 after {took:.1f} s, the timeout being {TIMEOUT} s"
            # The event loop is not held: the server's clock answers at once, and a healthy path appends.
            assert (await client.get("/api/time")).status_code == 200
            assert (await elsewhere.append()).status_code == 201
        assert_one_line_each(caplog, refused)
        proxy.resume()
        deadline = time.monotonic() + 60  # only a guard against hanging: it recovers by itself
        while (answer := await scorer.append()).status_code != 201:
            assert answer.status_code == 503 and time.monotonic() < deadline, answer.text
        for _ in range(3):
            assert (await scorer.append()).status_code == 201
    for store, written in ((healthy, scorer), (healthy, elsewhere)):
        stored = {json.loads(event.raw).get("id") for event in store.events(written.code)}
        assert set(written.acknowledged) <= stored  # 0 acknowledged events lost


def test_readiness_of_a_silent_postgresql_is_503_in_time_not_a_wait_as_long_as_the_silence(
        silenceable: tuple[SilentProxy, Store]) -> None:
    """/readyz read the schema's version on a connection of the pool that no deadline watched: with the database
    silent, a monitor's probe waited 40 s and more, and one answered "ready" once the database came back."""
    asyncio.run(_ready_or_not(*silenceable))


async def _ready_or_not(proxy: SilentProxy, proxied: Store) -> None:
    async with client_of(create_app(proxied, limits=GENEROUS)) as client:
        assert (await client.get("/readyz")).status_code == 200
        proxy.silence()
        try:
            for _ in range(2):  # the pool's connection gone silent; then a new one that cannot be made
                try:  # the in-process transport has no timeout of its own: a probe that waits is failed here
                    answer = await asyncio.wait_for(client.get("/readyz"), WITHIN)
                except TimeoutError:
                    pytest.fail(f"no answer to /readyz within {WITHIN} s, the timeout being {TIMEOUT} s")
                assert answer.status_code == 503 and answer.json()["problems"][0].startswith("database: "), \
                    answer.text
        finally:
            proxy.resume()  # the probe's thread, where it still waits, is answered and ends
        deadline = time.monotonic() + 60  # only a guard against hanging: it recovers by itself
        while (answer := await client.get("/readyz")).status_code != 200:
            assert answer.status_code == 503 and time.monotonic() < deadline, answer.text


def test_a_database_timeout_under_a_second_still_connects_to_a_healthy_postgresql(
        schema_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new connection is not begun with less than half the least connect timeout left; a timeout set shorter than
    that must not refuse every connection."""
    monkeypatch.setenv("MATCHSTATE_DATABASE_TIMEOUT", "0.8")
    store = Store(schema_url)
    try:
        store.upgrade()
        with deadline(store.database.timeout), store.database.transaction() as connection:
            assert connection.exec_driver_sql("SELECT 1").scalar() == 1
    finally:
        store.close()


def test_a_closed_postgresql_stores_watchdog_ends_and_one_used_again_is_watched_again(schema_url: str) -> None:
    """Each database's watchdog thread lived as long as the process: one that opened many (a test session) ran
    hundreds, each waking four times a second."""

    def watching() -> list[threading.Thread]:
        return [thread for thread in threading.enumerate() if thread.name == "database-watchdog"]

    before = set(watching())
    store = Store(schema_url)
    store.upgrade()
    with deadline(store.database.timeout), store.database.transaction() as connection:  # a transaction is watched
        connection.exec_driver_sql("SELECT 1")
    [started] = set(watching()) - before
    store.close()
    started.join(timeout=60)  # only a guard against hanging: it ends at its next wake
    assert not started.is_alive()
    with deadline(store.database.timeout), store.database.transaction() as connection:  # used again: watched again
        assert connection.exec_driver_sql("SELECT 1").scalar() == 1
        assert len(set(watching()) - before) == 1
    store.close()


def test_a_request_that_comes_late_to_a_silent_postgresql_is_refused_by_its_own_deadline(
        silenceable: tuple[SilentProxy, Store]) -> None:
    """Many reads at once of a silent database (a hunt's 25): one that came to it late, every connection of the pool
    taken, waited the pool's whole timeout, and one that then opened a connection waited libpq's least connect
    timeout (2 s) past its deadline: some got their 503 after 12 s, the timeout being 10. Each waits within its own
    request's deadline (the server sets one per request, as here), a little over it at most."""
    proxy, proxied = silenceable
    database = proxied.database
    late = 0.5  # seconds left to the request that comes late: less than half the least connect timeout

    def read(seconds: float) -> float:
        began = time.monotonic()
        with deadline(seconds), pytest.raises(Exception) as refused, database.transaction() as connection:
            connection.exec_driver_sql("SELECT 1")
        assert unavailable(refused.value), refused.value
        return time.monotonic() - began

    proxy.silence()
    with ThreadPoolExecutor(POOL_SIZE + POOL_OVERFLOW) as threads:
        holding = [threads.submit(read, TIMEOUT) for _ in range(POOL_SIZE + POOL_OVERFLOW)]
        guard = time.monotonic() + 60  # only a guard against hanging
        while database.engine.pool.checkedout() < POOL_SIZE + POOL_OVERFLOW:  # type: ignore[attr-defined]
            assert time.monotonic() < guard and not any(done.done() for done in holding)
            time.sleep(0.01)
        assert read(late) < LEAST_CONNECT_TIMEOUT  # every connection taken: the pool's wait was TIMEOUT (2 s)
        for held in holding:
            held.result()
    assert read(late) < LEAST_CONNECT_TIMEOUT  # the pool emptied by the cuts: a connect waited 2 s


def test_a_live_streams_read_of_a_silent_postgresql_ends_within_the_timeout(
        silenceable: tuple[SilentProxy, Store]) -> None:
    """A live stream's read of the log (as it starts, at a gap or a keepalive) holds its match's lock, which every
    append of the match waits for: it is done with the database within the timeout, as a request is, where it
    waited as long as the silence lasted and the match's appends with it."""
    asyncio.run(_read_live_while_silent(*silenceable))


async def _read_live_while_silent(proxy: SilentProxy, proxied: Store) -> None:
    app = create_app(proxied, limits=GENEROUS)
    async with client_of(app) as client:
        scorer = Scorer(client, "silent-live")
        await scorer.create()
        assert (await scorer.append()).status_code == 201  # its connection is back in the pool, idle
        proxy.silence()
        try:
            began = time.monotonic()
            with pytest.raises(Exception) as failed:  # whatever the database raised: `unavailable` says which
                await asyncio.wait_for(run_in_threadpool(app.state.service.messages, scorer.code, 0), 3 * WITHIN)
            took = time.monotonic() - began
        finally:
            proxy.resume()  # a read still waiting goes on
        assert unavailable(failed.value), repr(failed.value)
        assert took < WITHIN, f"failed after {took:.1f} s, the timeout being {TIMEOUT} s"


@contextmanager
def silent_after_the_write(proxy: SilentProxy, store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Inside, the database falls silent as soon as an append's or a creation's rows are sent: the league log's
    statements and the commit after them wait on it. It answers again on the way out."""
    statements = store.database.statements
    write = statements.write

    def silenced(connection: Any, rows: list[dict[str, Any]]) -> None:
        write(connection, rows)
        proxy.silence()

    monkeypatch.setattr(statements, "write", silenced)
    try:
        yield
    finally:
        monkeypatch.setattr(statements, "write", write)
        proxy.resume()


def fails_in_time(work: Callable[[], object]) -> None:
    """``work`` fails as the database is unavailable, within the timeout (as a request's work is bounded)."""
    began = time.monotonic()
    with pytest.raises(Exception) as failed, deadline(TIMEOUT):
        work()
    took = time.monotonic() - began
    assert unavailable(failed.value), repr(failed.value)
    assert took < WITHIN, f"failed after {took:.1f} s, the timeout being {TIMEOUT} s"


def once_it_answers(work: Callable[[], T]) -> T:
    """``work``'s result, tried again while the database is unavailable (the pool's cut connections replaced)."""
    give_up = time.monotonic() + 60  # only a guard against hanging
    while True:
        try:
            with deadline(TIMEOUT):
                return work()
        except Exception as err:
            assert unavailable(err) and time.monotonic() < give_up, repr(err)


def test_a_postgresql_silent_in_the_middle_of_an_append_fails_it_in_time_and_keeps_none_of_it(
        silenceable: tuple[SilentProxy, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """The append's write and the league log's statements go in one pipeline, unanswered until the log's head is
    read: a server that falls silent as the write is sent fails a request's append within the timeout (the
    watchdog cuts the connection in the pipeline's wait), keeps nothing of it (neither the event nor a leaf), and
    appends again once it answers."""
    proxy, proxied = silenceable
    start = {"type": "match.start", "at": at(-3600), "match": "mid-1", "teams": [BLUE, RED], "id": "mid-1/0"}
    proxied.create_match(start)
    proxied.append("mid-1", {"type": "chukker.start", "chukker": 1, "at": at(-3000), "id": "mid-1/1"})
    with silent_after_the_write(proxy, proxied, monkeypatch):
        fails_in_time(lambda: proxied.append("mid-1", {"type": "tick", "at": at(-2000), "id": "mid-1/2"}))
    appended = once_it_answers(lambda: proxied.append("mid-1", {"type": "tick", "at": at(-1000), "id": "mid-1/3"}))
    assert appended.event.seq == 3
    stored = [json.loads(event.raw)["id"] for event in proxied.events("mid-1")]
    assert stored == ["mid-1/0", "mid-1/1", "mid-1/3"]
    assert proxied.verify() == []  # the league log holds the leaves of the stored events, and no other


def test_an_import_no_one_waits_on_fails_within_a_statements_limit_when_postgresql_falls_silent(
        silenceable: tuple[SilentProxy, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """An import (a command's, or the API's, which no request's deadline bounds) waited as long as the silence
    lasted, 150 s and more: the socket's peer, a middlebox, still answered, so nothing told the server was gone.
    Each statement now waits at most as long as the server itself lets one run; the match is imported once it
    answers."""
    proxy, proxied = silenceable
    statements = proxied.database.statements
    import_rows = statements.import_rows

    def silenced(*args: Any) -> None:
        import_rows(*args)
        proxy.silence()  # the batch sent: the staged match's head after it waits on a silent server

    monkeypatch.setattr(statements, "import_rows", silenced)
    log = [json.dumps(event) for event in match_log("imported-1", 12)]
    began = time.monotonic()
    with pytest.raises(Exception) as failed:
        proxied.import_log(log)
    took = time.monotonic() - began
    assert unavailable(failed.value), repr(failed.value)
    assert took < TIMEOUT * SERVER_SIDE_FACTOR + WITHIN, f"failed after {took:.1f} s"
    monkeypatch.setattr(statements, "import_rows", import_rows)
    proxy.resume()
    imported = once_it_answers(lambda: proxied.import_log(log))
    assert (imported.code, imported.events) == ("imported-1", 12)
    assert proxied.verify() == []


def test_a_postgresql_silent_in_the_middle_of_creating_a_match_fails_it_in_time_and_keeps_none_of_it(
        silenceable: tuple[SilentProxy, Store], monkeypatch: pytest.MonkeyPatch) -> None:
    """A creation writes the match, its act and keys, its first event and its league-log leaf in one transaction:
    silent after the event is sent, it fails within the timeout and keeps no part of the match (its code stays
    free, no act is left in the chain), and the same match is created once the server answers."""
    proxy, proxied = silenceable
    start = {"type": "match.start", "at": at(-3600), "match": "new-1", "teams": [BLUE, RED], "id": "new-1/0"}
    with silent_after_the_write(proxy, proxied, monkeypatch):
        fails_in_time(lambda: proxied.create_match(start, keys={"scorer": hash_key("new-1-scorer")}))
    created = once_it_answers(lambda: proxied.create_match(start, keys={"scorer": hash_key("new-1-scorer")}))
    assert created.event.seq == 1
    assert [json.loads(event.raw)["id"] for event in proxied.events("new-1")] == ["new-1/0"]
    assert proxied.verify() == []  # one creation act, one key, one leaf: none left by the one that failed


@pytest.mark.parametrize("error", ["database or disk is full", "attempt to write a readonly database"])
def test_a_database_that_cannot_be_written_answers_503_json_and_recovers(
        store: Store, error: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    store.set_league_key(hash_key(LEAGUE_KEY))
    failing = False

    def cause() -> Exception:
        return sqlite3.OperationalError(error) if store.database.sqlite else psycopg.OperationalError(error)

    def writing(statement: str) -> bool:
        return failing and ("INSERT" in statement.upper() or "UPDATE" in statement.upper())

    def fail_writes(_: Any, __: Any, statement: str, *args: Any) -> None:  # statements run through SQLAlchemy
        if writing(statement):
            raise OperationalError(statement, None, cause())

    def fail_on_cursor(connection: Any, statement: str, *args: Any, **named: Any) -> Any:  # the append's own
        if writing(statement):
            raise cause()
        return run_on_cursor(connection, statement, *args, **named)

    event.listen(store.database.engine, "before_cursor_execute", fail_writes)
    run_on_cursor = dialects.execute
    monkeypatch.setattr(dialects, "execute", fail_on_cursor)

    async def scenario() -> None:
        nonlocal failing
        async with client_of(create_app(store, limits=GENEROUS)) as client:
            scorer = Scorer(client, "full-1")
            await scorer.create()
            assert (await scorer.append()).status_code == 201
            failing = True
            for _ in range(3):
                assert_unavailable(await scorer.append())
            assert (await client.get("/api/matches/full-1")).status_code == 200  # reading still works
            failing = False
            assert (await scorer.append()).status_code == 201
            stored = {json.loads(event.raw).get("id") for event in store.events(scorer.code)}
            assert set(scorer.acknowledged) <= stored

    asyncio.run(scenario())
    assert_one_line_each(caplog, 0)
