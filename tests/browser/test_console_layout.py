"""A console a thumb can trust: buttons that stay where they are, a double tap taken once, "Log" always
in view, a question before a likely slip, the 20 seconds expired by themselves, and the server's time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from browser.browsing import NARROW_PHONE, PHONE, RECONNECT_MS, TABLET, Console, create, get, log, send, to_spanish
from matchstate.authority import OFFICIALS_ONLY
from matchstate.web.process import ServerProcess

# Count the tones the console makes (Web Audio makes them: there is no sound file to watch for).
COUNT_TONES = """
    window.tones = 0;
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () { window.tones += 1; return make.call(this); };
"""


def on_the_page(page: Any, selector: str) -> dict[str, float]:
    """Where an element is on the page (not in the view: a focus that scrolls the page moves nothing)."""
    box: dict[str, float] = page.evaluate("""(selector) => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return {x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height};
    }""", selector)
    return box


def in_view(page: Any, selector: str | Any) -> bool:
    """Whether an element (a selector, or a locator) is wholly in the viewport."""
    locator = page.locator(selector) if isinstance(selector, str) else selector
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] \
        and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def test_no_button_moves_between_states_on_a_tablet_or_a_phone(server: ServerProcess, scorer: Any) -> None:
    console = scorer("still-1")
    page = console.page
    page.wait_for_selector(".banner.ok")
    assert page.locator('#buttons [data-type="hit"]').is_disabled()

    def places() -> dict[str, Any]:
        """Where the buttons, the chukker clock and the countdown are, on each screen."""
        seen = {}
        for name, viewport in (("tablet", TABLET), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            seen[name] = {"buttons": console.boxes(), "countdown": on_the_page(page, "#countdown"),
                          "clock": on_the_page(page, "#chukker-clock")}
        return seen

    first = places()
    assert len(first["tablet"]["buttons"]) >= 24

    def still(why: str) -> None:
        assert places() == first, why

    console.click("chukker.start")  # pre-filled: the first
    page.wait_for_selector('#chukker-clock[data-running="true"]')
    still("a chukker in play, its clock running")

    console.click("penalty.award", penalty="2", to="Blue")
    page.wait_for_selector("#state >> text=awarded")
    still("a free hit awarded")
    console.click("play")
    page.wait_for_selector("#countdown:not(.idle)")
    assert page.locator('#buttons [data-type="hit"]').is_enabled()
    still("the 20 seconds running")
    console.click("dribble")
    page.wait_for_selector("#ruling >> text=Penalty 5.a to Red")
    still("a long ruling shown")
    page.set_viewport_size(PHONE)  # the rules it rests on are in its first line, inside the panel's box on a phone
    assert page.inner_text("#ruling .what .cites").startswith("(36/")
    cites, panel = page.locator("#ruling .what .cites").bounding_box(), page.locator("#ruling").bounding_box()
    assert panel["y"] <= cites["y"] and cites["y"] + cites["height"] <= panel["y"] + panel["height"]
    console.click("clock.stop")
    page.wait_for_selector('#chukker-clock[data-running="false"]')
    still("the clock stopped")

    server.stop()
    page.wait_for_selector(".banner.offline", timeout=60_000)
    still("offline")
    page.set_viewport_size(PHONE)
    for language in ("English", "Spanish"):  # longer than the banner on a phone, in both: its start is shown
        shown = page.evaluate("""() => {
            const status = document.querySelector('.status').getBoundingClientRect();
            const words = document.createRange();
            words.selectNodeContents(document.querySelector('.banner.offline'));
            const first = words.getClientRects()[0];
            return first.top >= status.top && first.bottom <= status.bottom;
        }""")
        assert shown, language
        page.click("#lang")
    console.click("hit", player=1, contact="hit")
    console.answer("anyway")  # no Play for the 5.a: asked, and logged anyway
    page.wait_for_selector("#provisional:not([hidden])")
    for language in ("English", "Spanish"):  # what is kept offline, said whole on a phone: it was cut at its end
        page.wait_for_selector(".banner.offline >> text=/1 (event|evento)/")
        box = page.evaluate("""() => {
            const status = document.querySelector('#link.status');
            return [status.scrollHeight, status.clientHeight];
        }""")
        assert box[0] <= box[1], (language, box)
        page.click("#lang")
    still("an event waiting, the state provisional")
    server.start()
    console.wait_until_sent()
    still("back online")


def test_a_second_tap_within_the_guard_is_ignored(server: ServerProcess, scorer: Any) -> None:
    console = scorer("guard-1")
    page = console.page
    console.click("penalty.award", penalty="4", to="Blue")
    page.wait_for_selector("#state >> text=awarded")

    # Two taps on "Play" a moment apart: one "Play".
    console.tap("play")
    page.click('#buttons [data-type="play"]', delay=0, force=True)
    page.wait_for_selector(".banner.ok")
    # The ignored tap is said, not dropped silently; in the language chosen, when it is chosen after.
    page.wait_for_selector("#ruling .notice >> text=A second tap this soon was taken as the same tap")
    page.click("#lang")
    page.wait_for_selector("#ruling .notice >> text=Un segundo toque tan seguido se tomó como el mismo toque")
    page.click("#lang")

    # Two taps on "Log": the second lands where the form was, on a button, and is ignored too.
    console.tap("goal")
    page.click('#form [data-field="team"] [data-value="Blue"]')
    box = page.locator("#send").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.mouse.click(x, y)
    page.wait_for_selector(".banner.ok")
    page.wait_for_timeout(700)
    assert page.locator("#form").is_hidden()
    assert [row["type"] for row in log(server, "guard-1")] == ["match.start", "penalty.award", "play", "goal"]

    # Once the guard is over, a tap is taken again.
    console.tap("tick")
    page.wait_for_selector("#recent >> text=#5")


def test_taps_on_two_buttons_a_moment_apart_are_both_taken_even_on_a_clock_set_back(server: ServerProcess,
                                                                                     scorer: Any) -> None:
    """The guard took any tap within 0.6 s of the last as a repeat of it: a goal tapped just after the hit that
    scored it was dropped, and said to be "the same tap". It guards the same button alone (and any button just
    after a form opened or closed under the finger). It was timed by the device's clock: set back, as a clock
    correction does, it dropped every tap until the clock caught up; it runs on the page's steady clock."""
    console = scorer("guard-2")
    page = console.page
    console.click("chukker.start")
    console.click("penalty.award", penalty="2", to="Blue")
    page.wait_for_selector("#state >> text=awarded")
    page.wait_for_selector("#quick:not(.guarded)")  # the form just closed under the finger: guarded a moment
    page.click('#quick [data-quick="play"]')
    page.wait_for_selector("#countdown:not(.idle)")
    page.click('#quick [data-quick="hit"][data-player="3"]')
    page.click('#quick [data-quick="goal"][data-team="Blue"]')  # at once, as a penalty goes straight in
    page.wait_for_function("() => document.querySelectorAll('#recent li').length >= 5")
    console.wait_until_sent()
    assert [row["type"] for row in log(server, "guard-2")][-3:] == ["play", "hit", "goal"]
    assert not page.locator("#ruling .notice").count() or "same tap" not in page.inner_text("#ruling .notice")
    before = get(server, "/api/matches/guard-2")["score"]

    page.evaluate("() => { const real = Date.now; Date.now = () => real() - 300_000; }")  # a clock set back 5 min
    page.click('#quick [data-quick="goal"][data-team="Red"]')
    page.click('#quick [data-quick="goal"][data-team="Red"]')  # and a double tap: taken once
    page.wait_for_selector("#ruling .notice >> text=A second tap this soon was taken as the same tap")
    console.wait_until_sent()
    assert [row["type"] for row in log(server, "guard-2")][-4:] == ["play", "hit", "goal", "goal"]
    assert get(server, "/api/matches/guard-2")["score"] == {**before, "Red": before["Red"] + 1}


