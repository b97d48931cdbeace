"""Live updates: each appended event fanned out to the match's open streams, as server-sent events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager

from starlette.concurrency import run_in_threadpool

KEEPALIVE_SECONDS = 15.0
RETRY_MS = 1000  # how soon a browser reconnects after the server goes away

Message = tuple[int, str]  # (seq, the message's JSON), made once however many streams receive it


class Hub:
    """The open streams of each match; lives on the event loop, like the streams it feeds."""

    def __init__(self) -> None:
        self._queues: dict[str, set[asyncio.Queue[Message]]] = {}

    def publish(self, code: str, message: Message) -> None:
        for queue in self._queues.get(code, ()):
            queue.put_nowait(message)

    @contextmanager
    def subscribe(self, code: str) -> Iterator[asyncio.Queue[Message]]:
        queue: asyncio.Queue[Message] = asyncio.Queue()
        self._queues.setdefault(code, set()).add(queue)
        try:
            yield queue
        finally:
            self._queues[code].discard(queue)
            if not self._queues[code]:
                del self._queues[code]

    def listeners(self, code: str) -> int:
        return len(self._queues.get(code, ()))


def sse(seq: int, data: str) -> str:
    return f"id: {seq}\nevent: append\ndata: {data}\n\n"


async def stream(hub: Hub, code: str, after_seq: int,
                 backlog: Callable[[str, int], list[Message]]) -> AsyncIterator[str]:
    """Every event of ``code`` after ``after_seq``, in seq order, each once, then each new one as it comes.

    ``backlog(code, seq)`` reads the stored messages after ``seq``: used at the start, to fill a gap
    (two appends may publish out of order), and on each keepalive (another process may append).
    """
    last = after_seq
    with hub.subscribe(code) as queue:
        yield f"retry: {RETRY_MS}\n\n"
        pending = await run_in_threadpool(backlog, code, last)
        while True:
            for seq, data in pending:
                if seq > last:
                    yield sse(seq, data)
                    last = seq
            try:
                seq, data = await asyncio.wait_for(queue.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield ": keepalive\n\n"
                pending = await run_in_threadpool(backlog, code, last)
                continue
            pending = [(seq, data)] if seq <= last + 1 else await run_in_threadpool(backlog, code, last)
