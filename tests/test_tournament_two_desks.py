"""Two desks changing one tournament at the same moment, each through a server of its own on one database (SQLite
and PostgreSQL): each change made on top of the other, or refused in words saying the tournament changed; never
one lost, and never a match stored that no fixture holds."""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import Connection, event, text

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from tournament_helpers import KEYS, new_tournament, team

from matchstate.errors import DuplicateMatch, InvalidQuery, TournamentChanged
from matchstate.store import MatchQuery, Store
from matchstate.tournaments.desk import Desk
from matchstate.tournaments.model import Tournament, tournament_of
from matchstate.web import create_app
from matchstate.web.access import hash_key

LEAGUE = "league-key-of-two-desks"
AUTH = {"Authorization": f"Bearer {LEAGUE}"}
TEAMS = [team(name) for name in ("Blue", "Red", "Gold", "Green")]


@pytest.fixture(params=["one server", "two servers"])
def desks(request: pytest.FixtureRequest, store: Store, store_url: str) -> Iterator[tuple[Desk, Desk]]:
    """Two desks of one tournament drawn as a bracket: through one store (two browsers at one server), or each
    through a store of its own (two servers on one database)."""
    other = Store(store_url) if request.param == "two servers" else store
    first = Desk(store)
    new_tournament(first, "otono", TEAMS)
    first.draw_bracket("otono", "s")
    yield first, Desk(other)
    if other is not store:
        other.close()


def at_once(monkeypatch: pytest.MonkeyPatch, *acts: Callable[[], object]) -> list[object]:
    """Each act in a thread of its own, each having read the tournament before any of them goes on to write it, as
    two desks at the same moment do: what each gave back, or the refusal it raised."""
    barrier = threading.Barrier(len(acts), timeout=10)
    seen = threading.local()
    def read_together(data: Any, *, stored: bool = False) -> Tournament:
        made = tournament_of(data, stored=stored)
        if stored and not getattr(seen, "read", False):  # the first read of each desk: the ones after go on
            seen.read = True
            barrier.wait()
        return made

    done: list[object] = [None] * len(acts)

    def run(n: int, act: Callable[[], object]) -> None:
        try:
            done[n] = act()
        except Exception as err:  # what the desk refused, for the test to say
            done[n] = err

    with monkeypatch.context() as patched:
        patched.setattr("matchstate.tournaments.desk.tournament_of", read_together)
        threads = [threading.Thread(target=run, args=(n, act)) for n, act in enumerate(acts)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)  # only a guard against a hang
        assert not any(thread.is_alive() for thread in threads)
    return done


def when(desk: Desk) -> dict[str, tuple[str, str, str]]:
    return {fixture.id: (fixture.day, fixture.time, fixture.field) for fixture in desk.get("otono").fixtures}


