"""The pages' static files, made once at start-up for a weak signal: each compressed ahead (gzip, and brotli
where the package is installed), named by one version (the hash of every file and of the catalog), and kept
by browsers for a year under that name (``immutable``).

The templates name a file with ``asset("console.mjs")``, which gives ``/static/console.mjs?v=VERSION``, and
list its module graph with ``modulepreload("console.mjs")`` so the browser fetches every module at once
instead of as a waterfall of imports. The modules' own relative imports are rewritten with the same
version, so one module is one URL wherever it is imported from. The catalog of words is served as modules
of their own rather than inlined in every page: one per page's entry module (``catalog-console.mjs``), holding
only the sections its modules and the templates name, so that the console does not download the records'
and the tournaments' words. No build step: all of this is done from the package's files when the server
starts.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Header, Query, Response
from markupsafe import Markup

from .. import __version__
from ..words import catalog

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
IMPORT = re.compile(r"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])\./([\w.-]+\.mjs)\2""")
# A catalog section a module may name: any quoted word ("console"), or the section of a "section.key".
NAMED = re.compile(r'"([a-z][\w-]*)[".]')
SHARED = "page.mjs"  # every page runs it beside its own entry module
# A catalog section a template puts on an element for the page's script to change with the toggle.
WORDED = re.compile(r'data-t(?:-[a-z]+)?="([\w-]+)\.|\btext\("([\w-]+)"|\battr\("[\w-]+", "([\w-]+)"')


@dataclass(frozen=True, slots=True)
class Asset:
    """One static file as served: its bytes plain, gzipped and (where brotli is installed) brotli'd."""

    media_type: str
    plain: bytes
    gzipped: bytes
    brotlied: bytes | None
    imports: tuple[str, ...]  # the modules it imports, by name


@dataclass(frozen=True, slots=True)
class Assets:
    version: str
    files: dict[str, Asset]

    def url(self, name: str) -> str:
        """The file's versioned URL."""
        return f"/static/{name}?v={self.version}"

    def graph(self, *entries: str) -> list[str]:
        """``entries`` and every module they import, directly or not, in the order first met."""
        return reached(lambda name: self.files[name].imports if name in self.files else None, entries)


def reached(imports_of: Callable[[str], Iterable[str] | None], entries: Iterable[str]) -> list[str]:
    """``entries`` and every module they import (``imports_of``: None for no module of ours), directly or not,
    in the order first met."""
    seen: dict[str, None] = {}
    waiting = list(entries)
    while waiting:
        name = waiting.pop(0)
        imports = imports_of(name) if name not in seen else None
        if imports is not None:
            seen[name] = None
            waiting.extend(imports)
    return list(seen)


@cache
def assets() -> Assets:
    """Every static file, and each page's catalog module, versioned and compressed (made once per process)."""
    sources = {item.name: item.read_bytes() for item in STATIC.iterdir() if item.is_file()}
    sources.update(catalogs(sources))
    digest = hashlib.sha256(__version__.encode())
    for name in sorted(sources):
        digest.update(f"\0{name}\0".encode())
        digest.update(sources[name])
    version = digest.hexdigest()[:16]
    files = {}
    for name, raw in sources.items():
        imports: tuple[str, ...] = ()
        if name.endswith(".mjs"):
            text = raw.decode("utf-8")
            # A dynamic import(...) is loaded when the page asks for it, after it is usable: not preloaded.
            imports = tuple(found[3] for found in IMPORT.finditer(text) if not found[1].rstrip().endswith("("))
            raw = IMPORT.sub(lambda found: f"{found[1]}{found[2]}./{found[3]}?v={version}{found[2]}", text).encode()
        files[name] = Asset(TYPES.get(name[name.rfind("."):], "application/octet-stream"), raw,
                            gzip.compress(raw, 9, mtime=0), brotli.compress(raw) if brotli is not None else None,
                            imports)
    return Assets(version, files)


def catalog_module(entry: str | None) -> str:
    """The name of the catalog module of a page whose entry module is ``entry`` (None: a page of page.mjs alone)."""
    return f"catalog-{(entry or SHARED).removesuffix('.mjs')}.mjs"


def catalogs(sources: dict[str, bytes]) -> dict[str, bytes]:
    """A catalog module for each page's entry (a module no other imports, and page.mjs): the sections of the
    catalog that its modules and page.mjs's name, and that its template's elements (``data-t``) and base.html's
    name (a word missing from it would throw on the page, which the pages' browser tests would see)."""
    texts = {name: raw.decode("utf-8") for name, raw in sources.items() if name.endswith(".mjs")}
    imported = {name: [found[3] for found in IMPORT.finditer(text)] for name, text in texts.items()}
    templates = {item.name: item.read_text(encoding="utf-8") for item in TEMPLATES.iterdir() if item.is_file()}
    every = catalog()
    entries = {SHARED} | set(texts) - {name for names in imported.values() for name in names}
    modules = {}
    for entry in sorted(entries):
        named = template_sections(templates, entry) | {word for name in reached(imported.get, [entry, SHARED])
                                                       for word in NAMED.findall(texts[name])}
        words = orjson.dumps({section: every[section] for section in every if section in named})
        modules[catalog_module(entry)] = (b"// The catalog of words (data/words.toml) a page of " + entry.encode()
                                          + b" speaks: read by catalog.mjs.\nglobalThis.matchstateCatalog = "
                                          + words + b";\n")
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
    """A template's name for a static file: its versioned URL."""
    return assets().url(name)


def modulepreload(entry: str | None) -> Markup:
    """``<link rel=modulepreload>`` for the page's catalog, page.mjs, ``entry`` and every module they import, so
    none waits for the module that imports it."""
    names = assets().graph(catalog_module(entry), SHARED, *([entry] if entry else []))
    return Markup("").join(Markup('<link rel="modulepreload" href="{}">\n').format(asset(name)) for name in names)


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
    accepted = {part.split(";")[0].strip() for part in accept_encoding.lower().split(",")}
    encoding, body = (("br", found.brotlied) if "br" in accepted and found.brotlied is not None
                      else ("gzip", found.gzipped) if "gzip" in accepted else ("", found.plain))
    etag = f'"{every.version}{"-" + encoding if encoding else ""}"'
    headers = {"Cache-Control": IMMUTABLE if v == every.version else "no-cache", "ETag": etag,
               "Vary": "Accept-Encoding"}
    if if_none_match is not None and etag in {tag.strip() for tag in if_none_match.split(",")}:
        return Response(status_code=304, headers=headers)
    if encoding:
        headers["Content-Encoding"] = encoding
    return Response(body, media_type=found.media_type, headers=headers)
