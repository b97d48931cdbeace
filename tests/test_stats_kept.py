"""Kept statistics: each match counted once per change of its log and kept in the database, summed for a
season; always equal to a recount of the logs (after appends, a void, a restart, a removal), checked by
``verify`` and rebuilt by ``matchstate stats rebuild``. The season is test_stats.py's, counted by hand there."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from datetime import datetime, timedelta
from typing import Any

import pytest
from alembic import command
from conftest import BLUE, RED, stored
from sqlalchemy import select, update
from test_stats import AGUILAS, CUP, MATCH_A, SEASON, by_player, by_team, goal
from test_store_schema import migrate

from matchstate.models import STAT_LINES, EventRow, MatchRow
from matchstate.records.archive import Archive
from matchstate.records.stats import Scope
from matchstate.store import Store
from matchstate.store.statistics import KeptStatistics

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from matchstate.web import create_app

SCOPES = [Scope.of(), Scope.of(CUP), Scope.of(season="2026"), Scope.of(CUP, "2026"), Scope.of("Liga Verano"),
          Scope.of(season="2026-03-14..2026-06-20")]


def same_as_recount(store: Store) -> None:
    archive = Archive(store)
    for scope in SCOPES:
        kept, recounted = archive.stats(scope).to_json(), archive.recount(scope).to_json()
        assert kept == recounted, scope


def later(log: list[dict[str, Any]], *events: dict[str, Any]) -> list[dict[str, Any]]:
    """``events`` timed five seconds apart after the log's last."""
    last = datetime.fromisoformat(log[-1]["at"].replace("Z", "+00:00"))
    return [{**event, "at": (last + timedelta(seconds=5 * n)).isoformat().replace("+00:00", "Z")}
            for n, event in enumerate(events, 1)]


def test_the_kept_statistics_are_the_recount_of_every_scope(store: Store) -> None:
    stored(store, *SEASON)
    same_as_recount(store)
    assert KeptStatistics(store.database).catch_up() == 0  # each match counted once, and kept


def test_an_append_and_a_void_are_counted_at_the_next_read(store: Store) -> None:
    stored(store, *SEASON)
    kept = KeptStatistics(store.database)
    before = by_team(kept.stats(Scope.of(CUP, "2026")).to_json())[BLUE]["goals"]
    scored = later(MATCH_A, {"type": "chukker.start", "chukker": 3}, goal(BLUE, 1))
    for event in scored:
        store.append("a", event)
    assert by_team(kept.stats(Scope.of(CUP, "2026")).to_json())[BLUE]["goals"] == before + 1
    goal_seq = store.match("a").seq
    store.append("a", later(scored, {"type": "void", "seq": goal_seq, "reason": "no goal"})[-1])
    stats = kept.stats(Scope.of(CUP, "2026")).to_json()
    assert by_team(stats)[BLUE]["goals"] == before  # the void takes the goal back out
    assert by_player(stats)[(BLUE, "Ana")]["field_goals"] == 1
    same_as_recount(store)


def test_a_restart_counts_nothing_again(store: Store, store_url: str) -> None:
    stored(store, *SEASON)
    KeptStatistics(store.database).catch_up()
    again = Store(store_url)
    try:
        assert KeptStatistics(again.database).catch_up() == 0
        assert by_team(Archive(again).stats(Scope.of(CUP)).to_json())[AGUILAS]["goals"] == 3
    finally:
        again.close()


def test_a_removed_match_leaves_the_statistics(store: Store) -> None:
    stored(store, *SEASON)
    kept = KeptStatistics(store.database)
    assert kept.stats(Scope.of("Liga Verano")).matches == 1
    store.remove_match("d", reason="entered twice", by="test")
    assert kept.stats(Scope.of("Liga Verano")).matches == 0
    same_as_recount(store)


