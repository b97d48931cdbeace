"""Live updates: each appended event fanned out to the match's open streams, as server-sent events."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import orjson
from starlette.concurrency import run_in_threadpool

from ..errors import NotFound, UnknownMatch
from .faults import said_if_unavailable

KEEPALIVE_SECONDS = 15.0
RETRY_MS = 1000  # how soon a browser reconnects after the server goes away
QUEUE_SIZE = 256  # messages a stream may fall behind before it is dropped

Message = tuple[int, bytes]  # (seq, the server-sent event whole), framed once however many streams receive it
Queue = asyncio.Queue[Message | None]  # None: the stream is dropped
KEEPALIVE: Message = (0, b": keepalive\n\n")  # put in a quiet stream's queue by its timer
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}  # a stream's response: nothing keeps or holds it
SETTLED = ("ended", "level")  # the statuses of a tournament's fixture whose match has ended


class Hub:
    """The open streams of each match; lives on the event loop, like the streams it feeds."""

    def __init__(self, queue_size: int = QUEUE_SIZE) -> None:
        self.queue_size = queue_size
        self._queues: dict[str, set[Queue]] = {}
        # The newest seq of each match with open streams that its streams have been sent or read
        # themselves: what a catch-up (see watch.py) reads the store after.
        self._sent: dict[str, int] = {}

    def publish(self, code: str, message: Message) -> None:
        """Queue ``message`` for each stream of ``code``; drop a stream whose queue is full."""
        if code in self._queues:
            self._sent[code] = max(self._sent.get(code, 0), message[0])
        for queue in list(self._queues.get(code, ())):
            try:
                queue.put_nowait(message)
            except asyncio.QueueFull:
                self._drop(code, queue)

    def close(self, code: str) -> None:
        """End every stream of ``code``: the match is gone."""
        for queue in list(self._queues.get(code, ())):
            self._drop(code, queue)

    def _drop(self, code: str, queue: Queue) -> None:
        # A client this far behind costs memory for every event: end its stream instead. Its browser
        # reconnects with Last-Event-ID and reads what it missed from the log.
        self._remove(code, queue)
        while not queue.empty():
            queue.get_nowait()
        queue.put_nowait(None)

    @contextmanager
    def subscribe(self, code: str) -> Iterator[Queue]:
        queue: Queue = asyncio.Queue(self.queue_size)
        with self.following(queue) as follow:
            follow(code)
            yield queue

    @contextmanager
    def following(self, queue: Queue) -> Iterator[Callable[[str], None]]:
        """Within the block, ``follow(code)`` puts the messages of ``code`` in ``queue`` too: one queue for the
        matches of a tournament, followed as they are found."""
        codes: set[str] = set()

        def follow(code: str) -> None:
            codes.add(code)
            self._queues.setdefault(code, set()).add(queue)

        try:
            yield follow
        finally:
            for code in codes:
                self._remove(code, queue)

    def _remove(self, code: str, queue: Queue) -> None:
        queues = self._queues.get(code, set())
        queues.discard(queue)
        if not queues:
            self._queues.pop(code, None)
            self._sent.pop(code, None)

    def listeners(self, code: str) -> int:
        return len(self._queues.get(code, ()))

    def watched(self) -> list[str]:
        """The codes of the matches with open streams."""
        return list(self._queues)

    def sent(self, code: str) -> int | None:
        """The newest seq of ``code`` its streams hold (sent, or read from the log); None before any is known."""
        return self._sent.get(code)

    def seen(self, code: str, seq: int) -> None:
        """A new stream of ``code`` has read the log to ``seq``: where catching up starts, if nothing was sent yet.
        (Never raised past what was sent: an event sent to no stream would wait for the next one.)"""
        if code in self._queues:
            self._sent.setdefault(code, seq)


def sse(seq: int, data: bytes) -> bytes:
    """The server-sent event of an append: its seq as the id, its message's JSON as the data."""
    return b"id: %d\nevent: append\ndata: %s\n\n" % (seq, data)


class _Quiet:
    """A stream's keepalive: one timer for the stream's life, which puts :data:`KEEPALIVE` in its queue once
    :data:`KEEPALIVE_SECONDS` pass with nothing sent. A message sent costs the stream a clock reading, not
    a timer (or, with ``asyncio.wait_for``, a task) of its own: with a thousand streams that adds up."""

    __slots__ = ("handle", "loop", "queue", "sent")

    def __init__(self, queue: Queue) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue = queue
        self.sent = self.loop.time()
        self.handle = self.loop.call_at(self.sent + KEEPALIVE_SECONDS, self._due)

    def _due(self) -> None:
        now = self.loop.time()
        if now >= self.sent + KEEPALIVE_SECONDS:
            with contextlib.suppress(asyncio.QueueFull):  # a full queue is a stream about to be dropped
                self.queue.put_nowait(KEEPALIVE)
            self.sent = now
        self.handle = self.loop.call_at(self.sent + KEEPALIVE_SECONDS, self._due)


