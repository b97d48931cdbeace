"""The HTML pages: records, a match's console, review and score sheet. All but the sheet fill themselves
from the API in the browser; the sheet is rendered here, to print."""

from __future__ import annotations

from importlib import resources
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from .api import ServiceDep
from .service import Service

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(resources.files(__package__).joinpath("templates")))


@router.get("/", response_class=HTMLResponse)
def records_page(request: Request, service: ServiceDep) -> HTMLResponse:
    return templates.TemplateResponse(request, "records.html", {"private": service.private})


@router.get("/matches/{code}/console", response_class=HTMLResponse)
def console_page(request: Request, service: ServiceDep, code: str) -> HTMLResponse:
    return _match_page(request, service, code, "console.html")


@router.get("/matches/{code}/review", response_class=HTMLResponse)
def review_page(request: Request, service: ServiceDep, code: str) -> HTMLResponse:
    return _match_page(request, service, code, "review.html")


def _match_page(request: Request, service: Service, code: str, template: str) -> HTMLResponse:
    service.require(code)  # an unknown match gets a 404 here, not an empty page
    return templates.TemplateResponse(request, template, {"code": code, "private": service.private})


@router.get("/matches/{code}/sheet", response_class=HTMLResponse)
def sheet_page(request: Request, service: ServiceDep, code: str,
               key: Annotated[str | None, Query()] = None) -> HTMLResponse:
    service.check_read(code, key)
    # On a private server its links carry the key it was opened with, as they need it.
    keyed = f"?key={quote(key, safe='')}" if service.private and key else ""
    return templates.TemplateResponse(request, "sheet.html", {"code": code, "sheet": service.sheet(code),
                                                              "keyed": keyed})
