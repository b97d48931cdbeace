"""The match log's version 1.2, sentence by sentence: "Reviews, video and confirmations" and "Settled in 1.2",
each test named after the sentence it pins, on the engine (Match.feed and ``replay --json``). The same through
the store is tests/test_spec_1_2_store.py."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import BLUE, RED, Scorer, stamp, words_of

from matchstate import examples
from matchstate.cli import main
from matchstate.engine import Match
from matchstate.errors import RefusedEvent


def refusal(scorer: Scorer, kind: str, **fields: Any) -> RefusedEvent:
    """The refusal of an event; nothing of it is applied."""
    before = scorer.snapshot()
    with pytest.raises(RefusedEvent) as refused:
        scorer.match.feed(scorer.event(kind, **fields))
    assert scorer.snapshot() == before
    return refused.value


def in_play(**start: Any) -> Scorer:
    scorer = Scorer(**start)
    scorer.log("chukker.start", chukker=1)
    return scorer


def seen(match: Match) -> dict[str, Any]:
    """All that an officials' event must leave as it was."""
    at = match.last_at
    return {"state": match.state, "score": dict(match.score), "options": match.options,
            "free_hit": match.free_hit.to_json() if match.free_hit else None, "play_at": match.play_at,
            "waiting": match.waiting, "clock": match.clock.to_json(at), "ended": match.ended}


def choosing(scorer: Scorer) -> None:
    """A Penalty 2 with Red improperly positioned, closed by the ball going out: the umpire must choose."""
    scorer.call_play("2")
    scorer.log("position.improper", team=RED)
    scorer.log("hit", player=3, contact="hit")
    scorer.log("ball.out", over="sideline")
    assert scorer.match.state == "choosing"


OFFICIALS: dict[str, dict[str, Any]] = {
    "video.sync": {"clip": "umpire-1.mp4", "clip_seconds": 12.5},
    "review.request": {"about": 2, "asked_by": "umpire"},
    "chukker.confirm": {"chukker": 1, "score": {BLUE: 0, RED: 0}},
}


def replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    assert main(["replay", "--json", str(path)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


# -- the section's opening ----------------------------------------------------------------------------

def test_every_v1_1_log_is_a_v1_2_log_with_the_same_meaning(scorer: Scorer) -> None:
    """A v1.1 log gains only the final object's new keys, empty: see also test_examples_replay_as_before."""
    scorer.log("chukker.start", chukker=1)
    scorer.strike("3")
    scorer.log("goal", team=BLUE)
    assert scorer.match.reviews == [] and scorer.match.clips == [] and scorer.match.confirmed == []
    assert scorer.match.challenges_left == {BLUE: 0, RED: 0} and all(flags == () for flags in scorer.match.flags)


@pytest.mark.parametrize("kind", ["video.sync", "review.request", "review.outcome", "chukker.confirm"])
def test_none_of_the_new_events_changes_a_ruling_the_score_the_state_the_free_hit_or_the_clock(kind: str) -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("chukker.end", chukker=1)
    scorer.log("chukker.start", chukker=2)
    scorer.call_play("4")
    if kind == "review.outcome":
        scorer.log("review.request", about=3, asked_by="referee")
    before = seen(scorer.match)
    fields: dict[str, Any] = {**OFFICIALS, "review.outcome": {"outcome": "overturned"},
              "chukker.confirm": {"chukker": 1, "score": {BLUE: 0, RED: 0}}}[kind]  # a score-query at that
    assert scorer.log(kind, dt=0, **fields) is None
    assert seen(scorer.match) == before


def test_a_reviews_outcome_is_carried_out_by_the_events_logged_after_it() -> None:
    scorer = in_play(challenges=1)
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by=RED)
    scorer.log("review.outcome", outcome="overturned")
    assert scorer.match.score == {BLUE: 1, RED: 0}  # an overturned goal counts until it is voided
    scorer.log("void", seq=3, reason="review overturned the goal")
    assert scorer.match.score == {BLUE: 0, RED: 0}
    assert scorer.match.reviews == [{"seq": 4, "about": 3, "asked_by": RED, "outcome": "overturned"}]


# -- new event types and fields ----------------------------------------------------------------------

def test_video_sync_clip_is_a_string_of_1_to_512_code_points_and_clip_seconds_a_number_0_or_more(
        scorer: Scorer) -> None:
    scorer.log("video.sync", clip="😀" * 512, clip_seconds=0)  # 512 code points, 2,048 bytes of UTF-8
    for bad in ("", "x" * 513, 7):
        assert "'clip'" in str(refusal(scorer, "video.sync", clip=bad, clip_seconds=1))
    for wrong in (-0.5, "3", True):
        assert "'clip_seconds'" in str(refusal(scorer, "video.sync", clip="a", clip_seconds=wrong))
    err = refusal(scorer, "video.sync", clip="a", clip_seconds=-1)
    assert words_of(err)["es"] == "video.sync: el campo 'clip_seconds' debe ser un número de segundos, 0 o más, no -1"


@pytest.mark.parametrize("seconds, held", [(2_000_000, 2_000_000), (1_764_979_200.25, 1_764_979_200.25),
                                           (1e300, 1e300), (10**30, 1e30)])
def test_clip_seconds_has_no_bound_but_a_numbers_a_stream_running_for_weeks_or_counting_from_1970(
        seconds: float, held: float) -> None:
    """"clip_seconds (number, 0 or more)": it was refused past 1,000,000 (the bound of a distance, 11.6 days of a
    stream), with a message offering -1,000,000. Any number JSON reads as a finite double is taken; an integer past
    a double's safe ones is held as the double a reader takes it for."""
    scorer = in_play()
    scorer.log("video.sync", clip="cam", clip_seconds=seconds)
    kept = scorer.match.clips[-1]["clip_seconds"]
    assert kept == held and type(kept) is type(held)
    err = refusal(scorer, "video.sync", clip="a", clip_seconds=10**400)  # no double holds it
    assert str(err) == ("video.sync: field 'clip_seconds' must be a number of seconds, 0 or more, "
                        "not 'a number of 401 digits'")


def test_review_request_about_is_an_integer_asked_by_a_team_or_umpire_or_referee_reason_optional() -> None:
    scorer = in_play(challenges=1)
    scorer.log("goal", team=BLUE)
    for asker in (BLUE, "umpire", "referee"):
        scorer.log("review.request", about=3, asked_by=asker, reason="was it over the line?")
        scorer.log("review.outcome", outcome="no-decision")
    assert "'about'" in str(refusal(scorer, "review.request", about=3.0, asked_by="umpire"))
    err = refusal(scorer, "review.request", about=3, asked_by="captain")
    assert str(err) == ("review.request: field 'asked_by' must be one of 'Blue', 'Red', 'umpire', 'referee', "
                        "not 'captain'")
    assert words_of(err)["es"] == ("review.request: el campo 'asked_by' debe ser uno de 'Blue', 'Red', 'umpire', "
                                   "'referee', no 'captain'")


def test_review_outcome_is_stands_overturned_or_no_decision_note_optional() -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    for outcome in ("stands", "overturned", "no-decision"):
        scorer.log("review.request", about=3, asked_by="umpire")
        scorer.log("review.outcome", outcome=outcome, note="camera 2 shows it")
    scorer.log("review.request", about=3, asked_by="umpire")
    assert "'outcome'" in str(refusal(scorer, "review.outcome", outcome="upheld"))


def test_chukker_confirm_score_gives_both_teams_each_0_or_more_and_a_multiple_of_half() -> None:
    scorer = in_play(handicap_goals={RED: 1.5})
    scorer.log("chukker.end", chukker=1)
    scorer.log("chukker.confirm", chukker=1, score={RED: 1.5, BLUE: 0})
    err = refusal(scorer, "chukker.confirm", chukker=1, score={BLUE: 0})
    assert str(err) == "chukker.confirm: field 'score' must be an object of goals for both teams, Blue and Red, " \
                       "not {'Blue': 0}"
    assert words_of(err)["es"] == "chukker.confirm: el campo 'score' debe ser un objeto de goles para ambos equipos, " \
                                  "Blue y Red, no {'Blue': 0}"
    for bad in ({BLUE: 0.25, RED: 1.5}, {BLUE: -1, RED: 1.5}, {BLUE: "0", RED: 1.5}, {BLUE: 0, RED: 1.5, "Green": 0}):
        assert "'score'" in str(refusal(scorer, "chukker.confirm", chukker=1, score=bad))
    assert "'chukker'" in str(refusal(scorer, "chukker.confirm", chukker=1.0, score={BLUE: 0, RED: 1.5}))
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 20_000_000, RED: 1.5})  # no bound but a double's
    assert tuple(scorer.match.flags[-1]) == ("score-query",)
    err = refusal(scorer, "chukker.confirm", chukker=1, score={BLUE: 10**400, RED: 1.5})
    assert str(err).startswith("chukker.confirm: field 'score' must be a number of goals, 0 or more and a multiple")


@pytest.mark.parametrize("given, left", [(None, 0), (0, 0), (2, 2), (2**53 - 1, 2**53 - 1)])
def test_match_start_challenges_is_an_integer_0_or_more_default_0(given: int | None, left: int) -> None:
    scorer = Scorer(**({} if given is None else {"challenges": given}))
    assert scorer.match.challenges_left == {BLUE: left, RED: left}


@pytest.mark.parametrize("written", ["2.0", "2e0", "-1", "true", "\"2\"", str(2**53)])
def test_an_integer_is_a_json_number_written_without_a_fraction_or_an_exponent(tmp_path: Path,
                                                                               capsys: pytest.CaptureFixture[str],
                                                                               written: str) -> None:
    line = ('{"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "m", "teams": ["Blue", "Red"], '
            f'"challenges": {written}}}')
    with pytest.raises(RefusedEvent) as refused:
        Match().feed(json.loads(line))
    assert "'challenges'" in str(refused.value)
    assert words_of(refused.value)["es"].startswith("match.start: el campo 'challenges' debe ser un número entero de 0")
    path = tmp_path / "log.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    assert main(["replay", "--json", str(path)]) == 2
    assert capsys.readouterr().err.startswith("line 1: match.start: field 'challenges' must be a whole number")


