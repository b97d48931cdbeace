"""The Rule 36 engine: a match's free-hit lifecycle as a state machine, folded over its events.

- :mod:`.machine`: the states and each event type's transitions, one :class:`transitions.Machine`;
- :mod:`.judges`: pure functions that find the violation in an event;
- :mod:`.penalties`: the penalty ladder, from the rule set's tables and the match's field;
- :mod:`.play`: the machine's model, the match's play, whose callbacks give the rulings;
- :mod:`.clock`: the match clock, its phases and flags, folded beside the machine;
- :mod:`.handicap`: goals by handicap, the score a match starts from;
- :mod:`.match`: :class:`Match`, the log folded into play, voids and checkpoints.
"""

from .handicap import goals_by_handicap, roster_totals
from .machine import STATES, diagram
from .match import CHECKPOINT_EVERY, Checkpoint, Match, struck

__all__ = ["CHECKPOINT_EVERY", "STATES", "Checkpoint", "Match", "diagram", "goals_by_handicap", "roster_totals",
           "struck"]
