"""The scoring seat, as the scorer and the official meet it: events a console held offline while another took
the seat are shown to the scorer, in time order and as they were logged, to send as they were or to hand to
the review, where the official logs them or sets aside one the engine refuses; a clock check the seat's timer logged
is marked so in the review."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from browser.browsing import LEAGUE_KEY, PHONE, Console, get, log, post
from matchstate.web.process import ServerProcess

HELD_TITLE = "#attention >> text=Not sent: this console does not hold the scoring seat"


def lose_the_seat_offline(server: ServerProcess, scorer: Any, new_page: Any, code: str) -> tuple[Console, list[Any]]:
    """A tablet holds the seat, logs an award and a goal offline, and a phone takes the seat meanwhile; back
    online, the tablet shows what it held. Returns the tablet and the events it held."""
    tablet: Console = scorer(code)
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    tablet.page.context.set_offline(True)
    tablet.click("penalty.award", penalty="3", to="Blue")
    tablet.click("goal", team="Blue")
    held = tablet.outbox()
    phone_page = new_page(viewport=PHONE)
    phone = Console(phone_page, code).open(server, tablet.keys["scorer_key"])
    phone_page.click('#seat [data-act="take-seat"]')
    phone.answer("confirm")
    phone_page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    tablet.page.context.set_offline(False)
    tablet.page.wait_for_selector(HELD_TITLE)
    shown = tablet.page.locator("#attention ul.held li").all_inner_texts()
    assert len(shown) == 2 and "Penalty 3" in shown[0] and "Goal" in shown[1]  # in time order
    assert [row["type"] for row in log(server, code)] == ["match.start"]  # nothing sent blindly
    tablet.page.wait_for_selector("#link .banner.warn")  # said as held, not "Sending 2…" (which it is not)
    assert "needs your attention" in tablet.status() and "Sending" not in tablet.status()
    return tablet, held


def test_a_console_that_lost_the_seat_sends_what_it_held_as_it_was(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    tablet, held = lose_the_seat_offline(server, scorer, new_page, "seat-send")
    tablet.page.click('#attention [data-act="send-held"]')
    tablet.wait_until_sent()
    rows = log(server, "seat-send")[1:]
    assert [(row["event"]["type"], row["event"]["at"]) for row in rows] == [(e["type"], e["at"]) for e in held]


def test_a_console_that_lost_the_seat_hands_what_it_held_to_the_review(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    tablet, held = lose_the_seat_offline(server, scorer, new_page, "seat-hand")
    tablet.page.click('#attention [data-act="hand-review"]')
    tablet.page.wait_for_selector("#ruling >> text=Handed to the review")
    assert tablet.outbox() == []
    # Handed is not recorded: the banner says what waits for the official, until the official has logged it.
    tablet.page.wait_for_selector("#link >> text=2 events handed to the review wait for the official")
    review = new_page()
    review.goto(f"{server.base}/matches/seat-hand/review#key={tablet.keys['official_key']}")
    review.wait_for_selector("#handed >> text=Held by a console without the seat")
    for _ in held:  # the official logs each, oldest first, as it was
        review.locator('#handed [data-act="log-handed"]').first.click()
        review.wait_for_selector("#message >> text=Recorded")
        review.wait_for_function("() => !document.querySelector('#message').textContent.includes('Not')")
    review.wait_for_selector("#handed", state="hidden")
    rows = log(server, "seat-hand")[1:]
    assert [(row["event"]["type"], row["event"]["at"], row["role"]) for row in rows] == [
        (e["type"], e["at"], "official") for e in held]
    tablet.page.wait_for_selector("#link >> text=Online: every event recorded.")


def test_the_review_logs_now_what_the_log_moved_past_or_sets_it_aside_and_the_banner_says_nothing_waits(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    """The seat changes hands because the other console logs on, so what was handed is earlier than the log's last
    event: "Log it as it was" was refused every time (422, earlier than the event before it), and the event waited
    for ever, the console's banner saying so. The official logs it now, after a confirmation that says its new time,
    or sets it aside; neither the review nor the banner says it waits any more."""
    tablet, held = lose_the_seat_offline(server, scorer, new_page, "seat-aside")
    tablet.page.click('#attention [data-act="hand-review"]')
    tablet.page.wait_for_selector("#link >> text=2 events handed to the review wait for the official")
    # The seat's console logs on meanwhile: what the tablet held is now earlier than the log's last event.
    now = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    post(server, "/api/matches/seat-aside/events", {"event": {"type": "chukker.start", "chukker": 1, "at": now,
                                                              "id": "phone-1"}}, tablet.keys["scorer_key"])
    review = new_page()
    review.goto(f"{server.base}/matches/seat-aside/review#key={tablet.keys['official_key']}")
    review.wait_for_selector("#handed >> text=Held by a console without the seat")
    assert review.locator('#handed [data-act="log-handed"]').count() == 0  # it could only be refused
    assert review.locator('#handed [data-act="relog-handed"]').all_inner_texts() == ["Log it now, after #2"] * 2
    review.locator('#handed [data-act="relog-handed"]').first.click()
    assert "Log this event now, after #2?" in review.inner_text("#ask")
    assert "as it was, it would be refused as earlier than the event before it" in review.inner_text("#ask")
    review.click('#ask [data-action="cancel"]')  # "Keep it listed": nothing is logged
    review.wait_for_selector("#ask", state="detached")
    assert [row["type"] for row in log(server, "seat-aside")] == ["match.start", "chukker.start"]
    review.locator('#handed [data-act="relog-handed"]').first.click()
    review.click('#ask [data-action="confirm"]')
    review.wait_for_selector("#message >> text=Recorded")
    review.wait_for_function("() => document.querySelectorAll('#handed li').length === 1")
    tablet.page.wait_for_selector("#link >> text=1 event handed to the review waits for the official")
    relogged = log(server, "seat-aside")[2]
    assert (relogged["event"]["id"], relogged["event"]["type"], relogged["role"]) == (held[0]["id"], "penalty.award",
                                                                                      "official")
    assert relogged["event"]["at"] >= now  # logged now, after the phone's event
    review.locator('#handed [data-act="aside-handed"]').first.click()
    assert "Set this event aside?" in review.inner_text("#ask")
    review.click('#ask [data-action="cancel"]')  # "Keep it listed": nothing is set aside
    review.wait_for_selector("#ask", state="detached")
    assert review.locator("#handed li").count() == 1
    review.locator('#handed [data-act="aside-handed"]').first.click()
    review.click('#ask [data-action="confirm"]')
    review.wait_for_selector("#message >> text=Set aside:")
    review.wait_for_selector("#handed", state="hidden")
    tablet.page.wait_for_selector("#link >> text=Online: every event recorded.")
    assert [row["type"] for row in log(server, "seat-aside")] == ["match.start", "chukker.start", "penalty.award"]
    seat = get(server, "/api/matches/seat-aside/seat")
    assert seat["handed"] == [] and [item["event"] for item in seat["set_aside"]] == held[1:]
    assert all(item["set_aside"]["label"].startswith("Computer · ") for item in seat["set_aside"])


@pytest.mark.parametrize(("language", "mark"), [
    ("en", r"logged by the console's timer, 2\d\.\d s after “Play”"),
    ("es", r"registrado por el temporizador de la consola, 2\d\.\d s después de “Play”")])
def test_the_review_marks_a_clock_check_the_seats_timer_logged(
        server: ServerProcess, scorer: Any, new_page: Any, language: str, mark: str) -> None:
    code = f"seat-timer-{language}"
    tablet: Console = scorer(code, prepare=lambda page: page.clock.install())
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    tablet.click("penalty.award", penalty="4", to="Blue")
    tablet.click("play")
    tablet.page.wait_for_selector(".banner.ok")
    tablet.page.clock.fast_forward("00:21")
    tablet.page.wait_for_selector("#ruling >> text=took more than 20 seconds")
    tablet.wait_until_sent()
    review = new_page()
    review.add_init_script(f"localStorage.setItem('matchstate:lang', '{language}')")
    review.goto(f"{server.base}/matches/{code}/review#key={tablet.keys['official_key']}")
    review.wait_for_selector("#timeline .timer-mark")
    assert re.fullmatch(f"· {mark}", review.locator("#timeline .timer-mark").inner_text().strip())
    assert review.locator("#timeline .timer-mark").count() == 1
    assert "null" not in review.locator("#timeline").inner_text()


def test_a_console_whose_key_is_revoked_no_longer_says_it_holds_the_seat_and_asks_for_the_new_key(
        server: ServerProcess, scorer: Any) -> None:
    tablet: Console = scorer("seat-revoked", prepare=lambda page: page.clock.install())
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    post(server, "/api/matches/seat-revoked/keys/scorer", {}, LEAGUE_KEY, method="DELETE")
    tablet.page.clock.fast_forward(6000)  # its next heartbeat: the server refuses the key
    tablet.page.wait_for_selector("#keybox >> text=The server does not accept this key for this match")
    assert tablet.page.locator("#seat").inner_text() == ""
    new_key = post(server, "/api/matches/seat-revoked/keys/scorer", {}, LEAGUE_KEY)["key"]
    tablet.page.fill("#key", new_key)
    tablet.page.dispatch_event("#key", "change")
    tablet.page.clock.fast_forward(6000)
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    assert tablet.page.locator("#keybox").is_hidden()


def test_a_console_whose_match_is_removed_says_so_and_no_longer_that_it_holds_the_seat(
        server: ServerProcess, scorer: Any) -> None:
    tablet: Console = scorer("seat-removed", prepare=lambda page: page.clock.install())
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    post(server, "/api/matches/seat-removed", {"reason": "entered twice"}, LEAGUE_KEY, method="DELETE")
    tablet.page.clock.fast_forward(6000)  # its next heartbeat: the server has no such match
    tablet.page.wait_for_selector("#link .banner.warn >> text=The server no longer holds this match: it was removed")
    assert tablet.page.locator("#seat").inner_text() == ""
    sent: list[str] = []
    tablet.page.on("request", lambda request: sent.append(request.url) if request.method == "POST" else None)
    tablet.click("chukker.start")  # kept on the device, as the banner says, not sent to be refused
    tablet.page.wait_for_selector("#link >> text=1 event kept on this device, not sent")
    tablet.page.clock.fast_forward(6000)  # a heartbeat more, and the outbox's own turn
    tablet.page.wait_for_function("() => document.querySelector('#link').textContent.includes('1 event kept')")
    assert [url for url in sent if url.endswith("/events")] == [] and len(tablet.outbox()) == 1


def test_an_event_a_revoked_key_could_not_send_waits_for_its_scorer_where_another_console_took_the_seat(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    tablet: Console = scorer("seat-revoked-2", prepare=lambda page: page.clock.install())
    tablet.page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    post(server, "/api/matches/seat-revoked-2/keys/scorer", {}, LEAGUE_KEY, method="DELETE")
    tablet.click("chukker.start")  # refused: the key is revoked
    tablet.page.wait_for_selector("#keybox >> text=The server does not accept this key for this match")
    new_key = post(server, "/api/matches/seat-revoked-2/keys/scorer", {}, LEAGUE_KEY)["key"]
    phone_page = new_page(viewport=PHONE)
    phone = Console(phone_page, "seat-revoked-2").open(server, new_key)
    phone_page.click('#seat [data-act="take-seat"]')
    phone.answer("confirm")
    phone_page.wait_for_selector("#seat >> text=This console holds the scoring seat")
    tablet.page.fill("#key", new_key)
    tablet.page.dispatch_event("#key", "change")
    tablet.page.wait_for_selector(HELD_TITLE)  # shown to its scorer, to send as it was or hand to the review
    assert [row["type"] for row in log(server, "seat-revoked-2")] == ["match.start"]  # nothing sent blindly
