"""The log as a league keeps it in a spreadsheet: one row per event, one column per field.

Beside each event's own fields: the chukker it fell in, its ruling as the match stands (an event
struck out keeps the ruling it was given, marked void), and each team's score after it, one column
per team in match.start's order, so a column sorts and sums. Fields without a column of their own
are listed in ``details``.

The text starts with a UTF-8 byte-order mark: without one, Excel reads a CSV in the computer's
legacy code page and shows "Aráoz" as "AraÌoz"; with it, Excel, LibreOffice, Numbers and Google
Sheets all read UTF-8 (Python reads it with ``encoding="utf-8-sig"``). A text cell a spreadsheet
would take for a formula (starting ``=``, ``+``, ``-``, ``@``, tab or CR) gets a leading ``'``.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from .export import Exporter, Row
from .officials import OfficialsRecord, officials_record
from .tally import KNOCKIN
from .timeline import Step, replay

BOM = "\ufeff"
BEFORE_SCORE = ("seq", "at", "chukker", "type", "team", "player", "player_name", "penalty", "from", "yards",
                "ruling_kind", "awarded_to", "against", "violation", "cite")
AFTER_SCORE = ("void", "by", "role", "device_id", "received_at", "details", "ruling_en", "ruling_es", "hash")
# The officials' record (log format 1.2), after the rest so that no column moves: the flags each event was given
# (after-window among them), a review.request's outcome as it stands, a chukker's confirmation on its chukker.end
# and chukker.confirm rows.
OFFICIALS = ("flags", "review", "confirmation")
# The card a row shows (a card event's colour, or a penalty award's yellow card), after the officials' columns.
CARDS = ("card",)
# The event fields that have columns of their own (and `id`, which is device_id).
IN_COLUMNS = {"type", "at", "id", "by", "chukker", "team", "player", "penalty", "to", "from", "yards_to_goal", "colour",
              "card"}
# Events of the hitting team's own doing, whose team is the free hit's.
HITTING_TEAMS_OWN = ("ball.place", "dribble", "approach.abort", "ball.retee", "hit")
# A spreadsheet reads a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def inert(cell: object) -> object:
    """A CSV cell a spreadsheet shows as text: one that could start a formula gets a leading ``'``."""
    return f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def number(value: float | None) -> int | float | str:
    """A number as a spreadsheet should read it: 3, not 3.0; blank for none."""
    if value is None:
        return ""
    return int(value) if value == int(value) else value


def write(rows: Sequence[Row]) -> str:
    events = [json.loads(row.raw) for row in rows]  # match.start first, always
    teams = events[0]["teams"]
    rosters = events[0].get("rosters") or {}
    names = {(team, player["player"]): player.get("name", "") for team in rosters for player in rosters[team]}
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(inert(cell) for cell in (*BEFORE_SCORE, *(f"{team} score" for team in teams), *AFTER_SCORE,
                                             *OFFICIALS, *CARDS))
    record = officials_record(events)
    for row, step in zip(rows, replay(events), strict=True):
        writer.writerow(inert(cell) for cell in (*_cells(row, step, teams, names), *_officials(step, record),
                                                 step.logged.get("colour") or step.logged.get("card") or ""))
    return BOM + out.getvalue()


def _cells(row: Row, step: Step, teams: list[str], names: dict[tuple[str, int], str]) -> list[Any]:
    event, kind = step.logged, step.logged["type"]  # the cells give the event as logged
    ruling = step.ruling.to_json() if step.ruling is not None else None
    given = (row.ruling if step.struck else ruling) or {}  # a struck event shows the ruling it was given
    award = _award(step, given)
    team = event.get("team")
    if team is None and kind in HITTING_TEAMS_OWN and step.free_hit is not None:
        team = step.free_hit.to
    against = given.get("against")
    if kind == "penalty.award":  # the umpire's call: a foul by the team the penalty is not for
        against = teams[1] if event["to"] == teams[0] else teams[0]
    player = event.get("player")
    details = {name: value for name, value in event.items() if name not in IN_COLUMNS}
    return [
        step.seq, event["at"], number(step.chukker), kind, team or "", number(player),
        names.get((team, player), "") if team and player else "",
        award.get("penalty", ""), award.get("from") or "", number(award.get("yards_to_goal")),
        given.get("kind", ""), award.get("to") or given.get("to") or "", against or "", given.get("violation") or "",
        " ".join(given.get("cite", [])),
        *(number(step.score[name]) for name in teams),
        "yes" if step.struck else "", row.by or "", row.role or "", row.device_id or "", row.received_at.isoformat(),
        "; ".join(f"{name}={_text(value)}" for name, value in details.items()),
        given.get("text", {}).get("en", ""), given.get("text", {}).get("es", ""), row.hash,
    ]


def _officials(step: Step, record: OfficialsRecord) -> list[str]:
    event, kind = step.logged, step.logged["type"]
    review = record.review(step.seq) if kind == "review.request" else None
    outcome = ""
    if review is not None:
        outcome = (review["outcome"] or "open") + (" (challenge used)" if record.uses_a_challenge(review) else "")
    confirmation = record.confirmation(event["chukker"]) if kind in ("chukker.end", "chukker.confirm") else ""
    return [" ".join(record.flags.get(step.seq, ())), outcome, confirmation]


def _award(step: Step, ruling: dict[str, Any]) -> dict[str, Any]:
    """The free hit a row awards: by the event itself or by its ruling (a rehit's too)."""
    if step.awarded is not None:
        return step.awarded.to_json()
    if ruling.get("kind") in ("award", "rehit"):
        return ruling
    event = step.logged
    if event["type"] == "penalty.award":  # a Penalty 1, or one that does not stand
        return {"penalty": event["penalty"], "to": event["to"], "yards_to_goal": event.get("yards_to_goal"),
                "from": event.get("from", "center") if event["penalty"] == "2" else None}
    if event["type"] == "knockin.award":
        return {"penalty": KNOCKIN, "to": event["to"]}
    return {}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


EXPORTER = Exporter("csv", "text/csv; charset=utf-8", write,
                    "the match log as CSV: one row per event, one column per field, its chukker, ruling and "
                    "each team's score after it")
