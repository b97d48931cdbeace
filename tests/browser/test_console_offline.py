"""Nothing lost, nothing silent: the console offline, reloaded with the server down, after a conflict with
an official, and with an event the engine refuses."""

from __future__ import annotations

from typing import Any

from browser.browsing import RECONNECT_MS, TABLET, Console, create, get, log, send, shoot, wait_until_kept
from matchstate.web.process import ServerProcess


def test_ten_events_logged_offline_show_as_pending_with_the_score_they_imply_then_go_once_in_order(
        server: ServerProcess, scorer: Any) -> None:
    console = scorer("offline-10")
    page = console.page
    console.click("chukker.start")
    page.wait_for_selector(".banner.ok")

    server.stop()
    page.wait_for_selector(".banner.offline", timeout=60_000)
    taps: list[tuple[str, dict[str, object]]] = [
        # The awards come without the whistle the clock running offers: ten events, one each.
        ("penalty.award", {"penalty": "3", "whistle": "false", "to": "Blue"}), ("ball.place", {}), ("play", {}),
        ("hit", {"player": 3, "contact": "hit"}), ("goal", {"team": "Blue", "player": 3}),
        ("knockin.award", {"whistle": "false", "to": "Red"}), ("play", {}), ("hit", {"player": 2, "contact": "hit"}),
        ("goal", {"team": "Red", "player": 2}), ("penalty.award", {"penalty": "2", "whistle": "false", "to": "Blue"}),
        ("goal", {"team": "Blue"}),  # a slip, taken back below
    ]
    for event_type, fields in taps:
        console.click(event_type, **fields)
    assert page.locator("#recent li.pending").count() == 11
    page.wait_for_selector("#score >> text=Blue 2 – Red 2")  # Red's handicap goal, two goals each

    # "Undo last" takes back the goal just logged: it simply leaves the outbox.
    console.tap("void")
    page.wait_for_selector("#form >> text=it has not reached the server")
    page.click("#send")
    page.wait_for_selector("#ruling >> text=Taken back: Goal (Team Blue)")
    queued = console.outbox()
    assert [event["type"] for event in queued] == [event_type for event_type, _ in taps[:10]]

    # The timeline shows them in order, newest first, each with where it leaves the match.
    pending = page.locator("#recent li.pending")
    assert pending.count() == 10
    assert [pending.nth(9 - i).get_attribute("data-id") for i in range(10)] == [event["id"] for event in queued]
    assert "provisional: Blue 0 – Red 1 · placed · Penalty 3 to Blue, 40 yards from goal" in pending.nth(8).inner_text()
    assert page.inner_text("#score") == "Blue 1 – Red 2"
    assert page.inner_text("#state") == "awarded"
    assert page.locator("#provisional").is_visible()
    assert page.inner_text("#freehit") == "Penalty 2 to Blue, from the centre, 30 yards from goal, undefended"
    assert "10 events kept on this device" in console.status()

    server.start()
    console.wait_until_sent()
    rows = log(server, "offline-10")
    assert [row["device_id"] for row in rows[2:]] == [event["id"] for event in queued]
    assert [row["at"] for row in rows[2:]] == sorted(row["at"] for row in rows[2:])
    assert len(rows) == 12
    view = get(server, "/api/matches/offline-10")
    assert (view["score"], view["state"]) == ({"Blue": 1, "Red": 2}, "awarded")
    assert page.inner_text("#score") == "Blue 1 – Red 2" and page.locator("#provisional").is_hidden()


