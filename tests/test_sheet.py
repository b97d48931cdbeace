"""The score sheet: goals by handicap as the spec's 1.1 section gives them, the running score by chukker,
the result and winner once the match has ended, who committed each foul, and the lines to sign."""

from __future__ import annotations

import html
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED, hand_log, stored
from starlette.requests import Request

from matchstate.engine import goals_by_handicap as handicap_goals
from matchstate.records.sheet import goals_text, score_sheet
from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.templating import templates


def roster(*handicaps: float) -> list[dict[str, Any]]:
    return [{"player": n, "name": f"P{n}", "handicap": h} for n, h in enumerate(handicaps, 1)]


def start(**fields: object) -> dict[str, Any]:
    return hand_log("h", "2026-03-14", **fields)[0]


@pytest.mark.parametrize(("fields", "goals"), [
    ({"rosters": {BLUE: roster(4, 4, 3, 3), RED: roster(3, 3, 3, 2)}}, {BLUE: 0, RED: 3}),  # 14 v 11, 6 chukkers
    ({"rosters": {BLUE: roster(4, 4, 3, 3), RED: roster(3, 3, 2, 1)}, "chukkers": 4}, {BLUE: 0, RED: 3.5}),  # 3.33
    ({"rosters": {BLUE: roster(2, 2), RED: roster(5, 3)}, "chukkers": 3}, {BLUE: 2, RED: 0}),  # 4 × 3 / 6, whole
    ({"rosters": {BLUE: roster(4, 4, 3, 3), RED: roster(3, 3, 3, 2)}, "handicap_goals": {}}, {BLUE: 0, RED: 0}),
    ({"rosters": {BLUE: roster(4, 4, 3, 3), RED: roster(3, 3, 3, 2)}, "handicap_goals": {BLUE: 1}}, {BLUE: 1, RED: 0}),
    ({"rosters": {BLUE: roster(4, 4, 3, 3), RED: [{"player": 1, "name": "no handicap"}]}}, {BLUE: 0, RED: 0}),
    ({"rosters": {BLUE: roster(4, 4, 3, 3)}}, {BLUE: 0, RED: 0}),  # one team listed: nothing to compare
    ({}, {BLUE: 0, RED: 0}),
])
def test_goals_by_handicap_come_from_the_rosters_unless_given(fields: dict[str, Any], goals: dict[str, Any]) -> None:
    assert handicap_goals(start(**fields)) == goals


def test_a_fraction_is_written_as_a_half() -> None:
    assert [goals_text(goals) for goals in (0, 3, 3.5, 0.5, 12)] == ["0", "3", "3½", "½", "12"]


# Blue 14 v Red 9 over 4 chukkers: Red receives 3½ goals by handicap.
PLAYED = hand_log(
    "sheet-1", "2026-03-14",
    {"type": "chukker.start", "chukker": 1},
    {"type": "goal", "team": BLUE, "player": 1},
    {"type": "goal", "team": BLUE, "player": 2},
    {"type": "chukker.end", "chukker": 1},
    {"type": "chukker.start", "chukker": 2},
    {"type": "penalty.award", "penalty": "5a", "to": RED, "yards_to_goal": 100},
    {"type": "hit", "player": 2, "contact": "hit"},  # Red's no. 2 before Play: Penalty 5.a to Blue
    {"type": "play"}, {"type": "hit", "player": 3, "contact": "hit"}, {"type": "goal", "team": BLUE, "player": 3},
    {"type": "penalty.award", "penalty": "3", "to": RED},
    {"type": "play"}, {"type": "player.play", "team": BLUE, "player": 4, "passed_teammate": False,
                       "ball_travelled": 5, "passed_midfield": False},  # Blue's no. 4 plays early: it waits
    {"type": "hit", "player": 1, "contact": "hit"}, {"type": "ball.out", "over": "sideline"},  # Penalty 2 to Red
    {"type": "chukker.end", "chukker": 2},
    {"type": "chukker.start", "chukker": 3},
    {"type": "goal", "team": RED, "player": 1},
    {"type": "chukker.end", "chukker": 3},
    event="Copa Otoño", venue="Cancha 1", chukkers=4,
    rosters={BLUE: [{"player": n, "name": name, "handicap": 4 if n < 3 else 3}
                    for n, name in enumerate(["Ana", "Beto", "Ciro", "Dani"], 1)],
             RED: [{"player": n, "name": name, "handicap": h}
                   for n, name, h in [(1, "Eva", 3), (2, "Fede", 3), (3, "Gus", 2), (4, "Hugo", 1)]]},
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'sheet.db'}")
    store.upgrade()
    with TestClient(create_app(stored(store, PLAYED))) as client:
        yield client
    store.close()


