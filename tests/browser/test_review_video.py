"""The officials' review of log format 1.2 as an official works it: a real recording (made here by ffmpeg, a
frame counter on each frame) opened from the laptop and pinned to a row, each row's moment in it, a selected
row playing the clip from three seconds before it and the row the clip shows marked as it plays, frame steps
and slow motion by keyboard; a review asked, overturned and carried out by a void, in English and Spanish; a
team with no challenge left refused before anything is sent; a chukker confirmed with a wrong score queried
until corrected, and one whose end named another number confirmed as the chukker it ended; the audit window
counting down on a clock the test moves."""

from __future__ import annotations

import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from browser.browsing import assert_no_english, create, get, log, post, send, shoot, to_spanish
from matchstate.web.process import ServerProcess

LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 1024, "height": 768}


def log_at(server: ServerProcess, code: str, key: str, event: dict[str, Any]) -> None:
    seq = get(server, f"/api/matches/{code}")["seq"]
    post(server, f"/api/matches/{code}/events", {"event": {**event, "id": f"video-{code}-{seq + 1}"},
                                                   "expected_seq": seq}, key)


# seq 2 to 6: a chukker's start, a whistle, a goal by Red #2 five seconds later, the clock again, Blue #1's goal.
CHUKKER: list[dict[str, Any]] = [
    {"type": "chukker.start", "at": "2026-11-29T15:00:05Z", "chukker": 1},
    {"type": "whistle", "at": "2026-11-29T15:01:00Z"},
    {"type": "goal", "at": "2026-11-29T15:01:05Z", "team": "Red", "player": 2},
    {"type": "clock.start", "at": "2026-11-29T15:01:10Z"},
    {"type": "goal", "at": "2026-11-29T15:02:00Z", "team": "Blue", "player": 1},
]
END = {"type": "chukker.end", "at": "2026-11-29T15:08:00Z", "chukker": 1}


def open_review(server: ServerProcess, new_page: Any, code: str, events: list[dict[str, Any]],
                viewport: dict[str, int] = LAPTOP, prepare: Any = None, **start: Any) -> tuple[dict[str, Any], Any]:
    keys = create(server, code, **start)
    for event in events:
        log_at(server, code, keys["scorer_key"], event)
    page = new_page(viewport=viewport)
    if prepare is not None:
        prepare(page)
    page.goto(f"{server.base}/matches/{code}/review#key={keys['official_key']}")
    page.wait_for_selector("#review.ready")
    page.wait_for_selector("#live.ok")
    return keys, page


def video_time(page: Any) -> float:
    return float(page.eval_on_selector(".player video", "v => v.currentTime"))


def at_frame(page: Any, seconds: float) -> None:
    """Wait until the clip is at ``seconds`` (within a sixth of a frame)."""
    page.wait_for_function("s => Math.abs(document.querySelector('.player video').currentTime - s) < 0.005",
                           arg=seconds)


