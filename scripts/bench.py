#!/usr/bin/env python3
"""Throughput of matchstate on a generated season of match logs.

    scripts/bench [--matches N] [--repeat R] [--seed S] [--only SECTION]

Every section times its measures on the same season and adds rows to one table:
events per second (median of the repetitions), the 99th percentile of the time per
log, and the time per event as a multiple of a baseline measured in the same run.
To add a section, write a function ``name(bench)`` that calls ``bench.measure``
(or ``bench.record`` for timings taken its own way) and decorate it with ``@section``.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import json
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))

from season import season

from matchstate import Match
from matchstate.log import replay

SECTIONS: dict[str, Callable[[Bench], None]] = {}


def section(run: Callable[[Bench], None]) -> Callable[[Bench], None]:
    """Register a section of the benchmark under its function's name."""
    SECTIONS[run.__name__] = run
    return run


@dataclass
class Row:
    section: str
    name: str
    events: int  # events handled in one repetition
    seconds: list[float]  # wall time of each repetition
    latencies: list[float] = field(default_factory=list)  # time of each unit (a log, a request...), every repetition
    baseline: Row | None = None

    @property
    def per_event(self) -> float:
        return statistics.median(self.seconds) / self.events

    def cells(self) -> list[str]:
        p99 = f"{statistics.quantiles(self.latencies, n=100)[98] * 1e3:.3f} ms" if len(self.latencies) > 1 else "-"
        ratio = (f"{self.per_event / self.baseline.per_event:.1f} times the baseline's time per event"
                 if self.baseline else "baseline")
        return [self.section, self.name, f"{1 / self.per_event:,.0f}", p99, ratio]


class Bench:
    """The season under test, the repetitions, and the rows measured so far."""

    def __init__(self, logs: list[list[str]], repeat: int) -> None:
        self.logs, self.repeat = logs, repeat
        self.events = sum(map(len, logs))
        self.rows: list[Row] = []
        self.section = ""

    def measure(self, name: str, per_log: Callable[[list[str]], object], baseline: Row | None = None) -> Row:
        """Time ``per_log`` over every log of the season, ``repeat`` times."""
        seconds, latencies = [], []
        clock = time.perf_counter
        for _ in range(self.repeat):
            gc.collect()
            start = clock()
            for lines in self.logs:
                begun = clock()
                per_log(lines)
                latencies.append(clock() - begun)
            seconds.append(clock() - start)
        return self.record(name, self.events, seconds, latencies, baseline)

    def record(self, name: str, events: int, seconds: list[float], latencies: Iterable[float] = (),
               baseline: Row | None = None) -> Row:
        """Add a row for timings taken elsewhere."""
        row = Row(self.section, name, events, list(seconds), list(latencies), baseline)
        self.rows.append(row)
        print(f"  {row.section}: {row.name}: {1 / row.per_event:,.0f} events/s", file=sys.stderr)
        return row

    def table(self) -> str:
        head = ["section", "measure", "events/s (median)", "p99 per log", "time per event"]
        rows = [head] + [row.cells() for row in self.rows]
        widths = [max(len(r[i]) for r in rows) for i in range(len(head) - 1)]
        lines = ["  ".join(c.rjust(w) if i in (2, 3) else c.ljust(w)
                           for i, (c, w) in enumerate(zip(r, widths, strict=False)))
                 + "  " + r[-1] for r in rows]
        lines.insert(1, "-" * max(map(len, lines)))
        return "\n".join(lines)


def parse_only(lines: list[str]) -> None:
    for line in lines:
        json.loads(line)


def full_replay(lines: list[str]) -> None:
    for _ in replay(lines, Match()):
        pass


@section
def replay_log(bench: Bench) -> None:
    """A whole log replayed into a new Match, every step consumed, against only decoding its lines."""
    baseline = bench.measure("json.loads each line", parse_only)
    bench.measure("log.replay into a new Match", full_replay, baseline)


# -- the live service, through a real server (`matchstate serve` on 127.0.0.1, SQLite, durable) ----------
# These sections import the web stack only when they run.

HTTP_APPENDS = 1000  # at least this many appends per repetition
CLIENTS = 8  # clients appending at once, each to matches of its own
CLIENT_APPENDS = 2000  # at least this many appends per repetition, shared among the clients
FANOUT_STREAMS = 1000


def _matches_for(logs: list[list[str]], appends: int) -> list[tuple[dict[str, Any], list[str]]]:
    """The season's first matches holding at least ``appends`` events after their match.start,
    each as (its match.start, its other lines)."""
    chosen, count = [], 0
    for lines in logs:
        if count >= appends:
            break
        chosen.append((json.loads(lines[0]), lines[1:]))
        count += len(lines) - 1
    return chosen


def _renamed(start: dict[str, Any], repetition: int) -> dict[str, Any]:
    return {**start, "match": f"{start['match']}-r{repetition}"}


def _latency(name: str, latencies: list[float]) -> None:
    p99 = statistics.quantiles(latencies, n=100)[98]
    print(f"  {name}: median {statistics.median(latencies) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms "
          f"over {len(latencies):,}", file=sys.stderr)


# Limits no single benchmark client should meet: the sections measure the server, not its refusals.
UNLIMITED = ("--rate-anonymous", "1e9", "--rate-keyed", "1e9", "--streams-per-client", "100000")
LEAGUE_KEY = "the-bench's-league-key"  # creating a match over HTTP needs it
LEAGUE = f"authorization: Bearer {LEAGUE_KEY}\r\n"


def _served_store(url: str) -> None:
    """A new database at ``url``, up to date, with the bench's league key."""
    from matchstate.store import Store
    from matchstate.web.access import hash_key

    store = Store(url)
    store.upgrade()
    store.set_league_key(hash_key(LEAGUE_KEY))
    store.close()


