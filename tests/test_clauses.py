"""The clauses of Rule 36, and the spec's other rules (7, 8, 9, the score, `void`), as rulings.

Tests are named after the clause id they check (36/one-stroke -> test_36_one_stroke_...).
Blue takes the free hit on a 300-yard field unless told; Red defends. The expected rulings
come from the match log spec, "What the rules give".
"""

from typing import Any

import pytest
from conftest import JSON, Scorer

from matchstate import Match, RefusedEvent
from matchstate.engine import CHECKPOINT_EVERY
from matchstate.events import Event

FIELD = 300
TIMED = ("2", "3", "4", "6", "5a", "5b")  # the 20 seconds bind these, not a knock-in
# Where the defending team's spot hit is taken when Blue fails each free hit (5.a is at 100 yards).
SPOT_FOR_RED = {"2": 270, "3": 260, "4": 240, "6": 240, "5a": 200, "5b": 150}


def award_of(ruling: JSON) -> tuple[str, str, float, bool]:
    """The free hit a ruling gives, as (penalty, to, yards_to_goal, defended)."""
    assert ruling is not None and ruling["kind"] in ("award", "rehit"), ruling
    return ruling["penalty"], ruling["to"], ruling["yards_to_goal"], ruling["defended"]


def spot_hit_for_red(free_hit: str) -> tuple[str, str, float, bool]:
    return ("5a", "Red", SPOT_FOR_RED[free_hit], True)


def goal_to(ruling: JSON, team: str) -> bool:
    return ruling is not None and ruling["kind"] == "goal" and ruling["to"] == team


def replayed(events: list[dict[str, Any]]) -> Match:
    """A new match fed these events."""
    match = Match()
    for event in events:
        match.feed(event)
    return match


def seen(match: Match) -> dict[str, Any]:
    return {"state": match.state, "score": dict(match.score),
            "free_hit": match.free_hit.to_json() if match.free_hit else None}


# -- 36/one-stroke ---------------------------------------------------------------------------------

@pytest.mark.parametrize("free_hit", ["2", "3", "4", "6"])
def test_36_one_stroke_preparatory_dribble_gives_spot_hit_to_defending_team(scorer: Scorer, free_hit: str) -> None:
    scorer.call_play(free_hit)
    ruling = scorer.log("dribble")
    assert award_of(ruling) == spot_hit_for_red(free_hit)
    assert ruling["against"] == "Blue"
    assert "36/one-stroke" in ruling["cite"]


@pytest.mark.parametrize("free_hit", ["5a", "5b", "knockin"])
def test_36_one_stroke_dribble_is_no_violation_on_5a_5b_knockin(scorer: Scorer, free_hit: str) -> None:
    scorer.call_play(free_hit)
    assert scorer.log("dribble") is None
    assert scorer.match.state == "play_called"
    assert scorer.log("hit", player=3, contact="hit")["kind"] == "live"


def test_36_one_stroke_a_swing_puts_the_ball_in_play(scorer: Scorer) -> None:
    ruling = scorer.strike("2")
    assert ruling["kind"] == "live"
    assert scorer.match.state == "live"
    assert scorer.free_hit["penalty"] == "2"  # the free hit stays open until it closes


@pytest.mark.parametrize("free_hit", ["2", "3"])
def test_36_one_stroke_a_mishit_on_penalty_2_or_3_is_a_live_ball_by_this_clause(scorer: Scorer, free_hit: str) -> None:
    ruling = scorer.strike(free_hit, contact="mishit")
    assert ruling["kind"] == "live" and ruling["cite"] == ["36/one-stroke"]


@pytest.mark.parametrize("free_hit", TIMED)
@pytest.mark.parametrize("kind, fields", [("hit", {"player": 3, "contact": "hit"}),
                                          ("approach.abort", {"how": "passed"}),
                                          ("tick", {})], ids=["hit", "approach.abort", "tick"])
def test_36_one_stroke_more_than_20_seconds_after_play(scorer: Scorer, free_hit: str, kind: str,
                                                       fields: dict[str, Any]) -> None:
    scorer.call_play(free_hit)
    ruling = scorer.log(kind, dt=20.001, **fields)
    assert award_of(ruling) == spot_hit_for_red(free_hit)
    assert ruling["against"] == "Blue"
    assert ruling["cite"] == ["36/one-stroke", "36/procedural:fouled"]


@pytest.mark.parametrize("free_hit", TIMED)
def test_36_one_stroke_exactly_20_seconds_is_in_time(scorer: Scorer, free_hit: str) -> None:
    scorer.call_play(free_hit)
    assert scorer.log("tick", dt=20.0) is None
    assert scorer.match.state == "play_called"
    assert scorer.log("hit", dt=0, player=3, contact="hit")["kind"] == "live"


def test_36_one_stroke_approach_abort_within_20_seconds_is_a_first_approach_failure(scorer: Scorer) -> None:
    scorer.call_play("2")
    ruling = scorer.log("approach.abort", dt=20.0, how="passed")
    assert award_of(ruling) == spot_hit_for_red("2")
    assert "36/table:first-approach:2" in ruling["cite"]


