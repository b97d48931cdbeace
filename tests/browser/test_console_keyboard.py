"""The console with the keyboard alone, as a scorer who cannot (or would rather not) tap: a whole penalty
scored from the award to the goal, every choice a real radio group a screen reader names (an award's grid: a
group per team), the focus going into each form and back to its button, Enter logging only a form that is
complete."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser.browsing import Console, create, grid_choice, log, send
from matchstate.web.process import ServerProcess


def focused(page: Any) -> dict[str, Any]:
    """Where the keyboard is: the field and value of a choice or input, or the type of an event button."""
    found: dict[str, Any] = page.evaluate("""() => {
        const e = document.activeElement;
        const field = e.closest('[data-field]');
        return {field: field ? field.dataset.field : null, value: e.dataset.value ?? null,
                type: e.dataset.type ?? null, role: e.getAttribute('role'), tag: e.tagName,
                checked: e.getAttribute('aria-checked'), disabled: e.disabled === true};
    }""")
    return found


def logged_types(server: ServerProcess, code: str) -> list[str]:
    return [row["type"] for row in log(server, code)]


def wait_logged(server: ServerProcess, console: Console, count: int) -> list[dict[str, Any]]:
    """Wait until the server holds ``count`` events, all sent from the console."""
    console.page.wait_for_function(f"() => document.querySelectorAll('#recent li').length >= {min(count, 6)}")
    console.wait_until_sent()
    rows: list[dict[str, Any]] = log(server, console.code)
    assert len(rows) == count, [row["type"] for row in rows]
    return rows


def in_play(server: ServerProcess, scorer: Callable[..., Console], code: str) -> Console:
    """A new match's console, its first chukker in play."""
    console = scorer(code)
    send(server, code, {"type": "chukker.start", "chukker": 1}, console.keys["scorer_key"])
    console.page.wait_for_selector("#chukker-clock[data-phase=play]")
    return console


def test_a_whole_penalty_scored_with_the_keyboard_alone(server: ServerProcess,
                                                        scorer: Callable[..., Console]) -> None:
    console = in_play(server, scorer, "keys-1")
    page = console.page
    assert page.inner_text("#chukker-clock .chukker b") == "1"

    # The award: its shortcut opens the form, and the keyboard is on its grid at once: Blue's row, Penalty 1.
    page.keyboard.press("a")
    page.wait_for_selector("#form:not([hidden])")
    assert focused(page) == {"field": "to", "value": "1", "type": None, "role": None, "tag": "BUTTON",
                             "checked": None, "disabled": False}
    # A screen reader hears each row as a group named for its team (and the whistle), each button its number.
    blue = page.get_by_role("group", name="To Blue + whistle")
    assert blue.get_by_role("button").all_inner_texts() == ["1", "2", "3", "4", "5.a", "5.b", "6"]
    assert page.get_by_role("group", name="To Red + whistle").count() == 1
    # The arrows move along a row and between rows, and log nothing.
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert (focused(page)["field"], focused(page)["value"]) == ("to", "3")
    assert page.evaluate("document.activeElement.closest('[data-value=Red]') !== null")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("document.activeElement.closest('[data-value=Blue]') !== null")
    assert focused(page)["value"] == "3" and console.outbox() == []

    # Enter from a field before the grid's choice logs nothing: it says what is missing and goes back there.
    page.keyboard.press("Shift+Tab")
    assert focused(page)["field"] == "whistle"
    page.keyboard.press("Enter")
    assert page.inner_text("#form .missing") == "Still needed: Penalty, To"
    assert focused(page)["field"] == "to" and focused(page)["value"] == "3"
    assert page.locator("#form").is_visible() and console.outbox() == []
    page.keyboard.press("Space")  # Blue's Penalty 3: complete, logged
    page.wait_for_selector("#form", state="hidden")
    rows = wait_logged(server, console, 4)  # with the whistle: the clock ran
    assert rows[-2]["type"] == "whistle"
    assert {k: rows[-1]["event"][k] for k in ("penalty", "to")} == {"penalty": "3", "to": "Blue"}
    # The keyboard is back on the button that opened the form.
    assert focused(page)["type"] == "penalty.award"

    # Ball placed: its flags start as "no", so Enter logs it at once; Play has no fields at all.
    page.keyboard.press("b")
    page.wait_for_selector("#form:not([hidden])")
    assert focused(page)["field"] == "surface_altered"
    assert page.locator("#form .legend").is_hidden()  # no field is marked needed: "* needed" said of none
    page.keyboard.press("Enter")
    wait_logged(server, console, 5)
    page.keyboard.press("p")
    wait_logged(server, console, 6)
    page.wait_for_selector("#countdown:not(.idle)")

    # The hit: the players are Blue's, named from the roster.
    page.keyboard.press("h")
    page.wait_for_selector("#form:not([hidden])")
    assert page.locator("#form .legend").is_visible()  # the player is needed, marked *
    players = page.get_by_role("radiogroup", name="Player")
    assert players.get_by_role("radio").all_inner_texts() == [
        "1 · T. Irigoyen", "2 · B. Larrañaga", "3 · F. Aráoz", "4 · J. Ocampo"]
    # Blue's usual taker (#3, by habit: none of Blue's yet) comes chosen; the arrows move and choose.
    assert players.get_by_role("radio", name="3 · F. Aráoz", checked=True).count() == 1
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    assert players.get_by_role("radio", name="3 · F. Aráoz", checked=True).count() == 1
    page.keyboard.press("Enter")  # a clean stroke, the contact's default: each contact is also a Log button
    wait_logged(server, console, 7)
    page.wait_for_selector("#ruling >> text=Ball in play")

    # The goal: the team chosen names the players.
    page.keyboard.press("g")
    page.wait_for_selector("#form:not([hidden])")
    page.keyboard.press("Space")  # Blue
    page.keyboard.press("Tab")
    page.keyboard.press("End")    # the last player: Blue's #4, then back to #3
    page.keyboard.press("ArrowLeft")
    assert focused(page)["value"] == "3"
    page.keyboard.press("Enter")
    rows = wait_logged(server, console, 8)
    assert [row["type"] for row in rows[2:]] == ["whistle", "penalty.award", "ball.place", "play", "hit", "goal"]
    assert {k: rows[-1]["event"][k] for k in ("team", "player")} == {"team": "Blue", "player": 3}
    assert rows[-2]["event"]["player"] == 3
    page.wait_for_selector("#score >> text=Blue 1")
    # The undo says what it would take back.
    page.wait_for_selector('#buttons [data-type="void"] >> text=Undo: Goal, Blue #3')

    # Escape cancels a form, and the keyboard goes back to the button that opened it.
    page.keyboard.press("k")
    page.wait_for_selector("#form:not([hidden])")
    page.keyboard.press("Escape")
    page.wait_for_selector("#form", state="hidden")
    assert focused(page)["type"] == "knockin.award"
    assert page.errors == []