STATES = ["idle", "awarded", "placed", "play_called", "live", "choosing", "between chukkers", "after match.end"]


def reach(where: str) -> Scorer:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    if where == "choosing":
        choosing(scorer)
    elif where == "between chukkers":
        scorer.log("chukker.end", chukker=1)
    elif where == "after match.end":
        scorer.log("chukker.end", chukker=1)
        scorer.log("match.end")
    elif where != "idle":
        scorer.award("4")
        steps = {"awarded": [], "placed": ["ball.place"], "play_called": ["ball.place", "play"],
                 "live": ["ball.place", "play", "hit"]}[where]
        for kind in steps:
            stroke: dict[str, Any] = {"player": 3, "contact": "hit"} if kind == "hit" else {}
            scorer.log(kind, **stroke)
        assert scorer.match.state == where
    return scorer


@pytest.mark.parametrize("where", STATES)
def test_the_four_new_types_are_accepted_in_every_state_choosing_included_between_chukkers_and_after_match_end(
        where: str) -> None:
    scorer = reach(where)
    if where in ("between chukkers", "after match.end"):
        scorer.log("chukker.confirm", chukker=1, score={BLUE: 1, RED: 0})
    scorer.log("video.sync", clip="cam", clip_seconds=3)
    scorer.log("review.request", about=3, asked_by="umpire")
    scorer.log("review.outcome", outcome="stands")
    assert scorer.match.state == ("idle" if where.startswith(("between", "after")) else where)


@pytest.mark.parametrize("kind", ["whistle", "clock.stop", "clock.start"])
def test_in_choosing_whistle_clock_stop_and_clock_start_act_on_the_clock_alone_the_choice_stays_open(kind: str) -> None:
    scorer = in_play()
    choosing(scorer)
    if kind == "clock.start":
        scorer.log("clock.stop")
    options = scorer.match.options
    assert scorer.log(kind, dt=2) is None
    assert scorer.match.state == "choosing" and scorer.match.options == options
    assert scorer.match.clock.to_json(scorer.match.last_at)["running"] is (kind == "clock.start")
    assert scorer.log("decide", option=2)["kind"] == "goal"


# -- video ---------------------------------------------------------------------------------------------

def test_for_each_clip_the_latest_video_sync_naming_it_is_in_force(scorer: Scorer) -> None:
    scorer.log("video.sync", clip="cam", clip_seconds=10)
    scorer.log("video.sync", clip="cam", clip_seconds=100)
    assert scorer.match.clips == [{"clip": "cam", "clip_seconds": 100, "at": stamp(2000)}]


def test_the_moment_of_a_clip_is_clip_seconds_plus_at_less_the_syncs_at_negative_before_the_clip_begins(
        scorer: Scorer) -> None:
    scorer.log("video.sync", dt=60, clip="cam", clip_seconds=12.5)  # at 60 s
    synced = datetime.fromisoformat(stamp(60_000))
    assert scorer.match.moment("cam", synced) == 12.5
    assert scorer.match.moment("cam", datetime.fromisoformat(stamp(70_250))) == 22.75
    assert scorer.match.moment("cam", datetime.fromisoformat(stamp(40_000))) == -7.5
    assert scorer.match.moment("another", synced) is None


def test_the_final_object_gains_clips_at_as_logged_in_the_order_of_the_syncs_in_force(tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    scorer = Scorer()
    scorer.log("video.sync", clip="a", clip_seconds=1)
    scorer.log("video.sync", clip="b", clip_seconds=2)
    scorer.log("video.sync", clip="a", clip_seconds=3)
    events = [*scorer.events, {**scorer.event("video.sync", clip="c", clip_seconds=0),
                               "at": "2026-11-29T16:00:04.5+01:00"}]
    final = replay_json(tmp_path, capsys, events)[-1]["final"]
    assert final["clips"] == [{"clip": "b", "clip_seconds": 2, "at": stamp(2000)},
                              {"clip": "a", "clip_seconds": 3, "at": stamp(3000)},
                              {"clip": "c", "clip_seconds": 0, "at": "2026-11-29T16:00:04.5+01:00"}]


# -- reviews and challenges ---------------------------------------------------------------------------

def test_at_most_one_review_is_open_at_a_time_a_request_is_refused_while_one_is_open() -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by="umpire")
    err = refusal(scorer, "review.request", about=2, asked_by="referee")
    assert str(err) == ("review.request: the review of seq 3 is open already (its review.request is seq 4): log "
                        "its review.outcome first")
    assert words_of(err)["es"] == ("review.request: la revisión del seq 3 ya está abierta (su review.request es el "
                                   "seq 4): registre antes su review.outcome")


