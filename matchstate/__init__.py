"""matchstate: a live match-state tracker for polo, exact to USPA Rule 36."""

from __future__ import annotations

from .version import PACKAGE_VERSION

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: --help stays quick (mypy reads True)

# The public API, imported when first used (PEP 562): `matchstate --help` and the store's commands need
# no engine, and the engine costs more to import than an empty interpreter does to start.
if TYPE_CHECKING:
    from typing import Any

    from .engine import STATES, Match, diagram
    from .errors import (
                         AccessDenied,
                         ConflictError,
                         DuplicateMatch,
                         IllegalEvent,
                         InvalidEvent,
                         InvalidQuery,
                         MatchstateError,
                         MissingKey,
                         RefusedEvent,
                         StoreError,
                         TamperedStore,
                         UnknownMatch,
                         UnknownRule,
                         UnknownRules,
    )
    from .log import Step, load, replay
    from .rulebook import Clause, clause
    from .rulings import FreeHit, Ruling

_HOMES = {"STATES": "engine", "Match": "engine", "diagram": "engine", "Step": "log", "load": "log",
          "replay": "log", "Clause": "rulebook", "clause": "rulebook", "FreeHit": "rulings", "Ruling": "rulings"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name) or ("errors" if name in __all__ and name != "__version__" else None)
    if home is None:
        raise AttributeError(f"module 'matchstate' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value
    return value

__version__ = PACKAGE_VERSION

__all__ = [
                     "STATES",
                     "AccessDenied",
                     "Clause",
                     "ConflictError",
                     "DuplicateMatch",
                     "FreeHit",
                     "IllegalEvent",
                     "InvalidEvent",
                     "InvalidQuery",
                     "Match",
                     "MatchstateError",
                     "MissingKey",
                     "RefusedEvent",
                     "Ruling",
                     "Step",
                     "StoreError",
                     "TamperedStore",
                     "UnknownMatch",
                     "UnknownRule",
                     "UnknownRules",
                     "__version__",
                     "clause",
                     "diagram",
                     "load",
                     "replay",
]
