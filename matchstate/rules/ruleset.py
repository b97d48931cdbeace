"""The shape of a rule set: what Rule 36's tables and the log format's fixed spots decide."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta


@dataclass(frozen=True, slots=True, kw_only=True)
class FixedSpot:
    """Where a free hit with a fixed spot is taken: ``yards`` plus ``of_field`` times the field's length,
    measured to the goal the hitting team attacks. ``defended`` None means as the match's
    ``penalty3_defended`` says."""

    penalty: str
    yards: float
    of_field: float = 0
    from_: str | None = None
    defended: bool | None = True

    def yards_to_goal(self, field_length: float) -> float:
        return self.yards + self.of_field * field_length if self.of_field else self.yards


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSettings:
    """A chukker's playing time: the bell after ``chukker_seconds``, the horn ``extra_seconds`` later."""

    chukker_seconds: float
    extra_seconds: float


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """Everything the rules decide that a variant may decide otherwise. Every field is required.

    Free hits are named as in the log (``"2"`` ... ``"6"``, ``"knockin"``); ``"2c"`` is a
    Penalty 2 from the centre. A violation's cites are clause ids, where ``"table"`` stands for
    its cell in the misexecution table (``table`` prefixes the cell ids).
    """

    name: str
    title: str
    # The 20 seconds after "Play": which free hits they bind, and how long they are.
    timed: frozenset[str]
    window: timedelta
    # Which free hits are one stroke at goal (a preparatory dribble is a violation), on which a
    # swing and miss is a foul, and on which the hitting team's improper position is ruled.
    one_stroke: frozenset[str]
    miss_is_foul: frozenset[str]
    attacking_position_ruled: frozenset[str]
    # How close to the spot a returning player may ride, and how far the ball must travel before
    # a player out of position may play (once past midfield), in yards.
    return_yards: float
    # What a hitting-team failure gives the defending team, by free hit: "5a" a spot hit from where
    # it was being taken, "4" Penalty 4, "5a|4" the less severe: Penalty 4 when that spot is within
    # ``spot_hit_limit`` yards of the goal the defending team attacks.
    failure_costs: Mapping[str, str]
    spot_hit_limit: float
    # The increased penalty for the hitting team when a defending-team violation waited, by free hit;
    # "choose" offers the same free hit again or Penalty 1. Penalty 5.a climbs by its distance:
    # (more than this many yards to goal, increased penalty), the first that holds.
    increased: Mapping[str, str]
    increased_5a: tuple[tuple[float, str], ...]
    # The free hits whose spot the rules fix.
    fixed_spots: Mapping[str, FixedSpot]
    penalty3_defended: bool  # the default of match.start's field
    # A yellow card to the defending team on these free hits makes them a Penalty 1.
    yellow_card_goal: frozenset[str]
    # The clauses each ruling rests on.
    table: str
    cites: Mapping[str, tuple[str, ...]]
    defending_cites: Mapping[str, tuple[str, ...]]  # a defending-team player's return or play
    missed_live_cites: Mapping[str, tuple[str, ...]]  # by free hit: why a miss or mis-hit is live on it
    penalty_1_cites: Mapping[str, tuple[str, ...]]  # by reason: awarded as such, or made by a yellow card
    stroke_cite: tuple[str, ...]
    both_teams_cite: tuple[str, ...]
    choose_cite: tuple[str, ...]
    stops_short_cite: tuple[str, ...]
    # The match clock's default settings.
    clock: ClockSettings

    def cell(self, situation: str, free_hit: str) -> str:
        """The id of the misexecution table's cell for a situation (row) and a free hit (column)."""
        return f"{self.table}:{situation}:{free_hit}"
