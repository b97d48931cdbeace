"""The live service in a real browser: Debian's Chromium driven by Playwright, against `matchstate serve`.

A scorer's console logs whole penalties by clicking while an officials' review, in another
browser context, receives each event live; then the server goes away, the scorer keeps
clicking, the server comes back on the same port and database, and every queued event
arrives exactly once. With MATCHSTATE_SCREENSHOTS=DIR the run also saves the README's
screenshots there (``scripts/screenshots``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from matchstate.store import Store
from matchstate.web.access import hash_key
from matchstate.web.process import ServerProcess

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = os.environ.get("MATCHSTATE_SCREENSHOTS")
TIMEOUT_MS = 10_000


def _unavailable() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does)"
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed (it is a dev dependency)"
    return None


if (_reason := _unavailable()) is not None:
    if os.environ.get("MATCHSTATE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{_reason}, and MATCHSTATE_REQUIRE_BROWSER=1", pytrace=False)
    pytest.skip(_reason, allow_module_level=True)

from playwright.sync_api import sync_playwright  # noqa: E402

START = {
    "type": "match.start", "at": "2026-11-29T15:00:00.000Z", "match": "acacias-semi", "teams": ["Blue", "Red"],
    "handicap_goals": {"Red": 1}, "event": "Copa Las Acacias — Semifinal", "venue": "Cancha 2, Pilar",
    "officials": ["D. Ferraro (umpire)", "H. Ledesma (umpire)"], "id": "setup-1", "by": "records",
    "rosters": {"Blue": [{"player": n, "name": name, "handicap": h} for n, name, h in
                         [(1, "T. Irigoyen", 5), (2, "B. Larrañaga", 6), (3, "F. Aráoz", 7), (4, "J. Ocampo", 4)]],
                "Red": [{"player": n, "name": name, "handicap": h} for n, name, h in
                        [(1, "S. Quiroga", 4), (2, "N. Beltrán", 7), (3, "I. Valdés", 7), (4, "M. Arregui", 5)]]},
}
# Logged through the API before the clicking starts: a first chukker already played.
EARLIER = [
    {"type": "chukker.start", "chukker": 1},
    {"type": "goal", "team": "Red", "player": 2},
    {"type": "knockin.award", "to": "Blue"},
    {"type": "play"},
    {"type": "hit", "player": 4, "contact": "hit"},
    {"type": "goal", "team": "Blue", "player": 3},
    {"type": "chukker.end", "chukker": 1},
    {"type": "chukker.start", "chukker": 2},
]


LEAGUE_KEY = "the-browser-league-key"  # creating a match needs the league key


def league_store(url: str) -> None:
    store = Store(url)
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE_KEY))
    store.close()


def post(server: ServerProcess, path: str, body: dict, key: str | None = None) -> dict:
    request = urllib.request.Request(server.base + path, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {key}"} if key else {})})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def get(server: ServerProcess, path: str) -> list | dict:
    with urllib.request.urlopen(server.base + path, timeout=5) as response:
        return json.load(response)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    url = f"sqlite:///{tmp_path / 'browser.db'}"
    league_store(url)
    process = ServerProcess(url, log=tmp_path / "server.log")
    process.start()
    yield process
    process.stop()


@pytest.fixture
def browser() -> Iterator[object]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


# Logged through the API by the scorer: a Penalty 2 whose defenders were out of position, closed by the
# ball going out: the Umpire must choose.
CHOICE = [
    {"type": "penalty.award", "penalty": "2", "to": "Blue"}, {"type": "play"},
    {"type": "position.improper", "team": "Red"}, {"type": "hit", "player": 1, "contact": "hit"},
    {"type": "ball.out", "over": "sideline"},
]


def send(server: ServerProcess, code: str, seq: int, event: dict, key: str) -> dict:
    """Log ``event`` now, as seq ``seq`` of match ``code``."""
    return post(server, f"/api/matches/{code}/events",
                {"event": {**event, "at": datetime.now(UTC).isoformat(), "id": f"setup-{seq}"},
                 "expected_seq": seq - 1}, key)


class Console:
    """The scorer's console, clicked as a scorer would."""

    def __init__(self, page: object, code: str = START["match"]) -> None:
        self.page = page
        self.code = code

    def click(self, event_type: str, **fields: object) -> None:
        self.page.click(f'#buttons [data-type="{event_type}"]')
        if not fields and self.page.locator("#form").is_hidden():
            return
        for name, value in fields.items():
            field = self.page.locator(f'#form [data-field="{name}"]')
            if field.evaluate("node => node.tagName") == "INPUT":
                field.fill(str(value))
            else:
                field.locator(f'[data-value="{value}"]').click()
        self.page.click("#send")

    def outbox(self) -> list:
        return self.page.evaluate("code => JSON.parse(localStorage.getItem('matchstate:outbox:' + code) || '[]')",
                                  self.code)


