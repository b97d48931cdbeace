"""The desk's refusals, in the catalog's words (section [tournament-refusal])."""

from __future__ import annotations

from typing import TypeVar

from ..errors import MatchstateError
from ..words import phrases

E = TypeVar("E", bound=MatchstateError)


def refused(kind: type[E], key: str, /, **fields: object) -> E:
    """An error of ``kind`` saying the [tournament-refusal] phrase ``key``, in every language."""
    words = phrases("tournament-refusal", key, **fields)
    err = kind(words["en"])
    err.words = words
    return err
