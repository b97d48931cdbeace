"""The ``matchstate`` command."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import sys
from collections.abc import Callable, Iterable, Sequence

from . import evidence_cli
from .commands import COMMANDS, DESCRIPTION, METAVAR, PROG, VERSION, columns
from .errors import MatchstateError, RefusedEvent
from .version import PACKAGE_VERSION
from .witness import command as witness_command

# Imported by the commands that need them, not here: `matchstate --help` or `replay` need no store, no web (nor
# typing, whose import is a fifth of what --help costs beyond Python's start; mypy reads TYPE_CHECKING as True).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from .log import Step
    from .store import Store
    from .web.server import Certificate
    from .web.tls import ServedTls

    Run = Callable[[argparse.Namespace], int]  # a command's work: its exit status
    # A command's work (None: each of its actions has its own) and what adds its options to its parser.
    Work = tuple[Run | None, Callable[[argparse.ArgumentParser], object] | None]

LANGUAGES = ("en", "es")  # the catalog's (matchstate.words.LANGUAGES; a test holds them equal)

# Exit statuses: what the command found is wrong (a tampered store, say), or it could not do its work.
FOUND_A_PROBLEM = 1
COULD_NOT_RUN = 2

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
    from datetime import datetime

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


def as_json_text(value: object, indent: int | None = None) -> str:
    import json  # not at the top: most commands print no JSON, and --help should start at once

    return json.dumps(value, ensure_ascii=False, indent=indent, default=str)


def print_json(value: object) -> None:
    print(as_json_text(value))


def score_text(score: dict[str, float]) -> str:
    return " – ".join(f"{team} {goals:g}" for team, goals in score.items())


def print_replay(lines: Iterable[str], as_json: bool, lang: str, *, kept: bool = False) -> None:
    """Replay a log into a new Match, printing each event's ruling (a timeline or JSON), then the final state
    (``kept``: a store's log, read as stored)."""
    from datetime import datetime

    from .engine import Match
    from .log import final, replay
    from .words import phrase

    match = Match()
    start = None
    for step in replay(lines, match, kept=kept):
        if as_json:
            print(as_json_text(step.to_json()))
        else:
            start = start or datetime.fromisoformat(step.event["at"])
            print(timeline_row(step, start, lang))
    if as_json:
        print(as_json_text(final(match)))
    else:
        result = (phrase("timeline", "winner", lang, team=match.winner) if match.winner else
                  phrase("timeline", "draw", lang) if match.ended else "")
        print("\n" + phrase("timeline", "final", lang, score=score_text(match.score), state=match.state,
                            clock=clock_text(match.clock_json())) + result)


def read_lines(path: str) -> Iterable[str]:
    from .log import read_lines

    return read_lines(path)


def cmd_replay(args: argparse.Namespace) -> int:
    print_replay(read_lines(args.log), args.json, args.lang)
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .rulebook import CLAUSES, clause

    if not args.ids:
        for rule_id, rule in CLAUSES.items():
            print(f"{rule_id:40} {rule.heading[args.lang]}")
        return 0
    print("\n\n".join(clause(rule_id).render(args.lang) for rule_id in args.ids))
    return 0


def cmd_diagram(_: argparse.Namespace) -> int:
    from .engine import diagram

    print(diagram(), end="")
    return 0


# -- the store: the database is MATCHSTATE_DATABASE_URL, else matchstate.db here ----------------

_OPENED: list[Store] = []  # the stores a command opened, closed as main returns (in-process, a test's keep none)


def _opened(store: Store) -> Store:
    _OPENED.append(store)
    return store


def open_store(upgrading: bool = False, cache_mb: float | None = None, create: bool = False) -> Store:
    """The store, checked to be there, reachable and up to date (imported here: replay and rules need no
    database); its engine cache takes up to ``cache_mb`` MiB (default: the store's). An SQLite file that is
    not there is refused, naming where it was looked for, unless ``create``: a command run in the wrong
    folder must not make an empty store there."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from .store import Store
    from .store.database import database_url

    try:
        url = database_url()
    except ArgumentError as err:
        raise MatchstateError(f"MATCHSTATE_DATABASE_URL cannot be read as a database URL: {err}") from None
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise MatchstateError(f"the database {url} is neither SQLite (sqlite:///FILE) nor PostgreSQL "
                              "(postgresql://...)")
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:") and not create:
        path = os.path.abspath(url.database or "")
        if not os.path.exists(path):
            raise MatchstateError(f"no store at {path}: run the command where the store is, or set "
                                  "MATCHSTATE_DATABASE_URL; for a new store, `matchstate db upgrade --create` "
                                  "makes one")
    try:
        store = _opened(Store() if cache_mb is None else Store(cache_bytes=int(cache_mb * 2**20)))
        current = store.schema_is_current()
    except (SQLAlchemyError, NoSuchModuleError) as err:
        raise MatchstateError(f"cannot use the database {url}: {err}") from None
    if not (current or upgrading):
        raise MatchstateError(f"the database {store.url} is not up to date: run `matchstate db upgrade`")
    return store


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    store = open_store(upgrading=True, create=args.create)
    had_secret = store.secrets.exist()
    before = store.database.revisions()[0]
    league_key = store.upgrade()
    made = None if had_secret else {"secret": str(store.secrets.path), "signing_key": str(store.secrets.signing_path)}
    now = store.database.revisions()[0]
    if args.json:
        print_json({"database": str(store.url), "current": now, "made": made, "league_key": league_key})
        return 0
    if before == now:
        print(f"database {store.url}: up to date")
    else:  # what it was (nothing: made now) and what it is
        print(f"database {store.url}: upgraded from {', '.join(before) or 'nothing'} to {', '.join(now)}: up to date")
    if made is not None:
        print(f"the store's secret: {store.secrets.path}\nits receipt signing key: {store.secrets.signing_path}\n"
              "(both made now, mode 0600: keep them safe, back them up, and give every server the same two)")
    if league_key is not None:
        _print_key("league key", league_key)
    return 0


def cmd_db_current(args: argparse.Namespace) -> int:
    """The migrations the database has had, beside the latest: exit 1 where it is behind."""
    store = open_store(upgrading=True)
    current, latest = store.database.revisions()
    if args.json:
        print_json({"database": str(store.url), "current": current, "latest": latest, "up_to_date": current == latest,
                    "package": PACKAGE_VERSION})
    else:
        state = "up to date" if current == latest else "behind: run `matchstate db upgrade`"
        print(f"database {store.url}: at {', '.join(current) or 'no migration'}; the latest is "
              f"{', '.join(latest)} ({state})")
    return 0 if current == latest else FOUND_A_PROBLEM


def cmd_db_history(args: argparse.Namespace) -> int:
    """Every migration that ships with matchstate, oldest first, each marked where the database has had it."""
    from alembic.script import ScriptDirectory

    from .store.database import Database

    store = open_store(upgrading=True)
    current = set(store.database.revisions()[0])
    scripts = list(reversed(list(ScriptDirectory.from_config(Database.alembic()).walk_revisions())))
    applied = set()
    for script in scripts:  # each up to the current head has been had
        applied.add(script.revision)
        if script.revision in current:
            break
    if not current:
        applied = set()
    rows = [{"revision": script.revision, "down_revision": script.down_revision, "title": script.doc,
             "applied": script.revision in applied} for script in scripts]
    if args.json:
        print_json(rows)
        return 0
    for row in rows:
        print(f"{'*' if row['applied'] else ' '} {row['revision']}  {row['title']}")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .store.backup import backup

    store = open_store()
    manifest = backup(store.url, store.secrets, Path(args.destination))
    if args.json:
        print_json(manifest)
    else:
        print(f"backed up {store.url} and its secret files to {os.path.abspath(args.destination)}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .store import Store
    from .store.backup import restore

    store = _opened(Store())
    manifest = restore(Path(args.source), store.url, store.secrets)
    store.close()
    if not open_store().schema_is_current():  # the backup's schema, older: upgrade as ever
        raise MatchstateError("restored, but the database is not up to date: run `matchstate db upgrade`")
    if args.json:
        print_json(manifest)
    else:
        print(f"restored {os.path.abspath(args.source)} (made {manifest['made']}) into {store.url}; its secret "
              f"files at {store.secrets.path}: run `matchstate verify`")
    return 0


def _print_imported(code: str, count: int, keys: dict[str, str]) -> None:
    print(f"imported match {code}: {count} events")
    for role, key in keys.items():
        _print_key(f"{role} key", key)


def _shown(show: Callable[[], None], codes: list[str]) -> bool:
    """Whether ``show`` wrote the one-time keys of the matches ``codes`` to standard output; where it could not (a
    reader that stopped reading, a full disk), the matches are stored but their keys lost: said on standard error,
    with how to make new ones."""
    try:
        show()
        sys.stdout.flush()
    except OSError as err:
        _quiet_stdout()
        with contextlib.suppress(OSError):
            print(f"matchstate: {', '.join(codes)} stored, but the keys could not be shown ({err.strerror or err}): "
                  "make new ones with `matchstate keys issue MATCH scorer` and `... official`", file=sys.stderr)
        return False
    return True


def _quiet_stdout() -> None:
    """Send what is left of standard output nowhere, so that its final flush does not fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _print_key(name: str, key: str) -> None:
    print(f"{name}: {key}\n(shown this once: the store keeps only its SHA-256 hash, in the keys table)")


def _new_keys(roles: Iterable[str]) -> dict[str, str]:
    from .store import new_key

    return {role: new_key() for role in roles}


def witnessed_store(args: argparse.Namespace) -> Store:
    """The store, for a command that adds to the league log (an import, a removal, a correction). Where a witness
    policy is given (``--witness-policy``, else ``$MATCHSTATE_WITNESS_POLICY``, as ``serve`` takes it), its
    witnesses are asked first, as a server asks them before its first write; the command is refused, nothing
    written, where they show the store's log behind what they cosigned (a store restored from an older copy) or
    forked from it. Without it, an import into such a store forked the log, and ``verify`` found it clean."""
    store = open_store()
    path = args.witness_policy or os.environ.get("MATCHSTATE_WITNESS_POLICY")
    if path:
        from .web.witnessing import from_file

        witnessing = from_file(store, path, every=0)
        witnessing.round()
        if witnessing.halted is not None:
            raise MatchstateError(f"{witnessing.halted['en']} Nothing was written.")
    return store


def cmd_import(args: argparse.Namespace) -> int:
    """Import each log in turn; with several, one refused is said (its file named) and the rest go on, and the exit
    status is 2 where any was refused."""
    from .store import ROLES, hash_key

    store = witnessed_store(args)
    imported: list[dict[str, Any]] = []
    for path in args.log:
        keys = _new_keys(ROLES)
        try:
            code, count = import_log(store, path, {role: hash_key(key) for role, key in keys.items()}, args.by)
        except (MatchstateError, OSError) as err:
            if len(args.log) == 1:
                raise
            print(f"matchstate: {path}: {_said(err)}", file=sys.stderr)
            continue
        imported.append({"match": code, "events": count, "keys": keys, **({"log": path} if len(args.log) > 1 else {})})
        if not args.json and not _shown(functools.partial(_print_imported, code, count, keys), [code]):
            return COULD_NOT_RUN  # the logs after it are not imported: their keys would be lost too
    if args.json and not _shown(functools.partial(print_json, imported if len(args.log) > 1 else imported[0]),
                                [made["match"] for made in imported]):
        return COULD_NOT_RUN
    if len(args.log) > 1:
        print(f"{len(imported)} of {len(args.log)} logs imported", file=sys.stderr)
    return 0 if len(imported) == len(args.log) else COULD_NOT_RUN


def import_log(store: Store, path: str, keys: dict[str, str], by: str | None) -> tuple[str, int]:
    """Import the log at ``path`` as a new match with ``keys`` (role → the key's hash): its code and its number of
    events; under a code a tournament's fixture holds, as the desk enters its result (:meth:`Desk.import_log`)."""
    from .tournaments.desk import Desk

    return Desk(store).import_log(read_lines(path), lambda lines, hold: store.import_log(lines, keys=keys, by=by,
                                                                                           also=hold))


def cmd_export(args: argparse.Namespace) -> int:
    """One match's log on standard output; or, ``--into DIR``, every match's (those ``--event`` and ``--season``
    choose), a file each, which ``matchstate import DIR/*.jsonl`` takes back."""
    from .records import EXPORTERS

    exporter = EXPORTERS[args.format]
    if args.into is None:
        if args.event or args.season:
            raise MatchstateError("--event and --season choose the matches of --into DIR")
        if args.match is None:
            raise MatchstateError("export MATCH, or every match --into DIR")
        _write_utf8(exporter.exported(open_store(), args.match))
        return 0
    from pathlib import Path

    from .records.export import covered
    from .records.stats import Scope

    if args.match is not None:
        raise MatchstateError("export MATCH, or every match --into DIR: not both")
    scope = Scope.of(args.event, args.season)
    folder = Path(args.into)
    if folder.exists() and any(folder.iterdir()):  # an earlier export's match, removed since, would be imported back
        raise MatchstateError(f"{folder} is not empty: every match is exported into a new or empty folder")
    store = open_store()
    codes = covered(store, scope)
    folder.mkdir(parents=True, exist_ok=True)
    unread = 0
    for code in codes:
        try:
            print(exporter.written_into(store, code, folder))
        except (MatchstateError, OSError) as err:  # named (a log not read back, as `matches` names it; a file that
            # could not be written, two codes differing only in case where the file system ignores it) and the rest
            print(f"matchstate: {err}", file=sys.stderr)
            unread += 1
    return FOUND_A_PROBLEM if unread else 0


def cmd_stats(args: argparse.Namespace) -> int:
    from .records.archive import Archive
    from .records.stats import Scope

    archive = Archive(open_store())
    if args.action == "rebuild":
        print(f"{archive.kept.rebuild()} matches counted from their logs")
    else:
        stats = archive.stats(Scope.of(args.event, args.season))
        if args.format == "json":
            _write_utf8(as_json_text(stats.to_json(), indent=2) + "\n")
        else:
            _write_utf8(stats.to_csv() if args.format == "csv" else stats.to_text() + "\n")
    return said_unreadable(archive.kept.unreadable)  # not counted: the statistics leave them out


def _write_utf8(text: str) -> None:
    """Text as UTF-8 on standard output, whatever the terminal's encoding (a log's own bytes)."""
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


def cmd_matches(args: argparse.Namespace) -> int:
    from .store import Summary

    found = open_store().summaries()
    summaries = [summary for summary in found if isinstance(summary, Summary)]
    if args.json:
        print_json([{"match": summary.code, "score": summary.score, "state": summary.state,
                     "last_seq": summary.last_seq, "last_at": summary.last_at.isoformat()} for summary in summaries])
    else:
        for summary in summaries:
            print(f"{summary.code:<24} {score_text(summary.score):<32} {summary.state:<12} {summary.last_seq:>6} "
                  f"events   last {summary.last_at:%Y-%m-%d %H:%M:%S} UTC")
    return said_unreadable(found)


def said_unreadable(found: Iterable[object]) -> int:
    """Name on standard error each match of ``found`` that could not be read back (after what could be, listed):
    exit status 1 where there is one, else 0."""
    from .store import Unreadable

    unreadable = [match for match in found if isinstance(match, Unreadable)]
    for match in unreadable:
        print(f"matchstate: {match.error()}", file=sys.stderr)
    return FOUND_A_PROBLEM if unreadable else 0


def cmd_remove(args: argparse.Namespace) -> int:
    witnessed_store(args).remove_match(args.match, reason=args.reason, by=args.by)
    print(f"match {args.match}: removed ({args.reason}); `matchstate verify` reports the act")
    return 0


def cmd_correct(args: argparse.Namespace) -> int:
    """Correct a match.start (a tournament's fixture's match: as the desk would have opened it, Desk.correct_start)."""
    from .tournaments.desk import Desk

    lines = [line for line in read_lines(args.start) if line.strip()]
    if len(lines) != 1:
        raise MatchstateError(f"{args.start} holds {len(lines)} lines: a correction takes one match.start")
    start = lines[0]
    store = witnessed_store(args)
    corrected = Desk(store).correct_start(args.match, start, lambda also: store.correct_match(
        args.match, start, reason=args.reason, by=args.by, also=also))
    print(f"match {args.match}: its match.start is corrected ({args.reason}), its keys kept: "
          f"{' – '.join(corrected.match.teams)}")
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from .store.results import read_or_refuse

    store = open_store()
    read_or_refuse(args.match, lambda: print_replay((stored.raw for stored in store.events(args.match)), args.json,
                                                    args.lang, kept=True))
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    """Exit 0 where all holds, 1 where a problem was found, 2 where the seals could not be checked (no secret):
    a store restored without its secret must not pass for one verified."""
    if args.public_key and not args.receipts:  # given for nothing: a mistyped command line would pass unseen
        raise MatchstateError("--public-key checks receipts: give them with --receipts FILE")
    if args.public_key and len(args.public_key) > 1:
        raise MatchstateError("--receipts are checked with one --public-key: the store's, as `matchstate keys "
                              "public` prints it first")
    store = open_store()
    problems = store.verify(args.match)
    notes = [f"removed: {removal}" for removal in store.removals()] if args.match is None else []
    sealed = store.secrets.path.exists()
    if not sealed:
        notes.append(f"seals not checked: no secret at {store.secrets.path} (restore it beside the store, or "
                     "set MATCHSTATE_SECRET_FILE)")
    receipts_fail = False
    if args.receipts:
        report = store.check_receipts(read_lines(args.receipts),
                                      _public_key(args.public_key[0] if args.public_key else None))
        problems += report.problems
        notes += report.removed
        notes.append(f"receipts: {report.held} of those read hold")
        receipts_fail = not report.all_hold  # a receipt that cannot be checked any more does not hold either
    matches = store.match_count() if args.match is None else 1  # not read row by row: a row may not read back
    status = FOUND_A_PROBLEM if problems or receipts_fail else 0 if sealed else COULD_NOT_RUN
    if args.json:
        print_json({"status": status, "problems": [str(problem) for problem in problems], "notes": notes,
                    "sealed": sealed, "matches": matches})
        return status
    for line in [*map(str, problems), *notes]:
        print(line)
    if not matches:
        print(f"the store {store.url} holds no matches")
    if status != FOUND_A_PROBLEM:
        print("verified: every chain is whole, every stored ruling is the engine's"
              + (" and every seal holds" if sealed else ", but the seals were not checked"))
    return status


def _public_key(path: str | None) -> Ed25519PublicKey | None:
    """The public key in the PEM file at ``path`` (None: the store's own)."""
    from .store.receipts import read_public_key

    return None if path is None else read_public_key(path)


def cmd_rotate_log_key(_: argparse.Namespace) -> int:
    from .store.logkeys import LogKeys

    store = open_store()
    keys = LogKeys(store.secrets)
    size, policy = keys.rotate(store)
    print(f"the league log's key is rotated at {size} leaves (restart a running server: it reads its key once); "
          f"the policy, {keys.policy_path}:\n{policy.text()}", end="")
    return 0


def cmd_log_policy(_: argparse.Namespace) -> int:
    from .store.logkeys import LogKeys

    store = open_store()
    print(LogKeys(store.secrets).policy(store.log.signer).text(), end="")
    return 0


def cmd_keys(args: argparse.Namespace) -> int:
    from .store import hash_key, new_key

    store = open_store()
    said: dict[str, object]
    if args.action == "public":
        said = {"public_key": store.public_key_pem(), "fingerprint": store.key_fingerprint()}
        text = f"{store.public_key_pem()}fingerprint (a receipt's \"key\"): {store.key_fingerprint()}"
        log_key = store.log_public_key_pem()
        if log_key != store.public_key_pem():  # handed over (keys rotate-log-key): a bundle signed since is its
            said["log_public_key"] = log_key
            text += f"\nthe league log's key since it was rotated (its checkpoints, heads and lists):\n{log_key}"
    elif args.action == "revoke":
        store.revoke_key(args.match, args.role, by=args.by)
        said = {"match": args.match, "role": args.role, "revoked": True}
        text = f"match {args.match}: its {args.role} key is revoked"
    else:
        key = new_key()
        if args.action == "league":
            store.set_league_key(hash_key(key), by=args.by)
            said, name = {"role": "league", "key": key}, "league key (the one before it is revoked)"
        else:
            store.issue_key(args.match, args.role, hash_key(key), by=args.by)
            said = {"match": args.match, "role": args.role, "key": key}
            name = f"match {args.match}, {args.role} key (the one before it is revoked)"
        text = f"{name}: {key}\n(shown this once: the store keeps only its SHA-256 hash, in the keys table)"
    if args.json:
        print_json(said)
    else:
        print(text)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from dataclasses import fields

    from .web import create_app
    from .web.headers import LOCAL_NAMES, allowed_hosts
    from .web.limits import Limits, proxy_networks
    from .web.server import Deadlines, Logging, serve
    from .web.tls import laptop_names

    given = vars(args)  # the limits' options are absent where not given: their classes hold the defaults

    def options(kind: type[Limits] | type[Deadlines]) -> dict[str, Any]:
        return {field.name: given[field.name] for field in fields(kind)
                if field.name in given and field.name != "forwarded_allow_ips"}

    tolerance = {name: given[name] for name in ("clock_tolerance",) if name in given}
    if not tolerance and (env := os.environ.get("MATCHSTATE_CLOCK_TOLERANCE")):
        try:
            tolerance["clock_tolerance"] = _positive(float)(env)
        except argparse.ArgumentTypeError as err:
            raise MatchstateError(f"MATCHSTATE_CLOCK_TOLERANCE {err}") from None
    proxies = given.get("forwarded_allow_ips") or os.environ.get("MATCHSTATE_FORWARDED_ALLOW_IPS", "")
    try:
        proxy_networks([proxies])
    except ValueError as err:
        raise MatchstateError(f"--forwarded-allow-ips: {err}") from None
    limits = Limits(**options(Limits), forwarded_allow_ips=(proxies,) if proxies else ())
    if args.workers > 1:
        from .store.database import database_url

        if database_url().get_backend_name() == "sqlite":
            raise MatchstateError("--workers needs PostgreSQL: SQLite takes one writer at a time, so more processes "
                                  "on one file add no throughput, and a stream would learn of another process's "
                                  "appends only by the 0.25 s change check; serve SQLite with one worker")
        open_store().close()  # refused here, once, if the database cannot be used; each worker opens its own

    certificate, served = _serving_tls(args)
    hosts = allowed_hosts(args.host, given.get("allowed_hosts"))
    if hosts is not None and "allowed_hosts" not in given and not os.environ.get("MATCHSTATE_ALLOWED_HOSTS"):
        # The laptop's own names (a tablet reaches it by them) and its certificate's are its own, not a rebinding.
        hosts |= {name.lower() for name in (*laptop_names(tuple(args.tls_name)), *served.names)}
    if served.ca is not None:  # the laptop's own CA: the setup page's address, by a name the server answers to
        bound = args.host.strip("[]")
        # A tablet's own localhost is not this laptop: the names given first, then the address bound, then the rest.
        reached = [name for name in dict.fromkeys((*args.tls_name, bound, *served.names))
                   if name in served.names and name not in LOCAL_NAMES]
        shown = next((name for name in reached if hosts is None or name.lower() in hosts), (reached or served.names)[0])
        print(f"each tablet installs it once: open https://{shown}:{args.port}/setup/tablet", flush=True)

    if args.witness_policy:
        from .web.witnessing import from_file

        from_file(open_store(), args.witness_policy, args.witness_every).store.close()  # its faults named once, here

    def make_app() -> Any:
        store = open_store(cache_mb=args.cache_mb)
        witnessing = from_file(store, args.witness_policy, args.witness_every) if args.witness_policy else None
        app = create_app(store, private=args.private, limits=limits, hosts=hosts, witnessing=witnessing,
                         **tolerance)
        app.state.tls = served  # for the tablet setup page
        return app

    serve(make_app, args.host, args.port, Deadlines(**options(Deadlines)), workers=args.workers, tls=certificate,
          logging_=Logging(args.log_format, args.log_level))
    return 0


def _serving_tls(args: argparse.Namespace) -> tuple[Certificate | None, ServedTls]:
    """The certificate ``serve`` answers HTTPS with: a league's own (``--ssl-certfile``/``--ssl-keyfile``),
    or with ``--tls`` one the laptop's own CA signs (both made once, beside the store's secret); and what
    the tablet setup page says of it."""
    from .web.headers import WILDCARDS, is_address
    from .web.server import Certificate
    from .web.tls import ServedTls, TlsFiles, laptop_names

    if args.ssl_certfile or args.ssl_keyfile:
        if not (args.ssl_certfile and args.ssl_keyfile):
            raise MatchstateError("--ssl-certfile and --ssl-keyfile go together: the certificate and its key")
        for path in (args.ssl_certfile, args.ssl_keyfile):
            if not os.path.isfile(path):
                raise MatchstateError(f"no such file: {os.path.abspath(path)}")
        import ssl

        try:  # read here, where a file that is not what it must be can be named (uvicorn said "[SSL] PEM lib")
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(args.ssl_certfile, args.ssl_keyfile)
        except ssl.SSLError as err:
            raise MatchstateError(f"--ssl-certfile {args.ssl_certfile} and --ssl-keyfile {args.ssl_keyfile} are not a "
                                  f"certificate in PEM and its private key ({err.reason or err})") from None
        return Certificate(args.ssl_certfile, args.ssl_keyfile), ServedTls(https=True)
    if not args.tls:
        if args.tls_name:
            raise MatchstateError("--tls-name needs --tls")
        return None, ServedTls()
    from .store.database import database_url
    from .store.secretfiles import secret_path

    files = TlsFiles(secret_path(database_url()))
    host = args.host.strip("[]")
    bound = [host] if is_address(host) and host not in WILDCARDS else []
    names = laptop_names((*args.tls_name, *bound))  # the address it is bound to too: a tablet may use it
    files.ensure(names)
    print(f"HTTPS with this laptop's certificate authority ({files.ca_cert}) for {', '.join(names)}", flush=True)
    return (Certificate(str(files.server_cert), str(files.server_key)),
            ServedTls(https=True, ca=files.ca_cert.read_bytes(), names=tuple(names)))


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


def _json_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--json", action="store_true", help="print the result as JSON, for a script to read")


def export_format(text: str) -> str:
    """A format of the exporters' registry (read only when an export is asked for)."""
    from .records import EXPORTERS

    if text not in EXPORTERS:
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(EXPORTERS)})")
    return text


