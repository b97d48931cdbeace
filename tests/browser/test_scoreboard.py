"""The scoreboard as spectators read it: live on a second page as goals and rulings are logged through the
API, the clock running from the events' times and stopping with the whistle, every match in play on one
screen, readable on a TV and a phone with nothing to scroll, and closed on a private server without a key."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from time import monotonic
from typing import Any

import pytest

from browser.browsing import PHONE, create, league_store, post, send, shoot
from matchstate.web.process import ServerProcess

TV = {"width": 1920, "height": 1080}


def open_board(server: ServerProcess, new_page: Any, path: str, viewport: dict[str, int] = TV,
               prepare: Any = None) -> Any:
    page = new_page(viewport=viewport)
    if prepare is not None:
        prepare(page)
    page.goto(server.base + path)
    page.wait_for_selector("#scoreboard.ready")
    return page


def board(page: Any, code: str) -> Any:
    return page.locator(f'.board[data-code="{code}"]')


def sides(page: Any, code: str) -> list[tuple[str, str, str]]:
    return [(board(page, code).locator(f".side-{n} .team").inner_text(),
             board(page, code).locator(f".side-{n} .goals").inner_text(),
             board(page, code).locator(f".side-{n} .hcp").inner_text()) for n in (1, 2)]


def test_the_scoreboard_updates_live_on_a_second_page_when_a_goal_is_logged_through_the_api(
        server: ServerProcess, new_page: Any) -> None:
    keys = create(server, "board-1")
    send(server, "board-1", {"type": "chukker.start", "chukker": 1}, keys["scorer_key"])
    one = open_board(server, new_page, "/matches/board-1/scoreboard", prepare=lambda page: page.clock.install())
    every = open_board(server, new_page, "/scoreboard")
    for page in (one, every):
        page.wait_for_selector("#live.ok")
        assert sides(page, "board-1") == [("Blue", "0", ""), ("Red", "1", "1 on handicap")]
        assert board(page, "board-1").locator(".title").inner_text() == "Copa Las Acacias — Semifinal · Cancha 2, Pilar"
        assert board(page, "board-1").locator(".chukker").inner_text() == "Chukker 1"
        assert board(page, "board-1").locator(".last").inner_text() == "No ruling yet"

    send(server, "board-1", {"type": "goal", "team": "Blue", "player": 3}, keys["scorer_key"])
    for page in (one, every):
        board(page, "board-1").locator(".side-1 .goals >> text=1").wait_for()
    send(server, "board-1", {"type": "penalty.award", "penalty": "2", "to": "Blue"}, keys["official_key"])
    send(server, "board-1", {"type": "hit", "player": 2, "contact": "hit"}, keys["scorer_key"])  # before "Play"
    for page in (one, every):
        board(page, "board-1").locator(".last >> text=Penalty 5.a to Red, 270 yards from goal").wait_for()
    one.click("#lang")
    last = board(one, "board-1").locator(".last").inner_text()
    assert last == "Último fallo: Penal 5.a para Red, a 270 yardas del arco"
    assert board(one, "board-1").locator(".hcp").nth(1).inner_text() == "1 por hándicap"
    one.click("#lang")
    assert one.errors == [] and every.errors == []


def test_the_clock_runs_from_the_events_times_and_stops_with_the_whistle(server: ServerProcess,
                                                                         new_page: Any) -> None:
    keys = create(server, "board-2")
    send(server, "board-2", {"type": "chukker.start", "chukker": 1}, keys["scorer_key"])
    began = monotonic()  # the chukker's start, as near as the test can tell

    def reads_about(time: Any, ahead: float = 0.0) -> None:
        """The clock shows the chukker's 7 minutes less what has run since it began (by the real clock and
        ``ahead`` seconds the page's own was moved on), within the 2 s a render tick and rounding take:
        however slow the machine is, as it reads the time that really went by."""
        left = 420 - (monotonic() - began) - ahead
        shown = sum(int(part) * unit for part, unit in zip(time.inner_text().split(":"), (60, 1), strict=True))
        assert left - 2 <= shown <= left + 2, (time.inner_text(), left)

    page = open_board(server, new_page, "/matches/board-2/scoreboard", prepare=lambda page: page.clock.install())
    time = board(page, "board-2").locator(".time")
    reads_about(time)
    page.clock.fast_forward("02:00")
    page.wait_for_timeout(300)  # the next tick of the page's own clock
    reads_about(time, ahead=120)

    send(server, "board-2", {"type": "whistle"}, keys["scorer_key"])
    whistled = monotonic()
    caption = board(page, "board-2").locator(".caption")
    caption.locator("text=Clock stopped").wait_for()
    stopped = time.inner_text()
    # The whistle's own time: only the play that ran before it.
    began_to_whistle = whistled - began
    shown = sum(int(part) * unit for part, unit in zip(stopped.split(":"), (60, 1), strict=True))
    assert 420 - began_to_whistle - 2 <= shown <= 420 - began_to_whistle + 2, stopped
    page.clock.fast_forward("03:00")
    page.wait_for_timeout(300)
    assert time.inner_text() == stopped
    page.clock.fast_forward("10:00")  # the bell and the horn pass only while the clock runs
    assert caption.inner_text() == "Clock stopped"


def no_scrolling(page: Any) -> None:
    """Nothing scrolls, and nothing is cut off inside a board."""
    sizes = page.evaluate("""() => ({page: [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
                                          innerWidth, innerHeight],
        boards: [...document.querySelectorAll('.board .face > *')].map((part) =>
            [part.className, part.scrollHeight - part.clientHeight, part.scrollWidth - part.clientWidth])})""")
    width, height, inner_width, inner_height = sizes["page"]
    assert width <= inner_width and height <= inner_height, sizes["page"]
    assert all(tall <= 1 and wide <= 1 for _, tall, wide in sizes["boards"]), sizes["boards"]


@pytest.mark.parametrize("viewport", [TV, PHONE], ids=["tv-1920x1080", "phone-390"])
def test_a_scoreboard_reads_across_a_field_on_a_tv_and_fits_a_phone(server: ServerProcess, new_page: Any,
                                                                   viewport: dict[str, int]) -> None:
    keys = create(server, "board-3", teams=["Aguada Norte", "La Palmera Roja"], handicap_goals={"Aguada Norte": 2.5},
                  rosters=None)
    send(server, "board-3", {"type": "chukker.start", "chukker": 1}, keys["scorer_key"])
    send(server, "board-3", {"type": "penalty.award", "penalty": "2", "to": "Aguada Norte"}, keys["official_key"])
    send(server, "board-3", {"type": "hit", "player": 2, "contact": "hit"}, keys["scorer_key"])
    page = open_board(server, new_page, "/matches/board-3/scoreboard", viewport=viewport)
    assert sides(page, "board-3")[0] == ("Aguada Norte", "2½", "2½ on handicap")
    board(page, "board-3").locator(".last >> text=Penalty 5.a").wait_for()
    no_scrolling(page)
    sizes = page.evaluate("""() => Object.fromEntries(['.goals', '.time', '.team', '.last'].map((s) =>
        [s, parseFloat(getComputedStyle(document.querySelector('.board ' + s)).fontSize)]))""")
    large = viewport == TV
    assert sizes[".goals"] >= (250 if large else 80) and sizes[".time"] >= (140 if large else 70), sizes
    assert sizes[".team"] >= (60 if large else 24) and sizes[".last"] >= (40 if large else 20), sizes
    colours = page.evaluate("""() => [getComputedStyle(document.querySelector('.board .goals')).color,
                                      getComputedStyle(document.body).backgroundColor]""")
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]  # white on black
    if large:
        shoot(page, "scoreboard.png", full_page=False)
    assert page.errors == []


def test_the_scoreboard_of_every_match_shows_those_in_play_only_and_fits_a_tv(server: ServerProcess,
                                                                              new_page: Any) -> None:
    for code in ("early", "now-1", "now-2", "now-3", "over"):
        keys = create(server, code)
        if code != "early":
            send(server, code, {"type": "chukker.start", "chukker": 1}, keys["scorer_key"])
        if code == "over":
            send(server, code, {"type": "chukker.end", "chukker": 1}, keys["scorer_key"])
            send(server, code, {"type": "match.end"}, keys["scorer_key"])
    page = open_board(server, new_page, "/scoreboard")
    codes = page.eval_on_selector_all(".board", "boards => boards.map((b) => b.dataset.code)")
    assert sorted(codes) == ["now-1", "now-2", "now-3"]
    no_scrolling(page)
    phone = open_board(server, new_page, "/scoreboard", viewport=PHONE)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # boards one under another
    assert page.errors == [] and phone.errors == []


def test_with_no_match_in_play_the_scoreboard_says_so(server: ServerProcess, new_page: Any) -> None:
    create(server, "not-yet")
    page = open_board(server, new_page, "/scoreboard")
    assert page.inner_text("#message") == "No match is being played now."
    page.click("#lang")
    assert page.inner_text("#message") == "No se juega ningún partido ahora."


def test_on_a_private_server_the_scoreboard_asks_for_a_key(tmp_path: Path, new_page: Any) -> None:
    url = f"sqlite:///{tmp_path / 'private.db'}"
    league_store(url)
    with ServerProcess(url, private=True, log=tmp_path / "server.log") as server:
        keys = create(server, "closed-1")
        post(server, "/api/matches/closed-1/events", {"expected_seq": 1, "event": {
            "type": "chukker.start", "chukker": 1, "at": datetime.now(UTC).isoformat()}}, keys["scorer_key"])
        page = open_board(server, new_page, "/matches/closed-1/scoreboard")
        assert page.is_visible("#keyform") and page.locator(".board").count() == 0
        page.fill("#key", "not-a-key")
        page.click("#keyform button")
        page.wait_for_timeout(300)
        assert page.locator(".board").count() == 0
        page.fill("#key", keys["scorer_key"])
        page.click("#keyform button")
        board(page, "closed-1").wait_for()
        assert page.is_hidden("#keyform")
        every = open_board(server, new_page, "/scoreboard")
        assert every.is_visible("#keyform") and "league" in every.inner_text("#message")


def test_the_scoreboard_shows_a_review_in_progress_and_then_its_outcome_in_both_languages(
        server: ServerProcess, new_page: Any) -> None:
    keys = create(server, "board-review", challenges=1)
    send(server, "board-review", {"type": "chukker.start", "chukker": 1}, keys["scorer_key"])
    send(server, "board-review", {"type": "goal", "team": "Blue", "player": 3}, keys["scorer_key"])
    page = open_board(server, new_page, "/matches/board-review/scoreboard")
    review = board(page, "board-review").locator(".last .review")
    assert review.inner_text() == ""
    send(server, "board-review", {"type": "review.request", "about": 3, "asked_by": "Red"}, keys["official_key"])
    review.locator("text=Review: Goal, Blue #3").wait_for()
    page.click("#lang")
    review.locator("text=Revisión: Gol, Blue #3").wait_for()
    send(server, "board-review", {"type": "review.outcome", "outcome": "overturned"}, keys["official_key"])
    review.locator("text=Revisión: Gol, Blue #3 — revocada").wait_for()
    page.click("#lang")
    assert review.inner_text() == "Review: Goal, Blue #3 — overturned"
    assert page.errors == []
