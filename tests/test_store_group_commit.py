"""Group commit: appends waiting at the same moment share a commit, and each is told the truth about its own."""

import itertools
import threading
import time
from contextlib import contextmanager

import pytest
from conftest import match_log, stamp
from test_store_concurrency import WRITERS, Race, url_of

from matchstate.errors import ConflictError, IllegalEvent
from matchstate.store import Store
from matchstate.store.sql import AppendStatements


def write_transactions(store: Store, monkeypatch) -> list[int]:
    """Count the store's write transactions from now on (one list item each)."""
    counted: list[int] = []
    transaction = store.database.transaction

    @contextmanager
    def counting(write: bool = False):
        if write:
            counted.append(1)
        with transaction(write) as connection:
            yield connection

    monkeypatch.setattr(store.database, "transaction", counting)
    return counted


@contextmanager
def held_commit(store: Store, monkeypatch, code: str):
    """Hold the next append to ``code`` in its transaction until the block ends, so that appends made meanwhile
    queue behind it and go in one group; yields a function that waits for ``n`` queued appends."""
    entered, release = threading.Event(), threading.Event()
    append = Store._append

    def held(self, connection, found, held_code, *args):
        if held_code == code and not entered.is_set():
            entered.set()
            release.wait(10)
        return append(self, connection, found, held_code, *args)

    monkeypatch.setattr(Store, "_append", held)

    def queued(n: int) -> None:
        assert entered.wait(10)
        deadline = time.monotonic() + 10
        while len(store._commits._queue) < n:
            assert time.monotonic() < deadline, "the appends did not queue"
            time.sleep(0.005)

    try:
        yield queued
    finally:
        release.set()


def apart(store: Store, *names: str) -> dict[str, str]:
    """A match code for each name whose engine lock is no other's (the cache's locks are striped), so that
    appends to them can all queue at once."""
    codes: dict[str, str] = {}
    for number in itertools.count():
        if len(codes) == len(names):
            return codes
        code = f"{names[len(codes)]}-{number}"
        if all(store._cache.lock(code) is not store._cache.lock(other) for other in codes.values()):
            codes[names[len(codes)]] = code


def run_all(*calls) -> list[object]:
    """Run each call in a thread of its own, all at once; what each returned or raised."""
    results: list[object] = [None] * len(calls)

    def run(number: int) -> None:
        try:
            results[number] = calls[number]()
        except Exception as err:
            results[number] = err

    threads = [threading.Thread(target=run, args=(number,)) for number in range(len(calls))]
    for thread in threads:
        thread.start()
    return threads, results


def join(started) -> list[object]:
    threads, results = started
    for thread in threads:
        thread.join(30)
    return results


def test_writers_on_many_matches_each_get_their_own_event_durable_and_in_order(store):
    logs = [match_log(f"m-{number}", 40) for number in range(WRITERS)]
    for log in logs:
        store.create_match(log[0])
    told: dict[str, list[int]] = {}

    def writer(log: list[dict]) -> None:
        code = log[0]["match"]
        told[code] = [store.append(code, event, expected_seq=seq).event.seq for seq, event in enumerate(log[1:], 1)]

    join(run_all(*(lambda log=log: writer(log) for log in logs)))

    fresh = Store(url_of(store))  # another process's view: what was acknowledged was committed
    for log in logs:
        code = log[0]["match"]
        assert told[code] == list(range(2, 41))
        stored = fresh.events(code)
        assert [event.seq for event in stored] == list(range(1, 41))
        assert [event.device_id for event in stored] == [event["id"] for event in log]
        assert all(event.prev_hash == before.hash for before, event in itertools.pairwise(stored))
    assert fresh.verify() == []
    fresh.close()


