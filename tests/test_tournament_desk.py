"""The tournament desk on SQLite and PostgreSQL: a 6-team round robin, a 13-team bracket with byes, groups
with a shootout for a place feeding a knockout and a subsidiary final; results flowing by themselves, and a
void of a match.end taking them back; the same seed giving the same draw."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import known
from tournament_helpers import Played, new_tournament, team

from matchstate.errors import DuplicateMatch, InvalidQuery, NotFound
from matchstate.store import Store
from matchstate.tournaments.desk import Desk

SIX = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]
# Each pairing's score, worked by hand into the table below (no handicap goals: equal teams).
SCORES = {("Alpha", "Bravo"): (5, 4), ("Alpha", "Charlie"): (6, 2), ("Alpha", "Delta"): (4, 3),
          ("Alpha", "Echo"): (7, 1), ("Alpha", "Foxtrot"): (3, 2), ("Bravo", "Charlie"): (6, 1),
          ("Bravo", "Delta"): (2, 5), ("Bravo", "Echo"): (4, 3), ("Bravo", "Foxtrot"): (3, 4),
          ("Charlie", "Delta"): (5, 4), ("Charlie", "Echo"): (2, 3), ("Charlie", "Foxtrot"): (6, 2),
          ("Delta", "Echo"): (4, 2), ("Delta", "Foxtrot"): (3, 5), ("Echo", "Foxtrot"): (6, 5)}
# team, wins, goals for, goals against, in the order of wins, net, gross (Bravo and Delta level on all three)
BY_HAND = [("Alpha", 5, 25, 12), ("Bravo", 2, 19, 18), ("Delta", 2, 19, 18), ("Foxtrot", 2, 18, 21),
           ("Charlie", 2, 16, 21), ("Echo", 2, 15, 22)]


@pytest.fixture
def desk(store: Store) -> Desk:
    return Desk(store)


def play_round_robin(desk: Desk, played: Played, slug: str) -> None:
    for fixture in desk.get(slug).fixtures:
        home, away = fixture.home.ref, fixture.away.ref
        goals = SCORES.get((home, away)) or tuple(reversed(SCORES[away, home]))
        played.play(desk, slug, fixture.id, *goals)


def table(desk: Desk, slug: str, group: str = "A") -> list[tuple[Any, ...]]:
    return [(row.team, row.wins, row.goals_for, row.goals_against) for row in desk.progress(slug).tables[group]]


def test_a_six_team_round_robin_is_ranked_as_worked_by_hand(desk: Desk, store: Store) -> None:
    new_tournament(desk, "rr", [team(name) for name in SIX], conditions={"chukkers": 4})
    drawn = desk.draw_groups("rr", 1, seed="2026")
    assert drawn.draw == {"seed": "2026", "algorithm": "matchstate-draw-1", "format": "groups", "groups": 1}
    assert len(drawn.fixtures) == 15 and max(fixture.round for fixture in drawn.fixtures) == 5
    for name in SIX:  # each team once a round
        assert sorted(f.round for f in drawn.fixtures if name in (f.home.ref, f.away.ref)) == [1, 2, 3, 4, 5]
    play_round_robin(desk, Played(store), "rr")
    rows = desk.progress("rr").tables["A"]
    assert table(desk, "rr") == BY_HAND
    assert [row.why["en"] if row.why else None for row in rows] == [
        "ahead of Bravo on wins: 5 against 2",
        "level with Delta on every tie-break: listed in the order of entry",
        "ahead of Foxtrot on net goals: +1 against -3",
        "ahead of Charlie on net goals: -3 against -5",
        "ahead of Echo on net goals: -5 against -7",
        None]
    assert rows[2].why == {"en": "ahead of Foxtrot on net goals: +1 against -3",
                           "es": "delante de Foxtrot por diferencia de goles: +1 contra -3"}
    # Head to head after the defaults: Delta beat Bravo.
    desk.change("rr", {"conditions": {"tiebreaks": ["wins", "net", "gross", "head_to_head"]}})
    rows = desk.progress("rr").tables["A"]
    assert [row.team for row in rows][1:3] == ["Delta", "Bravo"]
    assert known(rows[1].why)["en"] == "ahead of Bravo on the matches between them: 1 won against 0"
    # Gross goals before net: Bravo and Delta (19) ahead of Foxtrot (18), Charlie (16), Echo (15).
    changed = desk.change("rr", {"conditions": {"tiebreaks": ["wins", "gross"]}})
    assert changed.conditions.chukkers == 4  # a change of one condition keeps the others
    rows = desk.progress("rr").tables["A"]
    assert [row.team for row in rows] == ["Alpha", "Bravo", "Delta", "Foxtrot", "Charlie", "Echo"]
    assert known(rows[2].why)["en"] == "ahead of Foxtrot on gross goals: 19 against 18"


def test_a_void_of_a_match_end_takes_its_result_out_of_the_standings(desk: Desk, store: Store) -> None:
    new_tournament(desk, "rr", [team(name) for name in SIX])
    desk.draw_groups("rr", 1, seed="2026")
    played = Played(store)
    play_round_robin(desk, played, "rr")
    fixture = next(f for f in desk.get("rr").fixtures if {f.home.ref, f.away.ref} == {"Alpha", "Bravo"})
    played.void_end(known(fixture.match))
    rows = {row.team: row for row in desk.progress("rr").tables["A"]}
    assert (rows["Alpha"].wins, rows["Alpha"].goals_for, rows["Bravo"].goals_for) == (4, 20, 15)
    assert desk.progress("rr").complete == set()
    played.log(known(fixture.match), "match.end")
    assert table(desk, "rr") == BY_HAND


def test_a_thirteen_team_bracket_gives_the_top_three_seeds_byes(desk: Desk, store: Store) -> None:
    teams = [team(f"T{n:02}", *(n // 4, n // 4, n // 4, n - 3 * (n // 4))) for n in range(1, 14)]
    new_tournament(desk, "ko", teams, conditions={"handicap_max": 16})
    drawn = desk.draw_bracket("ko", seed="abc")
    assert drawn.draw is not None and drawn.draw["seeds"][:3] == ["T13", "T12", "T11"]  # highest total handicap first
    first = [f for f in drawn.fixtures if f.round == 1]
    assert len(first) == 5 and {f.home.ref for f in first} == {"T06", "T07", "T08", "T09", "T10"}
    assert next((f.home.label(), f.away.label()) for f in drawn.fixtures if f.round == 2) == ("T13", "winner:Cup-R1-2")
    played = Played(store)
    progress = desk.progress("ko")
    assert progress.teams["Cup-R2-1"] == ("T13", None)
    code = played.win(desk, "ko", "Cup-R1-2", "T05")  # seed 8 (T06) against seed 9 (T05): the lower seed wins
    start = store.match(code)
    assert start.info["rosters"]["T06"][3]["handicap"] == 3 and start.info["event"] == "Copa ko"
    assert start.info["venue"] == "Pilar" and start.info["chukkers"] == 6
    assert desk.progress("ko").teams["Cup-R2-1"] == ("T13", "T05")
    for round_number in (1, 2, 3, 4):
        for fixture in desk.get("ko").fixtures:
            if fixture.round == round_number and not fixture.match:
                home, _ = desk.progress("ko").teams[fixture.id]
                played.win(desk, "ko", fixture.id, known(home))
    final = desk.progress("ko")
    assert final.games["Cup-R4-1"].winner == "T13"
    # A void of a quarter-final's end takes its winner out of the semi-final, whose match goes stale.
    quarter = desk.get("ko").fixture("Cup-R2-1").match
    played.void_end(known(quarter))
    after = desk.progress("ko")
    assert after.teams["Cup-R3-1"] == (None, "T11") or after.teams["Cup-R3-1"][0] is None
    assert "Cup-R3-1" in after.stale and "Cup-R4-1" in after.stale
    assert "Cup-R4-1" not in after.games


def test_groups_with_a_shootout_for_a_place_feed_a_knockout_and_a_subsidiary_final(desk: Desk, store: Store) -> None:
    names = [f"Team {n}" for n in range(1, 9)]
    new_tournament(desk, "qc", [team(name) for name in names],
                   conditions={"tiebreaks": ["wins", "net", "shootout", "gross"]})
    groups = {g: [f.home.ref for f in desk.draw_groups("qc", 2, seed="queens").fixtures if f.stage == g]
              for g in "AB"}
    drawn = desk.get("qc")
    a = list(dict.fromkeys(ref for f in drawn.fixtures if f.stage == "A" for ref in (f.home.ref, f.away.ref)))
    b = list(dict.fromkeys(ref for f in drawn.fixtures if f.stage == "B" for ref in (f.home.ref, f.away.ref)))
    assert len(a) == len(b) == 4 and set(a) | set(b) == set(names) and groups
    t1, t2, t3, t4 = a
    # Group A, worked by hand: t1 and t3 two wins and +5 each, settled by a shootout; t2 (+2) and t4 (-12)
    # one win each, settled on net goals.
    a_scores = {(t1, t2): (5, 3), (t1, t3): (6, 2), (t4, t1): (4, 3), (t2, t4): (7, 2), (t3, t4): (9, 1),
                (t3, t2): (4, 3)}
    u1, u2, u3, u4 = b
    b_scores = {(u1, u2): (3, 1), (u1, u3): (3, 1), (u1, u4): (3, 1), (u2, u3): (3, 1), (u2, u4): (3, 1),
                (u3, u4): (3, 1)}
    played = Played(store)
    def place(group: str, number: int) -> dict[str, Any]:
        return {"kind": "place", "ref": group, "place": number}

    desk.add_bracket("qc", "Cup", [place("A", 1), place("B", 1), place("A", 2), place("B", 2)])
    desk.add_bracket("qc", "Subsidiary", [place("A", 3), place("B", 3)], subsidiary=True)
    scores = {**a_scores, **b_scores}
    for fixture in desk.get("qc").fixtures:
        if fixture.kind == "group":
            home, away = fixture.home.ref, fixture.away.ref
            goals = scores.get((home, away)) or tuple(reversed(scores[away, home]))
            played.play(desk, "qc", fixture.id, *goals)
    waiting = desk.progress("qc")
    assert "A" not in waiting.complete and "B" in waiting.complete  # A waits on its shootout
    assert waiting.teams["Cup-R1-1"] == (None, u2) and waiting.teams["Cup-R1-2"] == (u1, None)
    with pytest.raises(InvalidQuery, match="does not know both its teams"):
        desk.open_match("qc", "Cup-R1-1", {})
    desk.add_fixtures("qc", [{"id": "A-shootout", "stage": "A", "kind": "shootout", "home": t1, "away": t3}])
    played.play(desk, "qc", "A-shootout", 2, 3)
    settled = desk.progress("qc")
    rows = settled.tables["A"]
    assert [row.team for row in rows] == [t3, t1, t2, t4]
    assert known(rows[0].why)["en"] == f"ahead of {t1} by the shootout between them"
    assert known(rows[2].why)["en"] == f"ahead of {t4} on net goals: +2 against -12"
    assert settled.teams["Cup-R1-1"] == (t3, u2) and settled.teams["Cup-R1-2"] == (u1, t1)
    assert settled.teams["Subsidiary-R1-1"] == (t2, u3)
    assert desk.get("qc").fixture("Subsidiary-R1-1").subsidiary_first_round
    played.win(desk, "qc", "Cup-R1-1", u2)
    played.win(desk, "qc", "Cup-R1-2", t1)
    played.win(desk, "qc", "Cup-R2-1", t1)
    played.win(desk, "qc", "Subsidiary-R1-1", u3)
    done = desk.progress("qc")
    assert done.games["Cup-R2-1"].winner == t1 and done.games["Subsidiary-R1-1"].winner == u3
    # A void of the shootout's end: group A is open again, and the knockout it fed goes stale.
    played.void_end(known(desk.get("qc").fixture("A-shootout").match))
    reopened = desk.progress("qc")
    assert "A" not in reopened.complete and reopened.teams["Cup-R1-1"] == (None, u2)
    assert {"Cup-R1-1", "Cup-R1-2", "Cup-R2-1", "Subsidiary-R1-1"} <= reopened.stale


def test_the_same_seed_gives_the_same_draw(desk: Desk) -> None:
    names = [f"Club {n}" for n in range(1, 11)]
    for slug in ("one", "two", "three"):
        new_tournament(desk, slug, [team(name) for name in names])
    one = desk.draw_groups("one", 2, seed="7 December").fixtures
    two = desk.draw_groups("two", 2, seed="7 December").fixtures
    three = desk.draw_groups("three", 2, seed="8 December").fixtures
    assert one == two and one != three
    assert desk.draw_groups("one", 2, seed="7 December").fixtures == one  # made again before any match


def test_refusals_name_what_is_wrong(desk: Desk, store: Store) -> None:
    new_tournament(desk, "rr", [team(name) for name in SIX])
    with pytest.raises(DuplicateMatch):
        new_tournament(desk, "rr", [])
    with pytest.raises(NotFound) as missing:
        desk.get("nope")
    assert missing.value.words == {"en": "no tournament is called nope", "es": "ningún torneo se llama nope"}
    with pytest.raises(InvalidQuery, match="over the tournament's limit of 22"):
        new_tournament(desk, "high", [team("Big", 8, 8, 8, 8)], conditions={"handicap_max": 22})
    with pytest.raises(InvalidQuery, match="tiebreaks"):
        new_tournament(desk, "odd", [], conditions={"tiebreaks": ["luck"]})
    desk.draw_groups("rr", 1, seed="x")
    with pytest.raises(InvalidQuery, match="YYYY-MM-DD"):
        desk.schedule("rr", "A-1", "tomorrow", "15:00", "1")
    scheduled = desk.schedule("rr", "A-1", "2026-12-05", "15:00", "Field 2").fixture("A-1")
    assert (scheduled.day, scheduled.time, scheduled.field) == ("2026-12-05", "15:00", "Field 2")
    Played(store).play(desk, "rr", "A-1", 1, 0)
    with pytest.raises(InvalidQuery, match="cannot be made again"):
        desk.draw_groups("rr", 1, seed="y")
    with pytest.raises(DuplicateMatch, match="has its match already"):
        desk.open_match("rr", "A-1", {})


def test_what_would_merge_two_records_into_one_is_refused_a_tournaments_name_a_players_and_a_lone_teams_draw(
        desk: Desk, store: Store) -> None:
    """The statistics know a tournament by its matches' event (its name), the ledger a player by team and name:
    two tournaments or two players named alike were counted as one, and a draw of one team said it was made."""
    new_tournament(desk, "copa", [team("Blue"), team("Red")], name="Copa Test")
    with pytest.raises(DuplicateMatch) as taken:
        new_tournament(desk, "t7", [team("Blue"), team("Red")], name="copa  TEST")  # told apart by more than case
    assert str(taken.value).startswith("a tournament is called copa  TEST already (at copa)")
    new_tournament(desk, "lone", [team("Gold")], name="Copa Lone")
    with pytest.raises(DuplicateMatch, match=r"called Copa Lone already \(at lone\)"):
        desk.change("copa", {"name": "Copa Lone"})
    assert desk.change("copa", {"name": "Copa Nueva"}).name == "Copa Nueva"  # no match yet: renamed
    desk.draw_groups("copa", 1, seed="x")
    Played(store).play(desk, "copa", "A-1", 1, 0)
    with pytest.raises(InvalidQuery, match="copa's matches carry its name, Copa Nueva, and copa-A-1 is open already"):
        desk.change("copa", {"name": "Copa Vieja"})
    assert desk.change("copa", {"venue": "Hurlingham"}).name == "Copa Nueva"  # another field: changed as before

    anas = [{"player": 1, "name": "Ana", "handicap": 2}, {"player": 2, "name": " ANA", "handicap": 1}]
    with pytest.raises(InvalidQuery, match="Blue lists two players named Ana: the ledger and the statistics"):
        new_tournament(desk, "anas", [{"name": "Blue", "roster": anas}, team("Red")])
    with pytest.raises(InvalidQuery, match="a draw needs two teams entered at least, not 1"):
        desk.draw_groups("lone", 1, seed="x")
    with pytest.raises(InvalidQuery, match="a draw needs two teams entered at least, not 1"):
        desk.draw_bracket("lone", seed="x")
    assert desk.get("lone").fixtures == ()


def test_a_fixture_whose_match_was_removed_counts_for_no_one_and_takes_a_new_match(desk: Desk, store: Store) -> None:
    """It showed as scheduled, its scoreboard link leading nowhere, and neither the desk's "Open its match" nor its
    result kept on paper offered it again."""
    new_tournament(desk, "gone", [team(name) for name in SIX[:4]])
    desk.draw_groups("gone", 1, seed="x")
    played = Played(store)
    code = played.play(desk, "gone", "A-1", 2, 0)
    home = desk.get("gone").fixture("A-1").home.ref
    assert next(row for row in desk.progress("gone").tables["A"] if row.team == home).wins == 1
    store.remove_match(code, reason="entered under the wrong tournament", by="league")
    now = desk.progress("gone")
    fixture = next(f for f in now.to_json()["fixtures"] if f["id"] == "A-1")
    assert fixture["status"] == "removed" and fixture["score"] is None
    assert next(row for row in now.tables["A"] if row.team == home).wins == 0  # its result counts for no one
    _, again = desk.open_match("gone", "A-1", {})
    assert again == f"{code}~1" and desk.get("gone").fixture("A-1").match == again


def test_teams_level_on_every_tie_break_are_listed_in_their_order_of_entry_as_the_table_says(desk: Desk) -> None:
    """Before any result the table said "listed in the order of entry" beside Tres, Cuatro, Uno, Dos."""
    entered = ["Uno", "Dos", "Tres", "Cuatro"]
    new_tournament(desk, "entry", [team(name) for name in entered])
    desk.draw_groups("entry", 1, seed="1")
    rows = desk.progress("entry").tables["A"]
    assert [row.team for row in rows] == entered
    assert all(row.why is not None and "in the order of entry" in row.why["en"] for row in rows[:-1])


def test_a_kickoff_on_a_field_taken_then_or_for_a_team_playing_then_is_refused(desk: Desk) -> None:
    """Two fixtures on Field 1 at 15:00, or La Dolfina in two fixtures at 15:00, were each scheduled."""
    new_tournament(desk, "busy", [team(name) for name in SIX[:4]])
    desk.draw_groups("busy", 1, seed="x")
    fixtures = desk.get("busy").fixtures
    first = fixtures[0]
    apart = next(f for f in fixtures if {f.home.ref, f.away.ref}.isdisjoint({first.home.ref, first.away.ref}))
    sharing = next(f for f in fixtures if f.id != first.id and first.home.ref in (f.home.ref, f.away.ref))
    desk.schedule("busy", first.id, "2026-12-05", "15:00", "Field 1")
    with pytest.raises(InvalidQuery) as taken:
        desk.schedule("busy", apart.id, "2026-12-05", "15:00", " field 1")
    assert str(taken.value) == (f"Field 1 has fixture {first.id} on 2026-12-05 at 15:00 already: fixture "
                                f"{apart.id} needs another field or time")
    with pytest.raises(InvalidQuery, match=f"{first.home.ref} plays fixture {first.id} on 2026-12-05 at 15:00"):
        desk.schedule("busy", sharing.id, "2026-12-05", "15:00", "Field 2")
    assert desk.schedule("busy", apart.id, "2026-12-05", "15:00", "Field 2").fixture(apart.id).field == "Field 2"
    assert desk.schedule("busy", sharing.id, "2026-12-05", "17:00", "Field 1").fixture(sharing.id).time == "17:00"
    assert desk.schedule("busy", first.id, "2026-12-05", "15:00", "Field 1").fixture(first.id).field == "Field 1"


def test_a_fixtures_match_takes_a_code_of_its_own_where_its_code_is_taken_by_a_match_made_elsewhere(
        desk: Desk, store: Store) -> None:
    """The desk answered "match abierto-A-6 is in the store already" and offered no way on."""
    new_tournament(desk, "taken", [team(name) for name in SIX[:2]])
    desk.draw_groups("taken", 1, seed="x")
    store.create_match({"type": "match.start", "at": "2026-12-01T15:00:00Z", "match": "taken-A-1",
                        "teams": ["Other", "Club"]})
    _, code = desk.open_match("taken", "A-1", {})
    assert code == "taken-A-1~2" and desk.get("taken").fixture("A-1").match == code
    assert list(store.match("taken-A-1").teams) == ["Other", "Club"]  # the other match, as it was
