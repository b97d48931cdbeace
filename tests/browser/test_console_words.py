"""The console and the review in Spanish: the toggle leaves no phrase of the English catalog on the page
(its text, and the names and titles a screen reader or a pointer finds), the quick form and the review's
void dialog opened too.

``assert_no_english`` is this file's own, minimal: the words helper's reusable one replaces it once merged.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from browser.browsing import PHONE, Console, match_with_events, open_page
from matchstate.web.process import ServerProcess
from matchstate.words import catalog

SHORTEST = 6  # shorter fragments ("Play", "#") are as often Spanish as English


def english_fragments() -> set[str]:
    """Each English phrase of the catalog that its Spanish does not share, cut at its {fields}."""
    spanish = " ".join(phrase["es"] for section in catalog().values() for phrase in section.values())
    fragments = set()
    for section in catalog().values():
        for phrase in section.values():
            if phrase["en"] == phrase["es"]:
                continue
            for fragment in re.split(r"\{\w+\}", phrase["en"]):
                fragment = fragment.strip(" .,:;()“”")
                if len(fragment) >= SHORTEST and fragment not in spanish:
                    fragments.add(fragment)
    return fragments


def assert_no_english(page: Any) -> None:
    # The event types' names are words.mjs's: English there until the words branch takes them from the
    # catalog. As the page names them now, they are passed over; once they are Spanish, nothing is.
    labels = set(page.evaluate("""async () => {
        const {label} = await import('/static/words.mjs');
        const types = Object.keys(await (await fetch('/api/event-types')).json());
        return types.map(label);
    }"""))
    # What is English on purpose (the review's rulings and clauses side by side) is marked lang="en".
    shown = page.evaluate("""() => [(() => {
            const english = [...document.querySelectorAll('body [lang="en"]')];
            english.forEach((e) => { e.dataset.display = e.style.display; e.style.display = 'none'; });
            const text = document.body.innerText;
            english.forEach((e) => { e.style.display = e.dataset.display; });
            return text;
        })(),
        ...[...document.querySelectorAll('[aria-label], [title], [placeholder]')].flatMap((e) =>
            [e.getAttribute('aria-label'), e.getAttribute('title'), e.getAttribute('placeholder')]),
        document.title].filter(Boolean).join('\\n')""")
    for label in sorted(labels, key=len, reverse=True):
        shown = shown.replace(label, "")
    left = sorted(fragment for fragment in english_fragments() if fragment in shown)
    assert not left, f"English left in the Spanish page: {left}"


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
    assert page.get_by_role("radiogroup", name="Penal").count() == 1
    page.click("#send")
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
