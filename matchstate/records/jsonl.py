"""The log as JSON Lines, line for line as each event was received: what ``replay`` and ``import`` read."""

from __future__ import annotations

from collections.abc import Sequence

from .export import Exporter, Row


def write(rows: Sequence[Row]) -> str:
    return "".join(row.raw + "\n" for row in rows)


EXPORTER = Exporter("jsonl", "application/jsonl; charset=utf-8", write,
                    "the match log as JSON Lines, each line the event exactly as it was received")
