"""The ``matchstate`` command."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from datetime import datetime

from . import __version__
from .engine import diagram
from .errors import MatchstateError, RefusedEvent
from .log import Step, final, replay
from .engine import Match
from .rulebook import CLAUSES, LANGUAGES, clause

Command = Callable[[argparse.Namespace], int]


def _summary(event: dict) -> str:
    """The event's type and its telling fields, for a timeline."""
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "at", "id", "by", "reason"))
    return f"{event['type']}" + (f" ({fields})" if fields else "") + (f" — {event['reason']}" if "reason" in event else "")


def timeline_row(step: Step, start: datetime, lang: str) -> str:
    """One line of a readable timeline: time since start, seq, event, state, ruling and its rule."""
    at = datetime.fromisoformat(step.event["at"])
    elapsed = (at - start).total_seconds()
    row = f"{int(elapsed // 60):>3}:{elapsed % 60:06.3f}  #{step.seq:<4} {_summary(step.event):<60} {step.state}"
    if step.ruling is not None:
        row += f"\n{'':17}→ {step.ruling.text[lang]}"
        if step.ruling.cite:
            row += f"  [{', '.join(step.ruling.cite)}]"
    return row


def cmd_replay(args: argparse.Namespace) -> int:
    match = Match()
    start = None
    with (sys.stdin if args.log == "-" else open(args.log, encoding="utf-8")) as lines:
        for step in replay(lines, match):
            if args.json:
                print(json.dumps(step.to_json(), ensure_ascii=False))
            else:
                start = start or datetime.fromisoformat(step.event["at"])
                print(timeline_row(step, start, args.lang))
    if args.json:
        print(json.dumps(final(match), ensure_ascii=False))
    else:
        score = " – ".join(f"{team} {goals:g}" for team, goals in match.score.items())
        print(f"\nScore: {score}   state: {match.state}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    if not args.ids:
        for rule_id, rule in CLAUSES.items():
            print(f"{rule_id:40} {rule.heading[args.lang]}")
        return 0
    print("\n\n".join(clause(rule_id).render(args.lang) for rule_id in args.ids))
    return 0


def cmd_diagram(_: argparse.Namespace) -> int:
    print(diagram(), end="")
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="matchstate", description="Polo match-state tracker, exact to USPA Rule 36.")
    top.add_argument("--version", action="version", version=f"matchstate {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay_cmd = commands.add_parser("replay", help="replay a match log and show each event's ruling")
    replay_cmd.add_argument("log", help="a match log (JSON Lines), or - for standard input")
    replay_cmd.add_argument("--json", action="store_true", help="one JSON object per event, then the final state")
    replay_cmd.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the rulings' texts")
    replay_cmd.set_defaults(run=cmd_replay)

    rules_cmd = commands.add_parser("rules", help="print Rule 36 clauses or table cells by id (all ids without one)")
    rules_cmd.add_argument("ids", nargs="*", metavar="ID", help="e.g. 36/one-stroke or 36/table:hit-before-play:5a")
    rules_cmd.add_argument("--lang", choices=LANGUAGES, default="en")
    rules_cmd.set_defaults(run=cmd_rules)

    diagram_cmd = commands.add_parser("diagram", help="print the free-hit state machine as Mermaid text")
    diagram_cmd.set_defaults(run=cmd_diagram)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except RefusedEvent as err:
        print(str(err), file=sys.stderr)
        return 2
    except (MatchstateError, OSError) as err:
        print(f"matchstate: {err}", file=sys.stderr)
        return 2 if isinstance(err, MatchstateError) else 1


if __name__ == "__main__":
    sys.exit(main())
