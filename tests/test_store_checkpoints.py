"""The engine cache by memory, and the stored checkpoints a cold engine resumes from: a resumed match rules every
event as the full replay does, a tampered or stale checkpoint is ignored (the match is replayed), the cache keeps
to its budget, and verify reads the log, never a checkpoint."""

from __future__ import annotations

import json
import random
import statistics
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from conftest import match_log, stamp
from sqlalchemy import select, text, update
from test_store_schema import differences, migrate

from matchstate import IllegalEvent, Match
from matchstate.log import parse_line
from matchstate.models import CheckpointRow
from matchstate.store import Store
from matchstate.store import cache as engine_cache
from matchstate.store.checkpoints import decode, encode

sys.path.insert(0, str(Path(__file__).parents[1] / "scripts"))
from season import season

SEASON = season(matches=40, seed=36)
LONG = 700  # events: a stored checkpoint at 256 events or more


def given(match: Match) -> list[Any]:
    """Everything a match gave for its events and where it stands, as a device reads it."""
    rulings = [ruling.to_json() if ruling else None for ruling in match.rulings]
    return [rulings, match.flags, match.clocks, match.state, match.score, match.free_hit, match.play_at,
            match.options, match.waiting, match.void, match.accepted_types(), match.clock_json(), match.winner]


def replayed(events: list[Any]) -> Match:
    match = Match()
    for event in events:
        match.feed(event)
    return match


def void(seq: int, at: str) -> dict[str, Any]:
    return {"type": "void", "at": at, "seq": seq, "reason": "the umpire overruled it"}


def head(store: Store, code: str) -> engine_cache.Head:
    return store._cache._heads[code]


def long_match(store: Store, code: str = "long") -> list[dict[str, Any]]:
    """A long match imported, then one append (which stores its checkpoint); its log."""
    log = match_log(code, LONG + 1)
    store.import_log(json.dumps(event) for event in log[:-1])
    store.append(code, log[-1])
    return log


def reopened(store: Store) -> Store:
    """The same database through a new Store: a server restarted, its cache empty."""
    store.close()
    return Store(str(store.url.render_as_string(hide_password=False)))


# -- the engine ----------------------------------------------------------------------------------------

def test_a_match_resumed_from_its_checkpoint_gives_what_the_full_replay_gives_on_a_season() -> None:
    rng = random.Random(11)
    for lines in SEASON:
        events = [parse_line(line) for line in lines]
        whole = replayed(events)
        cut = rng.randrange(1, len(events) + 1)
        checkpoint = replayed(events[:cut]).checkpoint()
        resumed = Match.resume(events[0], decode(encode(checkpoint)))
        resumed.earlier = lambda events=events, cut=cut: replayed(events[:cut])  # a void before the checkpoint
        for event in events[cut:]:
            resumed.feed(event)
        tail = cut - len(events)  # the events the resumed match holds, from the end
        assert resumed.seq == whole.seq and resumed.last_at == whole.last_at
        held = given(resumed)
        if resumed.first > 1:
            expected = given(whole)
            assert [part[tail:] if tail else [] for part in expected[:3]] == held[:3]
            assert expected[3:] == held[3:]
        else:  # a void reached before the checkpoint: the whole match was replayed
            assert given(whole) == held


def test_a_match_that_holds_its_last_events_voids_an_older_one_through_the_whole_replay() -> None:
    events = match_log("m-1", LONG)
    match = replayed(events)
    match.keep_last(256)
    assert 256 <= len(match.events) < 512 and match.first == 257
    match.earlier = lambda: replayed(events)
    struck = void(5, events[-1]["at"])  # a goal: the score goes down by one
    match.feed(struck)
    assert given(match) == given(replayed([*events, struck]))
    assert match.first == 1


def test_a_blob_is_rebuilt_into_the_engines_own_values_alone() -> None:
    found = json.loads(encode(replayed([parse_line(line) for line in SEASON[0]]).checkpoint()))
    found["play"]["free_hit"] = {"Store": {"url": "sqlite://"}}
    with pytest.raises(KeyError):
        decode(json.dumps(found).encode())


