"""The pages' static files, made once at start-up for a weak signal: each compressed ahead (gzip, and brotli
where the package is installed), named by one version (the hash of every file and of the catalog), and kept
by browsers for a year under that name (``immutable``).

The templates name a file with ``asset("console.mjs")``, which gives ``/static/console.mjs?v=VERSION``, and
list its module graph with ``modulepreload("console.mjs")`` so the browser fetches every module at once
instead of as a waterfall of imports. The modules' own relative imports are rewritten with the same
version, so one module is one URL wherever it is imported from. The catalog of words is served as a module
of its own (``catalog-words.mjs``) rather than inlined in every page. No build step: all of this is done
from the package's files when the server starts.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import re
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
CATALOG_MODULE = "catalog-words.mjs"  # the catalog, made from data/words.toml
IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {".mjs": "text/javascript; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".json": "application/json", ".png": "image/png",
         ".svg": "image/svg+xml"}
IMPORT = re.compile(r"""((?:\bfrom|\bimport)\s*\(?\s*)(["'])\./([\w.-]+\.mjs)\2""")


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
        seen: dict[str, None] = {}
        waiting = list(entries)
        while waiting:
            name = waiting.pop(0)
            if name not in seen and name in self.files:
                seen[name] = None
                waiting.extend(self.files[name].imports)
        return list(seen)


@cache
def assets() -> Assets:
    """Every static file, and the catalog's module, versioned and compressed (made once per process)."""
    sources = {item.name: item.read_bytes() for item in STATIC.iterdir() if item.is_file()}
    words = orjson.dumps(catalog())
    sources[CATALOG_MODULE] = b"// The catalog of words (data/words.toml): read by catalog.mjs.\n" \
                              b"globalThis.matchstateCatalog = " + words + b";\n"
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


def asset(name: str) -> str:
    """A template's name for a static file: its versioned URL."""
    return assets().url(name)


def modulepreload(*entries: str) -> Markup:
    """``<link rel=modulepreload>`` for the catalog and every module ``entries`` import, so none waits for the
    module that imports it."""
    names = assets().graph(CATALOG_MODULE, *entries)
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
