"""Statistics for a season or a tournament, against a season of matches written and counted by hand.

The season: Copa Otoño 2026 has matches A, B and E (E scheduled, nothing played); D is another
tournament of 2026, C the Copa Otoño of 2025. Every number asserted below was counted from these
logs by hand, event by event (the comments say where each comes from).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED, hand_log, stored

from matchstate.errors import InvalidQuery
from matchstate.records.search import fold
from matchstate.records.stats import Scope, statistics
from matchstate.records.tally import tally
from matchstate.store import Store
from matchstate.web import create_app

AGUILAS = "Águilas"
CUP = "Copa Otoño"
ROSTERS = {team: [{"player": n, "name": name, "handicap": 4} for n, name in enumerate(names, 1)]
           for team, names in ((BLUE, ["Ana", "Beto", "Ciro", "Dani"]), (RED, ["Eva", "Fede", "Gus", "Hugo"]))}


def goal(team: str, player: int | None = None) -> dict[str, Any]:
    return {"type": "goal", "team": team, **({"player": player} if player else {})}


def hit(player: int, contact: str = "hit") -> dict[str, Any]:
    return {"type": "hit", "player": player, "contact": contact}


PLAY = {"type": "play"}
MATCH_A = hand_log(
    "a", "2026-03-14",
    {"type": "chukker.start", "chukker": 1},
    goal(BLUE, 1),                                                   # Blue field goal: Ana
    {"type": "penalty.award", "penalty": "2", "to": RED},            # Red P2; a foul against Blue (the umpire's)
    PLAY, hit(3), goal(RED, 3),                                      # Gus takes it and scores: P2 converted
    {"type": "chukker.end", "chukker": 1},
    {"type": "chukker.start", "chukker": 2},
    {"type": "penalty.award", "penalty": "3", "to": BLUE},           # Blue P3; a foul against Red
    PLAY, hit(2), {"type": "ball.out", "over": "backline"},          # Beto takes it; out: knock-in to Red
    PLAY, hit(4), goal(BLUE, 4),                                     # Hugo's knock-in; Dani scores: field goal
    {"type": "penalty.award", "penalty": "5a", "to": RED, "yards_to_goal": 100},  # Red P5a; a foul against Blue
    hit(2),                                                          # Fede hits before Play: P5a to Blue, his foul
    PLAY, hit(3), goal(BLUE, 3),                                     # Ciro takes Blue's P5a and scores
    goal(RED, 2), {"type": "void", "seq": 22, "reason": "no goal"},  # a goal struck out: it never counts
    {"type": "chukker.end", "chukker": 2},
    event=CUP, handicap_goals={RED: 1}, rosters=ROSTERS,
)
MATCH_B = hand_log(
    "b", "2026-06-20",
    {"type": "chukker.start", "chukker": 1},
    {"type": "penalty.award", "penalty": "1", "to": AGUILAS},        # Águilas P1: a goal; a foul against Blue
    {"type": "penalty.award", "penalty": "2", "to": BLUE, "card": "yellow"},  # yellow card: Blue P1; Águilas' foul
    {"type": "penalty.award", "penalty": "6", "to": BLUE},           # Blue P6; a foul against Águilas
    PLAY, hit(1, "miss"), goal(AGUILAS, 2),                          # Ana misses (live); Águilas No. 2 scores
    {"type": "knockin.award", "to": BLUE},
    PLAY, hit(4), goal(BLUE, 4),                                     # Dani's knock-in, and his field goal
    {"type": "penalty.award", "penalty": "3", "to": AGUILAS},        # Águilas P3; a foul against Blue
    PLAY, {"type": "player.play", "team": BLUE, "player": 2, "passed_teammate": False, "ball_travelled": 5,
           "passed_midfield": False},                                # Beto plays early: Blue's violation waits
    hit(3), {"type": "ball.out", "over": "sideline"},                # No. 3 takes it; out: the increased P2
    PLAY, hit(1), goal(AGUILAS, 1),                                  # No. 1 takes the P2 and scores
    event=CUP, teams=[BLUE, AGUILAS], rosters={BLUE: ROSTERS[BLUE]},
)
MATCH_C = hand_log("c", "2025-08-10", {"type": "chukker.start", "chukker": 1}, goal(BLUE, 1), event=CUP)
MATCH_D = hand_log("d", "2026-09-05", {"type": "chukker.start", "chukker": 1}, goal(RED, 2), event="Liga Verano")
MATCH_E = hand_log("e", "2026-10-01", event="COPA OTOÑO", teams=[RED, AGUILAS])
SEASON = (MATCH_A, MATCH_B, MATCH_C, MATCH_D, MATCH_E)


def by_team(stats: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {line["team"]: line for line in stats["teams"]}


def by_player(stats: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(line["team"], line["player"]): line for line in stats["players"]}


def penalties(line: dict[str, Any], taken: str = "awarded") -> dict[str, tuple[int, int]]:
    """The penalties a line counts, by number: (awarded or taken, converted), leaving out the zeros."""
    return {p: (n[taken], n["converted"]) for p, n in line["penalties"].items() if n[taken]}


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(stored(store, *SEASON))) as client:
        yield client


def test_the_cup_of_2026_counted_per_team(client: TestClient) -> None:
    stats = client.get("/api/stats", params={"event": "copa otono", "season": "2026"}).json()
    assert stats["scope"] == {"event": "copa otono", "season": "2026"}
    assert (stats["matches"], stats["finished"]) == (3, 0)  # A, B and E; none has ended
    teams = by_team(stats)
    assert set(teams) == {BLUE, RED, AGUILAS}
    blue, red, aguilas = teams[BLUE], teams[RED], teams[AGUILAS]
    # E is opened, its first chukker not started: Red and Águilas have not played it.
    assert (blue["matches"], red["matches"], aguilas["matches"]) == (2, 1, 1)
    # Blue: Ana and Dani in A, Dani in B; Ciro's P5a in A, the yellow card's Penalty 1 in B.
    assert (blue["goals"], blue["field_goals"], blue["penalty_goals"]) == (5, 3, 2)
    assert penalties(blue) == {"1": (1, 1), "3": (1, 0), "5a": (1, 1), "6": (1, 0)}
    assert blue["knockins"] == 1 and blue["fouls_against"] == 5  # A: the P2 and P5a calls; B: P1, P3, Beto's play
    # Red: Gus's P2 (the struck goal does not count; handicap goals are not goals scored).
    assert (red["goals"], red["field_goals"], red["penalty_goals"]) == (1, 0, 1)
    assert penalties(red) == {"2": (1, 1), "5a": (1, 0)}
    assert red["knockins"] == 1 and red["fouls_against"] == 2  # the P3 call, Fede's hit before Play
    # Águilas: the Penalty 1, No. 2's field goal, No. 1's goal from the increased P2.
    assert (aguilas["goals"], aguilas["field_goals"], aguilas["penalty_goals"]) == (3, 1, 2)
    assert penalties(aguilas) == {"1": (1, 1), "2": (1, 1), "3": (1, 0)}
    assert aguilas["knockins"] == 0 and aguilas["fouls_against"] == 2  # the yellow-card P2 call, the P6 call


def test_the_cup_of_2026_counted_per_player(client: TestClient) -> None:
    players = by_player(client.get("/api/stats", params={"event": CUP, "season": "2026"}).json())
    assert set(players) == {(BLUE, name) for name in ("Ana", "Beto", "Ciro", "Dani")} | \
        {(RED, name) for name in ("Eva", "Fede", "Gus", "Hugo")} | {(AGUILAS, f"No. {n}") for n in (1, 2, 3)}
    ana, beto, ciro, dani = (players[BLUE, name] for name in ("Ana", "Beto", "Ciro", "Dani"))
    assert (ana["matches"], ana["field_goals"], penalties(ana, "taken")) == (2, 1, {"6": (1, 0)})
    assert (penalties(beto, "taken"), beto["fouls_against"], beto["goals"]) == ({"3": (1, 0)}, 1, 0)
    assert (ciro["penalty_goals"], penalties(ciro, "taken")) == (1, {"5a": (1, 1)})
    assert (dani["field_goals"], dani["knockins"]) == (2, 1)
    fede, gus, hugo = (players[RED, name] for name in ("Fede", "Gus", "Hugo"))
    assert (fede["goals"], fede["fouls_against"], penalties(fede, "taken")) == (0, 1, {"5a": (1, 0)})
    assert (gus["penalty_goals"], penalties(gus, "taken")) == (1, {"2": (1, 1)})
    assert (hugo["knockins"], hugo["matches"]) == (1, 1)
    assert players[RED, "Eva"] == {**players[RED, "Eva"], "matches": 1, "goals": 0, "fouls_against": 0}
    one, two, three = (players[AGUILAS, f"No. {n}"] for n in (1, 2, 3))
    assert (one["penalty_goals"], penalties(one, "taken")) == (1, {"2": (1, 1)})
    assert (two["field_goals"], three["goals"], penalties(three, "taken")) == (1, 0, {"3": (1, 0)})


def test_a_season_or_a_tournament_alone(client: TestClient) -> None:
    def goals(**scope: str) -> tuple[int, dict[str, int]]:
        stats = client.get("/api/stats", params=scope).json()
        return stats["matches"], {team: line["goals"] for team, line in by_team(stats).items()}

    assert goals(season="2026") == (4, {BLUE: 5, RED: 2, AGUILAS: 3})  # and D's goal for Red
    assert goals(event=CUP) == (4, {BLUE: 6, RED: 1, AGUILAS: 3})  # and C's goal for Blue, in 2025
    assert goals(season="2026-06-01..2026-09-30") == (2, {BLUE: 2, RED: 1, AGUILAS: 3})  # B and D
    assert goals(event="Liga", season="2026") == (0, {})  # a tournament is named whole
    assert goals() == (5, {BLUE: 6, RED: 2, AGUILAS: 3})


def test_the_csv_has_the_same_numbers(client: TestClient) -> None:
    scope = {"event": CUP, "season": "2026"}
    answer = client.get("/api/stats.csv", params=scope)
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"] == 'attachment; filename="stats.csv"'
    rows = list(csv.DictReader(io.StringIO(answer.content.decode("utf-8-sig"), newline="")))
    stats = client.get("/api/stats", params=scope).json()
    teams = {row["team"]: row for row in rows if row["kind"] == "team"}
    players = {(row["team"], row["player"]): row for row in rows if row["kind"] == "player"}
    assert len(rows) == len(stats["teams"]) + len(stats["players"])
    for key, line in [*by_team(stats).items(), *by_player(stats).items()]:
        row = teams[key] if isinstance(key, str) else players[(key[0], key[1])]
        taken = "awarded" if isinstance(key, str) else "taken"
        assert int(row["goals"]) == line["goals"] and int(row["penalty_goals"]) == line["penalty_goals"]
        assert int(row["fouls_against"]) == line["fouls_against"] and int(row["knockins"]) == line["knockins"]
        for p, counted in line["penalties"].items():
            assert (int(row[f"penalty_{p}"]), int(row[f"penalty_{p}_converted"])) == (counted[taken],
                                                                                       counted["converted"])
    assert teams[BLUE]["won"] == "0" and int(teams[BLUE]["penalties"]) == 4
    assert sum(int(row["goals"]) for row in teams.values()) == 9  # a column sums


def test_the_statistics_page_draws_each_chart_with_its_words(client: TestClient) -> None:
    page = client.get("/stats", params={"event": CUP, "season": "2026"})
    assert page.status_code == 200
    text = page.text
    assert text.count("<svg") == 7 and "<script" not in text.split("<main>")[1].split("</main>")[0]
    assert '<title id="goals-teams-title">Goals by team</title>' in text
    assert "Águilas: 1 field, 2 penalty; Blue: 3 field, 2 penalty; Red: 0 field, 1 penalty" in text
    assert 'aria-labelledby="penalties-numbers-title" aria-describedby="penalties-numbers-desc"' in text
    assert '<option selected>Copa Otoño</option>' in text and "<option>Liga Verano</option>" in text
    assert 'href="/api/stats.csv?event=Copa+Oto%C3%B1o&amp;season=2026"' in text


def test_the_tournament_picker_shows_the_one_counted_whatever_the_case_and_accents(client: TestClient) -> None:
    page = client.get("/stats", params={"event": "copa otono"}).text  # its matches write it two ways
    chosen = re.findall(r"<option selected>([^<]*)</option>", page)
    assert len(chosen) == 1 and fold(chosen[0]) == "copa otono" and "<option>Liga Verano</option>" in page
    assert re.findall(r"<option selected>([^<]*)</option>", client.get("/stats", params={"event": " copa otono "}).text
                      ) == chosen  # spaces around it, as the scope reads it
    assert "<option selected>" not in client.get("/stats", params={"event": "  "}).text  # every tournament
    # A tournament no match names is shown as chosen (and counts none), not as "every tournament".
    unknown = client.get("/stats", params={"event": "Copa Nadie"}).text
    assert '<option selected>Copa Nadie</option>' in unknown and '<option value="" selected>' not in unknown


def test_a_season_that_cannot_be_read_is_refused(client: TestClient) -> None:
    for season in ("26", "2026-13-01..2026-12-31", "last year", "0000", "２０２６",
                   "0000-01-01..2026-12-31"):  # year 0 was a 500
        answer = client.get("/api/stats", params={"season": season})
        assert answer.status_code == 400 and "season must be a year" in answer.json()["detail"], season
        page = client.get("/stats", params={"season": season})
        assert page.status_code == 400 and 'role="alert"' in page.text and "season must be a year" in page.text


def test_a_season_that_ends_before_it_starts_is_refused_saying_so(client: TestClient) -> None:
    """It was refused as "season must be a year or a date range", which it is."""
    answer = client.get("/api/stats", params={"season": "2026-09-01..2026-03-01"})
    assert answer.status_code == 400 and answer.json()["words"] == {
        "en": "season '2026-09-01..2026-03-01' ends (2026-03-01) before it starts (2026-09-01): write the earlier "
              "date first",
        "es": "la temporada '2026-09-01..2026-03-01' termina (2026-03-01) antes de empezar (2026-09-01): escriba "
              "primero la fecha anterior"}
    page = client.get("/stats", params={"season": "2026-09-01..2026-03-01"})
    assert page.status_code == 400 and "ends (2026-03-01) before it starts" in page.text


def test_a_private_server_closes_the_statistics(store: Store) -> None:
    with TestClient(create_app(stored(store, MATCH_A), private=True)) as client:
        for path in ("/api/stats", "/api/stats.csv", "/stats"):
            assert client.get(path).status_code == 401, path


def test_a_finished_match_counts_its_winner() -> None:
    ended = [*MATCH_A, {"type": "match.end", "at": "2026-03-14T16:00:00Z"}]
    stats = statistics([tally(ended), tally(MATCH_B)], Scope.of(CUP)).to_json()
    assert (stats["matches"], stats["finished"]) == (2, 1)
    assert {line["team"]: line["won"] for line in stats["teams"]} == {BLUE: 1, RED: 0, AGUILAS: 0}  # 3 – 2


def test_scope_reads_a_year_or_a_date_range() -> None:
    assert Scope.of(season="2026").covers(MATCH_A[0]) and not Scope.of(season="2025").covers(MATCH_A[0])
    assert Scope.of(season="2026-03-14..2026-03-14").covers(MATCH_A[0])
    with pytest.raises(InvalidQuery):
        Scope.of(season="2026-03")


def test_the_stats_command(store: Store, store_url: str) -> None:
    stored(store, *SEASON)

    def run(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-m", "matchstate", "stats", *args], capture_output=True,
                              env={**os.environ, "MATCHSTATE_DATABASE_URL": store_url}, timeout=60)

    scope = ("--event", CUP, "--season", "2026")
    as_json = json.loads(run(*scope, "--format", "json").stdout)
    assert by_team(as_json)[BLUE]["fouls_against"] == 5 and as_json["matches"] == 3
    rows = list(csv.DictReader(io.StringIO(run(*scope, "--format", "csv").stdout.decode("utf-8-sig"))))
    assert {row["team"]: row["goals"] for row in rows if row["kind"] == "team"} == {BLUE: "5", RED: "1", AGUILAS: "3"}
    text = run(*scope).stdout.decode()
    assert "3 matches (0 finished): event Copa Otoño, season 2026" in text
    assert any(line.startswith("Águilas") and line.split()[1:4] == ["1", "3", "1"] for line in text.splitlines())
    refused = run("--season", "soon")
    assert refused.returncode == 2 and b"season must be a year" in refused.stderr


def test_a_match_opened_ahead_is_played_by_no_team_or_player_until_its_first_chukker() -> None:
    opened = hand_log("fixture-3", "2026-05-01", rosters=ROSTERS)  # a tournament's fixture, its match opened ahead
    stats = statistics([tally(opened)], Scope.of()).to_json()
    assert stats["matches"] == 1 and {line["team"]: line["matches"] for line in stats["teams"]} == {BLUE: 0, RED: 0}
    assert {line["matches"] for line in stats["players"]} == {0}
    begun = statistics([tally(hand_log("fixture-3", "2026-05-01", {"type": "chukker.start", "chukker": 1},
                                       rosters=ROSTERS))], Scope.of()).to_json()
    assert {line["matches"] for line in begun["teams"] + begun["players"]} == {1}


def test_the_stats_text_gives_a_long_name_whole_its_numbers_in_their_columns() -> None:
    long = "Valentina Echeverría (Santa Inés del Monte)"
    rosters = {BLUE: [{"player": 1, "name": long, "handicap": 2}], RED: [{"player": 1, "name": "Eva", "handicap": 2}]}
    log = hand_log("long-name", "2026-05-01", {"type": "chukker.start", "chukker": 1}, goal(BLUE, 1), rosters=rosters)
    lines = statistics([tally(log)], Scope.of()).to_text().splitlines()
    row = next(line for line in lines if line.startswith(long))
    head = next(line for line in lines if line.strip().startswith("games"))
    assert row.startswith(f"{long} ({BLUE})") and row.index(" 1 ") < head.index("goals") + len("goals")
    assert len(row) == len(head)  # every column where its heading is
