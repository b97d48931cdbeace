"""A store's matches as records: each match's listing and tally, read once and kept until its next event.

The store's head of each match (its last seq) says whether what is kept still holds, so a list or
the statistics of a season read only the matches that moved since they were last asked for (each
log once), and appends made by another process are seen.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .search import Filters, Listed, find, standing_status
from .stats import Scope, Stats, statistics
from .tally import Tally, tally
from .timeline import Event

if TYPE_CHECKING:
    from ..store import Store, Summary


@dataclass(slots=True)
class _Record:
    listed: Listed
    tally: Tally | None = None  # counted when first asked for


class Archive:
    """The records of the matches in ``store``. Threads may share it: two asking at once for a match
    that moved may both count it, and keep the same."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._records: dict[str, _Record] = {}

    def matches(self, filters: Filters | None = None) -> list[Listed]:
        """Every match, oldest first, or those ``filters`` find."""
        listed = [self._record(summary).listed for summary in self.store.summaries()]
        return listed if filters is None else find(listed, filters)

    def stats(self, scope: Scope) -> Stats:
        """The statistics of the matches ``scope`` covers."""
        records = [self._record(summary, scope) for summary in self.store.summaries()]
        return statistics([record.tally for record in records
                           if record.tally is not None and scope.covers(record.listed.start)], scope)

    def _record(self, summary: Summary, counting: Scope | None = None) -> _Record:
        """The match's record as of ``summary``; tallied too if ``counting`` covers it."""
        record = self._records.get(summary.code)
        events = None
        if record is None or record.listed.events != summary.last_seq:
            events = self._log(summary.code, summary.last_seq)
            record = _Record(Listed(summary.code, events[0], dict(summary.score), summary.state, summary.last_seq,
                                    summary.started or summary.created, standing_status(events)))
            self._records[summary.code] = record
        if counting is not None and record.tally is None and counting.covers(record.listed.start):
            record.tally = tally(events if events is not None else self._log(summary.code, summary.last_seq))
        return record

    def _log(self, code: str, events: int) -> list[Event]:
        """The match's first ``events`` events, the log as its summary saw it (a log only grows)."""
        return [json.loads(stored.raw) for stored in self.store.events(code)[:events]]