def test_36_one_stroke_the_20_seconds_run_from_play_not_from_the_last_event(scorer: Scorer) -> None:
    scorer.call_play("4")
    assert scorer.log("tick", dt=15) is None
    assert award_of(scorer.log("hit", dt=5.001, player=3, contact="hit")) == spot_hit_for_red("4")


@pytest.mark.parametrize("at, kind", [("2026-11-29T16:00:23+01:00", "live"),
                                      ("2026-11-29T16:00:23.001+01:00", "award")])
def test_36_one_stroke_20_seconds_across_utc_offsets(scorer: Scorer, at: str, kind: str) -> None:
    scorer.call_play("2")  # "Play" at 15:00:03Z
    ruling = scorer.match.feed({"type": "hit", "at": at, "player": 3, "contact": "hit"})
    assert ruling is not None and ruling.kind == kind


@pytest.mark.parametrize("kind, fields", [("hit", {"player": 3, "contact": "hit"}), ("tick", {})],
                         ids=["hit", "tick"])
def test_36_one_stroke_knockin_has_no_20_second_window(scorer: Scorer, kind: str, fields: dict[str, Any]) -> None:
    scorer.call_play("knockin")
    ruling = scorer.log(kind, dt=45, **fields)
    assert ruling is None if kind == "tick" else ruling["kind"] == "live"


def test_36_one_stroke_late_approach_abort_on_knockin_is_still_first_approach(scorer: Scorer) -> None:
    scorer.call_play("knockin")
    ruling = scorer.log("approach.abort", dt=45, how="circled")
    assert award_of(ruling) == ("4", "Red", 60, True)
    assert "36/table:first-approach:knockin" in ruling["cite"]


# -- 36/stops-short --------------------------------------------------------------------------------

def test_36_stops_short_penalty_2_from_centre(scorer: Scorer) -> None:
    scorer.strike("2")
    ruling = scorer.log("ball.stop", yards_to_goal=12)
    assert award_of(ruling) == ("5a", "Red", 288, True)
    assert ruling["against"] == "Blue"
    assert "36/stops-short" in ruling["cite"]
    assert scorer.free_hit["to"] == "Red"


def test_36_stops_short_undefended_penalty_3(start_match: type[Scorer]) -> None:
    scorer = start_match(penalty3_defended=False)
    scorer.award("3")
    assert scorer.free_hit == {"penalty": "3", "to": "Blue", "yards_to_goal": 40, "from": None, "defended": False}
    scorer.log("play")
    scorer.log("hit", player=1, contact="hit")
    assert award_of(scorer.log("ball.stop", yards_to_goal=25)) == ("5a", "Red", 275, True)


@pytest.mark.parametrize("free_hit, fields", [("3", {}), ("2", {"from_": "spot", "yards_to_goal": 30}),
                                              ("4", {}), ("5a", {})],
                         ids=["defended-3", "2-from-the-spot", "4", "5a"])
def test_36_stops_short_on_a_defended_hit_ball_stop_gives_nothing(scorer: Scorer, free_hit: str,
                                                                  fields: dict[str, Any]) -> None:
    scorer.strike(free_hit, **fields)
    assert scorer.log("ball.stop", yards_to_goal=25) is None
    assert scorer.match.state == "live"  # the free hit is still open
    assert scorer.free_hit["to"] == "Blue"


# -- 36/missed-4-6 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("free_hit", ["4", "6"])
@pytest.mark.parametrize("contact", ["miss", "mishit"])
def test_36_missed_4_6_legitimate_miss_or_mishit_is_a_live_ball(scorer: Scorer, free_hit: str, contact: str) -> None:
    assert scorer.strike(free_hit, contact=contact)["kind"] == "live"
    assert scorer.match.state == "live"
    # play goes on: the free hit is open, so the ball going over the back line is a knock-in for Red
    assert award_of(scorer.log("ball.out", over="backline")) == ("knockin", "Red", FIELD, True)


@pytest.mark.parametrize("free_hit", ["4", "6"])
@pytest.mark.parametrize("contact", ["miss", "mishit", "hit"])
def test_36_missed_4_6_deliberate_miss_mishit_or_tap_gives_spot_hit_to_defending_team(scorer: Scorer, free_hit: str,
                                                                                      contact: str) -> None:
    scorer.call_play(free_hit)
    ruling = scorer.log("hit", player=3, contact=contact, deliberate=True)
    assert award_of(ruling) == spot_hit_for_red(free_hit)
    assert ruling["against"] == "Blue"


def test_36_missed_4_6_example_mishit_then_a_foul_in_open_play(scorer: Scorer) -> None:
    """Blue #3 mis-hits a Penalty 4, follows it and fouls: a new penalty, nothing from Rule 36."""
    assert scorer.strike("4", contact="mishit")["kind"] == "live"
    assert scorer.log("card", team="Blue", player=3, colour="yellow") is None
    assert scorer.log("penalty.award", penalty="3", to="Red") is None
    assert scorer.free_hit == {"penalty": "3", "to": "Red", "yards_to_goal": 40, "from": None, "defended": True}
    assert scorer.match.state == "awarded"