@pytest.mark.parametrize("about, en, es", [
    (4, "review.request: 'about' 4 is not the seq of an earlier event",
     "review.request: 'about' 4 no es el seq de un evento anterior"),
    (9, "review.request: 'about' 9 is not the seq of an earlier event",
     "review.request: 'about' 9 no es el seq de un evento anterior"),
    (1, "review.request: match.start cannot be put to review", "review.request: match.start no se puede revisar"),
    (2, "review.request: seq 2 is void", "review.request: el seq 2 está anulado"),
])
def test_a_request_is_refused_when_about_is_no_earlier_event_a_voided_event_or_the_match_start(about: int, en: str,
                                                                                               es: str) -> None:
    scorer = Scorer()
    scorer.log("goal", team=BLUE)
    scorer.log("void", seq=2, reason="no goal")
    err = refusal(scorer, "review.request", about=about, asked_by="umpire")
    assert (str(err), words_of(err)["es"]) == (en, es)


def test_a_request_is_refused_when_asked_by_a_team_with_no_challenge_left() -> None:
    scorer = in_play(challenges=1)
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by=RED)
    scorer.log("review.outcome", outcome="stands")
    err = refusal(scorer, "review.request", about=3, asked_by=RED)
    assert (str(err), words_of(err)["es"]) == ("review.request: Red has no challenge left",
                                               "review.request: a Red no le queda ningún desafío")
    scorer.log("review.request", about=3, asked_by=BLUE)  # Blue's is still there
    assert "Blue has no challenge left" in str(refusal(in_play(), "review.request", about=2, asked_by=BLUE))


ACCEPTED_WHILE_OPEN: dict[str, dict[str, Any]] = {
    "review.outcome": {"outcome": "stands"}, "void": {"seq": 3, "reason": "no goal"},
    "card": {"team": RED, "player": 2, "colour": "red"}, "tick": {},
    "video.sync": {"clip": "cam", "clip_seconds": 1}, "clock.stop": {}, "clock.start": {}}


@pytest.mark.parametrize("kind", list(ACCEPTED_WHILE_OPEN))
def test_while_a_review_is_open_only_outcome_void_card_tick_video_sync_clock_stop_and_clock_start_are_accepted(
        kind: str) -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by="umpire")
    assert set(scorer.match.accepted_types()) == set(ACCEPTED_WHILE_OPEN)
    scorer.log(kind, **ACCEPTED_WHILE_OPEN[kind])
    assert ("goal" in scorer.match.accepted_types()) is (kind == "review.outcome")


@pytest.mark.parametrize("kind, fields", [("goal", {"team": BLUE}), ("whistle", {}), ("decide", {"option": 1}),
                                          ("penalty.award", {"penalty": "3", "to": RED}),
                                          ("chukker.confirm", {"chukker": 1, "score": {BLUE: 0, RED: 0}})])
def test_while_a_review_is_open_anything_else_waits_a_decide_for_the_outcome(kind: str, fields: dict[str, Any]) -> None:
    scorer = in_play()
    choosing(scorer)
    scorer.log("review.request", about=7, asked_by="referee")
    err = refusal(scorer, kind, **fields)
    assert str(err) == (f"{kind} waits while the review of seq 7 is open (its review.request is seq 9): log its "
                        "review.outcome first")
    assert words_of(err)["es"] == (f"{kind} debe esperar mientras está abierta la revisión del seq 7 (su "
                                   "review.request es el seq 9): registre antes su review.outcome")
    scorer.log("review.outcome", outcome="stands")
    scorer.log("decide", option=1)


def test_a_review_stops_neither_the_clock_nor_the_20_seconds() -> None:
    scorer = in_play()
    scorer.call_play("4")
    scorer.log("review.request", about=3, asked_by="umpire")
    assert scorer.match.clock.to_json(scorer.match.last_at)["running"] is True
    ruling = scorer.log("tick", dt=25)  # 26 s after "Play": the 20 seconds ran on through the review
    assert ruling["kind"] == "award" and ruling["violation"] == "twenty-seconds"
    assert scorer.match.clock.to_json(scorer.match.last_at)["running"] is True


def test_the_clock_stops_for_a_review_only_by_a_whistle_before_the_request_or_a_clock_stop() -> None:
    scorer = in_play()
    scorer.log("whistle")
    scorer.log("review.request", dt=10, about=2, asked_by="umpire")
    assert scorer.match.clock.to_json(scorer.match.last_at) == {"chukker": 1, "played": 1, "running": False,
                                                               "phase": "play"}
    scorer.log("review.outcome", outcome="stands")
    scorer.log("clock.start")
    scorer.log("review.request", about=2, asked_by="umpire")
    scorer.log("clock.stop", dt=5)
    scorer.log("review.outcome", dt=30, outcome="stands")
    assert scorer.match.clock.to_json(scorer.match.last_at)["played"] == 1 + 1 + 5


def test_a_review_outcome_is_refused_when_no_review_is_open(scorer: Scorer) -> None:
    err = refusal(scorer, "review.outcome", outcome="stands")
    assert (str(err), words_of(err)["es"]) == ("review.outcome: no review is open",
                                               "review.outcome: no hay ninguna revisión abierta")


@pytest.mark.parametrize("outcome, left", [("stands", 1), ("overturned", 2), ("no-decision", 2)])
def test_a_teams_challenge_is_used_when_its_review_ends_stands_overturned_or_no_decision_keeps_it(outcome: str,
                                                                                                  left: int) -> None:
    scorer = in_play(challenges=2)
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by=RED)
    assert scorer.match.challenges_left == {BLUE: 2, RED: 2}  # used only when the review ends
    scorer.log("review.outcome", outcome=outcome)
    assert scorer.match.challenges_left == {BLUE: 2, RED: left}


