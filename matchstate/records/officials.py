"""The officials' record of a match (log format 1.2): its reviews and their outcomes, the challenges left, each
chukker confirmed or queried, and the flags each event was given (``after-window``, ``score-query``...), from
the whole log replayed by the engine, voids included (the timeline replays only what stands)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine import Match
from ..errors import RefusedEvent
from ..words import phrase

CONFIRMED, QUERIED = "confirmed", "queried"


@dataclass(frozen=True, slots=True)
class OfficialsRecord:
    reviews: list[dict[str, Any]] = field(default_factory=list)  # seq, about, asked_by, outcome (None: open)
    challenges_left: dict[str, int] = field(default_factory=dict)
    confirmed: list[int] = field(default_factory=list)
    queried: list[int] = field(default_factory=list)
    flags: dict[int, tuple[str, ...]] = field(default_factory=dict)  # by seq, as given when logged

    def confirmation(self, chukker: int) -> str:
        """``confirmed``, ``queried``, or "" where the chukker has no confirmation standing."""
        return CONFIRMED if chukker in self.confirmed else QUERIED if chukker in self.queried else ""

    def review(self, seq: int) -> dict[str, Any] | None:
        """The review that the review.request ``seq`` asked for, where it stands."""
        return next((review for review in self.reviews if review["seq"] == seq), None)

    def uses_a_challenge(self, review: Mapping[str, Any]) -> bool:
        return review["asked_by"] in self.challenges_left and review["outcome"] == "stands"

    @property
    def after_window(self) -> list[int]:
        """The seqs of the events flagged ``after-window``."""
        return [seq for seq, flags in self.flags.items() if "after-window" in flags]

    def review_text(self, review: Mapping[str, Any], lang: str) -> str:
        """"Review of seq 4, asked by Red: the call stands"."""
        asked_by = review["asked_by"]
        who = asked_by if asked_by in self.challenges_left else phrase("officials", asked_by, lang)
        return phrase("officials", "review", lang, about=review["about"], asked_by=who,
                      outcome=phrase("officials", review["outcome"] or "open", lang))

    def challenges_text(self, lang: str) -> str:
        """"Challenges left: Blue 1, Red 0"."""
        teams = ", ".join(f"{team} {left}" for team, left in self.challenges_left.items())
        return phrase("officials", "challenges-left", lang, teams=teams)

    def confirmation_text(self, chukker: int, lang: str) -> str:
        return phrase("officials", self.confirmation(chukker) or "unconfirmed", lang)


def officials_record(events: Sequence[Mapping[str, Any]]) -> OfficialsRecord:
    """The officials' record of a log (its events' JSON in seq order, match.start first)."""
    match = Match()
    try:
        for event in events:
            match.feed(event)
    except RefusedEvent:  # a log the store holds is one the engine took: this keeps what came before
        pass
    if not match.info:
        return OfficialsRecord()
    return OfficialsRecord(match.reviews, match.challenges_left, match.confirmed, match.queried,
                           {seq: flags for seq, flags in enumerate(match.flags, match.first)})