# -- 36/return:fouling (a defending-team player: waits for the close, increased penalty) ------------

RETURNS = [({"closest_yards": 29.9, "on_field": True}, True),
           ({"closest_yards": 30, "on_field": True}, False),
           ({"closest_yards": 80, "on_field": False}, True)]
PLAYS = [({"passed_teammate": False, "ball_travelled": 29.9, "passed_midfield": True}, True),
         ({"passed_teammate": False, "ball_travelled": 30, "passed_midfield": True}, False),
         ({"passed_teammate": False, "ball_travelled": 90, "passed_midfield": False}, True),
         ({"passed_teammate": True, "ball_travelled": 0, "passed_midfield": False}, False)]
RETURN_IDS = ["closer-than-30", "at-30", "off-field"]
PLAY_IDS = ["travelled-29.9", "travelled-30-past-midfield", "not-past-midfield", "passed-teammate"]


@pytest.mark.parametrize("route, breaks", RETURNS, ids=RETURN_IDS)
def test_36_return_fouling_return_route_waits_for_the_close(scorer: Scorer, route: dict[str, Any],
                                                            breaks: bool) -> None:
    scorer.call_play("3")
    assert scorer.log("player.return", team="Red", player=2, **route) is None
    assert scorer.log("hit", player=3, contact="hit")["kind"] == "live"
    ruling = scorer.log("whistle")
    if breaks:
        assert award_of(ruling) == ("2", "Blue", 30, False)
        assert ruling["from"] == "center" and ruling["against"] == "Red"
    else:
        assert ruling is None and scorer.match.state == "idle"


@pytest.mark.parametrize("play, breaks", PLAYS, ids=PLAY_IDS)
def test_36_return_fouling_early_play_waits_for_the_close(scorer: Scorer, play: dict[str, Any], breaks: bool) -> None:
    scorer.strike("4")
    assert scorer.log("player.play", team="Red", player=4, **play) is None
    assert scorer.match.state == "live"
    ruling = scorer.log("ball.out", over="sideline")
    assert (award_of(ruling) == ("3", "Blue", 40, True)) if breaks else ruling is None


def test_36_return_fouling_early_play_that_prevented_a_goal_gives_the_goal(scorer: Scorer) -> None:
    scorer.strike("4")
    scorer.log("player.play", team="Red", player=4, passed_teammate=False, ball_travelled=10,
               passed_midfield=False, prevented_goal=True)
    ruling = scorer.log("whistle")
    assert goal_to(ruling, "Blue") and ruling["against"] == "Red"
    assert scorer.match.score == {"Blue": 1, "Red": 0}


# -- 36/return:fouled (a hitting-team player: ruled at once) ----------------------------------------

@pytest.mark.parametrize("kind, fields, breaks",
                         [("player.return", route, breaks) for route, breaks in RETURNS]
                         + [("player.play", play, breaks) for play, breaks in PLAYS],
                         ids=[*(f"return-{i}" for i in RETURN_IDS), *(f"play-{i}" for i in PLAY_IDS)])
def test_36_return_fouled_is_ruled_at_once(scorer: Scorer, kind: str, fields: dict[str, Any], breaks: bool) -> None:
    scorer.strike("6")
    ruling = scorer.log(kind, team="Blue", player=1, **fields)
    if breaks:
        assert award_of(ruling) == spot_hit_for_red("6") and ruling["against"] == "Blue"
    else:
        assert ruling is None and scorer.match.state == "live"


# -- 36/return:discretion (a deliberate miss, mis-hit or tap) ----------------------------------------

@pytest.mark.parametrize("free_hit", ["2", "3", "5a", "5b"])
def test_36_return_discretion_deliberate_mishit_gives_spot_hit_to_defending_team(scorer: Scorer, free_hit: str) -> None:
    scorer.call_play(free_hit)
    ruling = scorer.log("hit", player=3, contact="mishit", deliberate=True)
    assert award_of(ruling) == spot_hit_for_red(free_hit)
    assert ruling["against"] == "Blue"


def test_36_return_discretion_deliberate_miss_on_knockin_gives_penalty_4(scorer: Scorer) -> None:
    scorer.call_play("knockin")
    assert award_of(scorer.log("hit", player=3, contact="miss", deliberate=True)) == ("4", "Red", 60, True)


# -- 36/procedural:fouling (the increased penalty; rule 4 of the spec) ------------------------------

def close_with_waiting_violation(scorer: Scorer, free_hit: str, closer: tuple[str, dict[str, Any]] = ("whistle", {}),
                                 **fields: Any) -> JSON:
    """Blue takes the free hit with Red improperly positioned; returns the ruling at the close."""
    scorer.call_play(free_hit, **fields)
    assert scorer.log("position.improper", team="Red") is None
    assert scorer.log("hit", player=3, contact="hit")["kind"] == "live"
    kind, closer_fields = closer
    return scorer.log(kind, **closer_fields)


