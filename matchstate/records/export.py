"""What an exporter is: a format's name and media type, and a function from a stored log to its text."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..store import Store
    from .stats import Scope


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

    def written_into(self, store: Store, code: str, folder: Path) -> Path:
        """Match ``code``'s stored log in this format, written into ``folder`` as its :func:`exported_name`: the file
        (:class:`~matchstate.errors.TamperedStore`, as :meth:`exported`). A file there already is refused, never
        written over: on a file system that ignores case, another match's code differing only in case."""
        from ..errors import MatchstateError

        path = folder / exported_name(code, f".{self.name}")
        text = self.exported(store, code).encode("utf-8")
        try:
            with path.open("xb") as file:
                file.write(text)
        except FileExistsError:
            raise MatchstateError(f"{path} is there already: match {code} would be written over it (a file system "
                                  "that ignores case takes two codes differing only in case for one)") from None
        return path


def file_name(code: str) -> str:
    """Match ``code`` as one file's name, whatever it holds, and no other code's: "/" written %2F, "%" %25."""
    return code.replace("%", "%25").replace("/", "%2F")


NAME_BYTES = 255  # the longest file name most file systems hold, in bytes


def exported_name(code: str, suffix: str) -> str:
    """The file of match ``code``'s export (``suffix`` its format's): :func:`file_name`, its first dot written %2E (a
    shell's ``*`` leaves out a name that begins with one, so ``import DIR/*.jsonl`` would have left the match out),
    and a name too long for a file system :func:`fitted`."""
    name = file_name(code)
    return fitted("%2E" + name[1:] if name.startswith(".") else name, code, suffix)


def fitted(name: str, code: str, suffix: str = "") -> str:
    """``name`` (match ``code``'s) and ``suffix``, as one file's name a file system holds: one too long cut, with a
    hash of the code after it (one code's name stays its own)."""
    if len(f"{name}{suffix}".encode()) <= NAME_BYTES:
        return name + suffix
    tail = f"~{hashlib.sha256(code.encode()).hexdigest()[:16]}{suffix}"
    return name.encode()[:NAME_BYTES - len(tail.encode())].decode("utf-8", "ignore") + tail


def covered(store: Store, scope: Scope) -> list[str]:
    """The codes of the matches ``scope`` covers, in the order the store got them, each judged by its match.start:
    its row's, or where the row cannot be read back its stored first event's (its log is exported as ever). One
    whose match.start cannot be read either is in: its log cannot be exported, and its export names it."""
    from ..store import Summary

    codes = []
    for match in store.summaries():
        start = match.start if isinstance(match, Summary) else _stored_start(store, match.code)
        if start is None or scope.covers(start):
            codes.append(match.code)
    return codes


def _stored_start(store: Store, code: str) -> dict[str, Any] | None:
    """Match ``code``'s match.start as stored, its first event; None where that cannot be read back."""
    from ..errors import TamperedStore

    try:
        first = store.event(code, 1)
        start = json.loads(first.raw) if first is not None else None
    except (TamperedStore, ValueError):
        return None
    return start if isinstance(start, dict) else None
