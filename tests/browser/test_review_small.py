"""The review's small things (the issue's finding 7): no literal "null" in what it shows, each option of an
Umpire's choice named by what it gives (the Goal option never quotes the rehit's cell), and the void action
on one line however narrow the page."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browsing import PHONE, create, match_with_events, send
from matchstate.web.process import ServerProcess

# A Penalty 2 whose defenders were out of position, closed by the ball going out: the Umpire chooses.
CHOICE: list[dict[str, Any]] = [
    {"type": "penalty.award", "penalty": "2", "to": "Blue"}, {"type": "play"},
    {"type": "position.improper", "team": "Red"}, {"type": "hit", "player": 1, "contact": "hit"},
    {"type": "ball.out", "over": "sideline"}]


def open_review(server: ServerProcess, page: Any, code: str, keys: dict[str, Any], language: str = "en") -> None:
    page.add_init_script(f"localStorage.setItem('matchstate:lang', '{language}')")
    page.goto(f"{server.base}/matches/{code}/review#key={keys['official_key']}")
    page.wait_for_selector("#review.ready")


def test_no_row_s_detail_prints_null(server: ServerProcess, new_page: Any) -> None:
    keys = match_with_events(server, "small-blank")
    page = new_page()
    open_review(server, page, "small-blank", keys)
    page.wait_for_selector('#timeline tr[data-seq="10"]')
    for seq in range(1, 11):  # with a ruling and without, flagged and not
        page.click(f'#timeline tr[data-seq="{seq}"] td.seq')
        page.wait_for_selector(f"#detail h2 >> text=#{seq} ")
        assert "null" not in page.inner_text("#detail")
    assert "null" not in page.inner_text("body")


@pytest.mark.parametrize(("language", "goal", "rehit_cell"), [
    ("en", "2. Goal to Blue", "otherwise rehit"), ("es", "2. Gol para Blue", "de lo contrario")])
def test_the_goal_option_of_a_choice_names_the_goal_and_quotes_no_rehit_cell(
        server: ServerProcess, new_page: Any, language: str, goal: str, rehit_cell: str) -> None:
    code = f"small-choice-{language}"
    keys = create(server, code)
    for event in CHOICE:
        send(server, code, event, keys["scorer_key"])
    page = new_page()
    open_review(server, page, code, keys, language)
    page.wait_for_selector("#choice [data-option='2']")
    options = page.locator("#choice [data-option]").all_inner_texts()
    assert options[1].startswith(goal)
    assert all(rehit_cell not in option for option in options)


def test_the_void_action_stays_on_one_line_on_a_phone(server: ServerProcess, new_page: Any) -> None:
    keys = match_with_events(server, "small-void")
    page = new_page(viewport=PHONE)
    open_review(server, page, "small-void", keys)
    page.wait_for_selector('#timeline tr[data-seq="10"]')
    page.click('#timeline tr[data-seq="10"] td.seq')
    button = page.locator('#timeline [data-act="void"]')
    assert button.inner_text() == "Void #10…"
    lines = button.evaluate("""(b) => { const r = document.createRange(); r.selectNodeContents(b);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }""")
    assert lines == 1
