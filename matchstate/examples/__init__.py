"""Real-looking match logs shipped with matchstate, for the README, the tests and ``scripts/run``."""

from __future__ import annotations

from importlib import resources
from pathlib import Path


def names() -> list[str]:
    """The bundled examples' names."""
    return sorted(p.name.removesuffix(".jsonl") for p in resources.files(__package__).iterdir()
                  if p.name.endswith(".jsonl"))


def path(name: str) -> Path:
    """The path of the bundled example log ``name``."""
    return Path(str(resources.files(__package__).joinpath(f"{name}.jsonl")))
