"""Issue 16, finding 4: a checked event is a typed, read-only value of its own type, and the field table the
checks, the forms and the API read is derived from those types."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints

import pytest

from matchstate import events
from matchstate.events import FIELDS, REQUIRED, TYPES, Context, Event, check_event
from matchstate.web.views import event_forms

TEAMS = ("Blue", "Red")
AT = "2026-09-05T17:00:00Z"


def mypy_says(tmp_path: Path, source: str) -> str:
    """What ``mypy --strict`` says of a module of ``source`` (empty: nothing)."""
    api = pytest.importorskip("mypy.api")
    module = tmp_path / "reading.py"
    module.write_text("from matchstate.events import Event, Hit\n\n" + source)
    out, _, status = api.run(["--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(module)])
    return "" if status == 0 else out


def test_a_misspelt_field_of_an_event_is_a_type_error(tmp_path: Path) -> None:
    said = mypy_says(tmp_path, 'def contact(hit: Hit) -> str:\n    return hit["contcat"]\n')
    assert 'TypedDict "Hit" has no key "contcat"' in said


def test_a_field_of_the_wrong_type_of_event_is_a_type_error_until_the_type_is_told(tmp_path: Path) -> None:
    said = mypy_says(tmp_path, 'def contact(event: Event) -> str:\n    return event["contact"]\n')
    assert 'has no key "contact"' in said
    told = ('def contact(event: Event) -> str | None:\n'
            '    return event["contact"] if event["type"] == "hit" else None\n')
    assert mypy_says(tmp_path, told) == ""


def test_writing_into_an_event_is_a_type_error(tmp_path: Path) -> None:
    said = mypy_says(tmp_path, 'def mend(hit: Hit) -> None:\n    hit["contact"] = "hit"\n')
    assert 'ReadOnly TypedDict key "contact" TypedDict is mutated' in said


def test_a_code_field_is_typed_by_its_codes(tmp_path: Path) -> None:
    said = mypy_says(tmp_path, 'def missed(hit: Hit) -> bool:\n    return hit["contact"] == "mised"\n')
    assert "Non-overlapping equality check" in said


def event_types() -> dict[str, Any]:
    """Each event type's class, by the ``type`` it is told apart by."""
    return {get_args(get_args(get_type_hints(kind, include_extras=True)["type"])[0])[0]: kind
            for kind in get_args(Event)}


def test_every_type_of_the_log_format_has_its_typed_value_in_the_format_s_order() -> None:
    assert tuple(event_types()) == TYPES
    assert TYPES[:3] == ("match.start", "chukker.start", "chukker.end") and TYPES[-1] == "chukker.confirm"


@pytest.mark.parametrize("kind", TYPES)
def test_a_checked_event_has_exactly_its_type_s_fields(kind: str) -> None:
    typed = event_types()[kind]
    keys = set(get_type_hints(typed)) - {"at_logged"}  # a video.sync's `at` as logged, which it also gives
    assert set(FIELDS[kind]) | {"type", "at", "id", "by"} == keys


def test_the_checks_give_each_value_its_type_s_codes_and_defaults() -> None:
    award = check_event({"type": "penalty.award", "at": AT, "penalty": "2", "to": "Blue"}, Context(TEAMS))
    assert dict(award) == {"type": "penalty.award", "at": award["at"], "id": None, "by": None, "penalty": "2",
                           "to": "Blue", "from": "center", "yards_to_goal": None, "card": None}
    hints = get_type_hints(event_types()["penalty.award"], include_extras=True)
    assert get_args(get_args(hints["from"])[0])[0] is events.From


def codes(annotation: Any) -> tuple[str, ...]:
    """The codes a field's annotation allows (empty: not a code field)."""
    typed = get_args(get_args(annotation)[0])[0]  # ReadOnly[Annotated[type, Field]]
    found = [arg for arg in (typed, *get_args(typed)) if get_origin(arg) is Literal]
    return get_args(found[0]) if found else ()


@pytest.mark.parametrize("kind", TYPES)
def test_the_forms_choices_and_defaults_are_the_types(kind: str) -> None:
    hints = get_type_hints(event_types()[kind], include_extras=True)
    for form in event_forms()[kind]:
        allowed = codes(hints[form["name"]])
        assert (form["choices"] or []) == list(allowed), form["name"]
        default = FIELDS[kind][form["name"]][1]
        assert form["required"] == (default is REQUIRED)
        assert form["default"] == (None if default is REQUIRED else default)