# -- the store ---------------------------------------------------------------------------------------------

def test_a_cold_append_after_a_restart_resumes_from_the_stored_checkpoint(store: Store) -> None:
    log = long_match(store)
    with store.engine.connect() as connection:
        assert connection.execute(select(CheckpointRow.seq)).scalar() == LONG
    store = reopened(store)
    event = {"type": "penalty.award", "at": stamp(10_000_000), "penalty": "4", "to": "Blue", "id": "after"}
    appended = store.append("long", event)
    assert head(store, "long").match.first == LONG + 1  # resumed, not replayed from seq 1
    expected = replayed([*log, event])
    assert appended.match.score == expected.score and appended.match.state == expected.state
    assert appended.event.ruling == (expected.rulings[-1].to_json() if expected.rulings[-1] else None)
    assert store.verify() == []
    store.close()


def test_the_first_append_after_an_import_resumes_from_the_checkpoint_the_import_stored(store: Store) -> None:
    log = match_log("imported", LONG + 1)
    store.import_log(json.dumps(event) for event in log[:-1])
    with store.engine.connect() as connection:
        assert connection.execute(select(CheckpointRow.seq)).scalar() == LONG
    store = reopened(store)  # another server, or this one restarted: no engine cached
    appended = store.append("imported", log[-1])
    assert head(store, "imported").match.first == LONG + 1  # resumed, not replayed from seq 1
    assert appended.match.score == replayed(log).score and store.verify() == []
    store.close()


def test_a_void_before_the_checkpoint_after_a_restart_is_ruled_as_the_full_replay_rules_it(store: Store) -> None:
    log = long_match(store)
    store = reopened(store)
    struck = void(5, log[-1]["at"])
    appended = store.append("long", struck)
    assert appended.match.score == replayed([*log, struck]).score
    store = reopened(store)
    with pytest.raises(IllegalEvent, match="without seq 6, seq 7 is refused"):
        store.append("long", void(6, log[-1]["at"]))
    assert store.verify() == []
    store.close()


@pytest.mark.parametrize("spoil", ["blob", "engine_version", "seq"])
def test_a_tampered_or_stale_checkpoint_is_ignored_and_the_match_replayed(store: Store, spoil: str) -> None:
    log = long_match(store)
    with store.engine.begin() as connection:
        row = connection.execute(select(CheckpointRow.blob, CheckpointRow.seq)).one()
        found = json.loads(row.blob)
        found["play"]["score"] = {"dict": [["Blue", 0], ["Red", 99]]}
        spoilt: dict[str, dict[str, Any]] = {"blob": {"blob": json.dumps(found).encode()},
                                             "engine_version": {"engine_version": "0.0.1"}, "seq": {"seq": row.seq - 4}}
        changes = spoilt[spoil]
        connection.execute(update(CheckpointRow).values(**changes))
    store = reopened(store)
    event = {"type": "penalty.award", "at": stamp(10_000_000), "penalty": "4", "to": "Blue", "id": "after"}
    appended = store.append("long", event)
    assert head(store, "long").match.first != LONG + 1  # not resumed: replayed from its start
    with store.engine.connect() as connection:  # and a checkpoint of its own stored in the spoilt one's place
        assert connection.execute(select(CheckpointRow.seq, CheckpointRow.engine_version)).one() == (
            LONG + 1, store.engine_version)
    assert appended.match.score == replayed([*log, event]).score
    assert store.verify() == []  # a checkpoint is no record: verify reads the log
    store.close()


def test_a_store_of_another_engine_version_ignores_the_checkpoints_of_this_one(store: Store) -> None:
    long_match(store)
    other = Store(str(store.url.render_as_string(hide_password=False)), engine_version="9.9.9")
    other.match("long")
    assert head(other, "long").match.first != LONG + 1
    other.close()


