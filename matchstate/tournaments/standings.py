"""A group's standings by the tournament's tie-breaks, each place explained in words.

Teams are ranked by the first tie-break; those level on it by the next, and so on. ``head_to_head`` ranks
teams level so far by their wins in the matches among themselves only; ``shootout`` ranks two teams level so
far by the shootout played between them. Teams level on every tie-break keep the order they were entered in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..words import Words, phrases


@dataclass(frozen=True, slots=True)
class Game:
    """A finished match of the group: its teams, their goals (handicap goals included), its winner."""

    home: str
    away: str
    home_goals: float
    away_goals: float
    winner: str | None


@dataclass(slots=True)
class Row:
    team: str
    played: int = 0
    wins: int = 0
    losses: int = 0
    goals_for: float = 0
    goals_against: float = 0
    place: int = 0
    why: Words | None = None  # why this place and not the next team's
    parted_by: str | None = None  # the tie-break that put it ahead of the next team, None where none did
    values: dict[str, float] = field(default_factory=dict)

    @property
    def net(self) -> float:
        return self.goals_for - self.goals_against


def goals(value: float) -> str:
    """A goal count as a score sheet writes it: 7, 7½."""
    whole = int(value)
    return f"{whole}" if value == whole else f"{whole}½" if value > 0 else f"-{abs(whole)}½"


def signed(value: float) -> str:
    return ("+" if value > 0 else "") + goals(value)


SHOWN: dict[str, Callable[[float], str]] = {"wins": lambda value: f"{int(value)}", "net": signed, "gross": goals,
                                            "head_to_head": lambda value: f"{int(value)}",
                                            "shootout": lambda value: f"{int(value)}"}


def standings(teams: Sequence[str], games: Sequence[Game], tiebreaks: Sequence[str],
              shootouts: Sequence[Game] = ()) -> list[Row]:
    """The table of ``teams`` after ``games``, ordered by ``tiebreaks``; each row but the last says why it is
    ahead of the next."""
    rows = {team: Row(team) for team in teams}
    for game in games:
        for team, scored, conceded in ((game.home, game.home_goals, game.away_goals),
                                       (game.away, game.away_goals, game.home_goals)):
            row = rows[team]
            row.played += 1
            row.goals_for += scored
            row.goals_against += conceded
            row.wins += game.winner == team
            row.losses += game.winner is not None and game.winner != team

    def value(name: str, team: str, level: Sequence[str]) -> float:
        row = rows[team]
        if name == "wins":
            return row.wins
        if name == "net":
            return row.net
        if name == "gross":
            return row.goals_for
        among = set(level)
        if name == "head_to_head":
            return sum(1 for game in games if game.winner == team and {game.home, game.away} <= among)
        return sum(1 for game in shootouts if game.winner == team and {game.home, game.away} <= among)

    # Split the teams level so far by each tie-break in turn; where two teams part is why one is ahead.
    blocks: list[list[str]] = [list(teams)]
    parted: dict[tuple[str, str], tuple[str, float, float]] = {}
    for name in tiebreaks:
        split: list[list[str]] = []
        for block in blocks:
            if len(block) == 1:
                split.append(block)
                continue
            scores = {team: value(name, team, block) for team in block}
            for team in block:
                rows[team].values[name] = scores[team]
            ordered = sorted(block, key=lambda team: -scores[team])  # stable: entry order within a level
            levels: list[list[str]] = []
            for team in ordered:
                if levels and scores[levels[-1][0]] == scores[team]:
                    levels[-1].append(team)
                else:
                    levels.append([team])
            for index, upper in enumerate(levels):
                for lower in levels[index + 1:]:
                    for ahead in upper:
                        for behind in lower:
                            parted[ahead, behind] = (name, scores[ahead], scores[behind])
            split.extend(levels)
        blocks = split
    table = [rows[team] for block in blocks for team in block]
    for place, row in enumerate(table, 1):
        row.place = place
        if place == len(table):
            continue
        below = table[place]
        reason = parted.get((row.team, below.team))
        row.parted_by = reason[0] if reason else None
        if reason is None:
            row.why = phrases("tournament-standing", "level", team=below.team)
        else:
            name, mine, theirs = reason
            row.why = phrases("tournament-standing", name, team=below.team, mine=SHOWN[name](mine),
                              theirs=SHOWN[name](theirs))
    return table


def awaits_shootout(table: Sequence[Row], tiebreaks: Sequence[str]) -> bool:
    """Whether two neighbours of ``table`` are level on every tie-break up to a shootout: the place between
    them is settled by a shootout still to be played."""
    if "shootout" not in tiebreaks:
        return False
    before = set(tiebreaks[:tiebreaks.index("shootout")])
    return any(row.parted_by not in before and row.parted_by != "shootout" for row in table[:-1])
