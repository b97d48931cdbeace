"""One client's bodies never hold another client's answers: eight connections sending 17 KB of ``[``
(within the default rate limit, 20 a second from the address, each answered 400) leave another client's
``GET /api/time`` within 100 ms of its own baseline, measured in the same test against a real server (the
full-size measurement is scripts/bench.py's)."""

from __future__ import annotations

import http.client
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from matchstate.store import Store
from matchstate.web.process import ServerProcess

FLOOD = b"[" * 17_000
ASKS = 40
PACE = 8 / 20  # seconds between a connection's requests: the eight send 20 a second, the default rate


@contextmanager
def started(server: ServerProcess) -> Iterator[ServerProcess]:
    """``server``, started with time to spare on a loaded machine (only a guard against hanging), then stopped."""
    server.start(timeout=120)
    try:
        yield server
    finally:
        server.stop()


def p99(latencies: list[float]) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def victim(base: ServerProcess) -> list[float]:
    connection = http.client.HTTPConnection("127.0.0.1", base.port, timeout=30)
    took = []
    for _ in range(ASKS):
        began = time.perf_counter()
        connection.request("GET", "/api/time")
        answer = connection.getresponse()
        answer.read()
        took.append(time.perf_counter() - began)
        assert answer.status == 200
    connection.close()
    return took


def test_a_bracket_flood_leaves_another_clients_answers_prompt(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'flood.db'}"
    store = Store(url)
    store.upgrade()
    store.close()
    with started(ServerProcess(url, log=tmp_path / "server.log",
                               options=["--rate-anonymous", "1000000"])) as server:  # the test's own pace, below
        baseline = victim(server)
        stop = threading.Event()
        refused = [0] * 8

        def flood(number: int) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            while not stop.wait(PACE):
                connection.request("POST", "/api/matches/flood/events", body=FLOOD,
                                   headers={"Content-Type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                refused[number] += answer.status == 400
            connection.close()

        floods = [threading.Thread(target=flood, args=(number,)) for number in range(8)]
        for thread in floods:
            thread.start()
        deadline = time.monotonic() + 60  # only a guard against hanging
        while sum(refused) < 8 and time.monotonic() < deadline:  # the flood is under way
            time.sleep(0.01)
        flooded = victim(server)
        stop.set()
        for thread in floods:
            thread.join()
    assert all(refused), refused  # every connection's brackets were answered, each 400
    assert p99(flooded) < p99(baseline) + 0.100, (p99(baseline), p99(flooded))