def test_every_forms_log_button_is_in_view_on_a_tablet_and_a_phone(server: ServerProcess, scorer: Any) -> None:
    one_tap = ("match.start", "decide", "chukker.start", "chukker.end")  # no form: a chukker's edge is one tap
    with_fields = [kind for kind, fields in get(server, "/api/event-types").items() if fields and kind not in one_tap]
    console = scorer("forms-1")
    page, created = console.page, console.keys

    def log_in_view(kind: str) -> None:
        # The Log button, or each of them where the form's last choice logs it (an award's team, say).
        sends = page.locator("#form .actions .primary")
        for viewport in (TABLET, PHONE):
            page.set_viewport_size(viewport)
            assert sends.count() and all(in_view(page, sends.nth(i)) for i in range(sends.count())), (kind, viewport)

    def each_form_offline(console: Console, kinds: list[str]) -> None:
        server.stop()  # offline, every button the key's role may log is enabled: the engine rules on arrival
        page.wait_for_selector(".banner.offline", timeout=60_000)
        for kind in kinds:
            page.set_viewport_size(TABLET)
            console.tap(kind)
            page.wait_for_selector("#form:not([hidden])")
            log_in_view(kind)
            page.click('#form [data-act="cancel"]')
            page.wait_for_selector("#form", state="hidden")
        server.start()
        console.wait_until_sent()

    assert "void" in with_fields  # "Undo last": its form
    page.wait_for_selector(".banner.ok")
    console.click("chukker.start")  # something to take back: "Undo last" has its form too
    each_form_offline(console, [kind for kind in with_fields if kind not in OFFICIALS_ONLY])

    # The official's decision, where the Umpire must choose.
    for event in ({"type": "penalty.award", "penalty": "2", "to": "Blue"}, {"type": "play"},
                  {"type": "position.improper", "team": "Red"}, {"type": "hit", "player": 1, "contact": "hit"},
                  {"type": "ball.out", "over": "sideline"}):
        send(server, "forms-1", event, created["scorer_key"])
    page.goto("about:blank")
    official = Console(page, "forms-1").open(server, created["official_key"])
    page.wait_for_selector("#state >> text=choosing")
    official.tap("decide")
    log_in_view("decide")
    page.click('#form [data-act="cancel"]')
    each_form_offline(official, [kind for kind in with_fields if kind in OFFICIALS_ONLY])  # the official's alone