@pytest.mark.parametrize("free_hit, increased", [
    ("3", ("2", "Blue", 30, False)),
    ("4", ("3", "Blue", 40, True)),
    ("6", ("3", "Blue", 40, True)),
    ("5b", ("4", "Blue", 60, True)),
    ("knockin", ("5b", "Blue", 150, True)),
])
def test_36_procedural_fouling_increased_penalty(scorer: Scorer, free_hit: str, increased: tuple[Any, ...]) -> None:
    ruling = close_with_waiting_violation(scorer, free_hit)
    assert award_of(ruling) == increased
    assert ruling["against"] == "Red"
    assert scorer.match.state == "awarded"


def test_36_procedural_fouling_increased_penalty_3_follows_penalty3_defended(start_match: type[Scorer]) -> None:
    scorer = start_match(penalty3_defended=False)
    assert award_of(close_with_waiting_violation(scorer, "4")) == ("3", "Blue", 40, False)


@pytest.mark.parametrize("yards, increased", [
    (200, ("4", "Blue", 60, True)),
    (60.5, ("4", "Blue", 60, True)),
    (60, ("3", "Blue", 40, True)),
    (41, ("3", "Blue", 40, True)),
    (40, ("2", "Blue", 30, False)),
    (31, ("2", "Blue", 30, False)),
])
def test_36_procedural_fouling_increased_penalty_on_5a_by_distance(scorer: Scorer, yards: float,
                                                                   increased: tuple[Any, ...]) -> None:
    assert award_of(close_with_waiting_violation(scorer, "5a", yards_to_goal=yards)) == increased


@pytest.mark.parametrize("yards", [30, 12])
def test_36_procedural_fouling_5a_within_30_yards_is_as_penalty_2(scorer: Scorer, yards: int) -> None:
    ruling = close_with_waiting_violation(scorer, "5a", yards_to_goal=yards)
    assert ruling["kind"] == "choose"
    rehit, goal = ruling["options"]
    assert award_of(rehit) == ("5a", "Blue", yards, True) and rehit["kind"] == "rehit"
    assert goal_to(goal, "Blue")


@pytest.mark.parametrize("fields", [{}, {"from_": "spot", "yards_to_goal": 22}], ids=["center", "spot"])
def test_36_procedural_fouling_penalty_2_decide_1_is_the_same_penalty_2_again(scorer: Scorer,
                                                                              fields: dict[str, Any]) -> None:
    scorer.award("2", **fields)
    penalty_2 = scorer.free_hit
    ruling = close_with_waiting_violation(scorer, "2", **fields)
    assert ruling["kind"] == "choose" and scorer.match.state == "choosing"
    assert [option["kind"] for option in ruling["options"]] == ["rehit", "goal"]
    rehit = scorer.log("decide", option=1)
    assert rehit["kind"] == "rehit"
    assert {k: rehit[k] for k in penalty_2} == penalty_2
    assert scorer.free_hit == penalty_2 and scorer.match.state == "awarded"
    assert scorer.match.score == {"Blue": 0, "Red": 0}


def test_36_procedural_fouling_penalty_2_decide_2_is_penalty_1(scorer: Scorer) -> None:
    close_with_waiting_violation(scorer, "2")
    assert goal_to(scorer.log("decide", option=2), "Blue")
    assert scorer.match.score == {"Blue": 1, "Red": 0}
    assert scorer.match.state == "idle" and scorer.free_hit is None


def test_36_procedural_fouling_goal_by_the_hitting_team_counts_and_nothing_more(scorer: Scorer) -> None:
    assert close_with_waiting_violation(scorer, "3", closer=("goal", {"team": "Blue", "player": 3})) is None
    assert scorer.match.score == {"Blue": 1, "Red": 0}
    assert scorer.match.state == "idle" and scorer.free_hit is None
    assert scorer.log("whistle") is None  # nothing left waiting


def test_36_procedural_fouling_prevented_goal_is_awarded(scorer: Scorer) -> None:
    scorer.call_play("4")
    scorer.log("position.improper", team="Red", prevented_goal=True)
    scorer.log("hit", player=3, contact="hit")
    ruling = scorer.log("ball.out", over="backline")
    assert goal_to(ruling, "Blue") and ruling["against"] == "Red"
    assert scorer.match.score == {"Blue": 1, "Red": 0}
    assert scorer.match.state == "idle"


def test_36_procedural_fouling_ball_stop_on_a_defended_hit_does_not_close(scorer: Scorer) -> None:
    assert close_with_waiting_violation(scorer, "3", closer=("ball.stop", {"yards_to_goal": 10})) is None
    assert scorer.match.state == "live"
    assert award_of(scorer.log("whistle")) == ("2", "Blue", 30, False)  # Red's violation still waited


def test_36_procedural_fouling_prevented_goal_but_goal_scored_counts_once(scorer: Scorer) -> None:
    scorer.call_play("4")
    scorer.log("position.improper", team="Red", prevented_goal=True)
    scorer.log("hit", player=3, contact="hit")
    assert scorer.log("goal", team="Blue", player=3) is None
    assert scorer.match.score == {"Blue": 1, "Red": 0}


