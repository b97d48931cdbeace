"""Request limits per client: how fast a client may ask, and how many live streams it may hold open.

Each client address has a bucket of requests that refills at a steady rate. A request with a key known to
hold a role draws from that key's own, larger bucket instead, so a scorer catching up on a queue of events
is not slowed by the spectators or the guessers on the same network. Any other key (unknown, or wrong) is
charged to its address's anonymous bucket and to its bucket of guesses, as fast as the anonymous one, both
taken as the request arrives: a made-up key buys nothing, and concurrent guessers get no more than the rate.
A key is learned to hold a role when its address's budget would refuse it: it is then looked up (one
indexed read, at most ``keyed_per_second`` of them an address), and a key that holds one is never again
refused for its address's guesses. Over a limit, the answer is 429 with ``Retry-After``.

The client's address is the connection's, or, from a proxy listed in ``forwarded_allow_ips``, the nearest
address in ``X-Forwarded-For`` that is not one of those proxies. The buckets read the clock they are given
(:data:`Limits.clock`), so a test drives time itself.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import MatchstateError

BURST_SECONDS = 12  # a bucket holds this many seconds of its rate: a page loading, a queue sent at once
MAX_CLIENTS = 10_000  # buckets (and keys known good) kept before the full ones (the oldest) are forgotten
STREAM_PATH = re.compile(r"^/api/(matches|tournaments)/[^/]+/stream$")  # a match's, a tournament's
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Limits:
    """Requests per second for a client address without a key and for each key; streams per address;
    the proxies whose ``X-Forwarded-For`` names the client (addresses or networks); the clock the buckets
    read. The defaults leave a scorer sending a queue of hundreds of events, and a review page with its
    stream, well inside them."""

    anonymous_per_second: float = 20.0
    keyed_per_second: float = 50.0
    streams_per_client: int = 16
    forwarded_allow_ips: tuple[str, ...] = ()
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)


def proxy_networks(given: Iterable[str]) -> tuple[Network, ...]:
    """The networks of ``--forwarded-allow-ips`` (comma-separated addresses or networks); ValueError names
    one that is neither."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for item in given
                 for part in item.split(",") if part.strip())


def _within(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(scope: Scope, proxies: tuple[Network, ...]) -> str:
    """The address a request is counted against: its connection's, or from a configured proxy the nearest
    ``X-Forwarded-For`` address that is not a configured proxy (the leftmost, where every one is)."""
    address = str(scope["client"][0]) if scope.get("client") else ""
    if not proxies or not _within(address, proxies):
        return address
    forwarded: list[str] = [part.strip() for name, value in scope["headers"] if name == b"x-forwarded-for"
                 for part in value.decode("latin-1").split(",") if part.strip()]
    for hop in reversed(forwarded):
        if not _within(hop, proxies):
            return hop
    return forwarded[0] if forwarded else address


class _Bucket:
    __slots__ = ("stamp", "tokens")

    def __init__(self, capacity: float, now: float) -> None:
        self.tokens = capacity
        self.stamp = now


class _Buckets:
    """Token buckets of one rate, by client."""

    def __init__(self, per_second: float) -> None:
        self.rate = per_second
        self.capacity = max(1.0, per_second * BURST_SECONDS)
        self._buckets: dict[str, _Bucket] = {}

    def _refilled(self, client: str, now: float) -> _Bucket:
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= MAX_CLIENTS:
                self._forget_full(now)
            bucket = self._buckets[client] = _Bucket(self.capacity, now)
        else:
            bucket.tokens = min(self.capacity, bucket.tokens + (now - bucket.stamp) * self.rate)
            bucket.stamp = now
        return bucket

    def wait(self, client: str, now: float) -> float:
        """0 if ``client`` may make a request now, else the seconds until it may."""
        bucket = self._refilled(client, now)
        return 0.0 if bucket.tokens >= 1 else (1 - bucket.tokens) / self.rate

    def take(self, client: str, now: float) -> float:
        """As :meth:`wait`, and a request is drawn where one may be made."""
        waiting = self.wait(client, now)
        if not waiting:
            self._buckets[client].tokens -= 1
        return waiting

    def give_back(self, client: str) -> None:
        """Return one request taken from ``client``'s bucket (a guess that was a good key after all)."""
        bucket = self._buckets.get(client)
        if bucket is not None:
            bucket.tokens = min(self.capacity, bucket.tokens + 1)

    def _forget_full(self, now: float) -> None:
        for client, bucket in list(self._buckets.items()):
            if bucket.tokens + (now - bucket.stamp) * self.rate >= self.capacity:
                del self._buckets[client]


def presented_key(scope: Scope) -> str | None:
    """The key a request carries, as the API reads it: ``Authorization: Bearer KEY``, else ``?key=``."""
    headers: list[tuple[bytes, bytes]] = scope["headers"]
    for name, value in headers:
        if name == b"authorization":
            scheme, _, credentials = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and credentials.strip():
                return credentials.strip()
    query: bytes = scope.get("query_string", b"")
    if b"key" not in query.lower() and b"%" not in query:
        return None
    # The last one, as the API reads a parameter given twice.
    given = [value for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True) if name == "key"]
    return given[-1] if given and given[-1] else None


