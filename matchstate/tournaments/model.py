"""A tournament as the host committee sets it: conditions, entered teams, the draw's fixtures."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date
from typing import Any, TypeVar

from ..errors import InvalidQuery
from ..rules import RULE_SETS
from ..words import phrase
from .fields import (
    addressed,
    entry,
    flag,
    known_fields,
    listed,
    object_or_none,
    required,
    shown,
    text,
    text_or_none,
    texts,
    whole,
    whole_or_none,
    without_nul,
)
from .refusals import refused
from .when import DAY, kickoff

T = TypeVar("T")

TIEBREAKS = ("wins", "net", "gross", "head_to_head", "shootout")
DEFAULT_TIEBREAKS = ("wins", "net", "gross")
# Where a fixture's team comes from: a team, the winner or loser of a fixture, a place in a group.
SOURCE_KINDS = ("team", "winner", "loser", "place")
FIXTURE_KINDS = ("group", "knockout", "shootout")
MIN_HANDICAP, MAX_HANDICAP = -2, 10  # a player's, as USPA rates them


@dataclass(frozen=True, slots=True)
class Player:
    player: int  # the number worn, 1 to 4
    name: str
    handicap: int


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    roster: tuple[Player, ...]

    @property
    def handicap(self) -> int:
        return sum(player.handicap for player in self.roster)


@dataclass(frozen=True, slots=True)
class Conditions:
    """The tournament conditions that matter to the desk."""

    rules: str = "uspa-2026"
    chukkers: int = 6
    penalty3_defended: bool = True
    handicap_min: int | None = None
    handicap_max: int | None = None  # the tournament's level: "a 20-goal tournament"
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS


@dataclass(frozen=True, slots=True)
class Source:
    """``team`` (``ref`` its name), ``winner``/``loser`` (``ref`` a fixture's id) or ``place`` (``ref`` a
    group's name, ``place`` from 1)."""

    kind: str
    ref: str
    place: int = 0

    def label(self) -> str:
        return self.ref if self.kind == "team" else f"{self.kind}:{self.ref}" + (f":{self.place}" if self.place else "")

    def said(self, lang: str) -> str:
        """Where the team comes from, in words: "winner of Cup-R1-2", "Group A, place 1"."""
        if self.kind == "team":
            return self.ref
        return phrase("tournament", f"from-{self.kind}", lang, ref=self.ref, place=self.place)


@dataclass(frozen=True, slots=True)
class Fixture:
    """One match of the tournament. ``stage`` is its group's or bracket's name; ``consolation`` and
    ``subsidiary_first_round`` say where a suspension may not be served; ``match`` the code of its match
    once it has one."""

    id: str
    stage: str
    kind: str
    round: int
    home: Source
    away: Source
    day: str = ""
    time: str = ""
    field: str = ""
    match: str | None = None
    consolation: bool = False
    subsidiary_first_round: bool = False


@dataclass(frozen=True, slots=True)
class Tournament:
    slug: str
    name: str
    starts: str
    ends: str
    venue: str = ""
    conditions: Conditions = field(default_factory=Conditions)
    teams: tuple[Team, ...] = ()
    fixtures: tuple[Fixture, ...] = ()
    draw: dict[str, Any] | None = None  # the seed and the algorithm's version, where the tool made the draw
    officials: tuple[str, ...] = ()

    def team(self, name: str) -> Team:
        for team in self.teams:
            if team.name == name:
                return team
        raise refused(InvalidQuery, "unknown-team", team=name, slug=self.slug)

    def fixture(self, fixture_id: str) -> Fixture:
        for fixture in self.fixtures:
            if fixture.id == fixture_id:
                return fixture
        raise refused(InvalidQuery, "unknown-fixture", fixture=fixture_id, slug=self.slug)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def source_of(data: Any) -> Source:
    """Where a fixture's team comes from: a team's name, or ``{kind, ref}`` (and ``place``, for a place)."""
    if isinstance(data, str):
        return Source("team", data)
    if not isinstance(data, Mapping):
        raise refused(InvalidQuery, "not-source", value=shown(data))
    kind = data.get("kind", "team")
    if kind not in SOURCE_KINDS:
        raise refused(InvalidQuery, "bad-field", name="kind", value=shown(kind), allowed=", ".join(SOURCE_KINDS))
    return Source(kind, text(data, "ref"), whole(data, "place", 0))


def fixture_of(data: Any, *, stored: bool = False) -> Fixture:
    """A fixture from its JSON; ``stored``: as the store keeps it, where a match that is not a match's code
    (kept before the door checked it) reads as no match rather than fails each read of the league."""
    data = entry(data, "fixtures")
    kind = data.get("kind", "group")
    if kind not in FIXTURE_KINDS:
        raise refused(InvalidQuery, "bad-field", name="kind", value=shown(kind), allowed=", ".join(FIXTURE_KINDS))
    if stored:
        fixture_id, match = text(data, "id"), data.get("match")
        day, time = data.get("day", ""), data.get("time", "")
    else:
        match = text_or_none(data, "match")
        day, time = text(data, "day", ""), text(data, "time", "")
        kickoff(day, time)
        fixture_id = addressed(data, "id")  # its routes name it: /api/tournaments/{slug}/fixtures/{id}/...
    return Fixture(id=fixture_id, stage=text(data, "stage", ""), kind=kind, round=whole(data, "round", 1),
                   home=source_of(required(data, "home")), away=source_of(required(data, "away")), day=day, time=time,
                   field=text(data, "field", ""), match=match if isinstance(match, str) else None,
                   consolation=flag(data, "consolation", False),
                   subsidiary_first_round=flag(data, "subsidiary_first_round", False))


def conditions_of(data: Any, *, stored: bool = False) -> Conditions:
    data = entry(data, "conditions")
    tiebreaks = texts(data, "tiebreaks") if "tiebreaks" in data else DEFAULT_TIEBREAKS
    for name in tiebreaks:
        if name not in TIEBREAKS:
            raise refused(InvalidQuery, "bad-field", name="tiebreaks", value=name, allowed=", ".join(TIEBREAKS))
    rules = text(data, "rules", "uspa-2026")
    if rules not in RULE_SETS:
        raise refused(InvalidQuery, "bad-field", name="rules", value=rules, allowed=", ".join(RULE_SETS))
    chukkers = whole(data, "chukkers", 6)
    if not 1 <= chukkers <= 8:
        raise refused(InvalidQuery, "bad-field", name="chukkers", value=chukkers, allowed="1-8")
    return Conditions(rules=rules, chukkers=chukkers, penalty3_defended=flag(data, "penalty3_defended", True),
                      handicap_min=whole_or_none(data, "handicap_min", stored=stored),
                      handicap_max=whole_or_none(data, "handicap_max", stored=stored), tiebreaks=tiebreaks)


def player_of(data: Any) -> Player:
    data = entry(data, "roster")
    return Player(whole(data, "player"), text(data, "name"), whole(data, "handicap"))


def team_of(data: Any, conditions: Conditions) -> Team:
    data = entry(data, "teams")
    roster = tuple(player_of(player) for player in listed(data, "roster"))
    team = Team(text(data, "name"), roster)
    low, high = conditions.handicap_min, conditions.handicap_max
    under, over = low is not None and team.handicap < low, high is not None and team.handicap > high
    if roster and (under or over):
        both = low is not None and high is not None
        said = "handicap-out" if both else "handicap-under" if under else "handicap-over"
        raise refused(InvalidQuery, said, team=team.name, handicap=team.handicap, low=low, high=high)
    return team


def entered(team: Team) -> None:
    """Refuse what no match could take of a team entered at the door: no name, a number worn twice, a name given
    twice, a handicap no player has (USPA's run from -2 to 10)."""
    if not team.name.strip():
        raise refused(InvalidQuery, "team-unnamed")
    if twice := given_twice(team.roster, lambda player: player.player):
        raise refused(InvalidQuery, "player-twice", team=team.name, player=twice.player)
    # The discipline ledger and the statistics know a player by team and name: two alike would share their cards.
    if named := given_twice(team.roster, lambda player: told(player.name)):
        raise refused(InvalidQuery, "player-named-twice", team=team.name, name=named.name)
    for player in team.roster:
        if not MIN_HANDICAP <= player.handicap <= MAX_HANDICAP:
            raise refused(InvalidQuery, "player-handicap", team=team.name, name=player.name, handicap=player.handicap)


def told(name: str) -> str:
    """A name as one is told from another: "Ann" and "ANN " are one."""
    return " ".join(name.casefold().split())


def given_twice(items: Sequence[T], key: Callable[[T], Hashable]) -> T | None:
    """The first of ``items`` whose ``key`` another of them has too, else None."""
    keys = [key(item) for item in items]
    return next((item for item, one in zip(items, keys, strict=True) if keys.count(one) > 1), None)


def dated(starts: str, ends: str) -> None:
    """Refuse a tournament's dates that do not read as days, or that end before they start (either may be left
    out)."""
    try:
        days = [date.fromisoformat(day) for day in (starts, ends) if day and DAY.fullmatch(day)]
    except ValueError:
        days = []
    if len(days) != len([day for day in (starts, ends) if day]) or (len(days) == 2 and days[1] < days[0]):
        raise refused(InvalidQuery, "dates", starts=starts or "-", ends=ends or "-")


def tournament_of(data: Mapping[str, Any], *, stored: bool = False) -> Tournament:
    """A tournament from its JSON as the API takes it, checked; ``stored``: as the store keeps it, where what
    was kept before the door checked it reads as nothing (no match, no limit, unscheduled, a place not decided)
    rather than fail every read of the league."""
    try:
        if not stored:
            without_nul(data)
            known_fields(data, Tournament)
        conditions = conditions_of(data.get("conditions", {}), stored=stored)
        teams = tuple(team_of(team, conditions) for team in listed(data, "teams"))
        if not stored:
            for team in teams:
                entered(team)
        if twice := given_twice(teams, lambda team: told(team.name)):  # "Ann" and "ANN " are one team
            raise refused(InvalidQuery, "team-twice", team=twice.name)
        fixtures = tuple(fixture_of(fixture, stored=stored) for fixture in listed(data, "fixtures"))
        slug = addressed(data, "slug")
        made = Tournament(slug=slug, name=text(data, "name"), starts=text(data, "starts", ""),
                          ends=text(data, "ends", ""), venue=text(data, "venue", ""), conditions=conditions,
                          teams=teams, fixtures=fixtures, draw=object_or_none(data, "draw", stored=stored),
                          officials=texts(data, "officials"))
    except (TypeError, ValueError, AttributeError) as err:
        if isinstance(err, InvalidQuery):
            raise
        raise refused(InvalidQuery, "unreadable", error=str(err)) from None
    if twice_fixture := given_twice(fixtures, lambda fixture: fixture.id):
        raise refused(InvalidQuery, "fixture-twice", fixture=twice_fixture.id)
    if not stored:
        dated(made.starts, made.ends)
        for fixture in fixtures:
            if fixture.home.kind == "team" and fixture.home == fixture.away:
                raise refused(InvalidQuery, "fixture-self", fixture=fixture.id, team=fixture.home.ref)
    worn = sorted({player.player for team in teams for player in team.roster} - {1, 2, 3, 4})
    if worn and not stored:  # the numbers a match's roster takes
        raise refused(InvalidQuery, "bad-field", name="player", value=worn[0], allowed="1, 2, 3, 4")
    groups: dict[str, set[Source]] = {}  # each group's teams, as its fixtures name them
    for fixture in fixtures:
        if fixture.kind == "group":
            groups.setdefault(fixture.stage, set()).update((fixture.home, fixture.away))
    for fixture in fixtures:
        for source in (fixture.home, fixture.away):
            if source.kind == "team":
                made.team(source.ref)
            elif source.kind in ("winner", "loser"):
                made.fixture(source.ref)
            elif not stored:
                placed(made, source, groups)
    return made


def placed(tournament: Tournament, source: Source, groups: Mapping[str, set[Source]]) -> None:
    """Refuse a place from a group that is none of the tournament's (no group fixture has that stage), or that
    its table never has (place 1 is the top; the last is its number of teams: a place beyond it waited for ever)."""
    if source.ref not in groups:
        raise refused(InvalidQuery, "unknown-group", slug=tournament.slug, group=source.ref, place=source.place)
    if source.place < 1:
        raise refused(InvalidQuery, "no-place", group=source.ref, place=source.place)
    if source.place > (teams := len(groups[source.ref])):
        raise refused(InvalidQuery, "place-beyond", group=source.ref, place=source.place, teams=teams)