def test_36_procedural_fouling_any_waiting_violation_that_prevented_a_goal_gives_the_goal(scorer: Scorer) -> None:
    scorer.call_play("5b")
    scorer.log("position.improper", team="Red")
    scorer.log("hit", player=3, contact="hit")
    scorer.log("player.play", team="Red", player=2, passed_teammate=False, ball_travelled=5,
               passed_midfield=False, prevented_goal=True)
    assert goal_to(scorer.log("whistle"), "Blue")
    assert scorer.match.score == {"Blue": 1, "Red": 0}


def test_36_procedural_fouling_waiting_violation_takes_precedence_over_undefended_stop(scorer: Scorer) -> None:
    ruling = close_with_waiting_violation(scorer, "2", closer=("ball.stop", {"yards_to_goal": 10}))
    assert ruling["kind"] == "choose"
    assert ruling["against"] == "Red"


def test_36_procedural_fouling_waiting_violation_takes_precedence_over_back_line(scorer: Scorer) -> None:
    ruling = close_with_waiting_violation(scorer, "6", closer=("ball.out", {"over": "backline"}))
    assert award_of(ruling) == ("3", "Blue", 40, True)


def test_36_procedural_fouling_chukker_end_rules_what_waits(scorer: Scorer) -> None:
    scorer.log("chukker.start", chukker=1)
    ruling = close_with_waiting_violation(scorer, "5b", closer=("chukker.end", {"chukker": 1}))
    assert award_of(ruling) == ("4", "Blue", 60, True)


def test_36_procedural_fouling_violation_before_the_stroke_waits_too(scorer: Scorer) -> None:
    scorer.award("3")
    assert scorer.log("player.return", team="Red", player=1, closest_yards=5, on_field=True) is None
    assert scorer.match.state == "awarded"
    scorer.log("play")
    scorer.log("hit", player=3, contact="hit")
    assert award_of(scorer.log("whistle")) == ("2", "Blue", 30, False)


# -- 36/procedural:fouled (the hitting team's failure) ----------------------------------------------

@pytest.mark.parametrize("yards, ruling_for_red", [
    (100, ("5a", "Red", 200, True)),
    (240, ("5a", "Red", 60, True)),   # the spot is 60 yards from Blue's own goal line: not within
    (240.5, ("4", "Red", 60, True)),
    (280, ("4", "Red", 60, True)),
])
def test_36_procedural_fouled_5a_spot_hit_or_penalty_4_whichever_is_less_severe(scorer: Scorer, yards: float,
        ruling_for_red: tuple[Any, ...]) -> None:
    scorer.call_play("5a", yards_to_goal=yards)
    ruling = scorer.log("approach.abort", how="passed")
    assert award_of(ruling) == ruling_for_red
    assert ruling["against"] == "Blue"


def test_36_procedural_fouled_5a_within_60_yards_on_a_shorter_field(start_match: type[Scorer]) -> None:
    scorer = start_match(field_length=250)
    scorer.call_play("5a", yards_to_goal=200)  # 50 yards from Blue's own goal line
    assert award_of(scorer.log("hit", player=3, contact="hit", deliberate=True)) == ("4", "Red", 60, True)


def test_36_procedural_fouled_spot_is_where_the_penalty_was_being_taken(start_match: type[Scorer]) -> None:
    scorer = start_match(field_length=280)
    scorer.call_play("5b")
    assert award_of(scorer.log("approach.abort", how="circled")) == ("5a", "Red", 140, True)


@pytest.mark.parametrize("free_hit", ["5a", "5b"])
def test_36_procedural_fouled_20_seconds_bind_5a_and_5b(scorer: Scorer, free_hit: str) -> None:
    scorer.call_play(free_hit)
    ruling = scorer.log("hit", dt=21, player=3, contact="hit")
    assert award_of(ruling) == spot_hit_for_red(free_hit)
    assert "36/procedural:fouled" in ruling["cite"]


# -- 36/procedural:both ------------------------------------------------------------------------------

BOTH = [("2", {}), ("2", {"from_": "spot", "yards_to_goal": 18}), ("5a", {"yards_to_goal": 75}), ("4", {})]
BOTH_IDS = ["2-center", "2-spot", "5a", "4"]


@pytest.mark.parametrize("free_hit, fields", BOTH, ids=BOTH_IDS)
def test_36_procedural_both_failure_while_a_violation_waits_is_a_rehit(scorer: Scorer, free_hit: str,
                                                                       fields: dict[str, Any]) -> None:
    scorer.award(free_hit, **fields)
    original = scorer.free_hit
    scorer.log("play")
    assert scorer.log("position.improper", team="Red") is None
    ruling = scorer.log("approach.abort", how="passed")
    assert ruling["kind"] == "rehit"
    assert {k: ruling.get(k) for k in original} == original
    assert "36/procedural:both" in ruling["cite"]
    assert scorer.free_hit == original and scorer.match.state == "awarded"
    assert scorer.log("whistle") is None  # the waiting violation was ruled with the rehit


