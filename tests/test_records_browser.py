"""The records in Debian's Chromium, through Playwright, against `matchstate serve` holding the bundled
examples (a season of four matches, in four tournaments): the score sheet of a six-chukker match printed
to PDF fits one A4 page and one US Letter page; on a phone the sheet and the statistics fit the screen; the
statistics narrow to a tournament as asked, and their charts are images a screen reader names; the match
list finds a match by a player's name. With MATCHSTATE_SCREENSHOTS=DIR the statistics are saved there as
stats.png (``scripts/screenshots``)."""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser.browsing import shoot
from sqlalchemy import text

from matchstate.examples import names
from matchstate.examples import path as example_path
from matchstate.log import read_lines
from matchstate.store import Store
from matchstate.web.process import ServerProcess

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]

if not CHROMIUM.exists() or importlib.util.find_spec("playwright") is None:
    _reason = f"{CHROMIUM} or Playwright for Python is missing"
    if os.environ.get("MATCHSTATE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{_reason}, and MATCHSTATE_REQUIRE_BROWSER=1", pytrace=False)
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import Browser, sync_playwright  # noqa: E402

CODE = "acacias-2026-final"  # the bundled full match: six chukkers, 16 goals, 21 fouls
FINAL = "Copa Las Acacias 2026 — Final"  # its tournament


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("sheet")
    url = f"sqlite:///{folder / 'sheet.db'}"
    store = Store(url)
    store.upgrade()
    for name in names():
        store.import_log(read_lines(example_path(name)))
    store.close()
    with ServerProcess(url, log=folder / "server.log") as process:
        yield process


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


def pages(pdf: bytes) -> int:
    """The number of pages of a PDF: its page objects (``/Type /Page``, not the ``/Pages`` tree)."""
    return len(re.findall(rb"/Type\s*/Page\b", pdf))


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_sheet_of_a_six_chukker_match_prints_on_one_page(server: ServerProcess, browser: Browser,
                                                              paper: str) -> None:
    page = browser.new_page()
    page.goto(f"{server.base}/matches/{CODE}/sheet")
    assert page.locator(".sheet .team thead th.c").count() == 2 * 7  # six chukkers and the total, for each team
    pdf = page.pdf(format=paper)
    assert pages(pdf) == 1
    page.emulate_media(media="print")
    assert page.locator(".top").is_hidden()  # the site's header stays off the paper
    page.close()


def test_counting_pages_counts_every_page(browser: Browser) -> None:
    page = browser.new_page()
    page.set_content("".join(f'<div style="height: 270mm">page {n}</div>' for n in range(3)))
    assert pages(page.pdf(format="A4")) == 3
    page.close()


@pytest.mark.parametrize("path", [f"/matches/{CODE}/sheet", "/stats"])
def test_the_records_fit_a_phone(server: ServerProcess, browser: Browser, path: str) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(server.base + path)
    content = page.locator(".sheet, .stats").first
    box = content.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert content.evaluate("node => node.scrollWidth <= node.clientWidth")
    page.close()


