"""Edge inputs are refused with a reason naming the field, before anything of them is applied."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Scorer

from matchstate import InvalidEvent, RefusedEvent


@pytest.mark.parametrize(("kind", "fields", "reason"), [
    ("goal", {"team": "Blue", "by": "scorer\x00"}, "field 'by' must be text without NUL characters"),
    ("goal", {"team": "Blue", "id": "dev\x00ice"}, "field 'id' must be text without NUL characters"),
    ("void", {"seq": 2**31, "reason": "slip"}, "field 'seq' must be a whole number from 1 to 2147483647"),
    ("chukker.start", {"chukker": 10**20}, "field 'chukker' must be a whole number from 1 to 2147483647"),
    ("ball.stop", {"yards_to_goal": float("inf")}, "field 'yards_to_goal' must be a number from"),
    ("goal", {"team": "Blue", "at": "0001-01-01T00:00:00+05:00"}, "in the years 1 to 9999"),
    # datetime cuts past the microsecond: 0.0000009 s would be 0, a stroke after 20 s judged in time
    ("goal", {"team": "Blue", "at": "2026-11-29T15:00:35.0000009Z"}, "to the microsecond at finest"),
    ("goal", {"team": "Blue", "at": "2026-11-29T15:00:35,1234561+00:00"}, "to the microsecond at finest"),
])
def test_an_edge_value_is_refused_naming_its_field(scorer: Scorer, kind: str, fields: dict[str, Any],
                                                    reason: str) -> None:
    before = scorer.snapshot()
    event = {**scorer.event(kind), **fields}
    with pytest.raises(InvalidEvent, match=reason.replace("(", r"\(").replace(")", r"\)")):
        scorer.match.feed(event)
    assert scorer.snapshot() == before


@pytest.mark.parametrize("at", ["2026-11-29T15:00:35.0000000Z", "2026-11-29T15:00:35.1234560+00:00",
                                "2026-11-29T15:00:35.123456Z", "20261129T150035.5Z"])
def test_a_time_to_the_microsecond_or_with_zeros_past_it_is_taken(scorer: Scorer, at: str) -> None:
    scorer.match.feed({**scorer.event("goal"), "team": "Blue", "at": at})
    assert scorer.match.score["Blue"] == 1


def test_a_four_thousand_digit_handicap_is_refused_and_quoted_short(start_match: type[Scorer]) -> None:
    with pytest.raises(RefusedEvent, match="must be a number from -1000000 to 1000000, not 'a number of 4000 digits'"):
        start_match(handicap_goals={"Red": 10**3999})


def test_a_nul_in_the_match_code_or_a_team_name_is_refused(start_match: type[Scorer]) -> None:
    with pytest.raises(RefusedEvent, match="field 'match' must be text without NUL"):
        start_match(match="m\x001")
    with pytest.raises(RefusedEvent, match="field 'teams' must be text without NUL"):
        start_match(teams=["Blue\x00", "Red"])


def test_a_choice_between_teams_named_with_a_colon_lists_every_option_whole(start_match: type[Scorer]) -> None:
    scorer = start_match(teams=["Club: Blue", "Red"])
    scorer.call_play("2", to="Club: Blue")
    scorer.log("position.improper", team="Red")
    scorer.log("hit", player=1, contact="hit")
    choice = scorer.log("whistle")
    assert choice["kind"] == "choose"
    assert ("(1. Rehit, Penalty 2 to Club: Blue, from the centre, 30 yards from goal, undefended; "
            "2. Goal to Club: Blue)") in choice["text"]["en"]
    assert "2. Gol para Club: Blue)" in choice["text"]["es"]
