"""The routes that run the server in the field rather than the match (mounted on the app by :func:`mount`):
the tablet setup page, the web app's manifest, and what a monitor asks: ``/healthz`` (the process answers)
and ``/readyz`` (it can serve: the database answers, its schema is current, the secret files are there;
503 naming what is not). HEAD is answered wherever GET is (:class:`HeadAsGet`)."""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import install, setup
from .metrics import Metrics


def mount(app: FastAPI) -> None:
    app.include_router(setup.router)
    app.include_router(install.router)
    app.add_api_route("/healthz", healthz, methods=["GET"], include_in_schema=False)
    app.add_api_route("/readyz", readyz, methods=["GET"], include_in_schema=False)
    app.add_middleware(HeadAsGet)
    app.add_middleware(Metrics, store=app.state.service.store)


async def healthz() -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> JSONResponse:
    store = request.app.state.service.store

    def check() -> list[str]:
        problems = []
        try:
            current, latest = store.database.revisions()
        except Exception as err:  # any failure to reach the database is the answer, not an error of ours
            return [f"database: cannot be reached: {type(err).__name__}"]
        if current != latest:
            problems.append(f"database: schema at {', '.join(current) or 'nothing'}, not {', '.join(latest)}: "
                            "run `matchstate db upgrade`")
        if not store.secrets.exist():
            problems.append(f"secret: missing at {store.secrets.path}")
        return problems

    problems = await asyncio.to_thread(check)
    witnessing = getattr(request.app.state, "witnessing", None)
    if witnessing is not None and witnessing.halted is not None:
        problems.append(f"witnesses: {witnessing.halted['en']}")
    return JSONResponse({"status": "ready" if not problems else "not ready", "problems": problems},
                        status_code=503 if problems else 200)


class HeadAsGet:
    """A HEAD request answered as its GET would be, without the body (Starlette's routes answer HEAD only
    where they name it; a monitor or a link checker asks HEAD of every page)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        ended = False

        async def headers_only(message: Message) -> None:
            nonlocal ended
            if message["type"] == "http.response.body":
                if ended:
                    raise _Answered  # a stream that would go on: its headers were the answer
                ended = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        with contextlib.suppress(_Answered):
            await self.app({**scope, "method": "GET"}, receive, headers_only)


class _Answered(Exception):
    """A HEAD's headers are sent: whatever body its GET would go on to send is not wanted."""