@pytest.mark.parametrize("free_hit, fields", BOTH, ids=BOTH_IDS)
def test_36_procedural_both_at_the_same_moment_is_a_rehit(scorer: Scorer, free_hit: str,
                                                          fields: dict[str, Any]) -> None:
    scorer.award(free_hit, **fields)
    original = scorer.free_hit
    scorer.log("play")
    assert award_of(scorer.log("tick", dt=21))[1] == "Red"  # Blue's 20 seconds ran out: ruled at once
    ruling = scorer.log("position.improper", dt=0, team="Red")  # Red's violation at the same `at`
    assert ruling["kind"] == "rehit"
    assert {k: ruling.get(k) for k in original} == original
    assert scorer.free_hit == original


def test_36_procedural_both_same_moment_player_return(scorer: Scorer) -> None:
    scorer.call_play("3")
    scorer.log("hit", player=2, contact="miss")  # swing and miss on a Penalty 3
    ruling = scorer.log("player.return", dt=0, team="Red", player=1, closest_yards=10, on_field=True)
    assert ruling["kind"] == "rehit" and award_of(ruling) == ("3", "Blue", 40, True)


def test_36_procedural_both_same_moment_with_an_event_between(scorer: Scorer) -> None:
    scorer.call_play("3")
    scorer.log("hit", player=2, contact="miss")
    scorer.log("ball.place", dt=0)  # Red's ball for its spot hit, placed at the same moment
    ruling = scorer.log("position.improper", dt=0, team="Red")
    assert ruling is not None and ruling["kind"] == "rehit"
    assert award_of(ruling) == ("3", "Blue", 40, True)


def test_36_procedural_both_needs_the_same_moment(scorer: Scorer) -> None:
    scorer.call_play("3")
    scorer.log("hit", player=2, contact="miss")
    # a second later, Red's improper position is against Red's own free hit: no rehit
    assert scorer.log("position.improper", team="Red") is None
    assert scorer.free_hit["to"] == "Red"


# -- 36/tee:surface and 36/tee:as-it-lies -----------------------------------------------------------

@pytest.mark.parametrize("how", ["surface_altered", "dismounted"])
@pytest.mark.parametrize("free_hit", ["2", "5a", "knockin"])
def test_36_tee_surface_altering_the_surface_or_dismounting(scorer: Scorer, free_hit: str, how: str) -> None:
    scorer.award(free_hit)
    ruling = scorer.log("ball.place", **{how: True})
    expected = ("4", "Red", 60, True) if free_hit == "knockin" else spot_hit_for_red(free_hit)
    assert award_of(ruling) == expected
    assert ruling["against"] == "Blue"
    assert "36/tee:surface" in ruling["cite"]


def test_36_tee_surface_a_proper_tee_gives_nothing(scorer: Scorer) -> None:
    scorer.award("2")
    assert scorer.log("ball.place", surface_altered=False, dismounted=False) is None
    assert scorer.match.state == "placed"


@pytest.mark.parametrize("free_hit", ["2", "4", "5b"])
def test_36_tee_as_it_lies_no_retee_after_play(scorer: Scorer, free_hit: str) -> None:
    scorer.call_play(free_hit)
    ruling = scorer.log("ball.retee")
    assert award_of(ruling) == spot_hit_for_red(free_hit)
    assert "36/tee:as-it-lies" in ruling["cite"]


def test_36_tee_as_it_lies_a_retee_before_play_is_refused(scorer: Scorer) -> None:
    """Re-teeing before "Play" is allowed by the rule; the event means a re-tee after it."""
    scorer.award("2")
    scorer.log("ball.place")
    with pytest.raises(RefusedEvent, match=r"ball\.place"):
        scorer.log("ball.retee")
    assert scorer.match.state == "placed"


# -- 36/yellow-card-p2 -------------------------------------------------------------------------------

@pytest.mark.parametrize("fields", [{}, {"from_": "spot", "yards_to_goal": 45}], ids=["center", "spot"])
def test_36_yellow_card_p2_on_the_award_is_penalty_1(scorer: Scorer, fields: dict[str, Any]) -> None:
    ruling = scorer.award("2", card="yellow", **fields)
    assert goal_to(ruling, "Blue") and ruling["against"] == "Red"
    assert "36/yellow-card-p2" in ruling["cite"]
    assert scorer.match.score == {"Blue": 1, "Red": 0}
    assert scorer.match.state == "idle" and scorer.free_hit is None


@pytest.mark.parametrize("moment", ["awarded", "play_called", "live"])
def test_36_yellow_card_p2_to_a_defending_player_during_the_penalty_2(scorer: Scorer, moment: str) -> None:
    scorer.award("2")
    if moment != "awarded":
        scorer.log("play")
    if moment == "live":
        scorer.log("hit", player=3, contact="hit")
    ruling = scorer.log("card", team="Red", player=2, colour="yellow")
    assert goal_to(ruling, "Blue") and ruling["against"] == "Red"
    assert scorer.match.score == {"Blue": 1, "Red": 0}
    assert scorer.match.state == "idle"


def test_36_yellow_card_p2_to_a_hitting_player_gives_nothing(scorer: Scorer) -> None:
    scorer.call_play("2")
    assert scorer.log("card", team="Blue", player=2, colour="yellow") is None
    assert scorer.match.state == "play_called" and scorer.match.score == {"Blue": 0, "Red": 0}


