"""The whole match (log format 1.1): each sentence of its section, and the corrections it brings, as a test.

Times: ``scorer.log(kind, dt=...)`` logs an event ``dt`` seconds after the one before (default 1).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Scorer

from matchstate import IllegalEvent, Match, RefusedEvent
from matchstate.log import MAX_LINE_BYTES, replay


def clock(scorer: Scorer) -> dict[str, Any]:
    """The clock right after the last event."""
    return scorer.match.clock_after(scorer.match.seq)


def flags(scorer: Scorer) -> list[str]:
    return list(scorer.match.flags[-1])


@pytest.fixture
def in_play(start_match: type[Scorer]) -> Scorer:
    """A match whose chukker 1 has been in play for 10 seconds (4 planned chukkers, USPA outdoor clock)."""
    scorer = start_match(chukkers=4)
    scorer.log("chukker.start", chukker=1)
    scorer.log("tick", dt=10)
    return scorer


def play_until(scorer: Scorer, played: float) -> None:
    """Log a tick when the running clock reads ``played`` seconds."""
    scorer.log("tick", dt=played - clock(scorer)["played"])


# -- new event types and fields ---------------------------------------------------------------

def test_clock_stop_stops_the_clock_where_no_whistle_did(in_play: Scorer) -> None:
    in_play.log("clock.stop")
    in_play.log("tick", dt=30)
    assert clock(in_play) == {"chukker": 1, "played": 11, "running": False, "phase": "play"}


def test_clock_start_runs_the_clock_again(in_play: Scorer) -> None:
    in_play.log("clock.stop")
    in_play.log("clock.start", dt=30)
    in_play.log("tick", dt=5)
    assert clock(in_play)["played"] == 16 and clock(in_play)["running"]


def test_match_end_means_the_last_chukker_is_over_and_the_result_stands(in_play: Scorer) -> None:
    in_play.log("goal", team="Blue")
    in_play.log("chukker.end", chukker=1)
    in_play.log("match.end")
    assert clock(in_play)["phase"] == "ended" and in_play.match.winner == "Blue"


def test_the_clock_defaults_to_uspa_outdoor_420_seconds_and_30_more(in_play: Scorer) -> None:
    play_until(in_play, 419.999)
    assert clock(in_play)["phase"] == "play"
    play_until(in_play, 449.999)
    assert clock(in_play)["phase"] == "extra"


def test_an_arena_clock_of_450_seconds_and_no_extra_time_ends_the_chukker_at_the_bell(
        start_match: type[Scorer]) -> None:
    scorer = start_match(clock={"chukker_seconds": 450, "extra_seconds": 0})
    scorer.log("chukker.start", chukker=1)
    play_until(scorer, 449.999)
    assert clock(scorer)["phase"] == "play"
    play_until(scorer, 450)
    assert clock(scorer)["phase"] == "over"


@pytest.mark.parametrize(("kind", "fields"), [("ball.out", {"over": "sideline"}), ("ball.out", {"over": "backline"}),
                                              ("ball.stop", {"yards_to_goal": 120})])
def test_ball_out_and_ball_stop_are_accepted_in_idle_in_open_play_with_no_ruling(in_play: Scorer, kind: str,
                                                                                 fields: dict[str, Any]) -> None:
    assert in_play.match.accepts(kind)
    assert in_play.log(kind, **fields) is None
    assert in_play.match.state == "idle"


def test_ball_out_and_ball_stop_are_still_refused_while_a_free_hit_awaits_its_stroke(in_play: Scorer) -> None:
    in_play.award("4")
    with pytest.raises(IllegalEvent, match=r"ball\.out makes no sense in state awarded"):
        in_play.log("ball.out", over="sideline")


# -- playing time --------------------------------------------------------------------------------

def test_chukker_start_starts_the_clock_at_0_and_running(start_match: type[Scorer]) -> None:
    scorer = start_match()
    scorer.log("chukker.start", dt=100, chukker=1)
    assert clock(scorer) == {"chukker": 1, "played": 0, "running": True, "phase": "play"}


@pytest.mark.parametrize("stop", ["whistle", "clock.stop"])
def test_a_whistle_or_a_clock_stop_stops_it(in_play: Scorer, stop: str) -> None:
    in_play.log(stop, dt=2.5)
    in_play.log("tick", dt=60)
    assert clock(in_play)["played"] == 12.5 and not clock(in_play)["running"]


def test_the_stroke_of_a_free_hit_runs_it_again(in_play: Scorer) -> None:
    in_play.award("4")
    in_play.log("whistle")
    in_play.log("play", dt=20)
    in_play.log("hit", dt=3, player=2, contact="hit")  # 12 s played when the whistle went
    in_play.log("tick", dt=4)
    assert clock(in_play)["played"] == 16 and clock(in_play)["running"]


def test_a_stroke_ruled_a_failure_does_not_run_the_clock(in_play: Scorer) -> None:
    in_play.award("4")
    in_play.log("whistle")
    ruling = in_play.log("hit", dt=20, player=2, contact="hit")  # before "Play"
    assert ruling["violation"] == "hit-before-play"
    in_play.log("tick", dt=4)
    assert clock(in_play)["played"] == 12 and not clock(in_play)["running"]


def test_chukker_end_stops_it_for_good(in_play: Scorer) -> None:
    in_play.log("chukker.end", dt=5, chukker=1)
    in_play.log("clock.start", dt=5)
    in_play.log("tick", dt=5)
    assert clock(in_play) == {"chukker": 1, "played": 15, "running": False, "phase": "between"}


def test_its_reading_is_the_sum_of_its_running_stretches(in_play: Scorer) -> None:
    for _ in range(3):
        in_play.log("clock.stop", dt=1.25)
        in_play.log("clock.start", dt=100)
    in_play.log("tick", dt=0.5)
    assert clock(in_play)["played"] == 10 + 3 * 1.25 + 0.5


@pytest.mark.parametrize(("kind", "fields"), [("goal", {"team": "Red"}), ("ball.out", {"over": "sideline"}),
                                              ("ball.stop", {"yards_to_goal": 40}), ("card", {"team": "Red",
                                                                                        "player": 1,
                                                                                        "colour": "yellow"})])
def test_nothing_else_stops_it(in_play: Scorer, kind: str, fields: dict[str, Any]) -> None:
    in_play.log(kind, **fields)
    in_play.log("tick", dt=5)
    assert clock(in_play)["played"] == 16 and clock(in_play)["running"]


def test_a_clock_start_while_it_runs_and_a_clock_stop_while_it_is_stopped_change_nothing(in_play: Scorer) -> None:
    in_play.log("clock.start", dt=2)
    assert clock(in_play)["played"] == 12
    in_play.log("clock.stop")
    in_play.log("clock.stop", dt=5)
    in_play.log("tick", dt=5)
    assert clock(in_play)["played"] == 13


def test_clock_events_outside_a_chukker_in_play_change_nothing(start_match: type[Scorer]) -> None:
    scorer = start_match()
    scorer.log("clock.start")
    scorer.log("tick", dt=30)
    assert clock(scorer) == {"chukker": None, "played": 0, "running": False, "phase": "before"}


def test_before_the_first_chukker_the_clock_reads_chukker_null_and_played_0(scorer: Scorer) -> None:
    scorer.log("tick", dt=600)
    assert clock(scorer) == {"chukker": None, "played": 0, "running": False, "phase": "before"}


def test_between_chukkers_it_reads_the_ended_chukkers_number_and_final_reading(in_play: Scorer) -> None:
    in_play.log("chukker.end", dt=400, chukker=1)
    in_play.log("tick", dt=180)
    assert clock(in_play) == {"chukker": 1, "played": 410, "running": False, "phase": "between"}


def test_played_is_given_to_the_millisecond(in_play: Scorer) -> None:
    in_play.log("tick", dt=0.0004)
    assert clock(in_play)["played"] == 10
    in_play.log("tick", dt=0.2506)
    assert clock(in_play)["played"] == 10.251


# -- phases ---------------------------------------------------------------------------------------

def test_phases_change_at_exactly_the_bell_and_the_horn(in_play: Scorer) -> None:
    play_until(in_play, 420)
    assert clock(in_play)["phase"] == "extra"
    play_until(in_play, 450)
    assert clock(in_play)["phase"] == "over"


def test_phase_is_before_between_and_ended_around_the_chukkers(start_match: type[Scorer]) -> None:
    scorer = start_match()
    assert clock(scorer)["phase"] == "before"
    scorer.log("chukker.start", chukker=1)
    assert clock(scorer)["phase"] == "play"
    scorer.log("chukker.end", chukker=1)
    assert clock(scorer)["phase"] == "between"
    scorer.log("match.end")
    assert clock(scorer)["phase"] == "ended"


@pytest.mark.parametrize(("kind", "fields"), [("goal", {"team": "Blue"}), ("ball.out", {"over": "sideline"}),
                                              ("whistle", {})])
def test_extra_time_ends_early_in_a_chukker_before_the_last_at_a_goal_a_ball_out_or_a_whistle(in_play: Scorer,
        kind: str, fields: dict[str, Any]) -> None:
    play_until(in_play, 425)
    in_play.log(kind, **fields)
    assert clock(in_play)["phase"] == "over"


def test_extra_time_ends_early_at_a_goal_awarded_by_a_ruling(in_play: Scorer) -> None:
    play_until(in_play, 425)
    assert in_play.log("penalty.award", penalty="1", to="Red")["kind"] == "goal"
    assert clock(in_play)["phase"] == "over"


def test_in_play_a_goal_does_not_end_the_chukker_early(in_play: Scorer) -> None:
    in_play.log("goal", team="Blue")
    assert clock(in_play)["phase"] == "play"


def test_in_extra_time_an_award_or_a_ball_stop_does_not_end_it(in_play: Scorer) -> None:
    play_until(in_play, 425)
    in_play.log("ball.stop", yards_to_goal=50)
    in_play.award("4")
    assert clock(in_play)["phase"] == "extra"


@pytest.fixture
def last_chukker(start_match: type[Scorer]) -> Scorer:
    """The last of 4 chukkers in extra time, Blue 1 Red 0."""
    scorer = start_match(chukkers=4)
    scorer.log("chukker.start", chukker=4)
    scorer.log("goal", team="Blue")
    play_until(scorer, 425)
    return scorer


def test_in_the_last_chukker_a_goal_that_ties_does_not_end_extra_time(last_chukker: Scorer) -> None:
    last_chukker.log("goal", team="Red")
    assert clock(last_chukker)["phase"] == "extra"
    last_chukker.log("ball.out", over="sideline")
    last_chukker.log("whistle")
    assert clock(last_chukker)["phase"] == "extra"


def test_in_the_last_chukker_a_goal_that_leaves_the_score_untied_ends_extra_time(last_chukker: Scorer) -> None:
    last_chukker.log("goal", team="Red")
    last_chukker.log("goal", team="Red")
    assert clock(last_chukker)["phase"] == "over"


def test_a_chukker_past_the_planned_number_is_a_last_chukker_too(start_match: type[Scorer]) -> None:
    scorer = start_match(chukkers=4)
    scorer.log("chukker.start", chukker=5)
    play_until(scorer, 425)
    scorer.log("whistle")
    assert clock(scorer)["phase"] == "extra"
    scorer.log("clock.start")
    scorer.log("goal", team="Red")
    assert clock(scorer)["phase"] == "over"


# -- chukker order --------------------------------------------------------------------------------

def test_chukkers_in_order_carry_no_flag(in_play: Scorer) -> None:
    in_play.log("chukker.end", chukker=1)
    assert flags(in_play) == []
    in_play.log("chukker.start", chukker=2)
    assert flags(in_play) == []


def test_a_chukker_start_while_a_chukker_is_in_play_is_flagged_and_starts_the_one_it_names(in_play: Scorer) -> None:
    in_play.log("chukker.start", dt=5, chukker=2)
    assert flags(in_play) == ["chukker-order"]
    assert clock(in_play) == {"chukker": 2, "played": 0, "running": True, "phase": "play"}


def test_a_chukker_start_with_another_number_than_the_next_is_flagged_yet_accepted(in_play: Scorer) -> None:
    in_play.log("chukker.end", chukker=1)
    in_play.log("chukker.start", chukker=3)
    assert flags(in_play) == ["chukker-order"] and clock(in_play)["chukker"] == 3


def test_a_first_chukker_start_with_another_number_than_1_is_flagged(start_match: type[Scorer]) -> None:
    scorer = start_match()
    scorer.log("chukker.start", chukker=2)
    assert flags(scorer) == ["chukker-order"] and clock(scorer)["chukker"] == 2


def test_a_chukker_end_before_any_chukker_started_carries_no_flag(start_match: type[Scorer]) -> None:
    scorer = start_match()  # reading: the log keeps no time yet, and a live device cannot know it ever will
    scorer.log("chukker.end", chukker=1)
    assert flags(scorer) == []


def test_a_chukker_end_naming_another_chukker_is_flagged_and_ends_the_one_in_play(in_play: Scorer) -> None:
    in_play.log("chukker.end", dt=5, chukker=2)
    assert flags(in_play) == ["chukker-order"]
    assert clock(in_play) == {"chukker": 1, "played": 15, "running": False, "phase": "between"}


def test_a_chukker_end_with_no_chukker_in_play_is_flagged_and_changes_nothing(in_play: Scorer) -> None:
    in_play.log("chukker.end", chukker=1)
    before = clock(in_play)
    in_play.log("chukker.end", dt=30, chukker=1)
    assert flags(in_play) == ["chukker-order"] and clock(in_play) == before


@pytest.mark.parametrize(("kind", "fields"), [("play", {}), ("hit", {"player": 1, "contact": "hit"}),
                                              ("approach.abort", {"how": "passed"}), ("ball.retee", {})])
def test_a_stroke_or_play_between_chukkers_is_refused(in_play: Scorer, kind: str, fields: dict[str, Any]) -> None:
    in_play.award("4")
    in_play.log("play")
    in_play.log("chukker.end", chukker=1)
    assert not in_play.match.accepts(kind)
    with pytest.raises(IllegalEvent, match=f"{kind} makes no sense between chukkers"):
        in_play.log(kind, **fields)


def test_a_free_hit_carried_into_the_next_chukker_is_taken_after_its_chukker_start(in_play: Scorer) -> None:
    in_play.award("4")
    in_play.log("chukker.end", chukker=1)
    in_play.log("chukker.start", dt=180, chukker=2)
    assert in_play.match.state == "awarded" and in_play.free_hit["penalty"] == "4"
    in_play.log("play")
    assert in_play.log("hit", player=1, contact="hit")["kind"] == "live"


def test_a_match_end_while_a_chukker_is_in_play_is_refused(in_play: Scorer) -> None:
    assert not in_play.match.accepts("match.end")
    with pytest.raises(IllegalEvent,
                       match=r"match\.end makes no sense while chukker 1 is in play: log its chukker\.end"):
        in_play.log("match.end")


@pytest.mark.parametrize(("kind", "fields", "accepted"), [
    ("void", {"seq": 2, "reason": "slip"}, True), ("card", {"team": "Red", "player": 2, "colour": "red"}, True),
    ("tick", {}, True), ("goal", {"team": "Red"}, False), ("chukker.start", {"chukker": 2}, False),
    ("penalty.award", {"penalty": "4", "to": "Red"}, False), ("whistle", {}, False), ("match.end", {}, False)])
def test_after_match_end_only_void_card_and_tick_are_accepted(in_play: Scorer, kind: str, fields: dict[str, Any],
                                                              accepted: bool) -> None:
    in_play.log("chukker.end", chukker=1)
    in_play.log("match.end")
    assert in_play.match.accepts(kind) is accepted
    if accepted:
        in_play.log(kind, **fields)
    else:
        with pytest.raises(IllegalEvent, match=f"{kind} makes no sense after match.end"):
            in_play.log(kind, **fields)


def test_a_void_of_the_match_end_reopens_the_match(in_play: Scorer) -> None:
    in_play.log("goal", team="Red")
    in_play.log("chukker.end", chukker=1)
    in_play.log("match.end")
    assert in_play.match.winner == "Red"
    in_play.log("void", seq=in_play.match.seq, reason="one more chukker")
    assert in_play.match.winner is None and not in_play.match.ended
    in_play.log("chukker.start", chukker=2)
    assert clock(in_play)["phase"] == "play"


def test_a_match_end_closes_the_free_hit_with_no_ruling_and_what_waits_lapses(start_match: type[Scorer]) -> None:
    scorer = start_match()
    scorer.call_play("2")
    scorer.log("position.improper", team="Red")
    assert scorer.log("match.end") is None
    assert scorer.match.state == "idle" and scorer.free_hit is None and scorer.match.waiting == ()


# -- flags ------------------------------------------------------------------------------------------

def test_flags_are_judged_before_the_events_own_effect_so_the_goal_that_ends_extra_time_is_not_flagged(
        in_play: Scorer) -> None:
    play_until(in_play, 425)
    in_play.log("goal", team="Blue")
    assert flags(in_play) == [] and clock(in_play)["phase"] == "over"
    in_play.log("goal", team="Blue")
    assert flags(in_play) == ["after-horn"]


def test_a_flag_never_changes_a_ruling_or_the_score(in_play: Scorer) -> None:
    play_until(in_play, 460)
    in_play.log("goal", team="Red")
    assert flags(in_play) == ["after-horn"] and in_play.match.score == {"Blue": 0, "Red": 1}


def test_a_log_that_never_starts_a_chukker_keeps_no_time_and_its_events_carry_no_flags(scorer: Scorer) -> None:
    scorer.log("whistle")
    scorer.log("goal", dt=900, team="Red")
    scorer.log("chukker.end", chukker=1)
    assert scorer.match.flags == [()] * scorer.match.seq
    assert clock(scorer)["played"] == 0


@pytest.mark.parametrize("kind", ["goal", "hit"])
def test_after_horn_flags_a_goal_or_a_hit_logged_while_the_phase_is_over(in_play: Scorer, kind: str) -> None:
    in_play.call_play("4")
    play_until(in_play, 455)
    fields = {"team": "Blue"} if kind == "goal" else {"player": 1, "contact": "hit"}
    in_play.log(kind, dt=0.001, **fields)
    assert flags(in_play) == ["after-horn"]


def test_an_award_after_the_horn_is_not_flagged(in_play: Scorer) -> None:
    play_until(in_play, 455)
    in_play.award("4")
    assert flags(in_play) == []


@pytest.mark.parametrize("stop", [("whistle", {}), ("clock.stop", {}), ("chukker.end", {"chukker": 1})])
def test_clock_stopped_flags_a_goal_logged_while_the_clock_was_stopped(in_play: Scorer, stop: tuple[Any, ...]) -> None:
    in_play.log(stop[0], **stop[1])
    in_play.log("goal", team="Red")
    assert flags(in_play) == ["clock-stopped"]
    in_play.log("clock.start")
    in_play.log("goal", team="Red")
    assert flags(in_play) == ([] if stop[0] != "chukker.end" else ["clock-stopped"])


def test_a_goal_after_the_horn_with_the_clock_stopped_carries_both_flags(in_play: Scorer) -> None:
    play_until(in_play, 455)
    in_play.log("whistle")
    in_play.log("goal", team="Red")
    assert flags(in_play) == ["after-horn", "clock-stopped"]


# -- goals by handicap ------------------------------------------------------------------------------

def roster(*handicaps: int) -> list[dict[str, Any]]:
    return [{"player": n, "name": f"P{n}", "handicap": h} for n, h in enumerate(handicaps, 1)]


@pytest.mark.parametrize(("blue", "red", "chukkers", "score"), [
    ((4, 4, 3, 3), (3, 3, 3, 2), 6, {"Blue": 0, "Red": 3}),      # 14 and 11 over 6: 3
    ((4, 4, 3, 3), (3, 3, 2, 1), 4, {"Blue": 0, "Red": 3.5}),    # 14 and 9 over 4: 3.33, recorded as 3.5
    ((2, 2, 2, 2), (2, 2, 2, 2), 6, {"Blue": 0, "Red": 0}),
    ((0, 1, 1, 1), (5, 5, 5, 5), 4, {"Blue": 11.5, "Red": 0}),   # 17 over 4: 11.33
    ((-1, 0, 2, 3), (2, 2, 2, 1), 6, {"Blue": 3, "Red": 0}),
])
def test_goals_by_handicap_from_the_rosters(start_match: type[Scorer], blue: tuple[Any, ...], red: tuple[Any, ...],
                                            chukkers: int, score: dict[str, Any]) -> None:
    scorer = start_match(chukkers=chukkers, rosters={"Blue": roster(*blue), "Red": roster(*red)})
    assert scorer.match.score == score


def test_goals_by_handicap_need_no_handicap_goals_and_an_empty_one_counts_as_given(start_match: type[Scorer]) -> None:
    rosters = {"Blue": roster(4, 4, 3, 3), "Red": roster(3, 3, 3, 2)}
    assert start_match(rosters=rosters, handicap_goals={}).match.score == {"Blue": 0, "Red": 0}
    assert start_match(rosters=rosters, handicap_goals={"Blue": 1}).match.score == {"Blue": 1, "Red": 0}


def test_goals_by_handicap_need_a_handicap_for_every_player_listed(start_match: type[Scorer]) -> None:
    rosters = {"Blue": roster(4, 4, 3, 3), "Red": [*roster(3, 3, 3), {"player": 4, "name": "P4"}]}
    assert start_match(rosters=rosters).match.score == {"Blue": 0, "Red": 0}


def test_goals_by_handicap_add_to_the_goals_scored(start_match: type[Scorer]) -> None:
    scorer = start_match(chukkers=4, rosters={"Blue": roster(4, 4, 3, 3), "Red": roster(3, 3, 2, 1)})
    scorer.log("goal", team="Red")
    assert scorer.match.score == {"Blue": 0, "Red": 4.5}


# -- the winner, and replaying ---------------------------------------------------------------------------

def test_the_winner_is_the_team_ahead_once_the_match_has_ended(in_play: Scorer) -> None:
    in_play.log("goal", team="Red")
    assert in_play.match.winner is None
    in_play.log("chukker.end", chukker=1)
    in_play.log("match.end")
    assert in_play.match.winner == "Red"


def test_a_match_that_ended_tied_has_no_winner(in_play: Scorer) -> None:
    in_play.log("chukker.end", chukker=1)
    in_play.log("match.end")
    assert in_play.match.ended and in_play.match.winner is None


def test_replay_json_gives_each_events_clock_and_flags_and_the_final_clock_and_winner(in_play: Scorer) -> None:
    in_play.log("whistle", dt=2)
    in_play.log("goal", team="Red")
    in_play.log("chukker.end", chukker=1)
    in_play.log("match.end")
    steps = list(replay(in_play.lines()))
    assert [step.to_json()["flags"] for step in steps] == [[], [], [], [], ["clock-stopped"], [], []]
    assert steps[3].to_json()["clock"] == {"chukker": 1, "played": 12, "running": False, "phase": "play"}
    from matchstate.log import final
    match = Match()
    for line in in_play.lines():
        match.feed(json.loads(line))
    assert final(match)["final"]["clock"] == {"chukker": 1, "played": 12, "running": False, "phase": "ended"}
    assert final(match)["final"]["winner"] == "Red"


def test_each_row_keeps_the_clock_and_flags_given_at_the_time_while_the_final_clock_is_refolded(
        in_play: Scorer) -> None:
    in_play.log("whistle", dt=2)
    in_play.log("goal", team="Red")
    assert flags(in_play) == ["clock-stopped"]
    in_play.log("void", seq=4, reason="no whistle")  # the whistle
    assert in_play.match.flags[4] == ("clock-stopped",) and in_play.match.clocks[3]["running"] is False
    assert in_play.match.clock.since is not None  # refolded: the clock never stopped


# -- the corrections: the umpire's whistle for the 20 seconds, and a whistle before the stroke ----------------

TIMED = ["2", "3", "4", "5a", "5b", "6"]


@pytest.mark.parametrize("free_hit", TIMED)
@pytest.mark.parametrize("stop", ["whistle", "chukker.end"])
def test_a_whistle_or_chukker_end_at_exactly_20_seconds_is_in_time(in_play: Scorer, free_hit: str, stop: str) -> None:
    in_play.call_play(free_hit)
    assert in_play.log(stop, dt=20, **({"chukker": 1} if stop == "chukker.end" else {})) is None
    assert in_play.match.state == ("placed" if stop == "whistle" else "awarded")
    assert in_play.free_hit["penalty"] == free_hit


@pytest.mark.parametrize("free_hit", TIMED)
@pytest.mark.parametrize("stop", ["whistle", "chukker.end"])
def test_a_whistle_or_chukker_end_just_after_20_seconds_is_the_umpires_whistle_for_them(in_play: Scorer, free_hit: str,
                                                                                        stop: str) -> None:
    in_play.call_play(free_hit)
    ruling = in_play.log(stop, dt=20.001, **({"chukker": 1} if stop == "chukker.end" else {}))
    assert ruling["kind"] == "award" and ruling["violation"] == "twenty-seconds" and ruling["against"] == "Blue"
    assert ruling["to"] == "Red" and in_play.match.state == "awarded"  # the award stays in progress
    assert in_play.free_hit == {k: ruling[k] for k in ("penalty", "to", "yards_to_goal")} | {
        "from": None, "defended": True}


def test_after_a_chukker_end_the_20_second_award_is_taken_when_the_next_chukker_starts(in_play: Scorer) -> None:
    in_play.call_play("4")
    in_play.log("chukker.end", dt=25, chukker=1)
    in_play.log("chukker.start", dt=180, chukker=2)
    assert in_play.match.state == "awarded" and in_play.free_hit["penalty"] == "5a"
    in_play.log("play")
    assert in_play.log("hit", player=1, contact="hit")["kind"] == "live"


def test_the_20_seconds_do_not_bind_a_knock_in_at_the_whistle(in_play: Scorer) -> None:
    in_play.call_play("knockin")
    assert in_play.log("whistle", dt=60) is None and in_play.match.state == "placed"


def test_a_whistle_before_the_stroke_with_nothing_waiting_leaves_the_free_hit_and_play_is_called_again(
        in_play: Scorer) -> None:
    in_play.call_play("3")
    in_play.log("whistle", dt=15)
    assert in_play.match.state == "placed" and in_play.match.play_at is None
    in_play.log("play", dt=60)  # its 20 seconds run from this call
    assert in_play.log("hit", dt=19, player=1, contact="hit")["kind"] == "live"


@pytest.mark.parametrize("state", ["awarded", "placed"])
def test_a_whistle_before_play_leaves_the_free_hit_as_it_was(in_play: Scorer, state: str) -> None:
    in_play.award("4")
    if state == "placed":
        in_play.log("ball.place")
    assert in_play.log("whistle") is None and in_play.match.state == state


@pytest.mark.parametrize("state", ["awarded", "placed", "play_called"])
def test_a_chukker_end_before_the_stroke_with_nothing_waiting_carries_the_free_hit_to_the_next_chukker(in_play: Scorer,
                                                                                                    state: str) -> None:
    in_play.award("6")
    if state != "awarded":
        in_play.log("ball.place")
    if state == "play_called":
        in_play.log("play")
    assert in_play.log("chukker.end", chukker=1) is None
    assert in_play.match.state == "awarded" and in_play.free_hit["penalty"] == "6"


@pytest.mark.parametrize("stop", ["whistle", "chukker.end"])
def test_a_whistle_or_chukker_end_before_the_stroke_where_a_violation_waits_closes_and_rules_it(in_play: Scorer,
                                                                                                stop: str) -> None:
    in_play.call_play("4")
    in_play.log("position.improper", team="Red")
    ruling = in_play.log(stop, **({"chukker": 1} if stop == "chukker.end" else {}))
    assert ruling["kind"] == "award" and ruling["penalty"] == "3" and ruling["to"] == "Blue"
    assert ruling["violation"] == "defending-position"


@pytest.mark.parametrize("stop", ["whistle", "chukker.end"])
def test_a_whistle_or_chukker_end_finding_the_20_seconds_run_out_while_a_violation_waits_is_a_rehit(in_play: Scorer,
                                                                                                    stop: str) -> None:
    in_play.call_play("4")
    in_play.log("position.improper", team="Red")
    ruling = in_play.log(stop, dt=21, **({"chukker": 1} if stop == "chukker.end" else {}))
    assert ruling["kind"] == "rehit" and ruling["violation"] == "both-teams" and ruling["against"] is None
    assert ruling["penalty"] == "4" and ruling["to"] == "Blue"


def test_a_tick_after_20_seconds_still_gives_the_failure_at_once(in_play: Scorer) -> None:
    in_play.call_play("5b")
    assert in_play.log("tick", dt=20.5)["violation"] == "twenty-seconds"


# -- the line limit -----------------------------------------------------------------------------------------

def padded(length: int) -> str:
    """A tick line of exactly ``length`` bytes of UTF-8."""
    line = '{"type": "tick", "at": "2026-11-29T15:00:10Z", "by": ""}'
    return line.replace('""', '"' + "x" * (length - len(line)) + '"')


START = json.dumps({"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "m", "teams": ["Blue", "Red"]})


@pytest.mark.parametrize("newline", ["\n", "\r\n", ""])
def test_a_line_of_16_kib_is_accepted_whatever_its_line_break(newline: str) -> None:
    assert len(list(replay([START + "\n", padded(MAX_LINE_BYTES) + newline]))) == 2


@pytest.mark.parametrize("newline", ["\n", "\r\n", ""])
def test_a_line_one_byte_longer_than_16_kib_is_refused(newline: str) -> None:
    with pytest.raises(RefusedEvent, match="line 2: the line is longer than 16384 bytes"):
        list(replay([START + "\n", padded(MAX_LINE_BYTES + 1) + newline]))