def port_number(text: str) -> int:
    """A TCP port: 1 to 65535 (the kernel would take 99999 modulo 65536 and bind another)."""
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, not {text!r}")
    return port


def _serve_environment(serve_cmd: argparse.ArgumentParser, apply: bool) -> None:
    """Every serve option's environment variable, MATCHSTATE_ and its name (--cache-mb: MATCHSTATE_CACHE_MB),
    named in its help; with ``apply``, each one set is the option's default (for a service manager or a
    container; the command line wins over it)."""
    for action in serve_cmd._actions:
        if not action.option_strings or action.dest == "help":
            continue
        name = "MATCHSTATE_" + action.option_strings[-1].lstrip("-").replace("-", "_").upper()
        action.help = f"{action.help or ''} [${name}]"
        text = os.environ.get(name) if apply else None
        if text is None:
            continue
        try:
            if isinstance(action, argparse._StoreTrueAction):
                if text.lower() not in ("1", "true", "yes", "0", "false", "no", ""):
                    raise argparse.ArgumentTypeError(f"must be 1, true, yes, 0, false or no, not {text!r}")
                action.default = text.lower() in ("1", "true", "yes")
            elif isinstance(action, argparse._AppendAction):
                action.default = [part.strip() for part in text.split(",") if part.strip()]
            else:
                action.default = action.type(text) if callable(action.type) else text
        except (argparse.ArgumentTypeError, ValueError) as err:
            serve_cmd.error(f"${name} {err}")