@pytest.mark.parametrize("free_hit", ["3", "4", "5a"])
def test_36_yellow_card_p2_only_on_a_penalty_2(scorer: Scorer, free_hit: str) -> None:
    assert scorer.award(free_hit, card="yellow") is None
    scorer.log("play")
    assert scorer.log("card", team="Red", player=2, colour="yellow") is None
    assert scorer.match.score == {"Blue": 0, "Red": 0}
    assert scorer.free_hit["penalty"] == free_hit


# -- spec rules 7, 8, 9 ------------------------------------------------------------------------------

def test_penalty_1_is_a_goal_at_once(scorer: Scorer) -> None:
    ruling = scorer.log("penalty.award", penalty="1", to="Red")
    assert goal_to(ruling, "Red") and ruling["against"] == "Blue"
    assert scorer.match.score == {"Blue": 0, "Red": 1}
    assert scorer.match.state == "idle"


def test_penalty_1_while_a_free_hit_is_open_closes_it(scorer: Scorer) -> None:
    scorer.call_play("4")
    scorer.log("position.improper", team="Blue")  # N/A on a Penalty 4
    assert goal_to(scorer.log("penalty.award", penalty="1", to="Blue"), "Blue")
    assert scorer.match.state == "idle" and scorer.free_hit is None


@pytest.mark.parametrize("free_hit", ["2", "4", "5a", "knockin"])
def test_ball_out_over_the_back_line_is_a_knockin_to_the_defending_team(scorer: Scorer, free_hit: str) -> None:
    scorer.strike(free_hit)
    ruling = scorer.log("ball.out", over="backline")
    assert award_of(ruling) == ("knockin", "Red", FIELD, True)
    assert scorer.free_hit == {"penalty": "knockin", "to": "Red", "yards_to_goal": FIELD, "from": None,
                               "defended": True}


def test_ball_out_over_the_side_line_gives_nothing_and_closes(scorer: Scorer) -> None:
    scorer.strike("4")
    assert scorer.log("ball.out", over="sideline") is None
    assert scorer.match.state == "idle" and scorer.free_hit is None


@pytest.mark.parametrize("kind, fields", [("penalty.award", {"penalty": "3", "to": "Red"}),
                                          ("knockin.award", {"to": "Red"})])
def test_new_award_closes_the_free_hit_and_waiting_violations_lapse(scorer: Scorer, kind: str,
                                                                    fields: dict[str, Any]) -> None:
    scorer.strike("4")
    scorer.log("position.improper", team="Red")
    assert scorer.log(kind, **fields) is None
    assert scorer.free_hit["to"] == "Red" and scorer.match.state == "awarded"
    scorer.log("play")
    scorer.log("hit", player=1, contact="hit")
    assert scorer.log("whistle") is None  # Red's old violation lapsed with Blue's free hit


@pytest.mark.parametrize("closer, fields", [("whistle", {}), ("chukker.end", {"chukker": 2})])
def test_whistle_or_chukker_end_closes_the_free_hit(scorer: Scorer, closer: str, fields: dict[str, Any]) -> None:
    scorer.strike("5a")
    assert scorer.log(closer, **fields) is None
    assert scorer.match.state == "idle" and scorer.free_hit is None


def test_goal_by_the_hitting_team_counts_and_closes(scorer: Scorer) -> None:
    scorer.strike("3")
    assert scorer.log("goal", team="Blue", player=3) is None
    assert scorer.match.score == {"Blue": 1, "Red": 0}
    assert scorer.match.state == "idle" and scorer.free_hit is None


# -- a scorer may skip ball.place and play --------------------------------------------------------

def test_play_in_awarded_implies_the_placing(scorer: Scorer) -> None:
    scorer.award("3")
    assert scorer.log("play") is None and scorer.match.state == "play_called"
    assert scorer.log("hit", player=3, contact="hit")["kind"] == "live"


def test_hit_straight_after_the_award_is_a_hit_before_play(scorer: Scorer) -> None:
    scorer.award("6")
    ruling = scorer.log("hit", player=3, contact="hit")
    assert award_of(ruling) == spot_hit_for_red("6")
    assert ruling["violation"] == "hit-before-play" and "36/table:hit-before-play:6" in ruling["cite"]


# -- the score ---------------------------------------------------------------------------------------

def test_score_is_handicap_goals_plus_goals_scored_plus_goals_awarded(start_match: type[Scorer]) -> None:
    scorer = start_match(handicap_goals={"Red": 2})
    assert scorer.match.score == {"Blue": 0, "Red": 2}
    scorer.log("goal", team="Blue")                              # scored in open play
    scorer.log("penalty.award", penalty="1", to="Red")           # awarded
    scorer.award("2", card="yellow")                              # awarded: Penalty 1 to Blue
    scorer.strike("3", to="Red")
    scorer.log("goal", team="Red", player=1)                     # scored from a Penalty 3
    assert scorer.match.score == {"Blue": 2, "Red": 4}


# -- void --------------------------------------------------------------------------------------------

