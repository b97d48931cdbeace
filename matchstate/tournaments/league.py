"""The discipline ledger of the whole league: the cards of every stored match, weighed against every game the
league knows of (every stored match, and every tournament fixture whose teams are known)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import Any

import orjson

from ..store import MatchQuery, Summary
from ..store.results import read_or_refuse
from .desk import Desk
from .discipline import Card, Game, PlayerRecord, ledger
from .when import kickoff_read


def league_cards(desk: Desk) -> list[Card]:
    """Every card not voided, in every match of the league, named from its match's roster: the cards as the store
    finds them by their index, each match that has one read for its voids and rosters (not every match's log)."""
    cards: list[Card] = []
    for code, shown in groupby(desk.store.cards(), key=itemgetter(0)):
        snapshot = desk.store.match(code)
        rosters = snapshot.info.get("rosters") or {}
        cards += [read_or_refuse(code, partial(_card, code, seq, raw, rosters))
                  for _, seq, raw in shown if seq not in snapshot.void]
    return cards


def _card(code: str, seq: int, raw: str, rosters: dict[str, list[dict[str, Any]]]) -> Card:
    fields = orjson.loads(raw)
    team, number = fields["team"], fields["player"]
    name = next((player["name"] for player in rosters.get(team, ()) if player["player"] == number), f"#{number}")
    return Card(code, seq, datetime.fromisoformat(fields["at"]).astimezone(UTC), team, number, name,
                fields["colour"])


def league_games(desk: Desk) -> list[Game]:
    """Every game: each tournament fixture with a team known (when it is scheduled, or its match started),
    and each stored match outside the tournaments (at no level)."""
    games: dict[str, Game] = {}
    for summary in desk.store.summaries(MatchQuery()):
        if not isinstance(summary, Summary):
            continue  # its row cannot be read back: `matchstate verify` and the match list name it
        games[summary.code] = Game(summary.code, tuple(summary.teams), summary.started or summary.created, None)
    for slug, _ in desk.list():
        tournament = desk.get(slug)
        now = desk.progress(tournament)
        for fixture in tournament.fixtures:
            teams = tuple(name for name in now.teams[fixture.id] if name is not None)
            if not teams:
                continue
            code = fixture.match or fixture.id
            known = games.get(code)
            when = known.when if known else scheduled(fixture.day, fixture.time)
            if when is None:
                continue
            games[code] = Game(code, teams, when, tournament.conditions.handicap_max,
                               consolation=fixture.consolation, subsidiary_first_round=fixture.subsidiary_first_round,
                               shootout=fixture.kind == "shootout")
    return list(games.values())


def scheduled(day: str, time: str) -> datetime | None:
    start = kickoff_read(day, time)
    return start.replace(tzinfo=UTC) if start else None


def league_ledger(desk: Desk) -> dict[tuple[str, str], PlayerRecord]:
    return ledger(league_cards(desk), league_games(desk))
