"""Security headers on every page and answer, and the Host header checked (DNS rebinding), as a browser or an
attacker's page would meet them."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.headers import allowed_hosts
from matchstate.web.limits import Limits

# What a browser runs (a page, a script: the service worker's policy is its own), and what it does not.
RUN = ["/", "/matches/h-1/console", "/matches/h-1/review", "/matches/h-1/sheet", "/scoreboard", "/stats", "/docs",
       "/sw.js", "/static/page.mjs"]
NOT_RUN = ["/api/time", "/api/matches/nowhere", "/static/style.css", "/openapi.json", "/no-such-page",
           "/manifest.webmanifest", "/static/icon-192.png"]


@pytest.fixture
def local(store: Store) -> Iterator[TestClient]:
    """A server bound to 127.0.0.1, its Host checked as `matchstate serve` checks it by default."""
    with TestClient(create_app(store, hosts=allowed_hosts("127.0.0.1", "")),
                    base_url="http://127.0.0.1:8000") as client:
        yield client


@pytest.mark.parametrize("path", RUN + NOT_RUN)
def test_every_answer_carries_the_security_headers(local: TestClient, path: str) -> None:
    answer = local.get(path, headers={"accept": "text/html"} if path in RUN else {})  # as the browser opens a page
    assert answer.status_code < 500
    policy = answer.headers["content-security-policy"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "frame-ancestors 'none'" in policy
    if path in RUN:
        assert "script-src 'self'" in policy and "connect-src 'self'" in policy
    else:  # nothing in it runs: the policy allows nothing, in a sixth of the bytes
        assert policy == "default-src 'none'; frame-ancestors 'none'"
    assert answer.headers["x-frame-options"] == "DENY" and answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize("path", ["/static/bundle-page.mjs", "/static/style.css", "/api/rules"])
def test_a_304_carries_the_policy_of_the_answer_it_stands_for(local: TestClient, path: str) -> None:
    """A 304 updates the headers kept with the browser's copy: a stylesheet's or JSON's had the pages' policy."""
    first = local.get(path)
    again = local.get(path, headers={"if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and "content-type" not in again.headers
    assert again.headers["content-security-policy"] == first.headers["content-security-policy"]
    assert again.headers.get_list("content-security-policy") == [first.headers["content-security-policy"]]


def test_a_refusal_by_the_limits_carries_them_too(store: Store) -> None:
    with TestClient(create_app(store, limits=Limits(anonymous_per_second=0.01, clock=lambda: 0.0))) as client:
        answers = [client.get("/api/time") for _ in range(3)]
    assert answers[-1].status_code == 429 and answers[-1].headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "192.168.1.5"])
def test_a_host_the_server_does_not_answer_to_is_refused(local: TestClient, host: str) -> None:
    refused = local.get("/api/time", headers={"Host": host})
    assert refused.status_code == 400
    assert "does not answer to the host" in refused.json()["detail"] and "es" in refused.json()["words"]
    assert refused.headers["content-security-policy"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000"])
def test_the_bound_address_and_localhost_are_answered(local: TestClient, host: str) -> None:
    assert local.get("/api/time", headers={"Host": host}).status_code == 200


def test_allowed_hosts_are_given_by_option_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert allowed_hosts("127.0.0.1") == frozenset({"127.0.0.1", "localhost", "::1"})
    assert allowed_hosts("127.0.0.1", "scores.example, Other.Example") == frozenset({"scores.example", "other.example"})
    assert allowed_hosts("127.0.0.1", "*") is None  # any: a proxy in front checks it
    monkeypatch.setenv("MATCHSTATE_ALLOWED_HOSTS", "field.example")
    assert allowed_hosts("127.0.0.1") == frozenset({"field.example"})


def test_the_process_health_alone_is_answered_whatever_the_host(store: Store) -> None:
    """A container's health check asks 127.0.0.1: compose's list of allowed hosts refused it, and the container never
    became healthy. The health of the process says nothing a rebinding page could use; nothing else is answered."""
    with TestClient(create_app(store, hosts=allowed_hosts("0.0.0.0", "pitch.lan,localhost"))) as client:
        assert client.get("/healthz", headers={"Host": "127.0.0.1:8000"}).status_code == 200
        for path in ("/readyz", "/api/time", "/"):
            assert client.get(path, headers={"Host": "127.0.0.1:8000"}).status_code == 400


def test_bound_to_every_address_any_ip_is_answered_but_no_other_name(store: Store, monkeypatch:
                                                                      pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MATCHSTATE_ALLOWED_HOSTS", raising=False)
    with TestClient(create_app(store, hosts=allowed_hosts("0.0.0.0"))) as client:
        assert client.get("/api/time", headers={"Host": "192.168.1.5:8000"}).status_code == 200
        assert client.get("/api/time", headers={"Host": "rebound.example"}).status_code == 400
