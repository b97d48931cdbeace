"""Every error matchstate raises, rooted in :class:`MatchstateError`."""

from __future__ import annotations


class MatchstateError(Exception):
    """Base of every error matchstate raises on purpose."""


class RefusedEvent(MatchstateError):
    """An event breaks the match log format or makes no sense in the match's state.

    Nothing of a refused event is applied. ``line`` is the event's line in the log
    (or its seq) where one is known.
    """

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line

    def at_line(self, line: int) -> RefusedEvent:
        """The same refusal, placed at ``line`` of a log."""
        return RefusedEvent(self.reason, line)


class UnknownRule(MatchstateError, KeyError):
    """No clause or table cell of Rule 36 has the id asked for."""

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownMatch(MatchstateError, LookupError):
    """No match in the store has the code asked for."""


class DuplicateMatch(MatchstateError):
    """A match with this code is in the store already."""


class ConflictError(MatchstateError):
    """An append was made on a stale view: ``expected_seq`` is not the match's last seq.

    ``current_seq`` is the match's last seq, so the device can refresh and retry.
    """

    def __init__(self, message: str, current_seq: int) -> None:
        super().__init__(message)
        self.current_seq = current_seq


class AccessDenied(MatchstateError):
    """A write without the key its role needs."""
