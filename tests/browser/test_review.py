"""The officials' review as an official reads it: each flagged event marked with its meaning in English and
Spanish, the flagged events alone one click away (live, as a goal after the horn arrives), and the chain
indicator checked as the page opens and on demand, naming the row edited behind the store's back."""

from __future__ import annotations

import sqlite3
from typing import Any

from browser.browsing import create, get, log, post, to_spanish
from matchstate.web.process import ServerProcess

WIDE = {"width": 1500, "height": 1000}


def log_at(server: ServerProcess, code: str, key: str, event: dict[str, Any]) -> Any:
    """Log ``event`` with its own ``at``, as a device whose events were stamped then."""
    seq = get(server, f"/api/matches/{code}")["seq"]
    return post(server, f"/api/matches/{code}/events",
                {"event": {**event, "id": f"review-{code}-{seq + 1}"}, "expected_seq": seq}, key)


# A first chukker (USPA outdoor: the bell after 7:00 of play, the horn 30 s later, at 15:07:35 if the clock
# never stopped): a goal while the clock is stopped by a whistle, then an ordinary goal.
CHUKKER: list[dict[str, Any]] = [
    {"type": "chukker.start", "at": "2026-11-29T15:00:05Z", "chukker": 1},
    {"type": "whistle", "at": "2026-11-29T15:01:00Z"},
    {"type": "goal", "at": "2026-11-29T15:01:05Z", "team": "Red", "player": 2},
    {"type": "clock.start", "at": "2026-11-29T15:01:10Z"},
    {"type": "goal", "at": "2026-11-29T15:02:00Z", "team": "Blue", "player": 1},
]
AFTER_HORN = {"type": "goal", "at": "2026-11-29T15:08:30Z", "team": "Blue", "player": 3}  # 8:15 of play


def review_of_a_chukker(server: ServerProcess, new_page: Any, code: str) -> tuple[dict[str, Any], Any]:
    """A match that has played CHUKKER, its keys, and its review open with the official key."""
    keys = create(server, code)
    for event in CHUKKER:
        log_at(server, code, keys["scorer_key"], event)
    page = new_page(viewport=WIDE)
    page.goto(f"{server.base}/matches/{code}/review#key={keys['official_key']}")
    page.wait_for_selector("#review.ready")
    return keys, page


def test_a_goal_after_the_horn_shows_flagged_in_the_review_and_the_flagged_events_are_one_click_away(
        server: ServerProcess, new_page: Any) -> None:
    keys, page = review_of_a_chukker(server, new_page, "flags-1")
    page.wait_for_selector("#live.ok")
    stopped = page.locator('#timeline tr[data-seq="4"]')
    assert "flagged" in (stopped.get_attribute("class") or "")
    assert stopped.locator(".flag").inner_text() == (
        "Clock stopped: logged while the clock was stopped, before play resumed")
    assert page.inner_text("#flagged") == "Flagged events: 1"

    log_at(server, "flags-1", keys["scorer_key"], AFTER_HORN)  # arrives live
    horn = page.locator('#timeline tr.flagged[data-seq="7"]')
    horn.wait_for()
    assert horn.locator('.flag[data-flag="after-horn"]').inner_text() == (
        "After the horn: the chukker's time had already run out")
    assert horn.locator(".clock").inner_text() == "1 · 8:15.000"
    assert page.inner_text("#flagged") == "Flagged events: 2"
    assert "flagged" not in (page.get_attribute('#timeline tr[data-seq="6"]', "class") or "")  # the goal in time

    page.click("#lang")  # the language toggle: the meanings in Spanish
    assert horn.locator(".flag").inner_text() == "Después de la bocina: el tiempo del chukker ya se había cumplido"
    page.click("#lang")

    page.click("#flagged")  # one click: the flagged events alone
    assert page.eval_on_selector_all("#timeline tr", "rows => rows.map((r) => r.dataset.seq)") == ["4", "7"]
    assert page.get_attribute("#flagged", "aria-pressed") == "true"
    page.click('#timeline tr[data-seq="7"]')  # its detail gives the meaning in both languages side by side
    page.wait_for_selector("#detail .flagged-detail")
    detail = page.inner_text("#detail .flagged-detail")
    assert "After the horn" in detail and "Después de la bocina" in detail
    page.click("#flagged")  # and back to every event
    assert page.locator("#timeline tr").count() == len(log(server, "flags-1")) == 7
    assert page.errors == []


def edit_behind_the_stores_back(server: ServerProcess, code: str, seq: int) -> None:
    """Change a stored event's text in the database itself, as an intruder with the file would."""
    path = server.url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        changed = connection.execute(
            "UPDATE events SET raw = replace(raw, '\"Blue\"', '\"Red\"') WHERE seq = ? AND match_id = "
            "(SELECT id FROM matches WHERE code = ?)", (seq, code)).rowcount
    assert changed == 1


