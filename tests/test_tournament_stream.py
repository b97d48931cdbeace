"""A tournament's live scores in one stream (`GET /api/tournaments/{slug}/stream`), whatever the number of its
opened matches: its progress, then each append to any of them; a match opened later followed; an append through
another server told; the stream counted as one against a client's streams; a reconnection sent the progress again."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import league_store
from tournament_helpers import team

from matchstate.store import Store
from matchstate.tournaments.desk import Desk
from matchstate.web import live
from matchstate.web.access import hash_key, new_key
from matchstate.web.process import ServerProcess
from matchstate.web.service import Service
from matchstate.web.tournaments import live_fixtures, live_matches

LEAGUE_KEY = "tournament-stream-league-key"
LEAGUE = {"Authorization": f"Bearer {LEAGUE_KEY}"}
MATCHES = 9  # more than the six connections a browser opens to a server


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def day(matches: int = MATCHES) -> dict[str, Any]:
    """A tournament of ``matches`` fixtures, each between two teams of its own."""
    names = [f"Team {n}" for n in range(2 * matches)]
    return {"slug": "day", "name": "Busy day", "starts": "2026-12-07", "ends": "2026-12-07",
            "teams": [team(name, 0, 0, 0, 0) for name in names],
            "fixtures": [{"id": f"M{n}", "stage": "Day", "kind": "knockout", "round": 1, "home": names[2 * n],
                          "away": names[2 * n + 1]} for n in range(matches)]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that lets a client hold one live stream."""
    folder: Path = tmp_path_factory.mktemp("tournament-stream")
    url = f"sqlite:///{folder / 'stream.db'}"
    league_store(url, LEAGUE_KEY)
    with ServerProcess(url, log=folder / "server.log", options=["--streams-per-client", "1"]) as process:
        yield process


