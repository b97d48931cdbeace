"""Every error matchstate raises on purpose, in one tree rooted in :class:`MatchstateError`.

    MatchstateError
    ├── RefusedEvent            an event is not applied; nothing of it changes the match
    │   ├── InvalidEvent        it breaks the log format (not JSON, unknown type, ill-typed field, ...)
    │   └── IllegalEvent        it is well formed but makes no sense in the match's state now
    ├── UnknownRule             no clause or table cell of Rule 36 has that id        (also a KeyError)
    ├── UnknownRules            no rule set has that name                             (also a KeyError)
    ├── InvalidQuery            a search or statistics filter that cannot be read     (also a ValueError)
    ├── NotFound                no event has that seq, no exporter that format name   (also a LookupError)
    ├── StoreError              the database cannot be used as asked
    │   ├── UnknownMatch        no match has that code                                (also a LookupError)
    │   ├── DuplicateMatch      a match with that code exists already
    │   ├── ConflictError       an append on a stale view (``current_seq`` says where the match is)
    │   ├── TournamentChanged   a tournament's change on a stale view (``version`` says where it is)
    │   ├── SeatNotHeld         an automatic clock check from a console that does not hold the scoring seat
    │   ├── AlreadyLogged       an event handed to the review, set aside though the log holds it
    │   ├── DatabaseUnavailable the database did not answer in time, or cannot be written: try again later
    │   └── TamperedStore       what is stored does not chain, seal or replay as it was written
    ├── AccessDenied            a request without the key its act needs
    │   └── MissingKey          no key was given at all
    ├── NotProven               a Merkle proof, checkpoint or signed note that does not hold  (also a ValueError)
    └── BundleError             a page's modules the server cannot put in one script as it starts

Catch :class:`RefusedEvent` to handle any refusal; its subclasses tell a device whether sending the
event again can ever help (an :class:`IllegalEvent` may make sense later, an :class:`InvalidEvent`
never will).

An error made with ``said`` speaks the catalog's [refusal] phrase: its message is the English, and
``worded()`` gives it in every language (the API sends both, for a page to show its reader's).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing: `matchstate --help` stays quick
if TYPE_CHECKING:  # the catalog is read when an error is worded, not when the tree is imported
    from typing import Any, Self

    from .words import Words


class MatchstateError(Exception):
    """Base of every error matchstate raises on purpose."""

    words: Words | None = None  # the message in every language, where the catalog says it

    @classmethod
    def said(cls, key: str, /, *args: Any, **fields: object) -> Self:
        """This error, its message the [refusal] phrase ``key`` (``args`` follow the message, as the
        error's own constructor takes them)."""
        from .words import phrases

        return cls.worded_as(phrases("refusal", key, **fields), *args)

    @classmethod
    def worded_as(cls, words: Words, /, *args: Any) -> Self:
        """This error, its message ``words`` (the English its message, ``args`` after it)."""
        err = cls(words["en"], *args)
        err.words = words
        return err

    def worded(self) -> Words | None:
        """The message in every language; None where it is not the catalog's."""
        return self.words

    def body(self) -> dict[str, object]:
        """The API's answer: ``detail``, the message in English as clients read it, and ``words``, the
        message in every language, where the catalog says it."""
        words = self.worded()
        return {"detail": str(self), **({"words": words} if words is not None else {})}


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
        """The same refusal, of the same class, placed at ``line`` of a log."""
        placed = type(self)(self.reason, line)
        placed.words = self.words
        return placed

    def worded(self) -> Words | None:
        if self.words is None or self.line is None:
            return self.words
        from .words import phrases

        return phrases("refusal", "line", line=self.line, reason=self.words)

    @property
    def reason_words(self) -> Words | str:
        """The reason, in every language where the catalog says it (to quote it in another refusal)."""
        return self.words if self.words is not None else self.reason


class InvalidEvent(RefusedEvent):
    """An event that breaks the log format: not a JSON object, an unknown type, a missing or
    ill-typed field, an unknown team, a line too long."""


class IllegalEvent(RefusedEvent):
    """A well-formed event that makes no sense now: a ``hit`` with no free hit awaiting its stroke,
    an ``at`` earlier than the event before, a ``void`` of an event that does not exist..."""


class UnknownRule(MatchstateError, KeyError):
    """No clause or table cell of Rule 36 has the id asked for."""

    def __str__(self) -> str:
        return str(self.args[0])


class UnknownRules(MatchstateError, KeyError):
    """No rule set has the name asked for; the message lists the known ones."""

    def __str__(self) -> str:
        return str(self.args[0])


class InvalidQuery(MatchstateError, ValueError):
    """A filter of the match list or the statistics that cannot be read, such as a season that is no year."""


class NotFound(MatchstateError, LookupError):
    """What a request names is not there: an event's seq in its match, an export format."""


class StoreError(MatchstateError):
    """The store cannot do what was asked of it."""


class UnknownMatch(StoreError, LookupError):
    """No match in the store has the code asked for."""


class DuplicateMatch(StoreError):
    """A match with this code is in the store already."""


class ConflictError(StoreError):
    """An append was made on a stale view: ``expected_seq`` is not the match's last seq.

    ``current_seq`` is the match's last seq, so the device can refresh and retry.
    """

    def __init__(self, message: str, current_seq: int) -> None:
        super().__init__(message)
        self.current_seq = current_seq


class TournamentChanged(StoreError):
    """A tournament's change made from a version another desk has stored over since (an HTTP 409): ``version`` is
    the tournament's now, so the desk can reload it and make its change again."""

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version


class SeatNotHeld(StoreError):
    """An automatic clock check from a console that does not hold the match's scoring seat (an HTTP 409):
    only the seat's timer logs it, so a second console left open never rules a window run out."""


class AlreadyLogged(StoreError):
    """An event handed to the review, set aside though the match's log holds it already (an HTTP 409): it would be
    kept as "never logged"."""


class TamperedStore(StoreError):
    """The stored events of a match do not chain and replay up to its head, or its rows cannot be read back:
    something edited them."""

    @classmethod
    def unreadable(cls, code: str, why: str) -> TamperedStore:
        """Match ``code``'s rows cannot be read back (``why``): the catalog's words, pointing at ``verify``."""
        from .words import phrases

        return cls.worded_as(phrases("faults", "unreadable", code=code, why=why))


class AccessDenied(MatchstateError):
    """A write (or, on a private server, a read) without the key its act needs."""


class MissingKey(AccessDenied):
    """No key was given where one is needed."""


class DatabaseUnavailable(StoreError):
    """The database did not answer in time, or cannot be written now (a full disk, a read-only file): nothing was
    done, and the same request may succeed later (an HTTP 503 with ``Retry-After``)."""

    @classmethod
    def waited(cls, seconds: float) -> DatabaseUnavailable:
        from .words import phrases

        return cls.worded_as(phrases("faults", "database-unavailable", seconds=f"{seconds:g}"))


class NotProven(MatchstateError, ValueError):
    """A transparency log's proof, checkpoint or signed note that cannot be read or does not hold: the message
    says which and why (:mod:`matchstate.tlog`)."""


class BundleError(MatchstateError):
    """A page's modules that the server cannot put in one script (:mod:`matchstate.web.bundle`): syntax it does
    not read, an import of no module of the package's, or modules that import each other."""
