"""The pages' templates, in the reader's language.

``t(section, key, **fields)`` in a template is a phrase of the one catalog (``data/words.toml``) in the
language the toggle chose, which it keeps in a cookie so the server renders that language too (until then, the
browser's ``Accept-Language``: an answer whose language was chosen so says ``Vary: Accept-Language``). Every page
loads the catalog's sections its scripts use as a module (``catalog-console.mjs``, say: see :mod:`.assets`), so
its scripts (``static/catalog.mjs``) speak the same words, offline as well. ``script(entry)`` and
``stylesheet(styles)`` are the versioned URLs of the page's one script (its modules in one file) and its one
stylesheet.
"""

from __future__ import annotations

from importlib import resources

import orjson
from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..authority import OFFICIALS_ONLY
from ..tournaments.standings import goals
from ..words import LANGUAGES, phrase
from .assets import script, stylesheet
from .negotiation import weighted
from .offline import kept_offline

LANG_COOKIE = "matchstate_lang"
CHOSEN = "reader_lang_chosen"  # in the request's state: the answer is in the reader's language (see LanguageVary)


def reader_lang(request: Request) -> str:
    """The language the reader chose with the toggle; until they do, the first of ours their browser asks for
    (``Accept-Language``), else English."""
    setattr(request.state, CHOSEN, True)
    value = request.cookies.get(LANG_COOKIE)
    if value in LANGUAGES:
        return value
    return asked_lang(request.headers.get("accept-language", ""))


def asked_lang(header: str) -> str:
    """The language of ours an ``Accept-Language`` header ranks first (RFC 9110, 12.5.4: by weight, then by
    order; ``es-AR`` is Spanish, ``*`` English), else English."""
    ranked: list[tuple[float, int, str]] = []
    for order, (name, weight) in enumerate(weighted(header)):
        language = name.partition("-")[0]
        if weight > 0 and (language in LANGUAGES or language == "*"):
            ranked.append((-weight, order, "en" if language == "*" else language))
    return min(ranked)[2] if ranked else "en"


class LanguageVary:
    """ASGI middleware: an answer in the reader's language (:func:`reader_lang` was asked while it was made) says
    ``Vary: Accept-Language``, so that a shared cache gives no reader a page in another's language. Said with the
    cookie too: the same address without it is answered by the header."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        state = scope.setdefault("state", {})  # the dict request.state writes to, whatever copies the scope below

        async def send_varied(message: Message) -> None:
            if message["type"] == "http.response.start" and state.get(CHOSEN):
                message["headers"] = list(message.get("headers", []))
                MutableHeaders(raw=message["headers"]).add_vary_header("Accept-Language")
            await send(message)

        await self.app(scope, receive, send_varied)


@pass_context
def _t(context: Context, section: str, key: str, /, **fields: object) -> Markup:
    # Markup.format escapes every field but those that are markup already (a |code, say).
    return Markup.escape(phrase(section, key, reader_lang(context["request"]))).format(**fields)


def _fields(fields: dict[str, object]) -> Markup:
    """The fields a page's script fills a phrase in with, when the toggle says it again."""
    return Markup(' data-t-fields="{}"').format(orjson.dumps(fields).decode()) if fields else Markup()


@pass_context
def _text(context: Context, section: str, key: str, /, **fields: object) -> Markup:
    """A phrase in a ``<span>`` that the page's script puts in the language the toggle chooses."""
    return Markup('<span data-t="{}.{}"{}>{}</span>').format(section, key, _fields(fields),
                                                             _t(context, section, key, **fields))


ATTRIBUTES = {"aria-label": "label", "placeholder": "placeholder", "title": "title"}


@pass_context
def _attr(context: Context, name: str, section: str, key: str, /, **fields: object) -> Markup:
    """An attribute (aria-label, placeholder, title) holding a phrase, which the toggle changes too."""
    return Markup(' {}="{}" data-t-{}="{}.{}"{}').format(name, _t(context, section, key, **fields), ATTRIBUTES[name],
                                                         section, key, _fields(fields))


def _code(value: object, kind: str = "") -> Markup:
    """A name, key or command, as code among a phrase's words (``kind``: its class)."""
    return Markup('<code class="{}">{}</code>').format(kind, value) if kind else Markup("<code>{}</code>").format(value)


@pass_context
def _lang(context: Context) -> str:
    return reader_lang(context["request"])


@pass_context
def _kept_offline(context: Context) -> bool:
    """Whether the service worker keeps this page, to open it while the server does not answer."""
    return kept_offline(context["request"].url.path)


templates = Jinja2Templates(directory=str(resources.files(__package__).joinpath("templates")))
templates.env.globals.update(t=_t, text=_text, attr=_attr, lang=_lang, kept_offline=_kept_offline, script=script,
                             stylesheet=stylesheet, official_only=" ".join(sorted(OFFICIALS_ONLY)))
templates.env.filters["code"] = _code
templates.env.filters["goals"] = goals  # 7½, as the score sheet and the brackets write a half goal