def test_appends_across_restarts_rule_as_a_full_replay_over_a_season(store: Store,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event of a season's matches appended, the server restarted at random, checkpoints stored every 16
    events: each stored ruling, state, clock and flags are the full replay's, and verify finds nothing."""
    monkeypatch.setattr(engine_cache, "STORED_EVERY", 16)
    rng = random.Random(2026)
    logs = SEASON[:6]
    url = str(store.url.render_as_string(hide_password=False))
    for lines in logs:
        store.import_log(lines[:len(lines) // 2])
    resumed = 0
    for turn in range(max(map(len, logs))):
        if rng.random() < 0.1:
            store = reopened(store)
        for lines in logs:
            seq = len(lines) // 2 + turn + 1
            if seq > len(lines):
                continue
            code = parse_line(lines[0])["match"]
            cold = code not in store._cache
            stored = store.append(code, lines[seq - 1]).event
            resumed += cold and head(store, code).match.first > 1
            expected = replayed([parse_line(line) for line in lines[:seq]])
            ruling = expected.rulings[-1]
            assert (stored.ruling, stored.state, stored.clock, stored.flags) == (
                ruling.to_json() if ruling else None, expected.state, expected.clock_after(seq),
                list(expected.flags[-1])), f"{code} seq {seq}"
    assert resumed > 0
    assert Store(url).verify() == []
    store.close()


# -- the budget --------------------------------------------------------------------------------------------

def test_the_cache_keeps_to_its_memory_budget_evicting_the_least_recently_used(store_url: str) -> None:
    budget = 3 * (engine_cache.MATCH_BYTES + engine_cache.EVENT_BYTES * 20)
    store = Store(store_url, cache_bytes=budget)
    store.upgrade()
    for number in range(5):
        store.import_log(json.dumps(event) for event in match_log(f"m-{number}", 20))
    assert store._cache.nbytes <= budget and list(store._cache._heads) == ["m-2", "m-3", "m-4"]
    store.import_log(json.dumps(event) for event in match_log("long-1", 40))  # takes the room of two
    assert store._cache.nbytes <= budget and list(store._cache._heads) == ["m-4", "long-1"]
    store.match("m-0")
    assert list(store._cache._heads) == ["long-1", "m-0"]
    store.close()


def test_the_memory_estimate_is_near_what_an_engine_takes() -> None:
    ratios = []
    for lines in SEASON[:20]:
        events = [parse_line(line) for line in lines]
        tracemalloc.start()
        match = replayed(events)
        taken = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        estimate = engine_cache.Head(1, match).estimate()
        ratios.append(estimate / taken)
    assert 0.67 < statistics.median(ratios) < 1.5


# -- the migration -----------------------------------------------------------------------------------------

def test_migration_0006_goes_down_and_up_again_and_checkpoints_come_back(store: Store) -> None:
    long_match(store)
    migrate(store, command.downgrade, "0005", "allow-drop=yes")  # past the league log; a checkpoint is no record
    with store.engine.connect() as connection:
        assert "checkpoints" not in store.engine.dialect.get_table_names(connection)
        assert connection.execute(text("SELECT count(*) FROM events")).scalar() == LONG + 1
    store.upgrade()
    assert differences(store) == []
    store = reopened(store)
    store.append("long", {"type": "penalty.award", "at": stamp(10_000_000), "penalty": "4", "to": "Blue"})
    with store.engine.connect() as connection:
        assert connection.execute(select(CheckpointRow.seq)).scalar() == LONG + 1
    assert store.verify() == []
    store.close()


def test_serve_takes_the_cache_budget_in_mib_and_refuses_none(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from matchstate.cli import open_store, parser

    assert parser().parse_args(["serve", "--cache-mb", "1.5"]).cache_mb == 1.5
    with pytest.raises(SystemExit):
        parser().parse_args(["serve", "--cache-mb", "0"])
    assert "--cache-mb: must be a number above 0" in capsys.readouterr().err
    monkeypatch.chdir(tmp_path)
    Store().upgrade()
    assert open_store(cache_mb=1.5)._cache.budget == 1.5 * 2**20
    assert open_store()._cache.budget == engine_cache.CACHE_BYTES
