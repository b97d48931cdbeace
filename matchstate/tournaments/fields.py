"""A tournament's JSON fields read at the door: each the type it must be, or refused naming the field and what
came instead (nothing of a refused tournament is stored, so no read meets it later)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from functools import cache
from typing import Any, get_args, get_origin, get_type_hints

import orjson

from ..errors import InvalidQuery
from ..events import unseen_character
from .refusals import refused

SHOWN_LENGTH = 60  # a refused value is quoted, but a whole document pasted into a field is not echoed back
# What the desk records of its own doing (the draw it made), which no client gives: known to a stored tournament's
# reader, never offered to a client as a field it may send (``desk._desks_own`` refuses it).
DESKS_OWN = frozenset({"draw"})


def shown(value: object) -> str:
    """``value`` as the request wrote it (JSON), cut short."""
    try:
        said = orjson.dumps(value).decode()
    except TypeError:
        said = repr(value)
    return said if len(said) <= SHOWN_LENGTH else said[:SHOWN_LENGTH - 1] + "…"


def without_nul(value: object, name: str = "") -> None:
    """Refuse a JSON document (``value``, at ``name``) where any text holds a NUL: PostgreSQL keeps none in a text,
    and a match made of it (a team's name) would be refused when its fixture opens."""
    if isinstance(value, str) and "\x00" in value:
        raise refused(InvalidQuery, "nul-in-field", name=name or "-")
    items = value.items() if isinstance(value, Mapping) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        without_nul(key, name)
        without_nul(item, f"{name}[{key}]" if isinstance(key, int) else f"{name}.{key}" if name else str(key))


def known_fields(value: object, shape: type, name: str = "") -> None:
    """Refuse a field that ``shape`` (the dataclass ``value``, a JSON object or a list of them, is read into) does
    not have, naming where it is as :func:`without_nul` does: a misspelt field ("feild") was dropped, and the
    change made without it. A field that holds a dataclass, or a tuple of them, is checked the same way."""
    if isinstance(value, list):
        for index, item in enumerate(value):
            known_fields(item, shape, f"{name}[{index}]")
        return
    if not isinstance(value, Mapping):
        return  # what it must be instead is its reader's to say
    held = _fields(shape)
    for key, item in value.items():
        where = f"{name}.{key}" if name else str(key)
        if key not in held:
            allowed = ", ".join(field for field in held if field not in DESKS_OWN)
            raise refused(InvalidQuery, "unknown-field", name=where, allowed=allowed)
        if (inner := held[key]) is not None:
            known_fields(item, inner, where)


@cache
def _fields(shape: type) -> dict[str, type | None]:
    """Each field of dataclass ``shape``, and the dataclass it holds, alone or as a tuple's items (else None)."""
    hints = get_type_hints(shape)
    held = {}
    for field in fields(shape):
        hint = hints[field.name]
        inner = get_args(hint)[0] if get_origin(hint) is tuple else hint
        held[field.name] = inner if isinstance(inner, type) and is_dataclass(inner) else None
    return held


def required(data: Mapping[str, Any], name: str) -> Any:
    """Field ``name``, whatever it holds; refused where it is absent."""
    if name not in data:
        raise refused(InvalidQuery, "missing-field", name=name)
    return data[name]


def _given(data: Mapping[str, Any], name: str, default: object) -> object:
    return required(data, name) if default is None else data.get(name, default)


def text(data: Mapping[str, Any], name: str, default: str | None = None) -> str:
    """Field ``name``, text (required where no ``default``)."""
    value = _given(data, name, default)
    if not isinstance(value, str):
        raise refused(InvalidQuery, "not-text", name=name, value=shown(value))
    return value


def addressed(data: Mapping[str, Any], name: str) -> str:
    """Field ``name``, text that a URL's path can name: not empty, no ``/``, and not ``.`` or ``..`` (which
    browsers resolve away); and that a list shows as it is (no control character: a match's code holds it)."""
    value = text(data, name)
    if not value or "/" in value or value in (".", "..") or unseen_character(value):
        raise refused(InvalidQuery, "not-addressed", name=name, value=shown(value))
    return value


def text_or_none(data: Mapping[str, Any], name: str) -> str | None:
    """Field ``name``, text or null (absent: null)."""
    value = data.get(name)
    return None if value is None else text(data, name)


def whole(data: Mapping[str, Any], name: str, default: int | None = None) -> int:
    """Field ``name``, a whole number (required where no ``default``); true and false are no numbers."""
    value = _given(data, name, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise refused(InvalidQuery, "not-whole", name=name, value=shown(value))
    return value


def whole_or_none(data: Mapping[str, Any], name: str, *, stored: bool = False) -> int | None:
    """Field ``name``, a whole number or null; ``stored``: one that is no number (kept before the door checked
    it) reads as null."""
    value = data.get(name)
    if value is None or (stored and (isinstance(value, bool) or not isinstance(value, int))):
        return None
    return whole(data, name)


def flag(data: Mapping[str, Any], name: str, default: bool) -> bool:
    """Field ``name``, true or false: the text "false" is not read as true."""
    value = data.get(name, default)
    if not isinstance(value, bool):
        raise refused(InvalidQuery, "not-flag", name=name, value=shown(value))
    return value


def listed(data: Mapping[str, Any], name: str) -> list[Any]:
    """Field ``name``, a list (absent: empty)."""
    value = data.get(name, [])
    if not isinstance(value, list | tuple):
        raise refused(InvalidQuery, "not-list", name=name, value=shown(value))
    return list(value)


def texts(data: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """Field ``name``, a list of texts (absent: empty)."""
    values = listed(data, name)
    for value in values:
        if not isinstance(value, str):
            raise refused(InvalidQuery, "not-text", name=name, value=shown(value))
    return tuple(values)


def object_or_none(data: Mapping[str, Any], name: str, *, stored: bool = False) -> dict[str, Any] | None:
    """Field ``name``, a JSON object or null; ``stored``: anything else reads as null."""
    value = data.get(name)
    if value is None or (stored and not isinstance(value, Mapping)):
        return None
    return dict(entry(value, name))


def entry(value: object, name: str) -> Mapping[str, Any]:
    """An entry of list ``name`` (a team, a fixture, a player): a JSON object."""
    if not isinstance(value, Mapping):
        raise refused(InvalidQuery, "not-object", name=name, value=shown(value))
    return value