def test_a_hit_with_no_play_before_it_asks_first(server: ServerProcess, scorer: Any) -> None:
    console = scorer("noplay-1")
    page = console.page
    console.click("penalty.award", penalty="2", to="Blue")
    page.wait_for_selector("#state >> text=awarded")

    console.click("hit", player=3, contact="hit")
    assert "No “Play” was logged for this free hit" in page.inner_text("#ask")
    console.answer("cancel")
    assert console.outbox() == [] and len(log(server, "noplay-1")) == 2

    # "Play" was called and not logged: log it, then the hit.
    console.click("hit", player=3, contact="hit")
    console.answer("play-first")
    page.wait_for_selector("#ruling >> text=Ball in play")
    assert [row["type"] for row in log(server, "noplay-1")[2:]] == ["play", "hit"]

    # A hit before "Play" it was: logged as such, and ruled at once.
    console.click("penalty.award", penalty="2", to="Red")
    console.click("hit", player=2, contact="hit")
    console.answer("anyway")
    page.wait_for_selector("#ruling >> text=hit the ball before the Umpire called “Play”")

    # After "Play", no question.
    console.click("ball.place")
    console.click("play")
    console.click("hit", player=2, contact="hit")
    page.wait_for_selector("#recent >> text=#9")
    assert page.locator("#ask").count() == 0


def test_the_twenty_seconds_expire_by_themselves_with_a_cue(server: ServerProcess, scorer: Any) -> None:
    def count_tones_on_a_clock_of_playwrights(page: Any) -> None:
        page.add_init_script(COUNT_TONES)
        page.clock.install()

    console = scorer("tick-1", prepare=count_tones_on_a_clock_of_playwrights)
    page = console.page
    console.click("penalty.award", penalty="3", to="Blue")
    console.click("play")
    page.wait_for_selector("#countdown:not(.idle) >> text=seconds to hit")
    page.wait_for_selector(".banner.ok")

    page.clock.fast_forward("00:19")
    page.wait_for_selector("#countdown.hurry")
    page.wait_for_timeout(300)
    assert [row["type"] for row in log(server, "tick-1")][-1] == "play"
    assert page.evaluate("window.tones") == 0

    page.clock.fast_forward(2000)
    page.wait_for_selector("#ruling >> text=took more than 20 seconds after “Play” to hit", timeout=RECONNECT_MS)
    rows = log(server, "tick-1")
    assert [row["type"] for row in rows[-2:]] == ["play", "tick"]
    assert rows[-1]["ruling"]["penalty"] == "5a" and rows[-1]["ruling"]["to"] == "Red"
    assert page.evaluate("window.tones") == 3
    assert "The 20 seconds ran out" in page.inner_text("#ruling")
    page.wait_for_timeout(500)
    assert len(log(server, "tick-1")) == len(rows), "one clock check for one window"


def test_events_carry_the_servers_time_from_a_device_an_hour_behind(server: ServerProcess, scorer: Any) -> None:
    console = scorer("clock-1", prepare=lambda page: page.clock.install(time=datetime.now(UTC) - timedelta(hours=1)))
    page = console.page
    page.wait_for_function("() => JSON.parse(localStorage.getItem('matchstate:clock') || 'null') !== null")
    console.click("penalty.award", penalty="4", to="Blue")
    console.click("play")
    page.wait_for_selector(".banner.ok")
    play = log(server, "clock-1")[-1]
    assert play["type"] == "play"
    drift = datetime.fromisoformat(play["received_at"]) - datetime.fromisoformat(play["at"])
    assert abs(drift.total_seconds()) < 2, drift
    seconds = float(page.inner_text("#countdown .seconds"))
    assert 15 < seconds <= 20


