"""The console and the review live, side by side: a scorer logs whole penalties by tapping while an
officials' review, in another browser, receives each event; the server goes away and comes back; keys
decide who may do what. With MATCHSTATE_SCREENSHOTS=DIR the run saves the README's screenshots there
(``scripts/screenshots``).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from browser.browsing import (
    LEAGUE_KEY,
    RECONNECT_MS,
    START,
    TABLET,
    Console,
    create,
    get,
    league_store,
    log,
    post,
    send,
    shoot,
)
from matchstate.web.process import ServerProcess

# Logged through the API before the tapping starts: a first chukker already played.
EARLIER: list[dict[str, Any]] = [
    {"type": "chukker.start", "chukker": 1},
    {"type": "goal", "team": "Red", "player": 2},
    {"type": "knockin.award", "to": "Blue"},
    {"type": "play"},
    {"type": "hit", "player": 4, "contact": "hit"},
    {"type": "goal", "team": "Blue", "player": 3},
    {"type": "chukker.end", "chukker": 1},
    {"type": "chukker.start", "chukker": 2},
]
# A Penalty 2 whose defenders were out of position, closed by the ball going out: the Umpire must choose.
CHOICE: list[dict[str, Any]] = [
    {"type": "penalty.award", "penalty": "2", "to": "Blue"}, {"type": "play"},
    {"type": "position.improper", "team": "Red"}, {"type": "hit", "player": 1, "contact": "hit"},
    {"type": "ball.out", "over": "sideline"},
]


def test_scorer_logs_penalties_live_and_survives_the_server_going_away(server: ServerProcess, new_page: Any) -> None:
    created = create(server)
    code, scorer_key = created["code"], created["scorer_key"]
    # A minute apart, the second chukker starting now: its clock is in play while the scorer taps (a chukker
    # started days ago would be long past its horn, and the console would ask before each award).
    started = datetime.now(UTC) - timedelta(minutes=len(EARLIER) - 1)
    for n, event in enumerate(EARLIER, 2):
        at = (started + timedelta(minutes=n - 2)).isoformat(timespec="milliseconds")
        post(server, f"/api/matches/{code}/events",
             {"event": {**event, "at": at, "id": f"setup-{n}", "by": "L. Méndez"}, "expected_seq": n - 1}, scorer_key)

    scorer_page = new_page(viewport={"width": 1280, "height": 800})
    review_page = new_page(viewport={"width": 1500, "height": 1000})
    console = Console(scorer_page).open(server, scorer_key)
    review_page.goto(f"{server.base}/matches/{code}/review#key={created['official_key']}")
    review_page.wait_for_selector("#review.ready")
    review_page.wait_for_selector("#live.ok")
    scorer_page.click(".settings summary")
    scorer_page.fill("#by", "L. Méndez (scorer)")
    scorer_page.press("#by", "Tab")
    scorer_page.click(".settings summary")
    seq = len(EARLIER) + 1

    def logged(event_type: str, **fields: object) -> None:
        """Tap one event and see it reach the review page, live."""
        nonlocal seq
        console.click(event_type, **fields)
        # An award with the clock running comes with its whistle, one seq before it.
        seq += 2 if event_type.endswith(".award") else 1
        review_page.wait_for_selector(f'#timeline tr[data-seq="{seq}"]')
        assert event_type in review_page.inner_text(f'#timeline tr[data-seq="{seq}"]')

    # A whole Penalty 3, tapped: award, place, Play, hit, goal.
    logged("penalty.award", penalty="3", to="Blue")
    scorer_page.wait_for_selector("#freehit >> text=Penalty 3 to Blue")
    logged("ball.place")
    logged("play")
    scorer_page.wait_for_selector("#countdown:not(.idle) >> text=seconds to hit")
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
    scorer_page.wait_for_selector(".banner.ok")
    shoot(scorer_page, "console.png", full_page=False)
    review_page.locator("#timeline tr.selected").scroll_into_view_if_needed()
    shoot(review_page, "review.png", full_page=False)

    # The server goes away: the scorer goes on tapping, and the console keeps the events, shown as pending.
    server.stop()
    scorer_page.wait_for_selector(".banner.offline", timeout=60_000)
    console.click("hit", player=1, contact="hit")
    console.click("goal", team="Blue", player=1)
    console.click("chukker.end")
    assert [event["type"] for event in console.outbox()] == ["hit", "goal", "chukker.end"]
    scorer_page.wait_for_selector("#score >> text=Blue 3 – Red 2")
    assert scorer_page.locator("#provisional").is_visible()
    assert scorer_page.locator("#recent li.pending").count() == 3
    shoot(scorer_page, "console-offline.png", full_page=False)

    server.start()
    console.wait_until_sent()
    review_page.wait_for_selector(f'#timeline tr[data-seq="{seq + 3}"]', timeout=RECONNECT_MS)
    assert scorer_page.locator("#provisional").is_hidden()

    rows = log(server, code)
    assert [row["seq"] for row in rows] == list(range(1, seq + 4))
    assert [row["type"] for row in rows[-3:]] == ["hit", "goal", "chukker.end"]
    device_ids = [row["device_id"] for row in rows]
    assert len(set(device_ids)) == len(device_ids)
    assert get(server, f"/api/matches/{code}")["score"] == {"Blue": 3, "Red": 2}

    # "Undo last" voids the chukker's end, with a reason: it stays in the log, struck out.
    console.click("void", reason="ended too early")
    review_page.wait_for_selector(f'#timeline tr.struck[data-seq="{seq + 3}"]')
    assert get(server, f"/api/matches/{code}/events?after_seq={seq + 3}")[0]["event"]["seq"] == seq + 3
    assert get(server, f"/api/matches/{code}/verify")["ok"]

    sheet = new_page(viewport={"width": 1000, "height": 900})
    sheet.goto(f"{server.base}/matches/{code}/sheet")
    assert "Copa Las Acacias" in sheet.inner_text("h1")
    shoot(sheet, "score-sheet.png")


def test_an_event_only_an_official_may_log_waits_for_an_official_and_the_scorer_may_not_decide(
        server: ServerProcess, new_page: Any) -> None:
    code = "roles-1"
    created = create(server, code)
    scorer_key, official_key = created["scorer_key"], created["official_key"]
    page = new_page(viewport=TABLET)
    console = Console(page, code).open(server, scorer_key)

    # Nothing the scorer recorded stands yet: "Undo last" says so and logs nothing.
    console.tap("void")
    page.wait_for_selector("#ruling >> text=Nothing to undo")
    assert page.locator("#form").is_hidden() and console.outbox() == []

    # The Umpire must choose: the engine accepts decide, but not from the scorer's key.
    for event in CHOICE:
        send(server, code, event, scorer_key)
    page.wait_for_selector("#state >> text=choosing")
    assert "decide" in get(server, f"/api/matches/{code}")["accepted"]
    assert page.locator('#buttons [data-type="decide"]').is_disabled()
    assert page.locator("#choosing").is_visible()
    assert page.inner_text("#freehit") == "The Umpire must choose the penalty"  # not "No free hit in progress"

    # An event the scorer's key may never record (voiding the official's decision) waits first in the
    # outbox: refused with 403, it stays in front of the scorer, and the event behind it waits too.
    send(server, code, {"type": "decide", "option": 2}, official_key)
    page.evaluate("""([code, events]) => localStorage.setItem('matchstate:outbox:' + code, JSON.stringify({
        basis: 7, conflict: null, items: events.map((event, i) => ({attempts: 0, refused: null,
            event: {...event, at: new Date(Date.now() + i).toISOString(), id: 'queued-' + i}}))}))""",
                  [code, [{"type": "void", "seq": 7, "reason": "wrong option"},
                          {"type": "card", "team": "Red", "player": 2, "colour": "yellow"}]])
    page.reload()
    page.wait_for_selector("#attention >> text=only an official may")
    assert "needs your attention" in console.status()
    assert "1 event logged after it waits behind it" in page.inner_text("#attention")
    assert page.locator("#recent li.held").count() == 1 and page.locator("#recent li.pending").count() == 1

    # An official, at the scorer's side, records it with the official key, which is not kept.
    page.click('#attention [data-act="hand-over"]')
    page.fill("#ask input", official_key)
    console.answer("confirm")
    console.wait_until_sent()
    assert official_key not in page.evaluate("JSON.stringify(localStorage)")
    rows = log(server, code)
    assert [(row["seq"], row["type"], row["role"]) for row in rows[-3:]] == [
        (7, "decide", "official"), (8, "void", "official"), (9, "card", "scorer")]

    # "Undo last" passes over the official's card to the scorer's own last event.
    send(server, code, {"type": "card", "team": "Blue", "player": 1, "colour": "yellow"}, official_key)
    page.wait_for_selector("#recent >> text=#10")
    console.tap("void")
    assert page.input_value('#form [data-field="seq"]') == "9"
    # The focus is on the reason, its words selected: typed, they take its place, and the event # stays (the focus
    # was on the event #, and a reason typed went into it).
    assert page.evaluate("document.activeElement.dataset.field") == "reason"
    page.keyboard.type("scorer slip")
    assert page.input_value('#form [data-field="seq"]') == "9"
    page.keyboard.press("Enter")
    page.wait_for_selector("#recent li.struck >> text=#9")
    last = get(server, f"/api/matches/{code}/events?after_seq=10")
    assert [(row["type"], row["event"]["seq"], row["event"]["reason"], row["role"]) for row in last] == [
        ("void", 9, "scorer slip", "scorer")]


def test_an_official_confirms_a_decision_before_it_is_recorded(server: ServerProcess, new_page: Any) -> None:
    code = "decide-1"
    created = create(server, code)
    for event in CHOICE:
        send(server, code, event, created["scorer_key"])
    page = new_page()
    page.goto(f"{server.base}/matches/{code}/review#key={created['official_key']}")
    page.wait_for_selector("#review.ready")
    page.click('#choice [data-option="2"]')
    page.wait_for_selector("#ask >> text=Record option 2")
    page.click('#ask [data-action="cancel"]')
    assert get(server, f"/api/matches/{code}")["state"] == "choosing"
    page.click('#choice [data-option="2"]')
    page.click('#ask [data-action="confirm"]')
    page.wait_for_selector("#message >> text=Recorded #7 decide")
    assert log(server, code)[-1]["event"]["option"] == 2


def test_a_private_match_asks_for_its_key_and_its_links_carry_it(tmp_path: Path, new_page: Any) -> None:
    url = f"sqlite:///{tmp_path / 'private.db'}"
    league_store(url)
    with ServerProcess(url, log=tmp_path / "server.log", private=True) as server:
        created = post(server, "/api/matches", START, LEAGUE_KEY)
        code, official_key = created["code"], created["official_key"]
        page = new_page()
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