@pytest.mark.parametrize("official", ["umpire", "referee"])
def test_a_review_asked_by_the_umpire_or_the_referee_uses_none(official: str) -> None:
    scorer = in_play()  # no challenges at all
    scorer.log("goal", team=BLUE)
    for _ in range(3):
        scorer.log("review.request", about=3, asked_by=official)
        scorer.log("review.outcome", outcome="stands")
    assert scorer.match.challenges_left == {BLUE: 0, RED: 0}


def test_about_is_judged_when_logged_a_later_void_of_the_event_under_review_leaves_the_review_as_it_was() -> None:
    scorer = in_play(challenges=1)
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by=RED)
    scorer.log("review.outcome", outcome="overturned")
    scorer.log("void", seq=3, reason="overturned on review")
    scorer.log("goal", team=RED)
    scorer.log("void", seq=7, reason="scorer error")  # re-folds the request, whose about is void now
    assert scorer.match.reviews == [{"seq": 4, "about": 3, "asked_by": RED, "outcome": "overturned"}]


def test_voiding_a_review_request_withdraws_it_strikes_its_outcome_and_gives_back_its_challenge() -> None:
    scorer = in_play(challenges=1)
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by=RED)
    scorer.log("review.outcome", outcome="stands")
    assert scorer.match.challenges_left[RED] == 0
    scorer.log("void", seq=4, reason="asked by mistake")
    assert scorer.match.reviews == [] and scorer.match.challenges_left[RED] == 1
    assert {4, 5} <= scorer.match.void
    scorer.log("void", seq=6, reason="it was asked after all")  # a void of the void restores both
    assert scorer.match.reviews == [{"seq": 4, "about": 3, "asked_by": RED, "outcome": "stands"}]
    assert scorer.match.challenges_left[RED] == 0
    scorer.log("void", seq=7, reason="withdrawn again")  # the void restored strikes the request, and its outcome
    assert scorer.match.reviews == [] and scorer.match.challenges_left[RED] == 1
    assert {4, 5, 7} <= scorer.match.void


def test_a_request_struck_again_by_a_chain_of_voids_strikes_its_outcome_however_the_outcome_was_voided_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scorer = in_play(challenges=1)
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by=RED)
    scorer.log("review.outcome", outcome="stands")
    scorer.log("void", seq=5, reason="wrong outcome")  # the review is open again
    scorer.log("void", seq=4, reason="asked by mistake")  # and withdrawn
    scorer.log("void", seq=6, reason="the outcome was right")  # the request is still struck: so is its outcome
    assert scorer.match.reviews == [] and {4, 5} <= scorer.match.void
    final = replay_json(tmp_path, capsys, scorer.events)[-1]["final"]
    assert (final["reviews"], final["challenges_left"]) == ([], {BLUE: 1, RED: 1})


def test_voiding_a_review_outcome_reopens_its_review_and_is_refused_when_a_later_event_would_not_be_accepted() -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by="umpire")
    scorer.log("review.outcome", outcome="stands")
    scorer.log("goal", team=RED)
    err = refusal(scorer, "void", seq=5, reason="wrong outcome")
    assert str(err) == ("void: without seq 5, seq 6 is refused (goal waits while the review of seq 3 is open (its "
                        "review.request is seq 4): log its review.outcome first)")
    assert words_of(err)["es"].startswith("void: sin el seq 5, el seq 6 se rechaza (goal debe esperar")
    scorer.log("void", seq=6, reason="void that event first")
    scorer.log("void", seq=5, reason="wrong outcome")
    assert scorer.match.review == 4 and scorer.match.reviews[-1]["outcome"] is None


def test_the_final_object_gains_reviews_one_per_request_not_voided_in_order_and_challenges_left(tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    scorer = in_play(challenges=1)
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=3, asked_by=RED)
    scorer.log("review.outcome", outcome="stands")
    scorer.log("review.request", about=3, asked_by="umpire")
    scorer.log("void", seq=6, reason="withdrawn")
    scorer.log("review.request", about=3, asked_by=BLUE, reason="again")
    final = replay_json(tmp_path, capsys, scorer.events)[-1]["final"]
    assert final["reviews"] == [{"seq": 4, "about": 3, "asked_by": RED, "outcome": "stands"},
                                {"seq": 8, "about": 3, "asked_by": BLUE, "outcome": None}]
    assert final["challenges_left"] == {BLUE: 1, RED: 0}


# -- confirming the score ------------------------------------------------------------------------------

def test_a_confirmation_is_refused_until_its_chukker_has_had_its_chukker_end() -> None:
    scorer = Scorer()
    scorer.log("chukker.end", chukker=1)  # no chukker in play: it ended none
    err = refusal(scorer, "chukker.confirm", chukker=1, score={BLUE: 0, RED: 0})
    assert (str(err), words_of(err)["es"]) == ("chukker.confirm: chukker 1 has not had its chukker.end",
                                               "chukker.confirm: el chukker 1 no tuvo su chukker.end")
    scorer.log("chukker.start", chukker=1)
    assert "chukker 1 has not" in str(refusal(scorer, "chukker.confirm", chukker=1, score={BLUE: 0, RED: 0}))
    scorer.log("chukker.end", chukker=2)  # flagged chukker-order, but it ended chukker 1, the one in play
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 0, RED: 0})
    assert "chukker 2 has not" in str(refusal(scorer, "chukker.confirm", chukker=2, score={BLUE: 0, RED: 0}))


