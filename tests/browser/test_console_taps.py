"""Fewer taps for the usual case: the console fills in what the match makes likely (a clean hit, the
hitting team's goal) and logs a penalty's place (``from``) only where the log has one, a Penalty 2."""

from __future__ import annotations

from typing import Any

from browser.browsing import Console, log
from matchstate.web.process import ServerProcess


def checked(page: Any, field: str) -> list[str]:
    """The values chosen in a field of the open form."""
    found: list[str] = page.eval_on_selector_all(f'#form [data-field="{field}"] [role="radio"][aria-checked="true"]',
                                                 "nodes => nodes.map((n) => n.dataset.value)")
    return found


def test_a_converted_penalty_2_is_logged_with_the_stroke_and_goal_prefilled(server: ServerProcess,
                                                                          scorer: Any) -> None:
    console: Console = scorer("taps-1")
    page = console.page
    console.click("chukker.start")
    console.click("penalty.award", penalty="2", to="Blue")
    console.click("play")
    console.tap("hit")
    assert checked(page, "contact") == ["hit"]  # a clean hit unless the scorer says otherwise
    page.click('#form [data-field="player"] [data-value="3"]')
    page.click("#send")
    page.wait_for_selector("#ruling >> text=Ball in play")
    console.tap("goal")
    assert checked(page, "team") == ["Blue"]    # the free hit's hitting team
    page.click("#send")
    console.wait_until_sent()
    events = [row["event"] for row in log(server, "taps-1")]
    assert [e["type"] for e in events] == ["match.start", "chukker.start", "penalty.award", "play", "hit", "goal"]
    assert events[2]["from"] == "center"
    assert {k: events[4][k] for k in ("player", "contact")} == {"player": 3, "contact": "hit"}
    assert events[5]["team"] == "Blue"
    assert page.errors == []


def test_a_penalty_other_than_2_is_logged_with_no_place(server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("taps-2")
    page = console.page
    console.tap("penalty.award")
    page.click('#form [data-field="penalty"] [data-value="2"]')
    assert page.locator('#form [data-field="from"]').is_visible()
    page.click('#form [data-field="penalty"] [data-value="4"]')
    assert page.locator('#form [data-field="from"]').is_hidden()  # no place to choose: it has none
    page.click('#form [data-field="to"] [data-value="Red"]')
    page.click("#send")
    console.wait_until_sent()
    award = log(server, "taps-2")[-1]["event"]
    assert (award["type"], award["penalty"], award["to"]) == ("penalty.award", "4", "Red")
    assert "from" not in award
    assert page.errors == []