def _timeline_options(command: argparse.ArgumentParser) -> None:
    """The options of a command that prints a timeline (see :func:`print_replay`)."""
    command.add_argument("--json", action="store_true", help="one JSON object per event, then the final state")
    command.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the rulings' texts")


class _Help(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal as :func:`os.get_terminal_size` reads it: argparse would ask
    :mod:`shutil`, whose import (bz2, lzma) is a fifth of what `matchstate --help` costs beyond Python's start."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, width or columns() - 2)


class _Parser(argparse.ArgumentParser):
    """The command line's parsers (the sub-commands' are of the same class): help formatted by :class:`_Help`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)


if TYPE_CHECKING:  # typeshed's is generic in the parsers' class; argparse's own is not (so not at run time)
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction


class Commands(_SubParsers):
    """The sub-commands (what ``add_subparsers(action=Commands)`` returns), each one's parser made the first time
    it is used, to run the command or show its help: `matchstate --help` lists them all and makes none, where
    making them cost more than the rest of that help beyond Python's start."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._commands: dict[str, Work] = {}
        # argparse checks a command's name against `choices` before it asks for the command's parser
        self.choices = self._commands  # type: ignore[assignment]

    def add_command(self, name: str, help: str, run: Run | None,
                    options: Callable[[argparse.ArgumentParser], object] | None = None) -> None:
        """The command ``name``, listed with ``help``, that does ``run`` (None: each of its actions has its own);
        ``options`` adds its arguments to its parser when it is used."""
        self._commands[name] = (run, options)
        self._choices_actions.append(self._ChoicesPseudoAction(name, (), help))

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        assert isinstance(values, list)  # the command's name, then its arguments (argparse's nargs=PARSER)
        name = values[0]
        if name not in self._name_parser_map:
            run, options = self._commands[name]
            command = self.add_parser(name)
            if run is not None:
                command.set_defaults(run=run)
            if options is not None:
                options(command)
        super().__call__(parser, namespace, values, option_string)


def parser(environment: bool = False) -> argparse.ArgumentParser:
    """The command line; with ``environment``, serve's options default to their environment variables."""
    top = _Parser(prog=PROG, description=DESCRIPTION)
    top.add_argument("--version", action="version", version=VERSION)
    commands = top.add_subparsers(dest="command", required=True, metavar=METAVAR, action=Commands)
    assert isinstance(commands, Commands)
    work: dict[str, Work] = {
        "replay": (cmd_replay, _replay), "rules": (cmd_rules, _rules), "diagram": (cmd_diagram, None),
        "db": (None, _db), "import": (cmd_import, _import), "backup": (cmd_backup, _backup),
        "restore": (cmd_restore, _restore), "keys": (cmd_keys, _keys), "export": (cmd_export, _export),
        "stats": (cmd_stats, _stats), "matches": (cmd_matches, _json_option), "remove": (cmd_remove, _remove),
        "correct": (cmd_correct, _correct), "show": (cmd_show, _show), "verify": (cmd_verify, _verify),
        "archive": evidence_cli.COMMAND, "witness": witness_command.COMMAND,
        "serve": (cmd_serve, functools.partial(_serve, environment=environment)),
    }
    assert work.keys() == COMMANDS.keys(), "every command listed has its work, and every command is listed"
    for name, said in COMMANDS.items():
        commands.add_command(name, said, *work[name])
    return top


def _replay(command: argparse.ArgumentParser) -> None:
    command.add_argument("log", help="a match log (JSON Lines), or - for standard input")
    _timeline_options(command)


def _rules(command: argparse.ArgumentParser) -> None:
    command.add_argument("ids", nargs="*", metavar="ID", help="e.g. 36/one-stroke or 36/table:hit-before-play:5a")
    command.add_argument("--lang", choices=LANGUAGES, default="en")


def _db(command: argparse.ArgumentParser) -> None:
    actions = command.add_subparsers(dest="action", required=True, metavar="ACTION")
    upgrade = actions.add_parser("upgrade", help="bring the database to the latest schema")
    upgrade.add_argument("--create", action="store_true", help="make the store if it is not there (SQLite: the "
                         "file); without it a missing store is refused, named")
    upgrade.set_defaults(run=cmd_db_upgrade)
    actions.add_parser("current", help="the migration the database is at, beside the latest; exits 1 where it is "
                       "behind").set_defaults(run=cmd_db_current)
    actions.add_parser("history", help="every migration, oldest first, * where the database has had it"
                       ).set_defaults(run=cmd_db_history)
    for action in actions.choices.values():
        _json_option(action)


def _import(command: argparse.ArgumentParser) -> None:
    command.add_argument("log", nargs="+", help="a match log (JSON Lines), or - for standard input; several, each "
                                                "in turn (one refused is said, and the rest go on)")
    command.add_argument("--by", help="who imports it (kept with the store's record of the act)")
    _witness_option(command)
    _json_option(command)


def _backup(command: argparse.ArgumentParser) -> None:
    command.add_argument("destination", help="a new or empty folder")
    _json_option(command)


def _restore(command: argparse.ArgumentParser) -> None:
    command.add_argument("source", help="a folder `matchstate backup` wrote")
    _json_option(command)


def _keys(command: argparse.ArgumentParser) -> None:
    actions = command.add_subparsers(dest="action", required=True, metavar="ACTION")
    league = actions.add_parser("league", help="make a new league key (the one before it is revoked)")
    issue = actions.add_parser("issue", help="make a new key of a match's role (the one before it is revoked)")
    revoke = actions.add_parser("revoke", help="revoke a match's key of a role")
    for action in (issue, revoke):
        action.add_argument("match", help="the match's code")
        action.add_argument("role", choices=("scorer", "official"))
    actions.add_parser("rotate-log-key", help="hand the league log over to a new signing key; the policy names each "
                       "key's tree sizes").set_defaults(run=cmd_rotate_log_key)
    actions.add_parser("log-policy", help="print the league log's C2SP tlog-policy: every key it has had, each with "
                       "the tree sizes it may sign").set_defaults(run=cmd_log_policy)
    for action in (league, issue, revoke):
        action.add_argument("--by", help="who does it (kept with the store's record of the act)")
    actions.add_parser("public", help="print the public key that checks the store's receipts")
    for action in actions.choices.values():
        _json_option(action)


def _export(command: argparse.ArgumentParser) -> None:
    command.add_argument("match", nargs="?", help="the match's code")
    command.add_argument("--format", type=export_format, default="jsonl",
                         help="jsonl (default), csv, or another exporter registered")
    command.add_argument("--into", metavar="DIR", help="every match instead, each into its file DIR/CODE.FORMAT "
                         "(%% in a code written %%25) of a new or empty folder: `matchstate import DIR/*.jsonl` "
                         "takes them back")
    _scope_options(command, "with --into: ")


def _scope_options(command: argparse.ArgumentParser, said: str = "") -> None:
    """The options that choose matches by their match.start (stats, export)."""
    command.add_argument("--event", default="", help=f"{said}a tournament: match.start's event")
    command.add_argument("--season", default="", help=f"{said}a year (2026) or a date range "
                                                      "(2026-03-01..2026-09-30)")


def _stats(command: argparse.ArgumentParser) -> None:
    command.add_argument("action", nargs="?", choices=("rebuild",),
                         help="rebuild: count every match's kept statistics again from its log")
    _scope_options(command)
    command.add_argument("--format", choices=("text", "csv", "json"), default="text")


def _remove(command: argparse.ArgumentParser) -> None:
    command.add_argument("match", help="the match's code")
    _act_options(command)


def _correct(command: argparse.ArgumentParser) -> None:
    command.add_argument("match", help="the match's code")
    command.add_argument("start", help="a file holding the corrected match.start as one JSON line")
    _act_options(command)


def _act_options(command: argparse.ArgumentParser) -> None:
    """The options of a recorded act on a match (remove, correct)."""
    command.add_argument("--reason", required=True, help="why (kept with the store's record of the act)")
    command.add_argument("--by", help="who does it (kept with the store's record of the act)")
    _witness_option(command)


def _witness_option(command: argparse.ArgumentParser) -> None:
    command.add_argument("--witness-policy", metavar="FILE", help="the C2SP tlog-policy file `serve` is given: its "
                         "witnesses are asked first, and nothing is written where they have cosigned a log this "
                         "store's does not extend (default: $MATCHSTATE_WITNESS_POLICY)")


def _show(command: argparse.ArgumentParser) -> None:
    command.add_argument("match", help="the match's code")
    _timeline_options(command)


def _verify(command: argparse.ArgumentParser) -> None:
    command.add_argument("match", nargs="?", help="one match's code (default: every match)")
    command.add_argument("--receipts", metavar="FILE",
                         help="receipts kept by devices (JSON Lines): each must be signed and agree with the log")
    command.add_argument("--public-key", metavar="PEM", action="append",
                         help="check the receipts with this public key (default: the store's own); with --bundle, a "
                              "key of the league's, one of which must have signed each of the bundle's notes: give "
                              "it again for each key the league log has had (`matchstate keys public` prints them)")
    _json_option(command)
    evidence_cli.verify_options(command)  # --bundle, --report


def _serve(command: argparse.ArgumentParser, environment: bool) -> None:
    command.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    command.add_argument("--port", type=port_number, default=8000, help="port to listen on (default 8000)")
    command.add_argument("--allowed-hosts", metavar="NAMES", default=argparse.SUPPRESS,
                           help="host names the server answers to, comma-separated, * for any (default: "
                           "$MATCHSTATE_ALLOWED_HOSTS, else --host and localhost; any IP address if --host is 0.0.0.0)")
    command.add_argument("--private", action="store_true", help="reading a match needs one of its keys too")
    command.add_argument("--cache-mb", type=_positive(float), metavar="MIB", help="memory the engines of recently "
                           "used matches may take (default 64; a typical match's takes about 50 KiB)")
    command.add_argument("--workers", type=_positive(int), default=1, metavar="N",
                           help="server processes sharing the port (default 1; above 1 needs PostgreSQL)")
    command.add_argument("--log-format", choices=("text", "json"), default="text", help="the access log: a "
                           "line as uvicorn writes it, or a JSON object a line (time, request id, method, path, "
                           "status, latency)")
    command.add_argument("--log-level", choices=("critical", "error", "warning", "info", "debug"), default="info",
                           help="the least level logged (info: each request too)")
    https = command.add_argument_group("HTTPS", "what a tablet needs to open the console offline "
                                         "(the README's On the field)")
    https.add_argument("--tls", action="store_true", help="serve HTTPS with a certificate signed by this laptop's "
                       "own certificate authority (made once beside the store's secret); tablets install it from "
                       "/setup/tablet")
    https.add_argument("--tls-name", action="append", default=[], metavar="NAME",
                       help="one more name or address the certificate covers (again for more)")
    https.add_argument("--ssl-certfile", metavar="PEM", help="serve HTTPS with this certificate (and its chain)")
    https.add_argument("--ssl-keyfile", metavar="PEM", help="the private key of --ssl-certfile")
    guard = command.add_argument_group("limits", "what the server allows its clients (the README's Access)")
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
    guard.add_argument("--forwarded-allow-ips", metavar="ADDRESSES", default=argparse.SUPPRESS,
                       help="proxies (addresses or networks, comma-separated) whose X-Forwarded-For names the client "
                       "the limits count (default: $MATCHSTATE_FORWARDED_ALLOW_IPS, else none)")
    witnessed = command.add_argument_group("witnesses", "who cosigns the league log (SECURITY.md's Witnesses)")
    witnessed.add_argument("--witness-policy", metavar="FILE", help="a C2SP tlog-policy file: the witnesses (with "
                           "their URLs) to send the league log's checkpoints to, and the quorum to keep one")
    witnessed.add_argument("--witness-every", type=_positive(float), default=5.0, metavar="SECONDS",
                           help="seconds between rounds of sending the latest checkpoint (default 5)")
    _serve_environment(command, environment)


def _said(err: Exception, lang: str = "en") -> str:
    """What a refusal says: a refused event's reason in the language asked for, where the catalog has its words,
    and its place as the log format writes it, "line N: ", in every language (a script reads it)."""
    if not isinstance(err, RefusedEvent):
        return str(err)
    reason = err.words[lang] if err.words else err.reason
    return reason if err.line is None else f"line {err.line}: {reason}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command: its exit status is 0, 1 where it found a problem (a tampered store, a database behind),
    2 where it could not run (a refused log, a store not there, a file missing, a bad option)."""
    args = parser().parse_args(argv)
    if args.command == "serve":  # the environment is read only for serve, so that a bad one stops only serve
        args = parser(environment=True).parse_args(argv)
    try:
        return int(args.run(args))
    except RefusedEvent as err:
        print(_said(err, getattr(args, "lang", "en")), file=sys.stderr)
        return COULD_NOT_RUN
    except BrokenPipeError:
        # The reader (say, `head`) stopped reading: not our error. Quiet the final flush too.
        _quiet_stdout()
        return 0
    except (MatchstateError, OSError) as err:
        print(f"matchstate: {err}", file=sys.stderr)
        return COULD_NOT_RUN
    finally:
        while _OPENED:
            _OPENED.pop().close()


if __name__ == "__main__":
    sys.exit(main())
