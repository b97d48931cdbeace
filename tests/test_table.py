"""Rule 36's misexecution table, one test per cell, as the match log spec's "What the rules give".

Blue takes each free hit on a 300-yard field; Red defends. Each situation (a row of the table)
is logged the way a scorer would; the ruling of the event that completes it is checked.
"""

from collections.abc import Callable
from typing import Any

import pytest
from conftest import JSON, Scorer

FIELD = 300
# Where each free hit (a column of the table) is taken: yards to the goal Blue attacks.
SPOT: dict[str, Any] = {"2": 30, "3": 40, "4": 60, "6": 60, "5a": 100, "5b": FIELD / 2, "knockin": FIELD}
FREE_HITS = ("2", "3", "4", "6", "5a", "5b", "knockin")


# What a cell can give. Each returns the expected ruling's fields (None: no ruling at all).
Give = Callable[[str], dict[str, Any] | None]


def spot_hit(free_hit: str) -> dict[str, Any]:
    """Spot hit (Penalty 5.a) for the defending team, from where the free hit was being taken."""
    return {"kind": "award", "penalty": "5a", "to": "Red", "yards_to_goal": FIELD - SPOT[free_hit],
            "defended": True, "against": "Blue"}


def penalty_4_for_defending_team(_: str) -> dict[str, Any]:
    return {"kind": "award", "penalty": "4", "to": "Red", "yards_to_goal": 60, "defended": True,
            "against": "Blue"}


def live_ball(_: str) -> dict[str, Any]:
    return {"kind": "live", "against": None, "violation": None}


def not_applicable(_: str) -> None:
    return None


def rehit_or_penalty_1(free_hit: str) -> dict[str, Any]:
    """Penalty 2: the Umpire chooses between the same Penalty 2 again and Penalty 1."""
    return {"kind": "choose", "against": "Red",
            "options": [{"kind": "rehit", "penalty": "2", "to": "Blue", "yards_to_goal": 30, "from": "center",
                         "defended": False},
                        {"kind": "goal", "to": "Blue"}]}


def increased(penalty: str, yards: float, defended: bool = True, **more: Any) -> Give:
    def expected(_: str) -> dict[str, Any]:
        return {"kind": "award", "penalty": penalty, "to": "Blue", "yards_to_goal": yards, "defended": defended,
                "against": "Red", **more}
    return expected


penalty_2_for_attacking_team = increased("2", 30, defended=False, **{"from": "center"})
penalty_3_for_attacking_team = increased("3", 40)
penalty_4_for_attacking_team = increased("4", 60)
penalty_5b_for_attacking_team = increased("5b", FIELD / 2)

# The table, row by row, column by column: 2, 3, 4, 6 (safety), 5.a, 5.b, knock-in.
TABLE: dict[str, tuple[Give, ...]] = {
    "swing-and-miss": (spot_hit, spot_hit, live_ball, live_ball, live_ball, live_ball, live_ball),
    "hit-before-play": (spot_hit, spot_hit, spot_hit, spot_hit, spot_hit, spot_hit, penalty_4_for_defending_team),
    "first-approach": (spot_hit, spot_hit, spot_hit, spot_hit, spot_hit, spot_hit, penalty_4_for_defending_team),
    "attacking-position": (spot_hit, spot_hit, not_applicable, not_applicable, not_applicable, not_applicable,
                           not_applicable),
    "defending-position": (rehit_or_penalty_1, penalty_2_for_attacking_team, penalty_3_for_attacking_team,
                           penalty_3_for_attacking_team, penalty_4_for_attacking_team, penalty_4_for_attacking_team,
                           penalty_5b_for_attacking_team),
}


# How each situation is logged; returns the ruling of the event that completes it.
def swing_and_miss(scorer: Scorer, free_hit: str) -> JSON:
    return scorer.strike(free_hit, contact="miss")


def hit_before_play(scorer: Scorer, free_hit: str) -> JSON:
    scorer.award(free_hit)
    scorer.log("ball.place")
    return scorer.log("hit", player=2, contact="hit")


def first_approach(scorer: Scorer, free_hit: str) -> JSON:
    scorer.call_play(free_hit)
    return scorer.log("approach.abort", how="circled")


def attacking_position(scorer: Scorer, free_hit: str) -> JSON:
    scorer.call_play(free_hit)
    return scorer.log("position.improper", team="Blue")


def defending_position(scorer: Scorer, free_hit: str) -> JSON:
    """The violation waits for the free hit to close; the whistle closes it and rules it."""
    scorer.call_play(free_hit)
    assert scorer.log("position.improper", team="Red") is None
    assert scorer.log("hit", player=1, contact="hit")["kind"] == "live"
    return scorer.log("whistle")


SITUATIONS = {"swing-and-miss": swing_and_miss, "hit-before-play": hit_before_play,
              "first-approach": first_approach, "attacking-position": attacking_position,
              "defending-position": defending_position}

CELLS: list[tuple[str, str, Give]] = [(situation, free_hit, give)
         for situation, row in TABLE.items() for free_hit, give in zip(FREE_HITS, row, strict=False)]


@pytest.mark.parametrize(("situation", "free_hit", "give"), CELLS,
                         ids=[f"36/table:{s}:{f}" for s, f, _ in CELLS])
def test_36_table(scorer: Scorer, situation: str, free_hit: str, give: Give) -> None:
    cell = f"36/table:{situation}:{free_hit}"
    expected = give(free_hit)

    ruling = SITUATIONS[situation](scorer, free_hit)

    if expected is None:  # N/A: no ruling, and the free hit goes on as it was
        assert ruling is None
        assert scorer.match.state == "play_called"
        assert (scorer.free_hit["penalty"], scorer.free_hit["to"]) == (free_hit, "Blue")
        assert scorer.log("hit", player=3, contact="hit")["kind"] == "live"
        return
    assert ruling is not None
    for field, value in expected.items():
        if field == "options":
            options = zip(ruling["options"], value, strict=False)
            assert [{k: option[k] for k in want} for option, want in options] == value
            assert len(ruling["options"]) == len(value)
        else:
            assert ruling[field] == value, field
    assert cell in ruling["cite"]
    if ruling["kind"] != "live":
        assert ruling["violation"] == situation
    assert ruling["text"]["en"] and ruling["text"]["es"] and ruling["text"]["en"] != ruling["text"]["es"]

    # The ruling is in effect: a new free hit is in progress, the ball is live, or the Umpire chooses.
    if ruling["kind"] == "award":
        assert scorer.match.state == "awarded"
        assert scorer.free_hit == {k: ruling.get(k) for k in ("penalty", "to", "yards_to_goal", "from", "defended")}
    else:
        assert scorer.match.state == {"live": "live", "choose": "choosing"}[ruling["kind"]]
