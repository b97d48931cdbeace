"""The readings matchstate takes where the spec leaves a choice (the README's "Readings")."""

from typing import Any

import pytest
from conftest import Scorer

from matchstate import RefusedEvent


def test_a_both_teams_rehit_is_against_neither_team(scorer: Scorer) -> None:
    scorer.call_play("4")
    scorer.log("position.improper", team="Red")
    ruling = scorer.log("dribble")
    assert ruling["kind"] == "rehit" and ruling["against"] is None and ruling["violation"] == "both-teams"


def test_a_live_ball_is_against_no_one_and_no_violation(scorer: Scorer) -> None:
    ruling = scorer.strike("4", contact="mishit")
    assert ruling["kind"] == "live" and ruling["against"] is None and ruling["violation"] is None


def test_a_ball_stopping_short_is_against_the_hitting_team(scorer: Scorer) -> None:
    scorer.strike("2")
    ruling = scorer.log("ball.stop", yards_to_goal=12)
    assert (ruling["penalty"], ruling["to"], ruling["yards_to_goal"]) == ("5a", "Red", 288)
    assert ruling["against"] == "Blue" and ruling["violation"] == "stops-short"


def test_a_knockin_after_the_back_line_is_against_no_one(scorer: Scorer) -> None:
    scorer.strike("3")
    ruling = scorer.log("ball.out", over="backline")
    assert ruling["penalty"] == "knockin" and ruling["against"] is None and ruling["violation"] == "backline"


def test_a_second_play_does_not_restart_the_20_seconds(scorer: Scorer) -> None:
    scorer.call_play("3")
    assert scorer.log("play", dt=15) is None
    ruling = scorer.log("hit", dt=6, player=2, contact="hit")
    assert ruling["violation"] == "twenty-seconds"


@pytest.mark.parametrize("scored_by, score", [("Blue", {"Blue": 1, "Red": 0}), ("Red", {"Blue": 0, "Red": 1})])
def test_a_goal_before_the_stroke_is_accepted_and_closes_the_free_hit(scorer: Scorer, scored_by: str,
                                                                      score: dict[str, Any]) -> None:
    scorer.award("3")
    scorer.log("position.improper", team="Red", prevented_goal=False)
    ruling = scorer.log("goal", team=scored_by)
    assert scorer.match.score == score
    if scored_by == "Blue":  # the hitting team's goal counts and nothing more is given
        assert ruling is None and scorer.match.state == "idle"
    else:  # closed otherwise: Red's waiting violation gives Blue the increased penalty
        assert ruling["penalty"] == "2" and ruling["to"] == "Blue"


def test_a_void_that_leaves_a_later_event_without_sense_is_refused_and_names_it(scorer: Scorer) -> None:
    scorer.award("2")
    scorer.log("play")
    before = scorer.snapshot()
    with pytest.raises(RefusedEvent, match="seq 3 is refused"):
        scorer.log("void", seq=2, reason="award logged by mistake")
    assert scorer.snapshot() == before


def test_a_void_of_an_event_already_void_is_refused(scorer: Scorer) -> None:
    scorer.log("goal", team="Blue")
    scorer.log("void", seq=2, reason="no goal")
    with pytest.raises(RefusedEvent, match="void already"):
        scorer.log("void", seq=2, reason="again")
    assert scorer.match.score == {"Blue": 0, "Red": 0}
