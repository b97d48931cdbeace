"""A page's ES modules in one file, so that a weak signal fetches a page's script in one request, not forty:
HTTP/1.1 opens six connections to a host, and on Slow 3G each request waits two seconds for its answer, so
forty modules cost seven rounds (fourteen seconds) however early they are named.

Each module becomes a function, its own scope as a module has, that returns its exports; it runs the first
time a module imports it, and its imports run first, in their order, as ES modules evaluate. An import becomes
a read of that module's exports, and ``import("./x.mjs")`` a promise of them. A page's bundle runs its catalog,
page.mjs and its entry module, in that order, as its three ``<script type=module>`` ran before.

This reads the module syntax the package's files use, and refuses any other (naming the module and the line),
so a module written otherwise fails a test rather than a page: ``import {a, b as c} from "./x.mjs";``,
``import "./x.mjs";``, ``export`` before a function, class or const, and ``await`` at the top level of an entry
module (one that no module imports). Every top-level statement starts a line, as the files are written.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..errors import BundleError

# A static import (its names, or none for one run for its effects) of a module beside it.
IMPORT = re.compile(r'^import\s*(?:\{([^}]*)\}\s*from\s*)?"\./([\w.-]+\.mjs)";?[ \t]*$', re.MULTILINE)
DYNAMIC = re.compile(r'\bimport\(\s*"\./([\w.-]+\.mjs)"\s*\)')
EXPORT = re.compile(r"^export (?=(?:async function\*?|function\*?|class|const) ([A-Za-z_$][\w$]*))", re.MULTILINE)
# What the reading above leaves unread: a line that still begins an import or export, or names import.meta.
UNREAD = re.compile(r"^(?:import|export)\b.*$|\bimport\s*\.\s*meta\b|\bimport\s*\((?!\s*\")", re.MULTILINE)
# A comment that fills its lines: left out of the bundle, a quarter of its bytes.
COMMENT = re.compile(r"^[ \t]*(?://.*|/\*(?:[^*]|\*(?!/))*\*/[ \t]*)\n", re.MULTILINE)
TOP_AWAIT = re.compile(r"^(?![ \t]|//|\*|/\*).*\bawait\b", re.MULTILINE)
NEED = "$need"  # the bundle's own names, which no module may use
MODULES = "$modules"
MADE = "$made"


def bundle(sources: Mapping[str, str], entries: list[str], title: str) -> str:
    """One module that runs ``entries`` (module names, in order) and every module they import, from
    ``sources`` (each module's text by name); ``title`` says whose it is in its first line."""
    modules = order(sources, entries)
    imported = {module for name in modules for module in imports(sources[name])}
    made = {name: _module(name, sources[name], may_await=name not in imported) for name in modules}
    body = ",\n".join(f"{_quote(name)}: {made[name]}" for name in modules)
    run = "\n".join(f"{'await ' if made[entry].startswith('async') else ''}{NEED}({_quote(entry)});"
                    for entry in entries)
    return (f"// {title}: {', '.join(entries)} and the modules they import, in one file, made by matchstate's "
            f"server\n// from its static files (web/bundle.py); each module is a function that returns its "
            f"exports.\nconst {MODULES} = {{\n{body}\n}};\nconst {MADE} = {{}};\n"
            f"function {NEED}(name) {{\n  return {MADE}[name] ??= {MODULES}[name]();\n}}\n{run}\n")


def order(sources: Mapping[str, str], entries: list[str]) -> list[str]:
    """``entries`` and every module they import, statically or not (``sources``: each module's text by name), in
    the order they first run: each after the modules it imports statically."""
    run: list[str] = []
    for entry in entries:
        _reach(sources, entry, (), run)
    return run


def imports(text: str) -> list[str]:
    """The modules beside it that the module ``text`` imports, statically or not."""
    return [module for _, module in IMPORT.findall(text)] + DYNAMIC.findall(text)


def _reach(sources: Mapping[str, str], name: str, path: tuple[str, ...], order: list[str]) -> None:
    """Put ``name`` in ``order`` after every module it imports (statically or not), as they first run."""
    if name in order:
        return
    if name in path:
        raise BundleError(f"{' imports '.join((*path[path.index(name):], name))}: modules that import each "
                          "other are not bundled")
    if name not in sources:
        raise BundleError(f"{path[-1] if path else 'a page'} imports {name}, which is no module of static/")
    text = sources[name]
    for _, imported in IMPORT.findall(text):
        _reach(sources, imported, (*path, name), order)
    order.append(name)
    for imported in DYNAMIC.findall(text):  # loaded later, when asked: after the module that asks
        _reach(sources, imported, (*path, name), order)


def _module(name: str, text: str, may_await: bool) -> str:
    """``text`` as a function of no arguments returning its exports."""
    for forbidden in (NEED, MODULES, MADE):
        if forbidden in text:
            raise BundleError(f"{name} uses the name {forbidden}, which is the bundle's own")
    reads = "".join(f"{NEED}({_quote(module)});\n" if names is None
                    else f"const {{{_names(names)}}} = {NEED}({_quote(module)});\n"
                    for names, module in (found.groups() for found in IMPORT.finditer(text)))
    exported = EXPORT.findall(text)
    # The imports' lines are emptied, not removed, so that a line of the body is the module's line.
    body = DYNAMIC.sub(lambda found: f"Promise.resolve().then(() => {NEED}({_quote(found[1])}))",
                       EXPORT.sub("", IMPORT.sub("", text)))
    unread = UNREAD.search(body)
    if unread:
        line = body.count("\n", 0, unread.start()) + 1
        raise BundleError(f"{name}, line {line}: {unread[0].strip()!r} is module syntax the bundle does not read")
    awaits = TOP_AWAIT.search(body) is not None
    if awaits and not may_await:
        raise BundleError(f"{name} awaits at its top level and is imported: only an entry module may")
    return f"{'async ' if awaits else ''}() => {{\n{reads}{_uncommented(body)}\nreturn {{{', '.join(exported)}}};\n}}"


def _uncommented(text: str) -> str:
    """``text`` without the comments that fill their lines, where no line can be inside a string: where no
    template literal spans lines (each line holds an even number of backticks) and no line is continued."""
    lines = text.splitlines()
    if any(line.count("`") % 2 or line.endswith("\\") for line in lines):
        return text
    return COMMENT.sub("", text)


def _names(names: str) -> str:
    """An import's ``{a, b as c}`` as a destructuring's ``{a, b: c}``."""
    return ", ".join(part.strip().replace(" as ", ": ") for part in names.split(",") if part.strip())


def _quote(name: str) -> str:
    return f'"{name}"'
