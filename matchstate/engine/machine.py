"""The free-hit lifecycle as one :class:`transitions.Machine`: its states, and each event type's
transitions between them.

The machine is the definition: :func:`diagram` draws it, :data:`ACCEPTS` (what each state takes)
is read off it, and :func:`compile_machine` derives from it the dispatch table the engine runs,
so a trigger costs a dict look-up instead of a pass through the library.
Callbacks are named here and defined, privately, by the model (``engine.play.Play``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from transitions import Machine

from ..events import TYPES

STATES = ("idle", "awarded", "placed", "play_called", "live", "choosing")
AWAITING_STROKE = ["awarded", "placed", "play_called"]
OPEN = [*AWAITING_STROKE, "live"]
NOT_CHOOSING = ["idle", *OPEN]


def _t(trigger: str, source: str | list[str], dest: str | None = None, **callbacks: str) -> dict[str, Any]:
    return {"trigger": trigger, "source": source, "dest": dest, **callbacks}


# Each event type is a trigger (dots become underscores). Internal triggers apply a ruling:
# `award` makes a free hit the one in progress, `choose` waits for the umpire, `close` ends it.
# Where a trigger has several transitions from a state, the first whose conditions hold is taken.
HITTING_FAILURE = {"conditions": "_hitting_team_failed", "after": "_rule_hitting_team_failure"}
DEFENDING_WAITS = {"conditions": "_defending_team_failed", "after": "_wait_for_close"}
BOTH_TEAMS = {"conditions": "_both_teams_failed", "after": "_rule_both_teams"}
# The umpire's whistle and the chukker's end: after the stroke they close the free hit; before it they
# close it only where a defending-team violation waits, find the 20 seconds run out, or else stop play
# and leave it in progress (after a whistle "Play" is called again; after a chukker's end it is taken
# when the next chukker starts).
STOPS_PLAY = [
    *(_t(trigger, "play_called", **HITTING_FAILURE) for trigger in ("whistle", "chukker_end")),
    *(_t(trigger, AWAITING_STROKE, conditions="_violation_waits", after="_close_free_hit")
      for trigger in ("whistle", "chukker_end")),
    _t("whistle", "play_called", "placed", before="_stop_window"),
    _t("whistle", ["awarded", "placed"]),
    _t("chukker_end", ["placed", "play_called"], "awarded", before="_stop_window"),
    _t("chukker_end", "awarded"),
    *(_t(trigger, ["idle", "live"], after="_close_free_hit") for trigger in ("whistle", "chukker_end")),
]
TRANSITIONS = [
    _t("chukker_start", NOT_CHOOSING),
    *STOPS_PLAY,
    # In choosing they act on the clock alone; the choice stays open (log format 1.2).
    _t("whistle", "choosing"),
    _t("clock_stop", [*STATES]),
    _t("clock_start", [*STATES]),
    _t("match_end", NOT_CHOOSING, "idle", before="_drop_free_hit"),  # what waits lapses
    _t("penalty_award", NOT_CHOOSING, conditions="_awards_a_goal", after="_give_penalty_goal"),
    _t("penalty_award", NOT_CHOOSING, "awarded", before="_take_awarded_free_hit"),
    _t("knockin_award", NOT_CHOOSING, "awarded", before="_take_awarded_free_hit"),
    _t("ball_place", ["awarded", "placed"], **HITTING_FAILURE),
    _t("ball_place", ["awarded", "placed"], "placed"),
    _t("play", ["awarded", "placed"], "play_called", after="_start_window"),
    _t("play", "play_called"),  # "Play" called again: the 20 seconds still run from the first call
    _t("dribble", AWAITING_STROKE, **HITTING_FAILURE),
    _t("dribble", OPEN),
    _t("approach_abort", AWAITING_STROKE, **HITTING_FAILURE),
    _t("ball_retee", "play_called", **HITTING_FAILURE),
    _t("hit", AWAITING_STROKE, **HITTING_FAILURE),
    _t("hit", "play_called", "live", after="_ball_in_play"),
    _t("tick", "play_called", **HITTING_FAILURE),
    _t("tick", [*STATES]),
    _t("ball_stop", "live", conditions="_undefended", after="_ball_stopped_short"),
    _t("ball_stop", ["idle", "live"]),  # in idle, open play: no ruling
    _t("ball_out", "live", after="_ball_went_out"),
    _t("ball_out", "idle"),
    _t("goal", NOT_CHOOSING, after="_score_goal"),
    _t("position_improper", AWAITING_STROKE, **BOTH_TEAMS),
    _t("position_improper", OPEN, **HITTING_FAILURE),
    _t("position_improper", OPEN, **DEFENDING_WAITS),
    _t("position_improper", OPEN),
    _t("player_return", AWAITING_STROKE, **BOTH_TEAMS),
    _t("player_return", OPEN, **HITTING_FAILURE),
    _t("player_return", OPEN, **DEFENDING_WAITS),
    _t("player_return", OPEN),
    _t("player_play", AWAITING_STROKE, **BOTH_TEAMS),
    _t("player_play", OPEN, **HITTING_FAILURE),
    _t("player_play", OPEN, **DEFENDING_WAITS),
    _t("player_play", OPEN),
    _t("card", OPEN, conditions="_yellow_card_goal", after="_award_penalty_1"),
    _t("card", [*STATES]),
    _t("decide", "choosing", after="_decide"),
    _t("award", [*STATES], "awarded", before="_take_free_hit"),
    _t("choose", NOT_CHOOSING, "choosing", before="_drop_free_hit"),
    _t("close", [*STATES], "idle", before="_drop_free_hit"),
]
INTERNAL = frozenset({"award", "choose", "close"})
PREPARE = "_judge"  # finds the violation in the event, before any transition is tried

MACHINE = Machine(model=None, states=list(STATES), transitions=TRANSITIONS, initial="idle",
                  auto_transitions=False, send_event=False, prepare_event=PREPARE)
# `ball.place`, `ball.retee`, ... trigger `ball_place`, ...; `void` is the log's, not the machine's.
TRIGGER_OF = {name.replace("_", "."): name for name in MACHINE.events if name not in INTERNAL}


def _transitions(kind: str, state: str) -> list[Any]:
    """The machine's transitions for an event type from a state (none where it makes no sense)."""
    return list(MACHINE.events[TRIGGER_OF[kind]].transitions.get(state, []))


