"""The HTTP server: uvicorn, guarded at the connection against clients that hold it open without asking.

uvicorn's own timers start only once a response is sent, so a connection that sent half a request's
headers, or nothing at all, holds a file descriptor until the client lets go; enough of them and the
server can accept no one. :class:`GuardedProtocol` (uvicorn's httptools protocol, with three timers
and a cap) gives each request a deadline for its headers and one for its body, and keeps the open
connections under a cap set below the process's file limit: a connection over the cap takes the
place of the one that has waited longest for its next request's headers, so a client that sends a
whole request at once always gets in.

With ``workers`` above one, the server is that many processes sharing one listening socket, each
with its app, its database connections and its caches (see :func:`serve`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
import resource
import secrets
import signal
import socket
import sys
import time
import traceback
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from http import HTTPStatus
from typing import Any, ClassVar
from urllib.parse import quote

import orjson
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ..errors import MatchstateError
from .access import redact
from .faults import fault_body
from .headers import security_headers
from .limits import STREAM_PATH

# Files the process keeps for itself beside its connections: the database's, the listening socket,
# the static files being served, the logs.
RESERVED_FILES = 256
BACKLOG = 128  # connections the kernel queues, and how many the event loop accepts at a time

STOPPING = {signal.SIGTERM, signal.SIGINT}  # what stops a server of several workers
YOUNG_OBJECTS = 20_000  # allocations between the collector's young passes (Python's default: 700)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Deadlines:
    """How long a client has to send a request's headers, and then its body; and how many connections
    may be open at once (None: as many as the file limit leaves room for)."""

    headers_seconds: float = 10.0
    body_seconds: float = 30.0
    max_connections: int | None = None

    def connection_cap(self) -> int:
        room = resource.getrlimit(resource.RLIMIT_NOFILE)[0] - RESERVED_FILES
        if room < 1:
            raise MatchstateError(f"the file limit leaves no room for connections: raise `ulimit -n` above "
                                  f"{RESERVED_FILES}")
        return room if self.max_connections is None else min(self.max_connections, room)


class _Door:
    """The connections of one server: all those open, and those waiting for a request's headers,
    the longest waiting first."""

    def __init__(self, deadlines: Deadlines) -> None:
        self.deadlines = deadlines
        self.cap = deadlines.connection_cap()
        self.open: set[GuardedProtocol] = set()
        self.waiting: OrderedDict[GuardedProtocol, None] = OrderedDict()


def _answer(status: str, phrase: str, extra: bytes = b"", **fields: object) -> bytes:
    """An answer made before any app sees the request, as the app answers a refusal: JSON with the ``faults``
    ``phrase`` in both languages, and the security headers every answer has."""
    body = fault_body(phrase, **fields)
    kind = (b"content-type", b"application/json")
    headers = b"".join(name + b": " + value + b"\r\n" for name, value in [kind, *security_headers([kind])])
    head = f"HTTP/1.1 {status}\r\ncontent-length: {len(body)}\r\nconnection: close\r\n".encode("ascii")
    return head + headers + extra + b"\r\n" + body


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request's headers and body, and a cap on
    open connections. Made for one server by :func:`guarded_protocol`."""

    door: ClassVar[_Door]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._headers_due: asyncio.TimerHandle | None = None
        self._body_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        door = self.door
        if len(door.open) >= door.cap:
            if not door.waiting:  # every connection is busy with a request or a stream
                transport.write(_answer("503 Service Unavailable", "connections-full", b"retry-after: 1\r\n"))
                transport.close()
                return
            door.waiting.popitem(last=False)[0].evict()
        door.open.add(self)
        self._wait_for_headers()

    def connection_lost(self, exc: Exception | None) -> None:
        self._leave()
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        self._stop_waiting()
        self._body_due = self.loop.call_later(self.door.deadlines.body_seconds, self._body_late)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        if self._body_due is not None:
            self._body_due.cancel()
            self._body_due = None
        super().on_message_complete()

    def on_response_complete(self) -> None:
        idle = not self.pipeline  # else the next request's headers are in already
        super().on_response_complete()
        if idle and not self.transport.is_closing():
            self._wait_for_headers()

    def evict(self) -> None:
        """Close this connection, which waits for a request's headers, to make room for a new one."""
        self._leave()
        self.transport.close()

    def _wait_for_headers(self) -> None:
        self.door.waiting[self] = None
        self._headers_due = self.loop.call_later(self.door.deadlines.headers_seconds, self._headers_late)

    def _stop_waiting(self) -> None:
        self.door.waiting.pop(self, None)
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _leave(self) -> None:
        self._stop_waiting()
        if self._body_due is not None:
            self._body_due.cancel()
            self._body_due = None
        self.door.open.discard(self)

    def send_400_response(self, msg: str) -> None:
        """A request that is not HTTP the parser can read (``msg``, its English), refused as every refusal is: uvicorn's
        own was English plain text, without the headers every answer carries."""
        self.transport.write(_answer("400 Bad Request", "not-http"))
        self.transport.close()

    def _headers_late(self) -> None:
        self._late("headers-late", self.door.deadlines.headers_seconds)

    def _body_late(self) -> None:
        self._late("body-late", self.door.deadlines.body_seconds)

    def _late(self, phrase: str, seconds: float) -> None:
        if self.cycle is None or not self.cycle.response_started:
            self.transport.write(_answer("408 Request Timeout", phrase, seconds=f"{seconds:g}"))
        self._leave()
        self.transport.close()


