"""Request limits per client: how fast a client may ask, and how many live streams it may hold open.

Each client address has a bucket of requests that refills at a steady rate; a request that carries a
key draws from that key's own, larger bucket instead, so a scorer catching up on a queue of events
is not slowed by the spectators on the same network. A key that turns out wrong is charged to its
address's bucket of guesses, as fast as the anonymous one, and an address with no guesses left may
not present keys for a while: guessing keys costs what asking anonymously costs. Over a limit, the
answer is 429 with ``Retry-After``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import MatchstateError

BURST_SECONDS = 12  # a bucket holds this many seconds of its rate: a page loading, a queue sent at once
MAX_CLIENTS = 10_000  # buckets kept before the full ones are forgotten
STREAM_PATH = re.compile(r"^/api/matches/[^/]+/stream$")


@dataclass(frozen=True, slots=True)
class Limits:
    """Requests per second for a client address without a key and for each key; streams per address.
    The defaults leave a scorer sending a queue of hundreds of events, and a review page with its
    stream, well inside them."""

    anonymous_per_second: float = 20.0
    keyed_per_second: float = 50.0
    streams_per_client: int = 16


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
    """ASGI middleware enforcing :class:`Limits`; the package's static files are not counted."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.anonymous = _Buckets(limits.anonymous_per_second)
        self.keyed = _Buckets(limits.keyed_per_second)
        self.guesses = _Buckets(limits.anonymous_per_second)
        self.streams: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        client = scope["client"][0] if scope.get("client") else ""
        key = presented_key(scope)
        now = time.monotonic()
        if key is None:
            waiting = self.anonymous.take(client, now)
        else:
            digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
            waiting = self.guesses.wait(client, now) or self.keyed.take(digest, now)
        if waiting:
            await _refuse(send, MatchstateError.said("too-many", seconds=math.ceil(waiting)), waiting)
            return
        if key is not None:
            send = self._charging_refused_keys(send, client)
        if scope["method"] == "GET" and STREAM_PATH.match(scope["path"]):
            await self._stream(scope, receive, send, client)
            return
        await self.app(scope, receive, send)

    def _charging_refused_keys(self, send: Send, client: str) -> Send:
        async def charged(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in (401, 403):
                self.guesses.take(client, time.monotonic())
            await send(message)
        return charged

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
