"""Group commit: appends waiting at the same moment share a commit, and each is told the truth about its own."""

import itertools
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from conftest import match_log, stamp
from sqlalchemy import Connection
from test_store_concurrency import WRITERS, Race, url_of

from matchstate.errors import AccessDenied, ConflictError, IllegalEvent
from matchstate.store import Store, hash_key
from matchstate.store.dialects import execute
from matchstate.web.service import Service


def write_transactions(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the store's write transactions from now on (one list item each)."""
    counted: list[int] = []
    transaction = store.database.transaction

    @contextmanager
    def counting(write: bool = False) -> Iterator[Connection]:
        if write:
            counted.append(1)
        with transaction(write) as connection:
            yield connection

    monkeypatch.setattr(store.database, "transaction", counting)
    return counted


@contextmanager
def held_commit(store: Store, monkeypatch: pytest.MonkeyPatch, code: str) -> Iterator[Callable[[int], None]]:
    """Hold the next append to ``code`` in its transaction until the block ends, so that appends made meanwhile
    queue behind it and go in one group; yields a function that waits for ``n`` queued appends."""
    entered, release = threading.Event(), threading.Event()
    append = Store._append

    def held(self: Store, connection: Connection, found: Any, held_code: str, *args: Any) -> Any:
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


def apart(*names: str) -> dict[str, str]:
    """A match code for each name (each match's engine lock is its own, so appends to them can all queue at once)."""
    return {name: f"{name}-1" for name in names}


Started = tuple[list[threading.Thread], list[Any]]


def run_all(*calls: Callable[[], Any]) -> Started:
    """Run each call in a thread of its own, all at once; what each returned or raised."""
    results: list[Any] = [None] * len(calls)

    def run(number: int) -> None:
        try:
            results[number] = calls[number]()
        except Exception as err:
            results[number] = err

    threads = [threading.Thread(target=run, args=(number,)) for number in range(len(calls))]
    for thread in threads:
        thread.start()
    return threads, results


def join(started: Started) -> list[Any]:
    threads, results = started
    for thread in threads:
        thread.join(30)
    return results


def test_writers_on_many_matches_each_get_their_own_event_durable_and_in_order(store: Store) -> None:
    logs = [match_log(f"m-{number}", 40) for number in range(WRITERS)]
    for log in logs:
        store.create_match(log[0])
    told: dict[str, list[int]] = {}

    def writer(log: list[dict[str, Any]]) -> None:
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


def test_appends_waiting_together_share_one_commit_and_a_refused_one_fails_alone(store: Store,
        monkeypatch: pytest.MonkeyPatch) -> None:
    code = apart("held", "a", "b", "late", "stale")
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
    assert store.check_receipts([appended_a.receipt.to_json()]).held == 1 and appended_a.receipt.seq == 2
    # one checkpoint signed for the group, none per append: both receipts lead to it
    assert appended_a.proof.partition("\n\n")[2] == appended_b.proof.partition("\n\n")[2]
    assert store.verify() == []


def _full_disk(connection: Connection) -> None:
    raise OSError("the disk is full")


def _refused_by_the_database(connection: Connection) -> None:
    """A statement the database refuses, sent as the write is: on PostgreSQL its refusal comes only when the league
    log's head is read, the statements between sent without waiting (the append's pipeline)."""
    execute(connection, "UPDATE matches SET code = NULL", {})


@pytest.mark.parametrize("failure", [_full_disk, _refused_by_the_database])
def test_a_database_failure_of_one_append_in_a_group_loses_none_of_the_others(
        store: Store, monkeypatch: pytest.MonkeyPatch, failure: Callable[[Connection], None]) -> None:
    code = apart("held", "a", "full", "b")
    logs = {name: match_log(code[name], 10) for name in code}
    for log in logs.values():
        store.create_match(log[0])
    with store.engine.connect() as connection:
        full_id = connection.exec_driver_sql(f"SELECT id FROM matches WHERE code = '{code['full']}'").scalar()
    statements = store.database.statements
    write = statements.write

    def failing(connection: Connection, rows: list[dict[str, Any]]) -> None:
        if any(row["match_id"] == full_id for row in rows):
            failure(connection)
        return write(connection, rows)

    monkeypatch.setattr(statements, "write", failing)
    with held_commit(store, monkeypatch, code["held"]) as queued:
        leader = run_all(lambda: store.append(code["held"], logs["held"][1]))
        queued(0)
        group = run_all(*(lambda name=name: store.append(code[name], logs[name][1]) for name in ("a", "full", "b")))
        queued(3)
    join(leader)
    appended_a, failed, appended_b = join(group)

    assert isinstance(failed, OSError if failure is _full_disk else sqlite3.IntegrityError | psycopg.IntegrityError)
    assert appended_a.event.seq == appended_b.event.seq == 2
    assert store.last_seqs(code.values()) == {code["held"]: 2, code["a"]: 2, code["full"]: 1, code["b"]: 2}
    monkeypatch.setattr(statements, "write", write)
    assert store.append(code["full"], logs["full"][1], expected_seq=1).event.seq == 2  # its engine is right again
    assert store.verify() == []


def test_two_stores_racing_on_one_match_and_their_own_are_each_told_the_truth(store: Store) -> None:
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
def test_a_lone_append_commits_alone_at_once(store_url: str, grouped: bool) -> None:
    store = Store(store_url, group_commit=grouped)
    store.upgrade()
    log = match_log("m-1", 3)
    store.create_match(log[0])
    assert [store.append("m-1", event).event.seq for event in log[1:]] == [2, 3]
    assert store.verify() == []
    store.close()


def test_each_match_has_a_lock_of_its_own_that_lives_only_while_it_is_used(store: Store) -> None:
    locks = [store._cache.lock(f"m-{number}") for number in range(1000)]
    assert len({id(lock) for lock in locks}) == 1000  # no two matches take turns on one lock
    with locks[0]:
        assert store._cache.lock("m-0") is locks[0] and not store._cache.lock("m-1").locked()
    del locks
    assert len(store._cache._locks) == 0  # none kept for matches no one appends to


def before_next_write(store: Store, monkeypatch: pytest.MonkeyPatch, act: Callable[[], None]) -> None:
    """Do ``act`` just before the store's next write transaction begins (that of the group queued behind a held
    append), where it can be seen by that transaction and no earlier check."""
    transaction = store.database.transaction
    pending = [act]

    @contextmanager
    def acting(write: bool = False) -> Iterator[Connection]:
        if write and pending:
            pending.pop()()
        with transaction(write) as connection:
            yield connection

    monkeypatch.setattr(store.database, "transaction", acting)


def served(store: Store,
           names: dict[str, str]) -> tuple[Service, dict[str, dict[str, str]], dict[str, list[dict[str, Any]]]]:
    """A service over ``store`` (the league key is "league"), each named match created with its keys, and logs."""
    store.set_league_key(hash_key("league"))
    service = Service(store)
    logs = {name: match_log(code, 10) for name, code in names.items()}
    keys = {}
    for name, log in logs.items():
        created = service.create(log[0], "league")
        keys[name] = {"scorer": created.scorer_key, "official": created.official_key}
    return service, keys, logs


def test_a_key_revoked_while_its_append_waits_in_a_group_is_refused_there_and_the_others_are_appended(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    code = apart("held", "a", "revoked", "b")
    service, keys, logs = served(store, code)
    other = Store(url_of(store))  # another server of the database revokes the key
    transactions = write_transactions(store, monkeypatch)

    def append(name: str, key: str | None = None) -> Callable[[], Any]:
        return lambda: service.append(code[name], logs[name][1], 1, key or keys[name]["scorer"])

    with held_commit(store, monkeypatch, code["held"]) as queued:
        leader = run_all(append("held"))
        queued(0)
        group = run_all(append("a"), append("revoked"), append("b"))
        queued(3)  # each was asked, and waits for the held append's commit
        before_next_write(store, monkeypatch, lambda: other.revoke_key(code["revoked"], "scorer", by="test"))
    assert join(leader)[0].event["seq"] == 2
    appended_a, refused, appended_b = join(group)

    assert isinstance(refused, AccessDenied) and refused.body() == AccessDenied.said("match-key-wrong").body()
    assert appended_a.event["seq"] == appended_b.event["seq"] == 2 and appended_a.event["role"] == "scorer"
    assert len(transactions) == 2  # the held append's, and the group's, which read the key as revoked
    assert store.last_seqs(code.values()) == {code["held"]: 2, code["a"]: 2, code["revoked"]: 1, code["b"]: 2}
    assert service.append(code["revoked"], logs["revoked"][1], 1, keys["revoked"]["official"]).event["seq"] == 2
    other.close()
    assert store.verify() == []


def test_keys_refused_inside_a_group_are_refused_alone(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    code = apart("held", "a", "wrong", "league", "other", "decider", "unknown", "b")
    service, keys, logs = served(store, {name: code[name] for name in code if name != "unknown"})
    transactions = write_transactions(store, monkeypatch)
    decide = {"type": "decide", "at": logs["a"][2]["at"], "id": "a decision", "option": 1}

    def append(name: str, key: str, event: dict[str, Any] | None = None) -> Callable[[], Any]:
        return lambda: service.append(code[name], event or logs[name if name in logs else "a"][1], 1, key)

    with held_commit(store, monkeypatch, code["held"]) as queued:
        leader = run_all(append("held", keys["held"]["scorer"]))
        queued(0)
        group = run_all(append("a", keys["a"]["official"]),
                        append("wrong", "a guess"),
                        append("league", "league"),
                        append("other", keys["a"]["scorer"]),  # match a's key opens nothing on another match
                        append("decider", keys["decider"]["scorer"], decide),  # a scorer does not decide
                        append("unknown", "a guess"),
                        append("b", keys["b"]["scorer"]))
        queued(7)
    join(leader)
    appended_a, wrong, league, other, decided, unknown, appended_b = join(group)

    assert appended_a.event["role"] == "official" and appended_b.event["role"] == "scorer"
    assert appended_a.event["seq"] == appended_b.event["seq"] == 2
    said = {name: AccessDenied.said(reason).body() for name, reason in (
        ("wrong", "match-key-wrong"), ("league", "league-not-events"), ("other", "match-key-wrong"),
        ("decided", "official-only"))}
    for name, refused in (("wrong", wrong), ("league", league), ("other", other), ("decided", decided)):
        assert isinstance(refused, AccessDenied) and refused.body() == said[name], name
    assert "words" in said["wrong"]
    assert type(unknown).__name__ == "UnknownMatch"
    assert len(transactions) == 2
    assert store.last_seqs(code.values()) == {code["held"]: 2, code["a"]: 2, code["wrong"]: 1, code["league"]: 1,
                                              code["other"]: 1, code["decider"]: 1, code["b"]: 2}
    assert store.verify() == []
