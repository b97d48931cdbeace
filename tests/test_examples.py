"""The bundled examples are whole matches with the clock, replayed as the README shows them."""

from __future__ import annotations

import pytest

from matchstate import examples, load


@pytest.mark.parametrize("name", examples.names())
def test_each_example_replays_and_each_chukker_ends_at_its_horn(name: str) -> None:
    match = load(examples.path(name))
    ends = [clock for event, clock in zip(match.events, match.clocks, strict=True) if event["type"] == "chukker.end"]
    assert ends and all(clock["played"] == 450 and clock["phase"] == "between" for clock in ends)
    assert not any("chukker-order" in flags for flags in match.flags)


def test_the_full_match_has_six_chukkers_and_ends_with_a_winner() -> None:
    match = load(examples.path("full-match"))
    assert [e["chukker"] for e in match.events if e["type"] == "chukker.start"] == [1, 2, 3, 4, 5, 6]
    assert match.events[-1]["type"] == "match.end" and match.ended
    assert match.score == {"Aguada Norte": 9, "La Palmera Roja": 8} and match.winner == "Aguada Norte"


def test_the_full_match_keeps_time_through_whistles_and_stoppages() -> None:
    match = load(examples.path("full-match"))
    kinds = {event["type"] for event in match.events}
    assert {"whistle", "clock.stop", "clock.start"} <= kinds
    assert sum(not clock["running"] for clock in match.clocks) > 20
