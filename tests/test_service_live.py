"""The live stream, over a real server: server-sent events, each event once and in order, resumable."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from conftest import league_store, match_log
from sqlalchemy.exc import OperationalError

from matchstate.store import Store
from matchstate.web import live
from matchstate.web.live import Hub, sse, stream
from matchstate.web.process import ServerProcess
from matchstate.web.service import Service

CODE = "live-1"
LEAGUE_KEY = "live-league-key"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("live")
    url = f"sqlite:///{folder / 'live.db'}"
    league_store(url, LEAGUE_KEY)
    with ServerProcess(url, log=folder / "server.log") as process:
        yield process


def messages(lines: Iterator[str], count: int) -> list[tuple[int | None, dict[str, Any]]]:
    """The next ``count`` append messages of a stream's lines: (id, data)."""
    found: list[tuple[int | None, dict[str, Any]]] = []
    seq = None
    for line in lines:
        if line.startswith("id: "):
            seq = int(line[4:])
        elif line.startswith("data: "):
            found.append((seq, json.loads(line[6:])))
            if len(found) == count:
                return found
    raise AssertionError(f"the stream ended after {len(found)} messages")


def test_a_review_stream_gets_the_log_then_each_event_live_and_resumes(server: ServerProcess) -> None:
    log = match_log(CODE, 9)
    with httpx.Client(base_url=server.base, timeout=10) as client:
        keys = client.post("/api/matches", json=log[0], headers=LEAGUE).json()
        auth = {"Authorization": f"Bearer {keys['scorer_key']}"}
        for event in log[1:4]:
            assert client.post(f"/api/matches/{CODE}/events", json={"event": event}, headers=auth).status_code == 201
        with client.stream("GET", f"/api/matches/{CODE}/stream", params={"after_seq": 2}) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            backlog = messages(lines, 2)
            assert [seq for seq, _ in backlog] == [3, 4]
            for event in log[4:7]:
                client.post(f"/api/matches/{CODE}/events", json={"event": event}, headers=auth)
            client.post(f"/api/matches/{CODE}/events", json={"event": log[6]}, headers=auth)  # a retry: no message
            client.post(f"/api/matches/{CODE}/events", json={"event": log[7]}, headers=auth)
            live = messages(lines, 4)
        assert [seq for seq, _ in live] == [5, 6, 7, 8]
        last = live[-1][1]
        assert last["event"]["event"] == log[7] and last["match"]["seq"] == 8 and last["event"]["role"] == "scorer"
        # A browser that lost the connection reconnects with Last-Event-ID, and misses nothing.
        client.post(f"/api/matches/{CODE}/events", json={"event": log[8]}, headers=auth)
        with client.stream("GET", f"/api/matches/{CODE}/stream", headers={"Last-Event-ID": "8"}) as stream:
            assert [seq for seq, _ in messages(stream.iter_lines(), 1)] == [9]
        assert client.get("/api/matches/nope/stream").status_code == 404


def test_keys_in_query_strings_stay_out_of_the_access_log_however_spelled(server: ServerProcess) -> None:
    log = match_log("logged-1", 2)
    with httpx.Client(base_url=server.base, timeout=10) as client:
        key = client.post("/api/matches", json=log[0], headers=LEAGUE).json()["official_key"]
        assert client.get("/api/matches/logged-1/events", params={"key": key, "after_seq": 0}).status_code == 200
        assert client.get("/matches/logged-1/sheet", params={"key": key}).status_code == 200
        # Spelled otherwise, the name still reads as `key` to the server: it must not show either.
        assert client.get(f"/api/matches/logged-1/role?%6Bey={key}").json()["role"] == "official"
        client.get(f"/api/matches/logged-1?KEY={key}&x=1")
        client.get(f"/api/matches/logged-1?k%2565y={key}")
    assert server.log is not None
    written = server.log.read_text()
    assert "GET /matches/logged-1/sheet?key=REDACTED" in written
    assert "/api/matches/logged-1/events?key=REDACTED&after_seq=0" in written
    assert "/api/matches/logged-1/role?%6Bey=REDACTED" in written and "?KEY=REDACTED&x=1" in written
    assert key not in written


