"""Goals by handicap: the score a match starts from (log format 1.1, "Goals by handicap")."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

PLANNED_CHUKKERS = 6  # the log format's default for `chukkers`


def roster_totals(start: Mapping[str, Any]) -> dict[str, float] | None:
    """Each team's total handicap, where both teams' rosters list players and give every one's handicap."""
    rosters = start.get("rosters") or {}
    listed = {team: rosters.get(team) or [] for team in start["teams"]}
    if not all(listed.values()) or not all("handicap" in player for roster in listed.values() for player in roster):
        return None
    return {team: sum(player["handicap"] for player in roster) for team, roster in listed.items()}


def goals_by_handicap(start: Mapping[str, Any]) -> dict[str, float]:
    """The goals each team starts with, from its ``match.start`` (as received or checked).

    ``handicap_goals`` where given (an empty ``{}`` counts as given); else, when both rosters give a handicap
    for every player, the team with the lower total receives the difference times ``chukkers`` / 6, a
    fraction recorded as one half goal.
    """
    teams = start["teams"]
    given = start.get("handicap_goals")
    if given is not None:
        return {team: given.get(team, 0) for team in teams}
    totals = roster_totals(start)
    if totals is None:
        return dict.fromkeys(teams, 0)
    low, high = sorted(teams, key=totals.__getitem__)
    owed = (totals[high] - totals[low]) * (start.get("chukkers") or PLANNED_CHUKKERS) / 6
    whole = math.floor(owed)
    return {low: whole if owed == whole else whole + 0.5, high: 0}
