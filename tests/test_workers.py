"""`matchstate serve --workers N`: several processes on one port, one PostgreSQL database. A stream held by one
worker gets each event appended through another, at once, in order, once each, as its writer was told; the
server stops whole. SQLite refuses more than one worker, saying why."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import match_log
from test_hardening_league import LEAGUE, LEAGUE_KEY

from matchstate.store import Store
from matchstate.web.access import hash_key
from matchstate.web.process import ServerProcess

CODE = "workers-1"
LOG = match_log(CODE, 24)
BOUND_SECONDS = 2.0  # generous: the bench measures the real figure (live_across_servers)
TRIES = 200  # new connections made, at most, to reach the other worker


@pytest.fixture
def workers(store_url: str, tmp_path: Path) -> Iterator[tuple[ServerProcess, list[int]]]:
    """A server of two workers on a new database with the league key; its worker processes' ids."""
    store = Store(store_url)
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE_KEY))
    store.close()
    with ServerProcess(store_url, log=tmp_path / "server.log", options=["--workers", "2"]) as server:
        deadline = time.monotonic() + 10
        while len(pids := _children(server)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(pids) == 2, f"the server has {len(pids)} workers"
        yield server, pids
    for pid in pids:  # stopped with the server
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def _children(server: ServerProcess) -> list[int]:
    found = Path(f"/proc/{server.pid}/task/{server.pid}/children")
    return [int(pid) for pid in found.read_text().split()] if found.exists() else []


def _worker_of(connection: socket.socket, pids: list[int]) -> int:
    """Which worker holds the server's end of ``connection`` (read from /proc: the server says nothing of it),
    once one has accepted it."""
    wanted = f"{_hex(connection.getpeername())} {_hex(connection.getsockname())}"
    deadline = time.monotonic() + BOUND_SECONDS
    while time.monotonic() < deadline:
        inodes = {f"socket:[{fields[9]}]" for line in Path("/proc/net/tcp").read_text().splitlines()[1:]
                  if " ".join((fields := line.split())[1:3]) == wanted}
        for pid in pids:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    if os.readlink(fd) in inodes:
                        return pid
        time.sleep(0.01)
    raise AssertionError("no worker holds the connection")


def _hex(address: tuple[str, int]) -> str:
    return f"{socket.inet_aton(address[0])[::-1].hex().upper()}:{address[1]:04X}"


class Stream:
    """A review stream over a plain socket, so that the worker holding it can be told."""

    def __init__(self, port: int, after_seq: int) -> None:
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=BOUND_SECONDS)
        self.socket.sendall(f"GET /api/matches/{CODE}/stream?after_seq={after_seq} HTTP/1.1\r\n"
                            "host: 127.0.0.1\r\n\r\n".encode())
        self.lines = self.socket.makefile("rb")
        assert self.lines.readline().startswith(b"HTTP/1.1 200")
        while not self._line().startswith(b"retry:"):
            pass

    def _line(self) -> bytes:
        return self.lines.readline().rstrip(b"\r\n")

    def next(self) -> tuple[int, dict[str, Any]]:
        """The next event's seq and data, within the socket's timeout."""
        seq = None
        while True:
            line = self._line()
            if line.startswith(b"id: "):
                seq = int(line[4:])
            elif line.startswith(b"data: ") and seq is not None:
                return seq, json.loads(line[6:])

    def close(self) -> None:
        self.lines.close()
        self.socket.close()


def _post(port: int, pids: list[int], path: str, body: object, headers: dict[str, str],
          avoid: int | None = None) -> tuple[int, int, dict[str, Any]]:
    """POST through a new connection (through a worker other than ``avoid``, trying new connections):
    the worker, the status and the answer."""
    for _ in range(TRIES):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.connect()
            assert connection.sock is not None
            worker = _worker_of(connection.sock, pids)
            if worker == avoid:
                continue
            connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", **headers})
            answer = connection.getresponse()
            return worker, answer.status, json.loads(answer.read())
        finally:
            connection.close()
    raise AssertionError(f"{TRIES} connections all reached the same worker")


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_stream_on_one_worker_gets_each_append_through_another_at_once(
        workers: tuple[ServerProcess, list[int]]) -> None:
    server, pids = workers
    _, status, created = _post(server.port, pids, "/api/matches", LOG[0], LEAGUE)
    assert status == 201
    scorer = {"Authorization": f"Bearer {created['scorer_key']}"}
    stream = Stream(server.port, after_seq=1)
    try:
        assert stream.socket.getpeername()[1] == server.port
        holder = _worker_of(stream.socket, pids)
        for event in LOG[1:]:
            sent = time.monotonic()
            worker, status, answer = _post(server.port, pids, f"/api/matches/{CODE}/events", {"event": event},
                                           scorer, avoid=holder)
            assert worker != holder and status == 201
            seq, data = stream.next()
            assert time.monotonic() - sent < BOUND_SECONDS
            # The next seq, none skipped, and what the stream shows is what the writer was told.
            assert seq == answer["seq"] == data["event"]["seq"]
            assert data["event"]["hash"] == answer["receipt"]["hash"]
            assert data["event"]["ruling"] == answer["ruling"]
    finally:
        stream.close()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", f"/api/matches/{CODE}/events")
    assert [row["seq"] for row in json.loads(connection.getresponse().read())] == list(range(1, len(LOG) + 1))
    connection.close()


def test_sqlite_refuses_more_than_one_worker_and_says_why(tmp_path: Path) -> None:
    refused = subprocess.run([sys.executable, "-m", "matchstate.cli", "serve", "--workers", "2"],
                             env={**os.environ, "MATCHSTATE_DATABASE_URL": f"sqlite:///{tmp_path / 'one.db'}"},
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert "--workers needs PostgreSQL" in refused.stderr and "one writer at a time" in refused.stderr