def guarded_protocol(deadlines: Deadlines) -> type[GuardedProtocol]:
    """A :class:`GuardedProtocol` class of its own for one server, which counts that server's connections."""
    return type("GuardedProtocol", (GuardedProtocol,), {"door": _Door(deadlines)})


PHRASES = {status.value: f"{status.value} {status.phrase}" for status in HTTPStatus}


class AccessLog:
    """The access log: a line per request on standard output, with the ``key`` query parameter redacted
    (:func:`~matchstate.web.access.redact`): as uvicorn's own access log writes it, with the request's id and
    latency after it (``text``), or one JSON object a line (``json``: time, level, request id, client, method,
    path, status, latency in ms to the response's headers). Each request's id is its ``X-Request-ID`` where
    the client sent a short one, else a new one, and goes back in the answer's ``X-Request-ID``. Written
    straight to the file, one write a line: uvicorn's goes through a logger, a filter and a formatter, which
    cost a request more than all the rest of its answer's way out."""

    def __init__(self, app: ASGIApp, fd: int, form: str = "text") -> None:
        self.app = app
        self.fd = fd
        self.json = form == "json"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()
        given = next((value for name, value in scope["headers"] if name == b"x-request-id"), b"")
        request_id = given.decode("ascii") if REQUEST_ID.fullmatch(given) else secrets.token_hex(8)

        async def logged(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []),
                                                  (b"x-request-id", request_id.encode("ascii"))]}
                self.write(scope, message["status"], request_id, time.perf_counter() - began)
            await send(message)

        await self.app(scope, receive, logged)

    def write(self, scope: Scope, status: int, request_id: str = "-", latency: float = 0.0) -> None:
        path = quote(scope["path"])
        if scope["query_string"]:
            path = redact(f"{path}?{scope['query_string'].decode('ascii', 'replace')}")
        client = scope.get("client")
        if self.json:
            line = orjson.dumps({
                "time": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
                "level": "info", "request_id": request_id, "client": f"{client[0]}:{client[1]}" if client else None,
                "method": scope["method"], "path": path, "status": status,
                "latency_ms": round(latency * 1000, 3)}).decode() + "\n"
        else:
            line = (f'INFO:     {f"{client[0]}:{client[1]}" if client else ""} - "{scope["method"]} {path} '
                    f'HTTP/{scope["http_version"]}" {PHRASES.get(status, status)} {latency * 1000:.1f}ms '
                    f'id={request_id}\n')
        with contextlib.suppress(OSError):  # a log that cannot be written stops no request
            os.write(self.fd, line.encode("utf-8", "replace"))


class EndingStreams:
    """Live streams ended cleanly when the server stops: uvicorn waits for open requests, then cancels them
    and logs each as an error with its traceback (20 streams, a thousand lines). Here a stream is run as a
    task of its own and, once :meth:`stop` is called, cancelled by us and its response ended as a chunked
    response ends; the console reconnects to the next server. Other requests pass straight through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.stopping: asyncio.Event | None = None

    def stop(self) -> None:
        if self.stopping is not None:
            self.stopping.set()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or STREAM_PATH.match(scope["path"]) is None:
            await self.app(scope, receive, send)
            return
        self.stopping = self.stopping or asyncio.Event()
        state = {"started": False, "ended": False}

        async def tracked(message: Message) -> None:
            if message["type"] == "http.response.start":
                state["started"] = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                state["ended"] = True
            await send(message)

        serving = asyncio.ensure_future(self.app(scope, receive, tracked))
        stopping = asyncio.ensure_future(self.stopping.wait())
        try:
            await asyncio.wait({serving, stopping}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if serving.done():
            serving.result()
            return
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving
        if state["started"] and not state["ended"]:
            with contextlib.suppress(OSError, RuntimeError):
                await send({"type": "http.response.body", "body": b"", "more_body": False})


class _Server(uvicorn.Server):
    """uvicorn's server, which ends the live streams as soon as it is told to stop."""

    def __init__(self, config: uvicorn.Config, streams: EndingStreams) -> None:
        super().__init__(config)
        self.streams = streams

    def handle_exit(self, sig: int, frame: Any) -> None:
        super().handle_exit(sig, frame)
        with contextlib.suppress(RuntimeError):  # no loop running yet: no stream to end
            asyncio.get_running_loop().call_soon_threadsafe(self.streams.stop)


REQUEST_ID = re.compile(rb"[A-Za-z0-9._-]{1,64}")  # a client's own id, kept where it is short and plain


