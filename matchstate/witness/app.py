"""The witness's HTTP endpoint: ``POST /add-checkpoint`` (c2sp.org/tlog-witness), as an ASGI app."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from .witness import SIZE_CONTENT_TYPE, Refused, Witness

MAX_BODY_BYTES = 64 * 1024  # 63 proof lines and a checkpoint with its signatures take a few kilobytes


def create_witness_app(witness: Witness) -> Starlette:
    """The app that answers ``witness``'s requests."""

    async def add_checkpoint(request: Request) -> Response:
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                return PlainTextResponse(f"a request is at most {MAX_BODY_BYTES} bytes\n", status_code=413)
        try:
            line = await run_in_threadpool(witness.add_checkpoint, bytes(body))
        except Refused as refused:
            if refused.status == 409:
                # Exactly the spec's type: Starlette would add a charset to a text/ media type it is given.
                return Response(f"{refused.size}\n", status_code=409, headers={"Content-Type": SIZE_CONTENT_TYPE})
            return PlainTextResponse(f"{refused}\n", status_code=refused.status)
        return PlainTextResponse(line)

    return Starlette(routes=[Route("/add-checkpoint", add_checkpoint, methods=["POST"])])
