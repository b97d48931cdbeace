"""Rule sets: the default is USPA Rule 36, a match names another, and a variant changes exactly what it decides."""

from __future__ import annotations

import json
import sys
from dataclasses import fields
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import Scorer

from matchstate import Match, RefusedEvent, UnknownRules
from matchstate.cli import main
from matchstate.log import replay
from matchstate.rules import CLUB, RULE_SETS, USPA_2026, RuleSet, find_rules

sys.path.insert(0, str(Path(__file__).parents[1] / "scripts"))
from season import season


def test_the_default_rule_set_is_uspa_2026(scorer: Scorer) -> None:
    assert scorer.match.rules is USPA_2026
    assert find_rules("uspa-2026") is USPA_2026


def test_an_unknown_rule_set_is_refused_naming_the_known_ones(start_match: type[Scorer]) -> None:
    with pytest.raises(RefusedEvent, match=r"'rules' no rule set is called 'fip'.*'uspa-2026', 'club'"):
        start_match(rules="fip")
    with pytest.raises(UnknownRules, match="'uspa-2026'"):
        find_rules("fip")


def test_a_rule_set_field_left_out_is_an_error_at_run_time() -> None:
    given = {f.name: getattr(USPA_2026, f.name) for f in fields(RuleSet)}
    del given["window"]
    with pytest.raises(TypeError, match="window"):
        RuleSet(**given)


def test_a_rule_set_field_left_out_is_a_type_error(tmp_path: Path) -> None:
    api = pytest.importorskip("mypy.api")
    variant = tmp_path / "variant.py"
    named = ", ".join(f"{f.name}=USPA_2026.{f.name}" for f in fields(RuleSet) if f.name != "window")
    variant.write_text(f"from matchstate.rules import USPA_2026, RuleSet\n\nVARIANT = RuleSet({named})\n")
    out, _, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(variant)])
    assert status == 1 and 'Missing named argument "window" for "RuleSet"' in out


def rule_of(lines: list[str], **start: Any) -> list[Any]:
    """Each event's ruling (JSON) when the log's match.start gets these extra fields, up to the first event
    those rules refuse (then "refused")."""
    first = {**json.loads(lines[0]), **start}
    rulings: list[Any] = []
    try:
        for step in replay([json.dumps(first), *lines[1:]]):
            rulings.append(step.ruling.to_json() if step.ruling else None)
    except RefusedEvent:
        rulings.append("refused")
    return rulings


def test_the_club_variant_gives_30_seconds_after_play(start_match: type[Scorer]) -> None:
    for rules, late in (("uspa-2026", True), ("club", False)):
        scorer = start_match(rules=rules)
        scorer.call_play("4")
        ruling = scorer.log("hit", dt=25, player=2, contact="hit")
        assert (ruling["violation"] == "twenty-seconds") is late
    scorer = start_match(rules="club")
    scorer.call_play("4")
    ruling = scorer.log("hit", dt=30.001, player=2, contact="hit")
    assert ruling["violation"] == "twenty-seconds"
    assert "more than 30 seconds" in ruling["text"]["en"] and "más de 30 segundos" in ruling["text"]["es"]


def test_the_club_variant_takes_penalty_3_undefended_unless_the_match_says_otherwise(start_match: type[Scorer]) -> None:
    assert start_match(rules="club").award("3") is None
    for start, defended in (({"rules": "club"}, False), ({"rules": "club", "penalty3_defended": True}, True),
                            ({}, True)):
        scorer = start_match(**start)
        scorer.strike("3")
        assert scorer.free_hit["defended"] is defended
        stopped = scorer.log("ball.stop", yards_to_goal=20)
        assert (stopped is not None and stopped["violation"] == "stops-short") is not defended


def test_the_club_variant_runs_end_to_end_through_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "club.jsonl"
    log.write_text("\n".join(json.dumps(event) for event in [
        {"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "c-1", "teams": ["Blue", "Red"],
         "rules": "club"},
        {"type": "penalty.award", "at": "2026-11-29T15:01:00Z", "penalty": "3", "to": "Blue"},
        {"type": "play", "at": "2026-11-29T15:01:10Z"},
        {"type": "hit", "at": "2026-11-29T15:01:38Z", "player": 1, "contact": "hit"},
        {"type": "ball.stop", "at": "2026-11-29T15:01:45Z", "yards_to_goal": 12},
    ]) + "\n")
    assert main(["replay", "--json", str(log)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[3]["ruling"]["kind"] == "live"  # 28 s after Play: in time under the club's 30
    assert rows[4]["ruling"] | {"text": None} == {
        "kind": "award", "penalty": "5a", "to": "Red", "yards_to_goal": 288, "defended": True, "against": "Blue",
        "violation": "stops-short", "cite": ["36/stops-short"], "text": None}


@pytest.fixture(scope="module")
def logs() -> list[list[str]]:
    return season(matches=60, seed=36)


def first_difference(ours: list[Any], theirs: list[Any]) -> int | None:
    return next((seq for seq, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)  # noqa: B905


def before(lines: list[str], seq: int) -> tuple[Match, Any]:
    """The match as it stood before the event at index ``seq``, and that event."""
    match = Match()
    for line in lines[:seq]:
        match.feed(json.loads(line))
    return match, match.events and json.loads(lines[seq])


def late_under_uspa(lines: list[str], seq: int) -> bool:
    """Whether the event at index ``seq`` came more than USPA's 20 seconds after the window's "Play"."""
    match, event = before(lines, seq)
    return match.play_at is not None and (
        datetime.fromisoformat(event["at"]) - match.play_at > USPA_2026.window)


def test_the_club_variant_changes_exactly_the_rulings_it_should(logs: list[list[str]]) -> None:
    """Beside USPA's, the club's rulings part first where a stroke or a clock check came more than 20 seconds
    after "Play" or, with Penalty 3 left to the rule set, at an event of a Penalty 3 in progress or one whose
    ruling gives a Penalty 3."""
    parted_at = []
    for lines in logs:
        parted = first_difference(rule_of(lines, penalty3_defended=True),
                                  rule_of(lines, penalty3_defended=True, rules="club"))
        parted_at.append(parted)
        assert parted is None or late_under_uspa(lines, parted)
        uspa = rule_of(lines)
        parted = first_difference(uspa, rule_of(lines, rules="club"))
        if parted is not None and not late_under_uspa(lines, parted):
            match, _ = before(lines, parted)
            on_penalty_3 = match.free_hit is not None and match.free_hit.penalty == "3"
            assert on_penalty_3 or '"penalty": "3"' in json.dumps(uspa[parted])  # in progress, or given
    assert any(seq is None for seq in parted_at) and any(seq is not None for seq in parted_at)


def test_every_rule_set_is_listed_by_its_name() -> None:
    assert RULE_SETS == {"uspa-2026": USPA_2026, "club": CLUB}
