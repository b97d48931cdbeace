"""Two consoles open on one match, as a club has a spare phone or a second tab: only the console that
called "Play" logs the clock check that ends its 20 seconds. The other, idle, never rules the time run out,
even while the first holds the stroke offline (issue: a Penalty 5.a for the 20 seconds that never
happened)."""

from __future__ import annotations

from typing import Any

from browser.browsing import PHONE, Console, log
from matchstate.web.process import ServerProcess


def test_an_idle_second_console_never_rules_the_twenty_seconds_of_a_stroke_held_offline(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    tablet: Console = scorer("two-1", prepare=lambda page: page.clock.install())
    phone_page = new_page(viewport=PHONE)
    phone_page.clock.install()
    Console(phone_page, "two-1").open(server, tablet.keys["scorer_key"])

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

    # The phone, idle, sees the 20 seconds run out: it says the console that called Play checks the clock,
    # and logs nothing.
    phone_page.clock.fast_forward("00:21")
    phone_page.wait_for_selector("#countdown >> text=the console that called Play logs the clock check")
    assert [row["type"] for row in log(server, "two-1")][-1] == "play"

    # Back online, the tablet's stroke and goal are recorded as they happened: a live ball, then the goal.
    tablet.page.context.set_offline(False)
    tablet.wait_until_sent()
    rows = log(server, "two-1")
    assert [row["type"] for row in rows[-3:]] == ["play", "hit", "goal"]
    assert rows[-2]["ruling"]["kind"] == "live"
    assert "tick" not in [row["type"] for row in rows]
    offline = "net::ERR_INTERNET_DISCONNECTED"  # the tablet's requests while it had no network
    assert [error for error in tablet.page.errors if offline not in error] == [] and phone_page.errors == []


def test_the_console_that_called_play_logs_the_clock_check_and_the_other_does_not(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    tablet: Console = scorer("two-2", prepare=lambda page: page.clock.install())
    phone_page = new_page(viewport=PHONE)
    phone_page.clock.install()
    phone = Console(phone_page, "two-2").open(server, tablet.keys["scorer_key"])
    phone.click("penalty.award", penalty="4", to="Blue")
    phone.click("play")
    phone_page.wait_for_selector(".banner.ok")
    tablet.page.wait_for_selector("#countdown:not(.idle)")

    tablet.page.clock.fast_forward("00:21")
    tablet.page.wait_for_selector("#countdown >> text=the console that called Play logs the clock check")
    assert "tick" not in [row["type"] for row in log(server, "two-2")]
    phone_page.clock.fast_forward("00:21")
    tablet.page.wait_for_selector("#ruling >> text=took more than 20 seconds after “Play” to hit")
    assert [row["type"] for row in log(server, "two-2")].count("tick") == 1


def test_an_idle_console_says_it_is_offline_as_soon_as_its_device_loses_the_network(
        server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("idle-1")
    page = console.page
    page.wait_for_selector(".banner.ok")
    page.context.set_offline(True)  # nothing waits to be sent: only the device knows
    page.wait_for_selector(".banner.offline")
    assert "Online" not in console.status()
    page.context.set_offline(False)
    page.wait_for_selector(".banner.ok")