def messages(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """A stream's messages, (event, data), as they come; an id is a failure: none means anything here."""
    name = "message"
    for line in lines:
        assert not line.startswith("id:"), line
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            yield name, json.loads(line[6:])
            name = "message"


async def frames(events: AsyncIterator[bytes]) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """The messages of a stream the test reads itself, keepalives skipped, each within a bound that only guards
    against a hang."""
    while True:
        frame = await asyncio.wait_for(anext(events), 10)
        if not frame.startswith((b":", b"retry:")):
            assert not frame.startswith(b"id:")
            head, _, data = frame.partition(b"\ndata: ")
            yield head.removeprefix(b"event: ").decode(), json.loads(data)


def test_one_stream_carries_the_score_of_every_opened_match(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, timeout=10) as client:
        assert client.post("/api/tournaments", json=day(), headers=LEAGUE).status_code == 201
        keys = {f"M{n}": client.post(f"/api/tournaments/day/fixtures/M{n}/match", headers=LEAGUE).json()
                for n in range(MATCHES)}
        last = keys[f"M{MATCHES - 1}"]
        scorer = {"Authorization": f"Bearer {last['scorer_key']}"}

        def log(event: dict[str, Any]) -> None:
            reply = client.post(f"/api/matches/{last['code']}/events", json={"event": {**event, "at": now()}},
                                headers=scorer)
            assert reply.status_code == 201, reply.text

        assert client.get("/api/tournaments/nope/stream").status_code == 404
        with client.stream("GET", "/api/tournaments/day/stream") as stream:
            assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
            read = messages(stream.iter_lines())
            name, progress = next(read)
            assert name == "progress"
            assert [(f["id"], f["match"], f["status"], f["score"]) for f in progress["fixtures"]] == [
                (f"M{n}", keys[f"M{n}"]["code"], "scheduled", {f"Team {2 * n}": 0, f"Team {2 * n + 1}": 0})
                for n in range(MATCHES)]
            # The one stream a client may hold here is this one: it counts once, whatever it follows.
            assert client.get("/api/tournaments/day/stream").status_code == 429
            log({"type": "chukker.start", "chukker": 1})
            log({"type": "goal", "team": f"Team {2 * MATCHES - 1}"})
            appends = [data for name, data in (next(read), next(read))]
        assert [(a["match"]["code"], a["match"]["seq"], a["event"]["event"]["type"]) for a in appends] == [
            (last["code"], 2, "chukker.start"), (last["code"], 3, "goal")]
        assert appends[-1]["match"]["score"] == {f"Team {2 * MATCHES - 2}": 0, f"Team {2 * MATCHES - 1}": 1}
        # Reconnecting, as a browser does (a Last-Event-ID asks for nothing here): the progress says all.
        log({"type": "goal", "team": f"Team {2 * MATCHES - 1}"})
        with client.stream("GET", "/api/tournaments/day/stream", headers={"Last-Event-ID": "2"}) as stream:
            name, progress = next(messages(stream.iter_lines()))
        fixture = progress["fixtures"][-1]
        assert (name, fixture["seq"], fixture["status"], fixture["score"][f"Team {2 * MATCHES - 1}"]) == (
            "progress", 4, "playing", 2)


def test_a_match_opened_later_and_an_append_through_another_server_reach_the_stream(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(live, "KEEPALIVE_SECONDS", 0.05)  # how often the stream reads the tournament again
    service = Service(store)
    desk = Desk(store)
    desk.create(day(2))
    scorer = {}

    def opened(fixture: str) -> str:
        keys = {"scorer": new_key(), "official": new_key()}
        _, code = desk.open_match("day", fixture, {role: hash_key(made) for role, made in keys.items()})
        scorer[code] = keys["scorer"]
        return code

    first = opened("M0")

    async def run() -> None:
        events: AsyncGenerator[bytes, None] = live.tournament(service.hub, lambda: live_matches(service, "day"),
                                                              lambda: live_fixtures(service, "day"))
        read = frames(events)
        name, progress = await anext(read)
        assert name == "progress" and [f["match"] for f in progress["fixtures"]] == [first, None]
        later = await asyncio.to_thread(opened, "M1")
        while [f["match"] for f in progress["fixtures"]] != [first, later]:  # read again, the match found
            name, progress = await anext(read)
            assert name == "progress"
        # Appended through another server (the store, not this service's route): the watch catches the hub up.
        event = {"type": "chukker.start", "chukker": 1, "at": now()}
        await asyncio.to_thread(service.append, later, event, None, scorer[later])
        await service.catch_up_all()
        name, appended = await anext(read)
        assert (name, appended["match"]["code"], appended["match"]["seq"]) == ("append", later, 2)
        assert sorted(service.hub.watched()) == sorted([first, later])
        await events.aclose()
        assert service.hub.watched() == []  # an ended stream follows nothing

    asyncio.run(run())


def test_a_knockout_ended_level_is_sent_as_level_as_it_ends_and_as_playing_as_it_reopens(store: Store) -> None:
    """A knockout that ends level sends no one on, and a page loaded afresh says so; its stream said "ended" until a
    reload. The progress, with each fixture's status in the page's words, is sent again after an append that ends
    a match or reopens it."""
    service = Service(store)
    desk = Desk(store)
    desk.create(day(1))
    keys = {"scorer": new_key(), "official": new_key()}
    _, code = desk.open_match("day", "M0", {role: hash_key(made) for role, made in keys.items()})

    async def logged(role: str, event: dict[str, Any]) -> None:
        await asyncio.to_thread(service.append, code, {**event, "at": now()}, None, keys[role])
        await service.catch_up_all()

    async def run() -> None:
        events: AsyncGenerator[bytes, None] = live.tournament(service.hub, lambda: live_matches(service, "day"),
                                                              lambda: live_fixtures(service, "day"))
        read = frames(events)
        assert (await anext(read))[1]["fixtures"][0]["status"] == "scheduled"
        for event in ({"type": "chukker.start", "chukker": 1}, {"type": "chukker.end", "chukker": 1},
                      {"type": "match.end"}):
            await logged("scorer", event)
        said = [await anext(read) for _ in range(4)]
        assert [name for name, _ in said] == ["append", "append", "append", "progress"]
        assert (said[-1][1]["fixtures"][0]["status"], said[-1][1]["fixtures"][0]["seq"]) == ("level", 4)
        await logged("official", {"type": "void", "seq": 4, "reason": "a knockout is decided by play"})
        said = [await anext(read) for _ in range(2)]
        assert [name for name, _ in said] == ["append", "progress"]
        assert said[-1][1]["fixtures"][0]["status"] == "playing"
        await events.aclose()

    asyncio.run(run())
