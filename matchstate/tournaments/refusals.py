"""The desk's refusals, in the catalog's words (section [tournament-refusal])."""

from __future__ import annotations

from typing import Any, TypeVar

from ..errors import MatchstateError
from ..words import phrases

E = TypeVar("E", bound=MatchstateError)


def refused(kind: type[E], key: str, /, *args: Any, **fields: object) -> E:
    """An error of ``kind`` saying the [tournament-refusal] phrase ``key``, in every language (``args`` follow the
    message, as the error's own constructor takes them)."""
    return kind.worded_as(phrases("tournament-refusal", key, **fields), *args)
