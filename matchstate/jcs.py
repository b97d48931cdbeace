"""RFC 8785 canonical JSON (JCS): the one byte form of a JSON value that any JCS implementation gives.

Keys are sorted by their UTF-16 code units (not by code point: U+1F600 sorts before U+FB33), numbers are
written as ECMAScript's ``Number.prototype.toString`` writes an IEEE 754 double (``1`` not ``1.0``,
``1e+21``, ``0.000001``, ``1e-7``), strings escape only what JSON must, with no spaces anywhere. What a leaf,
a checkpoint or a bundle commits to is this form, so a verifier in any language recomputes it.

A value JCS cannot write the same way everywhere is refused with :class:`NotCanonical`: a non-finite
number, a whole number beyond 2**53 (a double would round it, so two texts would hash alike), a lone
surrogate, a key that is not a string.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import orjson

SAFE_INTEGER = 2**53 - 1  # ECMAScript's Number.MAX_SAFE_INTEGER: beyond it a double no longer holds every integer

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_ESCAPE = str.maketrans({**{chr(code): f"\\u{code:04x}" for code in range(0x20)}, **_ESCAPES})
_SCALARS = (str, int, bool, type(None))
# orjson's limit under OPT_STRICT_INTEGER is SAFE_INTEGER, and it escapes strings as RFC 8785 does
_ORJSON = orjson.OPT_SORT_KEYS | orjson.OPT_STRICT_INTEGER


class NotCanonical(ValueError):
    """A value that has no RFC 8785 form (see the module's docstring); its message says which and why, its
    ``kind`` is ``number``, ``surrogate`` or ``type``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def canonical(value: Any) -> bytes:
    """``value`` (dicts, lists, str, int, float, bool, None) as RFC 8785 canonical JSON, in UTF-8."""
    if plain(value):
        try:
            return orjson.dumps(value, option=_ORJSON)
        except orjson.JSONEncodeError:
            pass  # a lone surrogate, an unsafe integer, too deep: _written refuses it by name, or writes it
    return _written(value)


def number(value: int | float) -> str:
    """A number as ECMAScript writes a double (RFC 8785 section 3.2.2.3)."""
    if isinstance(value, int):
        if abs(value) > SAFE_INTEGER:
            raise NotCanonical("number", f"the whole number {value} is beyond 2**53: a double rounds it")
        return str(value)
    if value != value or value in (float("inf"), float("-inf")):
        raise NotCanonical("number", f"{value!r} is not a JSON number")
    if value == 0:
        return "0"  # and minus zero too
    sign = "-" if value < 0 else ""
    # repr gives the shortest digits that read back as the same double, as ECMAScript's algorithm does
    _, digit_tuple, exponent = Decimal(repr(abs(value))).normalize().as_tuple()
    digits = "".join(map(str, digit_tuple))
    k = len(digits)
    n = k + int(exponent)  # the value is 0.<digits> × 10**n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else f"{digits[0]}.{digits[1:]}"
        text = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text


def string(text: str) -> str:
    """A string as JSON, escaped as RFC 8785 says (only ``"``, ``\\`` and control characters)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NotCanonical("surrogate", "a string holds a lone surrogate, which is not Unicode text") from None
    return '"' + text.translate(_ESCAPE) + '"'


def plain(value: Any) -> bool:
    """Whether orjson's sorted form of ``value`` is its RFC 8785 form (and Python's sorted-key JSON too), as it is
    for the events and leaves an append hashes: no number with a fraction (each writes those its own way), object
    keys in ASCII (beyond it RFC 8785's sort order differs), nothing but dicts, lists and JSON's scalars."""
    kind = type(value)
    if kind is dict:
        return all(type(key) is str and key.isascii() and plain(item) for key, item in value.items())
    if kind is list or kind is tuple:
        return all(plain(item) for item in value)
    return kind in _SCALARS


def _written(value: Any) -> bytes:
    """``value`` as RFC 8785 canonical JSON, written by this module's own writer."""
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts).encode("utf-8")


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")  # big-endian bytes compare as the code units do


def _write(value: Any, parts: list[str]) -> None:
    if value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif isinstance(value, int | float):
        parts.append(number(value))
    elif isinstance(value, str):
        parts.append(string(value))
    elif isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            raise NotCanonical("type", "an object's keys are strings")
        parts.append("{")
        for index, key in enumerate(sorted(value, key=_utf16)):
            if index:
                parts.append(",")
            parts.append(string(key))
            parts.append(":")
            _write(value[key], parts)
        parts.append("}")
    elif isinstance(value, list | tuple):
        parts.append("[")
        for index, item in enumerate(value):
            if index:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    else:
        raise NotCanonical("type", f"{type(value).__name__} is not a JSON value")
