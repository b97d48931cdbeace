"""A store's matches as records: each match's listing, read once and kept until its next event.

The store's head of each match (its last seq) says whether what is kept still holds, so a list
reads only the matches that moved since it was last asked for, and appends made by another
process are seen.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .search import Filters, Listed, find, standing_status
from .timeline import Event

if TYPE_CHECKING:
    from ..store import Store


class Archive:
    """The records of the matches in ``store``. Threads may share it: two asking at once for a match
    that moved may both read it, and keep the same."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._listed: dict[str, Listed] = {}

    def matches(self, filters: Filters | None = None) -> list[Listed]:
        """Every match, oldest first, or those ``filters`` find."""
        listed = []
        for summary in self.store.summaries():
            known = self._listed.get(summary.code)
            if known is None or known.events != summary.last_seq:
                events = self._log(summary.code, summary.last_seq)
                known = Listed(summary.code, events[0], dict(summary.score), summary.state, summary.last_seq,
                               summary.started or summary.created, standing_status(events))
                self._listed[summary.code] = known
            listed.append(known)
        return listed if filters is None else find(listed, filters)

    def _log(self, code: str, events: int) -> list[Event]:
        """The match's first ``events`` events, the log as its listing saw it (a log only grows)."""
        return [json.loads(stored.raw) for stored in self.store.events(code)[:events]]