def test_the_chain_indicator_checks_again_on_demand_and_as_the_page_opens_and_names_the_bad_row(
        server: ServerProcess, new_page: Any) -> None:
    _, page = review_of_a_chukker(server, new_page, "chain-1")
    page.wait_for_selector("#chain.ok >> text=Chain verified: 6 events")

    edit_behind_the_stores_back(server, "chain-1", 6)  # the goal by Blue, no event since
    page.click("#recheck")
    page.wait_for_selector("#chain.bad")
    assert page.inner_text("#chain .bad-row") == "row #6"
    assert "seq 6" in page.inner_text("#chain-text")
    assert "bad" in (page.get_attribute('#timeline tr[data-seq="6"]', "class") or "").split()

    page.reload()  # opened again: checked again, still bad
    page.wait_for_selector("#review.ready")
    page.wait_for_selector("#chain.bad")
    assert page.inner_text("#chain .bad-row") == "row #6"
    page.click("#chain .bad-row")  # the link selects that row
    page.wait_for_selector('#timeline tr.selected[data-seq="6"]')
    # In Spanish: the store's own words are said to be English, and marked so for a screen reader.
    to_spanish(page)
    page.wait_for_selector("#chain.bad >> text=La cadena no verifica")
    said = page.inner_text("#chain-text")
    assert said.startswith("La cadena no verifica en la fila #6: matchstate verify dice (en inglés): match chain-1, ")
    assert page.get_attribute("#chain .chain-problems", "lang") == "en"
    assert page.errors == []


def test_an_official_selects_and_voids_a_row_with_the_keyboard_alone(server: ServerProcess, new_page: Any) -> None:
    _, page = review_of_a_chukker(server, new_page, "rows-1")
    page.wait_for_selector("#chain.ok")
    # One void action, the selected row's: Tab never walks through a button per row.
    assert page.locator("#timeline button").count() == 0
    page.keyboard.press("Tab")  # the first stop: the skip link, straight to the timeline (it was the brand's)
    assert page.evaluate("() => document.activeElement.id") == "skip"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.dataset.seq") == "6"  # the last row
    assert page.locator('#timeline tr[tabindex="0"]').count() == 1
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")  # the goal by Red, while the clock was stopped
    page.wait_for_selector('#timeline tr.selected[data-seq="4"][aria-current="true"]')
    page.wait_for_selector("#detail h2 >> text=#4")
    assert page.evaluate("() => document.activeElement.dataset.seq") == "4"  # still on its row, drawn again
    assert page.locator("#timeline button").count() == 1
    page.keyboard.press("Home")
    assert page.evaluate("() => document.activeElement.dataset.seq") == "1"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")  # from the timeline to the selected row's void
    assert page.evaluate("() => document.activeElement.textContent") == "Void #4…"
    page.keyboard.press("Enter")
    page.wait_for_selector("#void[open]")
    page.keyboard.type("the whistle had not gone")
    page.keyboard.press("Enter")
    page.wait_for_selector('#timeline tr.struck[data-seq="4"]')
    last = log(server, "rows-1")[-1]["event"]
    assert (last["type"], last["seq"], last["reason"]) == ("void", 4, "the whistle had not gone")
    assert page.errors == []


def test_the_keyboard_stays_on_the_officials_button_as_the_page_is_drawn_again(server: ServerProcess,
                                                                              new_page: Any) -> None:
    """Each live event (and the seat's poll) drew the review anew and sent the focus back to the page's start: an
    official who tabbed to "Referee" and paused pressed Enter on nothing."""
    keys, page = review_of_a_chukker(server, new_page, "focus-1")
    page.wait_for_selector("#live.ok")
    page.click('#timeline tr[data-seq="5"]')  # Blue's goal
    page.focus('#review-ask [data-asker="referee"]')
    log_at(server, "focus-1", keys["scorer_key"], {"type": "whistle", "at": "2026-11-29T15:02:30Z"})
    page.wait_for_selector('#timeline tr[data-seq="6"]')  # the page is drawn again with it
    assert page.evaluate("() => document.activeElement.dataset.asker") == "referee"
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-open .open-review")
    asked = log(server, "focus-1")[-1]["event"]
    assert (asked["type"], asked["about"], asked["asked_by"]) == ("review.request", 5, "referee")
    assert page.errors == []