def test_each_chart_is_an_image_named_by_its_title(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(f"{server.base}/stats")
    goals = page.get_by_role("img", name="Goals by team")
    assert goals.count() == 1 and goals.is_visible()
    assert "Aguada Norte: 4 field, 5 penalty" in goals.evaluate(
        "node => document.getElementById(node.getAttribute('aria-describedby')).textContent")
    assert page.get_by_role("img").count() == 7
    page.close()


def test_the_statistics_of_a_season_narrow_to_the_tournament_a_record_keeper_picks(server: ServerProcess,
                                                                                    browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/stats?season=2026")

    def teams() -> list[str]:
        return page.locator(".stats table").first.locator("tbody th").all_inner_texts()

    assert page.locator(".stats > p").first.inner_text().startswith("4 matches (2 finished), season 2026.")
    assert teams() == ["Aguada Norte", "Cañada Seca", "El Remanso", "La Palmera Roja", "Los Álamos", "Los Ceibos",
                       "San Jorge", "Santa Inés"]
    shoot(page, "stats.png")
    page.select_option("select[name=event]", FINAL)
    page.click(".stats form button")
    page.wait_for_url("**/stats?event=*")
    assert page.locator(".stats > p").first.inner_text().startswith(f"1 match (1 finished) in {FINAL}, season 2026.")
    assert teams() == ["Aguada Norte", "La Palmera Roja"]
    assert page.input_value("input[name=season]") == "2026"
    page.close()


def test_the_statistics_show_one_teams_players_when_a_record_keeper_picks_it(server: ServerProcess,
                                                                            browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/stats?season=2026")

    def players_teams() -> set[str]:
        return set(page.locator(".stats table").nth(1).locator("tbody td:first-of-type").all_inner_texts())

    assert len(players_teams()) > 1
    assert page.get_by_role("link", name="Next players").count() == 0  # every player fits the first page
    page.locator(".stats-pages").get_by_role("link", name="Los Ceibos").click()
    page.wait_for_url("**/stats?season=2026&team=Los%20Ceibos")
    assert page.get_by_role("heading", name="Players of Los Ceibos").is_visible()
    assert players_teams() == {"Los Ceibos"}
    assert page.locator(".stats table").first.locator("tbody th").count() == 8  # every team's line stays
    page.get_by_role("link", name="every player").click()
    page.wait_for_url("**/stats?season=2026")
    assert len(players_teams()) > 1
    page.close()


def test_the_match_list_finds_a_match_by_a_players_name(server: ServerProcess, browser: Browser) -> None:
    page = browser.new_page()
    page.goto(server.base + "/")
    page.wait_for_selector(f'#matches a:text("{CODE}")')
    page.fill("#search [name=player]", "ARAOZ")
    page.press("#search [name=player]", "Enter")
    page.wait_for_url("**/?*player=ARAOZ*")
    page.wait_for_selector('#matches a:text("primavera-2026-r2-m4")', state="detached")  # the season's others go
    row = page.locator("#matches tr")
    assert row.count() == 1 and "finished · Aguada Norte won" in row.inner_text() and "2026-11-14" in row.inner_text()
    page.fill("#search [name=player]", "Cambiaso")
    page.press("#search [name=player]", "Enter")
    page.wait_for_selector("#matches >> text=No match found.")
    page.fill("#search [name=player]", "")
    page.select_option("#search [name=status]", "finished")  # a change searches at once, with no player
    page.wait_for_selector(f'#matches a:text("{CODE}")')
    states = page.locator("#matches tr td:nth-child(5)").all_inner_texts()
    assert states and all(state.startswith("finished") for state in states)
    page.select_option("#search [name=status]", "scheduled")
    page.wait_for_selector("#matches >> text=No match found.")
    page.close()


def test_the_full_matchs_yellow_card_is_on_its_sheet_and_in_the_statistics(server: ServerProcess,
                                                                           browser: Browser) -> None:
    """Issue 23: cards as records. The bundled final's one card: La Palmera Roja's no. 4, in the fifth chukker."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{server.base}/matches/{CODE}/sheet")
    cards = page.locator(".sheet section.cards")
    assert cards.get_by_role("heading", name="Cards").is_visible()
    assert cards.locator("li").all_inner_texts() == ["Chukker 5 · La Palmera Roja 4 Martín Arregui: yellow card"]
    page.goto(f"{server.base}/stats?event={FINAL}")
    teams = page.locator(".stats table").first
    heads = teams.locator("thead th").all_inner_texts()
    yellow, red = heads.index("Yellow cards"), heads.index("Red cards")
    row = teams.locator("tbody tr", has=page.get_by_role("rowheader", name="La Palmera Roja"))
    cells = row.locator("th, td").all_inner_texts()
    assert (cells[yellow], cells[red]) == ("1", "0")
    assert teams.get_by_role("columnheader", name="Yellow cards").is_visible()
    page.close()


def test_the_match_list_names_a_match_whose_row_cannot_be_read_back(tmp_path: Path, browser: Browser) -> None:
    """One match's row changed behind the store's back (SQLite keeps any text: garbage in its score) emptied the
    list for the whole league; the others are listed, and a line in its place names it, in the page's language."""
    url = f"sqlite:///{tmp_path / 'league.db'}"
    store = Store(url)
    store.upgrade()
    for name in names():
        store.import_log(read_lines(example_path(name)))
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE matches SET score = '{garbled' WHERE code = :code"), {"code": CODE})
    store.close()
    with ServerProcess(url, log=tmp_path / "server.log") as server:
        page = browser.new_page()
        page.goto(server.base + "/")
        line = page.locator(f'#matches [data-unreadable="{CODE}"]')
        line.wait_for()
        assert re.fullmatch(rf"match {CODE} cannot be read back from the store \(.+\): `matchstate verify` says what "
                            "was changed", line.inner_text())
        assert page.locator("#matches tr").count() == len(names())  # the others, each in its row
        page.click("#lang")
        page.wait_for_selector(f'#matches [data-unreadable="{CODE}"] >> text=no se puede leer del almacén')
        page.close()
