"""The append's lane: the API's hot route served ahead of FastAPI's router, inside every middleware.

FastAPI's router finds a route by trying each included router's routes in turn, twice (once to pick the router,
once inside it), and then solves the route's dependencies. The append's endpoint has none: it reads its request
itself (:func:`.api.append_event`). The lane matches the route's own compiled path and calls its endpoint, so
the same route, declared once and described in ``/openapi.json``, costs some 0.2 ms less an append through
``matchstate serve`` (the README's Speed section). Its errors are answered by the app's own handlers, as the
router's are.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from fastapi.routing import APIRoute
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match
from starlette.types import ASGIApp, Receive, Scope, Send

Handler = Callable[[Request, Exception], Response | Awaitable[Response]]


class Lane:
    """ASGI middleware: a request that fully matches one of ``routes`` (method and path) is answered by its
    endpoint, ``endpoint(request, **path_params)``; an error it raises, by the first of ``handlers`` (the app's
    ``exception_handlers``) that takes its class, else it goes on up as the router's would. Anything else goes on
    to the app."""

    def __init__(self, app: ASGIApp, routes: Sequence[APIRoute], handlers: Mapping[Any, Handler]) -> None:
        self.app = app
        self.routes = routes
        self.handlers = handlers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            for route in self.routes:
                match, child = route.matches(scope)
                if match is Match.FULL:
                    scope.update(child)  # the route and its path's parameters, as the router sets them
                    response = await self.answer(route, Request(scope, receive, send))
                    await response(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def answer(self, route: APIRoute, request: Request) -> Response:
        try:
            response: Response = await route.endpoint(request, **request.path_params)
        except Exception as err:
            handler = next((self.handlers[kind] for kind in type(err).__mro__ if kind in self.handlers), None)
            if handler is None:
                raise
            answered = handler(request, err)
            return await answered if inspect.isawaitable(answered) else answered
        return response
