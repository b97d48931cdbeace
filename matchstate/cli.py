"""The ``matchstate`` command."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from . import __version__, evidence_cli
from .engine import Match, diagram
from .errors import MatchstateError, RefusedEvent
from .log import Step, final, read_lines, replay
from .records import EXPORTERS
from .rulebook import CLAUSES, clause
from .words import LANGUAGES

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from .store import Store

def _summary(event: dict[str, Any]) -> str:
    """The event's type and its telling fields, for a timeline."""
    fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "at", "id", "by", "reason"))
    reason = f" — {event['reason']}" if "reason" in event else ""
    return f"{event['type']}" + (f" ({fields})" if fields else "") + reason


def clock_text(clock: dict[str, Any]) -> str:
    """The match clock as a timekeeper reads it: chukker · playing time ("2 · 6:58.250")."""
    played = clock["played"]
    return f"{clock['chukker'] or '-'} · {int(played // 60)}:{played % 60:06.3f}"


def timeline_row(step: Step, start: datetime, lang: str) -> str:
    """One line of a readable timeline: time since start, the clock, seq, event, state and flags, then the ruling
    and its rule."""
    at = datetime.fromisoformat(step.event["at"])
    elapsed = (at - start).total_seconds()
    flags = f"  ⚑ {', '.join(step.flags)}" if step.flags else ""
    row = (f"{int(elapsed // 60):>3}:{elapsed % 60:06.3f}  {clock_text(step.clock):>12}  #{step.seq:<4} "
           f"{_summary(step.event):<60} {step.state}{flags}")
    if step.ruling is not None:
        row += f"\n{'':31}→ {step.ruling.text[lang]}"
        if step.ruling.cite:
            row += f"  [{', '.join(step.ruling.cite)}]"
    return row


def score_text(score: dict[str, float]) -> str:
    return " – ".join(f"{team} {goals:g}" for team, goals in score.items())


def print_replay(lines: Iterable[str], as_json: bool, lang: str) -> None:
    """Replay a log into a new Match, printing each event's ruling (a timeline or JSON), then the final state."""
    match = Match()
    start = None
    for step in replay(lines, match):
        if as_json:
            print(json.dumps(step.to_json(), ensure_ascii=False))
        else:
            start = start or datetime.fromisoformat(step.event["at"])
            print(timeline_row(step, start, lang))
    if as_json:
        print(json.dumps(final(match), ensure_ascii=False))
    else:
        result = f"   winner: {match.winner}" if match.winner else "   a draw" if match.ended else ""
        print(f"\nScore: {score_text(match.score)}   state: {match.state}   clock: {clock_text(match.clock_json())}"
              f"{result}")


def cmd_replay(args: argparse.Namespace) -> int:
    print_replay(read_lines(args.log), args.json, args.lang)
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


# -- the store: the database is MATCHSTATE_DATABASE_URL, else matchstate.db here ----------------

def open_store(upgrading: bool = False, cache_mb: float | None = None) -> Store:
    """The store, checked to be reachable and up to date (imported here: replay and rules need no database);
    its engine cache takes up to ``cache_mb`` MiB (default: the store's)."""
    from sqlalchemy.exc import SQLAlchemyError

    from .store import Store

    store = Store() if cache_mb is None else Store(cache_bytes=int(cache_mb * 2**20))
    try:
        current = store.schema_is_current()
    except SQLAlchemyError as err:
        raise MatchstateError(f"cannot use the database {store.url}: {err}") from None
    if not (current or upgrading):
        raise MatchstateError(f"the database {store.url} is not up to date: run `matchstate db upgrade`")
    return store


def cmd_db_upgrade(_: argparse.Namespace) -> int:
    store = open_store(upgrading=True)
    had_secret = store.secrets.exist()
    league_key = store.upgrade()
    print(f"database {store.url}: up to date")
    if not had_secret:
        print(f"the store's secret: {store.secrets.path}\nits receipt signing key: {store.secrets.signing_path}\n"
              "(both made now, mode 0600: keep them safe, back them up, and give every server the same two)")
    if league_key is not None:
        _print_key("league key", league_key)
    return 0


