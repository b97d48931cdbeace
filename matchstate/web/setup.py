"""The page that sets a tablet up for the field (``/setup/tablet``): the laptop's certificate authority to
download, a QR code of its address, the steps for iPadOS and Android, and the fingerprint to compare."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from ..errors import NotFound
from ..words import phrases
from .templating import templates
from .tls import ServedTls, ca_fingerprint

router = APIRouter(include_in_schema=False)
CA_PATH = "/setup/matchstate-ca.crt"


def served_tls(request: Request) -> ServedTls:
    """How this server is served (``app.state.tls``, set by ``matchstate serve``; plain HTTP if unset)."""
    tls = getattr(request.app.state, "tls", None)
    return tls if isinstance(tls, ServedTls) else ServedTls()


def qr_svg(text: str) -> Markup:
    """A QR code of ``text`` as an inline SVG element, drawn here (no image fetched, none from elsewhere)."""
    import segno  # only this page needs it

    svg = segno.make(text, error="m").svg_inline(scale=6, border=2, title=text)
    return Markup(svg)


@router.api_route("/setup/tablet", methods=["GET", "HEAD"], response_class=HTMLResponse)
def tablet_setup_page(request: Request) -> HTMLResponse:
    tls = served_tls(request)
    host = tls.tablet_host(request.url.hostname or "localhost")
    port = request.url.port
    base = f"{'https' if tls.https else 'http'}://{host if ':' not in host else f'[{host}]'}" + (
        f":{port}" if port else "")
    context: dict[str, object] = {"tls": tls, "base": base, "ca_url": base + CA_PATH}
    if tls.ca is not None:
        context |= {"fingerprint": ca_fingerprint(tls.ca), "qr": qr_svg(base + CA_PATH)}
    return templates.TemplateResponse(request, "setup.html", context)


@router.api_route(CA_PATH, methods=["GET", "HEAD"])
def tablet_ca(request: Request) -> Response:
    """The laptop's CA certificate, as a file a tablet offers to install."""
    tls = served_tls(request)
    if tls.ca is None:
        words = phrases("field", "no-ca")
        missing = NotFound(words["en"])
        missing.words = words
        raise missing
    return Response(tls.ca, media_type="application/x-x509-ca-cert",
                    headers={"Content-Disposition": 'attachment; filename="matchstate-ca.crt"'})