def test_on_a_1024_screen_the_timeline_needs_no_sideways_scroll_to_reach_a_rows_void(server: ServerProcess,
                                                                                   new_page: Any) -> None:
    """At 1024 x 768 (a tablet on its side, a small laptop) the timeline shared the width with the side panels:
    it scrolled sideways, the selected row's Void out of view, and words broke mid-word ("Chukke r"), in Spanish
    more. It takes the whole width there."""
    keys = create(server, "narrow-1")
    for event in CHUKKER:
        log_at(server, "narrow-1", keys["scorer_key"], event)
    page = new_page(viewport={"width": 1024, "height": 768})
    page.goto(f"{server.base}/matches/narrow-1/review#key={keys['official_key']}")
    page.wait_for_selector("#review.ready")
    to_spanish(page)  # the longer words
    page.click('#timeline tr[data-seq="4"]')
    page.wait_for_selector('#timeline tr[data-seq="4"] button')
    # The pane that holds the timeline shows the row's Void without a sideways scroll.
    assert page.evaluate("""() => {
        const pane = document.querySelector('#timeline').closest('.pane');
        const button = document.querySelector('#timeline tr[data-seq="4"] button').getBoundingClientRect();
        return pane.scrollWidth <= pane.clientWidth + 1 && button.right <= pane.getBoundingClientRect().right;
    }""")
    # No word of an event's name is broken ("Chukke r"): each name cell is at least as wide as its longest word.
    assert page.evaluate("""() => [...document.querySelectorAll('#timeline td')].every((cell) => {
        const probe = document.createElement('span');
        probe.style.whiteSpace = 'nowrap';
        probe.textContent = cell.innerText.split(/\\s+/).reduce((a, b) => (b.length > a.length ? b : a), '');
        cell.append(probe);
        const fits = probe.getBoundingClientRect().width <= cell.clientWidth;
        probe.remove();
        return fits;
    })""")


def test_a_ruling_no_clause_of_rule_36_gives_says_so_in_the_console_and_the_review(server: ServerProcess,
                                                                                  new_page: Any) -> None:
    """A Penalty 1 (a goal) and a ball out over the back line (a knock-in) cite no clause: Rule 36 has none for
    them. The console and the review showed the ruling with no rule under it, as if one were missing."""
    keys = create(server, "p1-1")
    for event in (CHUKKER[0], {"type": "penalty.award", "at": "2026-11-29T15:00:30Z", "penalty": "1", "to": "Red"}):
        log_at(server, "p1-1", keys["scorer_key"], event)
    console = new_page(viewport={"width": 1024, "height": 768})
    console.goto(f"{server.base}/matches/p1-1/console#key={keys['scorer_key']}")
    console.wait_for_selector("#ruling .no-clause >> text=No clause of Rule 36 gives this ruling")
    page = new_page(viewport=WIDE)
    page.goto(f"{server.base}/matches/p1-1/review#key={keys['official_key']}")
    page.wait_for_selector("#review.ready")
    page.click('#timeline tr[data-seq="3"]')
    page.wait_for_selector("#detail .no-clause >> text=a Penalty 1 is a goal")
    to_spanish(page)
    page.click('#timeline tr[data-seq="3"]')
    page.wait_for_selector("#detail .no-clause >> text=un Penal 1 es un gol")
    assert page.errors == [] and console.errors == []


def test_while_the_umpire_must_choose_the_review_says_so_where_the_free_hit_is_told(server: ServerProcess,
                                                                                     new_page: Any) -> None:
    """The review's header said "No free hit in progress" above the Umpire's options, where the console said the
    Umpire must choose: it says so too, in both languages."""
    keys = create(server, "choose-1")
    choice: list[dict[str, Any]] = [
        {"type": "chukker.start", "at": "2026-11-29T15:00:05Z", "chukker": 1},
        {"type": "penalty.award", "at": "2026-11-29T15:01:00Z", "penalty": "2", "to": "Blue"},
        {"type": "play", "at": "2026-11-29T15:01:10Z"},
        {"type": "position.improper", "at": "2026-11-29T15:01:12Z", "team": "Red"},
        {"type": "hit", "at": "2026-11-29T15:01:14Z", "player": 1, "contact": "hit"},
        {"type": "ball.out", "at": "2026-11-29T15:01:20Z", "over": "sideline"}]
    for event in choice:
        assert log_at(server, "choose-1", keys["scorer_key"], event)["seq"]
    assert get(server, "/api/matches/choose-1")["state"] == "choosing"
    page = new_page(viewport=WIDE)
    page.goto(f"{server.base}/matches/choose-1/review#key={keys['official_key']}")
    page.wait_for_selector("#review.ready")
    assert page.inner_text("#freehit") == "The Umpire must choose the penalty"
    to_spanish(page)
    assert page.inner_text("#freehit") == "El Umpire debe elegir la sanción"
    assert page.errors == []