def _print_key(name: str, key: str) -> None:
    print(f"{name}: {key}\n(shown this once: the store keeps only its SHA-256 hash, in the keys table)")


def _new_keys(roles: Iterable[str]) -> dict[str, str]:
    from .store import new_key

    return {role: new_key() for role in roles}


def cmd_import(args: argparse.Namespace) -> int:
    from .store import ROLES, hash_key

    keys = _new_keys(ROLES)
    hashes = {role: hash_key(key) for role, key in keys.items()}
    code, count = open_store().import_log(read_lines(args.log), keys=hashes, by=args.by)
    print(f"imported match {code}: {count} events")
    for role, key in keys.items():
        _print_key(f"{role} key", key)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    _write_utf8(EXPORTERS[args.format].write(open_store().events(args.match)))
    return 0


def cmd_stats(args: argparse.Namespace) -> int:
    from .records.archive import Archive
    from .records.stats import Scope

    stats = Archive(open_store()).stats(Scope.of(args.event, args.season))
    if args.format == "json":
        _write_utf8(json.dumps(stats.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        _write_utf8(stats.to_csv() if args.format == "csv" else stats.to_text() + "\n")
    return 0


def _write_utf8(text: str) -> None:
    """Text as UTF-8 on standard output, whatever the terminal's encoding (a log's own bytes)."""
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


def cmd_matches(_: argparse.Namespace) -> int:
    for summary in open_store().summaries():
        print(f"{summary.code:<24} {score_text(summary.score):<32} {summary.state:<12} {summary.last_seq:>6} events"
              f"   last {summary.last_at:%Y-%m-%d %H:%M:%S} UTC")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    print_replay((stored.raw for stored in open_store().events(args.match)), args.json, args.lang)
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    store = open_store()
    problems = store.verify(args.match)
    notes = [f"removed: {removal}" for removal in store.removals()] if args.match is None else []
    sealed = store.secrets.path.exists()
    if not sealed:
        notes.append(f"seals not checked: no secret at {store.secrets.path}")
    receipts_fail = False
    if args.receipts:
        report = store.check_receipts(read_lines(args.receipts), _public_key(args.public_key))
        problems += report.problems
        notes += report.removed
        notes.append(f"receipts: {report.held} of those read hold")
        receipts_fail = not report.all_hold  # a receipt that cannot be checked any more does not hold either
    for line in [*map(str, problems), *notes]:
        print(line)
    if problems or receipts_fail:
        return 1
    print("verified: every chain is whole, every stored ruling is the engine's"
          + (" and every seal holds" if sealed else ""))
    return 0


def _public_key(path: str | None) -> Ed25519PublicKey | None:
    """The public key in the PEM file at ``path`` (None: the store's own)."""
    if path is None:
        return None
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    with open(path, "rb") as file:
        key = load_pem_public_key(file.read())
    if not isinstance(key, Ed25519PublicKey):
        raise MatchstateError(f"{path} is not an Ed25519 public key")
    return key


def cmd_keys(args: argparse.Namespace) -> int:
    from .store import hash_key, new_key

    store = open_store()
    if args.action == "public":
        print(store.public_key_pem(), end="")
        print(f"fingerprint (a receipt's \"key\"): {store.key_fingerprint()}")
        return 0
    if args.action == "revoke":
        store.revoke_key(args.match, args.role, by=args.by)
        print(f"match {args.match}: its {args.role} key is revoked")
        return 0
    key = new_key()
    if args.action == "league":
        store.set_league_key(hash_key(key), by=args.by)
        _print_key("league key (the one before it is revoked)", key)
    else:
        store.issue_key(args.match, args.role, hash_key(key), by=args.by)
        _print_key(f"match {args.match}, {args.role} key (the one before it is revoked)", key)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from dataclasses import fields

    from .web import create_app
    from .web.limits import Limits
    from .web.server import Deadlines, serve

    given = vars(args)  # the limits' options are absent where not given: their classes hold the defaults

    def options(kind: type[Limits] | type[Deadlines]) -> dict[str, Any]:
        return {field.name: given[field.name] for field in fields(kind) if field.name in given}

    tolerance = {name: given[name] for name in ("clock_tolerance",) if name in given}
    if not tolerance and (env := os.environ.get("MATCHSTATE_CLOCK_TOLERANCE")):
        try:
            tolerance["clock_tolerance"] = _positive(float)(env)
        except argparse.ArgumentTypeError as err:
            raise MatchstateError(f"MATCHSTATE_CLOCK_TOLERANCE {err}") from None
    limits = Limits(**options(Limits))
    if args.workers > 1:
        from .store.database import database_url

        if database_url().get_backend_name() == "sqlite":
            raise MatchstateError("--workers needs PostgreSQL: SQLite takes one writer at a time, so more processes "
                                  "on one file add no throughput, and a stream would learn of another process's "
                                  "appends only by the 0.25 s change check; serve SQLite with one worker")
        open_store().close()  # refused here, once, if the database cannot be used; each worker opens its own

    def make_app() -> Any:
        return create_app(open_store(cache_mb=args.cache_mb), private=args.private, limits=limits, **tolerance)

    serve(make_app, args.host, args.port, Deadlines(**options(Deadlines)), workers=args.workers)
    return 0


def _positive(kind: Callable[[str], float]) -> Callable[[str], float]:
    """An option's parser for a number above 0."""
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0 or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be a number above 0, not {text!r}")
        return value
    return parse


def _timeline_options(command: argparse.ArgumentParser) -> None:
    """The options of a command that prints a timeline (see :func:`print_replay`)."""
    command.add_argument("--json", action="store_true", help="one JSON object per event, then the final state")
    command.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the rulings' texts")


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="matchstate", description="Polo match-state tracker, exact to USPA Rule 36.")
    top.add_argument("--version", action="version", version=f"matchstate {__version__}")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    replay_cmd = commands.add_parser("replay", help="replay a match log and show each event's ruling")
    replay_cmd.add_argument("log", help="a match log (JSON Lines), or - for standard input")
    _timeline_options(replay_cmd)
    replay_cmd.set_defaults(run=cmd_replay)

    rules_cmd = commands.add_parser("rules", help="print Rule 36 clauses or table cells by id (all ids without one)")
    rules_cmd.add_argument("ids", nargs="*", metavar="ID", help="e.g. 36/one-stroke or 36/table:hit-before-play:5a")
    rules_cmd.add_argument("--lang", choices=LANGUAGES, default="en")
    rules_cmd.set_defaults(run=cmd_rules)

    diagram_cmd = commands.add_parser("diagram", help="print the free-hit state machine as Mermaid text")
    diagram_cmd.set_defaults(run=cmd_diagram)

    db_cmd = commands.add_parser("db", help="manage the store's database")
    db_actions = db_cmd.add_subparsers(dest="action", required=True, metavar="ACTION")
    db_actions.add_parser("upgrade", help="bring the database to the latest schema").set_defaults(run=cmd_db_upgrade)

    import_cmd = commands.add_parser("import", help="store a match log as a new match (all of it or nothing), "
                                                    "with new scorer and official keys")
    import_cmd.add_argument("log", help="a match log (JSON Lines), or - for standard input")
    import_cmd.add_argument("--by", help="who imports it (kept with the store's record of the act)")
    import_cmd.set_defaults(run=cmd_import)

    keys_cmd = commands.add_parser("keys", help="the league key, a match's keys, the receipts' public key")
    keys_actions = keys_cmd.add_subparsers(dest="action", required=True, metavar="ACTION")
    league_cmd = keys_actions.add_parser("league", help="make a new league key (the one before it is revoked)")
    issue_cmd = keys_actions.add_parser("issue", help="make a new key of a match's role (the one before it is revoked)")
    revoke_cmd = keys_actions.add_parser("revoke", help="revoke a match's key of a role")
    for action in (issue_cmd, revoke_cmd):
        action.add_argument("match", help="the match's code")
        action.add_argument("role", choices=("scorer", "official"))
    for action in (league_cmd, issue_cmd, revoke_cmd):
        action.add_argument("--by", help="who does it (kept with the store's record of the act)")
    keys_actions.add_parser("public", help="print the public key that checks the store's receipts")
    keys_cmd.set_defaults(run=cmd_keys)

    export_cmd = commands.add_parser("export", help="print a stored match's log: as JSON Lines, each line as it "
                                                    "was received, or as CSV, one row per event")
    export_cmd.add_argument("match", help="the match's code")
    export_cmd.add_argument("--format", choices=list(EXPORTERS), default="jsonl", help="default jsonl")
    export_cmd.set_defaults(run=cmd_export)

    stats_cmd = commands.add_parser("stats", help="statistics per team and player over a season or a tournament")
    stats_cmd.add_argument("--event", default="", help="a tournament: match.start's event")
    stats_cmd.add_argument("--season", default="", help="a year (2026) or a date range (2026-03-01..2026-09-30)")
    stats_cmd.add_argument("--format", choices=("text", "csv", "json"), default="text")
    stats_cmd.set_defaults(run=cmd_stats)

    matches_cmd = commands.add_parser("matches", help="list the stored matches with score and state")
    matches_cmd.set_defaults(run=cmd_matches)

    show_cmd = commands.add_parser("show", help="a stored match's timeline, as replay shows it")
    show_cmd.add_argument("match", help="the match's code")
    _timeline_options(show_cmd)
    show_cmd.set_defaults(run=cmd_show)

    verify_cmd = commands.add_parser("verify", help="check the hash chains and replay the rulings; "
                                                    "exits 1 if anything is wrong")
    verify_cmd.add_argument("match", nargs="?", help="one match's code (default: every match)")
    verify_cmd.add_argument("--receipts", metavar="FILE",
                            help="receipts kept by devices (JSON Lines): each must be signed and agree with the log")
    verify_cmd.add_argument("--public-key", metavar="PEM", help="check the receipts with this public key "
                                                                "(default: the store's own)")
    verify_cmd.set_defaults(run=cmd_verify)
    evidence_cli.register(commands, verify_cmd)  # archive, verify --bundle

    serve_cmd = commands.add_parser("serve", help="run the live service: API, scorer's console, review, records")
    serve_cmd.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve_cmd.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    serve_cmd.add_argument("--private", action="store_true", help="reading a match needs one of its keys too")
    serve_cmd.add_argument("--cache-mb", type=_positive(float), metavar="MIB", help="memory the engines of recently "
                           "used matches may take (default 64; a typical match's takes about 50 KiB)")
    serve_cmd.add_argument("--workers", type=_positive(int), default=1, metavar="N",
                           help="server processes sharing the port (default 1; above 1 needs PostgreSQL)")
    guard = serve_cmd.add_argument_group("limits", "what the server allows its clients (the README's Access)")
    for flag, dest, kind, metavar, what in (
        ("--clock-tolerance", "clock_tolerance", float, "SECONDS", "refuse an event whose `at` is more than this "
         "ahead of the server's clock (default: $MATCHSTATE_CLOCK_TOLERANCE, else 120)"),
        ("--header-timeout", "headers_seconds", float, "SECONDS", "time a client has to send a request's headers "
         "(default 10)"),
        ("--body-timeout", "body_seconds", float, "SECONDS", "time it then has to send the body (default 30)"),
        ("--max-connections", "max_connections", int, "N", "connections open at once, at most (default: as many "
         "as the file limit leaves room for, less 256)"),
        ("--rate-anonymous", "anonymous_per_second", float, "PER_SECOND", "requests a second from an address "
         "without a key, in bursts of 12 seconds' worth (default 20)"),
        ("--rate-keyed", "keyed_per_second", float, "PER_SECOND", "requests a second with each key (default 50)"),
        ("--streams-per-client", "streams_per_client", int, "N", "live streams one address may hold open "
         "(default 16)"),
    ):
        guard.add_argument(flag, dest=dest, type=_positive(kind), metavar=metavar, help=what,
                           default=argparse.SUPPRESS)
    serve_cmd.set_defaults(run=cmd_serve)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except RefusedEvent as err:
        print(str(err), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (say, `head`) stopped reading: not our error. Quiet the final flush too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (MatchstateError, OSError) as err:
        print(f"matchstate: {err}", file=sys.stderr)
        return 2 if isinstance(err, MatchstateError) else 1


if __name__ == "__main__":
    sys.exit(main())
