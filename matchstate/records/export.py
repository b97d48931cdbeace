"""What an exporter is: a format's name and media type, and a function from a stored log to its text."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..store import Store


class Row(Protocol):
    """A stored event, as an exporter reads it (the store's ``StoredEvent`` is one)."""

    @property
    def seq(self) -> int: ...
    @property
    def raw(self) -> str: ...  # the event's JSON exactly as received
    @property
    def ruling(self) -> dict[str, Any] | None: ...  # the ruling it was given
    @property
    def by(self) -> str | None: ...
    @property
    def role(self) -> str | None: ...
    @property
    def device_id(self) -> str | None: ...
    @property
    def received_at(self) -> datetime: ...
    @property
    def hash(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Exporter:
    """A format a match's log is exported in: ``matchstate export --format NAME``, ``/log.NAME``."""

    name: str
    media_type: str
    write: Callable[[Sequence[Row]], str]  # the whole log, in seq order, as the format's text
    description: str

    def exported(self, store: Store, code: str) -> str:
        """Match ``code``'s stored log in this format; :class:`~matchstate.errors.TamperedStore` naming the match
        where a row of it cannot be read back."""
        from ..store.results import read_or_refuse

        return read_or_refuse(code, lambda: self.write(store.events(code)))
