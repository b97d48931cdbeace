"""What a record keeper reads off the store: a match's log exported, its score sheet, statistics
over a season or a tournament, and the search of the match list.

Every record replays a match's standing events (:mod:`.timeline`) and counts them once (:mod:`.tally`).
A new export format is one module with an ``EXPORTER`` (an :class:`Exporter`) and one entry below.
"""

from __future__ import annotations

from . import csv, jsonl
from .export import Exporter, Row

EXPORTERS: dict[str, Exporter] = {exporter.name: exporter for exporter in (jsonl.EXPORTER, csv.EXPORTER)}

__all__ = ["EXPORTERS", "Exporter", "Row"]