def test_appends_waiting_together_share_one_commit_and_a_refused_one_fails_alone(store, monkeypatch):
    code = apart(store, "held", "a", "b", "late", "stale")
    logs = {name: match_log(code[name], 10) for name in code}
    for log in logs.values():
        store.create_match(log[0])
    transactions = write_transactions(store, monkeypatch)
    earlier = {**logs["late"][1], "at": stamp(-1000)}  # before the match.start: refused by the engine
    with held_commit(store, monkeypatch, code["held"]) as queued:
        leader = run_all(lambda: store.append(code["held"], logs["held"][1]))
        queued(0)
        group = run_all(lambda: store.append(code["a"], logs["a"][1]),
                        lambda: store.append(code["late"], earlier),
                        lambda: store.append(code["b"], logs["b"][1]),
                        lambda: store.append(code["stale"], logs["stale"][1], expected_seq=5))
        queued(4)
    appended_held, = join(leader)
    appended_a, refused, appended_b, conflict = join(group)

    assert len(transactions) == 2  # the held append's, then one for all four that waited behind it
    assert appended_held.event.seq == appended_a.event.seq == appended_b.event.seq == 2
    assert isinstance(refused, IllegalEvent)
    assert isinstance(conflict, ConflictError) and conflict.current_seq == 1
    assert store.last_seqs(code.values()) == {code["held"]: 2, code["a"]: 2, code["b"]: 2, code["late"]: 1,
                                              code["stale"]: 1}
    assert appended_a.receipt.holds(store.public_key()) and appended_a.receipt.seq == 2
    assert store.verify() == []


def test_a_database_failure_of_one_append_in_a_group_loses_none_of_the_others(store, monkeypatch):
    code = apart(store, "held", "a", "full", "b")
    logs = {name: match_log(code[name], 10) for name in code}
    for log in logs.values():
        store.create_match(log[0])
    with store.engine.connect() as connection:
        full_id = connection.exec_driver_sql(f"SELECT id FROM matches WHERE code = '{code['full']}'").scalar()
    write = AppendStatements.write

    def full_disk(self, connection, rows):
        if any(row["match_id"] == full_id for row in rows):
            raise OSError("the disk is full")
        return write(self, connection, rows)

    monkeypatch.setattr(AppendStatements, "write", full_disk)
    with held_commit(store, monkeypatch, code["held"]) as queued:
        leader = run_all(lambda: store.append(code["held"], logs["held"][1]))
        queued(0)
        group = run_all(*(lambda name=name: store.append(code[name], logs[name][1]) for name in ("a", "full", "b")))
        queued(3)
    join(leader)
    appended_a, failed, appended_b = join(group)

    assert isinstance(failed, OSError)
    assert appended_a.event.seq == appended_b.event.seq == 2
    assert store.last_seqs(code.values()) == {code["held"]: 2, code["a"]: 2, code["full"]: 1, code["b"]: 2}
    monkeypatch.setattr(AppendStatements, "write", write)
    assert store.append(code["full"], logs["full"][1], expected_seq=1).event.seq == 2  # its engine is right again
    assert store.verify() == []


def test_two_stores_racing_on_one_match_and_their_own_are_each_told_the_truth(store):
    shared = match_log("shared", 200)
    store.create_match(shared[0])
    own = {number: match_log(f"own-{number}", 30) for number in range(WRITERS)}
    for log in own.values():
        store.create_match(log[0])
    servers = [Store(url_of(store)), Store(url_of(store))]  # two servers on one database
    race = Race("shared", shared)

    def writer(number: int) -> None:
        server = servers[number % 2]
        log = own[number]
        for attempt in range(1, 20):
            race.attempt(server, f"writer {number}/{attempt}")
            if attempt < len(log):
                assert server.append(log[0]["match"], log[attempt], expected_seq=attempt).event.seq == attempt + 1

    join(run_all(*(lambda number=number: writer(number) for number in range(WRITERS))))
    for server in servers:
        server.close()

    stored = store.events("shared")
    assert [event.seq for event in stored] == list(range(1, len(stored) + 1))  # gapless
    assert {event.device_id: event.seq for event in stored[1:]} == race.committed  # each told the truth
    assert len(race.committed) + len(race.conflicted) == WRITERS * 19 and race.committed
    assert store.last_seqs(f"own-{number}" for number in range(WRITERS)) == {
        f"own-{number}": 20 for number in range(WRITERS)}
    assert store.verify() == []


@pytest.mark.parametrize("grouped", [True, False])
def test_a_lone_append_commits_alone_at_once(store_url, grouped):
    store = Store(store_url, group_commit=grouped)
    store.upgrade()
    log = match_log("m-1", 3)
    store.create_match(log[0])
    assert [store.append("m-1", event).event.seq for event in log[1:]] == [2, 3]
    assert store.verify() == []
    store.close()
