"""The pages' templates, in the reader's language.

``t(section, key, **fields)`` in a template is a phrase of the one catalog (``data/words.toml``) in the
language the toggle chose, which it keeps in a cookie so the server renders that language too. Every page
carries the catalog itself, so its scripts (``static/catalog.mjs``) speak the same words, offline as well.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

import orjson
from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup

from ..words import LANGUAGES, catalog, phrase

LANG_COOKIE = "matchstate_lang"


def reader_lang(request: Request) -> str:
    """The language the reader chose with the toggle; English until they do."""
    value = request.cookies.get(LANG_COOKIE, "en")
    return value if value in LANGUAGES else "en"


@pass_context
def _t(context: Context, section: str, key: str, **fields: object) -> str:
    return phrase(section, key, reader_lang(context["request"]), **fields)


@pass_context
def _lang(context: Context) -> str:
    return reader_lang(context["request"])


@cache
def catalog_json() -> Markup:
    """The whole catalog as JSON that is safe inside a ``<script>`` element (no ``</`` can close it)."""
    return Markup(orjson.dumps(catalog()).decode().replace("<", "\\u003c"))


templates = Jinja2Templates(directory=str(resources.files(__package__).joinpath("templates")))
templates.env.globals.update(t=_t, lang=_lang, catalog_json=catalog_json)