def test_a_recording_pinned_to_a_row_plays_from_each_selected_row_and_marks_the_row_it_shows(
        server: ServerProcess, new_page: Any, clip: Path) -> None:
    keys, page = open_review(server, new_page, "video-1", CHUKKER)
    page.set_input_files("#clip-file", str(clip))  # from the laptop: nothing is uploaded
    page.wait_for_function("() => document.querySelector('.player video').readyState >= 1")
    assert page.inner_text(".player .sync").startswith("Not pinned to the log yet")

    page.click('#timeline tr[data-seq="3"]')  # the whistle: a moment the camera shows plainly
    page.wait_for_selector('#timeline tr.selected[data-seq="3"]')
    page.eval_on_selector(".player video", "v => { v.pause(); v.currentTime = 2; }")  # frame 60 on the camera
    page.wait_for_function("() => document.querySelector('.player video').currentTime === 2")
    assert page.inner_text(".player .pin") == "Pin this frame to #3"
    page.click(".player .pin")
    page.wait_for_selector("#message >> text=Recorded #7")
    page.click("#lang")  # the message is said again in the language chosen
    page.wait_for_selector("#message >> text=Registrado #7")
    page.click("#lang")
    sync = log(server, "video-1")[-1]
    assert (sync["type"], sync["role"], sync["event"]["clip"]) == ("video.sync", "official", "umpire-1.webm")
    # logged now (no event goes back in time), its clip_seconds carrying the whistle's moment forward
    since = (datetime.fromisoformat(sync["at"]) - datetime(2026, 11, 29, 15, 1, tzinfo=UTC)).total_seconds()
    assert abs(sync["event"]["clip_seconds"] - (2 + since)) < 0.002
    page.wait_for_selector(".player .sync >> text=Pinned")
    # Said as where the clip begins in the log's time, 2 s before the whistle: it said the sync's moment carried
    # forward, well past the end of a 14 s clip.
    assert re.fullmatch(r"Pinned: the clip begins at \d\d:00:58\.0 of the log", page.inner_text(".player .sync"))

    # Every row has its moment in the clip: Red's goal five seconds after the whistle.
    assert page.inner_text('#timeline tr[data-seq="4"] .moment') == "umpire-1.webm 0:07.00"
    assert page.inner_text('#timeline tr[data-seq="2"] .moment') == "umpire-1.webm −0:53.00"
    assert page.locator("#missing li").count() == 0

    # Selecting Red's goal plays the clip from three seconds before it: 7 − 3 = 4.
    page.evaluate("""() => { const v = document.querySelector('.player video');
      window.seekedAt = new Promise((done) => v.addEventListener('seeked', () => done(v.currentTime),
                                                                 {once: true})); }""")
    page.click('#timeline tr[data-seq="4"]')
    assert abs(page.evaluate("() => window.seekedAt") - 4.0) < 0.1
    # As it plays the row it shows is marked: the whistle, then the goal once the clip reaches 7 s.
    page.wait_for_selector('#timeline tr.playing[data-seq="3"][aria-current="time"]')
    page.wait_for_selector('#timeline tr.playing.selected[data-seq="4"]', timeout=20_000)
    assert page.locator("#timeline tr.playing").count() == 1
    assert video_time(page) >= 7

    # The keys: K pauses, "." and "," step a frame, "[" and "]" slow down and speed up.
    page.focus('#timeline tr[data-seq="4"]')
    page.keyboard.press("k")
    page.wait_for_function("() => document.querySelector('.player video').paused")
    before = video_time(page)
    page.keyboard.press(".")
    at_frame(page, before + 1 / 30)
    page.keyboard.press(",")
    page.keyboard.press(",")
    at_frame(page, before - 1 / 30)
    page.keyboard.press("[")
    assert page.eval_on_selector(".player video", "v => v.playbackRate") == 0.5
    page.keyboard.press("[")
    page.keyboard.press("[")
    assert page.eval_on_selector(".player video", "v => v.playbackRate") == 0.25
    page.keyboard.press("]")
    assert page.eval_on_selector(".player video", "v => v.playbackRate") == 0.5
    # The status line follows the video's ratechange event, a moment after the rate itself.
    page.wait_for_function("() => document.querySelector('.player .status').innerText.includes('speed 0.5×')")
    assert "K play or pause" in page.inner_text("#video .hint")
    shoot(page, "review-video.png", full_page=False)

    # Opened again on another laptop: the clip is missing until its recording is opened and matched to it.
    other = new_page(viewport=TABLET)
    other.goto(f"{server.base}/matches/video-1/review#key={keys['official_key']}")
    other.wait_for_selector("#review.ready")
    assert other.inner_text("#missing li") == (
        "Clip umpire-1.webm is not open on this laptop: open its recording above to play it.")
    renamed = clip.with_name("helmet.webm")
    shutil.copy(clip, renamed)
    other.set_input_files("#clip-file", str(renamed))
    other.select_option(".player select.clip-name", "umpire-1.webm")  # the official says which clip it is
    other.wait_for_selector(".player .sync >> text=Pinned")
    assert other.locator("#missing li").count() == 0
    side = other.locator(".side").bounding_box()
    timeline = other.locator("#pane").bounding_box()
    assert side["x"] >= timeline["x"] + timeline["width"] - 1  # the video beside the timeline, on a tablet
    assert side["x"] + side["width"] <= TABLET["width"]
    assert page.errors == [] and other.errors == []


