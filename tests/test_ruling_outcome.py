"""A stored ruling's outcome, worked out again from its JSON, is the engine's own: the API gives it with each
ruling, so a page (the scoreboard) names what a ruling gives without cutting its text."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from matchstate import Match
from matchstate.rulings import outcome_of

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from season import season


def test_every_rulings_outcome_is_given_back_from_its_json_in_both_languages() -> None:
    kinds: Counter[str] = Counter()
    for log in season(60, seed=7):
        match = Match()
        for line in log:
            ruling = match.feed(json.loads(line))
            if ruling is not None:
                kinds[ruling.kind] += 1
                assert outcome_of(json.loads(json.dumps(ruling.to_json()))) == ruling.outcome
    assert set(kinds) == {"award", "rehit", "goal", "choose", "live"}, kinds
