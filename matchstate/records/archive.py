"""A store's matches as records: each match's listing and tally, read once and kept until its next event.

The store's head of each match (its last seq) says whether what is kept still holds, so a list or
the statistics of a season replay only the matches that moved since they were last asked for, and
appends made by another process are seen.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .search import Filters, Listed, find, standing_status
from .stats import Scope, Stats, statistics
from .tally import Tally, tally
from .timeline import Event

if TYPE_CHECKING:
    from ..store import Store


class Archive:
    """The records of the matches in ``store``. Threads may share it: two asking at once for a match
    that moved may both count it, and keep the same."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._listed: dict[str, Listed] = {}
        self._tallies: dict[str, tuple[int, Tally]] = {}  # code -> (its events counted, the tally)

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

    def tally(self, match: Listed) -> Tally:
        """The match's tally as of its listing."""
        kept = self._tallies.get(match.code)
        if kept is None or kept[0] != match.events:
            kept = (match.events, tally(self._log(match.code, match.events)))
            self._tallies[match.code] = kept
        return kept[1]

    def stats(self, scope: Scope) -> Stats:
        """The statistics of the matches ``scope`` covers."""
        return statistics((self.tally(match) for match in self.matches() if scope.covers(match.start)), scope)

    def _log(self, code: str, events: int) -> list[Event]:
        """The match's first ``events`` events, the log as its listing saw it (a log only grows)."""
        return [json.loads(stored.raw) for stored in self.store.events(code)[:events]]