def test_a_penalty_5a_says_it_needs_its_yards_and_keeps_what_was_entered(
        server: ServerProcess, scorer: Callable[..., Console]) -> None:
    console = scorer("yards-1")
    page = console.page
    send(server, "yards-1", {"type": "chukker.start", "chukker": 1}, console.keys["scorer_key"])
    console.tap("penalty.award")
    yards = page.locator('#form input[data-field="yards_to_goal"]')
    mark = page.locator("#form .field:has([data-field=yards_to_goal]) .need")
    assert yards.get_attribute("aria-required") == "false" and mark.is_hidden()
    page.click(grid_choice("5a", "Red"))  # a Log button, but the yards are still needed
    # Needed now, and marked so, for the eye and the screen reader alike; the tap went on to it (the keypad).
    assert yards.get_attribute("aria-required") == "true" and mark.is_visible()
    assert page.inner_text("#form .missing") == "Still needed: Yards to goal"
    assert focused(page)["field"] == "yards_to_goal"
    assert page.get_attribute(grid_choice("5a", "Red"), "aria-pressed") == "true"
    assert console.outbox() == []
    page.keyboard.type("400")  # a slip: the field is 300 yards long
    page.keyboard.press("Enter")
    page.wait_for_selector("#form .missing >> text=Yards to goal: must be a number of yards greater than 0 and "
                           "less than the field length, 300, not 400")
    assert yards.get_attribute("aria-invalid") == "true" and focused(page)["field"] == "yards_to_goal"
    assert console.outbox() == []  # nothing sent, the whistle neither: the form is as it was
    yards.fill("")
    page.keyboard.type("40")
    page.keyboard.press("Enter")  # the penalty and team tapped are kept
    rows = wait_logged(server, console, 4)  # with the whistle: the clock ran
    assert {k: rows[-1]["event"][k] for k in ("penalty", "to", "yards_to_goal")} == {
        "penalty": "5a", "to": "Red", "yards_to_goal": 40}
    assert page.errors == []


