"""The HTML pages: records, a match's console, review, scoreboard and score sheet, the scoreboard of every
match in play, and the service worker that keeps them for a server that does not answer. All but the sheet
fill themselves from the API in the browser (ES modules in ``static/``, a page's put in one file by the server
as it starts: no build step); the sheet is rendered here, to print."""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import HTMLResponse

from .. import __version__
from ..rules.uspa import CLOCK_PRESETS
from .api import ServiceDep
from .assets import asset, assets
from .offline import KEPT_PAGE, PRECACHE
from .service import Service
from .templating import reader_lang, templates

router = APIRouter(include_in_schema=False)
HERE = resources.files(__package__)
# The catalog's words are in every page, so a change to them is a new version of what the worker keeps too.
WORDS = resources.files("matchstate").joinpath("data")


def files_version(*folders: Traversable, package_version: str = __version__) -> str:
    """A short hash of every file in ``folders`` (names and bytes) and the package's version: the name
    of the service worker's cache, so that any change served is a new version."""
    digest = hashlib.sha256(package_version.encode())
    for folder in folders:
        for item in sorted(folder.iterdir(), key=lambda item: item.name):
            if item.is_file():
                digest.update(f"\0{folder.name}/{item.name}\0".encode())
                digest.update(item.read_bytes())
    return digest.hexdigest()[:16]


def static_files() -> list[str]:
    """The versioned URL of every static file the pages load (each page's bundle, not its modules one by one)."""
    return sorted(asset(name) for name in assets().loaded())


@cache
def service_worker() -> str:
    version = files_version(HERE.joinpath("static"), HERE.joinpath("templates"), WORDS)
    return templates.get_template("sw.js").render(version=version, precache=[*PRECACHE, *static_files()],
                                                  static_version=assets().version, kept_page=KEPT_PAGE.pattern)


@router.get("/sw.js")
def service_worker_script() -> Response:
    # no-cache: the browser asks for it on every visit, and so learns of a new version at once.
    return Response(service_worker(), media_type="text/javascript", headers={"Cache-Control": "no-cache"})


@router.get("/", response_class=HTMLResponse)
def records_page(request: Request, service: ServiceDep) -> HTMLResponse:
    presets = [(name, int(clock.chukker_seconds), int(clock.extra_seconds)) for name, clock in CLOCK_PRESETS.items()]
    return templates.TemplateResponse(request, "records.html", {"private": service.private, "clock_presets": presets})


@router.get("/matches/{code}/console", response_class=HTMLResponse)
def console_page(request: Request, service: ServiceDep, code: str) -> HTMLResponse:
    return _match_page(request, service, code, "console.html")


@router.get("/matches/{code}/review", response_class=HTMLResponse)
def review_page(request: Request, service: ServiceDep, code: str) -> HTMLResponse:
    return _match_page(request, service, code, "review.html")


@router.get("/matches/{code}/scoreboard", response_class=HTMLResponse)
def scoreboard_page(request: Request, service: ServiceDep, code: str) -> HTMLResponse:
    return _match_page(request, service, code, "scoreboard.html")


@router.get("/scoreboard", response_class=HTMLResponse)
def every_scoreboard_page(request: Request, service: ServiceDep) -> HTMLResponse:
    """The scoreboard of every match in play (its data, on a private server, needs the league's key)."""
    return templates.TemplateResponse(request, "scoreboard.html", {"code": None, "private": service.private})


def _match_page(request: Request, service: Service, code: str, template: str) -> HTMLResponse:
    service.require(code)  # an unknown match gets a 404 here, not an empty page
    return templates.TemplateResponse(request, template, {"code": code, "private": service.private})


@router.get("/matches/{code}/sheet", response_class=HTMLResponse)
def sheet_page(request: Request, service: ServiceDep, code: str,
               key: Annotated[str | None, Query()] = None) -> HTMLResponse:
    service.check_read(code, key)
    # On a private server its links carry the key it was opened with, as they need it.
    keyed = f"?key={quote(key, safe='')}" if service.private and key else ""
    sheet, receipt = service.sheet(code)
    return templates.TemplateResponse(request, "sheet.html", {"code": code, "sheet": sheet, "receipt": receipt,
                                                              "keyed": keyed})


def navigated(request: Request) -> bool:
    """Whether a person's browser asked for a page (not the API, not a file): a refusal is then a page in words."""
    path = request.url.path
    return (request.method in ("GET", "HEAD") and not path.startswith(("/api/", "/static/"))
            and "text/html" in request.headers.get("accept", ""))


def refused_page(request: Request, status: int, words: dict[str, str] | None, detail: str,
                 headers: dict[str, str] | None = None) -> HTMLResponse:
    """A refusal as a page, in the reader's language (``words``, where the catalog has them; else ``detail``)."""
    reason = words[reader_lang(request)] if words else detail
    # refused: not a page the service worker keeps, though its address is one's (an unknown match's console)
    return templates.TemplateResponse(request, "error.html", {"status": status, "reason": reason, "refused": True},
                                      status_code=status, headers=headers)