def test_reloaded_with_the_server_down_the_console_opens_from_the_service_worker_with_its_outbox(
        server: ServerProcess, scorer: Any) -> None:
    console = scorer("reload-1")
    page = console.page
    url = f"{server.base}/matches/reload-1/console"
    # The service worker keeps this page once it runs (the page was open before it was).
    wait_until_kept(page)
    console.click("penalty.award", penalty="4", to="Blue")
    page.wait_for_selector("#freehit >> text=Penalty 4 to Blue, 60 yards from goal")
    page.wait_for_selector(".banner.ok")

    server.stop()
    page.wait_for_selector(".banner.offline", timeout=60_000)
    console.click("play")
    console.click("hit", player=4, contact="hit")
    page.wait_for_selector("#state >> text=live")

    page.reload()
    page.wait_for_selector("#console.ready")
    assert "This site can" not in page.content()
    assert page.locator("#recent li.pending").count() == 2
    page.wait_for_selector("#recent >> text=#2")  # the last known state: what was recorded, too
    assert page.inner_text("#state") == "live" and page.locator("#provisional").is_visible()
    assert page.inner_text("#freehit") == "Penalty 4 to Blue, 60 yards from goal"
    page.wait_for_selector(".banner.offline >> text=2 events kept on this device")

    # A fresh tab, too, while the server is still down.
    tab = page.context.new_page()
    tab.goto(url)
    tab.wait_for_selector("#console.ready")
    assert tab.locator("#recent li.pending").count() == 2
    console.click("goal", team="Blue", player=4)  # logged in the first tab, seen in the second
    tab.wait_for_function("() => document.querySelectorAll('#recent li.pending').length === 3")

    server.start()
    console.wait_until_sent()
    Console(tab, "reload-1").wait_until_sent()
    assert [(row["type"], row["role"]) for row in log(server, "reload-1")[2:]] == [
        ("play", "scorer"), ("hit", "scorer"), ("goal", "scorer")]


def test_reloaded_with_the_server_down_the_rulings_cites_still_name_their_clauses(server: ServerProcess,
                                                                                 scorer: Any) -> None:
    """Opened offline, the ruling's cites were bare ids ("36/one-stroke"): the clauses were not kept."""
    console = scorer("reload-cites")
    page = console.page
    wait_until_kept(page)
    console.click("penalty.award", penalty="4", to="Blue")
    console.click("play")
    console.click("hit", player=4, contact="hit")
    console.wait_until_sent()
    page.wait_for_selector("#ruling .cite")
    online = page.locator("#ruling .cite summary").all_inner_texts()
    assert online and all(" · " in cite for cite in online), online  # "36/… · its heading"
    server.stop()
    page.wait_for_selector(".banner.offline", timeout=60_000)
    page.reload()
    page.wait_for_selector("#console.ready")
    page.wait_for_selector("#ruling .cite")
    assert page.locator("#ruling .cite summary").all_inner_texts() == online
    server.start()


def test_a_goal_logged_offline_while_an_official_voided_is_recorded_after_the_scorers_consent(
        server: ServerProcess, scorer: Any) -> None:
    console = scorer("conflict-1")
    page, created = console.page, console.keys
    console.click("chukker.start")
    console.click("penalty.award", penalty="3", whistle="false", to="Red")  # #3, with no whistle
    page.wait_for_selector("#recent >> text=#3")

    # The scorer's network goes; a goal is logged; meanwhile an official voids the penalty.
    server.stop()
    page.wait_for_selector(".banner.offline", timeout=60_000)
    page.context.set_offline(True)  # the scorer's device stays offline while the server comes back
    console.click("goal", team="Blue", player=1)
    page.wait_for_selector("#score >> text=Blue 1 – Red 1")
    goal = console.outbox()[0]
    server.start()
    send(server, "conflict-1", {"type": "void", "seq": 3, "reason": "awarded in error"}, created["official_key"])

    page.context.set_offline(False)
    page.wait_for_selector('#attention [data-act="relog"]', timeout=RECONNECT_MS)
    attention = page.inner_text("#attention")
    assert "While 1 event waited here, the match moved on to #4" in attention
    assert "Void (#3, Reason awarded in error) (official)" in attention
    # One event, said as one: "Discard them…" offered for one goal.
    assert page.inner_text('#attention [data-act="relog"]') == "Log it again now, after it…"
    assert page.inner_text('#attention [data-act="discard"]') == "Discard it…"
    assert "every event recorded" not in console.status() and "needs your attention" in console.status()
    assert console.outbox() == [goal]

    # Logging it again shows the new time and device id before anything is sent.
    page.click('#attention [data-act="relog"]')
    question = page.inner_text("#ask")
    assert "Goal (Team Blue, Player 1)" in question and f"logged at {goal['at']}" in question
    new_id = question.split(", id ")[1].split()[0]
    assert new_id != goal["id"]
    shoot(page, "console-conflict.png", full_page=False)
    console.answer("confirm")
    console.wait_until_sent()

    last = log(server, "conflict-1")[-1]
    assert (last["seq"], last["type"], last["device_id"], last["role"]) == (5, "goal", new_id, "scorer")
    assert last["at"] > log(server, "conflict-1")[-2]["at"]
    assert get(server, "/api/matches/conflict-1")["score"] == {"Blue": 1, "Red": 1}