def test_void_a_hit_before_play_is_as_if_never_logged(scorer: Scorer) -> None:
    scorer.award("2")
    scorer.log("ball.place")
    without = seen(replayed(scorer.events))
    scorer.log("hit", player=3, contact="hit")  # before "Play": Red got a spot hit
    assert scorer.free_hit["to"] == "Red"
    assert scorer.log("void", seq=scorer.match.seq, reason="logged by mistake") is None
    assert seen(scorer.match) == without
    assert scorer.log("play") is None and scorer.log("hit", player=3, contact="hit")["kind"] == "live"


def test_void_a_goal_takes_it_off_the_score(start_match: type[Scorer]) -> None:
    scorer = start_match(handicap_goals={"Blue": 1})
    scorer.log("goal", team="Blue")
    goal_seq = scorer.match.seq
    scorer.log("goal", team="Red")
    scorer.log("void", seq=goal_seq, reason="no goal: wide")
    assert scorer.match.score == {"Blue": 1, "Red": 1}


def test_void_a_waiting_violation_earlier_in_the_log(scorer: Scorer) -> None:
    scorer.call_play("3")
    scorer.log("position.improper", team="Red")
    violation_seq = scorer.match.seq
    scorer.log("hit", player=3, contact="hit")
    scorer.log("void", seq=violation_seq, reason="Red was onside")
    assert scorer.log("whistle") is None
    assert scorer.match.state == "idle"


def test_void_of_a_void_restores_the_event(scorer: Scorer) -> None:
    scorer.log("goal", team="Red")
    scorer.log("void", seq=2, reason="scorer error")
    assert scorer.match.score == {"Blue": 0, "Red": 0}
    scorer.log("void", seq=3, reason="the goal stood after all")
    assert scorer.match.score == {"Blue": 0, "Red": 1}


def long_match(scorer: Scorer, free_hits: int = 150) -> list[int]:
    """Free hits with waiting violations, goals in between: past several refold checkpoints."""
    for n in range(free_hits):
        scorer.call_play(("2", "3", "4", "5b")[n % 4], to=("Blue", "Red")[n % 3 % 2])
        scorer.log("position.improper", team=scorer.match.defending_team)
        scorer.log("hit", player=1, contact="hit")
        scorer.log("goal", team=scorer.match.hitting_team)  # it counts, and nothing more is given
    return [seq for seq, event in enumerate(scorer.events, 1) if event["type"] == "goal"]


@pytest.mark.parametrize("which", [0, 70, -1], ids=["first-goal", "a-middle-goal", "last-event"])
def test_void_in_a_long_match_is_as_if_never_logged(scorer: Scorer, which: int) -> None:
    goals = long_match(scorer)
    target = goals[which]
    scorer.log("void", seq=target, reason="no goal")
    assert seen(scorer.match) == seen(replayed(scorer.events[:target - 1] + scorer.events[target:-1]))


def test_undo_last_in_a_long_match_refolds_only_the_events_since_a_checkpoint(scorer: Scorer,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    goals = long_match(scorer)
    scorer.log("void", seq=goals[0], reason="no goal")  # refolds nearly all, checkpoints taken anew
    scorer.log("goal", team="Red")
    applied: list[Event] = []
    apply = Match._apply

    def applying(match: Match, play: Any, event: Event, seq: int) -> Any:
        applied.append(event)
        return apply(match, play, event, seq)

    monkeypatch.setattr(Match, "_apply", applying)
    scorer.log("void", seq=scorer.match.seq, reason="no goal")
    assert 0 < len(applied) <= CHECKPOINT_EVERY < len(scorer.events) / 2


def test_void_of_a_void_in_a_long_match_restores_the_early_event(scorer: Scorer) -> None:
    goals = long_match(scorer)
    scorer.log("void", seq=goals[1], reason="no goal")
    void_seq = scorer.match.seq
    long_match(scorer, free_hits=80)
    scorer.log("void", seq=void_seq, reason="the goal stood")
    assert seen(scorer.match) == seen(replayed([event for event in scorer.events if event["type"] != "void"]))


def test_void_while_choosing_undoes_the_choice(scorer: Scorer) -> None:
    close_with_waiting_violation(scorer, "2")
    before_close = seen(replayed(scorer.events[:-1]))
    scorer.log("void", seq=scorer.match.seq, reason="whistle logged twice")
    assert seen(scorer.match) == before_close
    assert scorer.match.state == "live"


def test_void_of_match_start_is_refused(scorer: Scorer) -> None:
    scorer.log("goal", team="Blue")
    with pytest.raises(RefusedEvent, match=r"match\.start"):
        scorer.log("void", seq=1, reason="wrong match")
    assert scorer.match.score == {"Blue": 1, "Red": 0} and scorer.match.seq == 2


def test_void_of_a_seq_that_does_not_exist_is_refused(scorer: Scorer) -> None:
    scorer.log("goal", team="Blue")
    with pytest.raises(RefusedEvent, match="99"):
        scorer.log("void", seq=99, reason="typo")
    assert scorer.match.score == {"Blue": 1, "Red": 0} and scorer.match.seq == 2