# Where a character of a text (the score's, a quick goal's) may be seen: inside its own box and every box
# around it that clips, and on the screen.
EVERY_CHARACTER_SHOWN = """(selector) => {
    const score = document.querySelector(selector);
    let clip = {left: 0, top: 0, right: innerWidth, bottom: innerHeight};
    for (let node = score; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (node === score || style.overflowX !== "visible" || style.overflowY !== "visible") {
            const box = node.getBoundingClientRect();
            clip = {left: Math.max(clip.left, box.left), top: Math.max(clip.top, box.top),
                    right: Math.min(clip.right, box.right), bottom: Math.min(clip.bottom, box.bottom)};
        }
    }
    const text = score.firstChild;
    const hidden = [];
    for (let i = 0; i < text.length; i++) {
        if (!text.data[i].trim()) continue;
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width === 0 || r.left < clip.left - 0.5 || r.right > clip.right + 0.5
            || r.top < clip.top - 0.5 || r.bottom > clip.bottom + 0.5) hidden.push(text.data[i]);
    }
    return {text: text.data, hidden};
}"""


# Whether a fitted text's size is the largest that shows it whole on one line: a pixel larger, it would not.
LARGEST_THAT_FITS = """(selector) => {
    const box = document.querySelector(selector);
    const size = box.style.fontSize;
    if (!size || box.classList.contains("wrapped")) return true;  // the stylesheet's own, or the smallest
    const overflows = () => {
        const range = document.createRange();
        range.selectNodeContents(box);
        const style = getComputedStyle(box);
        const room = box.getBoundingClientRect().width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
            - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
        return range.getBoundingClientRect().width > room;
    };
    box.style.fontSize = `${parseFloat(size) + 1}px`;
    const larger = overflows();
    box.style.fontSize = size;
    return larger && !overflows();
}"""


def test_every_character_of_the_score_and_the_goals_shows_on_a_phone_with_long_team_names(
        server: ServerProcess, new_page: Any) -> None:
    teams = ["Aguada Norte", "La Dolfina Polo Ranch"]
    keys = create(server, "long-names", teams=teams, handicap_goals={teams[0]: 12, teams[1]: 11}, rosters={})
    for viewport in (PHONE, NARROW_PHONE, TABLET):
        page = new_page(viewport=viewport)
        Console(page, "long-names").open(server, keys["scorer_key"])
        page.wait_for_selector("#score >> text=La Dolfina Polo Ranch 11")
        shown = page.evaluate(EVERY_CHARACTER_SHOWN, "#score")
        assert shown["text"] == "Aguada Norte 12 – La Dolfina Polo Ranch 11"
        assert shown["hidden"] == [], f"hidden at {viewport['width']} px: {''.join(shown['hidden'])}"
        assert page.evaluate(LARGEST_THAT_FITS, "#score"), f"smaller than it needs at {viewport['width']} px"
        for team in teams:  # and each quick goal's team, whole, in its button of fixed size
            shown = page.evaluate(EVERY_CHARACTER_SHOWN, f'#quick .goal[data-team="{team}"]')
            assert shown["text"] == f"Goal {team}"
            assert shown["hidden"] == [], f"hidden at {viewport['width']} px: {''.join(shown['hidden'])}"
            assert page.evaluate(LARGEST_THAT_FITS, f'#quick .goal[data-team="{team}"]')
        page.close()


def test_every_event_buttons_words_fit_it_on_a_phone_in_spanish(server: ServerProcess, scorer: Any) -> None:
    """"Aproximació|n abortada" was cut at the button's edge, and the key's hint under two lines sat on its border."""
    console = scorer("es-buttons", viewport=PHONE)
    page = console.page
    to_spanish(page)
    page.wait_for_selector('#buttons [data-type="approach.abort"] >> text=Aproximación abortada')
    overflowing = page.evaluate("""() => [...document.querySelectorAll('#buttons button.event')].filter((button) => {
        const words = button.querySelector('.what'), box = button.getBoundingClientRect();
        const hint = button.querySelector('kbd');
        const hintOut = hint && hint.offsetParent !== null && hint.getBoundingClientRect().bottom > box.bottom;
        return words.scrollWidth > words.clientWidth || hintOut;
    }).map((button) => button.dataset.type)""")
    assert overflowing == []
