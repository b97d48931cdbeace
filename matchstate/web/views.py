"""The JSON the API and the pages speak: a match's current view, a stored event, the event forms."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from functools import cache
from typing import Any

from .. import events
from ..engine.penalties import Conditions
from ..events import FIELDS, REQUIRED
from ..rulebook import CLAUSES
from ..rulings import outcome_of
from ..store import Snapshot, StoredEvent
from ..words import LANGUAGES

# What a form asks for, by the check the log format applies to a field.
FIELD_KINDS = {
    events.flag: "flag", events.player: "player", events.team: "team", events.counting: "count",
    events.yards_to_goal: "yards", events.distance: "yards", events.field_length: "yards",
    events.number: "number", events.text: "text", events.short_text: "text",
    events.team_names: "teams", events.names: "names", events.handicap_goals: "goals", events.rosters: "rosters",
    # log format 1.2
    events.whole_number: "count", events.clip: "text", events.clip_seconds: "number", events.string: "text",
    events.asked_by: "asker", events.confirmed_score: "goals",
}
# A typed number's bounds, by the check: the catalog's words of what it must be ([must]), which a form checks
# before it sends (quickform.mjs), so that a slip is not refused on arrival and held in the queue.
FIELD_BOUNDS = {events.yards_to_goal: "yards-to-goal", events.distance: "distance"}


def jsonable(event: Mapping[str, Any]) -> dict[str, Any]:
    """A normalised event with its times written back as ISO-8601 text."""
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in event.items()}


def match_view(code: str, match: Snapshot) -> dict[str, Any]:
    """Everything a console or review shows of a match right now, the engine's own answers."""
    free_hit = match.free_hit
    return {
        "code": code,
        "seq": match.seq,
        "state": match.state,
        "teams": list(match.teams),
        "score": dict(match.score),
        "free_hit": free_hit.to_json() if free_hit else None,
        "free_hit_text": {lang: free_hit.describe(lang) for lang in LANGUAGES} if free_hit else None,
        "timed": free_hit is not None and free_hit.penalty in match.rules.timed,
        "play_at": match.play_at.isoformat() if match.state == "play_called" and match.play_at else None,
        "window_seconds": match.rules.window.total_seconds(),
        "options": [{**option.to_json(), "outcome": option.outcome} for option in match.options]
        if match.state == "choosing" else [],
        "accepted": match.accepted_types(),
        "void": sorted(match.void),
        "start": jsonable(match.info),
        "rules": match.rules.name,
        "free_hit_rules": free_hit_rules(match),
        "waiting": [{"code": foul.code, "team": foul.team, "prevented_goal": foul.prevented_goal}
                    for foul in match.waiting],
        "clock": {**match.clock_json(), "at": match.last_at.isoformat(),
                  "chukker_seconds": match.clock.settings.chukker_seconds,
                  "extra_seconds": match.clock.settings.extra_seconds, "chukkers": match.clock.chukkers},
        "ended": match.ended,
        "winner": match.winner,
        "officials": match.officials,  # log format 1.2: the review open, reviews, challenges, clips, confirmations
    }


_FREE_HIT_RULES: dict[tuple[str, float, bool], dict[str, Any]] = {}  # by rule set, field length, Penalty 3


def free_hit_rules(match: Snapshot) -> dict[str, Any]:
    """What the console's provisional fold reads of the match's rule set, so that no number of it is typed in
    again in the browser: each free hit whose spot the rules fix, by name, as ``free_hit`` gives it but for its
    team (``"2c"``: a Penalty 2 from the centre); the free hits the 20 seconds bind; those a yellow card to the
    defending team makes a Penalty 1. Made once for each rule set, field length and Penalty 3 (every append's
    answer carries it)."""
    key = (match.rules.name, match.info["field_length"], match.info["penalty3_defended"])
    if key not in _FREE_HIT_RULES:
        conditions = Conditions(match.rules, match.teams, match.info["field_length"],
                                match.info["penalty3_defended"], match.clock.settings, match.clock.chukkers)
        fixed = {name: conditions.fixed(name, "").to_json() for name in match.rules.fixed_spots}
        _FREE_HIT_RULES[key] = {
            "fixed": {name: {k: v for k, v in spot.items() if k != "to"} for name, spot in fixed.items()},
            "timed": sorted(match.rules.timed), "yellow_card_goal": sorted(match.rules.yellow_card_goal)}
    return _FREE_HIT_RULES[key]


def event_json(stored: StoredEvent) -> dict[str, Any]:
    """One stored event as the API gives it: the event as received, its ruling (with its ``outcome``, what it
    gives without its reason), and who, when, how."""
    return {
        "seq": stored.seq,
        "type": stored.type,
        "at": stored.at.isoformat(),
        "event": json.loads(stored.raw),
        "ruling": {**stored.ruling, "outcome": outcome_of(stored.ruling)} if stored.ruling else None,
        "clock": stored.clock,
        "flags": stored.flags or [],
        "device_id": stored.device_id,
        "by": stored.by,
        "role": stored.role,
        "received_at": stored.received_at.isoformat(),
        "hash": stored.hash,
    }


@cache
def event_forms() -> dict[str, list[dict[str, Any]]]:
    """Each event type's fields, for building its quick form: name, kind, required, default, choices,
    ``required_when``: the values of the other fields that make an optional one needed, ``applies_when``
    where a field has a meaning only with some values of the others (null: always), and ``must``: a number's
    bounds, by the catalog's name of them (null: none but the kind's)."""
    forms = {kind: [_field(name, check, default) for name, (check, default) in fields.items()]
             for kind, fields in FIELDS.items()}
    for field in forms["penalty.award"]:
        if field["name"] == "yards_to_goal":
            field["required_when"] = _spot_awards()
        if field["name"] == "from":  # the spec's `from` is Penalty 2's alone
            field["applies_when"] = [{"penalty": "2"}]
    return forms


def _spot_awards() -> list[dict[str, str]]:
    """The penalties and places an award needs its yards for (:func:`events.needs_spot`, asked of each)."""
    def choices(name: str) -> tuple[str, ...]:
        check = FIELDS["penalty.award"][name][0]
        return tuple(check.choices) if isinstance(check, events.OneOf) else ()

    return [{"penalty": penalty, "from": place} for penalty in choices("penalty") for place in choices("from")
            if events.needs_spot(penalty, place)]


def _field(name: str, check: Any, default: Any) -> dict[str, Any]:
    choices = check.choices if isinstance(check, events.OneOf) else None
    return {"name": name, "kind": "choice" if choices else FIELD_KINDS.get(check, "text"),
            "required": default is REQUIRED, "default": None if default is REQUIRED else default,
            "choices": list(choices) if choices else None, "required_when": [], "applies_when": None,
            "must": FIELD_BOUNDS.get(check)}


@cache
def rules_json() -> dict[str, dict[str, dict[str, str]]]:
    """Every clause and table cell of Rule 36, by id, with its heading and text in each language."""
    return {rule_id: {"heading": rule.heading, "text": rule.text} for rule_id, rule in CLAUSES.items()}
