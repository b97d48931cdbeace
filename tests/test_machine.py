"""The engine runs a dispatch table compiled from its transitions Machine: the two must agree everywhere."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from matchstate.engine import machine, play
from matchstate.engine.machine import MACHINE, STATES, TRIGGER_OF
from matchstate.engine.play import DISPATCH, Play
from matchstate.log import replay

sys.path.insert(0, str(Path(__file__).parents[1] / "scripts"))
from season import season


def names(callbacks: Iterable[Callable[..., Any]]) -> list[str]:
    return [callback.__name__ for callback in callbacks]


@pytest.mark.parametrize("trigger", sorted(MACHINE.events))
def test_the_dispatch_table_has_the_machines_transitions_for_every_state(trigger: str) -> None:
    event = MACHINE.events[trigger]
    for state in STATES:
        theirs = event.transitions.get(state, [])
        ours = DISPATCH.steps[trigger].get(state, ())
        assert [(t.dest, [c.func for c in t.conditions], list(t.before), list(t.after)) for t in theirs] == [
            (s.dest, names(s.conditions), names(s.before), names(s.after)) for s in ours]


def test_every_callback_the_machine_names_is_a_private_method_of_the_model() -> None:
    named = {c.func for e in MACHINE.events.values() for ts in e.transitions.values() for t in ts
             for c in t.conditions} | {n for e in MACHINE.events.values() for ts in e.transitions.values()
                                        for t in ts for n in (*t.before, *t.after)} | {machine.PREPARE}
    assert named and all(isinstance(name, str) and name.startswith("_") and callable(getattr(Play, name))
                         for name in named)


def test_every_event_type_but_void_match_start_and_the_officials_is_a_trigger() -> None:
    from matchstate.engine.officials import OFFICIALS_EVENTS
    from matchstate.events import TYPES
    assert set(TRIGGER_OF) == set(TYPES) - {"void", "match.start"} - OFFICIALS_EVENTS


def through_the_library(model: Any, trigger: str, *args: Any) -> None:
    MACHINE.events[trigger].trigger(model, *args)


def replayed(lines: list[str]) -> list[str]:
    return [json.dumps([step.state, step.ruling.to_json() if step.ruling else None]) for step in replay(lines)]


def test_a_season_replays_the_same_through_the_table_and_through_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    logs = season(matches=40, seed=11)
    compiled = [replayed(lines) for lines in logs]
    monkeypatch.setattr(play, "fire", through_the_library)
    assert [replayed(lines) for lines in logs] == compiled


def test_the_start_is_kept_with_its_defaults_resolved_and_the_event_fed_is_left_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, finding 4: `Match._start` wrote the rule set's defaults into the event it was given."""
    from matchstate import Match
    from matchstate import events as event_checks
    from matchstate.engine import match as match_module

    checked: list[event_checks.Event] = []

    def keeping(obj: object, context: event_checks.Context) -> event_checks.Event:
        checked.append(event_checks.check_event(obj, context))
        return checked[-1]

    monkeypatch.setattr(match_module, "check_event", keeping)
    start = {"type": "match.start", "at": "2026-09-05T17:00:00Z", "match": "m", "teams": ["A", "B"]}
    match = Match()
    match.feed(start)
    given = checked[0]
    assert given["type"] == "match.start" and given["penalty3_defended"] is None and given["handicap_goals"] is None
    assert match.start["penalty3_defended"] is not None and match.start["handicap_goals"] == {"A": 0, "B": 0}
    assert match.events[0] is match.info and "handicap_goals" not in start
