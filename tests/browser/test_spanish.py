"""The Spanish view: after a tap on the toggle, every page speaks Spanish, with no phrase of the catalog's
English left (checked against the catalog itself); the choice is remembered; refusals come in Spanish too."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browsing import (
    LEAGUE_KEY,
    TABLET,
    assert_no_english,
    create,
    english_left,
    fill_new_match,
    match_with_events,
    open_page,
    to_spanish,
)
from matchstate.web.process import ServerProcess
from matchstate.words import catalog

OWNED = ["records", "scoreboard", "every scoreboard", "sheet", "stats"]


@pytest.mark.parametrize("page_name", OWNED)
def test_a_tap_on_the_toggle_puts_the_whole_page_in_spanish(server: ServerProcess, new_page: Any,
                                                             page_name: str) -> None:
    keys = match_with_events(server, "es-1")
    page = new_page(viewport=TABLET)
    open_page(server, page, page_name, "es-1", keys)
    left = english_left(page)
    assert left, "the English view shows the catalog's English (else this test checks nothing)"
    if "scoreboard" in page_name:  # the clock's caption is the catalog's too, so the check sees it
        assert any(found.startswith("clock.") for found in left), left
    to_spanish(page)
    assert_no_english(page)
    if "scoreboard" in page_name:
        captions = {said["es"] for said in catalog()["clock"].values()}
        assert page.locator(".board .caption").first.inner_text() in captions
    assert page.errors == []


def test_a_match_created_in_spanish_shows_its_keys_in_spanish_and_a_refusal_says_why_in_spanish(
        server: ServerProcess, new_page: Any) -> None:
    create(server, "tomado")
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.wait_for_selector("#matches >> text=tomado")
    to_spanish(page)
    fill_new_match(page, LEAGUE_KEY, "nuevo-1")
    page.wait_for_selector("#created >> text=Partido nuevo-1 creado")
    page.wait_for_selector("#matches >> text=nuevo-1")
    assert_no_english(page)

    fill_new_match(page, LEAGUE_KEY, "tomado")  # a code already taken: the server's reason, in Spanish
    page.wait_for_selector("#created .refused >> text=No se creó (409): el partido 'tomado' ya está en el almacén")
    fill_new_match(page, "not-the-league-key", "otro")
    page.wait_for_selector("#created .refused >> text=falta la clave de la liga o no es la de esta liga")
    assert_no_english(page)
    # And back: the toggle says it all again in English, the refusal too.
    page.click("#lang")
    page.wait_for_selector("#created .refused >> text=the league key is missing or is not this league's")


def test_the_choice_of_spanish_is_remembered_on_reload_and_in_a_new_page_the_server_renders_too(
        server: ServerProcess, new_page: Any) -> None:
    keys = match_with_events(server, "es-2")
    page = new_page(viewport=TABLET)
    open_page(server, page, "records", "es-2", keys)
    to_spanish(page)
    page.reload()
    page.wait_for_selector("#matches >> text=es-2")
    assert page.inner_text("#lang") == "English" and page.get_attribute("html", "lang") == "es"
    assert_no_english(page)

    sheet = page.context.new_page()
    response = sheet.goto(f"{server.base}/matches/es-2/sheet")
    assert response is not None and "En juego, chukker 1:" in response.text()  # worded by the server
    sheet.wait_for_load_state("networkidle")
    assert sheet.get_attribute("html", "lang") == "es"
    assert_no_english(sheet)
    board = page.context.new_page()
    board.goto(f"{server.base}/matches/es-2/scoreboard")
    board.wait_for_selector("#scoreboard.ready")
    assert_no_english(board)


def test_a_browser_set_to_spanish_opens_every_page_in_spanish_until_the_toggle_says_otherwise(
        server: ServerProcess, new_page: Any) -> None:
    keys = match_with_events(server, "es-3")
    page = new_page(viewport=TABLET, locale="es-AR")  # a tablet set up in Argentina: Accept-Language es-AR too
    open_page(server, page, "console", "es-3", keys)
    assert page.get_attribute("html", "lang") == "es" and page.inner_text("#lang") == "English"
    assert_no_english(page)
    sheet = page.context.new_page()
    response = sheet.goto(f"{server.base}/matches/es-3/sheet")  # worded by the server, from the first answer
    assert response is not None and "En juego, chukker 1:" in response.text()
    sheet.wait_for_load_state("networkidle")
    assert_no_english(sheet)

    page.click("#lang")  # the toggle's choice outlasts the browser's language, on this page and the server's
    page.wait_for_selector("html[lang=en] #lang >> text=Español")
    page.reload()
    page.wait_for_selector("#console.ready")
    assert page.get_attribute("html", "lang") == "en"
    assert "In play, chukker 1:" in page.context.request.get(f"{server.base}/matches/es-3/sheet").text()


def test_a_browser_that_asks_for_neither_language_gets_english(server: ServerProcess, new_page: Any) -> None:
    keys = match_with_events(server, "es-4")
    page = new_page(viewport=TABLET, locale="fr-FR")
    open_page(server, page, "sheet", "es-4", keys)
    assert page.get_attribute("html", "lang") == "en" and page.inner_text("#lang") == "Español"
