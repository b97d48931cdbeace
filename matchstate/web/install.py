"""The installable console: the web app manifest, and the page it starts at (``/console``), which opens the
console of the match in progress, offline too (the service worker keeps both, the icons and the consoles)."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from ..words import phrase
from .templating import templates

router = APIRouter(include_in_schema=False)
THEME = "#1f6f4a"  # the pages' green (style.css's --green)
BACKGROUND = "#ffffff"
START = "/console"


def manifest() -> dict[str, object]:
    return {
        "name": phrase("install", "name", "en"),
        "short_name": "matchstate",
        "description": phrase("install", "description", "en"),
        "id": START,
        "start_url": START,
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [
            {"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": "/static/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }


@router.api_route("/manifest.webmanifest", methods=["GET", "HEAD"])
def manifest_file() -> Response:
    import orjson

    return Response(orjson.dumps(manifest()), media_type="application/manifest+json")


@router.api_route(START, methods=["GET", "HEAD"], response_class=HTMLResponse)
def start_page(request: Request) -> HTMLResponse:
    """Where the installed app opens: its script goes on to the console of the match in progress."""
    return templates.TemplateResponse(request, "start.html", {})
