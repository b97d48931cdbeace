"""A real server under hostile clients on 127.0.0.1: half-sent requests, slow bodies, too many
connections and streams. Each attack is bounded in count and time and ends by itself."""

from __future__ import annotations

import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest
from conftest import match_log

from matchstate.store import Store
from matchstate.web.access import hash_key
from matchstate.web.process import ServerProcess
from matchstate.web.server import RESERVED_FILES

HALF_SENT = b"GET /api/matches/m1 HTTP/1.1\r\nHost: x\r\n"  # and never the blank line that ends the headers
SERVER_FILES = 1024  # the server's limit on open files, as on a stock laptop
LEAGUE_KEY = "attacked-league-key"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}


@contextmanager
def serving(tmp_path: Path, *options: str, file_limit: int | None = None) -> Iterator[ServerProcess]:
    tmp_path.mkdir(exist_ok=True)
    url = f"sqlite:///{tmp_path / 'attacked.db'}"
    store = Store(url)
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE_KEY))
    store.close()
    with ServerProcess(url, log=tmp_path / "server.log", options=options, file_limit=file_limit) as server:
        yield server


def half_sent(server: ServerProcess, count: int) -> list[socket.socket]:
    attackers = []
    for _ in range(count):
        attacker = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        attacker.sendall(HALF_SENT)
        attackers.append(attacker)
    return attackers


def what_came_back(attacker: socket.socket, wait: float) -> bytes | None:
    """The first bytes the server sent on ``attacker`` (b"" if it closed it), or None if it sent nothing."""
    attacker.settimeout(wait)
    try:
        return attacker.recv(64)
    except TimeoutError:
        return None
    except ConnectionResetError:
        return b""


def read_to_the_end(attacker: socket.socket, wait: float) -> bytes:
    """All the server sends on ``attacker`` until it closes the connection, which it must within ``wait``."""
    attacker.settimeout(wait)
    received = b""
    while chunk := attacker.recv(4096):
        received += chunk
    return received


def answered(connection: http.client.HTTPConnection) -> None:
    connection.request("GET", "/api/event-types")
    response = connection.getresponse()
    response.read()
    assert response.status == 200