def test_a_void_of_that_chukker_end_is_refused_while_a_confirmation_not_voided_relies_on_it() -> None:
    scorer = in_play()
    scorer.log("chukker.end", chukker=1)
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 0, RED: 0})
    err = refusal(scorer, "void", seq=3, reason="too early")
    assert str(err) == "void: the chukker.confirm seq 4 relies on the chukker.end seq 3: void the confirmation first"
    assert words_of(err)["es"] == ("void: el chukker.confirm seq 4 se apoya en el chukker.end seq 3: anule antes la "
                                   "confirmación")
    scorer.log("void", seq=4, reason="confirmed too early")
    scorer.log("void", seq=3, reason="too early")


def test_a_confirmation_differing_from_the_score_right_after_that_chukker_end_is_flagged_score_query() -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("chukker.end", chukker=1)
    scorer.log("chukker.start", chukker=2)
    scorer.log("goal", team=RED)  # after the chukker's end: not in its score
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 1, RED: 0})
    assert tuple(scorer.match.flags[-1]) == ()
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 1, RED: 1})
    assert tuple(scorer.match.flags[-1]) == ("score-query",)
    scorer.log("void", seq=3, reason="no goal")  # the log as it stands when a confirmation is logged
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 1, RED: 0})
    assert tuple(scorer.match.flags[-1]) == ("score-query",)


def test_the_latest_confirmation_of_a_chukker_replaces_the_ones_before() -> None:
    scorer = in_play()
    scorer.log("chukker.end", chukker=1)
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 2, RED: 0})
    assert scorer.match.queried == [1]
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 0, RED: 0})
    assert (scorer.match.confirmed, scorer.match.queried) == ([1], [])


def test_the_final_object_gains_confirmed_and_queried_by_the_re_folded_log_in_chukker_order(tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("chukker.end", chukker=1)
    for chukker in (2, 3):
        scorer.log("chukker.start", chukker=chukker)
        scorer.log("chukker.end", chukker=chukker)
    scorer.log("chukker.confirm", chukker=3, score={BLUE: 1, RED: 0})
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 1, RED: 0})
    scorer.log("chukker.confirm", chukker=2, score={BLUE: 9, RED: 0})
    scorer.log("void", seq=3, reason="no goal after all")  # agreed when confirmed; the log changed since
    final = replay_json(tmp_path, capsys, scorer.events)[-1]["final"]
    assert (final["confirmed"], final["queried"]) == ([], [1, 2, 3])
    scorer.log("chukker.confirm", chukker=3, score={BLUE: 0, RED: 0})
    assert (scorer.match.confirmed, scorer.match.queried) == ([3], [1, 2])


