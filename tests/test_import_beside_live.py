"""A 100,000-event import through the HTTP API leaves another client's live appends answered (issue #18).

No clock is read to judge it (how long anything takes is the machine's, not the code's); what is asserted is
the structure that bounds a live append's wait, on a real server on 127.0.0.1, on both databases:

- the import runs off the event loop: every batch is written from a thread that is not the server's loop;
- it works in batches of :data:`~matchstate.store.importing.BATCH` events and, between two, holds no
  transaction and no lock: held there (the test's seam, :func:`~matchstate.store.importing.hand_on`),
  a live append to another match and a ``GET /api/time`` are answered while the import is midway;
- it hands its thread's turn on after every batch, to the last, and the live client's appends all land.

- its league log leaves go in batches of :data:`~matchstate.store.importing.LEAVES` too, each a transaction
  of its own under the log's lock: held between two of them, the import lets a live append (whose leaf joins the
  same log) through.

The p99 of the live appends during the import, against the same client alone, is scripts/bench.py's
``import_beside_live`` (issue #18's target: under 250 ms).
"""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import uvicorn
from conftest import match_log

from matchstate.store import Store, importing
from matchstate.web import create_app
from matchstate.web.access import hash_key
from matchstate.web.limits import Limits
from matchstate.web.process import free_port

EVENTS = 100_000
LEAGUE_KEY = "beside-league-key"
GUARD = 600  # seconds: only against a hang, never a measure


class Served:
    """The app over ``store``, served by uvicorn on 127.0.0.1 in a thread of this process (so that the test can
    hold the import at its seam), until closed."""

    def __init__(self, store: Store) -> None:
        app = create_app(store, limits=Limits(anonymous_per_second=1e9, keyed_per_second=1e9))
        self.port = free_port()
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, name="served-loop")
        self.thread.start()
        started = threading.Event()
        while not self.server.started:  # a condition waited for, not a time
            assert self.thread.is_alive(), "the server did not start"
            started.wait(0.01)

    def request(self, method: str, path: str, body: bytes = b"", key: str | None = None) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=GUARD)
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
        try:
            connection.request(method, path, body=body, headers=headers)
            answer = connection.getresponse()
            return answer.status, json.loads(answer.read() or b"null")
        finally:
            connection.close()

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(GUARD)


@pytest.fixture
def served(store: Store) -> Iterator[Served]:
    store.set_league_key(hash_key(LEAGUE_KEY))
    running = Served(store)
    try:
        yield running
    finally:
        running.close()


def test_a_100k_event_import_leaves_live_appends_answered_between_its_batches(
        store: Store, served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    live = match_log("live", 22)
    status, created = served.request("POST", "/api/matches", json.dumps(live[0]).encode(), LEAGUE_KEY)
    assert status == 201
    scorer = created["scorer_key"]
    sent = iter(live[1:])

    def append_live() -> int:
        status, _ = served.request("POST", "/api/matches/live/events", json.dumps({"event": next(sent)}).encode(),
                                   scorer)
        return status

    batches: list[tuple[int, threading.Thread]] = []
    published: list[int] = []
    midway, resume = threading.Event(), threading.Event()
    publishing, published_on = threading.Event(), threading.Event()

    def held(events: int, leaves: int = 0) -> None:  # the import between two batches
        if leaves:  # of its leaves
            published.append(leaves)
            if len(published) == 1:
                publishing.set()
                assert published_on.wait(GUARD)
            return
        batches.append((events, threading.current_thread()))
        if len(batches) == 2:
            midway.set()
            assert resume.wait(GUARD)

    monkeypatch.setattr(importing, "hand_on", held)
    body = "\n".join(json.dumps(event) for event in match_log("big", EVENTS)).encode()
    imported: list[tuple[int, Any]] = []
    importer = threading.Thread(target=lambda: imported.append(
        served.request("POST", "/api/matches/import", body, LEAGUE_KEY)))
    importer.start()
    assert midway.wait(GUARD), "the import never reached its second batch"

    # Midway through the import, held between two batches: the loop and the database answer another client.
    assert [append_live() for _ in range(20)] == [201] * 20
    assert served.request("GET", "/api/time")[0] == 200
    assert not imported and store.last_seqs(["live"]) == {"live": 21}

    # Released, the import writes its last batches and publishes its leaves, in batches too: held between two,
    # the league log's lock is free, and a live append (its leaf in the same log) is answered.
    resume.set()
    assert publishing.wait(GUARD), "the import never published a batch of its leaves"
    assert append_live() == 201 and not imported
    published_on.set()
    importer.join(GUARD)
    status, answer = imported[0]
    assert status == 201, answer
    assert answer["code"] == "big" and answer["events"] == EVENTS

    assert all(thread is not served.thread for _, thread in batches)  # never on the server's loop
    assert [events for events, _ in batches] == list(range(importing.BATCH, EVENTS + 1, importing.BATCH))
    last = store.last_seqs(["live", "big"])
    assert last == {"big": EVENTS, "live": 22}
    assert published == list(range(importing.LEAVES, EVENTS, importing.LEAVES))