def test_a_clip_that_cannot_be_played_says_so(server: ServerProcess, new_page: Any, tmp_path: Path) -> None:
    _, page = open_review(server, new_page, "video-2", CHUKKER)
    broken = tmp_path / "broken.webm"
    broken.write_bytes(b"not a recording at all" * 100)
    page.set_input_files("#clip-file", str(broken))
    page.wait_for_selector(".player .status.trouble")
    assert page.inner_text(".player .status") == (
        "Clip broken.webm cannot be played here: the browser cannot read this recording")
    assert page.is_disabled(".player .pin")  # no frame to pin: nothing can go into the log
    page.errors.clear()  # the browser's own report of the unreadable file


def test_a_row_outside_the_recording_is_said_and_a_recording_opened_twice_keeps_its_clip(
        server: ServerProcess, new_page: Any, clip: Path) -> None:
    """A row before the clip begins played the clip from its start, another row marked as playing; a row after it
    ends left it at its end: neither said a word. Opening one recording twice left both clip boxes empty."""
    pinned = {"type": "video.sync", "at": "2026-11-29T15:02:01Z", "clip": "umpire-1.webm", "clip_seconds": 63}
    keys, page = open_review(server, new_page, "outside-1", CHUKKER)  # the whistle (#3) at 0:02 of the clip
    log_at(server, "outside-1", keys["official_key"], pinned)
    page.set_input_files("#clip-file", str(clip))
    page.wait_for_function("() => document.querySelector('.player video').readyState >= 1")
    page.wait_for_selector(".player .sync >> text=Pinned")
    page.click('#timeline tr[data-seq="2"]')  # the chukker's start: 53 s before the recording begins
    page.wait_for_selector(".player .status >> text=#2 is 0:53.00 before clip umpire-1.webm begins")
    assert page.eval_on_selector(".player video", "v => v.paused && v.currentTime === 0")
    page.click('#timeline tr[data-seq="6"]')  # Blue's goal: 62 s in, after the 14 s recording ends
    page.wait_for_selector(".player .status >> text=#6 is 0:48.00 after clip umpire-1.webm ends")
    page.eval_on_selector(".player video", "v => { v.currentTime = 5; }")  # moved on by hand: no longer said
    page.wait_for_selector(".player .status >> text=0:05.00")
    page.click('#timeline tr[data-seq="4"]')  # Red's goal, at 0:07: played, and the status is the clip's moment
    page.wait_for_function("() => !document.querySelector('.player video').paused")
    page.wait_for_selector(".player .status >> text=speed 1×")
    page.set_input_files("#clip-file", str(clip))  # the same recording again
    page.wait_for_function("() => document.querySelectorAll('.player video').length === 2")
    assert page.eval_on_selector_all(".player select.clip-name", "all => all.map((s) => s.value)") == [
        "umpire-1.webm", "umpire-1.webm"]
    assert page.errors == []


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_review_overturned_is_carried_out_by_its_void_and_award(server: ServerProcess, new_page: Any,
                                                                  language: str) -> None:
    code = f"overturn-{language}"
    _, page = open_review(server, new_page, code, CHUKKER, challenges=1)
    spanish = language == "es"
    if spanish:
        to_spanish(page)
    assert page.inner_text("#challenges") == ("Desafíos restantes: Blue 1, Red 1" if spanish
                                              else "Challenges left: Blue 1, Red 1")
    page.click('#timeline tr[data-seq="6"]')  # Blue #1's goal, challenged by Red
    page.click('#review-ask [data-asker="Red"]')
    page.wait_for_selector("#review-open .open-review")
    assert page.inner_text("#review-open .open-review") == (
        "En revisión: #6 Gol (Equipo Blue, Jugador 1), pedida por el desafío de Red" if spanish
        else "Under review: #6 Goal (Team Blue, Player 1), asked by Red's challenge")
    assert page.locator('#timeline tr[data-seq="6"] .under-review').count() == 1
    assert page.locator('#timeline tr[data-seq="7"] .reviewing').count() == 1
    request = log(server, code)[-1]["event"]
    assert (request["type"], request["about"], request["asked_by"]) == ("review.request", 6, "Red")
    if spanish:
        assert_no_english(page)

    # A goal has no ruling: the panel said "null" where a ruling would be.
    assert "null" not in page.inner_text("#review-open")
    page.click('#review-open [data-outcome="overturned"]')
    page.wait_for_selector("#void[open]")  # straight to the void, its reason the review (stored with it)
    assert page.input_value("#void input") == ("Revocada en la revisión #7" if spanish else "Overturned on review #7")
    page.click('#void button[value="void"]')
    page.wait_for_selector('#timeline tr.struck[data-seq="6"]')
    events = [row["event"] for row in log(server, code)]
    assert (events[7]["type"], events[7]["outcome"]) == ("review.outcome", "overturned")
    assert (events[8]["type"], events[8]["seq"], events[8]["reason"]) == (
        "void", 6, "Revocada en la revisión #7" if spanish else "Overturned on review #7")
    assert page.inner_text("#review-open .carry-out") == (  # what to do next is said, not stored
        "Revocada: anule el #6 para cumplirla y luego registre la sanción que la reemplaza." if spanish
        else "Overturned: void #6 to carry it out, then log the award that replaces it.")
    assert "null" not in page.inner_text("#review-open")
    assert page.inner_text("#score") == "Blue 0 – Red 2"
    # An overturned challenge keeps it.
    assert page.inner_text("#challenges").endswith("Blue 1, Red 1")
    page.reload()  # the step still to do is read from the log: a reload (another official's page) keeps it
    page.wait_for_selector("#review.ready #review-open .carry-out")
    assert page.locator('#review-open [data-act="carry-void"]').count() == 0  # voided already: the award is left

    page.click('#review-open [data-act="award"]')  # and the award that replaces the goal
    page.wait_for_selector("#award[open]")
    page.click('#award [data-field="penalty"] [data-value="2"]')
    page.click('#award [data-field="to"] [data-value="Red"]')
    page.click("#award #send")
    page.wait_for_selector(f"#message >> text={'Registrado' if spanish else 'Recorded'} #10")
    assert log(server, code)[-1]["event"]["type"] == "penalty.award"
    assert page.locator("#review-open .carry-out").count() == 0
    assert page.errors == []