class RequestLimits:
    """ASGI middleware enforcing :class:`Limits`; the package's static files are not counted. ``holds_role``,
    given a key's SHA-256 (hex), says whether it holds a role anywhere: the store's answer, asked in a thread."""

    def __init__(self, app: ASGIApp, limits: Limits, holds_role: Callable[[str], bool] | None = None) -> None:
        self.app = app
        self.limits = limits
        self.clock = limits.clock
        self.proxies = proxy_networks(limits.forwarded_allow_ips)
        self.holds_role = holds_role
        self.anonymous = _Buckets(limits.anonymous_per_second)
        self.keyed = _Buckets(limits.keyed_per_second)
        self.guesses = _Buckets(limits.anonymous_per_second)
        self.lookups = _Buckets(limits.keyed_per_second)
        self.known: OrderedDict[str, None] = OrderedDict()  # the digests of keys known to hold a role
        self.streams: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        client = client_address(scope, self.proxies)
        key = presented_key(scope)
        now = self.clock()
        digest = None if key is None else hashlib.sha256(key.encode("utf-8")).hexdigest()
        if digest is None:
            waiting = self.anonymous.take(client, now)
        elif digest in self.known or await self._learned(digest, client, now):
            waiting = self.keyed.take(digest, now)
        else:  # an unknown key is charged as no key, and its guess is reserved now, not once answered
            waiting = max(self.anonymous.wait(client, now), self.guesses.wait(client, now))
            if not waiting:
                self.anonymous.take(client, now)
                self.guesses.take(client, now)
                send = self._settling_guess(send, client)
        if waiting:
            await _refuse(send, MatchstateError.said("too-many", seconds=math.ceil(waiting)), waiting)
            return
        if digest is not None and digest in self.known:
            send = self._forgetting_refused(send, digest)
        if scope["method"] == "GET" and STREAM_PATH.match(scope["path"]):
            await self._stream(scope, receive, send, client)
            return
        await self.app(scope, receive, send)

    async def _learned(self, digest: str, client: str, now: float) -> bool:
        """Whether the key of ``digest`` holds a role, asked of the store only where its address's budget would
        refuse it (and within the address's lookups); remembered if it does."""
        if self.holds_role is None or not (self.anonymous.wait(client, now) or self.guesses.wait(client, now)):
            return False
        if self.lookups.take(client, now):
            return False
        try:
            holds = await run_in_threadpool(self.holds_role, digest)
        except Exception:  # the database unreachable, say: the key is refused as unknown ones are
            return False
        if holds:
            self.known[digest] = None
            if len(self.known) > MAX_CLIENTS:
                self.known.popitem(last=False)
        return holds

    def _settling_guess(self, send: Send, client: str) -> Send:
        """``send``, giving the reserved guess back where the key was not refused."""
        async def settled(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] not in (401, 403):
                self.guesses.give_back(client)
            await send(message)
        return settled

    def _forgetting_refused(self, send: Send, digest: str) -> Send:
        """``send``, forgetting a known key that was refused (revoked since)."""
        async def forgetting(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (401, 403):
                self.known.pop(digest, None)
            await send(message)
        return forgetting

    async def _stream(self, scope: Scope, receive: Receive, send: Send, client: str) -> None:
        cap = self.limits.streams_per_client
        if self.streams.get(client, 0) >= cap:
            await _refuse(send, MatchstateError.said("streams", cap=cap), 1.0)
            return
        self.streams[client] = self.streams.get(client, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.streams[client] -= 1
            if not self.streams[client]:
                del self.streams[client]


async def _refuse(send: Send, refusal: MatchstateError, retry_after: float) -> None:
    body = json.dumps(refusal.body()).encode("utf-8")
    await send({"type": "http.response.start", "status": 429,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"retry-after", str(max(1, math.ceil(retry_after))).encode())]})
    await send({"type": "http.response.body", "body": body})