def shoot(page: object, name: str, full_page: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=full_page)


def test_scorer_logs_penalties_live_and_survives_the_server_going_away(server: ServerProcess, browser) -> None:
    created = post(server, "/api/matches", START, LEAGUE_KEY)
    code, scorer_key = created["code"], created["scorer_key"]
    for n, event in enumerate(EARLIER, 2):
        post(server, f"/api/matches/{code}/events",
             {"event": {**event, "at": f"2026-11-29T15:{n:02d}:00.000Z", "id": f"setup-{n}", "by": "L. Méndez"},
              "expected_seq": n - 1}, scorer_key)

    scorer_page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    review_page = browser.new_context(viewport={"width": 1500, "height": 1000}).new_page()
    for page in (scorer_page, review_page):
        page.set_default_timeout(TIMEOUT_MS)
    scorer_page.goto(f"{server.base}/matches/{code}/console#key={scorer_key}")
    review_page.goto(f"{server.base}/matches/{code}/review#key={created['official_key']}")
    scorer_page.wait_for_selector("#console.ready")
    review_page.wait_for_selector("#review.ready")
    review_page.wait_for_selector("#live.ok")
    scorer_page.click(".settings summary")
    scorer_page.fill("#by", "L. Méndez (scorer)")
    scorer_page.press("#by", "Tab")
    scorer_page.click(".settings summary")
    console = Console(scorer_page)
    seq = len(EARLIER) + 1

    def logged(event_type: str, **fields: object) -> None:
        """Click one event and see it reach the review page, live."""
        nonlocal seq
        console.click(event_type, **fields)
        seq += 1
        review_page.wait_for_selector(f'#timeline tr[data-seq="{seq}"]')
        assert event_type in review_page.inner_text(f'#timeline tr[data-seq="{seq}"]')

    # A whole Penalty 3, clicked: award, place, Play, hit, goal.
    logged("penalty.award", penalty="3", to="Blue")
    assert "Penalty 3 to Blue" in scorer_page.inner_text("#freehit")
    logged("ball.place")
    logged("play")
    assert scorer_page.locator("#countdown").is_visible()
    logged("hit", player=3, contact="hit")
    scorer_page.wait_for_selector("#ruling >> text=Ball in play")
    logged("goal", team="Blue", player=3)
    scorer_page.wait_for_selector("#score >> text=Blue 2 – Red 2")
    review_page.wait_for_selector("#score >> text=Blue 2 – Red 2")

    # A Penalty 2 spoiled by a dribble: the engine awards Penalty 5.a to Blue, ruled at once, in Spanish too.
    logged("penalty.award", penalty="2", to="Red")
    logged("play")
    logged("dribble")
    scorer_page.wait_for_selector("#ruling >> text=Penalty 5.a to Blue")
    scorer_page.click("#lang")
    scorer_page.wait_for_selector("#ruling >> text=Penal 5.a para Blue")
    scorer_page.click("#lang")
    logged("ball.place")
    logged("play")
    review_page.click(f'#timeline tr[data-seq="{seq - 2}"]')  # the dribble's ruling
    review_page.wait_for_selector("#detail .clause")
    detail = review_page.inner_text("#detail")
    assert "One stroke at goal" in detail and "Un solo golpe al arco" in detail
    review_page.wait_for_selector(f"#chain.ok >> text=Chain verified: {seq} events")
    shoot(scorer_page, "console.png")
    review_page.locator("#timeline tr.selected").scroll_into_view_if_needed()
    shoot(review_page, "review.png", full_page=False)

    # The server goes away: the scorer goes on clicking, and the console keeps the events.
    server.stop()
    scorer_page.wait_for_selector(".banner.offline")
    console.click("hit", player=1, contact="hit")
    console.click("goal", team="Blue", player=1)
    console.click("chukker.end", chukker=2)
    assert len(console.outbox()) == 3

    server.start()
    scorer_page.wait_for_selector(".banner.ok", timeout=20_000)
    assert console.outbox() == []
    review_page.wait_for_selector(f'#timeline tr[data-seq="{seq + 3}"]', timeout=20_000)

    log = get(server, f"/api/matches/{code}/events")
    assert [row["seq"] for row in log] == list(range(1, seq + 4))
    assert [row["type"] for row in log[-3:]] == ["hit", "goal", "chukker.end"]
    device_ids = [row["device_id"] for row in log]
    assert len(set(device_ids)) == len(device_ids)
    assert get(server, f"/api/matches/{code}")["score"] == {"Blue": 3, "Red": 2}

    # "Undo last" voids the chukker's end, with a reason: it stays in the log, struck out.
    console.click("void", reason="ended too early")
    review_page.wait_for_selector(f'#timeline tr.struck[data-seq="{seq + 3}"]')
    assert get(server, f"/api/matches/{code}/events?after_seq={seq + 3}")[0]["event"]["seq"] == seq + 3
    assert get(server, f"/api/matches/{code}/verify")["ok"]

    sheet = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    sheet.goto(f"{server.base}/matches/{code}/sheet")
    assert "Copa Las Acacias" in sheet.inner_text("h1")
    shoot(sheet, "score-sheet.png")


