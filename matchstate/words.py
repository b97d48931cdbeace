"""The words matchstate speaks, in English and Spanish, from one catalog (``data/words.toml``).

Rulings are worded here, and the pages read the same catalog, so a phrase is written once per
language. ``phrase("outcome", "goal", "es", team="Red")`` gives ``"Gol para Red"``.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

LANGUAGES = ("en", "es")

Catalog = dict[str, dict[str, dict[str, str]]]


@cache
def catalog() -> Catalog:
    """Every phrase: section -> key -> language -> text."""
    text = resources.files(__package__).joinpath("data/words.toml").read_text("utf-8")
    return tomllib.loads(text)


def phrase(section: str, key: str, lang: str, **fields: object) -> str:
    """One phrase in ``lang``, its ``{fields}`` filled in."""
    template = catalog()[section][key][lang]
    return template.format(**fields) if fields else template


def phrases(section: str, key: str, **fields: object) -> dict[str, str]:
    """One phrase in every language."""
    return {lang: phrase(section, key, lang, **fields) for lang in LANGUAGES}
