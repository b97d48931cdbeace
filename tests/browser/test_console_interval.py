"""The interval between chukkers on the console: after a chukker's end, the clock's place counts down the
preset's interval (USPA outdoor: three minutes; halftime five) from the end's `at`, read from the events and
moved on by Playwright's clock (never by waiting), and says when it has run over."""

from __future__ import annotations

from typing import Any

from browser.browsing import Console


def clock_face(page: Any) -> tuple[str, str]:
    face: tuple[str, str] = page.evaluate("""() => {
        const box = document.getElementById('chukker-clock');
        return [box.querySelector('.time').textContent, box.querySelector('.phase').textContent];
    }""")
    return face


def test_the_interval_is_counted_down_from_the_chukkers_end(scorer: Any) -> None:
    console: Console = scorer("interval-1", prepare=lambda page: page.clock.install())
    page = console.page
    console.click("chukker.start")
    console.click("chukker.end")
    console.wait_until_sent()
    page.wait_for_function("document.getElementById('chukker-clock').classList.contains('interval')")
    time, phase = clock_face(page)
    assert phase == "interval" and time in ("3:00", "2:59")
    page.clock.fast_forward("01:00")
    page.wait_for_function("document.querySelector('#chukker-clock .time').textContent <= '2:00'")
    page.clock.fast_forward("02:10")
    page.wait_for_function("document.querySelector('#chukker-clock .phase').textContent === 'interval over'")
    assert clock_face(page)[0].startswith("+0:")
    assert page.errors == []
