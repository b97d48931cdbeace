"""A league server's witnesses (``serve --witness-policy FILE``): it sends the league log's new checkpoints to the
witnesses a C2SP tlog-policy names, keeps each checkpoint whose cosignatures meet the policy's quorum, and stops
taking writes when the witnesses show its log is behind what they cosigned (a store restored from an older copy)
or forked from it.

Each round (every ``--witness-every`` seconds, off the appends' path, in a background task) reads the log's latest
checkpoint and, for each witness with a URL, POSTs it to ``<url>/add-checkpoint`` with the consistency proof
from the size that witness last cosigned (a witness not yet heard from is asked from 0: its 409 names its size,
and the request goes again from there). A witness whose size is above the log's, or whose proof from its size
does not verify (422), has seen another log: where such witnesses make the quorum (with ``quorum none``: every
witness asked), the server refuses every write (503, the reason in both languages), ``/readyz`` answers 503 with
it and ``GET /api/log/witnesses`` says so, until an operator mends the store and restarts it. Writes wait for the
first round (503 until it ends), so a restarted copy cannot append before its witnesses are asked.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import NotProven
from ..store import Store, cosignatures
from ..tlog.note import Note
from ..tlog.policy import NONE, Policy, Witness
from ..words import Words, phrases
from .faults import RETRY_AFTER_SECONDS

log = logging.getLogger(__name__)
EVERY_SECONDS = 5.0  # between rounds, by default
TIMEOUT_SECONDS = 10.0  # a witness that answers slower is asked again next round
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def post(url: str, body: bytes) -> tuple[int, str]:
    """POST ``body`` to ``url``: the answer's status and text (status 0: no answer, the text says why)."""
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "text/plain"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read().decode("utf-8", "replace")
    except (OSError, ValueError) as err:
        return 0, str(err)


@dataclass
class Heard:
    """What the server knows of one witness: the size it last cosigned (as far as known) and its last answer."""

    size: int = 0
    answer: str = "not asked yet"


