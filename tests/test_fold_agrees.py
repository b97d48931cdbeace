"""The console's provisional fold (``static/fold.mjs``) agrees with the engine wherever it says it is sure
(issue 16: one fold). The cases are generated from the engine: after each event of the bundled examples and of
a season, its view of the match (as ``GET /api/matches/{code}`` gives it) and the events that follow, folded by
the browser's module under Node as a console holding them offline would; every row the fold calls sure must be
the engine's view after the same events. The same season played under a club's conditions (30 seconds, a
Penalty 3 undefended, a 280-yard field) checks that the fold takes its numbers from the rule set the server
sends, never its own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from matchstate import Match
from matchstate.errors import RefusedEvent
from matchstate.examples import names
from matchstate.examples import path as example_path
from matchstate.store import Snapshot
from matchstate.web.views import match_view

sys.path.insert(0, str(Path(__file__).parents[1] / "scripts"))
from season import season

FOLD_CASES = Path(__file__).parent / "js" / "fold_cases.mjs"
AHEAD = 4  # events folded after each view: a console offline for a while holds a few
CLUB = {"rules": "club", "field_length": 280, "penalty3_defended": False}
Case = dict[str, Any]


def node() -> str:
    found = shutil.which("node")
    if found is None:
        reason = "node is missing: the browser's fold cannot be run"
        if os.environ.get("MATCHSTATE_REQUIRE_BROWSER") == "1" or os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def played(lines: list[str], start: Mapping[str, Any] | None = None) -> tuple[list[Case], list[Case]]:
    """The events of a log (each given an id, as a console's are) and the engine's view after each, up to the
    first it refuses (a season played under other conditions may refuse what USPA's allowed)."""
    match = Match()
    events: list[Case] = []
    views: list[Case] = []
    for number, line in enumerate(lines):
        event = {**json.loads(line), **(start if number == 0 and start else {})}
        event.setdefault("id", f"event-{number}")
        try:
            match.feed(event)
        except RefusedEvent:
            break
        events.append(event)
        views.append(json.loads(json.dumps(match_view("case", Snapshot.of(match, "")))))
    return events, views


def cases(events: list[Case], views: list[Case]) -> Iterator[tuple[Case, list[Case]]]:
    """Each view but the last, with the events after it (up to AHEAD), and the engine's views after those."""
    for at in range(len(views) - 1):
        yield {"view": views[at], "events": events[at + 1:at + 1 + AHEAD]}, views[at + 1:at + 1 + AHEAD]


def shown(view: Case) -> Case:
    """What the fold claims of a match: its state, score, free hit, whether the 20 seconds bind it, and when
    "Play" was called (the instant, however written) while that is what it waits on."""
    called = view["play_at"] if view["state"] == "play_called" else None
    return {"state": view["state"], "score": view["score"], "free_hit": view["free_hit"], "timed": view["timed"],
            "play_at": datetime.fromisoformat(called.replace("Z", "+00:00")) if called else None}


def folded(tmp_path: Path, logs: list[tuple[list[Case], list[Case]]]) -> tuple[int, int, list[str]]:
    """Fold every case of ``logs`` under Node: the rows it was sure of, all rows, and each disagreement."""
    given: list[Case] = []
    expected: list[list[Case]] = []
    for events, views in logs:
        for case, after in cases(events, views):
            given.append(case)
            expected.append(after)
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(given), encoding="utf-8")
    out = subprocess.run([node(), str(FOLD_CASES), str(path)], check=True, capture_output=True, text=True).stdout
    sure, rows = 0, 0
    wrong: list[str] = []
    for case, after, results in zip(given, expected, json.loads(out), strict=True):
        for event, view, result in zip(case["events"], after, results, strict=True):
            rows += 1
            if not result["sure"]:
                continue
            sure += 1
            claimed = shown(result)
            if claimed != shown(view) and len(wrong) < 5:
                wrong.append(f"after {event['type']} ({event['id']}): fold {claimed}, engine {shown(view)}")
    return sure, rows, wrong


def test_the_fold_agrees_with_the_engine_on_the_bundled_examples(tmp_path: Path) -> None:
    logs = [played(example_path(name).read_text(encoding="utf-8").splitlines()) for name in names()]
    sure, rows, wrong = folded(tmp_path, logs)
    assert wrong == []
    assert sure > rows / 2  # it claims most of them: an agreement it never claims would prove nothing


def test_the_fold_agrees_with_the_engine_on_a_season(tmp_path: Path) -> None:
    sure, rows, wrong = folded(tmp_path, [played(log) for log in season(matches=12, seed=16)])
    assert wrong == []
    assert sure > rows / 2


def test_the_fold_takes_the_numbers_of_the_match_s_rule_set(tmp_path: Path) -> None:
    logs = [played(log, CLUB) for log in season(matches=12, seed=16)]
    assert all(views[0]["rules"] == "club" for _, views in logs)
    assert any(view["free_hit"] and view["free_hit"]["penalty"] == "3" and not view["free_hit"]["defended"]
               for _, views in logs for view in views)  # the club's own numbers are in play
    sure, rows, wrong = folded(tmp_path, logs)
    assert wrong == []
    assert sure > rows / 2
