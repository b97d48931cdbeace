"""An event as received, and the rows it becomes once the engine has taken it."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..engine import Match
from ..errors import InvalidEvent
from ..events import check_time_kept, unseen_character
from ..rulings import Ruling
from .cache import Head
from .chain import CHAIN_VERSION, chain_hash, decode, sealed
from .results import StoredEvent
from .sql import event_columns

TEXT_FIELDS = ("id", "by", "match")  # kept in text columns, which cannot hold a NUL on PostgreSQL


def check_code(code: object) -> None:
    """Refuse a match code that cannot name a match in a URL: a path segment never holds `/` (not even as %2F,
    which the server decodes before routing), and browsers resolve `.` and `..` away; and one holding a control or
    formatting character, which would make a line of its own in a list, or turn the text after it around."""
    if not isinstance(code, str):
        return
    if "/" in code or code in {".", ".."}:
        raise InvalidEvent.said("code-url", code=repr(code))
    if unseen := unseen_character(code):
        raise InvalidEvent.said("code-control", code=repr(code), char=unseen)


@dataclass(frozen=True, slots=True)
class Incoming:
    """An event as received: its text, its decoded object, the server's facts about it (and the version
    of the engine that rules it), and what its hash covers (:func:`~matchstate.store.chain.sealed`), made once."""

    raw: str
    event: dict[str, Any]
    role: str | None
    received_at: datetime
    engine_version: str
    sealed: bytes

    @classmethod
    def decode(cls, event: Mapping[str, Any] | str, role: str | None, received_at: datetime,
               engine_version: str, *, seal: bool = True) -> Incoming:
        """A log line (its line break dropped) or an event object; refused as ``log.parse_line`` refuses, and
        where its JSON holds a key twice in one object or a NUL in a field kept in a text column. Without
        ``seal``, what its hash covers is left for :meth:`as_role` (its role is not known yet)."""
        if isinstance(event, str):
            raw = event.rstrip("\r\n")
        else:
            try:
                raw = json.dumps(event, ensure_ascii=False)
            except (TypeError, ValueError) as err:
                raise InvalidEvent.said("not-json-value", error=err) from None
        obj = decode(raw)
        check_time_kept(obj)  # a new event's: the store's own are read as they were stored
        for name in TEXT_FIELDS:
            if isinstance(value := obj.get(name), str) and "\x00" in value:
                raise InvalidEvent.said("nul-field", kind=obj.get("type"), name=repr(name))
        return cls(raw, obj, role, received_at, engine_version,
                   sealed(obj, role, received_at, engine_version) if seal else b"")

    def start(self) -> tuple[Head, Ruling | None]:
        """A new match's head, fed this event as its match.start, and its ruling: the one door of every match the
        store creates (created, imported, corrected), refused where the event is no match.start or its code
        cannot name a match in a URL (:func:`check_code`)."""
        head = Head(None, Match())
        ruling = head.match.feed(self.event)  # a new Match takes nothing but a valid match.start
        check_code(head.match.start["match"])
        return head, ruling

    def restamped(self, at: str) -> Incoming:
        """The event with ``at`` in the place of its own (as the rules stamp an official's late void), unsealed."""
        event = {**self.event, "at": at}
        return replace(self, raw=json.dumps(event, ensure_ascii=False), event=event, sealed=b"")

    def as_role(self, role: str) -> Incoming:
        """The event as received from ``role``, sealed."""
        return replace(self, role=role, sealed=sealed(self.event, role, self.received_at, self.engine_version))

    def rows(self, head: Head, ruling: Ruling | None) -> tuple[dict[str, Any], dict[str, Any], StoredEvent]:
        """The events and rulings rows of this event, which ``head``'s engine has just taken and ruled, and
        the event as stored; ``head``'s hash moves on to this event's."""
        match = head.match
        columns = event_columns(match.events[-1])
        digest = chain_hash(head.hash, self.sealed)
        ruling_json = ruling.to_json() if ruling is not None else None
        key = {"match_id": head.match_id, "seq": match.seq}
        event_row = {**key, **columns, "raw": self.raw, "role": self.role, "received_at": self.received_at,
                     "prev_hash": head.hash, "hash": digest, "chain_version": CHAIN_VERSION}
        clock, flags = match.clock_after(match.seq), list(match.flags[-1])
        ruling_row = {**key, "ruling": ruling_json, "state": match.state, "engine_version": self.engine_version,
                      "clock": clock, "flags": flags}
        stored = StoredEvent(seq=match.seq, raw=self.raw, ruling=ruling_json, state=match.state, role=self.role,
                             received_at=self.received_at, prev_hash=head.hash, hash=digest, clock=clock, flags=flags,
                             **columns)
        head.hash = digest
        return event_row, ruling_row, stored
