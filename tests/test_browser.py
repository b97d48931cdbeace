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
from pathlib import Path

import pytest

from matchstate.store import Store
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
    Store(url).upgrade()
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


class Console:
    """The scorer's console, clicked as a scorer would."""

    def __init__(self, page: object) -> None:
        self.page = page

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
                                  START["match"])


def shoot(page: object, name: str, full_page: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=full_page)


def test_scorer_logs_penalties_live_and_survives_the_server_going_away(server: ServerProcess, browser) -> None:
    created = post(server, "/api/matches", START)
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
