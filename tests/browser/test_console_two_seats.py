"""Two consoles open on one match, as a club has a spare phone or a second tab: one holds the scoring seat
and logs the clock check that ends the 20 seconds; the other watches, never rules the time run out, even
while the first holds the stroke offline (issue: a Penalty 5.a for the 20 seconds that never happened),
and takes the seat only with one confirmation that names the holder."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browsing import PHONE, Console, get, log, wait_until
from matchstate.web.process import ServerProcess
from matchstate.words import phrase


def test_an_idle_second_console_never_rules_the_twenty_seconds_of_a_stroke_held_offline(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    tablet: Console = scorer("two-1", prepare=lambda page: page.clock.install())
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")  # the first to open
    phone_page = new_page(viewport=PHONE)
    phone_page.clock.install()
    Console(phone_page, "two-1").open(server, tablet.keys["scorer_key"])
    phone_page.wait_for_selector("#seat >> text=Watching: Computer · Chrome holds the scoring seat")

    tablet.click("penalty.award", penalty="3", to="Blue")
    tablet.click("play")
    tablet.page.wait_for_selector(".banner.ok")
    phone_page.wait_for_selector("#countdown:not(.idle)")

    # The tablet loses the network; 4 s after "Play" the stroke is taken, then a goal: both wait on it.
    tablet.page.context.set_offline(True)
    tablet.page.clock.fast_forward(4000)
    tablet.click("hit", player=3, contact="hit")
    tablet.click("goal", team="Blue")
    assert [event["type"] for event in tablet.outbox()] == ["hit", "goal"]

    # The phone, open and idle, watches: it sees the 20 seconds run out, says the seat logs the clock check,
    # and logs nothing.
    phone_page.clock.fast_forward("00:21")
    phone_page.wait_for_selector("#countdown >> text=the console with the scoring seat logs the clock check")
    assert [row["type"] for row in log(server, "two-1")][-1] == "play"

    # Back online, the tablet (still the seat) sends its stroke and goal as they happened: a live ball, the goal.
    tablet.page.context.set_offline(False)
    tablet.wait_until_sent()
    rows = log(server, "two-1")
    assert [row["type"] for row in rows[-3:]] == ["play", "hit", "goal"]
    assert rows[-2]["ruling"]["kind"] == "live" and rows[-1]["flags"] == []
    assert "tick" not in [row["type"] for row in rows]
    assert not [row for row in rows if (row["ruling"] or {}).get("violation")]  # no false violation
    offline = "net::ERR_INTERNET_DISCONNECTED"  # the tablet's requests while it had no network
    assert [error for error in tablet.page.errors if offline not in error] == [] and phone_page.errors == []


def test_a_tap_on_a_console_that_watches_asks_to_take_the_seat_first_and_logs_nothing_if_not(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    """A console that watched took every tap and held it unsent, said only afterwards: with the holder gone
    silent, everything logged on it waited, and "Send them as they were" was refused once the match moved on."""
    tablet: Console = scorer("watch-tap")
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    phone_page = new_page(viewport=PHONE)
    phone = Console(phone_page, "watch-tap").open(server, tablet.keys["scorer_key"])
    phone_page.wait_for_selector("#seat >> text=Watching: Computer · Chrome holds the scoring seat")
    phone.tap("chukker.start")
    phone_page.wait_for_selector("#ask >> text=Computer · Chrome holds the scoring seat")
    phone.answer("cancel")  # not meant here: nothing is logged, nothing waits
    assert phone.outbox() == [] and [row["type"] for row in log(server, "watch-tap")] == ["match.start"]
    # A form filled in, then sent: asked at its "Log", and cancelled, it is open again as it was, not lost.
    phone.click("goal", team="Red", player=2)
    phone_page.wait_for_selector("#ask >> text=Take the seat and log")
    phone.answer("cancel")
    phone_page.wait_for_selector("#form:not([hidden])")
    assert phone_page.get_attribute('#form [data-field="team"] [data-value="Red"]', "aria-checked") == "true"
    phone_page.click('#form [data-act="cancel"]')
    assert phone.outbox() == []
    phone.tap("chukker.start")
    phone_page.wait_for_selector("#ask >> text=Take the seat and log")
    phone.answer("confirm")
    phone_page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    wait_until(phone_page, "async () => (await (await fetch('/api/matches/watch-tap/events')).json()).length === 2")
    phone.wait_until_sent()
    tablet.page.wait_for_selector("#seat >> text=Watching:")
    assert [row["type"] for row in log(server, "watch-tap")] == ["match.start", "chukker.start"]
    assert tablet.page.errors == [] and phone_page.errors == []


def test_two_consoles_alike_are_told_apart_by_the_scorers_name(server: ServerProcess, scorer: Any,
                                                                 new_page: Any) -> None:
    """Every console was "Tablet · Chrome": asked to take the seat from one, a scorer could not tell whose."""
    tablet: Console = scorer("two-names")
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    tablet.page.click(".settings summary")
    with tablet.page.expect_response(lambda answer: answer.url.endswith("/seat") and answer.ok):
        tablet.page.fill("#by", "Ana")
        tablet.page.press("#by", "Enter")
    phone_page = new_page(viewport=PHONE)
    Console(phone_page, "two-names").open(server, tablet.keys["scorer_key"])
    phone_page.wait_for_selector("#seat >> text=Watching: Computer · Chrome · Ana holds the scoring seat")
    assert tablet.page.errors == [] and phone_page.errors == []


@pytest.mark.parametrize(("language", "watching", "question", "took", "up"), [
    ("en", "Watching: Computer · Chrome holds", "Take the seat from Computer · Chrome, last heard",
     "This console holds the scoring seat", "the console with the scoring seat logs the clock check"),
    ("es", "Mirando: Computadora · Chrome tiene", "¿Tomar el puesto de Computadora · Chrome, con última señal hace",
     "Esta consola tiene el puesto de anotador", "la consola con el puesto de anotador registra el control")])
def test_a_second_console_takes_the_seat_with_one_confirmation_and_only_the_seat_logs_the_clock_check(
        server: ServerProcess, scorer: Any, new_page: Any, language: str, watching: str, question: str, took: str,
        up: str) -> None:
    def prepare(page: Any) -> None:
        page.clock.install()
        page.add_init_script(f"localStorage.setItem('matchstate:lang', '{language}')")

    code = f"two-2-{language}"
    tablet: Console = scorer(code, prepare=prepare)
    tablet.page.wait_for_selector(f"#seat >> text={took}")
    phone_page = new_page(viewport=PHONE)
    prepare(phone_page)
    phone = Console(phone_page, code).open(server, tablet.keys["scorer_key"])
    phone_page.wait_for_selector(f"#seat >> text={watching}")

    phone_page.click('#seat [data-act="take-seat"]')
    asked = phone_page.locator("#ask").inner_text()
    assert question in asked and " s" in asked  # names the device, and when it was last heard from
    phone.answer("confirm")
    phone_page.wait_for_selector(f"#seat >> text={took}")
    tablet.page.clock.fast_forward(6000)  # its next heartbeat: the tablet learns it now watches
    tablet.page.wait_for_selector(f"#seat >> text={watching.split(':')[0]}")

    phone.click("penalty.award", penalty="4", to="Blue")
    phone.click("play")
    phone_page.wait_for_selector(".banner.ok")
    tablet.page.wait_for_selector("#countdown:not(.idle)")
    tablet.page.clock.fast_forward("00:21")
    tablet.page.wait_for_selector(f"#countdown >> text={up}")
    assert "tick" not in [row["type"] for row in log(server, code)]
    phone_page.clock.fast_forward("00:21")
    ruled = phrase("reason", "twenty-seconds", language, against="Blue", seconds=20)
    phone_page.wait_for_selector(f"#ruling >> text={ruled}")
    rows = log(server, code)
    assert [row["type"] for row in rows].count("tick") == 1
    tick = next(row for row in rows if row["type"] == "tick")
    timed = get(server, f"/api/matches/{code}/seat")["timer_ticks"]
    assert list(timed) == [tick["device_id"]] and 20 < timed[tick["device_id"]]["elapsed"] < 22


def test_an_idle_console_says_it_is_offline_as_soon_as_its_device_loses_the_network(
        server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("idle-1")
    page = console.page
    page.wait_for_selector(".banner.ok")
    page.context.set_offline(True)  # nothing waits to be sent: only the device knows
    page.wait_for_selector(".banner.offline", timeout=60_000)
    assert "Online" not in console.status()
    page.context.set_offline(False)
    page.wait_for_selector(".banner.ok")
