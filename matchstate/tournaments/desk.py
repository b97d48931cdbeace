"""The tournament desk's store: tournaments kept as documents beside the matches, and each fixture's match
created through the store's one door (:meth:`Store.create_match`) with its teams, rosters and conditions.

Two desks may change one tournament at once (two browsers, two servers on one database): each change is stored
over the version it was made from, one on (:meth:`Desk._write`), so neither is lost; and a fixture takes its
match's code in the transaction that stores the match, so no match is left that no fixture holds."""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any, NamedTuple, TypeVar

import orjson
from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..engine import Match
from ..errors import (
    DuplicateMatch,
    InvalidQuery,
    MatchstateError,
    NotFound,
    RefusedEvent,
    TournamentChanged,
    UnknownMatch,
)
from ..log import parse_line, read_events, replay
from ..models import TournamentRow
from ..store import Also, Store
from ..store.facade import utc_now
from .draw import DRAW_ALGORITHM, bracket_fixtures, drawn_groups, drawn_seeds, group_fixtures
from .fields import DESKS_OWN, known_fields, shown
from .flow import MatchState, Progress, progress
from .model import Fixture, Source, Tournament, source_of, told, tournament_of
from .refusals import refused
from .when import kickoff

ATTEMPTS = 5  # a change made again on top of other desks' changes, before it is refused all the same
T = TypeVar("T")
# How a fixture's match is stored, given the tournament, the fixture, its two teams and the fixture's hold of it.
StoreMatch = Callable[[Tournament, Fixture, tuple[str, str], Also], T]
# What a fixture's match stored by another door than its opening here (a result kept on paper, a corrected
# match.start) must have as the one opened at the desk has it, as the engine reads each match.start: what decides
# its result (its chukkers, the goals by handicap, the rules, the field) and what the league's records find it by
# (the tournament's name as its event); and the rosters, where the tournament has them.
AS_PLAYED = ("event", "chukkers", "handicap_goals", "rules", "penalty3_defended", "field_length")
SHOWN_CHARACTERS = 160  # of a value in a refusal
# The desk's refusals of what a door stores under a fixture's code, said again naming the tournament and the fixture
# (the others, a line of the log or the database, are said as they are).
DESK_REFUSALS = (InvalidQuery, DuplicateMatch, NotFound)


class Kept(NamedTuple):
    """A tournament as stored, and its version (one on with each change)."""

    tournament: Tournament
    version: int