def test_a_confirmation_agrees_or_not_with_the_chukker_end_it_relies_on_not_a_later_end_of_that_chukker(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"compared with the score right after that chukker.end": a chukker played again after its confirmation (a
    chukker-order log) made the final object compare it with the later end (queried), while the confirmation was
    not flagged and its end could not be voided (relied on). It is compared with the end it relies on."""
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("chukker.end", chukker=1)  # seq 4: 1-0
    scorer.log("chukker.start", chukker=1)  # played again: flagged chukker-order
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 1, RED: 0})
    assert tuple(scorer.match.flags[-1]) == ()
    scorer.log("goal", team=BLUE)
    scorer.log("chukker.end", chukker=1)  # seq 8: 2-0
    assert "relies on the chukker.end seq 4" in str(refusal(scorer, "void", seq=4, reason="x"))
    final = replay_json(tmp_path, capsys, scorer.events)[-1]["final"]
    assert (final["confirmed"], final["queried"]) == ([1], [])
    scorer.log("chukker.confirm", chukker=1, score={BLUE: 1, RED: 0})  # the latest, now of seq 8's end
    assert tuple(scorer.match.flags[-1]) == ("score-query",)
    assert (scorer.match.confirmed, scorer.match.queried) == ([], [1])


@pytest.mark.parametrize("kind, fields", [("void", {"seq": 3, "reason": "late"}),
                                          ("review.request", {"about": 3, "asked_by": "referee"}),
                                          ("chukker.confirm", {"chukker": 1, "score": {BLUE: 1, RED: 0}})])
def test_a_void_request_or_confirmation_more_than_900_s_after_the_match_end_in_force_is_flagged_after_window(
        kind: str, fields: dict[str, Any]) -> None:
    scorer = in_play()
    scorer.log("goal", team=BLUE)
    scorer.log("chukker.end", chukker=1)
    scorer.log("match.end")
    scorer.log(kind, dt=900, **fields)  # exactly 900 s after the match.end: in the window
    assert tuple(scorer.match.flags[-1]) == ()
    if kind == "review.request":
        scorer.log("review.outcome", dt=0, outcome="stands")
    scorer.log(kind, dt=0.001, **({**fields, "seq": 6} if kind == "void" else fields))
    assert tuple(scorer.match.flags[-1]) == ("after-window",)  # and accepted
    scorer.log("video.sync", dt=0, clip="cam", clip_seconds=0)  # not an audit: never flagged
    assert tuple(scorer.match.flags[-1]) == ()


def test_after_window_is_judged_against_the_match_end_in_force() -> None:
    scorer = in_play()
    scorer.log("chukker.end", chukker=1)
    scorer.log("match.end")
    scorer.log("void", dt=1000, seq=4, reason="not over yet")  # judged before its own effect: flagged
    assert tuple(scorer.match.flags[-1]) == ("after-window",) and not scorer.match.ended
    scorer.log("review.request", about=3, asked_by="umpire")  # no match.end in force
    assert tuple(scorer.match.flags[-1]) == ()


def test_score_query_and_after_window_are_judged_in_every_log_one_that_never_starts_a_chukker_too() -> None:
    scorer = Scorer()
    scorer.log("goal", team=BLUE)
    scorer.log("match.end")
    scorer.log("review.request", dt=901, about=2, asked_by="umpire")
    assert tuple(scorer.match.flags[-1]) == ("after-window",)
    assert not scorer.match.clock.started


# -- replaying a log -------------------------------------------------------------------------------------

def test_replay_json_final_object_gains_clips_reviews_challenges_left_confirmed_and_queried_in_that_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    final = replay_json(tmp_path, capsys, Scorer().events)[-1]["final"]
    assert list(final) == ["score", "state", "free_hit", "clock", "winner", "clips", "reviews", "challenges_left",
                           "confirmed", "queried"]


# -- settled in 1.2 -------------------------------------------------------------------------------------

def test_a_ball_retee_before_play_is_refused_teeing_again_before_play_is_a_ball_place(scorer: Scorer) -> None:
    scorer.award("4")
    scorer.log("ball.place")
    err = refusal(scorer, "ball.retee")
    assert "ball.place" in str(err) and "ball.place" in words_of(err)["es"]
    scorer.log("ball.place")


def test_a_second_play_while_the_20_seconds_run_changes_nothing_a_whistle_in_between_begins_a_new_window(
        scorer: Scorer) -> None:
    scorer.call_play("4")
    first = scorer.match.play_at
    scorer.log("play", dt=15)
    assert scorer.match.play_at == first
    assert scorer.log("hit", dt=6, player=3, contact="hit")["violation"] == "twenty-seconds"  # 21 s after the first
    scorer.call_play("4")
    scorer.log("whistle", dt=15)
    scorer.log("play", dt=1)
    assert scorer.log("hit", dt=19, player=3, contact="hit")["kind"] == "live"  # 19 s after the new "Play"


def test_a_chukker_end_with_no_chukker_in_play_changes_nothing_on_the_clock_and_acts_on_a_free_hit_as_any() -> None:
    scorer = in_play()
    scorer.log("chukker.end", chukker=1)
    clock = scorer.match.clock.to_json(scorer.match.last_at)
    scorer.award("4")
    scorer.log("ball.place")
    scorer.log("chukker.end", chukker=1)
    assert tuple(scorer.match.flags[-1]) == ("chukker-order",)
    assert scorer.match.clock.to_json(scorer.match.last_at) == clock
    assert scorer.match.state == "awarded"  # before the stroke with nothing waiting: taken in the next chukker


def test_a_player_play_is_accepted_while_a_free_hit_is_open_before_its_stroke_too_judged_as_logged(
        scorer: Scorer) -> None:
    scorer.award("3")
    assert scorer.log("player.play", team=RED, player=2, passed_teammate=False, ball_travelled=0,
                      passed_midfield=False) is None  # a defending-team violation: it waits
    assert len(scorer.match.waiting) == 1
    scorer.log("play")
    scorer.log("hit", player=3, contact="hit")
    assert scorer.log("ball.out", over="sideline")["kind"] == "award"  # increased: Penalty 2 from the centre


def test_a_defending_teams_goal_while_its_violation_waits_counts_and_gives_the_hitting_team_its_due(
        scorer: Scorer) -> None:
    scorer.call_play("3")
    scorer.log("position.improper", team=RED, prevented_goal=True)
    scorer.log("hit", player=3, contact="hit")
    ruling = scorer.log("goal", team=RED)
    assert ruling["kind"] == "goal" and ruling["to"] == BLUE
    assert scorer.match.score == {BLUE: 1, RED: 1}
    scorer.call_play("3")
    scorer.log("position.improper", team=RED)
    scorer.log("hit", player=3, contact="hit")
    assert scorer.log("goal", team=RED)["penalty"] == "2"  # the increased penalty, the goal counting too
    assert scorer.match.score == {BLUE: 1, RED: 2}


def test_penalty_5a_within_30_yards_is_increased_as_penalty_2_the_umpire_chooses(scorer: Scorer) -> None:
    scorer.call_play("5a", yards_to_goal=25)
    scorer.log("position.improper", team=RED)
    scorer.log("hit", player=3, contact="hit")
    ruling = scorer.log("ball.out", over="sideline")
    assert ruling["kind"] == "choose" and [o["kind"] for o in ruling["options"]] == ["rehit", "goal"]


def test_a_penalty_2_is_not_in_progress_for_rule_6_while_the_umpire_chooses_its_increased_penalty(
        scorer: Scorer) -> None:
    choosing(scorer)
    assert scorer.log("card", team=RED, player=2, colour="yellow") is None
    assert scorer.match.state == "choosing" and scorer.match.score == {BLUE: 0, RED: 0}


def test_a_void_is_refused_when_the_refolded_log_would_refuse_a_later_event_except_a_requests_about(
        scorer: Scorer) -> None:
    scorer.award("4")
    scorer.log("ball.place")
    scorer.log("play")
    scorer.log("hit", player=3, contact="hit")
    err = refusal(scorer, "void", seq=2, reason="no award")
    assert str(err).startswith("void: without seq 2, seq 3 is refused")
    scorer.log("goal", team=BLUE)
    scorer.log("review.request", about=6, asked_by="umpire")
    scorer.log("void", seq=6, reason="no goal")  # the review of seq 6 stands as logged
    assert scorer.match.reviews == [{"seq": 7, "about": 6, "asked_by": "umpire", "outcome": None}]


def test_a_void_of_a_void_restores_the_event_it_struck(scorer: Scorer) -> None:
    scorer.log("goal", team=BLUE)
    scorer.log("void", seq=2, reason="no goal")
    scorer.log("void", seq=3, reason="it was a goal")
    assert scorer.match.score == {BLUE: 1, RED: 0} and scorer.match.void == {3}


# -- the bundled examples ----------------------------------------------------------------------------------

GOLDEN = Path(__file__).parent / "golden"  # replay --json of each example by engine 1.1.0 (main at 8515c02)
NEW_FINAL_KEYS = ("clips", "reviews", "challenges_left", "confirmed", "queried")


@pytest.mark.parametrize("name", ["contested-call", "full-match", "penalty-shootout"])
def test_examples_without_a_1_2_event_replay_byte_identical_but_for_the_final_objects_new_keys(name: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(examples.path(name))]) == 0
    *rows, last = capsys.readouterr().out.splitlines()
    *golden_rows, golden_last = GOLDEN.joinpath(f"{name}.replay.jsonl").read_text(encoding="utf-8").splitlines()
    assert rows == golden_rows
    final, golden = json.loads(last)["final"], json.loads(golden_last)["final"]
    assert list(final) == [*golden, *NEW_FINAL_KEYS]
    assert {key: final[key] for key in golden} == golden
    assert (final["clips"], final["reviews"], final["confirmed"], final["queried"]) == ([], [], [], [])
    assert last.startswith(golden_last[:-2] + ', "clips": [], ')  # formatted as before


def test_the_reviewed_call_example_has_a_review_a_challenge_and_confirmations(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--json", str(examples.path("reviewed-call"))]) == 0
    *rows, last = map(json.loads, capsys.readouterr().out.splitlines())
    final = last["final"]
    assert final["reviews"] == [{"seq": 7, "about": 4, "asked_by": "Cañada Seca", "outcome": "stands"},
                                {"seq": 19, "about": 18, "asked_by": "umpire", "outcome": "overturned"}]
    assert final["challenges_left"] == {"Los Álamos": 1, "Cañada Seca": 0}
    assert (final["confirmed"], final["queried"]) == ([1, 2], [])
    assert [clip["clip"] for clip in final["clips"]] == ["helmet-ledesma.mp4", "helmet-ferro.mp4"]
    assert [row["seq"] for row in rows if "score-query" in row["flags"]] == [11]
    assert final["score"] == {"Los Álamos": 1, "Cañada Seca": 0} and final["winner"] == "Los Álamos"


def test_the_score_sheet_shows_reviews_challenges_and_each_chukker_confirmed_or_queried_in_both_languages() -> None:
    from matchstate.log import parse_line, read_lines
    from matchstate.records.sheet import score_sheet

    events = [parse_line(line) for line in read_lines(examples.path("reviewed-call"))]
    sheet = score_sheet(events)
    assert sheet.reviews("en") == ["Review of seq 4, asked by Cañada Seca: the call stands",
                                   "Review of seq 18, asked by the umpire: overturned"]
    assert sheet.reviews("es")[1] == "Revisión del seq 18, pedida por el umpire: revocada"
    assert sheet.officials.challenges_text("es") == "Desafíos restantes: Los Álamos 1, Cañada Seca 0"
    assert [sheet.confirmation(chukker) for chukker in sheet.chukkers] == ["confirmed", "confirmed"]
    queried = score_sheet([*events[:11], {**events[11], "score": {"Los Álamos": 2, "Cañada Seca": 0}}])
    assert (queried.confirmation(1, "es"), queried.confirmation(2, "es")) == ("consultado", "sin confirmar")
    late = {"type": "void", "at": "2026-12-12T15:43:00Z", "seq": 4, "reason": "a tribunal's correction"}
    assert score_sheet([*events, late]).officials.after_window == [29]