def test_two_desks_scheduling_at_once_keep_both_schedules(desks: tuple[Desk, Desk],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = desks
    done = at_once(monkeypatch, lambda: first.schedule("otono", "Cup-R1-1", "2026-12-05", "15:00", "Cancha 1"),
                   lambda: second.schedule("otono", "Cup-R1-2", "2026-12-05", "17:00", "Cancha 2"))
    assert not [made for made in done if isinstance(made, Exception)]
    scheduled = when(second)
    assert scheduled["Cup-R1-1"] == ("2026-12-05", "15:00", "Cancha 1")
    assert scheduled["Cup-R1-2"] == ("2026-12-05", "17:00", "Cancha 2")
    assert first.opened("otono").version == 4  # made, drawn, and each schedule on top of the other


def test_a_desk_that_changes_the_version_it_shows_is_refused_in_words_once_another_stored_over_it(
        desks: tuple[Desk, Desk], monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = desks
    shown = first.opened("otono").version
    done = at_once(monkeypatch,
                   lambda: first.schedule("otono", "Cup-R1-1", "2026-12-05", "15:00", "Cancha 1", expected=shown),
                   lambda: second.schedule("otono", "Cup-R1-2", "2026-12-05", "17:00", "Cancha 2", expected=shown))
    refused = [made for made in done if isinstance(made, TournamentChanged)]
    assert len(refused) == 1 and refused[0].version == shown + 1
    assert refused[0].worded() == {
        "en": f"the tournament otono changed since you opened it (version {shown}, now {shown + 1}): reload it, then "
              "make your change again",
        "es": f"el torneo otono cambió desde que lo abrió (versión {shown}, ahora {shown + 1}): vuelva a cargarlo y "
              "haga su cambio de nuevo"}
    stood = done.index(next(made for made in done if not isinstance(made, Exception)))
    scheduled = when(first)
    assert scheduled[f"Cup-R1-{stood + 1}"][0] == "2026-12-05"
    assert scheduled[f"Cup-R1-{2 - stood}"] == ("", "", "")  # the refused one changed nothing


def test_a_match_opened_as_another_desk_draws_again_is_held_by_its_fixture_or_never_stored(
        desks: tuple[Desk, Desk], monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = desks
    done = at_once(monkeypatch, lambda: first.open_match("otono", "Cup-R1-1", KEYS),
                   lambda: second.draw_groups("otono", 2, "again"))
    # One stands; the other, made again on top of it, is refused: a draw once a match is opened, or a match for a
    # fixture the new draw has not.
    assert [isinstance(made, InvalidQuery) for made in done].count(True) == 1, done
    held = {fixture.match for fixture in first.get("otono").fixtures if fixture.match}
    assert {summary.code for summary in first.store.summaries(MatchQuery())} == held


def waited_on(connection: Connection) -> None:
    """Until another transaction waits for a lock this one holds (PostgreSQL; SQLite's one writer needs no wait)."""
    if connection.dialect.name != "postgresql":
        return
    deadline = time.monotonic() + 60  # only a guard against a hang
    waiting = text("SELECT count(*) > 0 FROM pg_stat_activity WHERE pg_backend_pid() = ANY(pg_blocking_pids(pid))")
    while True:
        connection.execute(text("SELECT pg_stat_clear_snapshot()"))  # pg_stat_activity is read once a transaction
        if connection.execute(waiting).scalar():
            return
        assert time.monotonic() < deadline, "no transaction came to wait for the tournament's row"
        time.sleep(0.01)


def test_a_correction_of_one_fixtures_match_as_another_desk_opens_the_next_both_stand(
        desks: tuple[Desk, Desk], monkeypatch: pytest.MonkeyPatch) -> None:
    """The correction took the store's acts before the tournament, the opening the tournament before the acts: on
    PostgreSQL each waited for the other until one was ended as a deadlock, answered 503."""
    first, second = desks
    _, code = first.open_match("otono", "Cup-R1-1", KEYS)
    corrected = {**json.loads(first.store.events(code)[0].raw), "venue": "Cancha 2"}
    write, holding = Desk._write, threading.Event()

    def write_and_hold(connection: Connection, tournament: Tournament, version: int) -> Any:
        kept = write(second, connection, tournament, version)  # the opening holds the tournament's row...
        holding.set()
        waited_on(connection)  # ... until the correction waits for it
        return kept

    monkeypatch.setattr(second, "_write", write_and_hold)
    done: list[object] = [None, None]

    def opening() -> None:
        try:
            done[0] = second.open_match("otono", "Cup-R1-2", KEYS)
        except Exception as err:  # what went wrong, for the test to say
            done[0] = err

    def correcting() -> None:
        holding.wait(60)
        try:
            done[1] = first.correct_start(code, corrected, lambda also: first.store.correct_match(
                code, corrected, reason="another venue", by="league", also=also))
        except Exception as err:  # what went wrong, for the test to say
            done[1] = err

    threads = [threading.Thread(target=opening), threading.Thread(target=correcting)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)  # only a guard against a hang
    assert not any(isinstance(made, Exception) for made in done), done
    assert json.loads(first.store.events(code)[0].raw)["venue"] == "Cancha 2"
    held = {fixture.id: fixture.match for fixture in first.get("otono").fixtures}
    assert held["Cup-R1-1"] == code and held["Cup-R1-2"] is not None


def test_the_api_refuses_a_change_from_an_older_version_with_409_and_stores_no_match(store: Store) -> None:
    store.set_league_key(hash_key(LEAGUE))
    with TestClient(create_app(store)) as client:
        body = {"slug": "otono", "name": "Copa de Otoño", "teams": TEAMS}
        assert client.post("/api/tournaments", json=body, headers=AUTH).json()["version"] == 1
        drawn = client.post("/api/tournaments/otono/draw", json={"format": "bracket", "seed": "s"}, headers=AUTH)
        shown = drawn.json()["version"]
        schedule = {"day": "2026-12-05", "time": "15:00"}
        reply = client.put("/api/tournaments/otono/fixtures/Cup-R1-1/schedule", json=schedule, headers=AUTH,
                           params={"expected_version": shown})
        assert reply.status_code == 200 and reply.json()["version"] == shown + 1
        for path in ("match", "import"):  # the other desk, its page made before that schedule
            reply = client.post(f"/api/tournaments/otono/fixtures/Cup-R1-2/{path}", headers=AUTH,
                                params={"expected_version": shown})
            assert reply.status_code == 409, reply.text
            assert reply.json()["version"] == shown + 1
            assert reply.json()["detail"].startswith("the tournament otono changed since you opened it")
        assert store.summaries(MatchQuery()) == []
        opened = client.post("/api/tournaments/otono/fixtures/Cup-R1-2/match", headers=AUTH,
                             params={"expected_version": shown + 1})
        assert opened.status_code == 201 and opened.json()["version"] == shown + 2


@pytest.mark.parametrize("expected", [True, False], ids=["page", "api"])
def test_a_match_whose_fixture_another_desk_changes_as_it_is_stored_is_stored_only_with_the_fixture_holding_it(
        desks: tuple[Desk, Desk], monkeypatch: pytest.MonkeyPatch, expected: bool) -> None:
    """Another desk's change stored between the read of the tournament and the match's own transaction: the match
    is not stored (the page's desk is refused), or is stored on top of that change (the API's, naming no version),
    its fixture holding it; never a match stored that no fixture holds, and the other desk's change kept."""
    first, second = desks
    create = first.store.create_match
    changes: list[object] = []

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        if not changes:
            changes.append(second.schedule("otono", "Cup-R1-2", "2026-12-05", "17:00"))
        return create(*args, **kwargs)

    monkeypatch.setattr(first.store, "create_match", meanwhile)
    shown = first.opened("otono").version
    if expected:
        with pytest.raises(TournamentChanged):
            first.open_match("otono", "Cup-R1-1", KEYS, expected=shown)
    else:
        kept, _ = first.open_match("otono", "Cup-R1-1", KEYS)
        assert kept.version == shown + 2
    held = {fixture.match for fixture in first.get("otono").fixtures if fixture.match}
    assert {summary.code for summary in first.store.summaries(MatchQuery())} == held == (
        set() if expected else {"otono-Cup-R1-1"})
    assert when(first)["Cup-R1-2"][:2] == ("2026-12-05", "17:00")
    assert first.store.verify() == []  # nothing half stored: the league log holds what the matches do


def test_a_result_kept_on_paper_entered_as_another_desk_changes_the_tournament_leaves_no_match(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The import's last transaction, which makes the match whole, is the one in which its fixture takes it: where
    another desk stored the tournament since the page was made, the result is refused and no match is left."""
    store.set_league_key(hash_key(LEAGUE))
    desk = Desk(store)
    new_tournament(desk, "otono", TEAMS)
    desk.draw_bracket("otono", "s")
    shown = desk.opened("otono").version
    imported = store.import_log

    def meanwhile(*args: Any, **kwargs: Any) -> Any:
        desk.schedule("otono", "Cup-R1-2", "2026-12-05", "17:00")
        return imported(*args, **kwargs)

    monkeypatch.setattr(store, "import_log", meanwhile)
    start = {**desk.paper_start("otono", "Cup-R1-1"), "at": "2026-12-05T15:00:00Z", "match": "paper-1"}
    log = [start, {"type": "chukker.start", "chukker": 1, "at": "2026-12-05T15:00:01Z"},
           {"type": "goal", "team": start["teams"][0], "at": "2026-12-05T15:01:00Z"},  # a knockout: never level
           {"type": "chukker.end", "chukker": 1, "at": "2026-12-05T15:07:00Z"},
           {"type": "match.end", "at": "2026-12-05T15:07:01Z"}]
    with TestClient(create_app(store)) as client:
        reply = client.post("/api/tournaments/otono/fixtures/Cup-R1-1/import", headers=AUTH,
                            content="\n".join(json.dumps(event) for event in log),
                            params={"expected_version": shown})
    assert reply.status_code == 409 and reply.json()["version"] == shown + 1, reply.text
    assert store.summaries(MatchQuery()) == [] and store.verify() == []
    assert desk.get("otono").fixture("Cup-R1-1").match is None



@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)  # SQLite's writes take turns: none meet
def test_two_desks_creating_one_slug_at_once_one_is_refused_in_words(store: Store) -> None:
    """Both desks found no tournament of the slug before either stored theirs: the second was a 500."""
    barrier = threading.Barrier(2, timeout=10)

    def inserting_together(_: Any, __: Any, statement: str, *___: Any) -> None:
        if statement.startswith("INSERT INTO tournaments"):
            barrier.wait()

    event.listen(store.engine, "before_cursor_execute", inserting_together)
    done: list[object] = [None, None]

    def create(n: int) -> None:
        try:
            new_tournament(Desk(store), "otono", TEAMS)
        except Exception as refused:  # what the desk refused, for the test to say
            done[n] = refused

    threads = [threading.Thread(target=create, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)  # only a guard against a hang
    event.remove(store.engine, "before_cursor_execute", inserting_together)
    [refusal] = [one for one in done if one is not None]
    assert isinstance(refusal, DuplicateMatch) and "otono" in str(refusal)
    assert Desk(store).get("otono").name == "Copa otono"
