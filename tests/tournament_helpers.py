"""Shared helpers of the tournament desk's tests: entered teams, and matches played to a result."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from matchstate.store import Store
from matchstate.tournaments.desk import Desk
from matchstate.web import create_app
from matchstate.web.access import hash_key

KEYS = {"scorer": "s-hash", "official": "o-hash"}


def desk_client(store: Store, league: str) -> Iterator[TestClient]:
    """A client of the app on ``store``, whose league key is ``league``."""
    store.set_league_key(hash_key(league))
    with TestClient(create_app(store)) as client:
        yield client


def at(n: int) -> str:
    """``n`` seconds from now, as an event's ``at``."""
    return (datetime.now(UTC) + timedelta(seconds=n)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def team(name: str, *handicaps: int) -> dict[str, Any]:
    """A team entry; its roster's players numbered 1 to 4, named after the team."""
    return {"name": name, "roster": [{"player": n, "name": f"{name} {n}", "handicap": h}
                                     for n, h in enumerate(handicaps or (2, 2, 2, 2), 1)]}


def new_tournament(desk: Desk, slug: str, teams: list[dict[str, Any]], **fields: object) -> None:
    desk.create({"slug": slug, "name": f"Copa {slug}", "starts": "2026-12-01", "ends": "2026-12-20",
                 "venue": "Pilar", **fields, "teams": teams})


class Played:
    """Each match of a test played as the scorer would log it: a chukker, the goals, its end, match.end."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.ends: dict[str, int] = {}  # match code → the seq of its match.end

    def log(self, code: str, kind: str, **fields: object) -> int:
        snapshot = self.store.match(code)
        at = (snapshot.last_at + timedelta(seconds=5)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        role = "official" if kind in ("void", "card") else "scorer"
        appended = self.store.append(code, {"type": kind, "at": at, **fields}, role=role)
        return appended.event.seq

    def play(self, desk: Desk, slug: str, fixture: str, home_goals: int, away_goals: int) -> str:
        """Open the fixture's match and play it to ``home_goals`` against ``away_goals`` from the field
        (handicap goals come on top)."""
        _, code = desk.open_match(slug, fixture, KEYS)
        home, away = self.store.match(code).teams
        self.log(code, "chukker.start", chukker=1)
        for name, goals in ((home, home_goals), (away, away_goals)):
            for _ in range(goals):
                self.log(code, "goal", team=name)
        self.log(code, "chukker.end", chukker=1)
        self.ends[code] = self.log(code, "match.end")
        return code

    def win(self, desk: Desk, slug: str, fixture: str, winner: str) -> str:
        """Play the fixture so that ``winner`` wins by one goal, whatever the goals by handicap."""
        _, code = desk.open_match(slug, fixture, KEYS)
        snapshot = self.store.match(code)
        loser = next(name for name in snapshot.teams if name != winner)
        needed = int(snapshot.score[loser] - snapshot.score[winner]) + 1
        self.log(code, "chukker.start", chukker=1)
        for _ in range(max(needed, 1)):
            self.log(code, "goal", team=winner)
        self.log(code, "chukker.end", chukker=1)
        self.ends[code] = self.log(code, "match.end")
        return code

    def void_end(self, code: str) -> None:
        self.log(code, "void", seq=self.ends[code], reason="the result was entered too soon")