def own_file_limit(needed: int) -> None:
    """Raise this test process's limit on open files to ``needed`` (as far as its hard limit lets)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"this test holds {needed} sockets; the hard limit on open files is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def open_stream(streams: ExitStack, url: str) -> Iterator[str]:
    """A live stream kept open until ``streams`` closes: its lines (dropping them would close it)."""
    response = streams.enter_context(httpx.stream("GET", url, timeout=5))
    lines = response.iter_lines()
    # A generator's close, held: the generator (and with it the stream) lives until ``streams`` closes.
    streams.callback(lines.close)  # type: ignore[attr-defined]  # typed as an Iterator, it is a generator
    return lines


def test_1040_half_sent_requests_do_not_keep_a_client_out(tmp_path: Path) -> None:
    own_file_limit(1040 + 256)
    with serving(tmp_path, file_limit=SERVER_FILES) as server, ExitStack() as closing:
        attackers = half_sent(server, 1040)  # more than the server has files for
        for attacker in attackers:
            closing.callback(attacker.close)
        kept = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        closing.callback(kept.close)
        for _ in range(20):  # each answered (200) on a new connection and on a kept one, never refused or dropped
            fresh = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            answered(fresh)
            answered(kept)
            fresh.close()
        # The server kept its connections under its files: the ones that waited longest made room.
        closed = sum(what_came_back(attacker, 0.01) == b"" for attacker in attackers[:400])
        assert closed >= 1040 - (SERVER_FILES - RESERVED_FILES)


def test_headers_or_a_body_sent_too_slowly_get_408_and_the_connection_closes(tmp_path: Path) -> None:
    with serving(tmp_path, "--header-timeout", "1", "--body-timeout", "1") as server, ExitStack() as closing:
        attackers = half_sent(server, 20)
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=5)  # sends nothing at all
        slow_body = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        slow_body.sendall(b"POST /api/matches HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Content-Length: 100\r\n\r\n{\"type\": ")
        for attacker in [*attackers, idle, slow_body]:
            closing.callback(attacker.close)
        began = time.monotonic()
        for attacker in [*attackers, idle]:  # each answered, then closed
            answer = read_to_the_end(attacker, 3)
            assert answer.startswith(b"HTTP/1.1 408 ") and b"headers did not all arrive within 1 s" in answer
        answer = read_to_the_end(slow_body, 3)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"body did not all arrive within 1 s" in answer
        assert time.monotonic() - began < 3
    # Said as every refusal is: JSON in both languages, with the headers every answer carries (it was plain text).
    head, _, body = answer.partition(b"\r\n\r\n")
    assert json.loads(body)["words"]["es"] == "el cuerpo del pedido no llegó completo en 1 s"
    assert b"content-type: application/json" in head and b"x-content-type-options: nosniff" in head
    assert b"content-security-policy: default-src 'none'" in head


def test_a_request_that_is_not_http_gets_400_said_as_every_refusal_is(tmp_path: Path) -> None:
    with serving(tmp_path) as server, socket.create_connection(("127.0.0.1", server.port), timeout=5) as client:
        client.sendall(b"GET /api/time HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n")  # a header without its colon
        answer = read_to_the_end(client, 3)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400 ") and b"connection: close" in head
    assert json.loads(body)["words"] == {"en": "the request cannot be read as HTTP/1.1",
                                         "es": "el pedido no se puede leer como HTTP/1.1"}
    assert b"content-type: application/json" in head and b"x-content-type-options: nosniff" in head
    assert b"content-security-policy: default-src 'none'" in head


def test_connections_over_the_cap_take_the_place_of_the_one_that_waited_longest(tmp_path: Path) -> None:
    with serving(tmp_path, "--max-connections", "20") as server, ExitStack() as closing:
        attackers = half_sent(server, 25)
        for attacker in attackers:
            closing.callback(attacker.close)
        with httpx.Client(base_url=server.base, timeout=5) as client:
            assert client.get("/api/event-types").status_code == 200
        assert [what_came_back(attacker, 1) for attacker in attackers[:6]] == [b""] * 6
        assert what_came_back(attackers[-1], 0.2) is None  # the newest are still open, waiting


def test_when_every_connection_is_busy_a_new_one_is_told_to_come_back(tmp_path: Path) -> None:
    code = "busy-1"
    with serving(tmp_path, "--max-connections", "3") as server, httpx.Client(base_url=server.base,
                                                                               timeout=5) as client:
        client.post("/api/matches", json=match_log(code, 1)[0], headers=LEAGUE)
        client.close()
        with ExitStack() as streams:
            for _ in range(3):
                assert next(open_stream(streams, f"{server.base}/api/matches/{code}/stream")).startswith("retry:")
            refused = httpx.get(f"{server.base}/api/event-types", timeout=5)
            assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
        assert httpx.get(f"{server.base}/api/event-types", timeout=5).status_code == 200


def test_a_client_may_hold_only_so_many_live_streams(tmp_path: Path) -> None:
    code = "streams-1"
    with serving(tmp_path, "--streams-per-client", "2") as server, ExitStack() as streams:
        assert httpx.post(f"{server.base}/api/matches", json=match_log(code, 1)[0], headers=LEAGUE).status_code == 201
        url = f"{server.base}/api/matches/{code}/stream"
        for _ in range(2):
            assert next(open_stream(streams, url)).startswith("retry:")
        third = httpx.get(url, timeout=5)
        assert third.status_code == 429 and "2 live streams open" in third.json()["detail"]
        streams.close()  # the first two end: room again
        with httpx.stream("GET", url, timeout=5) as stream:
            assert stream.status_code == 200


def test_the_clock_tolerance_is_set_by_the_environment_or_by_serve(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATCHSTATE_CLOCK_TOLERANCE", "5")
    code = "clock-1"
    start = {**match_log(code, 1)[0], "at": datetime.now(UTC).isoformat()}
    ahead = {"type": "chukker.start", "chukker": 1, "at": (datetime.now(UTC) + timedelta(seconds=30)).isoformat()}
    for options, status in (((), 422), (("--clock-tolerance", "60"), 201)):
        with serving(tmp_path / str(status), *options) as server, httpx.Client(base_url=server.base,
                                                                               timeout=5) as client:
            key = client.post("/api/matches", json=start, headers=LEAGUE).json()["scorer_key"]
            answer = client.post(f"/api/matches/{code}/events", json={"event": ahead},
                                 headers={"Authorization": f"Bearer {key}"})
            assert answer.status_code == status, answer.text
            if status == 422:
                assert "more than the 5 s allowed" in answer.json()["detail"]


def test_a_port_in_use_or_an_address_not_this_machines_is_refused_in_words_with_exit_2(tmp_path: Path) -> None:
    """uvicorn started the app, then said "address already in use" and exited 3 (the README: a command that could not
    run exits 2)."""
    url = f"sqlite:///{tmp_path / 'busy.db'}"
    store = Store(url)
    store.upgrade()
    store.close()
    with ServerProcess(url) as server:
        for host, why in (("127.0.0.1", "Address already in use"),
                          ("198.51.100.77", "Cannot assign requested address")):  # an address no machine here has
            refused = subprocess.run([sys.executable, "-m", "matchstate.cli", "serve", "--host", host, "--port",
                                      str(server.port)], env={**os.environ, "MATCHSTATE_DATABASE_URL": url},
                                     capture_output=True, text=True, timeout=60)
            assert (refused.returncode, refused.stderr) == (
                2, f"matchstate: cannot listen on {host}:{server.port}: {why}\n"), refused.stderr
