"""The draw: round robins by the circle method, single-elimination brackets with seeds and byes, and the
tool's own draw from a recorded seed.

The tool's draw is ``DRAW_ALGORITHM``: Python's ``random.Random(seed)`` (the Mersenne Twister, seeded with
the text of the seed) shuffles the entered teams in their order of entry; groups are dealt the shuffled teams
in turn (A, B, C, A, B, ...); a bracket seeds them by total handicap, highest first, the shuffle settling ties.
The same seed and entry list give the same draw on any machine with the same algorithm version.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .model import Fixture, Source

DRAW_ALGORITHM = "matchstate-draw-1"


def circle_rounds(teams: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Every pair of ``teams`` once, in rounds, by the circle method: the first team stays, the others
    turn one place each round; an odd number gets a bye (the team drawn against it rests that round)."""
    ring: list[str | None] = list(teams)
    if len(ring) % 2:
        ring.append(None)
    rounds: list[list[tuple[str, str]]] = []
    for _ in range(len(ring) - 1):
        pairs = [(ring[i], ring[len(ring) - 1 - i]) for i in range(len(ring) // 2)]
        rounds.append([(home, away) for home, away in pairs if home is not None and away is not None])
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def group_fixtures(group: str, teams: Sequence[str], prefix: str | None = None) -> list[Fixture]:
    """A round robin of ``teams`` as fixtures of the group named ``group``."""
    fixtures: list[Fixture] = []
    for number, pairs in enumerate(circle_rounds(teams), 1):
        for home, away in pairs:
            fixtures.append(Fixture(id=f"{prefix or group}-{len(fixtures) + 1}", stage=group, kind="group",
                                    round=number, home=Source("team", home), away=Source("team", away)))
    return fixtures


def seed_positions(size: int) -> list[int]:
    """The seeds in bracket order for a bracket of ``size`` (a power of two): 1 and 2 meet only in the
    final, 1 meets 4 and 2 meets 3 in the semi-finals, ... (8: 1, 8, 4, 5, 2, 7, 3, 6)."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for first in order for seed in (first, total - first)]
    return order


def bracket_fixtures(stage: str, entrants: Sequence[Source], *, prefix: str | None = None,
                     consolation: bool = False, subsidiary: bool = False) -> list[Fixture]:
    """A single-elimination bracket of ``entrants`` in seed order (the first is seed 1). Seeds beyond the
    entrants are byes: the seed drawn against a bye goes straight into the second round."""
    prefix = prefix or stage
    size = 1
    while size < len(entrants):
        size *= 2
    slots: list[Source | None] = [entrants[seed - 1] if seed <= len(entrants) else None
                                  for seed in seed_positions(size)]
    fixtures: list[Fixture] = []
    number = 1
    while len(slots) > 1:
        following: list[Source | None] = []
        for index in range(0, len(slots), 2):
            home, away = slots[index], slots[index + 1]
            if home is None or away is None:
                following.append(home or away)
                continue
            fixture = Fixture(id=f"{prefix}-R{number}-{index // 2 + 1}", stage=stage, kind="knockout", round=number,
                              home=home, away=away, consolation=consolation,
                              subsidiary_first_round=subsidiary and number == 1)
            fixtures.append(fixture)
            following.append(Source("winner", fixture.id))
        slots = following
        number += 1
    return fixtures


def shuffled(teams: Sequence[str], seed: str) -> list[str]:
    """``teams`` in the order ``DRAW_ALGORITHM`` draws them from ``seed``."""
    drawn = list(teams)
    random.Random(seed).shuffle(drawn)
    return drawn


def drawn_groups(teams: Sequence[str], groups: int, seed: str) -> dict[str, list[str]]:
    """The teams dealt into ``groups`` groups named A, B, C, ... from ``seed``."""
    names = [chr(ord("A") + index) for index in range(groups)]
    dealt: dict[str, list[str]] = {name: [] for name in names}
    for index, team in enumerate(shuffled(teams, seed)):
        dealt[names[index % groups]].append(team)
    return dealt


def drawn_seeds(handicaps: dict[str, int], seed: str) -> list[str]:
    """The teams in seed order: highest total handicap first, the draw from ``seed`` settling ties."""
    drawn = shuffled(list(handicaps), seed)
    return sorted(drawn, key=lambda team: -handicaps[team])  # sorted is stable: ties keep the drawn order