def rows_of(html: str, heading: str) -> list[list[str]]:
    """The cells of each table row titled ``heading``, one list per team, tags stripped."""
    found = re.findall(rf"<td colspan=\"2\">{heading}</td>(.*?)</tr>", html, flags=re.S)
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]
            for row in found]


def test_the_sheet_shows_goals_by_handicap_and_the_running_score(client: TestClient) -> None:
    sheet = client.get("/matches/sheet-1/sheet").text
    assert "team handicap 14 · goals by handicap 0" in sheet and "team handicap 9 · goals by handicap 3½" in sheet
    assert "from the rosters: Blue 14 − Red 9 = 5, × 4 chukkers ÷ 6 = 3½ to Red" in sheet
    assert rows_of(sheet, "Goals by handicap") == [["", "", "", "", "0"], ["", "", "", "", "3½"]]
    assert rows_of(sheet, "Goals in the chukker") == [["2", "1", "0", "", "3"], ["0", "0", "1", "", "1"]]
    # The running score at the end of each chukker played, handicap goals included; the fourth is not played yet.
    assert rows_of(sheet, "Score after the chukker") == [["2", "3", "3", "", "3"], ["3½", "3½", "4½", "", "4½"]]
    assert "In play, chukker 3: <strong>Blue 3 – Red 4½</strong>" in sheet


def test_the_sheet_says_who_committed_each_foul(client: TestClient) -> None:
    sheet = client.get("/matches/sheet-1/sheet").text
    fouls = re.findall(r"<li>(.*?)</li>", sheet.split('<section class="fouls">')[1].split("</section>")[0])
    assert fouls == ["Chukker 2 · Blue: foul called → Penalty 5.a",  # the umpire's award to Red
                     "Chukker 2 · Red 2 Fede: hit before Play → Penalty 5.a",
                     "Chukker 2 · Blue: foul called → Penalty 3",
                     "Chukker 2 · Blue 4 Dani: early play → Penalty 2"]  # waited for the free hit to close
    assert rows_of(sheet, "Fouls against, by player") == [["", "TT4", "", "", "3"], ["", "2", "", "", "1"]]


def test_the_sheet_has_lines_to_sign(client: TestClient) -> None:
    signatures = client.get("/matches/sheet-1/sheet").text.split('class="signatures"')[1].split("</section>")[0]
    assert re.findall(r'<span class="line"></span>(\w+)', signatures) == [
        "Umpire", "Umpire", "Referee", "Scorer", "Timekeeper"]


def test_the_sheet_prints_the_last_events_receipt_which_the_store_accepts(client: TestClient, tmp_path: Path) -> None:
    """The last event's receipt: the league log's proof of it, printed whole (issue 19), which verify accepts."""
    sheet = client.get("/matches/sheet-1/sheet").text
    printed = re.search(r'event #(\d+), received ([^,]+), whose\s+head is <code>(\w+)</code>.*?kind <code>(\w+)</code>'
                        r'.*?<code class="signature">([^<]+)</code>', sheet, flags=re.S)
    assert printed, "the sheet prints the last receipt"
    seq, received_at, head, leaf, proof = printed.groups()
    store = Store(f"sqlite:///{tmp_path / 'sheet.db'}")
    assert int(seq) == len(PLAYED) and head == store.events("sheet-1")[-1].hash
    receipt = {"match": "sheet-1", "seq": int(seq), "hash": head, "received_at": received_at, "leaf": leaf,
               "proof": html.unescape(proof)}
    report = store.check_receipts([receipt])
    assert report.problems == [] and report.held == 1
    forged = store.check_receipts([{**receipt, "hash": "0" * 64}])
    assert forged.problems
    store.close()


def render(events: list[dict[str, Any]]) -> str:
    """The sheet page for a log that the store cannot hold yet (one with match.end), rendered as the server does."""
    request = Request({"type": "http", "headers": [], "path": "/matches/sheet-1/sheet"})  # no language chosen: English
    return templates.env.get_template("sheet.html").render(request=request, code="sheet-1",
                                                            sheet=score_sheet(events), keyed="")


