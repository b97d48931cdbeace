"""USPA Rule 36 as data: its clauses and its misexecution table, in English and Spanish.

The texts live in ``data/rule36.toml``, copied verbatim from the rulebook; each
clause and table cell has a stable id that rulings cite, such as
``36/one-stroke`` or ``36/table:hit-before-play:5a``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources

from .errors import UnknownRule
from .words import LANGUAGES


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause of Rule 36, or one cell of its misexecution table."""

    id: str
    heading: dict[str, str]
    text: dict[str, str]

    def render(self, lang: str = "en") -> str:
        return f"{self.id} · {self.heading[lang]}\n{self.text[lang]}"


def _load() -> dict[str, Clause]:
    data = tomllib.loads(resources.files(__package__).joinpath("data/rule36.toml").read_text("utf-8"))
    clauses = {
        c["id"]: Clause(c["id"], c["section"], {lang: c[lang].strip() for lang in LANGUAGES})
        for c in data["clause"]
    }
    situations = {s["key"]: s for s in data["table"]["situation"]}
    free_hits = {f["key"]: f for f in data["table"]["free_hit"]}
    for cell in data["cell"]:
        row, column = situations[cell["situation"]], free_hits[cell["free_hit"]]
        heading = {lang: f"{row[lang]} – {column[lang]}" for lang in LANGUAGES}
        clauses[cell["id"]] = Clause(cell["id"], heading, {lang: cell[lang] for lang in LANGUAGES})
    return clauses


CLAUSES = _load()


def clause(rule_id: str) -> Clause:
    """The clause or table cell with this id; :class:`UnknownRule` if there is none."""
    try:
        return CLAUSES[rule_id]
    except KeyError:
        raise UnknownRule(f"no clause or table cell of Rule 36 has the id {rule_id!r}") from None


def cell_id(situation: str, free_hit: str) -> str:
    """The id of the misexecution table's cell for ``situation`` (a row) and ``free_hit`` (a column)."""
    return f"36/table:{situation}:{free_hit}"