async def stream(hub: Hub, code: str, after_seq: int,
                 backlog: Callable[[str, int], list[Message]]) -> AsyncIterator[bytes]:
    """Every event of ``code`` after ``after_seq``, in seq order, each once, then each new one as it comes.

    ``backlog(code, seq)`` reads the stored messages after ``seq``: used at the start, to fill a gap
    (two appends may publish out of order, or a catch-up start late), and on each keepalive (a last
    resort: another process's appends are published by the service's watch).
    A stream the hub drops (too far behind, or its match removed) ends here; the browser reconnects
    and resumes, or is told the match is gone. So does a stream whose read of the log finds the database
    unavailable, with one line logged: its response has begun, and no 503 can be sent.
    """
    last = after_seq
    with hub.subscribe(code) as queue, contextlib.suppress(UnknownMatch), \
            said_if_unavailable(f"the live stream of {code} ended"):
        yield b"retry: %d\n\n" % RETRY_MS
        pending = await run_in_threadpool(backlog, code, last)
        hub.seen(code, pending[-1][0] if pending else last)
        quiet = _Quiet(queue)
        try:
            while True:
                for seq, frame in pending:
                    if seq > last:
                        yield frame
                        last = seq
                pending = []
                quiet.sent = quiet.loop.time()
                message = await queue.get()
                if message is None:
                    return
                seq, frame = message
                if message is KEEPALIVE:
                    yield frame
                    pending = await run_in_threadpool(backlog, code, last)
                elif seq > last + 1:  # a gap: read from the log
                    pending = await run_in_threadpool(backlog, code, last)
                elif seq > last:  # the next one, sent as it is: a stream makes nothing of its own for it
                    yield frame
                    last = seq
        finally:
            quiet.handle.cancel()


async def tournament(hub: Hub, matches: Callable[[], list[str | None]],
                     read: Callable[[], list[dict[str, Any]]]) -> AsyncGenerator[bytes, None]:
    """A tournament's live scores in one stream, however many of its matches are opened: a ``progress`` message
    (``{fixtures}``, what ``read()`` gives: each fixture's ``id``, ``match``, ``seq``, ``home``, ``away``, ``score``
    and ``status``), then the ``append`` message of each of their matches as a match's stream sends it, with no
    id. Every :data:`KEEPALIVE_SECONDS`, busy or not, ``matches()`` (each fixture's match, one small read) is
    asked: where a match was opened since, through any server, the progress is read and sent again, else a
    keepalive is. The progress of a large tournament costs a read of each of its matches: never a spectator's
    every few seconds. It is read and sent again too after an append that ends a match or reopens it: what its
    fixture's status is then (ended, or a knockout ended level) and who goes on is the tournament's to say, in the
    words a page loaded afresh has.

    Each message says the whole score, so a browser that reconnects needs nothing it missed (no
    ``Last-Event-ID``): the progress it is sent first says it. A dropped stream, and one whose read finds the
    database unavailable or the tournament gone, ends as a match stream does.
    """
    queue: Queue = asyncio.Queue(hub.queue_size)
    followed: set[str] = set()
    with hub.following(queue) as follow, contextlib.suppress(NotFound), \
            said_if_unavailable("a tournament's live stream ended"):
        yield b"retry: %d\n\n" % RETRY_MS
        # The timer is never told of what is sent (see _Quiet): it asks again however busy the stream is.
        quiet = _Quiet(queue)
        try:
            sent: list[str | None] | None = None  # each fixture's match, as the progress last sent says
            ended: dict[str, bool] = {}  # whether each match that counts has ended, as the progress last sent says
            settled = False  # an append since has ended a match or reopened it
            while True:
                if sent is not None and not settled and await run_in_threadpool(matches) == sent:
                    yield KEEPALIVE[1]
                else:
                    fixtures = await run_in_threadpool(read)
                    while found := {fixture["match"] for fixture in fixtures if fixture["match"]} - followed:
                        for code in found:  # followed, then read again: an append in between is in one or the other
                            follow(code)
                        followed |= found
                        fixtures = await run_in_threadpool(read)
                    for fixture in fixtures:
                        if fixture["match"]:
                            hub.seen(fixture["match"], fixture["seq"])
                    sent = [fixture["match"] for fixture in fixtures]
                    ended = {fixture["match"]: fixture["status"] in SETTLED for fixture in fixtures
                             if fixture["match"] and fixture["status"] != "stale"}
                    yield b"event: progress\ndata: %s\n\n" % orjson.dumps({"fixtures": fixtures})
                settled = False
                while (message := await queue.get()) is not KEEPALIVE:
                    if message is None:
                        return
                    # A match's seq would mean nothing as the tournament stream's id: the message goes without it.
                    yield message[1].partition(b"\n")[2]
                    code, match_ended = ended_in(message[1])
                    if ended.get(code, match_ended) != match_ended:
                        settled = True
                        break
        finally:
            quiet.handle.cancel()


@functools.lru_cache(maxsize=QUEUE_SIZE)
def ended_in(frame: bytes) -> tuple[str, bool]:
    """The code of the match an ``append`` message's frame is of, and whether the match has ended: decoded once,
    however many tournament streams are sent the frame (the hub gives each the same bytes)."""
    match = orjson.loads(frame.partition(b"\ndata: ")[2])["match"]
    return match["code"], match["ended"]
