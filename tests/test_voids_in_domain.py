"""Who may void what, and an official's late void re-stamped, are the domain's rules (matchstate.authority),
applied by the store in the append's one transaction: a void costs what any append costs, one transaction and
one key check, where it cost five and two when the web layer read the log first."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import pytest
from conftest import BLUE, RED
from fastapi.testclient import TestClient

from matchstate import authority
from matchstate.errors import AccessDenied
from matchstate.store import Store
from matchstate.store import keys as keyring
from matchstate.web import create_app
from matchstate.web.access import hash_key
from matchstate.web.limits import Limits

CODE = "void-1"
LEAGUE_KEY = "void-league-key"
NOW = datetime.now(UTC)


def at(seconds: float) -> str:
    return (NOW + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store, limits=Limits(anonymous_per_second=1e6, keyed_per_second=1e6))) as client:
        yield client


def counted(store: Store, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count, from now on, the store's transactions and the key checks (a key's rows read and judged)."""
    counts = {"transactions": 0, "key checks": 0}
    transaction = store.database.transaction

    @contextmanager
    def counting(write: bool = False) -> Iterator[object]:
        counts["transactions"] += 1
        with transaction(write) as connection:
            yield connection

    monkeypatch.setattr(store.database, "transaction", counting)
    for name in ("role_of", "role_held"):
        checked = getattr(keyring, name)

        def check(*args: object, checked: object = checked) -> object:
            counts["key checks"] += 1
            return checked(*args)  # type: ignore[operator]

        monkeypatch.setattr(keyring, name, check)
    return counts


def test_an_officials_void_costs_one_transaction_and_one_key_check_like_any_append(
        store: Store, client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    store.set_league_key(hash_key(LEAGUE_KEY))
    created = client.post("/api/matches", json={"type": "match.start", "at": at(-3600), "match": CODE,
                                                "teams": [BLUE, RED]},
                          headers={"Authorization": f"Bearer {LEAGUE_KEY}"}).json()
    official = {"Authorization": f"Bearer {created['official_key']}"}
    scorer = {"Authorization": f"Bearer {created['scorer_key']}"}

    def post(event: dict[str, object], headers: dict[str, str]) -> dict[str, object]:
        answer = client.post(f"/api/matches/{CODE}/events", json={"event": event}, headers=headers)
        assert answer.status_code == 201, answer.text
        return answer.json()  # type: ignore[no-any-return]

    post({"type": "chukker.start", "chukker": 1, "at": at(-60)}, scorer)
    counts = counted(store, monkeypatch)
    goal = post({"type": "goal", "team": BLUE, "at": at(-50)}, scorer)
    a_goal = dict(counts)
    counts.update({"transactions": 0, "key checks": 0})
    # The official's device clock is behind the goal's: the rules stamp the void with the goal's `at`.
    void = post({"type": "void", "seq": 3, "reason": "no goal", "at": at(-55)}, official)

    assert counts == a_goal and a_goal["key checks"] == 1
    assert void["event"]["at"] == goal["event"]["at"] and void["match"]["void"] == [3]  # type: ignore[index]


def test_a_scorer_is_refused_the_void_of_an_officials_event_in_the_appends_transaction(
        store: Store, client: TestClient) -> None:
    store.set_league_key(hash_key(LEAGUE_KEY))
    created = client.post("/api/matches", json={"type": "match.start", "at": at(-3600), "match": CODE,
                                                "teams": [BLUE, RED]},
                          headers={"Authorization": f"Bearer {LEAGUE_KEY}"}).json()
    whistle = client.post(f"/api/matches/{CODE}/events", json={"event": {"type": "whistle", "at": at(-9)}},
                          headers={"Authorization": f"Bearer {created['official_key']}"})
    assert whistle.status_code == 201
    refused = client.post(f"/api/matches/{CODE}/events",
                          json={"event": {"type": "void", "seq": 2, "reason": "x", "at": at(-5)}},
                          headers={"Authorization": f"Bearer {created['scorer_key']}"})
    assert refused.status_code == 403 and store.match(CODE).seq == 2


def test_the_rules_of_who_may_void_what() -> None:
    newest = NOW
    void = {"type": "void", "seq": 2, "reason": "x", "at": at(-10)}
    assert authority.admit(void, authority.OFFICIAL, authority.SCORER, newest) == newest.isoformat()
    assert authority.admit({**void, "at": at(10)}, authority.OFFICIAL, authority.SCORER, newest) is None
    assert authority.admit(void, authority.SCORER, authority.SCORER, newest) is None  # the engine judges its at
    with pytest.raises(AccessDenied):
        authority.admit(void, authority.SCORER, authority.OFFICIAL, newest)
    with pytest.raises(AccessDenied):
        authority.admit({"type": "decide", "at": at(0)}, authority.SCORER, None, newest)
    assert authority.struck(void, 1) is None and authority.struck(void, 2) == 2
    assert authority.struck({**void, "seq": True}, 5) is None
