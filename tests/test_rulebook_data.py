import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parents[1] / "matchstate/data/rule36.toml"
SOURCE = Path(os.environ.get("MATCHSTATE_RULEBOOK",
                            Path(__file__).parents[2] / "shared/rulebook/rule-36-uspa-2026.txt"))

CLAUSE_IDS = [
    "36/one-stroke",
    "36/stops-short",
    "36/missed-4-6",
    "36/missed-4-6:example",
    "36/return:fouling",
    "36/return:fouled",
    "36/return:discretion",
    "36/procedural:fouling",
    "36/procedural:fouled",
    "36/procedural:both",
    "36/tee:surface",
    "36/tee:as-it-lies",
    "36/yellow-card-p2",
]
LANGS = ("en", "es")


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def source() -> str:
    if not SOURCE.exists():
        pytest.skip(f"rulebook source not found: {SOURCE}")
    return SOURCE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def table_lines(data: dict[str, Any], source: str) -> dict[str, str]:
    """The flattened table line of each language, without the trailing 'Texto original' marker."""
    lines = {}
    for lang in LANGS:
        title = data["table"]["title"][lang]
        [line] = [text for text in source.splitlines() if text.startswith(title)]
        lines[lang] = line.removesuffix("Texto original").strip()
    return lines


def test_ids_are_unique(data: dict[str, Any]) -> None:
    ids = [c["id"] for c in data["clause"] + data["cell"]]
    assert len(ids) == len(set(ids))


def test_clauses_are_the_expected_thirteen_in_order(data: dict[str, Any]) -> None:
    assert [c["id"] for c in data["clause"]] == CLAUSE_IDS


def test_one_cell_per_situation_and_free_hit(data: dict[str, Any]) -> None:
    situations = [s["key"] for s in data["table"]["situation"]]
    free_hits = [f["key"] for f in data["table"]["free_hit"]]
    pairs = [(c["situation"], c["free_hit"]) for c in data["cell"]]
    assert len(data["cell"]) == 35
    assert pairs == [(s, f) for s in situations for f in free_hits]
    assert all(c["id"] == f"36/table:{c['situation']}:{c['free_hit']}" for c in data["cell"])


def test_clause_text_is_verbatim_from_source(data: dict[str, Any], source: str) -> None:
    folded = fold(source)
    for clause in data["clause"]:
        for lang in LANGS:
            assert fold(clause[lang]) in folded, (clause["id"], lang)


def test_cell_text_is_in_its_table_line(data: dict[str, Any], table_lines: dict[str, str]) -> None:
    for cell in data["cell"]:
        for lang in LANGS:
            assert cell[lang] in table_lines[lang], (cell["id"], lang)


def test_rows_rejoin_to_the_flattened_table(data: dict[str, Any], table_lines: dict[str, str]) -> None:
    situations = data["table"]["situation"]
    for lang in LANGS:
        line = table_lines[lang]
        starts, pos = [], 0
        for situation in situations:
            pos = line.index(situation[lang], pos)
            starts.append(pos)
        ends = [*starts[1:], len(line)]
        for situation, start, end in zip(situations, starts, ends, strict=False):
            cells = [c[lang] for c in data["cell"] if c["situation"] == situation["key"]]
            assert " ".join([situation[lang], *cells]) == line[start:end].strip(), (situation["key"], lang)
