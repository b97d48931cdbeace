"""The Rule 36 engine: a match's free-hit lifecycle as a state machine, folded over its events.

- :mod:`.machine`: the states and each event type's transitions, one :class:`transitions.Machine`;
- :mod:`.judges`: pure functions that find the violation in an event;
- :mod:`.penalties`: the penalty ladder, from the rule set's tables and the match's field;
- :mod:`.play`: the machine's model, the match's play, whose callbacks give the rulings;
- :mod:`.match`: :class:`Match`, the log folded into play, voids and checkpoints.
"""

from .machine import STATES, diagram
from .match import CHECKPOINT_EVERY, Match

__all__ = ["CHECKPOINT_EVERY", "STATES", "Match", "diagram"]
