"""What the matches say, read into the tournament: each fixture's teams (a bracket's winners and losers,
a group's places), its result, and each group's standings.

Everything here is derived from the matches' current state each time it is read, never stored: a void of a
``match.end`` reopens its match, and with it the next fixture loses the team that had gone on. A fixture whose
match was opened for teams that no longer go on (after such a void) is ``stale``: its result counts for no one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..words import LANGUAGES
from .model import Fixture, Source, Tournament
from .standings import Game, Row, awaits_shootout, standings


@dataclass(frozen=True, slots=True)
class MatchState:
    """What the desk reads of a fixture's match: its teams, score, whether it has ended and its winner."""

    code: str
    teams: tuple[str, ...]
    score: Mapping[str, float]
    ended: bool
    winner: str | None
    started: bool = False
    seq: int = 0
    hash: str = ""


Reader = Callable[[str], MatchState | None]


@dataclass(slots=True)
class Progress:
    """A tournament as its matches leave it now."""

    tournament: Tournament
    teams: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)  # fixture id → its teams
    states: dict[str, MatchState] = field(default_factory=dict)  # fixture id → its match, where it has one
    games: dict[str, Game] = field(default_factory=dict)  # fixture id → its result, once it stands
    stale: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)  # stale too: its match is no longer in the store
    tables: dict[str, list[Row]] = field(default_factory=dict)  # group → standings
    complete: set[str] = field(default_factory=set)  # groups whose places are settled: every match ended,
    # and a shootout played wherever the tie-breaks before it leave two teams level

    def to_json(self) -> dict[str, Any]:
        return {
            "fixtures": [fixture_json(self, fixture) for fixture in self.tournament.fixtures],
            "groups": {group: [row_json(row) for row in rows] for group, rows in self.tables.items()},
            "complete": sorted(self.complete),
        }


def fixture_json(progress: Progress, fixture: Fixture) -> dict[str, Any]:
    home, away = progress.teams.get(fixture.id, (None, None))
    state = progress.states.get(fixture.id)
    game = progress.games.get(fixture.id)
    return {"id": fixture.id, "stage": fixture.stage, "kind": fixture.kind, "round": fixture.round,
            "home": home, "away": away, "home_from": fixture.home.label(), "away_from": fixture.away.label(),
            "home_said": {lang: fixture.home.said(lang) for lang in LANGUAGES},
            "away_said": {lang: fixture.away.said(lang) for lang in LANGUAGES},
            "day": fixture.day, "time": fixture.time, "field": fixture.field, "match": fixture.match,
            "consolation": fixture.consolation, "score": dict(state.score) if state else None,
            "seq": state.seq if state else 0,
            # a knockout ended level sends no one on: said, so that its match is played on rather than wait
            "status": ("removed" if fixture.id in progress.removed else "stale" if fixture.id in progress.stale else
                       "level" if game and game.winner is None and fixture.kind == "knockout" else "ended" if game else
                       "playing" if state and state.started else "scheduled" if home and away else "waiting"),
            "winner": game.winner if game else None}


def row_json(row: Row) -> dict[str, Any]:
    return {"place": row.place, "team": row.team, "played": row.played, "wins": row.wins, "losses": row.losses,
            "goals_for": row.goals_for, "goals_against": row.goals_against, "net": row.net,
            "why": dict(row.why) if row.why else None}


def progress(tournament: Tournament, read: Reader) -> Progress:
    """Each fixture's teams and result, and each group's standings, from the matches as they stand now."""
    made = Progress(tournament)
    for fixture in tournament.fixtures:
        if fixture.match:
            state = read(fixture.match)
            if state is not None:
                made.states[fixture.id] = state
            else:  # removed from the store: its result counts for no one, and the fixture may take a new match
                made.removed.add(fixture.id)
                made.stale.add(fixture.id)
    groups = {fixture.stage for fixture in tournament.fixtures if fixture.kind == "group"}
    resolving: set[str] = set()

    def resolve_fixture(fixture: Fixture) -> tuple[str | None, str | None]:
        if fixture.id in made.teams:
            return made.teams[fixture.id]
        if fixture.id in resolving:  # a fixture fed by itself: drawn by hand wrongly; it waits forever
            return None, None
        resolving.add(fixture.id)
        teams = (resolve(fixture.home), resolve(fixture.away))
        made.teams[fixture.id] = teams
        state = made.states.get(fixture.id)
        if state is not None and None not in teams:
            if set(state.teams) != set(teams):
                made.stale.add(fixture.id)
            elif state.ended:
                home, away = teams
                assert home is not None and away is not None
                made.games[fixture.id] = Game(home, away, state.score.get(home, 0), state.score.get(away, 0),
                                              state.winner)
        elif state is not None:
            made.stale.add(fixture.id)
        return teams

    def resolve(source: Source) -> str | None:
        if source.kind == "team":
            return source.ref
        if source.kind == "place":
            if source.ref not in groups:  # kept before the door checked it: a place no table will decide
                return None
            if source.ref not in made.complete:
                table(source.ref)
            if source.ref not in made.complete:
                return None
            rows = made.tables[source.ref]
            return rows[source.place - 1].team if 0 < source.place <= len(rows) else None
        fed = tournament.fixture(source.ref)
        resolve_fixture(fed)
        game = made.games.get(fed.id)
        if game is None or game.winner is None:
            return None
        if source.kind == "winner":
            return game.winner
        return game.away if game.winner == game.home else game.home

    def table(group: str) -> None:
        if group in made.tables:
            return
        fixtures = [fixture for fixture in tournament.fixtures if fixture.stage == group]
        for fixture in fixtures:
            resolve_fixture(fixture)
        teams: list[str] = []
        for fixture in fixtures:
            if fixture.kind == "group":
                teams.extend(team for team in made.teams[fixture.id] if team is not None and team not in teams)
        # Level on every tie-break, teams are listed in their order of entry, as the table says: in the order of
        # the fixtures, they were not.
        entered = {team.name: index for index, team in enumerate(tournament.teams)}
        teams.sort(key=lambda team: entered.get(team, len(entered)))
        played = [made.games[f.id] for f in fixtures if f.kind == "group" and f.id in made.games]
        shootouts = [made.games[f.id] for f in fixtures if f.kind == "shootout" and f.id in made.games]
        tiebreaks = tournament.conditions.tiebreaks
        made.tables[group] = standings(teams, played, tiebreaks, shootouts)
        if all(fixture.id in made.games for fixture in fixtures) and not awaits_shootout(made.tables[group], tiebreaks):
            made.complete.add(group)

    for group in sorted(groups):
        table(group)
    for fixture in tournament.fixtures:
        resolve_fixture(fixture)
    return made
