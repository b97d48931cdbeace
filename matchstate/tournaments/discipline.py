"""The discipline ledger: every card of every match of the league, per player, and what it carries into
the player's next eligible match.

USPA's rule, as the issue and the host committees state it: a player's second yellow card sits the player out
of the first two minutes of the next game of equal or higher handicap for the same team; such a suspension may
not be served in a consolation game, in a first round of a subsidiary tournament or in a shootout, so it waits
for the next game where it may. The readings this module takes where the rule is silent are in the README
("Tournaments"): yellows count per player and team across the league's matches, in the order they were shown,
and each second one (the 2nd, 4th, ...) makes one suspension; a game's handicap is its tournament's level
(``handicap_max``); a match outside any tournament has no level, and a suspension earned there is served in the
team's next eligible game of any level; red cards are listed and carry nothing (a tribunal decides).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

SIT_OUT_SECONDS = 120


@dataclass(frozen=True, slots=True)
class Card:
    match: str
    seq: int
    at: datetime
    team: str
    player: int
    name: str  # from the match's roster, or "#3" where it has none
    colour: str


@dataclass(frozen=True, slots=True)
class Game:
    """A game a team plays, as the ledger weighs it: when, at what level, and whether a suspension may be
    served in it."""

    match: str  # its code, or its fixture's id while it has no match
    teams: tuple[str, ...]
    when: datetime
    level: int | None
    consolation: bool = False
    subsidiary_first_round: bool = False
    shootout: bool = False

    @property
    def serves(self) -> bool:
        return not (self.consolation or self.subsidiary_first_round or self.shootout)


@dataclass(frozen=True, slots=True)
class Suspension:
    team: str
    name: str
    seconds: int
    earned_in: str  # the match of the second yellow
    cards: tuple[Card, ...]
    served_in: str | None  # the game it falls on, None while the team has no eligible game ahead
    passed: tuple[str, ...]  # games before it where it could not be served


@dataclass(slots=True)
class PlayerRecord:
    team: str
    name: str
    cards: list[Card] = field(default_factory=list)
    suspensions: list[Suspension] = field(default_factory=list)


def ledger(cards: Iterable[Card], games: Sequence[Game]) -> dict[tuple[str, str], PlayerRecord]:
    """Each player's (team, name) cards and suspensions; ``games`` every game the ledger knows of."""
    by_code = {game.match: game for game in games}
    records: dict[tuple[str, str], PlayerRecord] = {}
    for card in sorted(cards, key=lambda card: (card.at, card.match, card.seq)):
        record = records.setdefault((card.team, card.name), PlayerRecord(card.team, card.name))
        record.cards.append(card)
        yellows = [shown for shown in record.cards if shown.colour == "yellow"]
        if card.colour != "yellow" or len(yellows) % 2:
            continue
        earned = by_code.get(card.match)
        level = earned.level if earned else None
        after = earned.when if earned else card.at
        ahead = sorted((game for game in games if card.team in game.teams and game.when > after
                        and game.match != card.match), key=lambda game: game.when)
        passed: list[str] = []
        served: str | None = None
        for game in ahead:
            if game.serves and (level is None or (game.level is not None and game.level >= level)):
                served = game.match
                break
            passed.append(game.match)
        record.suspensions.append(Suspension(card.team, card.name, SIT_OUT_SECONDS, card.match,
                                             tuple(yellows[-2:]), served, tuple(passed)))
    return records


def sit_outs(records: Iterable[PlayerRecord], match: str) -> list[Suspension]:
    """Who must sit out of the start of ``match``, and for how long."""
    return [suspension for record in records for suspension in record.suspensions if suspension.served_in == match]
