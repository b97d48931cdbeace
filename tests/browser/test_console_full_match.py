"""The bundled full match (``matchstate/examples/full-match.jsonl``) scored on a tablet as its scorer would,
each tap counted: the scorer's events through the console at their own times (Playwright's clock, never a
wait), the umpires' and the referee's from their own devices; the rulings, score, state and winner are then
the engine's replay of the bundled log (``matchstate replay --json``, run as a user runs it).

The scorer takes the quick row's paths: "Play" (the placing it implies is not logged), a clean stroke by
its player in one tap, a goal for its team in one tap (the scorer's number is not asked), each award by its
team's button with the whistle that preceded it (a penalty's number and team one tap in its form's grid), a
chukker's start and end by their one tap, another stroke by its contact's button, a typed yards logged by the
keypad's Enter (a key); the 20 seconds are expired by the console itself."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from browser.browsing import LEAGUE_KEY, TABLET, Taps, checked, get, log, post
from matchstate.web.process import ServerProcess

FULL = Path(__file__).parents[2] / "matchstate" / "examples" / "full-match.jsonl"
TAPS_AT_MOST = 138   # measured 138 taps and 23 keys (see the README's "Taps"); the console before, the same path: 276
AWARDS = ("penalty.award", "knockin.award")


def parse(at: str) -> datetime:
    return datetime.fromisoformat(at.replace("Z", "+00:00"))


class Scorer(Taps):
    """The console on a tablet, its clock the bundled match's, every tap (a click) and key counted."""

    def __init__(self, server: ServerProcess, page: Any, code: str, keys: dict[str, Any], start: str) -> None:
        super().__init__(page)
        self.server, self.code, self.keys = server, code, keys
        self.presses = 0
        self.fake, self.real = parse(start), time.monotonic()
        # The server's clock, as the console measures it, is the match's: GET /api/time answers its time.
        page.route("**/api/time", lambda route: route.fulfill(
            content_type="application/json", body=json.dumps({"now": self.now().isoformat()})))
        page.clock.install(time=self.fake)
        page.goto(f"{server.base}/matches/{code}/console#key={keys['scorer_key']}")
        page.wait_for_selector("#console.ready")
        page.wait_for_selector(".banner.ok")

    def now(self) -> datetime:
        return self.fake + timedelta(seconds=time.monotonic() - self.real)

    def at(self, at: str) -> None:
        """Move the console's clock on to ``at`` (never back)."""
        if parse(at) > self.now():
            self.fake, self.real = parse(at), time.monotonic()
            self.page.clock.set_system_time(self.fake)

    def answer(self, action: str) -> None:
        self.page.click(f'#ask [data-action="{action}"]')
        self.taps += 1
        self.page.wait_for_selector("#ask", state="detached")

    def type(self, field: str, value: object) -> None:
        """Type into a field, tapping it first unless the form put the focus there."""
        selector = f'#form [data-field="{field}"]'
        if not self.page.eval_on_selector(selector, "node => node === document.activeElement"):
            self.tap(selector)
        self.page.keyboard.type(str(value))
        self.presses += len(str(value))

    def enter(self) -> None:
        """Enter (a tablet keypad's Go): logs the form, complete now."""
        self.page.keyboard.press("Enter")
        self.presses += 1

    def sent(self) -> None:
        self.page.wait_for_selector(".banner.ok")
        self.page.wait_for_function("code => !(JSON.parse(localStorage.getItem('matchstate:outbox:' + code)) || "
                                    "{items: []}).items.length", arg=self.code)


def score(scorer: Scorer, event: dict[str, Any], whistled: bool) -> None:
    """Log one of the scorer's events as the scorer would, the quick way where there is one."""
    kind = event["type"]
    scorer.at(event["at"])
    if kind == "play":
        scorer.tap('#quick [data-quick="play"]')
    elif kind == "hit" and event["contact"] == "hit":
        scorer.tap(f'#quick [data-quick="hit"][data-player="{event["player"]}"]')
        if scorer.page.locator("#ask").count():  # asked at once, as the tap is taken
            scorer.answer("anyway")  # a stroke with no "Play": the console asks, and it was so
    elif kind == "hit":
        scorer.event("hit")
        if checked(scorer.page, "player") != [str(event["player"])]:
            scorer.choose("player", event["player"])
        scorer.choose("contact", event["contact"])  # its contact's button logs it
    elif kind == "goal":
        scorer.tap(f'#quick [data-quick="goal"][data-team="{event["team"]}"]')
    elif kind in AWARDS:
        scorer.event(kind)
        if checked(scorer.page, "whistle") != [str(whistled).lower()]:
            scorer.choose("whistle", str(whistled).lower())
        if kind == "knockin.award":
            scorer.choose("to", event["to"])
        else:
            if event.get("from", "center") != "center":
                scorer.choose("from", event["from"])
            asked = event["penalty"] == "5a"  # its yards are asked after the grid's tap, the keypad up
            if "yards_to_goal" in event and not asked:  # yards where they are not needed: typed first
                scorer.type("yards_to_goal", event["yards_to_goal"])
            scorer.award(event["penalty"], event["to"])
            if asked:
                scorer.type("yards_to_goal", event["yards_to_goal"])
                scorer.enter()
    elif kind in ("ball.out", "approach.abort"):
        field = "over" if kind == "ball.out" else "how"
        scorer.event(kind)
        scorer.choose(field, event[field])  # its choice logs it
    elif kind == "ball.stop":
        scorer.event(kind)
        scorer.type("yards_to_goal", event["yards_to_goal"])  # the focus is on it: the keypad is up
        scorer.enter()
    elif kind in ("chukker.start", "chukker.end"):
        named = "start" if kind == "chukker.start" else "end"
        assert scorer.page.inner_text(f'#buttons [data-type="{kind}"] .what') == f"Chukker {event['chukker']} {named}"
        scorer.event(kind)  # its one tap logs it
    elif kind == "match.end":
        scorer.event(kind)
        scorer.answer("confirm")
    else:  # whistle, clock.stop, clock.start, dribble: no fields
        scorer.event(kind)
    if scorer.page.locator("#ask").count():  # a question the scorer would not expect: said, never answered
        raise AssertionError(f"{kind} at {event['at']}: asked {scorer.page.inner_text('#ask')}")