def test_an_ended_match_shows_its_final_result_and_winner() -> None:
    ended = [*PLAYED, {"type": "chukker.start", "chukker": 4, "at": "2026-03-14T16:00:00Z"},
             {"type": "goal", "team": BLUE, "player": 1, "at": "2026-03-14T16:01:00Z"},
             {"type": "goal", "team": BLUE, "player": 2, "at": "2026-03-14T16:02:00Z"},
             {"type": "chukker.end", "chukker": 4, "at": "2026-03-14T16:03:00Z"},
             {"type": "match.end", "at": "2026-03-14T16:04:00Z"}]
    sheet = score_sheet(ended)
    assert (sheet.status, sheet.winner, sheet.result()) == ("finished", BLUE, "Blue 5 – Red 4½")
    assert "Final result: <strong>Blue 5 – Red 4½</strong> · Blue won" in render(ended)
    overtaken = [*ended[:-2], {"type": "goal", "team": RED, "player": 1, "at": "2026-03-14T16:02:30Z"}, *ended[-2:]]
    assert "Final result: <strong>Blue 5 – Red 5½</strong> · Red won" in render(overtaken)
    reopened = [*ended, {"type": "void", "seq": len(ended), "reason": "not over", "at": "2026-03-14T16:05:00Z"}]
    assert score_sheet(reopened).status == "in_play" and "In play, chukker 4" in render(reopened)


def test_a_tied_match_has_no_winner() -> None:
    log = hand_log("t", "2026-03-14", {"type": "chukker.start", "chukker": 1}, {"type": "goal", "team": RED},
                   {"type": "chukker.end", "chukker": 1}, {"type": "match.end"}, handicap_goals={BLUE: 1})
    assert score_sheet(log).winner is None and "· tied" in render(log)


def test_a_scheduled_match_says_so() -> None:
    log = hand_log("s", "2026-03-14", handicap_goals={RED: 2})
    assert "Scheduled, no chukker started: <strong>Blue 0 – Red 2</strong>" in render(log)


def test_the_sheet_carries_the_officials_record_in_the_language_chosen(tmp_path: Path) -> None:
    """Log format 1.2: each chukker confirmed or queried, the reviews and their outcomes, the challenges left
    (the bundled reviewed-call match: a team's challenge that stood, an umpire's review overturned)."""
    from matchstate import examples
    from matchstate.log import read_lines
    from matchstate.web.templating import LANG_COOKIE

    store = Store(f"sqlite:///{tmp_path / 'reviewed.db'}")
    store.upgrade()
    code, _ = store.import_log(read_lines(examples.path("reviewed-call")))
    with TestClient(create_app(store)) as client:
        english = client.get(f"/matches/{code}/sheet").text
        client.cookies.set(LANG_COOKIE, "es")
        spanish = client.get(f"/matches/{code}/sheet").text
    store.close()
    record = english.split('class="officials"')[1].split("</section>")[0]
    assert "Officials&#39; record" in record or "Officials' record" in record
    assert "Chukker 1 confirmed" in record and "Chukker 2 confirmed" in record
    assert "asked by Cañada Seca: the call stands" in record
    assert "asked by the umpire: overturned" in record
    assert "Challenges left: Los Álamos 1, Cañada Seca 0" in record
    registro = spanish.split('class="officials"')[1].split("</section>")[0]
    assert "Registro de los oficiales" in registro and "Chukker 1 confirmado" in registro
    assert "pedida por el umpire: revocada" in registro


@pytest.mark.parametrize(("header", "chosen"), [
    ("es-AR,es;q=0.9,en;q=0.8", "es"), ("en-US,en;q=0.9,es;q=0.8", "en"), ("fr-FR, es;q=0.3", "es"),
    ("es;q=0, en", "en"), ("fr;q=1, ES-MX;q=0.7, en;q=0.5", "es"), ("en;q=0.4, es;q=0.6", "es"),
    ("es;q=0.5, en;q=0.5", "es"), ("es;q=nope, en", "en"), ("*", "en"), ("fr", "en"), ("", "en"),
])
def test_a_reader_who_has_not_chosen_gets_the_language_their_browser_asks_for_first(header: str, chosen: str) -> None:
    from matchstate.web.templating import asked_lang

    assert asked_lang(header) == chosen


def test_the_server_renders_a_page_in_the_browser_s_language_until_the_reader_chooses(tmp_path: Path) -> None:
    from matchstate.web.templating import LANG_COOKIE

    store = Store(f"sqlite:///{tmp_path / 'asked.db'}")
    store.upgrade()
    code = "asked-1"
    stored(store, hand_log(code, "2026-05-01"))
    with TestClient(create_app(store)) as client:
        asked = client.get(f"/matches/{code}/sheet", headers={"Accept-Language": "es-AR,es;q=0.9"}).text
        client.cookies.set(LANG_COOKIE, "en")
        chosen = client.get(f"/matches/{code}/sheet", headers={"Accept-Language": "es-AR,es;q=0.9"}).text
    store.close()
    assert '<html lang="es">' in asked and '<html lang="en">' in chosen
