"""A log made in memory and a witness run as ``matchstate witness`` in a subprocess, for the witness's tests."""

from __future__ import annotations

import base64
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from matchstate.tlog import merkle
from matchstate.tlog.checkpoint import Checkpoint
from matchstate.tlog.note import Signer
from matchstate.web.process import free_port


class MemoryLog:
    """A log of ``origin`` in memory: its leaves and its key."""

    def __init__(self, origin: str = "example.org/league") -> None:
        self.signer = Signer(origin, Ed25519PrivateKey.generate())
        self.leaves = merkle.Leaves()

    def grow(self, count: int) -> None:
        for _ in range(count):
            self.leaves.append(merkle.leaf_hash(f"leaf {len(self.leaves)}".encode()))

    def checkpoint(self, size: int | None = None, signer: Signer | None = None) -> str:
        size = len(self.leaves) if size is None else size
        return Checkpoint(self.signer.name, size, merkle.root(self.leaves, size)).signed(signer or self.signer)

    def body(self, old: int, size: int | None = None, proof: list[bytes] | None = None,
             note: str | None = None) -> bytes:
        """An add-checkpoint body from ``old`` to ``size`` (default: every leaf), with the true proof unless given."""
        size = len(self.leaves) if size is None else size
        if proof is None:
            proof = merkle.consistency_proof(self.leaves, old, size) if old else []
        lines = [f"old {old}", *(base64.b64encode(step).decode() for step in proof)]
        return ("\n".join(lines) + "\n\n" + (note or self.checkpoint(size))).encode()


def until(condition: Callable[[], object], what: str, seconds: float = 60) -> None:
    """Wait for ``condition`` (a condition, not a time: the deadline only ends a test that would hang)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.02)


def post(url: str, body: bytes) -> tuple[int, str, str]:
    """POST ``body``: the status, content type and text of the answer."""
    request = urllib.request.Request(url, data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers["Content-Type"], refused.read().decode()


@contextlib.contextmanager
def running_witness(folder: Path, logs: str, name: str = "witness.example/w1") -> Iterator[tuple[str, str]]:
    """``matchstate witness`` following the logs of the policy text ``logs``: its URL and its policy line."""
    (folder / "logs").write_text(logs)
    port = free_port()
    command = [sys.executable, "-m", "matchstate", "witness", "--name", name, "--key", str(folder / "key.pem"),
               "--logs", str(folder / "logs"), "--state", str(folder / "state.db"), "--port", str(port)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        assert process.stdout is not None
        line = process.stdout.readline().strip()
        while True:  # until it listens (or has died)
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}", line
    finally:
        process.terminate()
        process.wait(timeout=30)