def test_a_stream_that_falls_too_far_behind_is_dropped() -> None:
    async def run() -> None:
        hub = Hub(queue_size=2)
        events = stream(hub, CODE, 0, lambda code, seq: [])
        assert (await anext(events)).startswith(b"retry:")
        assert hub.listeners(CODE) == 1
        for seq in (1, 2, 3):  # nobody reads: the third finds the queue full
            hub.publish(CODE, (seq, b"{}"))
        assert hub.listeners(CODE) == 0
        with pytest.raises(StopAsyncIteration):  # the stream ends; the browser reconnects with Last-Event-ID
            await anext(events)

    asyncio.run(run())


def test_a_quiet_stream_sends_a_keepalive_and_reads_the_log_for_what_no_one_told_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "KEEPALIVE_SECONDS", 0.05)

    async def run() -> None:
        stored: list[live.Message] = []
        events = stream(Hub(), CODE, 0, lambda code, seq: [kept for kept in stored if kept[0] > seq])
        assert (await anext(events)).startswith(b"retry:")
        waiting = asyncio.ensure_future(anext(events))
        await asyncio.sleep(0.02)  # it has read the log (nothing yet) and waits
        stored.append((1, sse(1, b"{}")))  # appended through another server, told to no one
        assert await asyncio.wait_for(waiting, 5) == b": keepalive\n\n"
        assert await asyncio.wait_for(anext(events), 5) == b"id: 1\nevent: append\ndata: {}\n\n"

    asyncio.run(run())


def test_a_stream_whose_read_of_the_log_finds_the_database_unavailable_ends_with_one_line_logged(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Its response has begun (no 503 can be sent): it ends as a dropped stream does, and the browser reconnects
    with Last-Event-ID, where a traceback cut it before."""
    monkeypatch.setattr(live, "KEEPALIVE_SECONDS", 0.05)
    reads = 0

    def backlog(code: str, seq: int) -> list[live.Message]:
        nonlocal reads
        reads += 1
        if reads > 1:  # the keepalive's read, the database gone silent since the stream began
            raise OperationalError("SELECT", None, psycopg.OperationalError("server closed the connection"))
        return []

    async def run() -> None:
        events = stream(Hub(), CODE, 0, backlog)
        assert (await anext(events)).startswith(b"retry:")
        assert await asyncio.wait_for(anext(events), 5) == b": keepalive\n\n"
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(anext(events), 5)

    asyncio.run(run())
    [line] = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert line.getMessage() == f"the live stream of {CODE} ended: the database is unavailable: " \
                                "server closed the connection" and line.exc_info is None


def test_the_watch_of_other_servers_appends_goes_on_when_the_database_is_unavailable(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The watch's read of the matches with open streams (SQLite's poll, PostgreSQL's catch-up after a notice)
    fails with one line logged, and the watch asks again: before, its exception ended the watch, and no stream
    of this server heard of another's appends again until it restarted."""
    store = Store(f"sqlite:///{tmp_path / 'watch.db'}")
    store.upgrade()
    service = Service(store)

    def silent(codes: list[str]) -> dict[str, int]:
        raise OperationalError("SELECT", None, sqlite3.OperationalError("disk I/O error"))

    monkeypatch.setattr(store, "last_seqs", silent)

    async def run() -> None:
        with service.hub.subscribe(CODE):
            await service.catch_up_all()  # it raised, and the watch with it

    try:
        asyncio.run(run())
    finally:
        store.close()
    [line] = [record for record in caplog.records if record.levelno >= logging.WARNING]
    assert line.getMessage() == "the live streams are not caught up: the database is unavailable: disk I/O error"