def test_a_team_with_no_challenge_left_is_refused_before_anything_is_sent(server: ServerProcess,
                                                                          new_page: Any) -> None:
    _, page = open_review(server, new_page, "no-challenge", CHUKKER)  # challenges: 0, the default
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.method == "POST" else None)
    page.click('#timeline tr[data-seq="6"]')
    button = page.locator('#review-ask [data-asker="Red"]')
    assert button.inner_text() == "Red's challenge (0 left)"
    assert button.get_attribute("aria-disabled") == "true"
    button.click(force=True)  # aria-disabled, as said to a screen reader: still a button a person may press
    assert page.inner_text("#message") == "Red has no challenge left: nothing was sent."
    assert sent == []
    assert len(log(server, "no-challenge")) == 6
    page.focus('#review-ask [data-asker="umpire"]')  # the umpire needs none; asked by keyboard
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-open .open-review")
    assert len(sent) == 1
    # The button pressed is gone with the ask: the focus fell to the page's top, 28 Tabs from the outcomes.
    page.wait_for_function("() => document.activeElement.id === 'review-note'")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.outcome") == "stands"
    assert page.errors == []


def test_the_open_reviews_note_keeps_its_words_and_the_focus_as_another_event_arrives(server: ServerProcess,
                                                                                      new_page: Any) -> None:
    """Each event the live stream brought drew the open review again: the note being typed lost its words and the
    focus (a test waiting for that focus failed now and then, under load)."""
    keys, page = open_review(server, new_page, "note-kept", CHUKKER)
    page.click('#timeline tr[data-seq="6"]')
    page.click('#review-ask [data-asker="umpire"]')
    page.wait_for_selector("#review-open .open-review")
    page.fill("#review-note", "slow motion, camera 2")
    log_at(server, "note-kept", keys["official_key"],
           {"type": "video.sync", "at": datetime.now(UTC).isoformat(), "clip": "umpire-1.webm", "clip_seconds": 3})
    page.wait_for_selector('#timeline tr[data-seq="8"]')  # drawn again, live
    assert page.input_value("#review-note") == "slow motion, camera 2"
    assert page.evaluate("() => document.activeElement.id") == "review-note"
    assert page.errors == []