@contextlib.contextmanager
def _postgresql(section: str) -> Iterator[Callable[[str], str] | None]:
    """Makes the URL of a new PostgreSQL schema by name (each dropped afterwards); None where no server answers."""
    import uuid

    import psycopg
    from sqlalchemy import make_url

    try:
        admin = psycopg.connect(make_url(POSTGRES_URL).set(drivername="postgresql")
                                .render_as_string(hide_password=False), autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as err:
        print(f"  {section}: PostgreSQL skipped, no server answers: {err}", file=sys.stderr)
        yield None
        return
    schemas: list[str] = []

    def schema(name: str) -> str:
        schemas.append(f"bench_{uuid.uuid4().hex[:8]}_{name}")
        admin.execute(f"CREATE SCHEMA {schemas[-1]}")
        return make_url(POSTGRES_URL).update_query_dict({"options": f"-csearch_path={schemas[-1]}"}) \
            .render_as_string(hide_password=False)

    try:
        yield schema
    finally:
        for made in schemas:
            admin.execute(f"DROP SCHEMA {made} CASCADE")
        admin.close()


@contextlib.contextmanager
def _secret_file(path: str) -> Iterator[None]:
    """MATCHSTATE_SECRET_FILE set to ``path`` for this process and the servers it starts meanwhile."""
    saved = os.environ.get("MATCHSTATE_SECRET_FILE")
    os.environ["MATCHSTATE_SECRET_FILE"] = path
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("MATCHSTATE_SECRET_FILE")
        else:
            os.environ["MATCHSTATE_SECRET_FILE"] = saved


# The server as `matchstate serve` ran it before it guarded itself: uvicorn's own protocol and defaults.
PLAIN_UVICORN = """
import sys, uvicorn
from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.limits import Limits
limits = Limits(anonymous_per_second=1e9, keyed_per_second=1e9, streams_per_client=100000)
uvicorn.run(create_app(Store(), limits=limits), host="127.0.0.1", port=int(sys.argv[1]), timeout_graceful_shutdown=2,
            log_level="warning")
"""

# The minimal ASGI peer, on the same uvicorn as `matchstate serve` (its guarded protocol): a match created and
# each event appended by Store.append (in a worker thread, as a server must), answered with its seq and hash;
# and, for the live sections, each message POSTed to /broadcast framed once and queued to every open stream.
# No keys, no checks, no views: the floor the HTTP sections measure matchstate's own share against.
PEER = """
import asyncio, sys
import anyio, orjson
from matchstate.store import Store
from matchstate.web.server import Deadlines, serve

store = Store()
streams = set()

async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    path, post = scope["path"], scope["method"] == "POST"
    if path.endswith("/stream"):
        queue = asyncio.Queue()
        streams.add(queue)
        try:
            await send({"type": "http.response.start", "status": 200,
                        "headers": [(b"content-type", b"text/event-stream")]})
            await send({"type": "http.response.body", "body": b"retry: 1000\\n\\n", "more_body": True})
            while True:
                await send({"type": "http.response.body", "body": await queue.get(), "more_body": True})
        finally:
            streams.discard(queue)
    body, more = b"", True
    while more:
        message = await receive()
        body, more = body + message.get("body", b""), message.get("more_body", False)
    answer = {}
    if path == "/broadcast":
        seq, data = orjson.loads(body)
        frame = f"id: {seq}\\nevent: append\\ndata: {data}\\n\\n".encode()
        for queue in streams:
            queue.put_nowait(frame)
    elif path == "/api/matches" and post:
        await anyio.to_thread.run_sync(store.create_match, orjson.loads(body))
        answer = {"official_key": ""}
    elif path.endswith("/events") and post:
        asked = orjson.loads(body)
        appended = await anyio.to_thread.run_sync(store.append, path.split("/")[3], asked["event"],
                                                  asked.get("expected_seq"))
        answer = {"seq": appended.event.seq, "hash": appended.event.hash}
    payload = orjson.dumps(answer)
    await send({"type": "http.response.start", "status": 201 if post else 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})

serve(lambda: app, "127.0.0.1", int(sys.argv[1]), Deadlines())
"""


def _servers() -> tuple[type, type, type]:
    """`matchstate serve` as a child process, the minimal ASGI peer, and uvicorn as `serve` ran it before."""
    from matchstate.web.process import ServerProcess

    class Peer(ServerProcess):
        def command(self) -> list[str]:
            return [sys.executable, "-c", PEER, str(self.port)]

    class PlainUvicorn(ServerProcess):
        def command(self) -> list[str]:
            return [sys.executable, "-c", PLAIN_UVICORN, str(self.port)]

    return ServerProcess, Peer, PlainUvicorn


class _Connection:
    """A keep-alive HTTP/1.1 connection to a server on 127.0.0.1, with as little client as HTTP allows: the
    sections measure the server, and a general client's own work would blur it (on a machine of 2 cores
    the clients and the server share them)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @staticmethod
    @contextlib.asynccontextmanager
    async def open(base: str) -> AsyncIterator[_Connection]:
        reader, writer = await asyncio.open_connection("127.0.0.1", int(base.rsplit(":", 1)[1]), limit=1 << 20)
        try:
            yield _Connection(reader, writer)
        finally:
            writer.close()

    def send(self, method: str, path: str, body: bytes = b"", headers: str = "") -> None:
        self.writer.write(f"{method} {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                          f"content-length: {len(body)}\r\n{headers}\r\n".encode() + body)

    async def head(self) -> tuple[int, bytes]:
        """The status and the headers (lower case) of the answer that comes next."""
        head = await self.reader.readuntil(b"\r\n\r\n")
        return int(head[9:12]), head.lower()

    async def request(self, method: str, path: str, body: bytes = b"", headers: str = "") -> tuple[int, bytes]:
        self.send(method, path, body, headers)
        status, head = await self.head()
        at = head.index(b"content-length:") + 15
        return status, await self.reader.readexactly(int(head[at:head.index(b"\r\n", at)]))

    async def create(self, start: dict[str, Any]) -> tuple[str, str]:
        """Create the match of ``start``: the path of its events and the header with its official key."""
        status, body = await self.request("POST", "/api/matches", json.dumps(start).encode(), LEAGUE)
        if status != 201:
            raise RuntimeError(f"creating a match answered {status}: {body[:200]!r}")
        key = json.loads(body)["official_key"]
        return f"/api/matches/{quote(start['match'], safe='')}", f"authorization: Bearer {key}\r\n"


def _appended(line: str) -> bytes:
    return b'{"event": ' + line.encode() + b"}"


async def _clients(base: str, shares: list[list[tuple[dict[str, Any], list[str]]]]) -> list[float]:
    """One client per share, all at once, each creating its matches and appending their events one request
    at a time on a connection of its own; the time of each append."""
    latencies: list[float] = []
    clock = time.perf_counter

    async def client(matches: list[tuple[dict[str, Any], list[str]]]) -> None:
        async with _Connection.open(base) as connection:
            for start, lines in matches:
                path, key = await connection.create(start)
                for line in lines:
                    begun = clock()
                    status, body = await connection.request("POST", f"{path}/events", _appended(line), key)
                    latencies.append(clock() - begun)
                    if status != 201:
                        raise RuntimeError(f"append answered {status}: {body[:200]!r}")

    await asyncio.gather(*(client(share) for share in shares))
    return latencies


@section
def http_append(bench: Bench) -> None:
    """Each event appended through the HTTP API by one keep-alive client, one request at a time: on the server
    `matchstate serve` runs (uvicorn guarded: deadlines, connection cap), on uvicorn as it ran before, and on
    the minimal ASGI peer (Store.append on the same uvicorn), against the store's own append of the same
    events in the same run; all on SQLite, all commit durably."""
    import tempfile

    from matchstate.store import Store

    served, peer, plain = _servers()
    matches = _matches_for(bench.logs, HTTP_APPENDS)
    events = sum(len(lines) for _, lines in matches)
    clock = time.perf_counter
    servers = {"minimal ASGI peer: Store.append on the same uvicorn": peer,
               "POST /api/matches/{code}/events, uvicorn as before": plain,
               "POST /api/matches/{code}/events, matchstate serve (guarded)": served}
    latencies: dict[str, list[float]] = {"Store.append, one event": [], **{name: [] for name in servers}}
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        store = Store(f"sqlite:///{folder}/store.db")
        store.upgrade()
        running = {}
        for number, (name, kind) in enumerate(servers.items()):
            url = f"sqlite:///{folder}/http-{number}.db"
            _served_store(url)
            running[name] = kind(url, options=UNLIMITED)
            running[name].start()
        try:
            for repetition in range(bench.repeat):
                for start, lines in matches:
                    start = _renamed(start, repetition)
                    store.create_match(start)
                    for line in lines:
                        begun = clock()
                        store.append(start["match"], line)
                        latencies["Store.append, one event"].append(clock() - begun)
                turns = list(running.items())  # each server in turn, which goes first alternating
                for name, server in turns if repetition % 2 == 0 else reversed(turns):
                    renamed = [(_renamed(start, repetition), lines) for start, lines in matches]
                    latencies[name] += asyncio.run(_clients(server.base, [renamed]))
        finally:
            for server in running.values():
                server.stop()
        store.close()

    def per_repetition(timings: list[float]) -> list[float]:
        return [sum(timings[r * events:(r + 1) * events]) for r in range(bench.repeat)]

    rows = {name: bench.record(name, events, per_repetition(timings), timings) for name, timings in latencies.items()}
    names = list(rows)  # the peer against the store's append; each server against the peer
    rows[names[1]].baseline = rows[names[0]]
    for name in names[2:]:
        rows[name].baseline = rows[names[1]]
    for name, timings in latencies.items():
        _latency(name, timings)


@section
def http_clients(bench: Bench) -> None:
    """8 clients at once, each appending the events of matches of its own one request at a time, through
    `matchstate serve` and through the minimal ASGI peer (Store.append on the same uvicorn), on SQLite and
    on PostgreSQL (skipped where no server answers): the events per second of them all, durable; which
    server goes first alternates, each repetition on new matches."""
    import tempfile

    served, peer, _ = _servers()
    matches = _matches_for(bench.logs, CLIENT_APPENDS)
    events = sum(len(lines) for _, lines in matches)
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, _postgresql("http_clients") as schema:
        urls: dict[str, Callable[[str], str]] = {"SQLite": lambda name: f"sqlite:///{folder}/{name}.db"}
        if schema is not None:
            urls["PostgreSQL"] = schema
        for database, url in urls.items():
            timings: dict[str, tuple[list[float], list[float]]] = {}
            running = {}
            try:
                for name, kind in (("minimal ASGI peer", peer), ("matchstate serve", served)):
                    with _secret_file(f"{folder}/{database}-{kind.__name__}.secret"):
                        made = url(f"clients_{kind.__name__.lower()}")
                        _served_store(made)
                        running[name] = kind(made, options=UNLIMITED)
                        running[name].start()
                    timings[name] = ([], [])
                for repetition in range(bench.repeat):
                    renamed = [(_renamed(start, repetition), lines) for start, lines in matches]
                    shares = [renamed[client::CLIENTS] for client in range(CLIENTS)]
                    turns = list(running.items())
                    for name, server in turns if repetition % 2 == 0 else reversed(turns):
                        began = time.perf_counter()
                        latencies = asyncio.run(_clients(server.base, shares))
                        timings[name][0].append(time.perf_counter() - began)
                        timings[name][1].extend(latencies)
            finally:
                for server in running.values():
                    server.stop()
            baseline = None
            for name, (seconds, latencies) in timings.items():
                baseline = bench.record(f"{database}: {CLIENTS} clients, {name}", events, seconds, latencies, baseline)
                _latency(f"{database}, {CLIENTS} clients, {name}, each append", latencies)


@section
def live_fanout(bench: Bench) -> None:
    """A scored match appended event by event through `matchstate serve` while 1,000 review streams (server-sent
    events) are open: the delay from sending each append to its receipt by the last of the streams; against
    the minimal ASGI peer broadcasting the same messages to as many streams (no store, no checks) in the same
    run. One client address: the server is run with a stream limit above 1,000 (`--streams-per-client`)."""
    import tempfile

    served, peer, _ = _servers()
    start, lines = max(_matches_for(bench.logs, 1), key=lambda match: len(match[1]))
    timings: dict[str, tuple[list[float], list[float]]] = {"peer": ([], []), "served": ([], [])}
    messages: dict[int, bytes] = {}
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        url = f"sqlite:///{folder}/fanout.db"
        _served_store(url)
        with served(url, options=UNLIMITED) as server, peer(f"sqlite:///{folder}/peer.db") as floor:
            for repetition in range(bench.repeat):
                # The peer sends the messages the server sent, so it needs a first run of the server.
                for name in ("served", "peer") if repetition % 2 == 0 else ("peer", "served"):
                    began = time.perf_counter()
                    if name == "served":
                        delays, messages = asyncio.run(_fan_out(server.base, _renamed(start, repetition), lines,
                                                                FANOUT_STREAMS))
                    else:
                        delays = asyncio.run(_broadcast_floor(floor.base, messages, FANOUT_STREAMS))
                    timings[name][0].append(time.perf_counter() - began)
                    timings[name][1].extend(delays)
    baseline = bench.record(f"minimal broadcast to {FANOUT_STREAMS} streams, the same messages", len(lines),
                            *timings["peer"])
    bench.record(f"append to receipt by all {FANOUT_STREAMS} streams", len(lines), *timings["served"], baseline)
    _latency(f"minimal broadcast to {FANOUT_STREAMS} streams", timings["peer"][1])
    _latency(f"fan-out to {FANOUT_STREAMS} streams", timings["served"][1])


async def _fan_out(base: str, start: dict[str, Any], lines: list[str], streams: int,
                   read_base: str | None = None) -> tuple[list[float], dict[int, bytes]]:
    """Open ``streams`` streams on a new match (on the server at ``read_base``, else the same), append ``lines``
    one by one, each once all streams got the one before: the delay of each event to its last receipt, and
    each message as the streams got it."""
    async with _Connection.open(base) as writer:
        path, key = await writer.create(start)
    appends = [(f"{path}/events", _appended(line), key) for line in lines]
    return await _broadcast(base, read_base or base, f"{path}/stream?after_seq=1", appends, streams)


async def _broadcast_floor(base: str, messages: dict[int, bytes], streams: int) -> list[float]:
    """As :func:`_fan_out`, on the minimal peer: each of ``messages`` POSTed to it for its streams."""
    appends = [("/broadcast", json.dumps([seq, messages[seq].decode()]).encode(), "") for seq in sorted(messages)]
    delays, _ = await _broadcast(base, base, "/stream", appends, streams)
    return delays


class _Listener(asyncio.Protocol):
    """A stream's client end as a protocol: each line handed on as its bytes arrive, with no task to wake
    for each message (a thousand streams in one client process: its own cost would blur the server's)."""

    def __init__(self, request: bytes, line: Callable[[bytes], None]) -> None:
        self.request, self.line, self.rest = request, line, b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        *lines, self.rest = (self.rest + data).split(b"\n")
        for line in lines:
            self.line(line)


async def _broadcast(base: str, read_base: str, stream_path: str, appends: list[tuple[str, bytes, str]],
                     streams: int) -> tuple[list[float], dict[int, bytes]]:
    """Open ``streams`` streams at ``stream_path`` on ``read_base``, then POST each of ``appends`` (path, body,
    headers) to ``base``, whose messages the streams get as seqs 2, 3...; each once every stream got the one
    before. The writer connects once the streams are open: the server closes a connection idle for 10 s."""
    clock = time.perf_counter
    last = len(appends) + 1
    sent = [0.0] * (last + 1)
    receipts = [0] * (last + 1)
    done = {seq: asyncio.Event() for seq in range(2, last + 1)}
    delays: list[float] = []
    messages: dict[int, bytes] = {}
    opened = 0
    all_open = asyncio.Event()
    seq = 0  # of the first stream's last id, whose data comes next

    def line(text: bytes, first: bool) -> None:
        nonlocal opened, seq
        if text.startswith(b"id: "):
            got = int(text[4:])
            receipts[got] += 1
            if receipts[got] == streams:
                delays.append(clock() - sent[got])
                done[got].set()
            if first:
                seq = got
        elif first and text.startswith(b"data: "):
            messages[seq] = text[6:]
        elif text.startswith(b"retry:"):  # a stream's first line: it is open
            opened += 1
            if opened == streams:
                all_open.set()
        elif text.startswith(b"HTTP/1.1 ") and not text.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"a stream answered {text!r}")

    loop = asyncio.get_running_loop()
    request = f"GET {stream_path} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n".encode()
    port = int(read_base.rsplit(":", 1)[1])
    def listener(first: bool) -> Callable[[], _Listener]:
        return lambda: _Listener(request, lambda text: line(text, first))

    listeners = [await loop.create_connection(listener(number == 0), "127.0.0.1", port) for number in range(streams)]
    try:
        await asyncio.wait_for(all_open.wait(), 120)
        async with _Connection.open(base) as writer:
            for at, (path, body, headers) in enumerate(appends, 2):
                sent[at] = clock()
                status, answer = await writer.request("POST", path, body, headers)
                if status != 201:
                    raise RuntimeError(f"append answered {status}: {answer[:200]!r}")
                await asyncio.wait_for(done[at].wait(), 60)
    finally:
        for transport, _ in listeners:
            transport.close()
    return delays, messages


@section
def live_across_servers(bench: Bench) -> None:
    """Two server processes on one database: each event appended through server A, the delay to its receipt
    by a review stream on server B, against a stream on A itself (the append's own process) in the same run;
    each append once the stream got the one before, over the season's longest match.
    PostgreSQL (LISTEN/NOTIFY; skipped where no server answers) and SQLite (the change check's poll)."""
    import tempfile

    from matchstate.web.process import ServerProcess

    start, lines = max(_matches_for(bench.logs, 1), key=lambda match: len(match[1]))
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, \
            _postgresql("live_across_servers") as schema, _secret_file(f"{folder}/across.secret"):  # the servers' too
        urls = {"SQLite": f"sqlite:///{folder}/across.db"}
        if schema is not None:
            urls["PostgreSQL"] = schema("across")
        for kind, url in urls.items():
            _served_store(url)
            with ServerProcess(url, options=UNLIMITED) as one, ServerProcess(url, options=UNLIMITED) as two:
                timings: dict[str, tuple[list[float], list[float]]] = {"A": ([], []), "B": ([], [])}
                for repetition in range(bench.repeat):
                    for name, reader in (("A", one), ("B", two)):
                        began = time.perf_counter()
                        delays, _ = asyncio.run(_fan_out(one.base, _renamed(start, repetition * 2 + (name == "B")),
                                                         lines, 1, reader.base))
                        timings[name][1].extend(delays)
                        timings[name][0].append(time.perf_counter() - began)
            baseline = bench.record(f"{kind}: append through A to a stream on A", len(lines), *timings["A"])
            _latency(f"{kind}, stream on the appending server", timings["A"][1])
            bench.record(f"{kind}: append through A to a stream on B", len(lines), *timings["B"], baseline)
            _latency(f"{kind}, stream on another server", timings["B"][1])


# -- the store: Store.append against its raw driver writing the same rows, and replay from the store ---------
# Every repetition writes new databases, every commit durable (SQLite in WAL mode, synchronous=FULL).

STORE_APPENDS = 2000  # at least this many appends per repetition
REPLAY_MATCHES = 200
POSTGRES_URL = os.environ.get("MATCHSTATE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
# What the store wrote for each event after a match.start, in order: the rows the raw driver writes again, every
# column (the match's head as it ends, each head as long as the one it stands for).
WRITTEN = ("SELECT e.match_id, e.seq, e.type, e.at, e.raw, e.device_id, e.recorded_by, e.role, e.received_at, "
           "e.prev_hash, e.hash, CAST(r.ruling AS TEXT), r.state, r.engine_version, CAST(r.clock AS TEXT), "
           "CAST(r.flags AS TEXT), CAST(m.score AS TEXT), m.status, m.seal, m.acts_seq "
           "FROM events e JOIN rulings r ON r.match_id = e.match_id AND r.seq = e.seq "
           "JOIN matches m ON m.id = e.match_id WHERE e.seq > 1 ORDER BY e.match_id, e.seq")
RAW_EVENT = ("INSERT INTO events (match_id, seq, type, at, raw, device_id, recorded_by, role, received_at, prev_hash, "
             "hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
RAW_RULING = ("INSERT INTO rulings (match_id, seq, ruling, state, engine_version, clock, flags) "
              "VALUES (?, ?, ?, ?, ?, ?, ?)")
RAW_HEAD = ("UPDATE matches SET last_seq = ?, last_hash = ?, last_at = ?, state = ?, score = ?, status = ?, seal = ?, "
            "acts_seq = ? WHERE id = ?")
RAW_APPEND = (RAW_EVENT, RAW_RULING, RAW_HEAD)
# The league log's rows of each append (SQLite): its leaf, the nodes it completed, and the log's head rewritten.
RAW_LEAF = "INSERT INTO log_leaves (idx, kind, code, seq, body) VALUES (?, ?, ?, ?, ?)"
RAW_NODE = "INSERT INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)"
RAW_LOG_HEAD = "UPDATE log_head SET size = ?, root = ?, frontier = ?, checkpoint = ? WHERE id = 1"
LOG_OFFSET = 1 << 40  # a power of two: a node's index at each level moves on with its leaves'
# The same three as one statement, PostgreSQL's fewest round trips.
RAW_CTE = (f"WITH event AS ({RAW_EVENT}), ruling AS ({RAW_RULING}) {RAW_HEAD}",)


class Way(NamedTuple):
    """How the raw driver writes each append's rows: ``statements`` for the event's, the ruling's and the head's,
    then, with ``league_log``, the league log's rows the store wrote for it (:func:`_log_rows`)."""

    statements: tuple[str, ...]
    league_log: bool = False


LogRows = tuple[tuple[Any, ...], list[tuple[Any, ...]], tuple[Any, ...]]  # a leaf, its nodes, the log's head


def _log_rows(connection: Any) -> list[LogRows]:
    """The league log's rows the store wrote for each event after a match.start, in WRITTEN's order: the event's
    leaf, the nodes that leaf completed, and the log's head (as it ends: each head as long as the one it stands
    for). Their indexes are moved on by LOG_OFFSET leaves, past those the raw database's match.starts took."""
    head = connection.execute("SELECT size, root, frontier, checkpoint FROM log_head WHERE id = 1").fetchone()
    nodes: dict[int, list[tuple[Any, ...]]] = {}
    for level, index, digest in connection.execute("SELECT level, idx, hash FROM log_nodes"):
        completing = ((index + 1) << level) - 1  # the leaf that completed it
        nodes.setdefault(completing, []).append((level, index + (LOG_OFFSET >> level), digest))
    leaves = connection.execute(
        "SELECT l.idx, l.kind, l.code, l.seq, l.body FROM log_leaves l JOIN matches m ON m.code = l.code "
        "JOIN events e ON e.match_id = m.id AND e.seq = l.seq WHERE l.kind = 'append' AND e.seq > 1 "
        "ORDER BY e.match_id, e.seq").fetchall()
    return [((leaf[0] + LOG_OFFSET, *leaf[1:]), sorted(nodes[leaf[0]]), head) for leaf in leaves]


def _raw_params(row: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
    """A WRITTEN row as the parameters of the event's, the ruling's and the head's statements."""
    event, ruling = row[:11], (*row[:2], *row[11:16])
    head = (row[1], row[10], row[3], row[12], *row[16:20], row[0])
    return event, ruling, head


def _store_appends(url: str, matches: list[tuple[dict[str, Any], list[str]]],
                   clock: Callable[[], float] = time.perf_counter, unsynced: str | None = None) -> list[float]:
    """A new store at ``url`` with the matches created, then each of their events appended; the time of each by
    ``clock``; with ``unsynced``, the statement each new connection runs first (its commits not flushed)."""
    from sqlalchemy import event

    from matchstate.store import Store

    store = Store(url)
    store.upgrade()
    if unsynced is not None:
        store.close()  # the connections opened from now on run it

        def unsync(connection: Any, _: Any) -> None:
            connection.cursor().execute(unsynced)
            connection.commit()

        event.listen(store.engine, "connect", unsync)
    latencies = []
    for start, lines in matches:
        store.create_match(start)
        for line in lines:
            begun = clock()
            store.append(start["match"], line)
            latencies.append(clock() - begun)
    store.close()
    return latencies


def _raw_appends(connection: Any, rows: list[tuple[Any, ...]], placeholder: str, begin: str | None,
                 statements: tuple[str, ...] = RAW_APPEND, clock: Callable[[], float] = time.perf_counter,
                 log: list[LogRows] | None = None) -> list[float]:
    """Each event's rows written through the DB-API ``connection``, one transaction each, with its league log
    rows where ``log`` has them (SQLite's statements); the time of each."""
    statements = tuple(sql.replace("?", placeholder) for sql in statements)
    cursor = connection.cursor()
    latencies = []
    for number, row in enumerate(rows):
        params = _raw_params(row)
        begun = clock()
        if begin:
            cursor.execute(begin)
        if len(statements) == 1:
            cursor.execute(statements[0], tuple(value for group in params for value in group))
        else:
            for sql, values in zip(statements, params, strict=True):
                cursor.execute(sql, values)
        if log is not None:
            leaf, nodes, head = log[number]
            cursor.execute(RAW_LEAF, leaf)
            cursor.executemany(RAW_NODE, nodes)
            cursor.execute(RAW_LOG_HEAD, head)
        connection.commit()
        latencies.append(clock() - begun)
    return latencies


def _append_against_raw(bench: Bench, driver: str, url: Callable[[str], str], connect: Callable[[str], Any],
                        placeholder: str, begin: str | None, ways: dict[str, Way],
                        unsynced: str | None = None) -> None:
    """Store.append of the season's first events, against ``driver`` writing the rows the store wrote in each of
    ``ways`` (a name: how); the store's row is against the last of them. With ``unsynced`` (the
    statement that turns a connection's flushes off), both run it and the rows are the CPU time of this
    process (time.process_time), not the wall's."""
    matches = _matches_for(bench.logs, STORE_APPENDS)
    events = sum(len(lines) for _, lines in matches)
    clock, what = (time.perf_counter, "") if unsynced is None else (time.process_time, ", CPU, fsync off")
    timings: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in (*ways, "store")}
    for repetition in range(bench.repeat):
        store_url = url(f"store{repetition}{what and 'cpu'}")
        latencies = _store_appends(store_url, matches, clock, unsynced)
        timings["store"][0].append(sum(latencies))
        timings["store"][1].extend(latencies)
        for number, (name, way) in enumerate(ways.items()):
            raw_url = url(f"raw{repetition}w{number}{what and 'cpu'}")
            _store_appends(raw_url, [(start, []) for start, _ in matches])  # the schema and each match.start
            with closing(connect(store_url)) as written, closing(connect(raw_url)) as raw:
                if unsynced is not None:
                    raw.execute(unsynced)
                    raw.commit()
                latencies = _raw_appends(raw, written.execute(WRITTEN).fetchall(), placeholder, begin,
                                         way.statements, clock, _log_rows(written) if way.league_log else None)
            timings[name][0].append(sum(latencies))
            timings[name][1].extend(latencies)
    baseline = None
    for name in ways:
        baseline = bench.record(f"raw {driver}, the same rows, {name}, one transaction each{what}", events,
                                *timings[name])
        _latency(f"raw {driver}, {name}", timings[name][1])
    bench.record(f"Store.append, one event{what}", events, *timings["store"], baseline=baseline)
    _latency("Store.append", timings["store"][1])


# SQLite's raw ways: the event's, ruling's and head's rows alone, then with the league log's rows as well (every
# row the store writes): the store's row is against the second.
SQLITE_WAYS = {"three statements": Way(RAW_APPEND),
               "three statements and the league log's leaf, nodes and head": Way(RAW_APPEND, league_log=True)}


@section
def store_append_sqlite(bench: Bench) -> None:
    """Each event appended with Store.append to SQLite, against raw sqlite3 writing the same rows with the
    same durability (WAL, synchronous=FULL, BEGIN IMMEDIATE ... COMMIT per event)."""
    import sqlite3
    import tempfile

    from sqlalchemy import make_url

    def connect(url: str) -> sqlite3.Connection:
        connection = sqlite3.connect(str(make_url(url).database), isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        return connection

    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        _append_against_raw(bench, "sqlite3", lambda name: f"sqlite:///{folder}/{name}.db", connect, "?",
                            "BEGIN IMMEDIATE", SQLITE_WAYS)


@section
def store_append_postgresql(bench: Bench) -> None:
    """Each event appended with Store.append to PostgreSQL (MATCHSTATE_TEST_POSTGRES_URL, default the test
    server), against raw psycopg writing the same rows, one commit each, as three statements and as one CTE
    (the fewest round trips); skipped where no server answers."""
    import psycopg
    from sqlalchemy import make_url

    def conninfo(url: str) -> str:
        return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

    with _postgresql("store_append_postgresql") as url:
        if url is not None:
            _append_against_raw(bench, "psycopg", url, lambda url: psycopg.connect(conninfo(url)), "%s", None,
                                {"three statements": Way(RAW_APPEND), "one CTE statement": Way(RAW_CTE)})


@section
def store_append_cpu(bench: Bench) -> None:
    """The append's CPU: Store.append against the raw driver writing the same rows, both with the flush of each
    commit turned off (SQLite's synchronous=OFF, PostgreSQL's synchronous_commit=off), in this process's CPU
    time; on SQLite and on PostgreSQL (where one answers). Issue #20's target: the store within 3x raw."""
    import sqlite3
    import tempfile

    import psycopg
    from sqlalchemy import make_url

    def connect(url: str) -> sqlite3.Connection:
        connection = sqlite3.connect(make_url(url).database or "", isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        return connection

    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        _append_against_raw(bench, "sqlite3", lambda name: f"sqlite:///{folder}/{name}.db", connect, "?",
                            "BEGIN IMMEDIATE", SQLITE_WAYS, "PRAGMA synchronous=OFF")
    with _postgresql("store_append_cpu") as url:
        if url is not None:
            _append_against_raw(bench, "psycopg", url, lambda name: psycopg.connect(
                make_url(name).set(drivername="postgresql").render_as_string(hide_password=False)), "%s", None,
                {"one CTE statement": Way(RAW_CTE)}, "SET synchronous_commit = off")


@section
def store_append_sealing(bench: Bench) -> None:
    """What the seals and receipts cost a durable SQLite append: Store.append as it is (the head sealed with
    HMAC-SHA256, the receipt its group's checkpoint and its inclusion proof) against Store.append with both left
    out (the seal and the receipt replaced by nothing, here only), repetitions alternating, each on a new database."""
    import tempfile
    from unittest import mock

    from matchstate.store import facade, writer

    matches = _matches_for(bench.logs, STORE_APPENDS)
    events = sum(len(lines) for _, lines in matches)
    timings: dict[str, tuple[list[float], list[float]]] = {"without": ([], []), "with": ([], [])}
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        for repetition in range(bench.repeat):
            for kind in ("without", "with") if repetition % 2 else ("with", "without"):
                url = f"sqlite:///{folder}/{kind}{repetition}.db"
                if kind == "with":
                    latencies = _store_appends(url, matches)
                else:
                    with mock.patch.object(writer, "head_seal", lambda *_: ""), \
                            mock.patch.object(facade.Store, "_receipt", lambda *_: None):
                        latencies = _store_appends(url, matches)
                seconds, all_latencies = timings[kind]
                seconds.append(sum(latencies))
                all_latencies += latencies
    baseline = bench.record("Store.append without seals and receipts", events, *timings["without"])
    bench.record("Store.append, sealed, with its receipt", events, *timings["with"], baseline=baseline)
    _latency("Store.append without seals and receipts", timings["without"][1])
    _latency("Store.append, sealed, with its receipt", timings["with"][1])


CONCURRENT_WRITERS = 8


def _databases(folder: str, postgresql: Callable[[str], str] | None) -> dict[str, Callable[[str], str]]:
    """The URL makers of a new SQLite file in ``folder`` and, where one answers, a new PostgreSQL schema."""
    urls: dict[str, Callable[[str], str]] = {"SQLite": lambda name: f"sqlite:///{folder}/{name}.db"}
    if postgresql is not None:
        urls["PostgreSQL"] = postgresql
    return urls


@section
def store_append_concurrent(bench: Bench) -> None:
    """8 threads, each appending the events of a match of its own through one Store, durably: with group commit
    (the appends waiting at a moment share a commit) against without (a transaction each), repetitions
    alternating, each on a new database; SQLite and PostgreSQL (skipped where no server answers)."""
    import tempfile

    matches = [(json.loads(lines[0]), lines[1:]) for lines in bench.logs[:CONCURRENT_WRITERS]]
    events = sum(len(lines) for _, lines in matches)
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, \
            _postgresql("store_append_concurrent") as postgresql:
        for kind, url in _databases(folder, postgresql).items():
            timings: dict[bool, tuple[list[float], list[float]]] = {False: ([], []), True: ([], [])}
            for repetition in range(bench.repeat):
                for grouped in (False, True) if repetition % 2 == 0 else (True, False):
                    seconds, latencies = _concurrent_appends(url(f"c{repetition}{grouped:d}"), matches, grouped,
                                                             f"{folder}/{kind}.secret")
                    timings[grouped][0].append(seconds)
                    timings[grouped][1].extend(latencies)
            baseline = bench.record(f"{kind}: {CONCURRENT_WRITERS} threads, a transaction each", events,
                                    *timings[False])
            _latency(f"{kind}, {CONCURRENT_WRITERS} threads without group commit", timings[False][1])
            bench.record(f"{kind}: {CONCURRENT_WRITERS} threads, group commit", events, *timings[True],
                         baseline=baseline)
            _latency(f"{kind}, {CONCURRENT_WRITERS} threads with group commit", timings[True][1])


def _concurrent_appends(url: str, matches: list[tuple[dict[str, Any], list[str]]], grouped: bool,
                        secret_file: str) -> tuple[float, list[float]]:
    """A new store at ``url`` with the matches created, then each match's events appended by a thread of its own,
    all at once; the wall time of all, and the time of each append."""
    import threading

    from matchstate.store import Store

    store = Store(url, secret_file=secret_file, group_commit=grouped)
    store.upgrade()
    for start, _ in matches:
        store.create_match(start)
    latencies: list[float] = []
    ready = threading.Barrier(len(matches) + 1)

    def writer(code: str, lines: list[str]) -> None:
        ready.wait()
        own = []
        for line in lines:
            begun = time.perf_counter()
            store.append(code, line)
            own.append(time.perf_counter() - begun)
        latencies.extend(own)

    threads = [threading.Thread(target=writer, args=(start["match"], lines)) for start, lines in matches]
    for thread in threads:
        thread.start()
    ready.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - began
    store.close()
    return seconds, latencies


@contextlib.contextmanager
def _without_league_log() -> Iterator[None]:
    """Store.append as before the league log: no leaf added, no checkpoint signed, no proof made (here only)."""
    from unittest import mock

    from matchstate.store import facade
    from matchstate.store.leaguelog import Added, LeagueLog

    with mock.patch.object(LeagueLog, "add", lambda *_, **__: Added(0, 0, b"", None)), \
            mock.patch.object(facade.Store, "_receipt", lambda *_: None):
        yield


@section
def store_append_league_log(bench: Bench) -> None:
    """What the league log costs a durable append: Store.append with its leaf, its group's signed checkpoint and
    its inclusion proof (its receipt), against Store.append without them nor a receipt, alone (one event at a time) and
    with 8 threads writing at once (group commit: one checkpoint per group; on PostgreSQL every group of every
    server takes the log's lock until it commits); SQLite and PostgreSQL (skipped where no server answers),
    repetitions alternating, each on a new database."""
    import tempfile

    lone = _matches_for(bench.logs, STORE_APPENDS // 4)
    lone_events = sum(len(lines) for _, lines in lone)
    writers = [(json.loads(lines[0]), lines[1:]) for lines in bench.logs[:CONCURRENT_WRITERS]]
    writer_events = sum(len(lines) for _, lines in writers)
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, \
            _postgresql("store_append_league_log") as postgresql:
        for kind, url in _databases(folder, postgresql).items():
            timings: dict[tuple[str, bool], tuple[list[float], list[float]]] = {
                (way, logged): ([], []) for way in ("lone", "writers") for logged in (False, True)}
            with _secret_file(f"{folder}/{kind}.secret"):
                for repetition in range(bench.repeat):
                    for logged in (False, True) if repetition % 2 == 0 else (True, False):
                        with contextlib.nullcontext() if logged else _without_league_log():
                            latencies = _store_appends(url(f"l{repetition}{logged:d}"), lone)
                            timings["lone", logged][0].append(sum(latencies))
                            timings["lone", logged][1].extend(latencies)
                            seconds, latencies = _concurrent_appends(url(f"w{repetition}{logged:d}"), writers, True,
                                                                     f"{folder}/{kind}.secret")
                            timings["writers", logged][0].append(seconds)
                            timings["writers", logged][1].extend(latencies)
            for way, events, what in (("lone", lone_events, "one event at a time"),
                                      ("writers", writer_events, f"{CONCURRENT_WRITERS} threads, group commit")):
                baseline = bench.record(f"{kind}: Store.append without the league log, {what}", events,
                                        *timings[way, False])
                bench.record(f"{kind}: Store.append with its leaf, checkpoint and proof, {what}", events,
                             *timings[way, True], baseline=baseline)
                _latency(f"{kind}, {what}, with the league log", timings[way, True][1])


BUNDLE_SEASON = 300  # matches in the season whose bundle is verified


@section
def verify_bundle(bench: Bench) -> None:
    """`matchstate verify --bundle DIR` of a season of 300 matches (its evidence bundle: no database, no secret)
    against `matchstate verify` of the same store (SQLite), repetitions alternating: both replay every match
    through the engine; the bundle checks each event's inclusion proof and the checkpoint's signature where the
    store checks its seals, acts and league log."""
    import tempfile

    from matchstate.evidence import archive, verify_bundle
    from matchstate.store import Store
    from matchstate.version import ENGINE_VERSION

    logs = bench.logs[:BUNDLE_SEASON]
    events = sum(len(lines) for lines in logs)
    timings: dict[str, tuple[list[float], list[float]]] = {"store": ([], []), "bundle": ([], [])}
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        store = Store(f"sqlite:///{folder}/season.db")
        store.upgrade()
        codes = [store.import_log(lines)[0] for lines in logs]
        archive(store, codes, Path(folder) / "bundle")
        for repetition in range(bench.repeat):
            for kind in ("store", "bundle") if repetition % 2 == 0 else ("bundle", "store"):
                began = time.perf_counter()
                if kind == "store":
                    problems = [str(problem) for problem in store.verify()]
                else:
                    problems = verify_bundle(Path(folder) / "bundle", ENGINE_VERSION).problems
                timings[kind][0].append(time.perf_counter() - began)
                assert not problems, problems[:3]
        store.close()
    baseline = bench.record(f"matchstate verify of a {BUNDLE_SEASON}-match season's store", events,
                            *timings["store"])
    bench.record("matchstate verify --bundle of the same season's bundle", events, *timings["bundle"],
                 baseline=baseline)


IMPORT_SIZES = (10_000, 40_000)


@section
def store_import(bench: Bench) -> None:
    """`matchstate import`'s Store.import_log of one long match, on SQLite and on PostgreSQL (where one answers),
    at two lengths: linear when the time per event stays the same."""
    import tempfile

    from matchstate.store import Store

    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, _postgresql("store_import") as postgresql:
        os.environ.setdefault("MATCHSTATE_SECRET_FILE", f"{folder}/bench.secret")
        urls: dict[str, Callable[[str], str]] = {"sqlite": lambda name: f"sqlite:///{folder}/{name}.db"}
        if postgresql is not None:
            urls["postgresql"] = postgresql
        for database, url in urls.items():
            baseline = None
            for size in IMPORT_SIZES:
                lines = _rallies(size)
                seconds = []
                for repetition in range(bench.repeat):
                    store = Store(url(f"import{size}r{repetition}"))
                    store.upgrade()
                    began = time.perf_counter()
                    store.import_log(lines)
                    seconds.append(time.perf_counter() - began)
                    store.close()
                row = bench.record(f"{database}, {size:,} events", size, seconds, seconds, baseline)
                baseline = baseline or row


LONG_IMPORT = 100_000  # events


@section
def store_import_long(bench: Bench) -> None:
    """Store.import_log of a 100,000-event match on PostgreSQL (where one answers; its batches streamed with
    COPY), the wall time and this process's CPU time of each; against the same import on SQLite. Issue #20's
    target: 100k events on PostgreSQL in 20 s at most."""
    import tempfile

    from matchstate.store import Store

    lines = _rallies(LONG_IMPORT)
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, _postgresql("store_import") as postgresql:
        os.environ.setdefault("MATCHSTATE_SECRET_FILE", f"{folder}/bench.secret")
        urls: dict[str, Callable[[str], str]] = {"sqlite": lambda name: f"sqlite:///{folder}/{name}.db"}
        if postgresql is not None:
            urls["postgresql"] = postgresql
        baseline = None
        for database, url in urls.items():
            wall, cpu = [], []
            for repetition in range(bench.repeat):
                store = Store(url(f"long{repetition}"))
                store.upgrade()
                began, used = time.perf_counter(), time.process_time()
                store.import_log(lines)
                wall.append(time.perf_counter() - began)
                cpu.append(time.process_time() - used)
                store.close()
            row = bench.record(f"{database}, {LONG_IMPORT:,} events, wall", LONG_IMPORT, wall, wall, baseline)
            baseline = baseline or row
            bench.record(f"{database}, {LONG_IMPORT:,} events, the client's CPU", LONG_IMPORT, cpu, cpu, row)
            print(f"  {database}: median {statistics.median(wall):.1f} s wall, {statistics.median(cpu):.1f} s CPU",
                  file=sys.stderr)


LIVE_BESIDE = 400  # live appends at least, before and during the import


@section
def import_beside_live(bench: Bench) -> None:
    """A 100,000-event import through the HTTP API (`matchstate serve`, SQLite and PostgreSQL where one answers)
    while another client appends to another match one request at a time: the live appends' latencies during the
    import, against the same client's alone just before. Issue #18's target: p99 under 250 ms."""
    import tempfile

    served = _servers()[0]
    body = "\n".join(_rallies(LONG_IMPORT)).encode()
    live = _rallies(LONG_IMPORT)  # more than the live client can send while the imports run
    start = {**json.loads(live[0]), "match": "live"}
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, \
            _postgresql("import_beside_live") as postgresql:
        urls = {"sqlite": f"sqlite:///{folder}/beside.db"}
        if postgresql is not None:
            urls["postgresql"] = postgresql("beside")
        with _secret_file(f"{folder}/bench.secret"):
            for database, url in urls.items():
                _served_store(url)
                server = served(url, options=UNLIMITED)
                server.start(timeout=120)
                try:
                    alone, beside = asyncio.run(_beside(server.base, start, live[1:], body, bench.repeat))
                finally:
                    server.stop()
                baseline = bench.record(f"{database}: live appends alone", len(alone), [sum(alone)], alone)
                bench.record(f"{database}: live appends during the import", len(beside), [sum(beside)], beside,
                             baseline)
                _latency(f"{database}, alone", alone)
                _latency(f"{database}, during the import", beside)


async def _beside(base: str, start: dict[str, Any], lines: list[str], body: bytes,
                  repeat: int) -> tuple[list[float], list[float]]:
    """The live client's latencies alone (LIVE_BESIDE appends a repetition), then while each repetition's import
    runs; the imports' matches each of a code of their own."""
    clock = time.perf_counter
    alone: list[float] = []
    beside: list[float] = []
    async with _Connection.open(base) as connection, _Connection.open(base) as importer:
        path, key = await connection.create(start)
        pending = iter(lines)

        async def append(into: list[float]) -> None:
            begun = clock()
            status, answer = await connection.request("POST", f"{path}/events", _appended(next(pending)), key)
            into.append(clock() - begun)
            if status != 201:  # told, and counted in the latencies: a refusal is an append that waited for nothing
                print(f"  a live append answered {status} after {into[-1]:.1f} s: {answer[:80]!r}", file=sys.stderr)

        for repetition in range(repeat):
            for _ in range(LIVE_BESIDE):
                await append(alone)
            renamed = body.replace(b'"match": "long"', f'"match": "long-{repetition}"'.encode(), 1)
            imported = asyncio.ensure_future(importer.request("POST", "/api/matches/import", renamed, LEAGUE))
            while not imported.done():
                await append(beside)
            status, answer = await imported
            if status != 201:
                raise RuntimeError(f"the import answered {status}: {answer[:200]!r}")
    return alone, beside


# A free hit after another, each scored: a log as long as a measure needs.
RALLY = ({"type": "penalty.award", "penalty": "4", "to": "Blue"}, {"type": "play"},
         {"type": "hit", "player": 2, "contact": "hit"}, {"type": "goal", "team": "Blue", "player": 2})


def _rallies(events: int) -> list[str]:
    """A valid log of ``events`` lines: a match.start, then rallies, one second apart, each with a device id."""
    kickoff = datetime(2026, 11, 29, 15, tzinfo=UTC)
    start = {"type": "match.start", "at": kickoff.isoformat(), "match": "long", "teams": ["Blue", "Red"]}
    return [json.dumps(start)] + [json.dumps({**RALLY[(seq - 1) % len(RALLY)], "id": f"e{seq}",
                                              "at": (kickoff + timedelta(seconds=seq)).isoformat()})
                                  for seq in range(1, events)]


@section
def store_replay(bench: Bench) -> None:
    """Stored matches replayed from SQLite: Store.match with an empty cache (read the events, feed a new
    Match) and Store.verify (hash chains and rulings too), against log.replay of the same lines in memory."""
    import tempfile

    from matchstate.store import Store

    logs = bench.logs[:REPLAY_MATCHES]
    events = sum(map(len, logs))
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        url = f"sqlite:///{folder}/replay.db"
        store = Store(url)
        store.upgrade()
        codes = [store.import_log(lines)[0] for lines in logs]
        timings: dict[str, tuple[list[float], list[float]]] = {}  # name -> (seconds, latencies)
        for _ in range(bench.repeat):
            cold = Store(url)
            for name, run in (("log.replay from memory", lambda n: full_replay(logs[n])),
                              ("Store.match, empty cache", lambda n, cold=cold: cold.match(codes[n])),
                              ("Store.verify", lambda n: store.verify(codes[n]))):
                seconds, latencies = timings.setdefault(name, ([], []))
                gc.collect()
                began = time.perf_counter()
                for number in range(len(logs)):
                    begun = time.perf_counter()
                    run(number)
                    latencies.append(time.perf_counter() - begun)
                seconds.append(time.perf_counter() - began)
            cold.close()
        store.close()
    baseline = None
    for name, (seconds, latencies) in timings.items():
        row = bench.record(name, events, seconds, latencies, baseline)
        baseline = baseline or row


ROUND_ROBIN_MATCHES = 100
ROUND_ROBIN_HELD = 64  # the budget holds this many typical matches' engines, as the cache did before (64 matches)
ROUND_ROBIN_APPENDS = 20  # rounds: appends to each match, in turn
COLD_EVENTS = 10_000


def _typical_bytes(logs: list[list[str]]) -> tuple[float, float, float]:
    """A typical match's engine in memory (tracemalloc, median), its cache estimate, and its checkpoint blob."""
    import tracemalloc

    from matchstate.log import parse_line
    from matchstate.store.cache import Head
    from matchstate.store.checkpoints import encode

    taken, estimates, blobs = [], [], []
    for lines in logs:
        events = [parse_line(line) for line in lines]
        tracemalloc.start()
        match = Match()
        for event in events:
            match.feed(event)
        taken.append(tracemalloc.get_traced_memory()[0])
        tracemalloc.stop()
        estimates.append(Head(1, match).estimate())
        blobs.append(len(encode(match.checkpoint())))
    return statistics.median(taken), statistics.median(estimates), statistics.median(blobs)


@section
def store_cache(bench: Bench) -> None:
    """The engine cache on SQLite. Round robin: appends to 100 matches in turn with a budget that holds 64 typical
    matches' engines, with stored checkpoints against without (a miss replays its match from the start, as every
    append did with the cache of 64). Cold: an append to a 10k-event match by a store just opened, resumed from
    its checkpoint and replayed from the start (the store connected and its statements compiled by an append to
    another match), against a warm append to it."""
    import tempfile

    from matchstate.store import Store
    from matchstate.store.cache import EngineCache

    taken, estimate, blob = _typical_bytes(bench.logs[:200])
    print(f"  store_cache: a typical match ({statistics.median(map(len, bench.logs)):.0f} events): its engine takes "
          f"{taken / 1024:.1f} KiB (tracemalloc), the cache estimates {estimate / 1024:.1f} KiB, its checkpoint "
          f"blob is {blob:,.0f} bytes", file=sys.stderr)
    logs = bench.logs[:ROUND_ROBIN_MATCHES]
    budget = int(ROUND_ROBIN_HELD * estimate)
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        url = f"sqlite:///{folder}/cache.db"
        Store(url).upgrade()
        timings: dict[str, list[float]] = {}
        measures = (("round robin, 100 matches, misses replayed", False, budget),
                    ("round robin, 100 matches, checkpoints", True, budget),
                    ("round robin, 100 matches, a budget that holds them all", True, 10 * budget))
        for repetition in range(bench.repeat):
            for measure, (name, checkpoints, held) in enumerate(measures):
                store = Store(url, cache_bytes=held)
                if not checkpoints:
                    store._cache = EngineCache(held)
                codes = []
                for lines in logs:
                    start = json.loads(lines[0])
                    code = f"{start['match']}-{repetition}-{measure}"
                    renamed = [json.dumps({**start, "match": code}), *lines[1:len(lines) - ROUND_ROBIN_APPENDS]]
                    store.import_log(renamed)
                    codes.append((code, lines[len(lines) - ROUND_ROBIN_APPENDS:]))
                store.close()
                store = Store(url, cache_bytes=held)  # a server started on them
                if not checkpoints:
                    store._cache = EngineCache(held)
                gc.collect()
                began = time.perf_counter()
                for turn in range(ROUND_ROBIN_APPENDS):
                    for code, rest in codes:
                        store.append(code, rest[turn])
                timings.setdefault(name, []).append(time.perf_counter() - began)
                store.close()
        baseline = None
        for name, seconds in timings.items():
            row = bench.record(name, ROUND_ROBIN_APPENDS * len(logs), seconds, baseline=baseline)
            baseline = baseline or row

        url = f"sqlite:///{folder}/cold.db"
        store = Store(url)
        store.upgrade()
        store.import_log(_rallies(COLD_EVENTS))
        store.import_log(json.dumps({**json.loads(line), "match": "other"}) for line in _rallies(2))
        store.close()
        kickoff = datetime(2026, 11, 29, 15, tzinfo=UTC)
        seqs = {"long": COLD_EVENTS, "other": 2}

        def append(store: Store, code: str = "long") -> float:
            seq = seqs[code] = seqs[code] + 1
            event = {**RALLY[(seq - 1) % len(RALLY)], "id": f"{code}{seq}",
                     "at": (kickoff + timedelta(seconds=seq)).isoformat()}
            began = time.perf_counter()
            store.append(code, event)
            return time.perf_counter() - began

        store = Store(url)
        append(store)  # its first append stores its checkpoint
        store.close()
        cold: dict[str, list[float]] = {}
        for _ in range(bench.repeat):
            for name, checkpoints in (("cold append, 10k events, replayed from the start", False),
                                      ("cold append, 10k events, resumed from its checkpoint", True)):
                store = Store(url)
                if not checkpoints:
                    store._cache = EngineCache()
                append(store, "other")  # connected, its statements compiled: only the long match is cold
                cold.setdefault(name, []).append(append(store))
                cold.setdefault("warm append, 10k events (its engine cached)", []).append(append(store))
                store.close()
    warm = bench.record("warm append, 10k events (its engine cached)",
                        1, cold.pop("warm append, 10k events (its engine cached)"))
    for name, seconds in cold.items():
        bench.record(name, 1, seconds, baseline=warm)


LIST_MATCHES = 50_000
LIST_PAGES = 20  # pages timed per measure and repetition


@section
def match_list(bench: Bench) -> None:
    """A page of the match list (Archive.matches, as `GET /api/matches` asks it) at 50,000 matches, on SQLite
    and PostgreSQL (skipped where no server answers): the first page, a deep one, a filtered one, newest
    first; against every match read and filtered in Python, as the list was before (its replays cached)."""
    import tempfile

    from matchstate.records.archive import Archive, _each_listed
    from matchstate.records.search import Filters, find
    from matchstate.store import Store

    pages: dict[str, Callable[[Archive], object]] = {
        "every match, filtered in Python (the list before)":
            lambda archive: find(_each_listed(archive.store.summaries()),
                                 Filters(team="blue", status="finished"))[:100],
        "first page of 100": lambda archive: archive.matches(limit=100),
        "page at offset 49,900": lambda archive: archive.matches(limit=100, offset=LIST_MATCHES - 100),
        "page after a cursor at 49,900 (keyset)": lambda archive: archive.matches(
            limit=100, after=f"list-{LIST_MATCHES - 101:06}"),
        "team and standing, a page": lambda archive: archive.matches(Filters(team="blue", status="finished"),
                                                                     limit=100),
        "newest first, a page": lambda archive: archive.matches(sort="-created", limit=100),
    }
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, _postgresql("match_list") as postgresql:
        urls = {"SQLite": f"sqlite:///{folder}/list.db"}
        if postgresql is not None:
            urls["PostgreSQL"] = postgresql("list")
        for kind, url in urls.items():
            store = Store(url, secret_file=f"{folder}/{kind}.secret")
            store.upgrade()
            began = time.perf_counter()
            _insert_matches(store, LIST_MATCHES)
            print(f"  match_list: {kind}: {LIST_MATCHES:,} matches inserted in {time.perf_counter() - began:.1f} s",
                  file=sys.stderr)
            archive = Archive(store)
            _reads_against_the_first(bench, {name: partial(read, archive) for name, read in pages.items()},
                                     LIST_PAGES, f"{kind}: ")
            store.close()


def _reads_against_the_first(bench: Bench, reads: dict[str, Callable[[], object]], times: int, label: str) -> None:
    """Time each of ``reads`` ``times`` a repetition, and record each (named after ``label``) against the first."""
    baseline = None
    for name, read in reads.items():
        seconds, latencies = [], []
        for _ in range(bench.repeat):
            for _ in range(times):
                begun = time.perf_counter()
                read()
                latencies.append(time.perf_counter() - begun)
            seconds.append(sum(latencies[-times:]))
        row = bench.record(f"{label}{name}", times, seconds, latencies, baseline)
        baseline = baseline or row
        _latency(f"{label}{name}", latencies)


def _insert_matches(store: Any, count: int) -> None:
    """``count`` matches of a season written straight into the tables (their match.start only, a tenth
    finished, a third in play), as fast as the database takes them: not through the engine."""
    from sqlalchemy import insert

    from matchstate.models import EventRow, MatchRow
    from matchstate.records.search import fold

    first = datetime(2025, 3, 1, 15, tzinfo=UTC)
    teams = ["Blue", "Red", "La Dolfina", "Ellerstina", "Los Álamos", "Gold", "Cría Yatay", "La Natividad"]
    for begin in range(0, count, 5000):
        matches, events = [], []
        for n in range(begin, min(begin + 5000, count)):
            at = first + timedelta(hours=n)
            pair = [teams[n % 8], teams[(n * 3 + 1) % 8 if (n * 3 + 1) % 8 != n % 8 else (n + 1) % 8]]
            start = {"type": "match.start", "at": at.isoformat(), "match": f"list-{n:06}", "teams": pair,
                     "event": f"Copa {n % 40}", "venue": f"Cancha {n % 9}"}
            status = "finished" if n % 10 == 0 else "in_play" if n % 3 == 0 else "scheduled"
            matches.append({"id": n + 1, "code": start["match"], "teams": pair, "conditions": {}, "created": at,
                            "last_seq": 1, "last_hash": "0" * 64, "last_at": at, "state": "idle",
                            "score": {pair[0]: n % 5, pair[1]: n % 4}, "status": status,
                            "day": at.date().isoformat(), "team_1": fold(pair[0]), "team_2": fold(pair[1])})
            events.append({"match_id": n + 1, "seq": 1, "type": "match.start", "at": at, "raw": json.dumps(start),
                           "device_id": None, "by": None, "role": None, "received_at": at,
                           "prev_hash": "0" * 64, "hash": "0" * 64})
        with store.database.transaction(write=True) as connection:
            connection.execute(insert(MatchRow), matches)
            connection.execute(insert(EventRow), events)
    with store.database.transaction(write=True) as connection:
        connection.exec_driver_sql("ANALYZE")  # as a database that grew by appends would have its statistics


STATS_MATCHES = 10_000
STATS_DISTINCT = 500  # distinct logs of the season, copied under new codes up to STATS_MATCHES
STATS_READS = 10  # warm reads timed per measure and repetition


@section
def season_stats(bench: Bench) -> None:
    """The statistics of a season of 10,000 matches on SQLite: a page (every team, the first 50 players), a
    team's page, the whole season as `GET /api/stats` sums it, and `GET /stats` as a browser gets it, warm and
    as the first call of a new process's Store (a restart); against the recount as it was (Archive.recount,
    every match's tally already kept in memory: its warm best). The season is the bench's first 500 logs,
    each copied under 20 codes (each match's match.start stored, not the rest of its log, which no statistics
    read touches): every match is tallied with the kept statistics' own functions and written
    as a read's catch-up writes it (tallying 10,000 logs twice would take the bench ten minutes; the cold
    recount's cost per match is timed on the 500 and given as the time for 10,000 at that rate)."""
    import tempfile
    import warnings

    from sqlalchemy import insert

    from matchstate.models import STAT_LINES, EventRow, MatchRow, StatMarkRow
    from matchstate.records.archive import Archive, _listed, _Record
    from matchstate.records.search import fold
    from matchstate.records.stats import Scope
    from matchstate.records.tally import tally
    from matchstate.store import Store, Summary
    from matchstate.store.statistics import line_rows, mark_row

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Using `httpx`")
        from fastapi.testclient import TestClient

    from matchstate.web import create_app

    logs = [[json.loads(line) for line in lines] for lines in bench.logs[:STATS_DISTINCT]]
    began = time.perf_counter()
    tallies = [tally(log) for log in logs]
    per_match = (time.perf_counter() - began) / len(logs)
    print(f"  season_stats: cold recount, {per_match * 1e3:.1f} ms a match: {per_match * STATS_MATCHES:.0f} s "
          f"for {STATS_MATCHES:,} (the first call after a restart, before)", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        url = f"sqlite:///{folder}/stats.db"
        store = Store(url, secret_file=f"{folder}/stats.secret")
        store.upgrade()
        rows: dict[str, list[dict[str, Any]]] = {"matches": [], "events": [], "lines": [], "marks": []}
        counted_as: dict[str, Any] = {}
        for n in range(STATS_MATCHES):
            log, counted = logs[n % len(logs)], tallies[n % len(logs)]
            start, at = {**log[0], "match": f"{log[0]['match']}-{n}"}, datetime.fromisoformat(log[0]["at"])
            rows["matches"].append({
                "id": n + 1, "code": start["match"], "teams": start["teams"], "conditions": {}, "created": at,
                "last_seq": len(log), "last_hash": "0" * 64, "last_at": at, "state": "idle",
                "score": counted.score, "status": counted.status, "day": at.date().isoformat(),
                "team_1": fold(start["teams"][0]), "team_2": fold(start["teams"][1])})
            rows["events"].append({"match_id": n + 1, "seq": 1, "type": "match.start", "at": at,
                                   "raw": json.dumps(start), "device_id": None, "by": None, "role": None,
                                   "received_at": at, "prev_hash": "0" * 64, "hash": "0" * 64})
            counted_as[start["match"]] = counted
            rows["lines"] += line_rows(n + 1, counted)
            rows["marks"].append(mark_row(n + 1, len(log), counted))
        with store.database.transaction(write=True) as connection:
            connection.execute(insert(MatchRow), rows["matches"])
            connection.execute(insert(EventRow), rows["events"])
            connection.execute(insert(STAT_LINES), rows["lines"])
            connection.execute(insert(StatMarkRow), rows["marks"])
            connection.exec_driver_sql("ANALYZE")
        store.close()
        print(f"  season_stats: {STATS_MATCHES:,} matches, {len(rows['lines']):,} statistics lines", file=sys.stderr)

        def recounting() -> Archive:
            """An archive whose every match's tally is kept in memory, as the recount's was when warm."""
            archive = Archive(store)
            for summary in archive.store.summaries():
                assert isinstance(summary, Summary)  # a store the bench wrote reads back whole
                archive._records[summary.code] = _Record(_listed(summary), counted_as[summary.code])
            return archive

        def restarted(read: Callable[[Archive], object]) -> float:
            """The time of ``read`` on a new Store's archive, as the first call after a start."""
            nonlocal store
            store.close()
            store = Store(url, secret_file=f"{folder}/stats.secret")
            began = time.perf_counter()
            read(Archive(store))
            return time.perf_counter() - began

        store = Store(url, secret_file=f"{folder}/stats.secret")
        team = tallies[0].teams[0]
        reads: dict[str, Callable[[Archive], object]] = {
            "the recount, warm (before)": lambda archive: archive.recount(Scope.of()),
            "a page: every team, 50 players": lambda archive: archive.kept.page(Scope.of()),
            "a team's page": lambda archive: archive.kept.page(Scope.of(), team=team),
            "a season's page (2027)": lambda archive: archive.kept.page(Scope.of(season="2027")),
            "every team and player (the API's whole answer)": lambda archive: archive.stats(Scope.of()),
        }
        baseline = None
        for name, read in reads.items():
            archive = recounting() if baseline is None else Archive(store)
            seconds, latencies = [], []
            count = STATS_READS if baseline is not None else 2  # the recount takes seconds a read
            for _ in range(bench.repeat):
                for _ in range(count):
                    begun = time.perf_counter()
                    read(archive)
                    latencies.append(time.perf_counter() - begun)
                seconds.append(sum(latencies[-count:]))
            row = bench.record(name, count, seconds, latencies, baseline)
            baseline = baseline or row
            _latency(name, latencies)
        firsts = [restarted(lambda archive: archive.kept.page(Scope.of())) for _ in range(bench.repeat)]
        bench.record("a page, the first call after a restart", 1, firsts, firsts, baseline)
        _latency("a page, the first call after a restart", firsts)
        with TestClient(create_app(store)) as client:
            pages: list[float] = []
            for _ in range(bench.repeat * STATS_READS):
                begun = time.perf_counter()
                answer = client.get("/stats")
                pages.append(time.perf_counter() - begun)
            print(f"  season_stats: GET /stats: {len(answer.content):,} bytes", file=sys.stderr)
        bench.record("GET /stats, warm", STATS_READS, [sum(pages[i:i + STATS_READS])
                                                       for i in range(0, len(pages), STATS_READS)], pages, baseline)
        _latency("GET /stats, warm", pages)
        store.close()


SLOW_3G = {"offline": False, "latency": 2000, "downloadThroughput": 50_000, "uploadThroughput": 50_000}
BEFORE = "8515c02"  # main before the pages were compressed and versioned: the section's baseline


@section
def console_slow_3g(bench: Bench) -> None:
    """The scorer's console opened in Debian's Chromium on DevTools' Slow 3G (CDP's
    Network.emulateNetworkConditions: 2 s latency, 50 kB/s each way): the time from the request to the
    console ready (`#console.ready`), the bytes on the wire (CDP's encodedDataLength), then a reload; against
    the same on this repository's main before these changes (its tree at BEFORE, from git, served alike). Each
    tree's console is opened as a reader opens it, with no key, and as its scorer does, the scorer's key held."""
    import shutil
    import subprocess
    import tempfile

    from matchstate.examples import path as example_path
    from matchstate.web.process import ServerProcess

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("  console_slow_3g: skipped, Playwright is not installed", file=sys.stderr)
        return
    here = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        before = Path(folder) / "before"
        before.mkdir()
        archive = subprocess.run(["git", "-C", str(here), "archive", BEFORE], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(before)], input=archive.stdout, check=True)
        trees = {f"main at {BEFORE} (before)": before, "this tree": here}
        baselines: dict[str, Row] = {}  # the tree before's rows, by how the console was opened and what was timed
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                                  args=["--headless", "--no-sandbox", "--disable-gpu"])
            for number, (name, tree) in enumerate(trees.items()):
                url = f"sqlite:///{folder}/{number}.db"
                env = {**os.environ, "PYTHONPATH": str(tree), "MATCHSTATE_DATABASE_URL": url,
                       "MATCHSTATE_SECRET_FILE": f"{folder}/{number}.secret"}
                create = ["--create"] if tree == here else []  # the tree before had no --create, and needed none
                subprocess.run([sys.executable, "-m", "matchstate", "db", "upgrade", *create], env=env, check=True,
                               capture_output=True, cwd=tree)
                imported = subprocess.run([sys.executable, "-m", "matchstate", "import",
                                           str(example_path("full-match"))],
                                          env=env, check=True, capture_output=True, cwd=tree, text=True).stdout
                scorer_key = re.search(r"^scorer key: (\S+)$", imported, re.MULTILINE)
                assert scorer_key is not None, imported  # every tree's import prints the match's keys
                server = ServerProcess(url, log=Path(folder) / f"{number}.log")
                with _secret_file(env["MATCHSTATE_SECRET_FILE"]), _pythonpath(tree):
                    server.start(timeout=300)  # a loaded machine takes long to import a server
                try:
                    for held, fragment in (("no key", ""), ("the scorer's key", f"#key={scorer_key[1]}")):
                        console = f"{server.base}/matches/acacias-2026-final/console{fragment}"
                        for timed, row in _console_on_slow_3g(bench, chromium, console, f"{name}, {held}",
                                                              baselines).items():
                            baselines.setdefault(f"{held}: {timed}", row)
                finally:
                    server.stop()
            chromium.close()


def _console_on_slow_3g(bench: Bench, chromium: Any, url: str, name: str, baselines: dict[str, Row]
                        ) -> dict[str, Row]:
    """The console at ``url`` opened, then reloaded, on Slow 3G, ``bench.repeat`` times: its rows, by what was
    timed, each against the row in ``baselines`` of the same console (the part of ``name`` after its comma)."""
    firsts, reloads, wire, answers = [], [], [], 0
    for _ in range(bench.repeat):
        context = chromium.new_context()
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_3G)
        received: list[int] = []
        cdp.on("Network.loadingFinished", lambda sent, into=received: into.append(sent["encodedDataLength"]))
        began = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.wait_for_selector("#console.ready", timeout=180_000)
        firsts.append(time.perf_counter() - began)
        page.wait_for_load_state("networkidle", timeout=180_000)
        wire.append(sum(received))
        answers = len(received)
        began = time.perf_counter()
        page.reload(wait_until="commit")
        page.wait_for_selector("#console.ready", timeout=180_000)
        reloads.append(time.perf_counter() - began)
        context.close()
    print(f"  console_slow_3g: {name}: {statistics.median(wire) / 1000:.1f} kB on the wire, {answers} answers; "
          f"first load {statistics.median(firsts):.2f} s, reload {statistics.median(reloads):.2f} s", file=sys.stderr)
    held = name.rpartition(", ")[2]
    return {timed: bench.record(f"{name}: {timed} to usable", 1, seconds, seconds, baselines.get(f"{held}: {timed}"))
            for timed, seconds in (("first load", firsts), ("reload", reloads))}


@contextlib.contextmanager
def _pythonpath(tree: Path) -> Iterator[None]:
    """PYTHONPATH and the working directory set to ``tree`` for the servers started meanwhile, so they run that
    tree's matchstate (`python -m` puts the working directory first on the path)."""
    before, here = os.environ.get("PYTHONPATH"), os.getcwd()
    os.environ["PYTHONPATH"] = str(tree)
    os.chdir(tree)
    try:
        yield
    finally:
        os.chdir(here)
        if before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = before




TOURNAMENT_PAGES = 10  # page reads per repetition
SEASON_SIZES = (13, 18, 25)  # round robins of 78, 153 and 300 matches


def _played_tournament(desk: Any, slug: str, teams: int, bracket: bool) -> int:
    """A tournament of ``teams`` (a seeded bracket, or one round-robin group) with every match played: each
    fixture's match imported whole as a record keeper enters a result kept on paper. Returns its matches."""
    desk.create({"slug": slug, "name": slug, "teams": [{"name": f"Team {n:02}"} for n in range(teams)]})
    if bracket:
        desk.draw_bracket(slug, seed="bench")
    else:
        desk.draw_groups(slug, 1, seed="bench")
    first = datetime(2026, 3, 1, 15, tzinfo=UTC)
    played = 0
    for _ in range(8):  # a bracket's rounds open as their teams become known
        progress = desk.progress(slug)
        ready = [f for f in progress.tournament.fixtures if not f.match and None not in progress.teams[f.id]]
        if not ready:
            break
        for fixture in ready:
            home, away = progress.teams[fixture.id]
            at = [(first + timedelta(minutes=played, seconds=n)).isoformat() for n in range(5)]
            code = f"{slug}-{fixture.id}"
            lines = [json.dumps(event) for event in (
                {"type": "match.start", "at": at[0], "match": code, "teams": [home, away]},
                {"type": "chukker.start", "chukker": 1, "at": at[1]},
                {"type": "goal", "team": home if played % 3 else away, "at": at[2]},
                {"type": "chukker.end", "chukker": 1, "at": at[3]}, {"type": "match.end", "at": at[4]})]
            desk.hold_match(slug, fixture.id, lambda _t, _f, _teams, hold, lines=lines: desk.store.import_log(
                lines, also=hold))
            played += 1
    return played


@section
def tournament_pages(bench: Bench) -> None:
    """The tournament page's derived part (standings by the tie-breaks, who went on, the brackets as SVG), read
    afresh from the matches each time: a 32-team bracket, and round robins of 78, 153 and 300 matches (a
    season as it grows), against reading the same matches' snapshots alone (Store.match)."""
    import tempfile

    from matchstate.store import Store
    from matchstate.tournaments.bracket import stage_pictures
    from matchstate.tournaments.desk import Desk

    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        store = Store(f"sqlite:///{folder}/tournaments.db")
        store.upgrade()
        desk = Desk(store)
        cases = [("32-team bracket", "bracket-32", 32, True)]
        cases += [(f"round robin of {n * (n - 1) // 2} matches", f"season-{n}", n, False) for n in SEASON_SIZES]
        for label, slug, teams, bracket in cases:
            matches = _played_tournament(desk, slug, teams, bracket)
            codes = [f.match for f in desk.get(slug).fixtures if f.match]
            reads: dict[str, tuple[list[float], list[float]]] = {}
            measures = (("the matches' snapshots alone", lambda codes=codes: [store.match(c) for c in codes]),
                        ("standings and brackets", lambda slug=slug: stage_pictures(desk.progress(slug))))
            for _ in range(bench.repeat):
                for name, read in measures:
                    seconds, latencies = reads.setdefault(name, ([], []))
                    gc.collect()
                    began = time.perf_counter()
                    for _ in range(TOURNAMENT_PAGES):
                        begun = time.perf_counter()
                        read()
                        latencies.append(time.perf_counter() - begun)
                    seconds.append(time.perf_counter() - began)
            baseline = None
            for name, (seconds, latencies) in reads.items():
                row = bench.record(f"{label} ({matches} played): {name}", TOURNAMENT_PAGES, seconds, latencies,
                                   baseline)
                baseline = baseline or row
                _latency(f"{label}, {name}", latencies)
        store.close()

LEDGER_READS = 5  # reads of the ledger timed per measure and repetition


@section
def discipline_ledger(bench: Bench) -> None:
    """Who sits out (the discipline ledger, which a console and a review ask as they open) over the season's
    matches on SQLite, against reading every match's log for its cards, as the ledger did before the cards' index
    (migration 0016): the cost that grows with the league."""
    import tempfile

    from matchstate.store import Store
    from matchstate.tournaments.desk import Desk
    from matchstate.tournaments.league import league_ledger

    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder:
        store = Store(f"sqlite:///{folder}/ledger.db")
        store.upgrade()
        codes = [store.import_log(lines)[0] for lines in bench.logs]
        desk = Desk(store)
        reads: dict[str, Callable[[], object]] = {
            "every match's log read for its cards (before 0016)":
                lambda: [[event for event in store.events(code) if event.type == "card"] for code in codes],
            "the ledger, from the cards' index": lambda: league_ledger(desk),
        }
        _reads_against_the_first(bench, reads, LEDGER_READS, f"{len(codes)} matches: ")
        store.close()


WITNESS_CHECKPOINTS = 300  # checkpoints a witness is sent per repetition, each 8 leaves (a group) larger
WITNESS_EVERY = 0.05  # seconds between the league server's rounds, while it appends


def _in_process_witnesses(folder: str, store: Any, count: int) -> tuple[Any, list[Any]]:
    """``count`` witnesses of ``store``'s log in this process (their state in ``folder``), and the Witnessing that
    sends them its checkpoints through a function call instead of HTTP."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from matchstate.tlog.cosignature import Cosigner
    from matchstate.tlog.policy import Policy
    from matchstate.web.witnessing import Witnessing
    from matchstate.witness.state import WitnessState
    from matchstate.witness.witness import Refused, Witness

    follows = Policy.parse(f"log {store.log.signer.verifier.vkey()}\n", quorum_needed=False)
    witnesses = {f"http://w{n}": Witness(Cosigner(f"w{n}.example", Ed25519PrivateKey.generate()), follows,
                                         WitnessState(Path(folder) / f"w{n}-{id(store)}.db"), lambda: int(time.time()))
                 for n in range(count)}
    lines = [f"witness w{n} {witness.cosigner.verifier.vkey()} {url}" for n, (url, witness) in
             enumerate(witnesses.items())]
    policy = Policy.parse(f"log {store.log.signer.verifier.vkey()}\n" + "\n".join(lines)
                          + f"\ngroup all all {' '.join(f'w{n}' for n in range(count))}\nquorum all\n")

    def send(url: str, body: bytes) -> tuple[int, str]:
        try:
            return 200, witnesses[url.removesuffix("/add-checkpoint")].add_checkpoint(body)
        except Refused as refused:
            return refused.status, f"{refused.size}\n" if refused.status == 409 else str(refused)

    return Witnessing(store, policy, WITNESS_EVERY, send=send), list(witnesses.values())


def _witnessed_appends(url: str, folder: str, matches: list[tuple[dict[str, Any], list[str]]],
                       witnessed: bool) -> list[float]:
    """As :func:`_store_appends`, with (``witnessed``) two witnesses sent the log's checkpoint every
    :data:`WITNESS_EVERY` seconds by a thread meanwhile, as `serve --witness-policy` does in its background."""
    import threading

    from matchstate.store import Store, cosignatures

    store = Store(url)
    store.upgrade()
    stop = threading.Event()
    witnessing, witnesses = _in_process_witnesses(folder, store, 2)

    def rounds() -> None:
        while not stop.wait(WITNESS_EVERY):
            witnessing.round()

    thread = threading.Thread(target=rounds)
    if witnessed:
        thread.start()
    latencies = []
    for start, lines in matches:
        store.create_match(start)
        for line in lines:
            begun = time.perf_counter()
            store.append(start["match"], line)
            latencies.append(time.perf_counter() - begun)
    stop.set()
    if witnessed:
        thread.join()
        kept = cosignatures.latest(store.database)
        print(f"  witnessed: the last cosigned checkpoint has {kept[0] if kept else 0} leaves", file=sys.stderr)
    for witness in witnesses:
        witness.state.close()
    store.close()
    return latencies


@section
def witnessing(bench: Bench) -> None:
    """What the witnesses cost: (1) durable SQLite Store.append while a thread sends the league log's checkpoint to
    two witnesses every 50 ms (in this process: their checks, durable state and cosignatures share its interpreter),
    against Store.append alone; (2) a witness's add-checkpoint (the log's signature and the consistency proof
    checked, its state written durably, a cosignature made) against raw sqlite3 writing the same state row
    durably. Repetitions alternate, each on a new database."""
    import sqlite3
    import tempfile

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from matchstate.tlog import merkle
    from matchstate.tlog.checkpoint import Checkpoint
    from matchstate.tlog.cosignature import Cosigner
    from matchstate.tlog.note import Signer
    from matchstate.tlog.policy import Policy
    from matchstate.witness.state import WitnessState
    from matchstate.witness.witness import Witness

    lone = _matches_for(bench.logs, STORE_APPENDS // 4)
    lone_events = sum(len(lines) for _, lines in lone)
    timings: dict[bool, tuple[list[float], list[float]]] = {False: ([], []), True: ([], [])}
    with tempfile.TemporaryDirectory(prefix="matchstate-bench-") as folder, _secret_file(f"{folder}/w.secret"):
        for repetition in range(bench.repeat):
            for witnessed in (False, True) if repetition % 2 == 0 else (True, False):
                latencies = _witnessed_appends(f"sqlite:///{folder}/a{repetition}{witnessed:d}.db", folder, lone,
                                               witnessed)
                timings[witnessed][0].append(sum(latencies))
                timings[witnessed][1].extend(latencies)
        baseline = bench.record("sqlite: Store.append alone, one event at a time", lone_events, *timings[False])
        bench.record("sqlite: Store.append, two witnesses sent each checkpoint every 50 ms", lone_events,
                     *timings[True], baseline=baseline)
        _latency("Store.append while witnessed", timings[True][1])

        log = Signer("bench.example/log", Ed25519PrivateKey.generate())
        leaves = merkle.Leaves()
        for index in range(WITNESS_CHECKPOINTS * 8):
            leaves.append(merkle.leaf_hash(b"%d" % index))
        bodies, notes = [], []
        for number in range(1, WITNESS_CHECKPOINTS + 1):
            size = number * 8
            note = Checkpoint(log.name, size, merkle.root(leaves, size)).signed(log)
            proof = merkle.consistency_proof(leaves, size - 8, size) if size > 8 else []
            lines = [f"old {size - 8}", *(base64.b64encode(step).decode() for step in proof)]
            bodies.append(("\n".join(lines) + "\n\n" + note).encode())
            notes.append((size, merkle.root(leaves, size), note))
        follows = Policy.parse(f"log {log.verifier.vkey()}\n", quorum_needed=False)
        raw_seconds: list[float] = []
        raw_latencies: list[float] = []
        seconds: list[float] = []
        latencies = []
        for repetition in range(bench.repeat):
            witness = Witness(Cosigner("w.example", Ed25519PrivateKey.generate()), follows,
                              WitnessState(Path(folder) / f"bench-w{repetition}.db"), lambda: int(time.time()))
            raw = sqlite3.connect(Path(folder) / f"raw{repetition}.db", isolation_level=None)
            raw.execute("PRAGMA journal_mode=WAL")
            raw.execute("PRAGMA synchronous=FULL")
            raw.execute("CREATE TABLE latest (origin TEXT PRIMARY KEY, size INTEGER, root BLOB, note TEXT)")
            def cosigned(i: int, witness: Witness = witness) -> object:
                return witness.add_checkpoint(bodies[i])

            def upserted(i: int, raw: sqlite3.Connection = raw) -> object:
                return raw.execute("INSERT INTO latest VALUES (?, ?, ?, ?) ON CONFLICT (origin) DO UPDATE SET "
                                   "size = excluded.size, root = excluded.root, note = excluded.note",
                                   (log.name, *notes[i]))

            for run, into in ((cosigned, (seconds, latencies)), (upserted, (raw_seconds, raw_latencies))):
                gc.collect()
                began = time.perf_counter()
                for index in range(WITNESS_CHECKPOINTS):
                    begun = time.perf_counter()
                    run(index)
                    into[1].append(time.perf_counter() - begun)
                into[0].append(time.perf_counter() - began)
            witness.state.close()
            raw.close()
        baseline = bench.record("raw sqlite3: the witness's state row upserted durably", WITNESS_CHECKPOINTS,
                                raw_seconds, raw_latencies)
        bench.record("witness: add-checkpoint (signature, proof, durable state, cosignature)", WITNESS_CHECKPOINTS,
                     seconds, latencies, baseline=baseline)

CLI_RUNS = 20  # interpreter starts per repetition
# The floor of any argparse command line: what --help costs with nothing of matchstate imported.
ARGPARSE_ALONE = ("import argparse; top = argparse.ArgumentParser(); commands = top.add_subparsers(); "
                  "[commands.add_parser(f'c{n}', help='h') for n in range(20)]; top.print_help()")


def _children_cpu(command: list[str], env: dict[str, str]) -> float:
    """The CPU time (user and system) of one run of ``command``, its output thrown away."""
    import subprocess

    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
    _, _, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime


@section
def cli_help(bench: Bench) -> None:
    """`matchstate --help` against an empty interpreter (`python -c pass`), in CPU time, as installed: in a venv
    of the built wheel alone (--help needs none of its dependencies), then in this venv's editable install, where
    every interpreter also imports setuptools' finder (so `python -c pass` costs more). Bytecode is cached (in a
    folder of its own), as an installed wheel's is, and each command runs once before it is timed."""
    import subprocess
    import tempfile

    pip = [sys.executable, "-m", "pip", "--quiet", "--disable-pip-version-check"]
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([*pip, "wheel", "--no-deps", "--no-build-isolation", "--wheel-dir", folder,
                        str(Path(__file__).resolve().parent.parent)], check=True)
        venv = Path(folder) / "venv"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
        subprocess.run([*pip, "--python", str(venv / "bin" / "python"), "install", "--no-deps", "--no-index",
                        *map(str, Path(folder).glob("*.whl"))], check=True)
        env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
               "PYTHONPYCACHEPREFIX": str(Path(folder) / "bytecode")}
        for where, python in (("the wheel's venv", venv / "bin" / "python"), ("editable", Path(sys.executable))):
            baseline = None
            for name, command in (("python -c pass", [str(python), "-c", "pass"]),
                                  ("argparse alone, 20 sub-commands' help", [str(python), "-c", ARGPARSE_ALONE]),
                                  ("matchstate --help", [str(python.with_name("matchstate")), "--help"])):
                _children_cpu(command, env)
                seconds = [sum(_children_cpu(command, env) for _ in range(CLI_RUNS)) for _ in range(bench.repeat)]
                row = bench.record(f"{name}, {where} (CPU time, {CLI_RUNS} runs)", CLI_RUNS, seconds,
                                   baseline=baseline)
                baseline = baseline or row


def main(argv: list[str] | None = None) -> int:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--matches", type=int, default=1000, help="matches in the season (default 1000)")
    args.add_argument("--repeat", type=int, default=5, help="repetitions of each measure (default 5)")
    args.add_argument("--seed", type=int, default=2026, help="the season's seed (default 2026)")
    args.add_argument("--only", choices=sorted(SECTIONS), action="append", help="run only this section (repeatable)")
    options = args.parse_args(argv)

    started = time.perf_counter()
    logs = season(options.matches, options.seed)
    bench = Bench(logs, options.repeat)
    print(f"season: {len(logs):,} matches, {bench.events:,} events (seed {options.seed}, "
          f"generated in {time.perf_counter() - started:.1f} s); {options.repeat} repetitions; "
          f"Python {platform.python_version()} on {platform.machine()}\n")
    for name in options.only or SECTIONS:
        bench.section = name
        SECTIONS[name](bench)
    print(bench.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