def test_with_no_key_held_the_key_box_is_open_at_the_top_and_has_the_focus(
        server: ServerProcess, scorer: Callable[..., Console], new_page: Callable[..., Any]) -> None:
    keys = scorer("nokey-1").keys
    page = new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.base}/matches/nokey-1/console")
    page.wait_for_selector("#console.ready")
    box = page.locator("#keybox")
    assert box.is_visible() and "No key is held on this device" in box.inner_text()
    assert page.evaluate("() => document.activeElement.id") == "key"
    assert page.evaluate("() => document.getElementById('key').getBoundingClientRect().bottom") <= 844
    page.keyboard.type("not-this-matchs-key")
    page.keyboard.press("Tab")
    page.wait_for_selector("#keybox >> text=does not accept this key")
    page.fill("#key", keys["scorer_key"])
    page.press("#key", "Tab")
    page.wait_for_selector("#keybox", state="hidden")
    assert page.locator(".settings #key").count() == 1  # back under "Key and name"
    assert [error for error in page.errors if "403 (Forbidden)" not in error] == []  # the wrong key's answer


def test_events_logged_with_a_key_the_server_refuses_are_held_and_said_not_sending_forever(
        server: ServerProcess, new_page: Callable[..., Any]) -> None:
    """A console opened with a key not this match's held what was tapped unsent, saying "Sending 2…" for good,
    while its score counted them. They are sent, refused, held under "needs your attention" with the reason,
    and sent once the right key is entered, the console the only one (another holding the scoring seat, they wait
    for the scorer: see test_console_seat)."""
    keys = create(server, "wrongkey-1")
    page = new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{server.base}/matches/wrongkey-1/console#key=not-this-matchs-key")
    page.wait_for_selector("#console.ready")
    console = Console(page, "wrongkey-1")
    console.tap("chukker.start")
    page.wait_for_selector("#attention >> text=wrong key")
    assert "needs your attention" in console.status() and "Sending" not in console.status()
    assert len(log(server, "wrongkey-1")) == 1
    page.fill("#key", keys["scorer_key"])
    page.press("#key", "Tab")
    console.wait_until_sent()
    assert [row["type"] for row in log(server, "wrongkey-1")] == ["match.start", "chukker.start"]
    assert [error for error in page.errors if "403 (Forbidden)" not in error] == []


def test_enter_on_the_choice_the_keyboard_landed_on_chooses_it_and_logs(server: ServerProcess,
                                                                         scorer: Callable[..., Console]) -> None:
    """Enter on a form's first choice, none chosen yet, said "Still needed: Team": Space, then Enter, it took."""
    console = in_play(server, scorer, "keys-enter")
    page = console.page
    page.keyboard.press("g")
    page.wait_for_selector("#form:not([hidden])")
    assert (focused(page)["field"], focused(page)["value"], focused(page)["checked"]) == ("team", "Blue", "false")
    page.keyboard.press("Enter")
    page.wait_for_selector("#form", state="hidden")
    rows = wait_logged(server, console, 3)
    assert (rows[-1]["type"], rows[-1]["event"]["team"]) == ("goal", "Blue")
    # An optional choice left empty stays so: Enter on the player's group logs the goal with no player.
    page.keyboard.press("g")
    page.wait_for_selector("#form:not([hidden])")
    page.keyboard.press("Space")  # Blue
    page.keyboard.press("Tab")
    assert focused(page)["field"] == "player"
    page.keyboard.press("Enter")
    rows = wait_logged(server, console, 4)
    assert rows[-1]["event"]["team"] == "Blue" and rows[-1]["event"].get("player") is None
    assert page.errors == []


def test_a_tap_that_disables_its_own_button_leaves_the_keyboard_on_the_next_one_enabled(
        server: ServerProcess, scorer: Callable[..., Console]) -> None:
    """A quick "Hit #3" closes the hits (the ball is in play), and the match's end closes every event: each time the
    focus fell to the page's start. It goes on to the next button enabled, else the ruling."""
    console = in_play(server, scorer, "keys-6")
    page = console.page
    send(server, console.code, {"type": "penalty.award", "penalty": "3", "to": "Blue"}, console.keys["scorer_key"])
    page.wait_for_selector('#quick button[data-quick="play"]:not([disabled])')
    page.click('#quick button[data-quick="play"]')
    wait_logged(server, console, 4)
    page.wait_for_selector('#quick button[data-quick="hit"][data-player="3"]:not([disabled])')
    page.focus('#quick button[data-quick="hit"][data-player="3"]')
    page.keyboard.press("Enter")
    wait_logged(server, console, 5)
    page.wait_for_selector('#quick button[data-quick="hit"][data-player="3"][disabled]')
    assert page.evaluate("() => document.activeElement.closest('#quick') !== null && !document.activeElement.disabled")
    send(server, console.code, {"type": "chukker.end", "chukker": 1}, console.keys["scorer_key"])
    page.wait_for_selector('#buttons [data-type="match.end"]:not([disabled])')
    page.focus('#buttons [data-type="match.end"]')
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog#ask")
    page.keyboard.press("Enter")  # "End the match", the question's answer it recommends
    wait_logged(server, console, 7)
    page.wait_for_function("() => document.activeElement !== document.body && !document.activeElement.disabled")
    assert page.errors == []
