"""What the scorer needs on the console's screen: the violation that waits for the free hit to close, a
ruling panel that belongs to the free hit in progress, an official's void shown as a void and the undo
naming what it would take back; on a phone as on a tablet. With MATCHSTATE_SCREENSHOTS=DIR it saves the
phone console (``scripts/screenshots``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser.browsing import PHONE, Console, get, send, shoot
from matchstate.web.process import ServerProcess


def test_the_console_shows_what_waits_the_free_hits_own_ruling_and_an_officials_void(
        server: ServerProcess, scorer: Callable[..., Console]) -> None:
    console = scorer("screen-1", viewport=PHONE)
    page = console.page
    scorer_key, official_key = console.keys["scorer_key"], console.keys["official_key"]
    events: list[dict[str, Any]] = [{"type": "chukker.start", "chukker": 1},
                                    {"type": "penalty.award", "penalty": "2", "to": "Blue"},
                                    {"type": "play"}, {"type": "dribble"}]
    for event in events:
        send(server, "screen-1", event, scorer_key)
    # The dribble's ruling began the free hit in progress, a Penalty 5.a: the panel shows it.
    page.wait_for_selector("#ruling >> text=Penalty 5.a to Red")
    console.click("ball.place")
    console.click("play")
    console.click("position.improper", team="Blue")
    page.wait_for_selector("#waiting >> text=Waiting for the free hit to close: Blue was improperly positioned")
    assert page.inner_text("#chukker-clock .chukker b") == "1"
    shoot(page, "console-phone.png", full_page=False)
    console.click("hit", player=2, contact="hit")
    page.wait_for_selector("#ruling >> text=Ball in play")

    # A new free hit: the panel is its own, with nothing of the one before.
    console.click("penalty.award", penalty="3", to="Blue")
    page.wait_for_selector("#ruling >> text=No ruling yet on this free hit.")
    assert "Ball in play" not in page.inner_text("#ruling")
    page.wait_for_selector('#buttons [data-type="void"] >> text=Undo: Penalty 3, Blue')

    # An official voids the award from the review: the console shows a void, and the undo moves on.
    award = get(server, "/api/matches/screen-1")["seq"]
    send(server, "screen-1", {"type": "void", "seq": award, "reason": "wrong penalty"}, official_key)
    page.wait_for_selector(f"#recent >> text=void of #{award}, by an official")
    assert page.locator("#recent li.struck .tag.void").text_content() == "voided"
    page.wait_for_selector('#buttons [data-type="void"] >> text=Undo: Whistle')  # recorded with the award
    # The page fits the phone.
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    assert page.errors == []


def test_the_ruling_panel_clears_when_its_free_hit_closes_and_reads_in_full_in_one_tap(
        server: ServerProcess, scorer: Callable[..., Console]) -> None:
    console = scorer("screen-2", viewport=PHONE)
    page = console.page
    scorer_key = console.keys["scorer_key"]
    events: list[dict[str, Any]] = [{"type": "chukker.start", "chukker": 1},
                                    {"type": "penalty.award", "penalty": "4", "to": "Blue"},
                                    {"type": "play"}, {"type": "hit", "player": 2, "contact": "hit"}]
    for event in events:
        send(server, "screen-2", event, scorer_key)
    page.wait_for_selector("#ruling >> text=Ball in play")
    # The goal closes the free hit: the panel no longer says the ball is in play.
    console.click("goal", team="Blue")
    page.wait_for_selector("#ruling >> text=Rulings appear here as soon as the server gives them.")
    assert "Ball in play" not in page.inner_text("#ruling")

    # A ruling longer than the panel: the whole of it, with its rule, is one tap away; the panel keeps its size.
    send(server, "screen-2", {"type": "penalty.award", "penalty": "2", "to": "Red", "card": "yellow"}, scorer_key)
    page.wait_for_selector("#ruling .text >> text=Goal to Red")
    panel = page.locator("#ruling").bounding_box()
    buttons = console.boxes()
    page.click("#ruling button.full")
    dialog = page.locator("#ask")
    text = get(server, "/api/matches/screen-2/events")[-1]["ruling"]["text"]["en"]
    assert text in dialog.inner_text()
    assert "36/" in dialog.inner_text()  # the rule it rests on
    console.answer("cancel")
    assert page.locator("#ruling").bounding_box() == panel and console.boxes() == buttons
    assert page.errors == []


def test_the_console_shows_a_review_in_progress_and_logs_only_what_it_allows(
        server: ServerProcess, scorer: Callable[..., Console]) -> None:
    """Log format 1.2: while the officials review a call the console says which, and its buttons follow what
    the engine accepts (a goal waits; a card and the clock's events do not); the outcome clears it."""
    console = scorer("screen-3")
    page = console.page
    scorer_key, official_key = console.keys["scorer_key"], console.keys["official_key"]
    for event in [{"type": "chukker.start", "chukker": 1}, {"type": "goal", "team": "Blue", "player": 3}]:
        send(server, "screen-3", event, scorer_key)
    goal = get(server, "/api/matches/screen-3")["seq"]
    send(server, "screen-3", {"type": "review.request", "about": goal, "asked_by": "umpire"}, official_key)
    page.wait_for_selector("#waiting .review-open >> text=Review: Goal, Blue #3")
    assert "Until the officials decide" in page.inner_text("#waiting .review-open")
    page.wait_for_selector('#buttons [data-type="goal"][disabled]')
    assert page.locator('#buttons [data-type="card"]').is_enabled()
    assert page.locator('#buttons [data-type="clock.stop"]').is_enabled()
    send(server, "screen-3", {"type": "review.outcome", "outcome": "stands"}, official_key)
    page.wait_for_selector("#waiting .review-open", state="detached")
    page.wait_for_selector('#buttons [data-type="goal"]:not([disabled])')
    assert page.errors == []
