"""matchstate: a live match-state tracker for polo, exact to USPA Rule 36."""

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

__version__ = "0.1.0"

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