def officiate(scorer: Scorer, event: dict[str, Any]) -> None:
    """An official's event, from the official's own device, once the console's have been recorded."""
    scorer.sent()
    rows = log(scorer.server, scorer.code)
    body = {k: v for k, v in event.items() if k not in ("id", "by")}
    if event["type"] == "void":  # the goal the referee overruled: the last goal, in this log's numbering
        body["seq"] = [row["seq"] for row in rows if row["type"] == "goal"][-1]
    body["at"] = max(parse(event["at"]), parse(rows[-1]["at"]) + timedelta(milliseconds=1)).isoformat()
    post(scorer.server, f"/api/matches/{scorer.code}/events",
         {"event": {**body, "id": f"official-{event['id']}", "by": event["by"]}, "expected_seq": rows[-1]["seq"]},
         scorer.keys["official_key"])
    seen(scorer, rows[-1]["seq"] + 1)


def seen(scorer: Scorer, seq: int) -> None:
    """Wait until the console shows the recorded event ``seq``."""
    scorer.page.wait_for_function("seq => [...document.querySelectorAll('#recent li')]"
                                  ".some((li) => li.textContent.includes(`#${seq} `))", arg=seq)


def replayed(path: Path) -> tuple[list[tuple[str, str, str]], dict[str, Any]]:
    """The rulings (type, kind, English text) and the final score, state and winner, as ``matchstate replay
    --json`` gives them."""
    out = subprocess.run([sys.executable, "-m", "matchstate", "replay", "--json", str(path)], check=True,
                         capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    rulings = [(row["type"], row["ruling"]["kind"], row["ruling"]["text"]["en"]) for row in rows[:-1] if row["ruling"]]
    final = rows[-1]["final"]
    return rulings, {k: final[k] for k in ("score", "state", "winner")}


def test_the_bundled_full_match_scored_on_a_tablet_gives_the_replays_rulings(server: ServerProcess, new_page: Any,
                                                                             tmp_path: Path) -> None:
    bundled = [json.loads(line) for line in FULL.read_text(encoding="utf-8").splitlines()]
    start = bundled[0]
    code = start["match"]
    keys = post(server, "/api/matches", start, LEAGUE_KEY)
    scorer = Scorer(server, new_page(viewport=TABLET), code, keys, start["at"])
    whistled = False
    for i, event in enumerate(bundled[1:], start=1):
        following = bundled[i + 1] if i + 1 < len(bundled) else None
        if "scorer" not in event["by"]:
            officiate(scorer, event)
        elif event["type"] == "ball.place":
            continue  # "Play" implies it (log format: a scorer may skip it)
        elif event["type"] == "whistle" and following and following["type"] in AWARDS:
            whistled = True  # recorded with the award it announced
        elif event["type"] == "tick":
            scorer.sent()
            seq = log(server, code)[-1]["seq"]
            scorer.at(event["at"])  # the console expires the 20 seconds by itself
            seen(scorer, seq + 1)
            assert log(server, code)[-1]["type"] == "tick"
        else:
            score(scorer, event, whistled)
            whistled = False
    scorer.sent()

    scored = tmp_path / "scored.jsonl"
    scored.write_text("".join(json.dumps(row["event"]) + "\n" for row in log(server, code)), encoding="utf-8")
    assert replayed(scored) == replayed(FULL)
    view = get(server, f"/api/matches/{code}")
    assert (view["score"], view["state"], view["winner"]) == tuple(replayed(FULL)[1].values())
    print(f"\nthe full match: {scorer.taps} taps and {scorer.presses} keys")
    assert scorer.taps <= TAPS_AT_MOST
    assert scorer.page.errors == []
