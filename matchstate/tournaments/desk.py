"""The tournament desk's store: tournaments kept as documents beside the matches, and each fixture's match
created through the store's one door (:meth:`Store.create_match`) with its teams, rosters and conditions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update

from ..errors import DuplicateMatch, InvalidQuery, NotFound, UnknownMatch
from ..models import TournamentRow
from ..store import Store
from ..store.facade import utc_now
from .draw import DRAW_ALGORITHM, bracket_fixtures, drawn_groups, drawn_seeds, group_fixtures
from .flow import MatchState, Progress, progress
from .model import Fixture, Source, Tournament, source_of, tournament_of
from .refusals import refused
from .when import kickoff


class Desk:
    """Tournaments in ``store``: created, changed, drawn and scheduled (the web checks the league key)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- the documents -----------------------------------------------------------------

    def create(self, data: Mapping[str, Any]) -> Tournament:
        tournament = tournament_of(dict(data))
        now = utc_now()
        with self.store.database.transaction(write=True) as connection:
            if connection.execute(select(TournamentRow.id).where(TournamentRow.slug == tournament.slug)).first():
                raise refused(DuplicateMatch, "duplicate", slug=tournament.slug)
            connection.execute(insert(TournamentRow).values(slug=tournament.slug, name=tournament.name,
                                                            doc=tournament.to_json(), created=now, updated=now))
        return tournament

    def get(self, slug: str) -> Tournament:
        with self.store.database.transaction() as connection:
            doc = connection.execute(select(TournamentRow.doc).where(TournamentRow.slug == slug)).scalar()
        if doc is None:
            raise refused(NotFound, "unknown", slug=slug)
        return tournament_of(doc, stored=True)

    def list(self) -> list[tuple[str, str]]:
        """Every tournament's slug and name, by slug."""
        with self.store.database.transaction() as connection:
            rows = connection.execute(select(TournamentRow.slug, TournamentRow.name).order_by(TournamentRow.slug))
            return [(slug, name) for slug, name in rows]

    def save(self, tournament: Tournament) -> Tournament:
        checked = tournament_of(tournament.to_json())  # a change is checked as a new tournament is
        with self.store.database.transaction(write=True) as connection:
            done = connection.execute(update(TournamentRow).where(TournamentRow.slug == tournament.slug)
                                      .values(name=checked.name, doc=checked.to_json(), updated=utc_now()))
            if done.rowcount != 1:
                raise refused(NotFound, "unknown", slug=tournament.slug)
        return checked

    def change(self, slug: str, data: Mapping[str, Any]) -> Tournament:
        """Change a tournament's fields (its slug stays; ``conditions`` are changed one by one)."""
        current = self.get(slug).to_json()
        merged = {**current, **data, "slug": slug}
        if isinstance(data.get("conditions"), Mapping):  # a change of one condition keeps the others
            merged["conditions"] = {**current["conditions"], **data["conditions"]}
        return self.save(tournament_of(merged))

    # -- the draw and the schedule -------------------------------------------------------

    def draw_groups(self, slug: str, groups: int, seed: str) -> Tournament:
        """Deal the entered teams into ``groups`` round-robin groups from ``seed`` (recorded)."""
        tournament = self._undrawn(slug)
        if not 1 <= groups <= max(1, len(tournament.teams) // 2):
            raise refused(InvalidQuery, "groups", groups=groups, teams=len(tournament.teams))
        dealt = drawn_groups([team.name for team in tournament.teams], groups, seed)
        fixtures = [fixture for group, teams in dealt.items() for fixture in group_fixtures(group, teams)]
        draw = {"seed": seed, "algorithm": DRAW_ALGORITHM, "format": "groups", "groups": groups}
        return self.save(replace(tournament, fixtures=tuple(fixtures), draw=draw))

    def draw_bracket(self, slug: str, seed: str, *, stage: str = "Cup",
                     seeds: Sequence[str] | None = None) -> Tournament:
        """A single-elimination bracket of the entered teams: seeded by hand (``seeds``, best first) or by the
        tool from ``seed`` (highest handicap first, the seed settling ties)."""
        tournament = self._undrawn(slug)
        handicaps = {team.name: team.handicap for team in tournament.teams}
        order = list(seeds) if seeds is not None else drawn_seeds(handicaps, seed)
        if sorted(order) != sorted(handicaps):
            raise refused(InvalidQuery, "seeds")
        fixtures = bracket_fixtures(stage, [Source("team", team) for team in order])
        draw = {"seed": seed, "algorithm": DRAW_ALGORITHM, "format": "bracket", "seeds": order}
        return self.save(replace(tournament, fixtures=tuple(fixtures), draw=draw))

    def add_fixtures(self, slug: str, fixtures: Sequence[Mapping[str, Any]]) -> Tournament:
        """Add fixtures entered by hand (a knockout fed by places, a shootout, a subsidiary bracket)."""
        tournament = self.get(slug)
        doc = tournament.to_json()
        doc["fixtures"] = [*doc["fixtures"], *fixtures]
        return self.save(tournament_of(doc))

    def add_bracket(self, slug: str, stage: str, entrants: Sequence[Mapping[str, Any] | str], *,
                    consolation: bool = False, subsidiary: bool = False) -> Tournament:
        """A bracket fed by teams, places or a bracket's losers (``{"kind": "loser", "ref": fixture id}``)."""
        tournament = self.get(slug)
        fixtures = bracket_fixtures(stage, [source_of(entrant) for entrant in entrants], consolation=consolation,
                                    subsidiary=subsidiary)
        return self.save(replace(tournament, fixtures=(*tournament.fixtures, *fixtures)))

    def schedule(self, slug: str, fixture_id: str, day: str, time: str, field: str | None = None) -> Tournament:
        """Give a fixture its day (YYYY-MM-DD), time (HH:MM) and field (None: the one it has stays)."""
        if kickoff(day, time) is None:
            raise refused(InvalidQuery, "when", day=day, time=time)
        tournament = self.get(slug)
        fixture = tournament.fixture(fixture_id)
        changed = replace(fixture, day=day, time=time, field=fixture.field if field is None else field)
        return self.save(replace(tournament, fixtures=tuple(changed if f.id == fixture_id else f
                                                            for f in tournament.fixtures)))

    def _undrawn(self, slug: str) -> Tournament:
        tournament = self.get(slug)
        if any(fixture.match for fixture in tournament.fixtures):
            raise refused(InvalidQuery, "drawn")
        return tournament

    # -- matches -------------------------------------------------------------------------

    def match_start(self, tournament: Tournament, fixture: Fixture, home: str, away: str,
                    at: datetime) -> dict[str, Any]:
        """The fixture's match.start: its teams, their rosters (so the engine derives the goals by handicap
        from them), the tournament's conditions, its name and venue."""
        conditions = tournament.conditions
        rosters = {name: [{"player": p.player, "name": p.name, "handicap": p.handicap}
                          for p in tournament.team(name).roster] for name in (home, away)}
        start: dict[str, Any] = {
            "type": "match.start", "at": at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "match": match_code(tournament, fixture), "teams": [home, away], "chukkers": conditions.chukkers,
            "penalty3_defended": conditions.penalty3_defended, "rules": conditions.rules,
            "event": tournament.name}
        if all(rosters.values()):
            start["rosters"] = rosters
        if tournament.venue:
            start["venue"] = tournament.venue
        if tournament.officials:
            start["officials"] = list(tournament.officials)
        return start

    def open_match(self, slug: str, fixture_id: str, keys: Mapping[str, str]) -> tuple[Tournament, str]:
        """Create the fixture's match, once both its teams are known, with ``keys`` (role → the key's hash)."""
        tournament = self.get(slug)
        fixture = tournament.fixture(fixture_id)
        home, away = self._teams_for_a_match(tournament, fixture)
        start = self.match_start(tournament, fixture, home, away, utc_now())
        if fixture.match:  # stale: its teams no longer go on; a new match (a new code) for the right ones
            start["match"] = f"{start['match']}~{len([f for f in tournament.fixtures if f.match])}"
        self.store.create_match(start, keys=keys, role="official", by="league")
        return self._with_match(tournament, fixture_id, start["match"]), start["match"]

    def attach(self, slug: str, fixture_id: str, code: str) -> Tournament:
        """Make match ``code`` (imported: a result kept on paper) the fixture's match."""
        tournament = self.get(slug)
        self._teams_for_a_match(tournament, tournament.fixture(fixture_id))
        return self._with_match(tournament, fixture_id, code)

    def paper_teams(self, slug: str, fixture_id: str) -> tuple[str, str]:
        """The teams a result kept on paper for the fixture must have: asked before its log is stored, so that a
        fixture that cannot take it is refused with nothing stored."""
        tournament = self.get(slug)
        return self._teams_for_a_match(tournament, tournament.fixture(fixture_id))

    def _teams_for_a_match(self, tournament: Tournament, fixture: Fixture) -> tuple[str, str]:
        """The fixture's two teams, where it may have a new match: refused where one is not known yet, or where
        it has a match that stands (not one left stale by a change before it), and where the tournament, stored
        before the door checked what it checks now, could not be saved with it: refused before anything is
        stored, not after its match is."""
        tournament_of(tournament.to_json())  # what saving it with its match checks
        now = self.progress(tournament)
        home, away = now.teams[fixture.id]
        if home is None or away is None:
            raise refused(InvalidQuery, "teams-unknown", fixture=fixture.id)
        if fixture.match and fixture.id not in now.stale:
            raise refused(DuplicateMatch, "opened", fixture=fixture.id, match=fixture.match)
        return home, away

    def _with_match(self, tournament: Tournament, fixture_id: str, code: str) -> Tournament:
        return self.save(replace(tournament, fixtures=tuple(replace(f, match=code) if f.id == fixture_id else f
                                                            for f in tournament.fixtures)))

    def read(self, code: str) -> MatchState | None:
        try:
            snapshot = self.store.match(code)
        except UnknownMatch:
            return None
        return MatchState(code, tuple(snapshot.teams), dict(snapshot.score), snapshot.ended, snapshot.winner,
                          snapshot.clock.started, snapshot.seq, snapshot.hash)

    def progress(self, tournament: Tournament | str) -> Progress:
        """The tournament as its matches leave it now (read afresh: nothing of it is stored)."""
        found = self.get(tournament) if isinstance(tournament, str) else tournament
        return progress(found, self.read)


def match_code(tournament: Tournament, fixture: Fixture) -> str:
    return f"{tournament.slug}-{fixture.id}"
