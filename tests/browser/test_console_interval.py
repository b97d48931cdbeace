"""The interval between chukkers on the console: after a chukker's end, the clock's place counts down the
preset's interval (USPA outdoor: three minutes; halftime five) from the end's `at`, read from the events and
moved on by Playwright's clock (never by waiting), and says when it has run over; the scoreboard shows it too."""

from __future__ import annotations

from typing import Any

from browser.browsing import Console
from matchstate.web.process import ServerProcess


def clock_face(page: Any) -> tuple[str, str]:
    face: tuple[str, str] = page.evaluate("""() => {
        const box = document.getElementById('chukker-clock');
        return [box.querySelector('.time').textContent, box.querySelector('.running').textContent];
    }""")
    return face


def test_the_interval_is_counted_down_from_the_chukkers_end(server: ServerProcess, scorer: Any,
                                                            new_page: Any) -> None:
    console: Console = scorer("interval-1", prepare=lambda page: page.clock.install())
    page = console.page
    console.click("chukker.start")
    console.click("chukker.end")
    console.wait_until_sent()
    page.wait_for_function("document.getElementById('chukker-clock').classList.contains('interval')")
    time, caption = clock_face(page)
    assert caption == "interval" and time in ("3:00", "2:59")
    board = new_page()
    board.goto(f"{server.base}/matches/interval-1/scoreboard")
    board.wait_for_selector("#scoreboard .caption >> text=interval")
    assert board.inner_text("#scoreboard .time") in ("3:00", "2:59", "2:58")
    assert board.errors == []
    page.clock.fast_forward("01:00")
    page.wait_for_function("document.querySelector('#chukker-clock .time').textContent <= '2:00'")
    page.clock.fast_forward("02:10")
    page.wait_for_function("document.querySelector('#chukker-clock .running').textContent === 'interval over'")
    assert clock_face(page)[0].startswith("+0:")
    assert page.errors == []


def test_no_interval_follows_the_last_chukker_once_the_score_is_not_level(server: ServerProcess, scorer: Any,
                                                                          new_page: Any) -> None:
    """After the last chukker of a two-chukker match, 3-1, the console counted down "2:59 interval", though no
    chukker follows: the match waits for its end. Level, an extra chukker follows, after its interval."""
    console: Console = scorer("interval-last", chukkers=2, prepare=lambda page: page.clock.install())
    page = console.page
    for chukker, goals in ((1, ("Blue", "Blue")), (2, ("Red", "Blue"))):
        console.click("chukker.start")
        for team in goals:
            console.click("goal", team=team)
        console.click("chukker.end")
        console.wait_until_sent()
        if chukker == 1:
            page.wait_for_function("document.getElementById('chukker-clock').classList.contains('interval')")
    page.wait_for_function("document.getElementById('chukker-clock').dataset.phase === 'between'")
    page.wait_for_selector("#score >> text=3")
    assert page.evaluate("document.getElementById('chukker-clock').classList.contains('interval')") is False
    assert clock_face(page)[1] != "interval"
    board = new_page()
    board.goto(f"{server.base}/matches/interval-last/scoreboard")
    board.wait_for_function("(document.querySelector('#scoreboard .caption') || {}).textContent")
    assert "interval" not in board.inner_text("#scoreboard .caption")
    assert page.errors == [] and board.errors == []
