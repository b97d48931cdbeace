"""The console and the review in Spanish: the toggle leaves no phrase of the English catalog on the page
(its text, and the names and titles a screen reader or a pointer finds), the quick form and the review's
void dialog opened too."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browser.browsing import PHONE, Console, assert_no_english, match_with_events, open_page
from matchstate.web.process import ServerProcess


def test_the_console_and_its_form_speak_spanish_with_nothing_left_in_english(
        server: ServerProcess, new_page: Callable[..., Any]) -> None:
    keys = match_with_events(server, "es-1")
    console = Console(new_page(viewport=PHONE), "es-1").open(server, keys["scorer_key"])
    page = console.page
    page.click("#lang")
    page.wait_for_selector("#lang >> text=English")
    page.wait_for_selector("#link >> text=En línea")
    assert_no_english(page)
    console.tap("penalty.award")
    assert page.get_by_role("radiogroup", name="Desde (penal 2)").count() == 1
    assert page.get_by_role("group", name="Para Blue").get_by_role("button").count() == 7  # its grid's row
    page.keyboard.press("Shift+Tab")  # from the grid to a field: Enter there says what the grid's tap gives
    page.keyboard.press("Enter")
    assert page.inner_text("#form .missing") == "Falta: Penal, Para"
    assert_no_english(page)
    page.keyboard.press("Escape")
    page.reload()  # remembered: the server renders the page in Spanish too
    page.wait_for_selector("#console.ready")
    assert page.inner_text(".settings summary") == "Clave y nombre"
    assert_no_english(page)
    assert page.errors == []


def test_the_review_speaks_spanish_with_nothing_left_in_english(server: ServerProcess, new_page: Any) -> None:
    keys = match_with_events(server, "es-2")
    page = new_page()
    open_page(server, page, "review", "es-2", keys)
    page.click("#lang")
    page.wait_for_selector("#chain.ok >> text=Cadena verificada")
    page.wait_for_selector("#live >> text=en vivo")
    assert_no_english(page)
    page.click('#timeline tr.has-ruling')
    page.wait_for_selector("#detail .clause")
    page.click("#timeline [data-act=void]")
    page.wait_for_selector("#void[open]")
    assert_no_english(page)
    page.keyboard.press("Escape")
    assert page.errors == []
