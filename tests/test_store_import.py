"""Imports: all or nothing, also when killed, and fair to live scoring beside them (issue 9, finding 7: a long
SQLite import locked live appends out for its whole length), on SQLite and PostgreSQL."""

import contextlib
import json
import signal
import subprocess
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import match_log
from sqlalchemy import text, update

from matchstate.errors import DuplicateMatch, RefusedEvent
from matchstate.models import MatchRow
from matchstate.store import Store, hash_key, importing
from matchstate.store.importing import BATCH, LEAVES, STALE


def url_of(store: Store) -> str:
    return store.url.render_as_string(hide_password=False)


def row_counts(store: Store) -> dict[str, int]:
    with store.engine.connect() as connection:
        return {table: connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
                for table in ("matches", "events", "rulings", "keys")}


def test_an_import_of_many_batches_refused_late_leaves_nothing(store: Store) -> None:
    before = row_counts(store)
    lines = [json.dumps(event) for event in match_log("m-1", 3 * BATCH + 10)]
    broken = [*lines[:-1], '{"type": "goal", "team": "Green", "at": "2026-11-29T23:00:00Z"}']
    with pytest.raises(RefusedEvent, match=f"line {len(lines)}: goal: field 'team' names an unknown team"):
        store.import_log(broken)
    assert row_counts(store) == before
    assert store.import_log(lines, keys={"scorer": hash_key("s")}) == ("m-1", len(lines))
    assert [event.raw for event in store.events("m-1")] == lines
    assert store.role_of_key("m-1", hash_key("s")) == "scorer" and store.verify() == []
    with pytest.raises(DuplicateMatch):
        store.import_log(lines[:5])


def leaf_indexes(store: Store, code: str) -> list[int]:
    with store.engine.connect() as connection:
        return list(connection.execute(text("SELECT idx FROM log_leaves WHERE code = :code AND kind != 'act' "
                                            "ORDER BY idx"), {"code": code}).scalars())


