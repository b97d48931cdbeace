"""What the browser tests share: a match to score, the API called as another device would, and the
scorer's console driven as a scorer drives it (``Console``)."""

from __future__ import annotations

import json
import os
import re
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import conftest

from matchstate.web.process import ServerProcess
from matchstate.words import catalog

SHOTS = os.environ.get("MATCHSTATE_SCREENSHOTS")
TIMEOUT_MS = 10_000
# Long enough for the console to try again after the server comes back (it backs off up to 2 s), on a machine so
# loaded that the server's own start takes seconds: a bound, not a wait (twice 20 s ran out, under the full suite).
RECONNECT_MS = 60_000
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
NARROW_PHONE = {"width": 320, "height": 640}  # the narrowest a page is made for

START: dict[str, Any] = {
    "type": "match.start", "at": "2026-11-29T15:00:00.000Z", "match": "acacias-semi", "teams": ["Blue", "Red"],
    "handicap_goals": {"Red": 1}, "event": "Copa Las Acacias — Semifinal", "venue": "Cancha 2, Pilar",
    "officials": ["D. Ferraro (umpire)", "H. Ledesma (umpire)"], "id": "setup-1", "by": "records",
    "rosters": {"Blue": [{"player": n, "name": name, "handicap": h} for n, name, h in
                         [(1, "T. Irigoyen", 5), (2, "B. Larrañaga", 6), (3, "F. Aráoz", 7), (4, "J. Ocampo", 4)]],
                "Red": [{"player": n, "name": name, "handicap": h} for n, name, h in
                        [(1, "S. Quiroga", 4), (2, "N. Beltrán", 7), (3, "I. Valdés", 7), (4, "M. Arregui", 5)]]},
}


def wait_until(page: Any, check: str, timeout_ms: int = TIMEOUT_MS) -> None:
    """Wait until ``check``, a JavaScript function returning a promise, resolves to true in the page.
    Playwright's ``wait_for_function`` takes a promise for true and returns at once: it cannot wait for one."""
    page.evaluate(f"""async () => {{
        const check = {check}, deadline = Date.now() + {timeout_ms};
        while (!(await check())) {{
            if (Date.now() > deadline) throw new Error("not true within {timeout_ms} ms: " + check);
            await new Promise((resolve) => setTimeout(resolve, 50));
        }}
    }}""")


def wait_until_kept(page: Any, path: str = "location.pathname") -> None:
    """Wait until the service worker keeps the page at ``path`` (a JavaScript expression), to open it offline."""
    wait_until(page, f"async () => (await caches.match({path})) !== undefined")


LEAGUE_KEY = "the-browser-tests-league-key"  # creating a match needs the league's key


def league_store(url: str) -> None:
    """An empty store at ``url`` whose league key is :data:`LEAGUE_KEY`."""
    conftest.league_store(url, LEAGUE_KEY)


