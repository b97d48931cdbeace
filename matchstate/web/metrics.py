"""``/metrics`` in Prometheus's text exposition format (``prometheus_client``, the format's own library): the
requests by route kind and status, their latency by route template, the appends recorded and refused, how many
appends each group commit wrote, the live streams open, and the engine cache's size. Each app has its own registry
(a test may make many apps)."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import HistogramMetricFamily
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .compression import MINIMUM_BYTES, Compression

APPEND = re.compile(r"^/api/matches/[^/]+/events$")
STREAM = re.compile(r"/(stream|live)$")
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GROUP_BUCKETS = (1, 2, 4, 8, 16, 32, 64)  # appends in one commit (at most GROUP_LIMIT, 64)
UNROUTED = "unrouted"  # the route label of a request no route took (a 404, a refusal before routing)


class Metrics:
    """The app's counters, and the middleware that keeps them (outermost but the access log)."""

    def __init__(self, app: ASGIApp, store: Any) -> None:
        self.app = app
        self.store = store
        self.registry = CollectorRegistry()
        self.requests = Counter("matchstate_http_requests", "HTTP requests answered, by kind and status",
                                ["kind", "status"], registry=self.registry)
        self.latency = Histogram("matchstate_http_request_seconds", "Time to a response's headers, by kind, method "
                                 "and route template", ["kind", "method", "route"], buckets=LATENCY_BUCKETS,
                                 registry=self.registry)
        self.appends = Counter("matchstate_appends", "Events appended through the API (retries answered "
                               "from the store included)", registry=self.registry)
        self.refusals = Counter("matchstate_append_refusals", "Appends refused, by status (401, 403, 404, 409, "
                                "422...)", ["status"], registry=self.registry)
        self.streams = Gauge("matchstate_live_streams", "Live streams open", registry=self.registry)
        self.cache = Gauge("matchstate_engine_cache_bytes", "Memory the cached match engines take (estimated)",
                           registry=self.registry)
        self.cached = Gauge("matchstate_engine_cache_matches", "Matches whose engines are cached",
                            registry=self.registry)
        self.registry.register(CommitGroups(store))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]
        if path == "/metrics":  # answered here, outside the app's compression: compressed by the same rule
            await Compression(self.answer(), MINIMUM_BYTES)(scope, receive, send)
            return
        append = scope["method"] == "POST" and APPEND.match(path) is not None
        kind = "append" if append else "static" if path.startswith("/static/") else \
            "api" if path.startswith("/api/") else "page"
        began = time.perf_counter()
        streaming = False

        async def counted(message: Message) -> None:
            nonlocal streaming
            if message["type"] == "http.response.start":
                status = message["status"]
                self.requests.labels(kind, str(status)).inc()
                route = getattr(scope.get("route"), "path", UNROUTED)  # the template the router matched
                self.latency.labels(kind, scope["method"], route).observe(time.perf_counter() - began)
                if append:
                    (self.appends.inc() if status in (200, 201) else self.refusals.labels(str(status)).inc())
                headers = dict(message.get("headers", []))
                if headers.get(b"content-type", b"").startswith(b"text/event-stream"):
                    streaming = True
                    self.streams.inc()
            await send(message)

        try:
            await self.app(scope, receive, counted)
        finally:
            if streaming:
                self.streams.dec()

    def answer(self) -> Response:
        cache = getattr(self.store, "_cache", None)  # the store's engine cache (EngineCache)
        if cache is not None:
            self.cache.set(cache.nbytes)
            self.cached.set(len(cache))
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)


class CommitGroups(Collector):
    """``matchstate_commit_group_appends``: a histogram of how many appends each write transaction held (group
    commit, :mod:`matchstate.store.commits`), read from the store's counts when scraped."""

    def __init__(self, store: Any) -> None:
        self.store = store

    def collect(self) -> Iterator[HistogramMetricFamily]:
        sizes = dict(self.store.commit_groups)  # a copy: appends go on counting meanwhile
        buckets = [(str(float(bound)), float(sum(n for size, n in sizes.items() if size <= bound)))
                   for bound in GROUP_BUCKETS]
        buckets.append(("+Inf", float(sum(sizes.values()))))
        yield HistogramMetricFamily("matchstate_commit_group_appends", "Appends written by each group commit",
                                    buckets=buckets, sum_value=float(sum(size * n for size, n in sizes.items())))
