"""Answers compressed as the client accepts: brotli for a large one, gzip for the rest.

A console's first load on a weak signal waits for the match's events (90 kB of JSON for a whole match): brotli
at quality 5 sends them in a tenth fewer bytes than gzip at level 9, for half its CPU. Below 8 kB brotli's start
costs twice gzip's CPU for a few bytes, so gzip keeps the small answers (an append's is 4 kB) where the client
takes it. A live stream is never compressed, nor an answer that chose its coding already (the static files and the
reference answers, compressed ahead: they say ``Vary: Accept-Encoding`` in every coding, plain too), nor one that
fits a packet.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware.gzip import IdentityResponder
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .assets import brotli
from .negotiation import preferred_encoding

MINIMUM_BYTES = 1400  # an answer that fits one packet gains nothing from compression
BROTLI_MINIMUM_BYTES = 8 * 1024
BROTLI_QUALITY = 5  # 11 takes a hundred times the CPU for a tenth fewer bytes: it is for files compressed ahead
GZIP_LEVEL = 9
THREAD_MINIMUM_BYTES = 128 * 1024  # compressed off the event loop from here (Starlette's gzip draws the same line)

# A compressor: the next part of an answer, and whether more parts follow, to the bytes to send.
Compressor = Callable[[bytes, bool], bytes]


def gzip_compressor() -> Compressor:
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)

    def compress(part: bytes, more: bool) -> bytes:
        return compressor.compress(part) + compressor.flush(zlib.Z_SYNC_FLUSH if more else zlib.Z_FINISH)
    return compress


def brotli_compressor() -> Compressor:
    compressor = brotli.Compressor(quality=BROTLI_QUALITY)

    def compress(part: bytes, more: bool) -> bytes:
        made: bytes = compressor.process(part) + (compressor.flush() if more else compressor.finish())
        return made
    return compress


class Compression:
    """ASGI middleware: answers of ``minimum_size`` bytes or more compressed as the client accepts."""

    def __init__(self, app: ASGIApp, minimum_size: int) -> None:
        self.app = app
        self.minimum_size = minimum_size

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await Compressing(self.app, self.minimum_size, Headers(scope=scope).get("accept-encoding", ""))(
            scope, receive, send)


class Compressing(IdentityResponder):
    """One answer, compressed once its first part says how large it is. Starlette's responder (the base of its own
    gzip) sends the headers after that part is compressed, naming ``content_encoding`` where the body changed:
    a test of each coding, streamed and whole, holds this to the Starlette installed."""

    def __init__(self, app: ASGIApp, minimum_size: int, accept_encoding: str) -> None:
        super().__init__(app, minimum_size)
        self.accept_encoding = accept_encoding
        self.compress: Compressor | None = None
        self.chose_its_coding = False

    async def send_with_compression(self, message: Message) -> None:
        """An answer that chose its coding itself (it varies by Accept-Encoding) goes as it is: sent plain through
        Starlette's responder, it said ``Vary: Accept-Encoding`` twice."""
        if message["type"] == "http.response.start":
            self.chose_its_coding = "accept-encoding" in varies(message)
        if self.chose_its_coding:
            await self.send(message)
        else:
            await super().send_with_compression(message)

    def chosen(self, whole: int | None) -> tuple[str, Compressor] | None:
        """The coding for an answer whose first part is all of it, ``whole`` bytes (None: more parts follow): the
        client's preference, and where it has none, brotli for a large answer and gzip for the rest."""
        large = whole is not None and whole >= BROTLI_MINIMUM_BYTES
        ours = ("gzip",) if brotli is None else ("br", "gzip") if large else ("gzip", "br")
        coding = preferred_encoding(self.accept_encoding, ours)
        return None if coding is None else (coding, brotli_compressor() if coding == "br" else gzip_compressor())

    async def apply_compression(self, body: bytes, *, more_body: bool) -> bytes:
        if self.compress is None:
            chosen = self.chosen(None if more_body else len(body))
            if chosen is None:
                return body  # the client takes neither: sent as it is
            self.content_encoding, self.compress = chosen
        if len(body) >= THREAD_MINIMUM_BYTES:
            made: bytes = await run_in_threadpool(self.compress, body, more_body)
            return made
        return self.compress(body, more_body)


def varies(start: Message) -> set[str]:
    """The request headers an answer (its ``http.response.start``) says it varies by, in lower case."""
    return {name.strip().lower() for said in Headers(raw=start.get("headers", [])).getlist("vary")
            for name in said.split(",")}
