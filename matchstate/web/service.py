"""The operations behind the API, over the store: access checks, appends with live fan-out, reads."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

from ..errors import MissingKey, RefusedEvent
from ..rulebook import clause
from ..store import Store, StoredEvent
from . import access, records
from .live import Hub, Message
from .views import event_json, match_view


@dataclass(frozen=True, slots=True)
class Created:
    """A new match and its two keys, which exist in clear only in this answer."""

    code: str
    scorer_key: str
    official_key: str
    match: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Recorded:
    """An append's answer: the stored event with its ruling, the match after it, and whether it was a retry."""

    event: dict[str, Any]
    match: dict[str, Any]
    duplicate: bool


class Service:
    """One store, served. ``private`` closes reading to holders of a match's keys.

    Appends and reads of a match's engine take that match's lock: the store's cached engine
    is read right after the append that changed it, so a view is never half-updated, while
    matches are scored side by side.
    """

    def __init__(self, store: Store, *, private: bool = False) -> None:
        self.store = store
        self.private = private
        self.hub = Hub()
        self._locks: dict[str, threading.Lock] = {}
        self._key_hashes: dict[str, tuple[str | None, str | None]] = {}  # set once, at creation
        self._verified: dict[str, dict[str, Any]] = {}

    # -- writing -------------------------------------------------------------------

    def create(self, start: dict[str, Any]) -> Created:
        """Create a match from its ``match.start`` event; the keys are made here and kept only hashed."""
        _check_code(start.get("match"))
        scorer_key, official_key = access.new_key(), access.new_key()
        with self._lock(str(start.get("match"))):
            created = self.store.create_match(start, keys={access.SCORER: access.hash_key(scorer_key),
                                                           access.OFFICIAL: access.hash_key(official_key)},
                                              role=access.OFFICIAL)
            code = start["match"]
            return Created(code, scorer_key, official_key, match_view(code, created.match))

    def append(self, code: str, event: dict[str, Any], expected_seq: int | None, key: str | None) -> Recorded:
        """Append one event for the holder of ``key``; raises the store's errors or :class:`AccessDenied`."""
        role = self.role(code, key)
        access.check_role(role, access.role_needed(event, self._target_role(code, event)))
        with self._lock(code):
            appended = self.store.append(code, event, expected_seq, role=role)
            view = match_view(code, appended.match)
        return Recorded(event_json(appended.event), view, appended.duplicate)

    def _lock(self, code: str) -> threading.Lock:
        return self._locks.setdefault(code, threading.Lock())

    def _target_role(self, code: str, event: dict[str, Any]) -> str | None:
        """The role that recorded the event a void strikes (the scorer's own, unless found otherwise)."""
        target = event.get("seq") if event.get("type") == "void" else None
        if not isinstance(target, int) or isinstance(target, bool) or target < 1:
            return access.SCORER  # not a void, or one the engine will refuse on its own
        found = self.store.event(code, target)
        return found.role if found is not None else access.SCORER

    # -- reading -------------------------------------------------------------------

    def require(self, code: str) -> None:
        """Raise :class:`UnknownMatch` unless the match exists."""
        self._hashes(code)

    def check_read(self, code: str, key: str | None) -> None:
        """As :meth:`require`; and on a private server, reading a match needs one of its keys."""
        self.require(code)
        if self.private:
            self.role(code, key)

    def _hashes(self, code: str) -> tuple[str | None, str | None]:
        if code not in self._key_hashes:
            self._key_hashes[code] = self.store.key_hashes(code)
        return self._key_hashes[code]

    def role(self, code: str, key: str | None) -> str:
        """The role ``key`` holds on the match; :class:`AccessDenied` if none."""
        return access.role_of(key, *self._hashes(code))

    def check_list(self) -> None:
        if self.private:
            raise MissingKey("this server is private: open a match with its key")

    def view(self, code: str) -> dict[str, Any]:
        with self._lock(code):
            return match_view(code, self.store.match(code))

    def events(self, code: str, after_seq: int = 0) -> list[dict[str, Any]]:
        return [event_json(stored) for stored in self.store.events(code, after_seq=after_seq)]

    def messages(self, code: str, after_seq: int) -> list[Message]:
        """The live messages for the events after ``after_seq``, each with the match as it is now."""
        rows = self.events(code, after_seq)
        if not rows:
            return []
        view = self.view(code)
        return [(row["seq"], message(row, view)) for row in rows]

    def _log(self, code: str) -> tuple[list[StoredEvent], set[int]]:
        """The stored log and the seqs struck out of it, read together."""
        with self._lock(code):
            return self.store.events(code), set(self.store.match(code).void)

    def explain(self, code: str, seq: int) -> dict[str, Any] | None:
        """A ruling with the events that led to it and the clauses it cites, in both languages."""
        stored, struck = self._log(code)
        if not 1 <= seq <= len(stored):
            return None
        event = event_json(stored[seq - 1])
        ruling = event["ruling"] or {}
        cites = dict.fromkeys([*ruling.get("cite", []),
                               *(rule_id for option in ruling.get("options", []) for rule_id in option["cite"])])
        chain = records.led_to([json.loads(row.raw) for row in stored], struck, seq)
        return {"event": event, "led_to": [event_json(stored[s - 1]) for s in chain],
                "clauses": [{"id": rule_id, "heading": clause(rule_id).heading, "text": clause(rule_id).text}
                            for rule_id in cites]}

    def sheet(self, code: str) -> records.ScoreSheet:
        with self._lock(code):
            logged = [json.loads(stored.raw) for stored in self.store.events(code)]
            return records.score_sheet(logged, self.store.match(code))

    def csv(self, code: str) -> str:
        stored, struck = self._log(code)
        return records.to_csv([event_json(row) for row in stored], struck)

    def jsonl(self, code: str) -> str:
        """The log back, line for line as each event was received."""
        return "".join(stored.raw + "\n" for stored in self.store.events(code))

    def verify(self, code: str) -> dict[str, Any]:
        """Whether the match's chain holds and its rulings are the engine's.

        Every open review asks after every event, and a verify replays the whole match: the answer
        is kept until the match's next event. (``matchstate verify`` is the audit that always reads.)
        """
        with self._lock(code):
            seq = self.store.match(code).seq
        cached = self._verified.get(code)
        if cached is None or cached["events"] != seq:
            problems = self.store.verify(code)
            cached = {"ok": not problems, "events": seq, "problems": [str(problem) for problem in problems]}
            self._verified[code] = cached
        return cached

    def matches(self, team: str = "", date: str = "", state: str = "") -> list[dict[str, Any]]:
        """The match list, filtered by a team name's part, the start date (YYYY-MM-DD) and the state."""
        found = []
        for summary in self.store.summaries():
            row = summary_json(summary)
            if team and not any(team.casefold() in name.casefold() for name in row["teams"]):
                continue
            if date and not row["started"].startswith(date):
                continue
            if state and row["state"] != state:
                continue
            found.append(row)
        return found


def message(row: dict[str, Any], view: dict[str, Any]) -> str:
    return json.dumps({"event": row, "match": view}, ensure_ascii=False)


def summary_json(summary: Any) -> dict[str, Any]:
    return {"code": summary.code, "teams": list(summary.teams), "score": dict(summary.score),
            "state": summary.state, "events": summary.last_seq,
            "started": (summary.started or summary.created).isoformat()}


def _check_code(code: object) -> None:
    """Refuse a code that cannot name a match in a URL: a path segment never holds `/` (not even as
    %2F, which the server decodes before routing), and browsers resolve `.` and `..` away."""
    if isinstance(code, str) and ("/" in code or code in {".", ".."}):
        raise RefusedEvent(f"match.start: field 'match' {code!r} cannot name a match in a URL: a code may hold "
                           "any character but '/', and may not be '.' or '..'")
