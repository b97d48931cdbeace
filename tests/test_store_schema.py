"""The schema: the migrations build exactly the models, from an empty database, on SQLite and PostgreSQL; an
older database is upgraded without a change to what it recorded; a downgrade that drops records asks first;
concurrent first upgrades take turns."""

import argparse
import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.util import CommandError
from conftest import known, match_log
from sqlalchemy import insert, inspect, text

from matchstate.errors import StoreError
from matchstate.models import Base, HandedEventRow, TimerTickRow
from matchstate.store import MIGRATIONS, Store, hash_key
from matchstate.store.seats import Seats
from matchstate.store.sql import CARDS


def differences(store: Store) -> list[Any]:
    """What ``alembic check`` would find between the database and the models."""
    with store.engine.connect() as connection:
        found: list[Any] = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        return found


def migrate(store: Store, direction: Callable[..., None], revision: str, *x: str) -> None:
    """``alembic upgrade|downgrade REVISION`` with ``-x`` arguments, as the store migrates (Database.migration)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.cmd_opts = argparse.Namespace(x=list(x))
    with store.database.migration() as connection:
        config.attributes["connection"] = connection
        direction(config, revision)


def test_upgrade_from_empty_to_head_builds_the_models(store_url: str) -> None:
    store = Store(store_url)
    assert not store.schema_is_current()
    store.upgrade()
    assert store.schema_is_current()
    assert differences(store) == []
    tables = inspect(store.engine)
    assert {"matches", "events", "rulings", "keys", "acts"} <= set(tables.get_table_names())
    device_ids = {index["name"]: index for index in tables.get_indexes("events")}["uq_events_match_id_device_id"]
    assert device_ids["unique"] and device_ids["column_names"] == ["match_id", "device_id"]
    assert tables.get_pk_constraint("events")["name"] == "pk_events"  # named by the convention, on both engines
    assert {"match_id", "role", "key_hash", "revoked_at"} <= {c["name"] for c in tables.get_columns("keys")}
    assert not {"scorer_key_hash", "official_key_hash"} & {c["name"] for c in tables.get_columns("matches")}
    store.close()


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_rulings_event_is_checked_by_the_primary_key_from_the_first_append(store: Store) -> None:
    """PostgreSQL plans the check of a ruling's foreign key once per connection, often while the events table is
    new: the plan it would keep then reads the event by its primary key, never by the device id's index with a
    filter on seq (which read all of a match's events for each ruling: an import beside live appends slowed
    batch by batch, 0.1 s to 1.9 s over 20,000 events)."""
    log = match_log("plan", 10)
    store.create_match(log[0])
    for event in log[1:]:
        store.append("plan", event)
    with store.engine.connect() as connection:
        connection.execute(text("SET plan_cache_mode = force_generic_plan"))  # the plan a connection keeps
        connection.execute(text("PREPARE check_ruling (int, int) AS SELECT 1 FROM ONLY events x "
                                "WHERE match_id = $1 AND seq = $2 FOR KEY SHARE OF x"))  # as PostgreSQL's check
        plan = "\n".join(connection.execute(text("EXPLAIN EXECUTE check_ruling (1, 1)")).scalars())
    assert "Index Scan using pk_events" in plan and "Filter" not in plan, plan


def test_the_ledgers_read_of_the_cards_is_planned_on_their_index(store: Store) -> None:
    """The discipline ledger finds the cards by a partial index of them (0016), not by reading every match's log
    (half a minute at 10,000 matches, at each console's opening): both databases plan its read on that index (the
    type is a literal in it: a parameter would hide the index from the planner)."""
    sqlite = store.engine.dialect.name == "sqlite"
    cards = str(CARDS.compile(store.engine, compile_kwargs={"literal_binds": True}))
    with store.engine.connect() as connection:
        if not sqlite:
            connection.execute(text("SET enable_seqscan = off"))  # an empty table is read whole however indexed
        plan = "\n".join(str(row[-1]) for row in connection.exec_driver_sql(
            f"EXPLAIN {'QUERY PLAN ' * sqlite}{cards}"))
    assert ("SCAN events USING INDEX ix_events_cards" if sqlite else "Index Scan using ix_events_cards") in plan, plan


def test_a_downgrade_that_drops_records_asks_first(store: Store) -> None:
    store.create_match(match_log("m-1", 1)[0])
    for revision in ("0001", "base"):
        with pytest.raises(CommandError, match="-x allow-drop=yes"):
            migrate(store, command.downgrade, revision)
        assert store.schema_is_current()
        assert [summary.code for summary in store.summaries()] == ["m-1"]


@pytest.mark.parametrize("table", ["handed_events", "timer_ticks"])
def test_a_downgrade_past_0010_asks_before_dropping_an_event_handed_to_the_review_or_a_timers_mark(
        store: Store, table: str) -> None:
    """0010's downgrade dropped the events consoles handed to the review (stored nowhere else) and the timer's
    marks without asking, though the store says a downgrade that drops what it recorded asks first."""
    row = {"handed_events": {"code": "m-1", "event_id": "dev-9", "device": "tablet", "label": "Tablet",
                             "event": {"type": "goal", "team": "Blue"}, "handed_at": datetime.now(UTC)},
           "timer_ticks": {"code": "m-1", "event_id": "dev-9", "device": "tablet", "elapsed": 20.0}}[table]
    model = HandedEventRow if table == "handed_events" else TimerTickRow
    with store.engine.begin() as connection:
        connection.execute(insert(model), [row])
    with pytest.raises(CommandError, match="-x allow-drop=yes"):
        migrate(store, command.downgrade, "0009")
    assert store.schema_is_current()
    with store.engine.connect() as connection:
        assert connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one() == 1
    migrate(store, command.downgrade, "0009", "allow-drop=yes")
    assert table not in inspect(store.engine).get_table_names()


def test_a_downgrade_past_0018_asks_before_dropping_which_handed_events_the_official_set_aside(store: Store) -> None:
    """Without 0018's columns every event handed to the review waits again, those the official set aside too: the
    downgrade goes without asking while none is set aside, and asks first where one is; the events stay handed."""
    seats = Seats(store)
    held = [{"type": "goal", "team": "Green", "at": f"2026-11-29T15:00:0{n}.000Z", "id": f"dev-{n}"} for n in (1, 2)]
    seats.hand("m-1", "tablet", "Tablet", held)
    migrate(store, command.downgrade, "0017")
    store.upgrade()
    assert seats.set_aside("m-1", "dev-1", "laptop", "Computer · Chrome")
    with pytest.raises(CommandError, match="-x allow-drop=yes"):
        migrate(store, command.downgrade, "0017")
    assert store.schema_is_current()
    assert [[item["event"]["id"] for item in items] for items in seats.handed("m-1")] == [["dev-2"], ["dev-1"]]
    migrate(store, command.downgrade, "0017", "allow-drop=yes")
    assert "set_aside_at" not in {column["name"] for column in inspect(store.engine).get_columns("handed_events")}
    store.upgrade()
    assert [[item["event"]["id"] for item in items] for items in seats.handed("m-1")] == [["dev-1", "dev-2"], []]


def test_the_migrations_go_down_and_up_again(store: Store) -> None:
    migrate(store, command.downgrade, "base", "allow-drop=yes")
    assert not store.schema_is_current()
    assert set(inspect(store.engine).get_table_names()) <= {"alembic_version"}
    store.upgrade()
    assert differences(store) == []


def test_an_older_database_is_upgraded_without_a_change_to_what_it_recorded(store: Store) -> None:
    """A store from before keys, acts and seals (revision 0001, its keys in two columns of its matches, no
    secret file) is upgraded: its keys move to the keys table, every match is sealed and its creation and
    keys recorded as acts, and not one event, ruling or hash changes."""
    for code in ("m-1", "m-2"):
        log = match_log(code, 9)
        store.create_match(log[0], keys={"scorer": hash_key(f"{code} scorer"), "official": hash_key(f"{code} off")})
        for event in log[1:]:
            store.append(code, event)
    migrate(store, command.downgrade, "0001", "allow-drop=yes")  # as matchstate 0.1.0 left it
    store.secrets.path.unlink()
    store.secrets.signing_path.unlink()
    with store.engine.connect() as connection:
        recorded = [connection.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2")).all()
                    for table in ("events", "rulings")]
        assert connection.execute(text("SELECT scorer_key_hash FROM matches ORDER BY id")).scalars().all() == [
            hash_key("m-1 scorer"), hash_key("m-2 scorer")]

    older = Store(store.url.render_as_string(hide_password=False))
    league_key = older.upgrade()

    with older.engine.connect() as connection:
        upgraded = [connection.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2")).all()
                    for table in ("events", "rulings")]
        # every column as it was; the columns added since (a ruling's clock and flags) hold nothing for them
        assert [[tuple(row[:len(was[0])]) for row in now] for now, was in zip(upgraded, recorded, strict=True)] == [
            [tuple(row) for row in was] for was in recorded]
        assert all(value is None for row in upgraded[1] for value in row[len(recorded[1][0]):])
        assert connection.execute(text("SELECT act, code, role FROM acts ORDER BY seq")).all() == [
            ("create", "m-1", None), ("issue", "m-1", "scorer"), ("issue", "m-1", "official"),
            ("create", "m-2", None), ("issue", "m-2", "scorer"), ("issue", "m-2", "official"), ("league", None, None)]
    assert older.verify() == []
    assert older.role_of_key("m-2", hash_key("m-2 off")) == "official"
    assert older.role_of_key("m-1", hash_key("m-2 off")) is None
    assert older.role_of_key(None, hash_key(known(league_key))) == "league"
    assert older.upgrade() is None  # once is enough: the league key stays
    older.close()


def test_a_store_sealed_with_a_secret_that_is_gone_is_not_given_a_new_one(store: Store) -> None:
    store.create_match(match_log("m-1", 1)[0])
    store.secrets.path.unlink()
    again = Store(store.url.render_as_string(hide_password=False))
    with pytest.raises(Exception, match=r"secret .* is missing"):
        again.upgrade()
    assert not again.secrets.path.exists()
    again.close()


def test_concurrent_first_upgrades_take_turns(store_url: str) -> None:
    stores = [Store(store_url) for _ in range(3)]
    start = threading.Barrier(len(stores))
    outcomes: list[Any] = []

    def upgrade(store: Store) -> None:
        start.wait()
        try:
            outcomes.append(store.upgrade())
        except Exception as err:  # reported below, from the test's own thread
            outcomes.append(err)

    threads = [threading.Thread(target=upgrade, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    league_keys = [outcome for outcome in outcomes if outcome is not None]
    assert len(outcomes) == 3 and len(league_keys) == 1  # one league key, made by whichever came first
    assert stores[0].schema_is_current() and differences(stores[0]) == []
    assert stores[1].role_of_key(None, hash_key(league_keys[0])) == "league"
    for store in stores:
        store.close()


def test_the_alembic_command_line_asks_first_and_then_goes_down(store: Store) -> None:
    """As a developer runs it, from the repository's alembic.ini (SQLite's foreign keys off while it migrates)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    store.import_log([json.dumps(event) for event in match_log("m-1", 5)])
    env = {**os.environ, "MATCHSTATE_DATABASE_URL": store.url.render_as_string(hide_password=False)}

    def alembic_command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "alembic", *args], cwd=Path(__file__).parent.parent, env=env,
                              capture_output=True, text=True, timeout=120)

    refused = alembic_command("downgrade", "base")
    assert refused.returncode != 0 and "-x allow-drop=yes" in refused.stderr + refused.stdout
    assert [summary.code for summary in store.summaries()] == ["m-1"]
    assert alembic_command("-x", "allow-drop=yes", "downgrade", "0001").returncode == 0
    unsealed = alembic_command("upgrade", "head")  # matches from before seals: only the store can seal them
    assert unsealed.returncode != 0 and "upgrade it with `matchstate db upgrade`" in unsealed.stdout + unsealed.stderr
    store.upgrade()
    assert store.verify() == []
    assert alembic_command("-x", "allow-drop=yes", "downgrade", "base").returncode == 0
    assert set(inspect(store.engine).get_table_names()) <= {"alembic_version"}
    assert alembic_command("upgrade", "head").returncode == 0
    assert differences(store) == []


def test_a_store_whose_acts_were_deleted_is_not_sealed_again(store: Store) -> None:
    store.create_match(match_log("m-1", 1)[0])
    with store.engine.begin() as connection:
        connection.execute(text("DELETE FROM acts"))
    with pytest.raises(StoreError, match="the store has matches but no acts"):
        store.upgrade()
    assert [str(problem) for problem in store.verify()] == [
        "the store: it has matches but no acts: it was never sealed (run `matchstate db upgrade`), or its acts were "
        "all deleted",
        "the store: the league log records 2 acts, 1 to 2 (leaves from 0), which the store no longer holds: acts "
        "were deleted behind the store's back"]