def test_a_queued_event_the_engine_refuses_stays_in_front_of_the_scorer_until_the_scorer_acts(
        server: ServerProcess, scorer: Any) -> None:
    console = scorer("refused-1")
    page = console.page

    server.stop()
    page.wait_for_selector(".banner.offline", timeout=60_000)
    console.click("hit", player=2, contact="hit")  # no free hit awaits a stroke: the engine will refuse it
    console.click("goal", team="Blue", player=2)
    server.start()

    page.wait_for_selector("#attention >> text=no free hit is awaiting its stroke", timeout=RECONNECT_MS)
    assert "Not recorded: Hit (Player 2, Contact hit, Deliberate no)" in page.inner_text("#attention")
    assert "1 event logged after it waits behind it" in page.inner_text("#attention")
    assert page.locator("#recent li.held").count() == 1
    assert "needs your attention" in console.status()

    # It is still there once reloaded, and nothing behind it went.
    page.reload()
    page.wait_for_selector("#attention >> text=no free hit is awaiting its stroke")
    assert [event["type"] for event in console.outbox()] == ["hit", "goal"]
    assert len(log(server, "refused-1")) == 1

    # Discarding asks first; kept, it stays.
    page.click('#attention [data-act="discard"]')
    assert "will not be recorded" in page.inner_text("#ask")
    console.answer("cancel")
    assert [event["type"] for event in console.outbox()] == ["hit", "goal"]
    page.focus('#attention [data-act="discard"]')
    page.keyboard.press("Enter")
    console.answer("confirm")
    console.wait_until_sent()
    assert page.locator("#attention").is_hidden()
    assert [row["type"] for row in log(server, "refused-1")] == ["match.start", "goal"]
    page.wait_for_selector("#ruling >> text=Discarded, not recorded: Hit")
    # The panel the keyboard answered is gone: the focus is on what was done, not back at the page's start.
    assert page.evaluate("document.activeElement.id") == "ruling"


def test_a_console_whose_live_stream_never_opens_says_it_is_offline(server: ServerProcess, new_page: Any) -> None:
    """A console opened as its server goes away (the page loaded, the live stream refused) had said "Connecting…"
    for as long as it stayed open: nothing it sent had failed, since it had nothing to send."""
    keys = create(server, "never-up")
    page = new_page(viewport=TABLET)
    page.route("**/api/matches/never-up/stream*", lambda route: route.abort())
    Console(page, "never-up").open(server, keys["scorer_key"])
    page.wait_for_selector(".banner.offline", timeout=RECONNECT_MS)
    assert "Connecting" not in page.inner_text("#link")
    page.unroute("**/api/matches/never-up/stream*")  # the stream opens at its next try: online again
    page.wait_for_selector(".banner.ok", timeout=RECONNECT_MS)


def test_a_free_hit_awarded_offline_shows_no_ruling_yet_not_the_last_free_hits(server: ServerProcess,
                                                                               scorer: Any) -> None:
    """Offline, the ruling panel kept the last free hit's "Ball in play" beside a Penalty 4 not taken yet."""
    console = scorer("offline-ruling")
    page = console.page
    console.click("chukker.start")
    console.click("penalty.award", penalty="4", whistle="false", to="Blue")
    console.click("play")
    console.click("hit", player=3, contact="hit")
    page.wait_for_selector("#ruling >> text=Ball in play")
    console.wait_until_sent()

    server.stop()
    page.wait_for_selector(".banner.offline", timeout=60_000)
    console.click("penalty.award", penalty="4", whistle="false", to="Red")
    page.wait_for_selector("#freehit >> text=Penalty 4 to Red")
    page.wait_for_selector("#ruling >> text=No ruling yet on this free hit.")
    assert "Ball in play" not in page.inner_text("#ruling")
    server.start()
    console.wait_until_sent()
    assert log(server, "offline-ruling")[-1]["event"]["to"] == "Red"
    assert [error for error in page.errors if "ERR_CONNECTION_REFUSED" not in error] == []  # but the server's absence