def test_a_chukker_confirmed_with_a_wrong_score_is_queried_until_corrected(server: ServerProcess,
                                                                           new_page: Any) -> None:
    keys, page = open_review(server, new_page, "confirm-1", [*CHUKKER, END])
    chukker = page.locator('#chukkers li[data-chukker="1"]')
    assert chukker.get_attribute("data-state") == "unconfirmed"
    assert chukker.locator('input[data-team="Blue"]').input_value() == "1"
    chukker.locator('input[data-team="Red"]').fill("3")  # Red has 2 (1 on handicap)
    # An event arriving live while the official types draws the list again, and keeps what was typed.
    seq = get(server, "/api/matches/confirm-1")["seq"]
    send(server, "confirm-1", {"type": "tick"}, keys["scorer_key"])
    page.wait_for_selector(f'#timeline tr[data-seq="{seq + 1}"]')
    assert page.locator('#chukkers li[data-chukker="1"] input[data-team="Red"]').input_value() == "3"
    assert page.evaluate("() => [document.activeElement.dataset.team, document.activeElement.dataset.chukker]") == [
        "Red", "1"]  # and the official goes on typing where they were
    chukker.locator("button").click()
    page.wait_for_selector('#chukkers li[data-chukker="1"][data-state="queried"]')
    assert page.inner_text('#chukkers li[data-chukker="1"] .query') == (
        "Score query: the score confirmed differs from the log's; confirm again once corrected.")
    page.wait_for_selector(f'#timeline tr.flagged[data-seq="{seq + 2}"] .flag[data-flag="score-query"]')
    chukker = page.locator('#chukkers li[data-chukker="1"]')
    chukker.locator('input[data-team="Red"]').fill("2")
    chukker.locator("button").click()
    page.wait_for_selector('#chukkers li[data-chukker="1"][data-state="confirmed"]')
    assert page.locator("#chukkers .query").count() == 0
    assert log(server, "confirm-1")[-1]["event"]["score"] == {"Blue": 1, "Red": 2}
    assert page.errors == []



def test_a_chukker_confirmed_by_keyboard_leaves_the_keyboard_on_the_row_it_recorded(server: ServerProcess,
                                                                                     new_page: Any) -> None:
    """"Confirm" goes with the chukker it confirmed, and the focus fell to the page's start: an official by keyboard
    began again from the top. The keyboard goes on from the row of the confirmation."""
    _, page = open_review(server, new_page, "confirm-3", [*CHUKKER, END])
    page.focus('#chukkers li[data-chukker="1"] button')
    page.keyboard.press("Enter")
    page.wait_for_selector('#chukkers li[data-chukker="1"][data-state="confirmed"]')
    seq = log(server, "confirm-3")[-1]["seq"]
    page.wait_for_function(f"() => document.activeElement.matches('#timeline tr[data-seq=\"{seq}\"]')")
    assert page.evaluate("() => document.activeElement.tabIndex") == 0  # the timeline's one Tab stop
    assert page.errors == []

