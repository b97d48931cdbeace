"""The penalty ladder: which free hit a ruling gives, from a rule set's tables and a match's field."""

from __future__ import annotations

from dataclasses import dataclass

from ..events import KnockinAward, PenaltyAward, needs_spot
from ..rules import ClockSettings, RuleSet
from ..rulings import FreeHit


@dataclass(frozen=True, slots=True)
class Conditions:
    """What a match fixes at its start: its rule set, teams, field and clock."""

    rules: RuleSet
    teams: tuple[str, ...]
    field_length: float
    penalty3_defended: bool
    clock: ClockSettings
    chukkers: int

    def other(self, team: str) -> str:
        return self.teams[1] if team == self.teams[0] else self.teams[0]

    def fixed(self, penalty: str, to: str) -> FreeHit:
        """A free hit whose spot the rules fix; ``"2c"`` is a Penalty 2 from the centre."""
        spot = self.rules.fixed_spots[penalty]
        defended = self.penalty3_defended if spot.defended is None else spot.defended
        return FreeHit(spot.penalty, to, spot.yards_to_goal(self.field_length), spot.from_, defended)

    def awarded(self, award: PenaltyAward | KnockinAward) -> FreeHit:
        """The free hit a ``penalty.award`` or ``knockin.award`` makes the one in progress."""
        if award["type"] == "knockin.award":
            return self.fixed("knockin", award["to"])
        if award["yards_to_goal"] is not None and needs_spot(award["penalty"], award["from"]):
            return FreeHit(award["penalty"], award["to"], award["yards_to_goal"],
                           "spot" if award["penalty"] == "2" else None)
        return self.fixed("2c" if award["penalty"] == "2" else award["penalty"], award["to"])

    def failure_cost(self, free_hit: FreeHit) -> FreeHit:
        """What a hitting-team failure on ``free_hit`` gives the defending team."""
        defending = self.other(free_hit.to)
        spot = self.field_length - free_hit.yards_to_goal
        cost = self.rules.failure_costs[free_hit.penalty]
        if cost == "5a|4":
            cost = "4" if spot < self.rules.spot_hit_limit else "5a"
        return FreeHit("5a", defending, spot) if cost == "5a" else self.fixed(cost, defending)

    def stopped_short(self, free_hit: FreeHit, yards_to_goal: float) -> FreeHit:
        """The spot hit for the defending team from where the ball of ``free_hit`` stopped."""
        return FreeHit("5a", self.other(free_hit.to), self.field_length - yards_to_goal)

    def increased(self, free_hit: FreeHit) -> str:
        """The increased penalty for the hitting team after a defending-team violation: a fixed free hit's
        name, or ``"choose"``."""
        if free_hit.penalty == "5a":
            return next((p for yards, p in self.rules.increased_5a if free_hit.yards_to_goal > yards), "choose")
        return self.rules.increased[free_hit.penalty]