class Desk:
    """Tournaments in ``store``: created, changed, drawn and scheduled (the web checks the league key)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- the documents -----------------------------------------------------------------

    def create(self, data: Mapping[str, Any]) -> Tournament:
        _desks_own(data)
        tournament = tournament_of(dict(data))
        now = utc_now()
        with self.store.database.transaction(write=True) as connection:
            self._name_free(connection, tournament)
            try:  # the slug's unique index refuses the second of two desks creating it at once, on any server
                connection.execute(insert(TournamentRow).values(slug=tournament.slug, name=tournament.name,
                                                                doc=tournament.to_json(), created=now, updated=now))
            except IntegrityError:
                raise refused(DuplicateMatch, "duplicate", slug=tournament.slug) from None
        return tournament

    @staticmethod
    def _name_free(connection: Connection, tournament: Tournament) -> None:
        """Refuse a name another tournament has: its matches carry it as their event, and the statistics of the
        two would be counted as one."""
        names = connection.execute(select(TournamentRow.slug, TournamentRow.name)
                                   .where(TournamentRow.slug != tournament.slug))
        if taken := next((slug for slug, name in names if told(name) == told(tournament.name)), None):
            raise refused(DuplicateMatch, "name-taken", name=tournament.name, slug=taken)

    def get(self, slug: str) -> Tournament:
        return self.opened(slug).tournament

    def opened(self, slug: str) -> Kept:
        """The tournament and its version, read together."""
        with self.store.database.transaction() as connection:
            row = connection.execute(select(TournamentRow.doc, TournamentRow.version)
                                     .where(TournamentRow.slug == slug)).first()
        if row is None:
            raise refused(NotFound, "unknown", slug=slug)
        return Kept(tournament_of(row.doc, stored=True), row.version)

    def list(self) -> list[tuple[str, str]]:
        """Every tournament's slug and name, by slug."""
        with self.store.database.transaction() as connection:
            rows = connection.execute(select(TournamentRow.slug, TournamentRow.name).order_by(TournamentRow.slug))
            return [(slug, name) for slug, name in rows]

    def change(self, slug: str, data: Mapping[str, Any], expected: int | None = None) -> Tournament:
        """Change a tournament's fields (its slug stays; ``conditions`` are changed one by one)."""

        if data.get("slug", slug) != slug:  # it was answered 200 and changed nothing
            raise refused(InvalidQuery, "slug-kept", slug=slug, given=shown(data["slug"]))

        def merged(tournament: Tournament) -> Tournament:
            held = {fixture.id: fixture.match for fixture in tournament.fixtures}
            _desks_own(data, slug, held)
            current = tournament.to_json()
            made = {**current, **data, "slug": slug}
            if isinstance(fixtures := data.get("fixtures"), list):  # a fixture's match is the desk's: kept if not given
                made["fixtures"] = [{"match": held.get(str(fixture.get("id"))), **fixture}
                                    if isinstance(fixture, Mapping) else fixture for fixture in fixtures]
            if isinstance(data.get("conditions"), Mapping):  # a change of one condition keeps the others
                made["conditions"] = {**current["conditions"], **data["conditions"]}
            changed = tournament_of(made)
            if "fixtures" in data:
                self._played_kept(tournament, changed)
            self._schedule_checked(tournament, changed)
            if told(changed.name) != told(tournament.name):
                if played := next((fixture.match for fixture in tournament.fixtures if fixture.match), None):
                    raise refused(InvalidQuery, "renamed-played", slug=slug, name=tournament.name, match=played)
                with self.store.database.transaction() as connection:
                    self._name_free(connection, changed)
            return changed

        return self._changed(slug, expected, merged)

    def _played_kept(self, tournament: Tournament, changed: Tournament) -> None:
        """Refuse a change of the fixtures that drops one whose match stands, or changes anything of it but when and
        where it is played (its day, time and field): the change had left a played match, its result in the
        standings, held by no fixture, or held by one of other teams, and the draw free to be made again over it."""
        now = {fixture.id: fixture for fixture in changed.fixtures}
        for fixture in tournament.fixtures:
            if fixture.match is None or self.read(fixture.match) is None:
                continue  # no match, or one removed: the fixture is the desk's to change
            kept = now.get(fixture.id)
            if kept is None:
                raise refused(InvalidQuery, "played-dropped", fixture=fixture.id, match=fixture.match)
            if replace(kept, day=fixture.day, time=fixture.time, field=fixture.field) != fixture:
                raise refused(InvalidQuery, "played-changed", fixture=fixture.id, match=fixture.match)

    # -- two desks at once ---------------------------------------------------------------

    def _changed(self, slug: str, expected: int | None, change: Callable[[Tournament], Tournament]) -> Tournament:
        """Store ``change`` of the tournament as it is now (see :meth:`_on_top`)."""

        def store(tournament: Tournament, version: int) -> Tournament:
            made = change(tournament)
            if made == tournament:  # nothing changed: a version more would refuse another desk's next change
                return tournament
            with self.store.database.transaction(write=True) as connection:
                return self._write(connection, made, version).tournament

        return self._on_top(slug, expected, store)

    def _on_top(self, slug: str, expected: int | None, act: Callable[[Tournament, int], T]) -> T:
        """``act`` on the tournament as it is now and its version, which its write is made over. Where another desk
        stores the tournament in between, ``act`` is made again on top of that change; or, where the desk asked for
        ``expected`` (the version its page shows), refused: :class:`TournamentChanged`, as a change since is."""
        for _ in range(ATTEMPTS - 1):
            try:
                return self._once(slug, expected, act)
            except TournamentChanged:
                if expected is not None:
                    raise
        return self._once(slug, expected, act)

    def _once(self, slug: str, expected: int | None, act: Callable[[Tournament, int], T]) -> T:
        tournament, version = self.opened(slug)
        if expected is not None and expected != version:
            raise changed(slug, expected, version)
        return act(tournament, version)

    @staticmethod
    def _unchanged(connection: Connection, slug: str, version: int) -> None:
        """Refuse (:class:`TournamentChanged`) where the tournament is no longer at ``version`` in ``connection``'s
        write transaction; else hold it there until the transaction ends (on PostgreSQL: SQLite's write transaction
        holds the whole database)."""
        now = connection.execute(select(TournamentRow.version).where(TournamentRow.slug == slug).with_for_update())
        if (found := now.scalar()) != version:
            raise stored_over(slug, version, found)

    def _write(self, connection: Connection, tournament: Tournament, version: int) -> Kept:
        """Store ``tournament`` over ``version``, one on, in ``connection``'s write transaction: refused
        (:class:`TournamentChanged`) where another desk has stored it since."""
        checked = tournament_of(tournament.to_json())  # a change is checked as a new tournament is
        row = TournamentRow.slug == tournament.slug
        done = connection.execute(update(TournamentRow).where(row, TournamentRow.version == version).values(
            name=checked.name, doc=checked.to_json(), updated=utc_now(), version=version + 1))
        if done.rowcount != 1:
            raise stored_over(tournament.slug, version, connection.execute(select(TournamentRow.version).where(row))
                              .scalar())
        return Kept(checked, version + 1)

    # -- the draw and the schedule -------------------------------------------------------

    def draw_groups(self, slug: str, groups: int, seed: str, expected: int | None = None) -> Tournament:
        """Deal the entered teams into ``groups`` round-robin groups from ``seed`` (recorded)."""

        def drawn(tournament: Tournament) -> Tournament:
            undrawn(tournament)
            if not 1 <= groups <= max(1, len(tournament.teams) // 2):
                raise refused(InvalidQuery, "groups", groups=groups, teams=len(tournament.teams))
            dealt = drawn_groups([team.name for team in tournament.teams], groups, seed)
            fixtures = [fixture for group, teams in dealt.items() for fixture in group_fixtures(group, teams)]
            draw = {"seed": seed, "algorithm": DRAW_ALGORITHM, "format": "groups", "groups": groups}
            return replace(tournament, fixtures=tuple(fixtures), draw=draw)

        return self._changed(slug, expected, drawn)

    def draw_bracket(self, slug: str, seed: str, *, stage: str = "Cup", seeds: Sequence[str] | None = None,
                     expected: int | None = None) -> Tournament:
        """A single-elimination bracket of the entered teams: seeded by hand (``seeds``, best first) or by the
        tool from ``seed`` (highest handicap first, the seed settling ties)."""

        def drawn(tournament: Tournament) -> Tournament:
            undrawn(tournament)
            handicaps = {team.name: team.handicap for team in tournament.teams}
            order = list(seeds) if seeds is not None else drawn_seeds(handicaps, seed)
            if sorted(order) != sorted(handicaps):
                raise refused(InvalidQuery, "seeds")
            fixtures = bracket_fixtures(stage, [Source("team", team) for team in order])
            draw = {"seed": seed, "algorithm": DRAW_ALGORITHM, "format": "bracket", "seeds": order}
            return replace(tournament, fixtures=tuple(fixtures), draw=draw)

        return self._changed(slug, expected, drawn)

    def add_fixtures(self, slug: str, fixtures: Sequence[Mapping[str, Any]], expected: int | None = None) -> Tournament:
        """Add fixtures entered by hand (a knockout fed by places, a shootout, a subsidiary bracket)."""
        known_fields(list(fixtures), Fixture)  # named where the request has it, not in the list it joins
        _desks_own({"fixtures": list(fixtures)}, slug)

        def added(tournament: Tournament) -> Tournament:
            doc = tournament.to_json()
            doc["fixtures"] = [*doc["fixtures"], *fixtures]
            return tournament_of(doc)

        return self._changed(slug, expected, added)

    def add_bracket(self, slug: str, stage: str, entrants: Sequence[Mapping[str, Any] | str], *,
                    consolation: bool = False, subsidiary: bool = False, expected: int | None = None) -> Tournament:
        """A bracket fed by teams, places or a bracket's losers (``{"kind": "loser", "ref": fixture id}``)."""
        known_fields(list(entrants), Source, "entrants")
        if len(entrants) < 2:  # it made no fixture, and said it was made
            raise refused(InvalidQuery, "bracket-few", stage=stage, entrants=len(entrants))
        fixtures = bracket_fixtures(stage, [source_of(entrant) for entrant in entrants], consolation=consolation,
                                    subsidiary=subsidiary)

        def added(tournament: Tournament) -> Tournament:
            if any(told(fixture.stage) == told(stage) for fixture in tournament.fixtures):
                raise refused(InvalidQuery, "stage-taken", slug=slug, stage=stage)
            return replace(tournament, fixtures=(*tournament.fixtures, *fixtures))

        return self._changed(slug, expected, added)

    def schedule(self, slug: str, fixture_id: str, day: str, time: str, field: str | None = None,
                 expected: int | None = None) -> Tournament:
        """Give a fixture its day (YYYY-MM-DD), time (HH:MM) and field (None: the one it has stays)."""
        if kickoff(day, time) is None:
            raise refused(InvalidQuery, "when", day=day, time=time)

        def scheduled(tournament: Tournament) -> Tournament:
            _in_dates(tournament, fixture_id, day)
            fixture = tournament.fixture(fixture_id)
            moved = replace(fixture, day=day, time=time, field=fixture.field if field is None else field)
            self._no_clash(tournament, moved, self.progress(tournament).teams)
            return replace(tournament, fixtures=tuple(moved if f.id == fixture_id else f
                                                      for f in tournament.fixtures))

        return self._changed(slug, expected, scheduled)

    def _schedule_checked(self, tournament: Tournament, changed: Tournament) -> None:
        """Refuse a change that puts a fixture outside the tournament's dates, or at a kickoff another fixture has on
        its field or with one of its teams, as :meth:`schedule` refuses it; and new dates that leave out a fixture
        scheduled already. A change of the fixtures or the dates had taken them as given."""
        was = {fixture.id: fixture for fixture in tournament.fixtures}
        dates = (changed.starts, changed.ends) != (tournament.starts, tournament.ends)
        moved = [fixture for fixture in changed.fixtures if fixture.day and (
            (old := was.get(fixture.id)) is None or (old.day, old.time, old.field) != (fixture.day, fixture.time,
                                                                                      fixture.field))]
        for fixture in moved:
            _in_dates(changed, fixture.id, fixture.day)
        if dates and (left := next((f for f in changed.fixtures if f.day and not _within(changed, f.day)), None)):
            raise refused(InvalidQuery, "dates-leave", fixture=left.id, day=left.day, starts=changed.starts or "-",
                          ends=changed.ends or "-")
        if moved:
            teams = self.progress(changed).teams
            for fixture in moved:
                self._no_clash(changed, fixture, teams)

    @staticmethod
    def _no_clash(tournament: Tournament, moved: Fixture, teams: Mapping[str, tuple[str | None, str | None]]) -> None:
        """Refuse a kickoff that another fixture has on the same field, or one where a team of it plays another
        fixture (``teams``, each fixture's as known now): each was scheduled without a word."""
        mine = {team for team in teams.get(moved.id, (None, None)) if team is not None}
        for other in tournament.fixtures:
            if other.id == moved.id or (other.day, other.time) != (moved.day, moved.time):
                continue
            when = {"day": moved.day, "time": moved.time, "other": other.id, "fixture": moved.id}
            if moved.field and other.field and told(moved.field) == told(other.field):
                raise refused(InvalidQuery, "field-taken", field=other.field, **when)
            if busy := sorted(mine & {team for team in teams.get(other.id, (None, None)) if team is not None}):
                raise refused(InvalidQuery, "team-busy", team=busy[0], **when)

    # -- matches -------------------------------------------------------------------------

    def match_start(self, tournament: Tournament, fixture: Fixture, home: str, away: str,
                    at: datetime) -> dict[str, Any]:
        """The fixture's match.start: its teams, their rosters (so the engine derives the goals by handicap
        from them), the tournament's conditions, its name and venue."""
        conditions = tournament.conditions
        rosters = {name: [{"player": p.player, "name": p.name, "handicap": p.handicap}
                          for p in tournament.team(name).roster] for name in (home, away)}
        code = match_code(tournament, fixture)
        if fixture.match:  # stale: its teams no longer go on; a new match (a new code) for the right ones
            code = f"{code}~{len([f for f in tournament.fixtures if f.match])}"
        taken, again = code, 1
        while self.read(code) is not None:  # a match made elsewhere under the code: the fixture's takes another
            again += 1
            code = f"{taken}~{again}"
        start: dict[str, Any] = {
            "type": "match.start", "at": at.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "match": code, "teams": [home, away], "chukkers": conditions.chukkers,
            "penalty3_defended": conditions.penalty3_defended, "rules": conditions.rules,
            "event": tournament.name}
        if all(rosters.values()):
            start["rosters"] = rosters
        if tournament.venue:
            start["venue"] = tournament.venue
        if tournament.officials:
            start["officials"] = list(tournament.officials)
        return start

    def paper_start(self, slug: str, fixture_id: str) -> dict[str, Any]:
        """The match.start a result kept on paper for the fixture begins with, stamped now: the one its match opened
        here would have (refused where the fixture cannot take a match, as opening it is)."""
        tournament = self.get(slug)
        fixture = tournament.fixture(fixture_id)
        return self.match_start(tournament, fixture, *self._teams_for_a_match(tournament, fixture), utc_now())

    def as_opened(self, tournament: Tournament, fixture: Fixture, teams: tuple[str, str], played: Match) -> None:
        """Refuse a match (``played``: its log replayed, its match.start at least) that the fixture's match opened
        here would not be: one of other teams, or one played otherwise than the tournament plays (:data:`AS_PLAYED`)."""
        if set(played.teams) != set(teams):
            raise refused(InvalidQuery, "import-teams", fixture=fixture.id, teams=" v ".join(teams))
        start = self.match_start(tournament, fixture, *teams, utc_now())
        opened = Match()
        for _ in replay([orjson.dumps(start).decode()], opened):
            pass
        for field in [*AS_PLAYED, *(["rosters"] if "rosters" in start else [])]:
            given, expected = _as_played(played, field), _as_played(opened, field)
            if given != expected:
                raise refused(InvalidQuery, "paper-conditions", fixture=fixture.id, field=field, given=_shown(given),
                              expected=_shown(expected))

    def paper_result(self, tournament: Tournament, fixture: Fixture, teams: tuple[str, str], played: Match) -> None:
        """Refuse a result kept on paper (``played``: its whole log, replayed) that the fixture's match opened here
        would not be (:meth:`as_opened`), one that does not end (a result is a whole match), or a knockout ended level
        (it is decided by play)."""
        self.as_opened(tournament, fixture, teams, played)
        if not played.ended:
            raise refused(InvalidQuery, "paper-unended", fixture=fixture.id)
        if fixture.kind == "knockout" and played.winner is None:
            score = " – ".join(f"{team} {played.score[team]:g}" for team in played.teams)
            raise refused(InvalidQuery, "paper-level", fixture=fixture.id, score=score)

    def enter_result(self, slug: str, fixture_id: str, lines: Sequence[str], store_log: Callable[[Also], T],
                     expected: int | None = None) -> tuple[Kept, T]:
        """Store a result kept on paper, ``lines`` its whole log, as the fixture's match with ``store_log`` (given the
        fixture's hold, as :meth:`hold_match` gives it): refused, before anything is stored, where the log does not
        replay, or is not the match the fixture's opened here would be (:meth:`paper_result`)."""

        def enter(tournament: Tournament, fixture: Fixture, teams: tuple[str, str], hold: Also) -> T:
            played = Match()
            for _ in replay(lines, played):
                pass
            self.paper_result(tournament, fixture, teams, played)
            return store_log(hold)

        return self.hold_match(slug, fixture_id, enter, expected)

    def holder(self, code: str) -> tuple[str, str] | None:
        """The tournament (its slug) and the fixture that hold match ``code``, where one does. Each stored document's
        fixtures are looked through as stored, not read whole: every create, import and correction asks, and a
        tournament that could not be read would have stopped them all."""
        with self.store.database.transaction() as connection:
            rows = connection.execute(select(TournamentRow.slug, TournamentRow.doc).order_by(TournamentRow.slug)).all()
        for slug, doc in rows:
            fixtures = doc.get("fixtures") if isinstance(doc, dict) else None
            for fixture in fixtures if isinstance(fixtures, list) else ():
                if isinstance(fixture, dict) and fixture.get("match") == code and isinstance(fixture.get("id"), str):
                    return slug, fixture["id"]
        return None

    def import_log(self, lines: Iterable[str], store_log: Callable[[Iterable[str], Also | None], T]) -> T:
        """Store a whole log as a new match with ``store_log`` (given its lines, and the fixture's hold or None), by
        a door that is not the desk's (``matchstate import``, ``POST /api/matches/import``). A log under a code a
        tournament's fixture holds (its match removed, say) is that fixture's result again, and is entered as the
        desk enters one (:meth:`enter_result`), its refusals naming the tournament and the fixture: it became the
        fixture's result unchecked, its teams, its end and the tournament's conditions."""
        rest = iter(lines)
        ahead: list[str] = []  # up to the first event's line, read to find its code
        for line in rest:
            ahead.append(line)
            if line.strip():
                break
        try:
            code = next((event.get("match") for _, event in read_events(ahead)), None)
        except RefusedEvent:  # the import refuses it, naming its line
            code = None
        if not isinstance(code, str) or (held := self.holder(code)) is None:
            return store_log(itertools.chain(ahead, rest), None)
        slug, fixture = held
        log = [*ahead, *rest]
        with said_for(code, slug, fixture, "held-import"):
            return self.enter_result(slug, fixture, log, lambda hold: store_log(log, hold))[1]

    def refuse_held(self, code: str) -> None:
        """Refuse a new match made under ``code`` by a door that is not the desk's (``POST /api/matches``) where a
        tournament's fixture holds the code and its match is gone (removed): the desk opens the fixture's match
        (:meth:`open_match`), its match.start written as the tournament plays it, under a code of its own. Where the
        match stands, the store refuses the code as taken."""
        if (held := self.holder(code)) is not None and self.read(code) is None:
            slug, fixture = held
            raise refused(DuplicateMatch, "held-create", code=code, slug=slug, fixture=fixture)

    def correct_start(self, code: str, start: Mapping[str, Any] | str, correct: Callable[[Also | None], T]) -> T:
        """Put ``start`` in the place of match ``code``'s match.start with ``correct`` (given what to ask in its
        transaction, or None), by a door that is not the desk's (``matchstate correct``, ``PUT /api/matches/{code}``).
        Where a tournament's fixture holds the match, refused before anything is changed unless the fixture's match
        opened here could have it (:meth:`as_opened`: the fixture's teams, what decides its result), naming the
        tournament and the fixture: it changed the teams, the chukkers or the goals by handicap of the fixture's
        match unchecked. The tournament checked is the one the correction commits beside: where another desk stores
        it in between, the check is made again on top of that change. A match gone, or begun, is the store's to
        refuse."""
        now = self.read(code)
        if now is None or now.seq > 1 or (held := self.holder(code)) is None:
            return correct(None)
        corrected = Match()
        corrected.feed(parse_line(start) if isinstance(start, str) else dict(start))  # the engine's refusal, as is
        slug, fixture_id = held

        def checked(tournament: Tournament, version: int) -> T:
            with said_for(code, slug, fixture_id, "held-correct"):
                fixture = tournament.fixture(fixture_id)
                self.as_opened(tournament, fixture, self._teams_known(fixture, self.progress(tournament)), corrected)
            return correct(lambda connection, _: self._unchanged(connection, slug, version))

        return self._on_top(slug, None, checked)

    def open_match(self, slug: str, fixture_id: str, keys: Mapping[str, str],
                   expected: int | None = None) -> tuple[Kept, str]:
        """Create the fixture's match, once both its teams are known, with ``keys`` (role → the key's hash): the
        tournament as the fixture holds it, and the match's code."""

        def create(tournament: Tournament, fixture: Fixture, teams: tuple[str, str], hold: Also) -> str:
            start = self.match_start(tournament, fixture, *teams, utc_now())
            self.store.create_match(start, keys=keys, role="official", by="league", also=hold)
            return str(start["match"])

        return self.hold_match(slug, fixture_id, create, expected)

    def hold_match(self, slug: str, fixture_id: str, store_match: StoreMatch[T],
                   expected: int | None = None) -> tuple[Kept, T]:
        """Store the fixture's match with ``store_match`` (given the tournament, the fixture, its two teams and a
        hold), which calls the hold with the match's code in the transaction that makes the match whole: the fixture
        takes the code there, or the match is not stored. Refused before anything is stored where the fixture cannot
        take a match; made again on top of another desk's change, or refused, as :meth:`_on_top` says."""

        def act(tournament: Tournament, version: int) -> tuple[Kept, T]:
            fixture = tournament.fixture(fixture_id)
            teams = self._teams_for_a_match(tournament, fixture)
            held: list[Kept] = []

            def hold(connection: Connection, code: str) -> None:
                held.append(self._write(connection, holding(tournament, fixture_id, code), version))

            made = store_match(tournament, fixture, teams, hold)
            return held[0], made

        return self._on_top(slug, expected, act)

    def _teams_for_a_match(self, tournament: Tournament, fixture: Fixture) -> tuple[str, str]:
        """The fixture's two teams, where it may have a new match: refused where one is not known yet, or where
        it has a match that stands (not one left stale by a change before it), and where the tournament, stored
        before the door checked what it checks now, could not be saved with it: refused before anything is
        stored, not after its match is."""
        tournament_of(tournament.to_json())  # what saving it with its match checks
        now = self.progress(tournament)
        teams = self._teams_known(fixture, now)
        if fixture.match and fixture.id not in now.stale:
            raise refused(DuplicateMatch, "opened", fixture=fixture.id, match=fixture.match)
        return teams

    @staticmethod
    def _teams_known(fixture: Fixture, now: Progress) -> tuple[str, str]:
        """The fixture's two teams as the matches leave them ``now``: refused where one is not known yet."""
        home, away = now.teams[fixture.id]
        if home is None or away is None:
            raise refused(InvalidQuery, "teams-unknown", fixture=fixture.id)
        return home, away

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


def holding(tournament: Tournament, fixture_id: str, code: str) -> Tournament:
    """The tournament, its fixture ``fixture_id`` holding match ``code``."""
    return replace(tournament, fixtures=tuple(replace(f, match=code) if f.id == fixture_id else f
                                              for f in tournament.fixtures))


def undrawn(tournament: Tournament) -> None:
    """Refuse a draw made again once a match of the draw is created, and one of fewer than two teams (it made no
    fixture, and said it was made)."""
    if any(fixture.match for fixture in tournament.fixtures):
        raise refused(InvalidQuery, "drawn")
    if len(tournament.teams) < 2:
        raise refused(InvalidQuery, "too-few-teams", teams=len(tournament.teams))


@contextlib.contextmanager
def said_for(code: str, slug: str, fixture: str, key: str) -> Iterator[None]:
    """The desk's refusal (:data:`DESK_REFUSALS`) of what a door stores under match ``code``, fixture ``fixture``'s
    of tournament ``slug``, said again as the [tournament-refusal] phrase ``key`` with its reason after: of the same
    class, so its answer's status stays."""
    try:
        yield
    except DESK_REFUSALS as err:
        reason = err.worded() or str(err)
        raise refused(type(err), key, code=code, slug=slug, fixture=fixture, reason=reason) from err


def _as_played(match: Match, field: str) -> Any:
    """A match.start's field as its match is played by it: the rule set's name (none named is the default set's),
    each team's goals by handicap (a team not named has none), a roster's players in any order; else as the engine
    reads it (which gives the defaults: 6 chukkers, a field of 300 yards)."""
    assert match.info is not None  # it has its match.start
    value = match.info.get(field)
    if field == "rules":
        return match.rules.name
    if field == "handicap_goals":
        given = value if isinstance(value, Mapping) else {}
        return {team: given.get(team, 0) for team in match.teams}
    if field == "rosters" and isinstance(value, Mapping):
        return {team: sorted(players, key=lambda player: orjson.dumps(player, option=orjson.OPT_SORT_KEYS))
                for team, players in value.items()}
    return value


def _shown(value: Any) -> str:
    text = orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    return text if len(text) <= SHOWN_CHARACTERS else text[:SHOWN_CHARACTERS - 1] + "…"


def _desks_own(data: Mapping[str, Any], slug: object = None, held: Mapping[str, str | None] | None = None) -> None:
    """Refuse what the desk records of its own doing, given with a tournament or its fixtures: the draw it made (its
    seed and algorithm; {"sed": ...} was stored as it came) and a fixture's match, opened or entered at the desk
    with its checks (a change that named any stored match a fixture's made it its result, unchecked). ``held``: each
    fixture's match now, which a change may give back as it is."""
    named = slug if isinstance(slug, str) else data.get("slug", "SLUG")
    if not DESKS_OWN.isdisjoint(data):
        raise refused(InvalidQuery, "draw-given", slug=named)
    fixtures = data.get("fixtures")
    for fixture in fixtures if isinstance(fixtures, list) else ():
        # (a match that is no text is refused by the fixture's reader, in its words)
        if isinstance(fixture, Mapping) and isinstance(fixture.get("match"), str) \
                and fixture["match"] != (held or {}).get(str(fixture.get("id"))):
            raise refused(InvalidQuery, "match-given", slug=named, fixture=fixture.get("id"))


def stored_over(slug: str, had: int, now: int | None) -> MatchstateError:
    """The refusal of a write made over version ``had`` of a tournament that is now at ``now`` (None: gone)."""
    return refused(NotFound, "unknown", slug=slug) if now is None else changed(slug, had, now)


def _within(tournament: Tournament, day: str) -> bool:
    return not ((tournament.starts and day < tournament.starts) or (tournament.ends and day > tournament.ends))


def _in_dates(tournament: Tournament, fixture_id: str, day: str) -> None:
    """Refuse fixture ``fixture_id`` on ``day`` where the tournament's dates leave it out."""
    if not _within(tournament, day):
        raise refused(InvalidQuery, "day-outside", day=day, fixture=fixture_id, starts=tournament.starts or "-",
                      ends=tournament.ends or "-")


def changed(slug: str, had: int, now: int) -> TournamentChanged:
    """The refusal of a change made from version ``had`` of a tournament another desk has stored over since."""
    return refused(TournamentChanged, "changed", now, slug=slug, had=had, now=now)
