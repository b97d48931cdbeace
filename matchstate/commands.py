"""The ``matchstate`` command's entry: its sub-commands as ``--help`` lists them, and that help and the version
answered at once; every other command line goes to :func:`matchstate.cli.main`, which builds argparse's parser.

``--help`` is answered here, in argparse's own layout, because importing argparse costs more than Python takes to
start (it imports :mod:`re`, which alone costs 60 % of an empty interpreter's start); a test holds the two
layouts equal.
"""

from __future__ import annotations

import functools
import os
import sys

from .version import PACKAGE_VERSION

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy reads True)
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

PROG = "matchstate"
DESCRIPTION = "Polo match-state tracker, exact to USPA Rule 36."
VERSION = f"{PROG} {PACKAGE_VERSION}"
METAVAR = "COMMAND"
# The sub-commands in the order --help lists them, each with what it says of it (cli.py holds what each does).
COMMANDS = {
    "replay": "replay a match log and show each event's ruling",
    "rules": "print Rule 36 clauses or table cells by id (all ids without one)",
    "diagram": "print the free-hit state machine as Mermaid text",
    "db": "manage the store's database",
    "import": "store a match log as a new match (all of it or nothing), with new scorer and official keys",
    "backup": "copy the store and its two secret files into a new folder, consistent while appends go on",
    "restore": "put a backup back: the database (new or empty) and the secret files where the store looks for them",
    "keys": "the league key, a match's keys, the receipts' public key",
    "export": "print a stored match's log: as JSON Lines, each line as it was received, or as CSV, one row per "
              "event; or write every match's into a folder, a file each",
    "stats": "statistics per team and player over a season or a tournament",
    "matches": "list the stored matches with score and state",
    "remove": "remove a match and its events, with a reason: a recorded act",
    "correct": "put a corrected match.start in place of a match's, while nothing else is logged in it: a recorded "
               "act; keys kept",
    "show": "a stored match's timeline, as replay shows it",
    "verify": "check the hash chains and replay the rulings; exits 1 if anything is wrong",
    "archive": "write evidence bundles: a match's (or a season's) lines, rulings, league log proofs, checkpoint and "
               "policy",
    "witness": "run a C2SP tlog-witness: cosign the checkpoints of the logs it follows, each only if it extends the "
               "one before",
    "serve": "run the live service: API, scorer's console, review, records",
}
# argparse's own options of the top parser, with its words for them.
OPTIONS = {"-h, --help": "show this help message and exit", "--version": "show program's version number and exit"}
USAGE = f"usage: {PROG} [-h] [--version] {METAVAR} ..."
MAX_HELP_POSITION = 24  # argparse's default


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``matchstate`` command line ``argv`` (by default the process's): its exit status."""
    args = sys.argv[1:] if argv is None else list(argv)
    if args in (["-h"], ["--help"]) and (text := top_help(columns() - 2)) is not None:
        sys.stdout.write(text)
        return 0
    if args == ["--version"]:
        print(VERSION)
        return 0
    from .cli import main as run

    return run(args)


@functools.cache  # argparse makes a formatter for every option it is given: the terminal is asked once
def columns() -> int:
    """The terminal's width as shutil.get_terminal_size reads it: $COLUMNS, else standard output's, else 80
    (:mod:`shutil` itself imports bz2 and lzma)."""
    try:
        return int(os.environ["COLUMNS"]) or 80
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def top_help(width: int) -> str | None:
    """``matchstate --help`` as argparse's formatter lays it out ``width`` characters wide; None where its usage
    line would not fit on one line (argparse's layout of a wrapped usage is left to argparse)."""
    if len(USAGE) > width:
        return None
    positional = [(2, METAVAR, ""), *((4, name, said) for name, said in COMMANDS.items())]
    options = [(2, name, said) for name, said in OPTIONS.items()]
    help_position = min(max(indent + len(name) for indent, name, _ in positional + options) + 2, MAX_HELP_POSITION)
    lines = [USAGE, "", *wrap(DESCRIPTION, width), "", "positional arguments:",
             *_rows(positional, help_position, width), "", "options:", *_rows(options, help_position, width)]
    return "\n".join(lines) + "\n"


def _rows(rows: list[tuple[int, str, str]], help_position: int, width: int) -> Iterator[str]:
    """argparse's rows of arguments: the name, then its help from ``help_position`` on (under the name where the
    name is too long), wrapped."""
    for indent, name, said in rows:
        if not said:
            yield " " * indent + name
            continue
        said_lines = wrap(said, max(width - help_position, 11))
        if len(name) <= help_position - indent - 2:
            yield " " * indent + name.ljust(help_position - indent - 2) + "  " + said_lines.pop(0)
        else:
            yield " " * indent + name
        yield from (" " * help_position + line for line in said_lines)


def wrap(text: str, width: int) -> list[str]:
    """The lines of :func:`textwrap.wrap` (as argparse calls it) for ``text``, a sentence of words and single
    spaces: ported, since textwrap imports :mod:`re`. A line ends between words or after a hyphen that joins
    words; a word longer than a line is broken."""
    chunks = list(reversed(_chunks(text)))
    lines: list[str] = []
    while chunks:
        if chunks[-1] == " " and lines:
            chunks.pop()
        line: list[str] = []
        length = 0
        while chunks and length + len(chunks[-1]) <= width:
            length += len(chunks[-1])
            line.append(chunks.pop())
        if chunks and len(chunks[-1]) > width:  # a word longer than a line: as much of it as fits
            word, room = chunks[-1], width - length
            hyphen = word.rfind("-", 0, room)
            end = hyphen + 1 if hyphen > 0 and word[:hyphen].strip("-") else room
            line.append(word[:end])
            chunks[-1] = word[end:]
        if line and not line[-1].strip():  # a space (or nothing of a long word) last
            line.pop()
        if line:
            lines.append("".join(line))
    return lines


def _chunks(text: str) -> list[str]:
    """The words of ``text`` and the single spaces between them, a hyphenated word in pieces that each end with
    their hyphen: where a line may end, as textwrap splits ("free-hit" after two letters and before two)."""
    chunks: list[str] = []
    for word in text.split():
        if chunks:
            chunks.append(" ")
        start = 0
        for at in range(2, len(word) - 2):
            if word[at] == "-" and word[at - 2:at].isalpha() and word[at + 1:at + 3].isalpha():
                chunks.append(word[start:at + 1])
                start = at + 1
        chunks.append(word[start:])
    return chunks
