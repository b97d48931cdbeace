"""Edge inputs are refused with a reason naming the field, before anything of them is applied."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import Scorer, match_log

from matchstate import InvalidEvent, RefusedEvent
from matchstate.cli import main
from matchstate.log import replay
from matchstate.store import Store


@pytest.mark.parametrize(("kind", "fields", "reason"), [
    ("goal", {"team": "Blue", "by": "scorer\x00"}, "field 'by' must be text without NUL characters"),
    ("goal", {"team": "Blue", "id": "dev\x00ice"}, "field 'id' must be text without NUL characters"),
    ("void", {"seq": 2**31, "reason": "slip"}, "field 'seq' must be a whole number from 1 to 2147483647"),
    ("chukker.start", {"chukker": 10**20}, "field 'chukker' must be a whole number from 1 to 2147483647"),
    ("ball.stop", {"yards_to_goal": float("inf")}, "field 'yards_to_goal' must be a number from"),
    ("goal", {"team": "Blue", "at": "0001-01-01T00:00:00+05:00"}, "in the years 1 to 9999"),
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


def finer(line: str) -> str:
    """The log line with its `at` 0.9 µs later, written to the ten-millionth of a second."""
    event = json.loads(line)
    return json.dumps({**event, "at": event["at"][:-1] + "0009Z"})


def test_a_time_finer_than_a_microsecond_is_refused_at_every_door(store: Store) -> None:
    """datetime cuts past the microsecond: a stroke 20.0000009 s after "Play" was ruled in time, and an `at` 0.8 µs
    before the one above it was taken. A log replayed, an import and an append refuse it, naming it."""
    lines = [json.dumps(event) for event in match_log("fine-1", 4)]
    said = "field 'at' must be an ISO-8601 time with a UTC offset, to the microsecond at finest"
    with pytest.raises(RefusedEvent, match=f"line 4: .*{said}"):
        list(replay([*lines[:3], finer(lines[3])]))
    with pytest.raises(RefusedEvent, match=said):
        store.import_log([*lines[:3], finer(lines[3])])
    store.import_log(lines[:3])
    with pytest.raises(RefusedEvent, match=said):
        store.append("fine-1", finer(lines[3]))
    assert store.append("fine-1", lines[3]).event.seq == 4


def test_a_time_finer_than_a_microsecond_stored_before_it_was_refused_is_read_as_it_was(
        store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Refused in the engine, an event a store kept from before could no longer be replayed: its match verified as
    changed and took no append."""
    lines = [json.dumps(event) for event in match_log("fine-2", 5)]
    with monkeypatch.context() as before:
        before.setattr("matchstate.store.incoming.check_time_kept", lambda _: None)  # as an older version stored it
        store.import_log([*lines[:3], finer(lines[3])])
    again = Store(store.url.render_as_string(hide_password=False))  # nothing cached: replayed from its rows
    try:
        assert again.verify() == []
        assert again.append("fine-2", lines[4]).event.seq == 5
        monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
        assert main(["show", "fine-2"]) == 0 and "#4" in capsys.readouterr().out
    finally:
        again.close()


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
