"""Security headers on every answer, and the ``Host`` header checked against the names the server answers to.

The pages load their scripts, styles and data from the server itself and run nothing inline, so the
Content-Security-Policy allows 'self' alone, but for the review's video (an answer no browser runs, JSON or a
stylesheet, carries one that allows nothing); no page may be framed; no answer's
type is sniffed; a link followed carries no path. A request whose ``Host`` names anything but
``--allowed-hosts`` (default: the address the server is bound to, and localhost) is refused with 400: a page
on another site that rebinds its own name to this server's address (DNS rebinding) cannot read it. ``/healthz``,
which says only that the process runs, is answered whatever the ``Host``.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .faults import fault_body

# The one source beyond the server: the review's video, a recording opened on the laptop (a blob: address, nothing
# uploaded) or at an address of its own (a camera's, a broadcast's); media runs no script.
CONTENT_SECURITY_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                           "media-src 'self' blob: http: https:; "
                           "connect-src 'self'; font-src 'self'; worker-src 'self'; manifest-src 'self'; "
                           "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
# An answer no browser runs (JSON, a stylesheet, an image) needs no policy but one that forbids all, should it be
# opened as a page (OWASP's for an API): a third of the header's bytes, on every answer of a console's first load.
NOTHING_RUNS_POLICY = "default-src 'none'; frame-ancestors 'none'"
# What a browser runs under the policy its answer carries: a page, and a script (the service worker's is its own).
RUNS = (b"text/html", b"text/javascript", b"application/javascript")
HEADERS = [(b"x-frame-options", b"DENY"), (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin")]
POLICY = b"content-security-policy"
LOCAL_NAMES = ("localhost", "127.0.0.1", "::1")
WILDCARDS = ("0.0.0.0", "::")
ANY_ADDRESS = "*address"  # among the allowed hosts: any host written as an IP address
# Answered whatever the Host: it says only that the process runs, and a container's health check asks it at
# 127.0.0.1 whatever names the server answers to (compose's, say).
HEALTH_PATH = "/healthz"


def allowed_hosts(bound: str, given: str | None = None) -> frozenset[str] | None:
    """The host names the server answers to: ``given`` (comma-separated; ``*`` for any, None), else
    ``MATCHSTATE_ALLOWED_HOSTS``, else the ``bound`` address and localhost; bound to every address (0.0.0.0,
    ::), any address written as an IP too (a rebinding page names its own site, never an address)."""
    chosen = given if given is not None else os.environ.get("MATCHSTATE_ALLOWED_HOSTS")
    if chosen:
        names = {name.strip().lower().strip("[]") for name in chosen.split(",") if name.strip()}
        return None if "*" in names else frozenset(names)
    bound = bound.lower().strip("[]")
    return frozenset({ANY_ADDRESS if bound in WILDCARDS else bound, *LOCAL_NAMES} - {""})


def is_address(name: str) -> bool:
    """Whether ``name`` is an IP address written out, not a name."""
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def host_name(host: bytes) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8000`` gives ``::1``)."""
    text = host.decode("latin-1").strip().lower()
    if text.startswith("["):
        return text[1:].partition("]")[0]
    return text.rpartition(":")[0] if text.count(":") == 1 else text


def policy(content_type: str | bytes | None) -> str:
    """The Content-Security-Policy of an answer of ``content_type``: the pages' on a page or a script, and on an
    answer of no type, whose kind is not known; the policy that forbids all on the rest."""
    kind = content_type.encode() if isinstance(content_type, str) else content_type
    return NOTHING_RUNS_POLICY if kind is not None and not kind.startswith(RUNS) else CONTENT_SECURITY_POLICY


def security_headers(headers: Iterable[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """The security headers to add to an answer with ``headers``: its policy by its type (:func:`policy`), unless
    it names one of its own (a 304 names the policy of the answer it stands for), and the others."""
    named = dict(headers)
    return HEADERS if POLICY in named else [(POLICY, policy(named.get(b"content-type")).encode()), *HEADERS]


class SecurityHeaders:
    """ASGI middleware: the security headers on every answer; with ``hosts`` (:func:`allowed_hosts`), a request
    whose ``Host`` is not one of them is refused with 400."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str] | None = None) -> None:
        self.app = app
        self.hosts = hosts
        self.any_address = hosts is not None and ANY_ADDRESS in hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *security_headers(message.get("headers", ()))]
            await send(message)

        if self.hosts is not None and scope["path"] != HEALTH_PATH:
            host = next((value for name, value in scope["headers"] if name == b"host"), b"")
            name = host_name(host)
            if name not in self.hosts and not (self.any_address and is_address(name)):
                body = fault_body("host-refused", host=name or "-")
                await guarded({"type": "http.response.start", "status": 400,
                               "headers": [(b"content-type", b"application/json"),
                                           (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, guarded)