def post(server: ServerProcess, path: str, body: dict[str, Any], key: str | None = None, method: str = "POST") -> Any:
    request = urllib.request.Request(server.base + path, json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {key}"} if key else {})})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def get(server: ServerProcess, path: str) -> Any:
    with urllib.request.urlopen(server.base + path, timeout=5) as response:
        return json.load(response)


def create(server: ServerProcess, code: str = START["match"], **fields: Any) -> Any:
    """A new match (START with ``fields``), as the records page creates one; the answer has its keys."""
    return post(server, "/api/matches", {**START, "match": code, **fields}, LEAGUE_KEY)


def send(server: ServerProcess, code: str, event: dict[str, Any], key: str) -> Any:
    """Log ``event`` now from another device (an official's, say), after whatever the match holds."""
    seq = get(server, f"/api/matches/{code}")["seq"]
    return post(server, f"/api/matches/{code}/events",
                {"event": {**event, "at": datetime.now(UTC).isoformat(), "id": f"other-{code}-{seq + 1}"},
                 "expected_seq": seq}, key)


# Every page a person opens, by name (see open_page).
PAGES = ["records", "console", "review", "sheet", "scoreboard", "every scoreboard", "stats", "docs"]

# A first chukker with goals and a penalty, so that every timeline, sheet and statistic has rows.
EVENTS: list[dict[str, Any]] = [
    {"type": "chukker.start", "at": "2026-11-29T15:00:05Z", "chukker": 1},
    {"type": "goal", "at": "2026-11-29T15:01:05Z", "team": "Red", "player": 2},
    {"type": "goal", "at": "2026-11-29T15:02:00Z", "team": "Blue", "player": 1},
    {"type": "whistle", "at": "2026-11-29T15:03:00Z"},
    {"type": "goal", "at": "2026-11-29T15:03:40Z", "team": "Blue", "player": 3},
    {"type": "clock.start", "at": "2026-11-29T15:03:50Z"},
    {"type": "penalty.award", "at": "2026-11-29T15:04:30Z", "penalty": "2", "to": "Blue"},
    {"type": "play", "at": "2026-11-29T15:05:00Z"},
    {"type": "dribble", "at": "2026-11-29T15:05:02Z"},  # spoils the Penalty 2: a ruling
]


def match_with_events(server: ServerProcess, code: str) -> dict[str, Any]:
    """A new match that has played :data:`EVENTS`; the answer has its keys."""
    keys: dict[str, Any] = create(server, code)
    for number, event in enumerate(EVENTS, start=1):
        seq = get(server, f"/api/matches/{code}")["seq"]
        post(server, f"/api/matches/{code}/events",
             {"event": {**event, "id": f"viewport-{code}-{number}"}, "expected_seq": seq}, keys["scorer_key"])
    return keys


def open_page(server: ServerProcess, page: Any, page_name: str, code: str, keys: dict[str, Any]) -> None:
    """Open ``page_name`` of match ``code`` and wait until it has drawn what it shows."""
    path = {"records": "/", "console": f"/matches/{code}/console#key={keys['scorer_key']}",
            "review": f"/matches/{code}/review#key={keys['official_key']}", "sheet": f"/matches/{code}/sheet",
            "scoreboard": f"/matches/{code}/scoreboard", "every scoreboard": "/scoreboard", "stats": "/stats",
            "docs": "/docs"}[page_name]
    page.goto(server.base + path)
    page.wait_for_load_state("networkidle")
    if page_name in ("console", "review", "scoreboard", "every scoreboard"):
        page.wait_for_selector(f"#{page_name.split()[-1]}.ready")
    if page_name == "records":
        page.wait_for_selector(f"#matches >> text={code}")
    if page_name == "review":
        page.wait_for_selector('#timeline tr[data-seq="6"]')


def fill_new_match(page: Any, league_key: str, code: str) -> None:
    """Fill the new-match form with the league's key, a code and two teams, and create it."""
    page.fill('#new [name="league_key"]', league_key)
    page.fill('#new [name="match"]', code)
    page.fill('#new [name="team1"]', "Blue")
    page.fill('#new [name="team2"]', "Red")
    page.click("#new button.primary")


def fill_schedule(page: Any, fixture: str, **fields: str) -> None:
    """The tournament desk's schedule form, for ``fixture``, with each of ``fields`` (day, time, field) typed in;
    not sent (a change refused does not load the page again)."""
    page.select_option("#schedule-form select[name=fixture]", fixture)
    for name, value in fields.items():
        page.fill(f"#schedule-form input[name={name}]", value)


def log(server: ServerProcess, code: str) -> Any:
    return get(server, f"/api/matches/{code}/events")


def shoot(page: Any, name: str, full_page: bool = True) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=full_page)


class Console:
    """The scorer's console, tapped as a scorer taps it."""

    def __init__(self, page: Any, code: str = START["match"]) -> None:
        self.page = page
        self.code = code
        self.keys: dict[str, Any] = {}  # the match's keys, where the test made the match

    def open(self, server: ServerProcess, key: str) -> Console:
        self.page.goto(f"{server.base}/matches/{self.code}/console#key={key}")
        self.page.wait_for_selector("#console.ready[data-role]")  # and what its key may do is known
        return self

    def tap(self, event_type: str) -> None:
        """Tap an event's button, once the last tap's guard is over (a tap within it is ignored)."""
        self.page.wait_for_selector("#buttons:not(.guarded)")
        self.page.click(f'#buttons [data-type="{event_type}"]')

    def click(self, event_type: str, **fields: object) -> None:
        """Log an event: tap its button, fill its form, and tap "Log"."""
        self.tap(event_type)
        if self.page.locator("#form").is_hidden():  # logged by its tap: no fields, or a chukker's numbered edge
            assert not fields, f"{event_type} was logged by its tap, before its fields {fields}"
            return
        grid = self.page.locator("#form .sends.grid")
        across = grid.get_attribute("data-field") if grid.count() else None  # a penalty's number, with its team
        for name, value in fields.items():
            if name in (across, "to") and across is not None:
                continue
            field = self.page.locator(f'#form [data-field="{name}"]')
            if field.evaluate("node => node.tagName") == "INPUT":
                field.fill(str(value))
            else:
                field.locator(f'[data-value="{value}"]').click()
        if across is not None:
            self.page.click(grid_choice(fields[across], fields["to"]))
        if self.page.locator("#form").is_visible():  # an award's team is its Log button: logged already
            self.page.click("#send")

    def answer(self, action: str) -> None:
        """Answer the question the console asks with one of its actions."""
        self.page.click(f'#ask [data-action="{action}"]')
        self.page.wait_for_selector("#ask", state="detached")

    def outbox(self) -> list[dict[str, Any]]:
        """The events waiting on this device, as kept in its storage."""
        saved = self.page.evaluate("code => JSON.parse(localStorage.getItem('matchstate:outbox:' + code) || 'null')",
                                   self.code)
        return [item["event"] for item in saved["items"]] if saved else []

    def status(self) -> str:
        return str(self.page.inner_text("#link"))

    def boxes(self) -> dict[str, dict[str, float]]:
        """Where each event button is on the screen, by event type."""
        boxes: dict[str, dict[str, float]] = self.page.evaluate("""() => Object.fromEntries(
            [...document.querySelectorAll('#buttons [data-type]')].map((b) => {
                const r = b.getBoundingClientRect();
                return [b.dataset.type, {x: r.x, y: r.y + scrollY, width: r.width, height: r.height}];
            }))""")
        return boxes

    def wait_until_sent(self) -> None:
        self.page.wait_for_selector(".banner.ok", timeout=RECONNECT_MS)
        assert self.outbox() == []


