"""``matchstate witness``: run a witness (its key and state made on first run), or print its policy line."""

from __future__ import annotations

import argparse
import time

from ..errors import MatchstateError, NotProven

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: --help stays quick (mypy reads True)
if TYPE_CHECKING:  # the command line imports this module for its options: the rest is read when a witness runs
    from pathlib import Path

    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ..cli import Work


def key_file(path: Path) -> Ed25519PrivateKey:
    """The Ed25519 key in the PEM file at ``path``, made (mode 0600, and said) where there is none, in a folder
    that is there: a mistyped folder is refused, not made, so no stray key is printed for a policy."""
    import sys

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from ..store.secretfiles import _create

    if not path.exists():
        if not path.parent.is_dir():
            raise MatchstateError(f"--key {path}: no such folder as {path.parent} (a new key is made only in a "
                                  "folder that is there)")
        _create(path, Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
        print(f"a new witness key made at {path}", file=sys.stderr)
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except ValueError:
        key = None
    if not isinstance(key, Ed25519PrivateKey):
        raise MatchstateError(f"{path} is not an Ed25519 private key in PEM")
    return key


def cmd_witness(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..tlog.cosignature import Cosigner
    from ..tlog.policy import Policy

    cosigner = Cosigner(args.name, key_file(Path(args.key)))
    url = f"http://{args.host}:{args.port}"
    print(f"witness {args.name} {cosigner.verifier.vkey()} {url}", flush=True)  # the league's policy line
    if args.print_vkey:
        return 0
    if args.logs is None or args.state is None:
        raise MatchstateError("a witness runs with --logs FILE (the logs it follows) and --state FILE")
    try:
        logs = Policy.parse(Path(args.logs).read_bytes(), quorum_needed=False)
    except NotProven as err:
        raise MatchstateError(f"{args.logs}: {err}") from None
    if not logs.logs:
        raise MatchstateError(f"{args.logs} names no log (a 'log <vkey>' line) for the witness to follow")

    import uvicorn

    from .app import create_witness_app
    from .state import WitnessState
    from .witness import Witness

    witness = Witness(cosigner, logs, WitnessState(Path(args.state)), lambda: int(time.time()))
    uvicorn.run(create_witness_app(witness), host=args.host, port=args.port, log_level="info")
    return 0


def _key_name(text: str) -> str:
    """``--name``, refused where its policy line would be (a name with a space, a '+', nothing)."""
    from ..tlog.note import checked_name

    try:
        return checked_name(text)
    except NotProven as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def _options(witness_cmd: argparse.ArgumentParser) -> None:
    from .. import cli

    witness_cmd.add_argument("--name", required=True, type=_key_name,
                             help="the witness's key name (say, witness.example.org/w1)")
    witness_cmd.add_argument("--key", required=True, metavar="FILE",
                             help="its Ed25519 private key, PEM (made, mode 0600, where there is none)")
    witness_cmd.add_argument("--logs", metavar="FILE", help="a tlog-policy file whose 'log' lines are the logs "
                                                            "it follows")
    witness_cmd.add_argument("--state", metavar="FILE", help="its SQLite file: the latest checkpoint it cosigned "
                                                             "of each log")
    witness_cmd.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    witness_cmd.add_argument("--port", type=cli.port_number, default=8100, help="port (default 8100)")
    witness_cmd.add_argument("--print-vkey", action="store_true",
                             help="print its policy line ('witness <name> <vkey> <url>') and stop")


COMMAND: Work = (cmd_witness, _options)  # `matchstate witness`: its work and its options