def test_an_imports_leaves_go_into_the_league_log_in_batches_with_live_appends_between(store: Store,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18: the import's leaves, all in one transaction, held the league log's lock from every live append
    for as long as they took (9.8 s for 100,000 on PostgreSQL). Held between two batches of its leaves, the
    import lets a live append through, its match still hidden and its code still its own."""
    live = match_log("live", 3)
    store.create_match(live[0])
    midway, resume = threading.Event(), threading.Event()

    def held(events: int, leaves: int = 0) -> None:
        if leaves == LEAVES:
            midway.set()
            assert resume.wait(300)

    monkeypatch.setattr(importing, "hand_on", held)
    lines = [json.dumps(event) for event in match_log("big", 2 * LEAVES + 10)]
    imported = []
    importer = threading.Thread(target=lambda: imported.append(store.import_log(lines)))
    importer.start()
    assert midway.wait(300), "the import never published a batch of its leaves"
    store.append("live", live[1], expected_seq=1)
    assert [summary.code for summary in store.summaries()] == ["live"]  # the import is not whole: hidden
    with pytest.raises(DuplicateMatch):
        store.create_match(match_log("big", 1)[0])
    resume.set()
    importer.join(300)
    assert imported == [("big", len(lines))]
    big, live_leaves = leaf_indexes(store, "big"), leaf_indexes(store, "live")
    assert len(big) == len(lines) and big[0] < live_leaves[-1] < big[-1]  # the live append's leaf fell between
    store.append("live", live[2], expected_seq=2)
    assert store.verify() == []


class Killed(Exception):
    """The import's process, gone between two batches of its leaves."""


def test_an_import_gone_while_publishing_leaves_its_leaves_and_the_same_log_imports_again(store: Store,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The league log forgets nothing: the leaves published stay, the match does not show, and since no match
    was ever shown under its code, importing it again, the same log or another, rewrites nothing: ``verify``
    finds no problem (an event's hash covers when it was received, so even the same log hashes anew)."""
    def gone(events: int, leaves: int = 0) -> None:
        if leaves:
            raise Killed

    def imported(code: str, changed: bool = False) -> list[str]:
        log = match_log(code, LEAVES + 10)
        if changed:
            log[2]["at"] = log[1]["at"]
        return [json.dumps(event) for event in log]

    monkeypatch.setattr(importing, "hand_on", gone)
    for code in ("big", "other"):
        with pytest.raises(Killed):
            store.import_log(imported(code))
        assert len(leaf_indexes(store, code)) == LEAVES
    assert store.summaries() == [] and store.verify() == []
    monkeypatch.undo()
    assert store.import_log(imported("big")) == ("big", LEAVES + 10) and store.verify() == []
    assert store.import_log(imported("other", changed=True)) == ("other", LEAVES + 10) and store.verify() == []
    assert [summary.code for summary in store.summaries()] == ["big", "other"]
    # A shown match removed and imported again is still the rewrite it is.
    store.remove_match("other", reason="imported again", by=None)
    store.import_log(imported("other"))
    assert ("other", 3) in {(problem.match, problem.seq) for problem in store.verify()}


# Imports the log at argv[2] into the store at argv[1], printing the time it took once it is done.
CHILD = """
import sys, time
from matchstate.store import Store
begun = time.perf_counter()
with open(sys.argv[2]) as lines:
    Store(sys.argv[1]).import_log(lines)
print(time.perf_counter() - begun, flush=True)
"""


def test_live_appends_go_on_beside_a_long_import(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Between two batches an import holds no transaction and no lock: held there (its seam), live appends to
    another match are made, as many as one likes; one transaction for the whole import would hold them all."""
    live = match_log("live", 40)
    store.create_match(live[0])
    midway, resume = threading.Event(), threading.Event()

    def held(events: int, leaves: int = 0) -> None:
        if events == 2 * BATCH:
            midway.set()
            assert resume.wait(300)

    monkeypatch.setattr(importing, "hand_on", held)
    imported = []
    importer = threading.Thread(target=lambda: imported.append(
        store.import_log([json.dumps(event) for event in match_log("big", 40 * BATCH)])))
    importer.start()
    assert midway.wait(300), "the import never reached its second batch"
    for seq in range(1, len(live)):
        store.append("live", live[seq], expected_seq=seq)
    resume.set()
    importer.join(300)
    assert imported == [("big", 40 * BATCH)]
    assert [summary.code for summary in store.summaries()] == ["live", "big"] and store.verify() == []


def test_an_import_killed_midway_leaves_nothing_visible(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    path.write_text("".join(json.dumps(event) + "\n" for event in match_log("big", 200 * BATCH)))
    importer = subprocess.Popen([sys.executable, "-c", CHILD, url_of(store), str(path)], stdout=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while row_counts(store)["events"] < 3 * BATCH and time.monotonic() < deadline:
        time.sleep(0.05)
    importer.send_signal(signal.SIGKILL)
    importer.wait()
    assert importer.returncode == -signal.SIGKILL, "the import ended before it was killed"
    assert row_counts(store)["events"] >= 3 * BATCH  # batches were written...

    assert store.summaries() == [] and store.verify() == []  # ...and none of it is visible
    assert store.removals() == []
    small = [json.dumps(event) for event in match_log("big", 5)]
    assert Store(url_of(store)).import_log(small) == ("big", 5)  # the code is free; the dead import is young
    assert row_counts(store)["events"] > 5
    later = Store(url_of(store), clock=lambda: store.clock() + STALE + timedelta(minutes=1))
    later.import_log([json.dumps(event) for event in match_log("other", 3)])  # removes the dead import
    assert row_counts(store)["events"] == 5 + 3
    assert [summary.code for summary in store.summaries()] == ["big", "other"] and store.verify() == []
    later.close()


def test_a_finished_match_marked_importing_behind_the_stores_back_is_never_removed_as_a_dead_import(
        store: Store) -> None:
    store.import_log([json.dumps(event) for event in match_log("kept", 7)])
    with store.database.transaction(write=True) as connection:  # the column no seal covers
        connection.execute(update(MatchRow).values(importing=store.clock() - STALE - timedelta(days=1)))
    later = Store(url_of(store), clock=lambda: store.clock() + STALE + timedelta(minutes=1))
    later.import_log([json.dumps(event) for event in match_log("other", 3)])  # removes dead imports, no other
    assert row_counts(store)["events"] == 7 + 3
    later.close()


def test_an_import_and_a_create_of_one_code_one_wins(store: Store) -> None:
    lines = [json.dumps(event) for event in match_log("m-1", 5 * BATCH)]
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(Store(url_of(store)).import_log(lines))
        except DuplicateMatch as err:
            outcome.append(err)

    thread = threading.Thread(target=run)
    thread.start()
    while row_counts(store)["matches"] == 0 and thread.is_alive():
        time.sleep(0.01)
    created = None
    with contextlib.suppress(DuplicateMatch):
        created = store.create_match(match_log("m-1", 1)[0])
    thread.join(timeout=120)
    assert (created is None) != isinstance(outcome[0], DuplicateMatch)
    assert [summary.code for summary in store.summaries()] == ["m-1"] and store.verify() == []