@dataclass(frozen=True, slots=True)
class Certificate:
    """The files of the certificate a server answers HTTPS with (the chain, then its private key)."""

    certfile: str
    keyfile: str


@dataclass(frozen=True, slots=True)
class Logging:
    """What the server logs: the access log's form (``text`` or ``json``) and the least level written
    (``info`` logs each request; ``warning`` and above leave the access log out)."""

    form: str = "text"
    level: str = "info"

    @property
    def access(self) -> bool:
        return self.level in ("trace", "debug", "info")


def serve(make_app: Callable[[], Any], host: str, port: int, deadlines: Deadlines, workers: int = 1,
          tls: Certificate | None = None, logging_: Logging | None = None) -> None:
    """Run the app ``make_app`` makes on uvicorn at ``host``:``port``, guarded by ``deadlines``, until told to stop.

    With ``workers`` above one, the listening socket is opened here and that many worker processes are
    forked to accept on it, each making its own app (its store's connections, its caches, its live
    streams); this process only waits. SIGTERM or SIGINT stops them all, as one server stops; a worker
    that ends by itself ends the server too, with its status, for the supervisor that runs it (systemd,
    a container runtime) to start it again whole. With ``tls``, it answers HTTPS only.
    """
    logs = logging_ or Logging()
    _can_listen(host, port)
    if workers == 1:
        _run(make_app, host, port, deadlines, tls, logs)
        return
    listening = _config(None, host, port, deadlines, tls, logs).bind_socket()
    children: set[int] = set()
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    # Held while forking: a worker must not run this process's handler before it has set its own.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    for _ in range(workers):
        pid = os.fork()
        if pid == 0:
            os._exit(_worker(make_app, host, port, deadlines, listening, tls, logs))
        children.add(pid)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)
    status = 0
    while children:
        pid, code = os.wait()
        children.discard(pid)
        if not stopping:
            status = os.waitstatus_to_exitcode(code)
            status = 128 - status if status < 0 else status or 1  # killed by a signal: 128 + its number, as shells say
            log.error("worker %d ended (status %d): stopping the server", pid, status)
            stop()
    listening.close()
    if status:
        raise SystemExit(status)


def _can_listen(host: str, port: int) -> None:
    """Refuse in words (the command's exit status 2) an address in use, or not this machine's, before anything
    starts: uvicorn says so only after the app has started, and exits 3. Each of the host's addresses is bound and
    let go here; uvicorn then binds them as it always has (every address of a name, both stacks of ``::``). One
    taken in between fails as uvicorn fails."""
    try:
        for family, kind, protocol, _, address in socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                                                     flags=socket.AI_PASSIVE):
            with socket.socket(family, kind, protocol) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn's: a port in TIME_WAIT is free
                probe.bind(address)
    except OSError as err:
        raise MatchstateError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None


def _worker(make_app: Callable[[], Any], host: str, port: int, deadlines: Deadlines, listening: socket.socket,
            tls: Certificate | None, logs: Logging) -> int:
    """A forked worker's life: its own app, served on the socket its parent opened; its exit status."""
    for signum in STOPPING:  # uvicorn sets its own once it runs
        signal.signal(signum, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)
    try:
        _run(make_app, host, port, deadlines, tls, logs, [listening])
    except SystemExit as err:  # uvicorn's, where the app would not start
        return err.code if isinstance(err.code, int) else int(err.code is not None)
    except Exception:  # a worker tells what stopped it; only its status goes up
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return 0


def _config(app: Any, host: str, port: int, deadlines: Deadlines, tls: Certificate | None,
            logs: Logging) -> uvicorn.Config:
    return uvicorn.Config(
        app, host=host, port=port, http=guarded_protocol(deadlines), ws="none", backlog=BACKLOG,
        ssl_certfile=tls.certfile if tls else None, ssl_keyfile=tls.keyfile if tls else None,
        proxy_headers=False,  # a client is its own address: a header cannot make it another one
        timeout_graceful_shutdown=2,  # open live streams would hold a shutdown forever
        access_log=False,  # AccessLog writes it
        log_level=logs.level,
    )


def _run(make_app: Callable[[], Any], host: str, port: int, deadlines: Deadlines, tls: Certificate | None,
         logs: Logging, sockets: list[socket.socket] | None = None) -> None:
    streams = EndingStreams(make_app())
    app: ASGIApp = AccessLog(streams, sys.stdout.fileno(), logs.form) if logs.access else streams
    config = _config(app, host, port, deadlines, tls, logs)
    # What the imports and the app made lives as long as the process: kept out of the collector's full passes,
    # which otherwise walk it all again and again. And a young generation large enough that what lives for one
    # fan-out (a thousand streams' waits) is gone before it is counted old: full passes grow rare, where they
    # came every few dozen appends with a thousand streams open, each a pause of a good part of a second.
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, *gc.get_threshold()[1:])
    _Server(config, streams).run(sockets=sockets)