def test_a_chukkers_confirmation_offers_its_score_at_its_end_not_the_score_now(server: ServerProcess,
                                                                                new_page: Any) -> None:
    """Every chukker's row was filled with the score now: after a goal in chukker 2, one click on chukker 1's
    "Confirm" recorded a wrong score, flagged as a query. It offers the score right after that chukker's end."""
    later = [{"type": "chukker.start", "at": "2026-11-29T15:10:00Z", "chukker": 2},
             {"type": "goal", "at": "2026-11-29T15:11:00Z", "team": "Red", "player": 3}]
    keys, page = open_review(server, new_page, "confirm-2", [*CHUKKER, END, *later])
    chukker = page.locator('#chukkers li[data-chukker="1"]')
    assert [chukker.locator(f'input[data-team="{team}"]').input_value() for team in ("Blue", "Red")] == ["1", "2"]
    # Each box says whose it is, and that it is the score at the chukker's end (its boxes had no team's name, and
    # a hidden label called them the chukker's own goals).
    assert "score at its end:" in chukker.inner_text()
    assert [label.strip() for label in chukker.locator("label.team-score").all_inner_texts()] == ["Blue", "Red"]
    assert chukker.locator('input[data-team="Red"]').get_attribute("aria-label") == (
        "Red's score at the end of chukker 1")
    seq = get(server, "/api/matches/confirm-2")["seq"]
    send(server, "confirm-2", {"type": "goal", "team": "Blue", "player": 2}, keys["scorer_key"])  # live: 2-3 now
    page.wait_for_selector(f'#timeline tr[data-seq="{seq + 1}"]')
    chukker = page.locator('#chukkers li[data-chukker="1"]')
    assert [chukker.locator(f'input[data-team="{team}"]').input_value() for team in ("Blue", "Red")] == ["1", "2"]
    chukker.locator("button").click()
    page.wait_for_selector('#chukkers li[data-chukker="1"][data-state="confirmed"]')
    assert log(server, "confirm-2")[-1]["event"]["score"] == {"Blue": 1, "Red": 2}
    assert page.errors == []


def test_a_chukker_end_naming_another_number_is_confirmed_as_the_chukker_it_ended(server: ServerProcess,
                                                                                 new_page: Any) -> None:
    """A chukker.end that names chukker 2 while chukker 1 is in play ends chukker 1 (flagged chukker-order). The
    review offered "Chukker 2", empty, whose confirmation the engine refuses; it offers chukker 1, filled."""
    _, page = open_review(server, new_page, "confirm-3", [*CHUKKER, {**END, "chukker": 2}])
    assert page.locator("#chukkers li[data-chukker]").evaluate_all("rows => rows.map(r => r.dataset.chukker)") == ["1"]
    chukker = page.locator('#chukkers li[data-chukker="1"]')
    assert [chukker.locator(f'input[data-team="{team}"]').input_value() for team in ("Blue", "Red")] == ["1", "2"]
    chukker.locator("button").click()
    page.wait_for_selector('#chukkers li[data-chukker="1"][data-state="confirmed"]')
    confirmation = log(server, "confirm-3")[-1]["event"]
    assert (confirmation["type"], confirmation["chukker"], confirmation["score"]) == (
        "chukker.confirm", 1, {"Blue": 1, "Red": 2})
    assert page.errors == []


def test_the_audit_window_counts_down_from_the_match_end_on_the_servers_time(server: ServerProcess,
                                                                            new_page: Any) -> None:
    keys, page = open_review(server, new_page, "window-1", [*CHUKKER, END],
                             prepare=lambda page: page.clock.install())
    assert page.inner_text("#window") == ""
    send(server, "window-1", {"type": "match.end"}, keys["scorer_key"])
    page.wait_for_selector("#window >> text=Audit window")
    assert page.inner_text("#window").endswith("left to question the final period")
    left = page.inner_text("#window").split()[2]
    assert left in ("15:00", "14:59", "14:58")
    page.clock.fast_forward("10:00")
    page.wait_for_selector("#window >> text=/Audit window: (5:00|4:5\\d) left/")
    page.clock.fast_forward("05:10")
    page.wait_for_selector("#window >> text=Audit window closed")
    assert page.errors == []