def test_the_console_offers_a_scorer_only_what_a_scorer_may_and_lets_a_refused_event_go(
        server: ServerProcess, browser) -> None:
    code = "roles-1"
    created = post(server, "/api/matches", {**START, "match": code}, LEAGUE_KEY)
    scorer_key, official_key = created["scorer_key"], created["official_key"]
    page = browser.new_context().new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(f"{server.base}/matches/{code}/console#key={scorer_key}")
    page.wait_for_selector("#console.ready")
    console = Console(page, code)

    # Nothing the scorer recorded stands yet: "Undo last" says so and logs nothing.
    page.click('#buttons [data-type="void"]')
    page.wait_for_selector("#ruling >> text=Nothing to undo")
    assert page.locator("#form").is_hidden() and console.outbox() == []

    # The Umpire must choose: the engine accepts decide, but not from the scorer's key.
    for seq, event in enumerate(CHOICE, 2):
        send(server, code, seq, event, scorer_key)
    page.wait_for_selector("#state >> text=choosing")
    assert "decide" in get(server, f"/api/matches/{code}")["accepted"]
    assert page.locator('#buttons [data-type="decide"]').count() == 0
    assert "an official decides" in page.inner_text("#buttons")

    # An event the scorer's key may never record (voiding the official's decision) waits first in
    # the outbox: refused with 403, it can be discarded, and the one after it goes on.
    send(server, code, 7, {"type": "decide", "option": 2}, official_key)
    page.evaluate("""([code, events]) => localStorage.setItem('matchstate:outbox:' + code, JSON.stringify(
        events.map((event, i) => ({event: {...event, at: new Date().toISOString(), id: 'queued-' + i},
                                   expected_seq: 7 + i}))))""",
                  [code, [{"type": "void", "seq": 7, "reason": "wrong option"},
                          {"type": "penalty.award", "penalty": "3", "to": "Blue"}]])
    page.reload()
    page.wait_for_selector("#link >> text=only an official may")
    page.click("#link button.discard")
    page.wait_for_selector(".banner.ok")
    assert console.outbox() == []
    log = get(server, f"/api/matches/{code}/events")
    assert [(row["seq"], row["type"], row["role"]) for row in log[-2:]] == [
        (7, "decide", "official"), (8, "penalty.award", "scorer")]

    # "Undo last" passes over the official's card to the scorer's own last event.
    send(server, code, 9, {"type": "card", "team": "Red", "player": 2, "colour": "yellow"}, official_key)
    page.wait_for_selector("#recent >> text=#9")
    page.click('#buttons [data-type="void"]')
    assert page.input_value('#form [data-field="seq"]') == "8"
    page.click("#send")
    page.wait_for_selector("#recent li.struck >> text=#8")
    last = get(server, f"/api/matches/{code}/events?after_seq=9")
    assert [(row["type"], row["event"]["seq"], row["role"]) for row in last] == [("void", 8, "scorer")]


def test_a_private_match_asks_for_its_key_and_its_links_carry_it(tmp_path: Path, browser) -> None:
    url = f"sqlite:///{tmp_path / 'private.db'}"
    league_store(url)
    with ServerProcess(url, log=tmp_path / "server.log", private=True) as server:
        created = post(server, "/api/matches", START, LEAGUE_KEY)
        code, official_key = created["code"], created["official_key"]
        page = browser.new_context().new_page()
        page.set_default_timeout(TIMEOUT_MS)
        for name, key in (("review", official_key), ("console", created["scorer_key"])):
            page.goto(f"{server.base}/matches/{code}/{name}")
            page.wait_for_selector(f"#{name} >> text=enter the match's key")
            assert page.locator(f"#{name}.ready").count() == 0
            page.fill("#key", key)
            page.press("#key", "Tab")
            page.wait_for_selector(f"#{name}.ready")
            assert page.get_attribute("nav a[data-keyed]", "href") == f"/matches/{code}/sheet?key={key}"
        page.click("nav a[data-keyed]")
        page.wait_for_selector("h1 >> text=Copa Las Acacias")
        for export in ("log.jsonl", "log.csv"):
            href = page.get_attribute(f'nav a[href*="{export}"]', "href")
            assert page.request.get(server.base + href).status == 200, href
