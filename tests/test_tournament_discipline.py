"""The discipline ledger against the rule's cases: two yellow cards sit a player out of the first two minutes of
the next game of equal or higher handicap for the same team; not a lower one; not served in a consolation game,
a first round of a subsidiary tournament or a shootout."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from matchstate.tournaments.discipline import Card, Game, ledger, sit_outs

DAY = datetime(2026, 12, 1, 15, tzinfo=UTC)


def game(code: str, day: int, level: int | None, teams: tuple[str, str] = ("Blue", "Red"), **flags: bool) -> Game:
    return Game(code, teams, DAY + timedelta(days=day), level, **flags)


def yellow(code: str, day: int, name: str = "Ana", team: str = "Blue", colour: str = "yellow") -> Card:
    return Card(code, 5, DAY + timedelta(days=day, minutes=20), team, 2, name, colour)


def served(cards: list[Card], games: list[Game]) -> dict[str, list[str]]:
    records = ledger(cards, games).values()
    found = {game.match: [s.name for s in sit_outs(records, game.match)] for game in games}
    return {code: names for code, names in found.items() if names}


def test_two_yellows_sit_the_player_out_of_the_next_game_of_equal_handicap() -> None:
    games = [game("m1", 0, 12), game("m2", 1, 12), game("m3", 2, 12)]
    records = ledger([yellow("m1", 0), yellow("m1", 0)], games)
    (suspension,) = records["Blue", "Ana"].suspensions
    assert (suspension.served_in, suspension.seconds, suspension.earned_in) == ("m2", 120, "m1")
    assert served([yellow("m1", 0), yellow("m1", 0)], games) == {"m2": ["Ana"]}


def test_yellows_in_two_games_add_up_and_one_is_not_enough() -> None:
    games = [game("m1", 0, 12), game("m2", 1, 12), game("m3", 2, 16)]
    assert served([yellow("m1", 0)], games) == {}
    assert served([yellow("m1", 0), yellow("m2", 1)], games) == {"m3": ["Ana"]}  # higher handicap: served


def test_not_served_in_a_game_of_lower_handicap() -> None:
    games = [game("m1", 0, 16), game("low", 1, 8), game("m3", 2, 16)]
    records = ledger([yellow("m1", 0), yellow("m1", 0)], games)
    (suspension,) = records["Blue", "Ana"].suspensions
    assert suspension.served_in == "m3" and suspension.passed == ("low",)


def test_not_served_in_a_consolation_game_a_subsidiary_first_round_or_a_shootout() -> None:
    games = [game("m1", 0, 12), game("plate", 1, 12, consolation=True),
             game("sub", 2, 12, subsidiary_first_round=True), game("pens", 3, 12, shootout=True), game("m5", 4, 12)]
    (suspension,) = ledger([yellow("m1", 0), yellow("m1", 0)], games)["Blue", "Ana"].suspensions
    assert suspension.served_in == "m5" and suspension.passed == ("plate", "sub", "pens")


def test_only_for_the_same_team_and_only_for_yellows() -> None:
    games = [game("m1", 0, 12), game("other", 1, 12, teams=("Green", "Gold")), game("m3", 2, 12)]
    assert served([yellow("m1", 0), yellow("m1", 0)], games) == {"m3": ["Ana"]}
    assert served([yellow("m1", 0), yellow("m1", 0, colour="red")], games) == {}
    assert served([yellow("m1", 0), yellow("m1", 0, name="Bea")], games) == {}


def test_a_suspension_with_no_eligible_game_ahead_waits() -> None:
    (suspension,) = ledger([yellow("m1", 0), yellow("m1", 0)], [game("m1", 0, 12)])["Blue", "Ana"].suspensions
    assert suspension.served_in is None