# The event types each state accepts, read off the machine.
ACCEPTS: dict[str, frozenset[str]] = {
    state: frozenset({kind for kind in TRIGGER_OF if _transitions(kind, state)} | {"void"}) for state in STATES
}
# Event types whose every transition from a state is internal with no callback: the machine would
# change nothing for them, so the engine does not fire them.
QUIET: dict[str, frozenset[str]] = {
    state: frozenset(kind for kind in ACCEPTS[state] - {"void"}
                     if all(t.dest is None and not (t.conditions or t.prepare or t.before or t.after)
                            for t in _transitions(kind, state)))
    for state in STATES
}
assert set(TRIGGER_OF) <= set(TYPES), "every trigger is an event type of the log format"

Callback = Callable[..., Any]


@dataclass(frozen=True, slots=True)
class Step:
    """One transition of the dispatch table: taken if every condition holds."""

    conditions: tuple[Callback, ...]
    before: tuple[Callback, ...]
    dest: str | None
    after: tuple[Callback, ...]


@dataclass(frozen=True, slots=True)
class Dispatch:
    """The machine compiled for one model class: trigger -> state -> its steps, in the machine's order."""

    prepare: Callback
    steps: Mapping[str, Mapping[str, tuple[Step, ...]]]

    def fire(self, model: Any, trigger: str, arg: Any = None) -> None:
        """Run ``trigger`` on ``model`` as the machine would: prepare, then the first step whose conditions
        hold (its before callbacks, the state change, its after callbacks). A trigger carries one argument at
        most (the event, or a free hit), given to every callback as ``arg`` (None where it carries none): a
        call that passes ``*args`` on cost three times one that passes one."""
        self.prepare(model, arg)
        for step in self.steps[trigger][model.state]:
            for condition in step.conditions:
                if not condition(model, arg):
                    break
            else:
                for callback in step.before:
                    callback(model, arg)
                if step.dest is not None:
                    model.state = step.dest
                for callback in step.after:
                    callback(model, arg)
                return


def compile_machine(model: type) -> Dispatch:
    """The dispatch table of :data:`MACHINE` for instances of ``model``, its callbacks resolved by name.

    Only what the engine's machine uses is compiled: conditions (none negated), before and after
    callbacks, one prepare callback; no state callbacks. Anything else is refused here.
    """

    def resolve(names: Any) -> tuple[Callback, ...]:
        return tuple(getattr(model, name) for name in names)

    steps: dict[str, dict[str, tuple[Step, ...]]] = {}
    for trigger, event in MACHINE.events.items():
        steps[trigger] = {}
        for state, transitions in event.transitions.items():
            compiled = []
            for t in transitions:
                if t.prepare or any(not c.target for c in t.conditions):
                    raise ValueError(f"{trigger} from {state}: the dispatch table has no place for this transition")
                compiled.append(Step(resolve(c.func for c in t.conditions), resolve(t.before), t.dest,
                                     resolve(t.after)))
            steps[trigger][state] = tuple(compiled)
    if any(MACHINE.get_state(state).on_enter or MACHINE.get_state(state).on_exit for state in STATES):
        raise ValueError("the dispatch table has no place for state callbacks")
    return Dispatch(getattr(model, PREPARE), steps)


def diagram() -> str:
    """The free-hit lifecycle as Mermaid state-diagram text, drawn by transitions."""
    from transitions.extensions import GraphMachine

    graph = GraphMachine(states=list(STATES), transitions=TRANSITIONS, initial="idle",
                         auto_transitions=False, graph_engine="mermaid", title="Rule 36 free hit")
    return str(graph.get_graph().draw(None))
