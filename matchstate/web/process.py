"""``matchstate serve`` in a child process, for the browser test, the screenshots and the bench."""

from __future__ import annotations

import os
import resource
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


# How long start waits for the server's first answer: only a guard against a server that never comes up, as
# a loaded machine (the whole suite beside other work on two cores) may take many seconds to start one.
START_TIMEOUT = 180.0


class ServerProcess:
    """A real server on 127.0.0.1 over the database at ``url``; it can be stopped and started again
    on the same port, as a pitch-side laptop's server might go away and come back. ``private`` serves
    it as ``matchstate serve --private``; ``options`` are more of ``serve``'s options; ``file_limit``
    is the server process's limit on open files (``ulimit -n``), where not the caller's; with ``https``
    its options make it serve HTTPS (``--tls``, say), and it is waited for over HTTPS."""

    def __init__(self, url: str, port: int | None = None, log: Path | None = None, private: bool = False,
                 options: Sequence[str] = (), file_limit: int | None = None, https: bool = False) -> None:
        self.url = url
        self.private = private
        self.options = list(options)
        self.file_limit = file_limit
        self.port = port or free_port()
        self.base = f"{'https' if https else 'http'}://127.0.0.1:{self.port}"
        # Only to learn that it answers: the caller checks its certificate as it needs.
        self._waiting_context = ssl._create_unverified_context() if https else None
        self.log = log
        self._process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = START_TIMEOUT, clock: Callable[[], float] = time.monotonic) -> None:
        """Start the server and return once it answers; ``timeout`` seconds by ``clock`` only guard against
        one that never does (it exited, or hangs)."""
        env = {**os.environ, "MATCHSTATE_DATABASE_URL": self.url}
        with open(self.log or os.devnull, "ab") as out:  # the child keeps its own copy open
            self._process = subprocess.Popen(self.command(), env=env, stdout=out, stderr=subprocess.STDOUT,
                                             preexec_fn=self._limit_files)
        deadline = clock() + timeout
        while clock() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"matchstate serve exited with {self._process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/event-types", timeout=1,
                                            context=self._waiting_context):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"matchstate serve did not answer on port {self.port} within {timeout} s")

    def command(self) -> list[str]:
        """The child's command line: ``matchstate serve`` on this port with the options."""
        return [sys.executable, "-m", "matchstate.cli", "serve", "--port", str(self.port),
                *(["--private"] if self.private else []), *self.options]

    def _limit_files(self) -> None:
        if self.file_limit is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.file_limit, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    def stop(self) -> None:
        if self._process is None:
            return
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._process = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop()
