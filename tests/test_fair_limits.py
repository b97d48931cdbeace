"""Fair limits, on SQLite and PostgreSQL: a made-up key buys nothing, concurrent guessers get the documented
rate and no more, a scorer is never refused for another client's guesses from its address, and a forwarded
address counts only from a configured proxy. The limits' clock is the test's: it stands still unless moved."""

from __future__ import annotations

import asyncio
import secrets
import warnings
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED

from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.access import hash_key
from matchstate.web.limits import BURST_SECONDS, Limits

CODE = "fair-1"
LEAGUE_KEY = "fair-league-key"


class Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def at() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


@pytest.fixture
def clock() -> Clock:
    return Clock()


def scorer_key(client: TestClient | httpx.Client, store: Store) -> str:
    """A match made with the league's key (given a generous rate by the test's clock); its scorer's key."""
    store.set_league_key(hash_key(LEAGUE_KEY))
    made = client.post("/api/matches", headers=bearer(LEAGUE_KEY), json={
        "type": "match.start", "at": (datetime.now(UTC) - timedelta(hours=1)).isoformat(), "match": CODE,
        "teams": [BLUE, RED], "id": "fair/1"})
    assert made.status_code == 201, made.text
    return str(made.json()["scorer_key"])


@pytest.fixture
def slow(store: Store, clock: Clock) -> Iterator[TestClient]:
    """A service allowing 1 request a second without a key, 2 with one, on the test's clock."""
    with TestClient(create_app(store, limits=Limits(anonymous_per_second=1, keyed_per_second=2,
                                                    clock=clock))) as client:
        yield client


def served(client: TestClient, headers: dict[str, str] | None = None, count: int = 3 * BURST_SECONDS) -> int:
    """How many of ``count`` requests for the server's time are answered (not 429), the clock standing still."""
    return sum(client.get("/api/time", headers=headers).status_code != 429 for _ in range(count))


def test_made_up_keys_get_429_as_soon_as_no_key_would(slow: TestClient, clock: Clock) -> None:
    assert served(slow, None) == BURST_SECONDS
    clock.now += 10 * BURST_SECONDS  # a full bucket again
    assert sum(slow.get("/api/time", headers=bearer(secrets.token_hex(16))).status_code != 429
               for _ in range(3 * BURST_SECONDS)) == BURST_SECONDS
    refused = slow.get("/api/time", headers=bearer("yet-another"))
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "too many requests" in refused.json()["detail"] and "es" in refused.json()["words"]


def test_concurrent_guessers_get_no_more_than_the_documented_rate(store: Store, clock: Clock) -> None:
    app = create_app(store, limits=Limits(anonymous_per_second=1, keyed_per_second=1e6, clock=clock))

    async def guesses() -> list[int]:
        transport = httpx.ASGITransport(app=app, client=("192.0.2.7", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            answers = await asyncio.gather(*(client.get(f"/api/matches/{CODE}/role", headers=bearer(f"guess-{n}"))
                                             for n in range(64)))
        return [answer.status_code for answer in answers]

    with TestClient(app) as client:
        scorer_key(client, store)
        codes = asyncio.run(guesses())
    assert codes.count(403) == BURST_SECONDS and codes.count(429) == 64 - BURST_SECONDS  # a burst's worth


def test_a_scorer_is_never_refused_for_another_clients_guesses_from_its_address(slow: TestClient, store: Store,
                                                                                clock: Clock) -> None:
    key = scorer_key(slow, store)
    for n in range(40):  # a guesser beside the scorer, far past its budget, the clock moving a second a round
        clock.now += 1
        for _ in range(3):
            assert slow.get(f"/api/matches/{CODE}/role", headers=bearer(f"wrong-{n}")).status_code in (403, 429)
        appended = slow.post(f"/api/matches/{CODE}/events", headers=bearer(key), json={"event": {
            "type": "chukker.start" if n == 0 else "tick", "at": at(), "id": f"fair/s{n}", "chukker": 1}})
        assert appended.status_code in (201, 422), (n, appended.text)  # never 429
    guessed = slow.get(f"/api/matches/{CODE}/role", headers=bearer("wrong-again"))
    assert guessed.status_code == 429  # the guesser is still held to its budget


def test_a_revoked_key_is_counted_as_a_guess_again(slow: TestClient, store: Store, clock: Clock) -> None:
    key = scorer_key(slow, store)
    for n in range(BURST_SECONDS):  # the address's guesses used up: the scorer's key is looked up, and known
        slow.get(f"/api/matches/{CODE}/role", headers=bearer(f"wrong-{n}"))
    assert slow.get(f"/api/matches/{CODE}/role", headers=bearer(key)).status_code == 200
    store.revoke_key(CODE, "scorer")
    assert slow.get(f"/api/matches/{CODE}/role", headers=bearer(key)).status_code == 403
    assert slow.get(f"/api/matches/{CODE}/role", headers=bearer(key)).status_code == 429


@pytest.mark.parametrize("proxies", [(), ("192.0.2.0/24",)])
def test_a_forwarded_address_counts_only_from_a_configured_proxy(store: Store, clock: Clock,
                                                                 proxies: tuple[str, ...]) -> None:
    app = create_app(store, limits=Limits(anonymous_per_second=1, forwarded_allow_ips=proxies, clock=clock))
    transport = httpx.ASGITransport(app=app, client=("192.0.2.7", 4000))

    async def asks() -> int:
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            answers = [await client.get("/api/time", headers={"X-Forwarded-For": f"203.0.113.{n % 3}, 192.0.2.9"})
                       for n in range(9 * BURST_SECONDS)]
        return sum(answer.status_code != 429 for answer in answers)

    # From a configured proxy, three clients behind it, each its own budget; from anyone else, one address.
    assert asyncio.run(asks()) == (3 if proxies else 1) * BURST_SECONDS
