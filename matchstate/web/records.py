"""What a record keeper reads off a match's log: the chain of events behind a ruling, the score sheet, CSV.

Each is derived by replaying the log's standing events (those no void strikes) through a
fresh engine and watching the free hit in progress; nothing here rules anything itself.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from ..engine import Match
from ..rulings import FreeHit, Ruling
from ..store import Snapshot
from .views import jsonable

AWARDS = ("penalty.award", "knockin.award")


@dataclass(frozen=True, slots=True)
class Played:
    """One standing event as a replay saw it."""

    seq: int
    event: dict[str, Any]
    ruling: Ruling | None
    chukker: int
    free_hit_before: FreeHit | None
    origin: int | None  # the seq that awarded the free hit in progress before this event
    awarded: FreeHit | None  # the free hit this event awarded, by itself or by its ruling


def played(events: Sequence[dict[str, Any]], struck: AbstractSet[int]) -> Iterator[Played]:
    """Replay the events that stand (not void, not struck out), in order, with their context."""
    match, origin, chukker = Match(), None, 1
    for seq, event in enumerate(events, 1):
        if seq in struck or event["type"] == "void":
            continue
        before = match.free_hit
        ruling = match.feed(event)
        if event["type"] == "chukker.start":
            chukker = event["chukker"]
        starts = event["type"] in AWARDS or (ruling is not None and ruling.kind == "award")
        awarded = match.free_hit if starts else None
        yield Played(seq, event, ruling, chukker, before, origin, awarded)
        if awarded is not None:
            origin = seq
        elif match.free_hit is None and match.state != "choosing":
            origin = None


def led_to(events: Sequence[dict[str, Any]], struck: set[int], seq: int) -> list[int]:
    """The seqs of the standing events that led to the ruling of event ``seq``: its free hit, from its award."""
    steps = list(played(events[:seq], struck))  # no later event bears on its ruling
    target = next((step for step in steps if step.seq == seq), None)
    if target is None or target.origin is None:
        return [seq]
    return [step.seq for step in steps if target.origin <= step.seq <= seq]


def letter(n: int) -> str:
    """Goal letters A, B, ..., Z, AA, AB, ... for the 0-based goal ``n``."""
    return (letter(n // 26 - 1) if n >= 26 else "") + chr(ord("A") + n % 26)


@dataclass(slots=True)
class Goal:
    letter: str
    player: int | None
    chukker: int
    penalty: bool  # from a penalty: circled on the sheet


@dataclass(slots=True)
class PenaltyMark:
    penalty: str
    chukker: int
    converted: bool = False


@dataclass(slots=True)
class TeamSheet:
    name: str
    roster: list[dict[str, Any]]
    handicap_goals: float
    score: float
    goals: list[Goal] = field(default_factory=list)
    penalties: list[PenaltyMark] = field(default_factory=list)
    knockins: dict[int, int] = field(default_factory=lambda: defaultdict(int))

    @property
    def handicap(self) -> float:
        return sum(player.get("handicap", 0) for player in self.roster)

    def rows(self) -> list[tuple[int | None, str, float | None]]:
        """The sheet's player rows: (number, name, handicap), the roster and anyone else who scored,
        then a row without a number for goals awarded to the team (or scored by no one named)."""
        rostered = {player["player"]: player for player in self.roster}
        numbers = sorted(set(rostered) | {goal.player for goal in self.goals if goal.player is not None})
        rows = [(n, rostered.get(n, {}).get("name", ""), rostered.get(n, {}).get("handicap")) for n in numbers]
        if any(goal.player is None for goal in self.goals):
            rows.append((None, "Awarded / unnamed", None))
        return rows

    def cell(self, player: int | None, chukker: int) -> list[Goal]:
        return [goal for goal in self.goals if goal.player == player and goal.chukker == chukker]

    def goals_in(self, chukker: int) -> int:
        return sum(goal.chukker == chukker for goal in self.goals)

    def penalties_in(self, chukker: int) -> list[PenaltyMark]:
        return [mark for mark in self.penalties if mark.chukker == chukker]


@dataclass(slots=True)
class ScoreSheet:
    start: dict[str, Any]
    teams: list[TeamSheet]
    chukkers: list[int]


def score_sheet(events: Sequence[dict[str, Any]], match: Snapshot) -> ScoreSheet:
    """The USPA-style score sheet of a match: goals by chukker and player, penalties, knock-ins."""
    start = match.info
    rosters = start.get("rosters") or {}
    teams = {name: TeamSheet(name, sorted(rosters.get(name, []), key=lambda p: p["player"]),
                             start["handicap_goals"].get(name, 0), match.score.get(name, 0))
             for name in match.teams}
    marks: dict[int, PenaltyMark] = {}
    goal_count = 0
    last_chukker = 1

    def add_goal(team: str, player: int | None, chukker: int, penalty: bool) -> None:
        nonlocal goal_count
        teams[team].goals.append(Goal(letter(goal_count), player, chukker, penalty))
        goal_count += 1

    for step in played(events, match.void):
        event, ruling, chukker = step.event, step.ruling, step.chukker
        last_chukker = max(last_chukker, chukker)
        if event["type"] == "goal":
            before = step.free_hit_before
            from_penalty = before is not None and before.penalty != "knockin" and before.to == event["team"]
            add_goal(event["team"], event.get("player"), chukker, from_penalty)
            if from_penalty and step.origin in marks:
                marks[step.origin].converted = True
        if ruling is not None and ruling.kind == "goal":  # Penalty 1, however it came
            teams[ruling.to].penalties.append(PenaltyMark("1", chukker, converted=True))
            add_goal(ruling.to, None, chukker, penalty=True)
        awarded = step.awarded
        if awarded is not None and awarded.penalty == "knockin":
            teams[awarded.to].knockins[chukker] += 1
        elif awarded is not None:
            marks[step.seq] = PenaltyMark(awarded.penalty, chukker)
            teams[awarded.to].penalties.append(marks[step.seq])
    chukkers = list(range(1, max(start.get("chukkers") or 6, last_chukker) + 1))
    return ScoreSheet(jsonable(start), list(teams.values()), chukkers)


CSV_COLUMNS = ("seq", "at", "type", "details", "by", "role", "device_id", "received_at", "void",
               "ruling", "ruling_en", "ruling_es", "cite", "hash")
COMMON_FIELDS = ("type", "at", "id", "by")


# A spreadsheet reads a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(cell: object) -> object:
    """A CSV cell a spreadsheet shows as text: one that could start a formula gets a leading ``'``."""
    return f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def to_csv(rows: Sequence[dict[str, Any]], struck: set[int]) -> str:
    """The log as CSV, one row per event: the API's event JSON flattened, with its ruling's texts."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        ruling = row["ruling"] or {}
        details = {k: v for k, v in row["event"].items() if k not in COMMON_FIELDS}
        writer.writerow(inert(cell) for cell in [
            row["seq"], row["at"], row["type"], json.dumps(details, ensure_ascii=False) if details else "",
            row["by"] or "", row["role"] or "", row["device_id"] or "", row["received_at"],
            "yes" if row["seq"] in struck else "", ruling.get("kind", ""),
            ruling.get("text", {}).get("en", ""), ruling.get("text", {}).get("es", ""),
            " ".join(ruling.get("cite", [])), row["hash"],
        ])
    return out.getvalue()
