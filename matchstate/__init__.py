"""matchstate: a live match-state tracker for polo, exact to USPA Rule 36."""

from .engine import STATES, Match, diagram
from .errors import MatchstateError, RefusedEvent, UnknownRule
from .log import Step, load, replay
from .rulebook import Clause, clause
from .rulings import FreeHit, Ruling

__version__ = "0.1.0"

__all__ = ["STATES", "Clause", "FreeHit", "Match", "MatchstateError", "RefusedEvent", "Ruling", "Step",
           "UnknownRule", "clause", "diagram", "load", "replay", "__version__"]
