"""The league log over HTTP: what an append's answer proves (its models, for the API's description), the latest
signed checkpoint, and consistency proofs between two of its trees, for a page or anyone who kept a checkpoint to
check that the log only grew (the Go checksum database client's model)."""

from __future__ import annotations

import base64
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, Field

from ..errors import MatchstateError, NotFound
from ..words import phrases
from .answers import answers, refusals, refused_in_json
from .service import Service

router = APIRouter(prefix="/api/log", tags=["league log"])
MOST_LEAVES = 2**62  # a size past any log's, refused before it is looked for


def proof_fields(receipt: dict[str, Any]) -> dict[str, str | None]:
    """An append's answer's ``checkpoint`` and ``proof``, from its receipt."""
    proof = receipt.get("proof")
    return {"checkpoint": proof.partition("\n\n")[2] if proof else None, "proof": proof}


class Consistency(BaseModel):
    """RFC 6962 consistency proof that the log's tree of ``from`` leaves is a prefix of its tree of ``to``."""

    from_: int = Field(alias="from")
    to: int
    proof: list[str] = Field(description="the proof's hashes in base64, as RFC 9162 section 2.1.4 orders them")


def _refused(kind: type[MatchstateError], key: str, /, **fields: object) -> MatchstateError:
    """The refusal [refusal-log] ``key``, in every language."""
    words = phrases("refusal-log", key, **fields)
    err = kind(words["en"])
    err.words = words
    return err


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


class LogKey(BaseModel):
    """The league log's origin and its checkpoints' key."""

    origin: str
    vkey: str = Field(description="the key as a C2SP verifier key (c2sp.org/signed-note)")


@router.get("/key", response_model=None, responses=answers(200, LogKey, "The log's origin and key", 429, 503))
def log_key(request: Request) -> dict[str, str]:
    """The league log's origin and the key that signs its checkpoints, as a C2SP verifier key (vkey)."""
    log = _service(request).store.log
    return {"origin": log.origin, "vkey": log.signer.verifier.vkey()}


@router.get("/checkpoint", response_class=PlainTextResponse,
            responses={200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                             "description": "The latest signed checkpoint (c2sp.org/tlog-checkpoint)"},
                       **refused_in_json(refusals(429, 503, _404="The log has no checkpoint yet"))})
def latest_checkpoint(request: Request) -> PlainTextResponse:
    """The league log's latest signed checkpoint: its origin, size and root hash, signed by the league's key."""
    checkpoint = _service(request).store.log.latest()[1]
    if checkpoint is None:
        raise _refused(NotFound, "no-checkpoint")
    return PlainTextResponse(checkpoint, headers={"Cache-Control": "no-store"})


@router.get("/consistency", response_model=None,
            responses=answers(200, Consistency, "The proof", 429, 503,
                              _400="The sizes make no proof: `from` is more than `to`, or `to` more than the log "
                                   "holds",
                              _422="`from` or `to` is not a size of a tree"))
def consistency(request: Request, old: Annotated[int, Query(alias="from", ge=1, le=MOST_LEAVES)],
                to: Annotated[int, Query(ge=1, le=MOST_LEAVES)]) -> dict[str, Any]:
    """The proof that the league log's tree of `from` leaves is a prefix of its tree of `to` leaves: a page that
    kept a checkpoint accepts a newer one only with it."""
    if old > to:
        raise _refused(MatchstateError, "consistency-order", old=old, to=to)
    try:
        proof = _service(request).store.log.proven_extension(old, to)
    except ValueError:  # the one reason left: the log holds fewer leaves (a copy restored from before it had them)
        raise _refused(MatchstateError, "consistency-fewer", old=old, to=to) from None
    return {"from": old, "to": to, "proof": [base64.b64encode(step).decode("ascii") for step in proof]}
