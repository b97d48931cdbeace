"""The pages' static files, made once at start-up for a weak signal: each compressed ahead (gzip, and brotli
where the package is installed), named by one version (the hash of every file and of the catalog), and kept
by browsers for a year under that name (``immutable``).

A file's versioned URL is ``/static/style.css?v=VERSION``. The templates name a page's stylesheet with
``stylesheet(["console.css"])``: style.css and the page's own in one file (``styles-console.css``); and a
page's script with ``script("console.mjs")``: its bundle (``bundle-console.mjs``, see :mod:`.bundle`), every
module the page runs in one file, so that a weak signal does not fetch forty modules six at a time. The catalog
of words is not inlined in every page: each page's entry module has a catalog module of its own
(``catalog-console.mjs``), holding only the sections its modules and the templates name, so that the console
does not download the records' and the tournaments' words; it runs first in the page's bundle. No build step:
all of this is done from the package's files when the server starts.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header, Query, Response

from .. import __version__
from ..words import catalog
from .bundle import bundle, imports, order
from .headers import policy
from .negotiation import preferred_encoding

brotli: Any
try:
    brotli = importlib.import_module("brotli")  # the standard's reference binding, where installed
except ImportError:  # gzip alone, then
    brotli = None

router = APIRouter(include_in_schema=False)
STATIC = resources.files(__package__).joinpath("static")
TEMPLATES = resources.files(__package__).joinpath("templates")
IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {".mjs": "text/javascript; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".json": "application/json", ".png": "image/png",
         ".svg": "image/svg+xml"}
# A catalog section a module may name: any quoted word ("console"), or the section of a "section.key".
NAMED = re.compile(r'"([a-z][\w-]*)[".]')
# One phrase a module names by its section and key, both quoted: t("review", "no-clause"), has(...), and
# phraseIn(language, ...). A section a module names only so is sent with those phrases alone; named any other way
# (a key it computes, a "section.key" for an element), whole.
PHRASE = re.compile(r'\b(?:(?:t|has)\(|phraseIn\((?:"\w+"|[\w.]+(?:\(\))?),)\s*"([a-z][\w-]*)",\s*"([^"\\]+)"\s*[,)]')
SHARED = "page.mjs"  # every page runs it beside its own entry module
BASE_STYLE = "style.css"  # every page's styles, before its own
# A catalog section a template puts on an element for the page's script to change with the toggle.
WORDED = re.compile(r'data-t(?:-[a-z]+)?="([\w-]+)\.|\btext\("([\w-]+)"|\battr\("[\w-]+", "([\w-]+)"')


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file as served: its bytes plain, gzipped and (where brotli is installed) brotli'd."""

    media_type: str
    plain: bytes
    gzipped: bytes
    brotlied: bytes | None


@dataclass(frozen=True, slots=True)
class Assets:
    version: str
    files: dict[str, Asset]

    def url(self, name: str) -> str:
        """The file's versioned URL."""
        return f"/static/{name}?v={self.version}"

    def loaded(self) -> list[str]:
        """The files the pages load: every file but the modules, which they load in their bundles."""
        return [name for name in self.files if not name.endswith(".mjs") or name.startswith("bundle-")]


@cache
def assets() -> Assets:
    """Every static file, each page's catalog module and bundle, versioned and compressed (made once per
    process)."""
    sources = {item.name: item.read_bytes() for item in STATIC.iterdir() if item.is_file()}
    templates = {item.name: item.read_text(encoding="utf-8") for item in TEMPLATES.iterdir() if item.is_file()}
    sources.update(stylesheets(sources, templates))
    texts = {name: raw.decode("utf-8") for name, raw in sources.items() if name.endswith(".mjs")}
    pages = entries(texts)
    texts.update(catalogs(texts, templates, pages))
    # Each page runs its catalog, then page.mjs, then its own entry module (none beside page.mjs for its own).
    texts.update({bundle_module(entry): bundle(texts, [catalog_module(entry), *dict.fromkeys([SHARED, entry])],
                                               f"The script of the pages of {entry}") for entry in pages})
    sources.update((name, text.encode()) for name, text in texts.items())
    digest = hashlib.sha256(__version__.encode())
    for name in sorted(sources):
        digest.update(f"\0{name}\0".encode())
        digest.update(sources[name])
    files = {name: compressed(TYPES.get(name[name.rfind("."):], "application/octet-stream"), raw)
             for name, raw in sources.items()}
    return Assets(digest.hexdigest()[:16], files)


def compressed(media_type: str, raw: bytes) -> Asset:
    """``raw`` as served, compressed ahead as well as each coding compresses."""
    return Asset(media_type, raw, gzip.compress(raw, 9, mtime=0), brotli.compress(raw) if brotli is not None else None)


def entries(texts: dict[str, str]) -> list[str]:
    """Each page's entry module: one no other imports, and page.mjs for a page with no script of its own."""
    imported = {module for text in texts.values() for module in imports(text)}
    return [SHARED, *sorted(set(texts) - imported - {SHARED})]


def catalog_module(entry: str | None) -> str:
    """The name of the catalog module of a page whose entry module is ``entry`` (None: a page of page.mjs alone)."""
    return f"catalog-{(entry or SHARED).removesuffix('.mjs')}.mjs"