def checked(page: Any, field: str) -> list[str]:
    """The values chosen in a field of the console's open form."""
    found: list[str] = page.eval_on_selector_all(f'#form [data-field="{field}"] [role="radio"][aria-checked="true"]',
                                                 "nodes => nodes.map((n) => n.dataset.value)")
    return found


class Taps:
    """The console's page, every tap the test performs counted (a click; keys are counted apart)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0

    def tap(self, selector: str) -> None:
        """One tap, once the last tap's guard is over (a tap within it is ignored, and said)."""
        self.page.wait_for_selector("#buttons:not(.guarded)")
        self.page.wait_for_selector("#quick:not(.guarded)")
        self.page.click(selector)
        self.taps += 1

    def event(self, event_type: str) -> None:
        """Tap an event's button."""
        self.tap(f'#buttons [data-type="{event_type}"]')

    def choose(self, field: str, value: object) -> None:
        """Tap a choice of the open form's field."""
        self.tap(f'#form [data-field="{field}"] [data-value="{value}"]')

    def award(self, penalty: str, team: str) -> None:
        """Tap a penalty's number in its team's row of the Penalty form: one tap gives both, and logs it."""
        self.tap(grid_choice(penalty, team))


def grid_choice(penalty: object, team: object) -> str:
    """The Penalty form's Log button for a penalty's number to a team (its grid: a row per team)."""
    return f'#form .sends.grid [data-field="to"][data-value="{team}"] [data-value="{penalty}"]'


def english_phrases() -> list[tuple[str, re.Pattern[str]]]:
    """Every phrase of the catalog whose English is not its Spanish, as a pattern of its fixed words in
    order (a {field} may be any text between them), by ``section.key``. A phrase of nothing but fields,
    spaces and signs says nothing English and is left out."""
    found = []
    for section, phrases in catalog().items():
        for key, said in phrases.items():
            if said["en"] == said["es"]:
                continue
            parts = [" ".join(part.split()) for part in re.split(r"\{\w+\}", said["en"])]
            parts = [part for part in parts if part.strip()]
            if not re.search(r"[A-Za-z]{2}", "".join(parts)):
                continue
            words = r".{0,300}?".join(re.escape(part) for part in parts)
            before = r"(?<!\w)" if re.match(r"\w", parts[0]) else ""
            after = r"(?!\w)" if re.search(r"\w$", parts[-1]) else ""
            found.append((f"{section}.{key}", re.compile(before + words + after, re.S)))
    return found


# Every text a person meets on the page: what is shown (text nodes of rendered elements, each node on a line
# of its own), the words read out or shown on hover (aria-label, placeholder, title, alt), the page's title,
# and the charts' titles and descriptions; but not what is English on purpose, marked lang="en" (the review
# shows a ruling and its clause in both languages side by side), nor the log's own codes, marked
# translate="no" (the review's "penalty.award" beside its name, as the JSONL an official checks has it).
PAGE_TEXT = """() => {
  const lines = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent.closest("script, style, template, body [lang=en], [translate=no]")) continue;
    const shown = parent.closest("svg") || parent.closest("select")
      ? (parent.closest("select") || parent.closest("svg")).checkVisibility() : parent.checkVisibility();
    if (shown) lines.push(node.textContent);
  }
  for (const element of document.body.querySelectorAll("[aria-label], [placeholder], [title], [alt]")) {
    if (element.closest("body [lang=en], [translate=no]")) continue;
    for (const name of ["aria-label", "placeholder", "title", "alt"]) {
      if (element.hasAttribute(name)) lines.push(element.getAttribute(name));
    }
  }
  return lines.map((line) => line.split(/\\s+/).join(" ")).join("\\n");
}"""


def english_left(page: Any) -> list[str]:
    """The catalog's English phrases the page shows, each as ``section.key: the text found``."""
    text = page.evaluate(PAGE_TEXT)
    return [f"{name}: {found.group(0)!r}" for name, pattern in english_phrases() if (found := pattern.search(text))]


def assert_no_english(page: Any) -> None:
    """The page, in Spanish, shows no phrase of the catalog's English."""
    left = english_left(page)
    assert not left, "English left in the Spanish view:\n" + "\n".join(left)


def to_spanish(page: Any) -> None:
    """Tap the language toggle as a person would, once, and wait until the page speaks Spanish (a page the
    server words is rendered again)."""
    toggle = page.locator("#lang")
    assert toggle.inner_text() == "Español"
    if page.get_attribute("body", "data-rendered") == "server":
        with page.expect_navigation():
            toggle.click()
        page.wait_for_load_state("networkidle")
    else:
        toggle.click()
    page.wait_for_selector("html[lang=es] #lang >> text=English")
