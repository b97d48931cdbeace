"""Live across servers: a review stream on one server process gets each event appended through another
server process of the same database, soon (PostgreSQL: LISTEN/NOTIFY; SQLite: a change check), once each,
in order, as the server that took it answered, also after the listening connection drops."""

from __future__ import annotations

import json
import queue
import threading
import time
from typing import Any

import httpx
import pytest
from conftest import match_log
from sqlalchemy import create_engine, text
from test_hardening_league import LEAGUE, two_servers  # noqa: F401 (its fixture, asked for by name below)

from matchstate.web.process import ServerProcess
from matchstate.web.watch import APPLICATION_NAME, channel

CODE = "across-1"
BOUND_SECONDS = 2.0  # generous: the bench measures the real figure (live_across_servers)
LOG = match_log(CODE, 40)


@pytest.fixture
def servers(two_servers: tuple[ServerProcess, ServerProcess]) -> tuple[ServerProcess, ServerProcess]:  # noqa: F811
    """Two server processes on one database, with the league key LEAGUE opens (test_hardening_league's)."""
    return two_servers


class Reader:
    """A review stream on a server, read in a thread: each message with the moment it arrived."""

    def __init__(self, base: str, after_seq: int) -> None:
        self.received: queue.Queue[tuple[float, int | None, dict[str, Any]] | None] = queue.Queue()
        self._opened = threading.Event()
        self._client = httpx.Client(base_url=base, timeout=httpx.Timeout(10, read=None))
        self._thread = threading.Thread(target=self._read, args=(after_seq,), daemon=True)
        self._thread.start()
        assert self._opened.wait(10), "the stream did not open"

    def _read(self, after_seq: int) -> None:
        seq = None
        try:
            with self._client.stream("GET", f"/api/matches/{CODE}/stream", params={"after_seq": after_seq}) as stream:
                for line in stream.iter_lines():
                    if line.startswith("retry:"):
                        self._opened.set()
                    elif line.startswith("id: "):
                        seq = int(line[4:])
                    elif line.startswith("data: "):
                        self.received.put((time.monotonic(), seq, json.loads(line[6:])))
        except httpx.HTTPError:
            pass
        finally:
            self.received.put(None)

    def next(self, timeout: float) -> tuple[float, int | None, dict[str, Any]] | None:
        return self.received.get(timeout=timeout)

    def close(self) -> None:
        self._client.close()


def test_a_stream_on_one_server_gets_each_append_through_another_at_once(
        servers: tuple[ServerProcess, ServerProcess]) -> None:
    one, two = servers
    with httpx.Client(base_url=one.base, timeout=10) as writer:
        created = writer.post("/api/matches", json=LOG[0], headers=LEAGUE).json()
        scorer = {"Authorization": f"Bearer {created['scorer_key']}"}
        reader = Reader(two.base, after_seq=1)
        try:
            for event in LOG[1:]:
                sent = time.monotonic()
                answer = writer.post(f"/api/matches/{CODE}/events", json={"event": event}, headers=scorer).json()
                arrived, seq, data = reader.next(BOUND_SECONDS) or pytest.fail("the stream ended")
                assert arrived - sent < BOUND_SECONDS
                # The next seq, none skipped, and what the stream shows is what the writer was told.
                assert seq == answer["seq"] == data["event"]["seq"]
                assert data["event"]["hash"] == answer["receipt"]["hash"] == answer["event"]["hash"]
                assert data["event"]["ruling"] == answer["ruling"]
                assert data["match"]["seq"] == answer["match"]["seq"]
            with httpx.Client(base_url=two.base, timeout=10) as other:
                stored = other.get(f"/api/matches/{CODE}/events").json()
            assert [row["seq"] for row in stored] == list(range(1, len(LOG) + 1))
            with pytest.raises(queue.Empty):  # nothing twice
                reader.next(0.5)
        finally:
            reader.close()


def test_a_match_removed_through_one_server_ends_its_streams_on_another(
        servers: tuple[ServerProcess, ServerProcess]) -> None:
    one, two = servers
    with httpx.Client(base_url=one.base, timeout=10) as writer:
        writer.post("/api/matches", json=LOG[0], headers=LEAGUE)
        reader = Reader(two.base, after_seq=1)
        try:
            assert writer.request("DELETE", f"/api/matches/{CODE}", json={"reason": "a test match"},
                                  headers=LEAGUE).status_code == 200
            assert reader.next(BOUND_SECONDS) is None  # the stream ends, with nothing more
        finally:
            reader.close()


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_the_listening_connection_is_made_again_and_misses_nothing(
        servers: tuple[ServerProcess, ServerProcess], store_url: str) -> None:
    one, two = servers
    engine = create_engine(store_url)
    with httpx.Client(base_url=one.base, timeout=10) as writer:
        created = writer.post("/api/matches", json=LOG[0], headers=LEAGUE).json()
        scorer = {"Authorization": f"Bearer {created['scorer_key']}"}
        reader = Reader(two.base, after_seq=1)
        try:
            with engine.begin() as connection:  # cut both servers' listening connections
                schema = connection.execute(text("SELECT current_schema()")).scalar_one()
                cut = connection.execute(text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = :name "
                    "AND query LIKE :listen"), {"name": APPLICATION_NAME, "listen": f"%{channel(schema)}%"}).all()
            assert len(cut) == 2
            for event in LOG[1:4]:  # appended while no one listens, or just after
                writer.post(f"/api/matches/{CODE}/events", json={"event": event}, headers=scorer)
            got = [reader.next(BOUND_SECONDS + 2) for _ in LOG[1:4]]  # within the reconnect's second
            assert [item[1] for item in got if item is not None] == [2, 3, 4]
        finally:
            reader.close()
            engine.dispose()