def bundle_module(entry: str | None) -> str:
    """The name of the one script of a page whose entry module is ``entry`` (None: a page of page.mjs alone)."""
    return f"bundle-{(entry or SHARED).removesuffix('.mjs')}.mjs"


def stylesheet_name(styles: Sequence[str]) -> str:
    """The name of the one stylesheet of a page that names ``styles`` beside style.css."""
    return "-".join(["styles", *(name.removesuffix(".css") for name in styles)]) + ".css" if styles else BASE_STYLE


def stylesheets(sources: dict[str, bytes], templates: dict[str, str]) -> dict[str, bytes]:
    """The stylesheet of each page that names styles of its own (``{% set styles = [...] %}``): style.css and
    those, in that order, as the page's links ran them, in one file."""
    named = {tuple(re.findall(r'"([\w.-]+\.css)"', found)) for text in templates.values()
             for found in re.findall(r"{% set styles = \[([^\]]*)\] %}", text)}
    return {stylesheet_name(styles): b"\n".join(sources[name] for name in (BASE_STYLE, *styles))
            for styles in named}


def catalogs(texts: dict[str, str], templates: dict[str, str], pages: list[str]) -> dict[str, str]:
    """A catalog module for each page's entry (``pages``): the sections of the catalog that its modules and
    page.mjs's name, and that its template's elements (``data-t``) and base.html's name, each whole, or only the
    phrases named where every module names a section by its phrases alone (:data:`PHRASE`). A word missing from
    it would throw on the page, which the pages' browser tests would see."""
    every = catalog()
    modules = {}
    for entry in pages:
        sources = [texts[name] for name in order(texts, [SHARED, entry])]
        whole = template_sections(templates, entry) | {word for text in sources
                                                       for word in NAMED.findall(PHRASE.sub(" ", text))}
        phrases: dict[str, set[str]] = {}
        for text in sources:
            for section, key in PHRASE.findall(text):
                phrases.setdefault(section, set()).add(key)
        words = orjson.dumps({section: every[section] if section in whole else
                              {key: phrase for key, phrase in every[section].items() if key in phrases[section]}
                              for section in every if section in whole or section in phrases}).decode()
        modules[catalog_module(entry)] = (f"// The catalog of words (data/words.toml) a page of {entry} speaks: "
                                          f"read by catalog.mjs.\nglobalThis.matchstateCatalog = {words};\n")
    return modules


def template_sections(sources: dict[str, str], entry: str) -> set[str]:
    """The catalog sections that base.html and the templates (``sources``, by name) of ``entry``'s pages, with
    those they include, put on elements for the toggle to change: ``data-t``, ``text(...)`` and ``attr(...)``. A
    template with no entry of its own runs page.mjs alone."""
    found = set()
    for name, text in sources.items():
        named = re.search(r'set entry = "([\w.-]+)"', text)
        if name == "base.html" or (named[1] if named else SHARED) == entry:
            whole = text + "".join(sources[part] for part in re.findall(r'{% include "([\w.-]+)"', text))
            found |= {section for groups in WORDED.findall(whole) for section in groups if section}
    return found


def asset(name: str) -> str:
    """A static file's versioned URL."""
    return assets().url(name)


def stylesheet(styles: Sequence[str] | None) -> str:
    """A template's name for its page's one stylesheet: style.css with the page's ``styles``, by versioned URL."""
    return asset(stylesheet_name(styles or ()))


def script(entry: str | None) -> str:
    """A template's name for its page's one script: its bundle's versioned URL."""
    return asset(bundle_module(entry))


@router.get("/static/{name}")
def static_file(name: str, v: Annotated[str | None, Query()] = None,
                accept_encoding: Annotated[str, Header()] = "",
                if_none_match: Annotated[str | None, Header()] = None) -> Response:
    """A static file, compressed as the browser accepts; kept for a year under the current version's URL, and
    asked again (with its ETag) under any other."""
    every = assets()
    found = every.files.get(name)
    if found is None:
        return Response(status_code=404)
    return served(found, every.version, accept_encoding, if_none_match,
                  IMMUTABLE if v == every.version else "no-cache")


def served(found: Asset, tag: str, accept_encoding: str, if_none_match: str | None, cache_control: str) -> Response:
    """``found`` in the coding the browser's weights prefer (brotli before gzip where they tie; else plain), its ETag
    ``tag`` and the coding;
    304 where the browser's copy has that ETag (compared weakly, as RFC 9110 13.1.2 asks of If-None-Match)."""
    encoding = preferred_encoding(accept_encoding, ("gzip",) if found.brotlied is None else ("br", "gzip")) or ""
    body = {"br": found.brotlied, "gzip": found.gzipped}.get(encoding) or found.plain
    etag = f'"{tag}{"-" + encoding if encoding else ""}"'
    headers = {"Cache-Control": cache_control, "ETag": etag, "Vary": "Accept-Encoding"}
    held = {copy.strip().removeprefix("W/") for copy in (if_none_match or "").split(",")}
    if {etag, "*"} & held:  # no type of its own: the policy of the answer it stands for, named here
        return Response(status_code=304, headers={**headers, "Content-Security-Policy": policy(found.media_type)})
    if encoding:
        headers["Content-Encoding"] = encoding
    return Response(body, media_type=found.media_type, headers=headers)
