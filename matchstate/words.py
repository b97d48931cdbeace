"""The words matchstate speaks, in English and Spanish, from one catalog (``data/words.toml``).

Rulings are worded here, and the pages read the same catalog, so a phrase is written once per
language. ``phrase("outcome", "goal", "es", team="Red")`` gives ``"Gol para Red"``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from importlib import resources

LANGUAGES = ("en", "es")

Catalog = dict[str, dict[str, dict[str, str]]]


@cache
def catalog() -> Catalog:
    """Every phrase: section -> key -> language -> text."""
    text = resources.files(__package__).joinpath("data/words.toml").read_text("utf-8")
    return tomllib.loads(text)


class Words(dict[str, str]):
    """Something said in every language: language -> text. As a field of a phrase, it is said in the
    phrase's own language (a refusal's reason inside the refusal of a void, say)."""


def phrase(section: str, key: str, lang: str, /, **fields: object) -> str:
    """One phrase in ``lang``, its ``{fields}`` filled in."""
    template = catalog()[section][key][lang]
    if not fields:
        return template
    return template.format(**{name: value[lang] if isinstance(value, Words) else value
                              for name, value in fields.items()})


def phrases(section: str, key: str, /, **fields: object) -> Words:
    """One phrase in every language."""
    return Words({lang: phrase(section, key, lang, **fields) for lang in LANGUAGES})


def joined(items: Iterable[str]) -> Words:
    """Names joined as a sentence joins two or more: "Blue and Red", "Blue y Red"."""
    shown = list(items)
    return Words({lang: phrase("common", "and", lang).join(shown) for lang in LANGUAGES})