def test_verify_finds_kept_statistics_that_are_not_a_recount_and_rebuild_mends_them(store: Store,
                                                                                     store_url: str) -> None:
    stored(store, *SEASON)
    KeptStatistics(store.database).catch_up()
    assert store.verify() == []
    with store.database.transaction(write=True) as connection:
        connection.execute(update(STAT_LINES).where(STAT_LINES.c.team == RED, STAT_LINES.c.player == "")
                           .values(field_goals=STAT_LINES.c.field_goals + 7))
    found = [str(problem) for problem in store.verify()]
    assert found and all("kept statistics are not its log's recount" in text for text in found)
    rebuilt = subprocess.run([sys.executable, "-m", "matchstate", "stats", "rebuild"], capture_output=True,
                             env={**os.environ, "MATCHSTATE_DATABASE_URL": store_url}, timeout=120)
    assert rebuilt.returncode == 0 and b"5 matches counted" in rebuilt.stdout
    assert store.verify() == []
    same_as_recount(store)


def test_the_upgrade_that_counts_matches_from_the_first_chukker_counts_the_kept_lines_again(store: Store) -> None:
    """Match E is opened, not played: kept before 0017, its teams' lines counted it as a match played, which the
    code after it finds no recount of their logs."""
    stored(store, *SEASON)
    KeptStatistics(store.database).catch_up()
    with store.database.transaction(write=True) as connection:  # Red's and Águilas' lines as 0016 kept them
        connection.execute(update(STAT_LINES).where(STAT_LINES.c.team.in_([RED, AGUILAS]), STAT_LINES.c.player == "",
                                                    STAT_LINES.c.match_id == 5).values(matches=1))
    assert store.verify()  # not a recount
    migrate(store, command.stamp, "0016")  # the store as 0016 left it, its lines kept
    migrate(store, command.upgrade, "0017")  # the migration under test alone: the schema after it is the store's
    migrate(store, command.stamp, "head")
    assert store.verify() == []
    same_as_recount(store)
    teams = by_team(Archive(store).stats(Scope.of(CUP, "2026")).to_json())
    assert (teams[BLUE]["matches"], teams[RED]["matches"], teams[AGUILAS]["matches"]) == (2, 1, 1)


@pytest.mark.parametrize("changed", ['{"not json', '{"type": "goal", "team": "Nobody", "at": "2026-03-14T18:00:02Z"}'],
                         ids=["not-json", "a-goal-the-engine-refuses"])
def test_verify_names_a_changed_event_whose_log_does_not_replay_and_still_checks_the_rest(store: Store,
                                                                                          changed: str) -> None:
    stored(store, *SEASON)
    KeptStatistics(store.database).catch_up()
    first, second = MATCH_A[0]["match"], SEASON[1][0]["match"]
    with store.database.transaction(write=True) as connection:
        ids = dict(connection.execute(select(MatchRow.code, MatchRow.id)).all())
        connection.execute(update(EventRow).where(EventRow.match_id == ids[first], EventRow.seq == 3)
                           .values(raw=changed))
        connection.execute(update(STAT_LINES).where(STAT_LINES.c.match_id == ids[second])
                           .values(field_goals=STAT_LINES.c.field_goals + 7))
    found = [(problem.match, problem.seq, problem.what) for problem in store.verify()]
    assert (first, 3) in [(match, seq) for match, seq, _ in found]  # named, not a failure to check
    later = [what for match, _, what in found if match == second]  # checked after it
    assert len(later) == 1 and later[0].startswith("its kept statistics are not its log's recount")


def test_the_players_come_in_pages_and_by_team(store: Store) -> None:
    stored(store, *SEASON)
    kept = KeptStatistics(store.database)
    every = [(line.team, line.player) for line in kept.stats(Scope.of()).players]
    pages, after = [], None
    while True:
        page = kept.page(Scope.of(), after=after, size=3)
        pages.append([(line.team, line.player) for line in page.stats.players])
        assert len(page.stats.teams) == 3  # every team's line on every page
        if page.following is None:
            break
        after = page.following
    assert [player for page in pages for player in page] == every and len(pages) > 2
    reds = kept.page(Scope.of(), team=RED)
    assert [line.player for line in reds.stats.players] == ["Eva", "Fede", "Gus", "Hugo", "No. 2"]
    assert reds.following is None


def test_the_page_and_the_api_by_team(store: Store) -> None:
    with TestClient(create_app(stored(store, *SEASON))) as client:
        red = client.get("/api/stats", params={"team": RED}).json()
        assert {line["team"] for line in red["players"]} == {RED} and len(red["teams"]) == 3
        page = client.get("/stats", params={"team": RED}).text
        assert "Eva" in page and "Ana" not in page