@dataclass
class Witnessing:
    """The witnessing of ``store``'s league log under ``policy`` (see the module's docstring)."""

    store: Store
    policy: Policy
    every: float = EVERY_SECONDS
    send: Callable[[str, bytes], tuple[int, str]] = post
    clock: Callable[[], datetime] = lambda: datetime.now(UTC)
    heard: dict[str, Heard] = field(default_factory=dict)
    halted: Words | None = None
    rounds: int = 0

    @property
    def asked(self) -> list[Witness]:
        return [witness for witness in self.policy.witnesses.values() if witness.url]

    async def run(self) -> None:
        """Rounds until cancelled."""
        while self.halted is None:
            try:
                await asyncio.to_thread(self.round)
            except Exception:  # a round that fails is tried again; the appends go on as they were
                log.exception("witnessing: the round failed")
            self.rounds += 1
            await asyncio.sleep(self.every)

    def round(self) -> None:
        """Send the latest checkpoint to every witness; keep it where the quorum cosigned it; halt where the
        witnesses saw another log."""
        with self.store.database.transaction() as connection:
            size, _, note = self.store.log.head(connection)
        if note is None:
            return
        kept = cosignatures.latest(self.store.database)
        if kept is not None and kept[0] >= size and all(self.heard.get(w.name, Heard()).size == size
                                                        for w in self.asked):
            return  # cosigned already, and every witness is known to be there (never so before its first answer)
        lines, elsewhere = [], []
        for witness in self.asked:
            heard = self.heard.setdefault(witness.name, Heard())
            for _ in range(2):  # a 409 names the witness's size: once more from there
                if heard.size > size:
                    heard.answer = f"cosigned {heard.size} leaves, more than this log's {size}"
                    elsewhere.append(witness.name)
                    break
                status, text = self.send(f"{witness.url or ''}".rstrip("/") + "/add-checkpoint",
                                         self._request(heard.size, size, note))
                heard.answer = f"{status} {text.strip()}"[:200]
                if status == 409 and text.strip().isdigit():
                    heard.size = int(text)
                    continue
                if status == 200:
                    heard.size = size
                    lines.append(text)
                elif status == 422:
                    elsewhere.append(witness.name)
                else:
                    log.warning("witnessing: %s answered %s", witness.name, heard.answer)
                break
        self._keep(size, note, lines)
        self._halt_if(elsewhere, size)

    def _request(self, old: int, size: int, note: str) -> bytes:
        """The add-checkpoint body of ``note`` (of ``size`` leaves) from ``old``: a short read of its own, never
        held while a witness answers (the proof's nodes never change)."""
        proof: list[bytes] = []
        if old:
            with self.store.database.transaction() as connection:
                proof = self.store.log.consistency(connection, old, size)
        lines = [f"old {old}", *(base64.b64encode(step).decode("ascii") for step in proof)]
        return ("".join(line + "\n" for line in lines) + "\n" + note).encode("utf-8")

    def _keep(self, size: int, note: str, lines: list[str]) -> None:
        try:
            cosigned = Note.parse(note + "".join(lines))
            names = self.policy.cosigners(cosigned)
        except NotProven as err:
            log.warning("witnessing: a witness's answer does not verify: %s", err)
            return
        if names and self.policy.witnessed(names):
            cosignatures.keep(self.store.database, size, str(cosigned), self.clock())

    def _halt_if(self, elsewhere: list[str], size: int) -> None:
        if not elsewhere:
            return
        everyone = {witness.name for witness in self.asked}
        if (self.policy.witnessed(elsewhere) if self.policy.quorum != NONE else set(elsewhere) == everyone):
            self.halted = phrases("witness", "halted", size=size, witnesses=", ".join(sorted(elsewhere)))
            log.error("witnessing: %s", self.halted["en"])
        else:
            log.warning("witnessing: %s saw another log than this one (%s leaves), short of the quorum",
                        ", ".join(elsewhere), size)

    def refusal(self) -> Words | None:
        """Why writes are refused now (None: they are not)."""
        if self.halted is not None:
            return self.halted
        return phrases("witness", "first-round") if self.rounds == 0 else None

    def status(self) -> dict[str, object]:
        kept = cosignatures.latest(self.store.database)
        return {"state": "halted" if self.halted else "witnessing" if self.rounds else "starting",
                "reason": self.halted, "quorum": self.policy.quorum, "cosigned_size": kept[0] if kept else None,
                "witnesses": [{"name": witness.name, "size": self.heard.get(witness.name, Heard()).size,
                               "answer": self.heard.get(witness.name, Heard()).answer} for witness in self.asked]}

    def mount(self, app: FastAPI) -> None:
        """The routes and the write guard of this witnessing, on ``app``."""
        app.state.witnessing = self
        app.add_api_route("/api/log/cosigned", cosigned, methods=["GET"], tags=["log"], response_model=None,
                          summary="the latest checkpoint of the league log that met the witness policy's quorum")
        app.add_api_route("/api/log/witnesses", witnesses, methods=["GET"], tags=["log"],
                          summary="what the server knows of its witnesses, and whether it takes writes")
        app.add_middleware(HaltedWrites, witnessing=self)


async def cosigned(request: Request) -> Response:
    kept = await asyncio.to_thread(cosignatures.latest, request.app.state.witnessing.store.database)
    if kept is None:
        words = phrases("witness", "none-cosigned")
        return JSONResponse({"detail": words["en"], "words": words}, status_code=404)
    return PlainTextResponse(kept[1])


async def witnesses(request: Request) -> JSONResponse:
    return JSONResponse(await asyncio.to_thread(request.app.state.witnessing.status))


class HaltedWrites:
    """Refuse every write to the API with 503 while the witnessing refuses them (see the module's docstring)."""

    def __init__(self, app: ASGIApp, witnessing: Witnessing) -> None:
        self.app, self.witnessing = app, witnessing

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS and scope["path"].startswith("/api/"):
            reason = self.witnessing.refusal()
            if reason is not None:
                # stopped: until an operator acts (a page says so), not for the first round's moment
                body = {"detail": reason["en"], "words": reason, "stopped": self.witnessing.halted is not None}
                answer = JSONResponse(body, status_code=503,
                                      headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def from_file(store: Store, path: str, every: float) -> Witnessing:
    """The witnessing the tlog-policy file at ``path`` asks for; :class:`~matchstate.errors.MatchstateError`
    naming what is wrong with it."""
    from ..errors import MatchstateError

    try:
        with open(path, "rb") as file:
            policy = Policy.parse(file.read())
    except (OSError, NotProven) as err:
        raise MatchstateError(f"--witness-policy {path}: {err}") from None
    if not any(witness.url for witness in policy.witnesses.values()):
        raise MatchstateError(f"--witness-policy {path}: no witness has a URL to send the checkpoints to")
    return Witnessing(store, policy, every)
