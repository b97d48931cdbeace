"""The evidence bundles' commands (``matchstate archive``, ``matchstate verify --bundle``): :data:`COMMAND` and
:func:`verify_options`, which the command line's parser takes."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from .errors import MatchstateError
from .version import ENGINE_VERSION

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: --help stays quick (mypy reads True)
if TYPE_CHECKING:
    from .cli import Work


def cmd_archive(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .cli import open_store
    from .evidence import TILES, archive, season_codes
    from .records.stats import YEAR

    store = open_store()
    if (args.match is None) == (args.season is None):
        raise MatchstateError("archive one MATCH or a --season YYYY, not both nor neither")
    if args.season is not None and not (YEAR.fullmatch(args.season) and int(args.season)):
        raise MatchstateError(f"--season is a year, YYYY, not {args.season!r}")  # it archived no match, silently
    codes = [args.match] if args.match is not None else season_codes(store, args.season)
    if args.freeze:
        from .store.logkeys import LogKeys

        if args.season is None:
            raise MatchstateError("--freeze freezes a --season: its last checkpoint signed, its key retired")
        size, _ = LogKeys(store.secrets).rotate(store)
        print(f"frozen at {size} leaves: the log key that signed the season is retired; a new one signs from here")
    witnessed = None
    if policy_file := args.witness_policy or os.environ.get("MATCHSTATE_WITNESS_POLICY"):
        from .errors import NotProven
        from .tlog.policy import Policy

        try:
            witnessed = Policy.parse(Path(policy_file).read_bytes())
        except (OSError, NotProven) as err:
            raise MatchstateError(f"--witness-policy {policy_file}: {err}") from None
    for folder in archive(store, codes, Path(args.dir), witnessed):
        print(folder)
    if args.season is not None:  # the whole league log too, as static tiles a web host or mirror keeps
        from .store.logtiles import write_tiles

        write_tiles(store, Path(args.dir) / TILES)
        print(Path(args.dir) / TILES)
    return 0


def _verify_or_bundle(verify: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        from pathlib import Path

        if args.report is not None:
            from .misbehaviour import check_report

            shown, said = check_report(Path(args.report))
            print("\n".join(said))
            return 1 if shown else 0
        if args.bundle is None:
            return verify(args)
        from .evidence import LIST, bundle_receipts, verify_bundle  # only when a bundle is checked
        from .log import read_lines
        from .store.receipts import read_public_key

        if args.match is not None:
            raise MatchstateError("verify --bundle DIR checks the bundle alone: no MATCH")
        if not Path(args.bundle).is_dir():  # nothing to check is a command that could not run, not a problem found
            raise MatchstateError(f"no such folder: {Path(args.bundle).resolve()}")
        league = tuple(read_public_key(path) for path in args.public_key or ())
        report = verify_bundle(Path(args.bundle), ENGINE_VERSION, league)
        for line in [*report.problems, *report.notes]:
            print(line)
        if report.problems:
            return 1
        print(report.proven())
        print(report.trusted())
        if report.headless:  # archived before heads were, or its head removed: the bundle cannot say which
            print(f"but {len(report.headless)} of them have no signed head, so lines cut from their end would not be "
                  f"found: {', '.join(report.headless)}")
        if report.unlisted:  # archived before lists were, or its list removed
            print(f"but the folder has no signed list of its matches ({LIST}), so a match's bundle removed from it "
                  "would not be found")
        if args.receipts is None:
            return 0
        held, problems = bundle_receipts(Path(args.bundle), list(read_lines(args.receipts)))
        for line in problems:
            print(line)
        print(f"receipts: {held} of those read hold")
        return 1 if problems else 0

    return run


def _archive(archive_cmd: argparse.ArgumentParser) -> None:
    archive_cmd.add_argument("match", nargs="?", help="the match's code")
    archive_cmd.add_argument("dir", help="the folder to write the bundles into")
    archive_cmd.add_argument("--season", metavar="YYYY", help="every match whose match.start is in that year")
    archive_cmd.add_argument("--witness-policy", metavar="FILE", help="the league's witness policy (default "
                             "$MATCHSTATE_WITNESS_POLICY): the bundle holds the latest checkpoint its quorum "
                             "cosigned, and its policy asks for that quorum")
    archive_cmd.add_argument("--freeze", action="store_true", help="first rotate the league log's key: the "
                             "season's last checkpoint is the old key's last, and the policy says so")


COMMAND: Work = (cmd_archive, _archive)  # `matchstate archive`: its work and its options


def verify_options(verify_cmd: argparse.ArgumentParser) -> None:
    """Add ``--bundle`` and ``--report`` to ``verify_cmd``."""
    verify_cmd.add_argument("--bundle", metavar="DIR", help="check an evidence bundle (`matchstate archive`) with "
                                                            "no database and no secret")
    verify_cmd.add_argument("--report", metavar="FILE", help="check a misbehaviour report a page saved (a fork or a "
                                                             "rollback of the league log), with no server: exit 1 "
                                                             "where it shows one")
    verify_cmd.set_defaults(run=_verify_or_bundle(verify_cmd.get_default("run")))
