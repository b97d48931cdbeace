"""A store's matches as records: the match list, read off the store's head of each match, and each match's
tally, counted once and kept until its next event.

The store's head of each match (its last seq) says whether a kept tally still holds, so the
statistics of a season read only the matches that moved since they were last asked for (each log
once), and appends made by another process are seen.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .search import Filters, Listed, find, fold
from .stats import Scope, Stats, statistics
from .tally import Tally, tally
from .timeline import Event

if TYPE_CHECKING:
    from ..store import Store, Summary, Unreadable
    from ..store.results import Sort
    from ..store.statistics import KeptStatistics


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
        self._kept: KeptStatistics | None = None

    def matches(self, filters: Filters | None = None, *, sort: Sort = "created", limit: int | None = None,
                offset: int = 0, after: str | None = None) -> list[Listed | Unreadable]:
        """The matches ``filters`` find (every match without), in ``sort``'s order (see
        :data:`~matchstate.store.SORTS`), ``limit`` of them after the first ``offset``, or after the match
        ``after`` (its code, the last of the page before: read from the index, however deep).

        Team, date, standing and state are filtered, sorted and paged in the store's query; the text
        searches by event, venue and player (case- and accent-insensitive, in the match.start's JSON)
        in Python, over every match the query finds. A match whose row cannot be read back is in its place,
        :class:`~matchstate.store.Unreadable` (a text search cannot tell whether it finds it: it is kept)."""
        from ..store import MatchQuery

        filters = filters or Filters()
        query = MatchQuery(tuple(fold(filters.team).split()), filters.date, filters.status, filters.state, sort,
                           limit, offset, after)
        if not (filters.event or filters.venue or filters.player):
            return _each_listed(self.store.summaries(query))
        found = find(_each_listed(self.store.summaries(replace(query, limit=None, offset=0))), filters)
        return found[offset:None if limit is None else offset + limit]

    @property
    def kept(self) -> KeptStatistics:
        """The store's kept statistics (each match counted once per change of its log, in the database)."""
        from ..store.statistics import KeptStatistics

        if self._kept is None:
            self._kept = KeptStatistics(self.store.database)
        return self._kept

    def stats(self, scope: Scope) -> Stats:
        """The statistics of the matches ``scope`` covers, summed from the kept statistics."""
        return self.kept.stats(scope)

    def recount(self, scope: Scope) -> Stats:
        """The same statistics counted from the logs (each match's tally kept in memory until its next event)."""
        from ..store import Summary

        records = [self._record(summary, scope) for summary in self.store.summaries() if isinstance(summary, Summary)]
        return statistics([record.tally for record in records
                           if record.tally is not None and scope.covers(record.listed.start)], scope)

    def _record(self, summary: Summary, counting: Scope | None = None) -> _Record:
        """The match's record as of ``summary``; tallied too if ``counting`` covers it."""
        record = self._records.get(summary.code)
        if record is None or record.listed.events != summary.last_seq:
            record = _Record(_listed(summary))
            self._records[summary.code] = record
        if counting is not None and record.tally is None and counting.covers(record.listed.start):
            record.tally = tally(self._log(summary.code, summary.last_seq))
        return record

    def _log(self, code: str, events: int) -> list[Event]:
        """The match's first ``events`` events, the log as its summary saw it (a log only grows)."""
        return [json.loads(stored.raw) for stored in self.store.events(code)[:events]]


def _each_listed(found: list[Summary | Unreadable]) -> list[Listed | Unreadable]:
    """Each match as listed; one that cannot be read back, as it is."""
    from ..store import Summary

    return [_listed(summary) if isinstance(summary, Summary) else summary for summary in found]


def _listed(summary: Summary) -> Listed:
    """A match as listed, from the store's head of it (no replay)."""
    return Listed(summary.code, summary.start, dict(summary.score), summary.state, summary.last_seq,
                  summary.started or summary.created, summary.status)
