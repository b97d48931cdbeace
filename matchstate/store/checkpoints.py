"""The engine's checkpoints, stored: a match resumed from its last one instead of replayed from its start.

A cold append to a long match (a server just started, or the match left the cache) reads the match's
checkpoint and the events after it, not the whole match. The blob is the engine's
:class:`~matchstate.engine.match.Checkpoint` as JSON, each value tagged with its type and only the
engine's own value types rebuilt from it (never pickle). A checkpoint is only a cache, and is never
trusted over the log: it is used only where its seal (the store secret's HMAC of the match's code, its
seq, the chain's hash at that seq, the engine version and the blob's SHA-256) holds, its engine version is
the reading store's and its blob's format this module's, and the stored events after it chain on from its
hash to the match's head. Anything else, and the match is replayed from its start. ``verify`` replays the
log and reads no checkpoint.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, bindparam, select

from ..engine import Checkpoint, Match
from ..engine.clock import Clock
from ..engine.judges import Foul
from ..engine.play import Play
from ..log import parse_line
from ..models import CheckpointRow, EventRow
from ..rules import ClockSettings
from ..rulings import FreeHit, Ruling, Why
from .dialects import Statements
from .seals import holds, seal

FORMAT = 5  # of the blob: a checkpoint of another format is ignored (2: the officials' fields of log format 1.2;
# 3: a ruling keeps its reason, and is worded when read; 4: every chukker.end kept, by its seq; 5: every review
# outcome kept with its request, struck out or not)
STORED_EVERY = 32  # events between a match's stored checkpoints (one costs about 0.1 ms to write)
# The fields of Play that the match.start gives (Match.resume sets them): the rest is the blob's.
FROM_THE_START = ("conditions", "wording")
PLAY_FIELDS = tuple(f.name for f in fields(Play) if f.name not in FROM_THE_START)
VALUES: dict[str, type] = {kind.__name__: kind for kind in (FreeHit, Ruling, Why, Foul, Clock, ClockSettings)}

CHECKPOINT = (select(CheckpointRow.seq, CheckpointRow.hash, CheckpointRow.engine_version, CheckpointRow.blob,
                     CheckpointRow.seal, EventRow.raw.label("start"))
              .join(EventRow, and_(EventRow.match_id == CheckpointRow.match_id, EventRow.seq == 1))
              .where(CheckpointRow.match_id == bindparam("match_id")))


class Checkpoints:
    """The stored checkpoints of one store: ``engine_version`` its engine's, ``secret`` its secret (None where
    it has none at hand: then no checkpoint is read or written)."""

    def __init__(self, statements: Statements, engine_version: str, secret: Callable[[], bytes | None]) -> None:
        self.engine_version = engine_version
        self._secret = secret
        statement = statements.upsert(CheckpointRow)
        self._upsert = statement.on_conflict_do_update(index_elements=[CheckpointRow.match_id], set_={
            name: statement.excluded[name] for name in ("seq", "hash", "engine_version", "blob", "seal")})

    def load(self, connection: Connection, code: str, match_id: int) -> tuple[Match, str] | None:
        """Match ``code`` resumed from its stored checkpoint, and the chain's hash at its seq; None where it has
        none that holds (the caller checks that the events after it chain on from that hash)."""
        secret = self._secret()
        if secret is None:
            return None
        row = connection.execute(CHECKPOINT, {"match_id": match_id}).first()
        if row is None or row.engine_version != self.engine_version:
            return None
        if not holds(row.seal, _seal(secret, code, row.seq, row.hash, row.engine_version, row.blob)):
            return None
        try:
            checkpoint = decode(row.blob)
            if checkpoint.seq != row.seq:
                return None
            return Match.resume(parse_line(row.start), checkpoint), row.hash
        except (ValueError, TypeError, KeyError, AttributeError):  # a blob this engine cannot read
            return None

    def store(self, connection: Connection, code: str, match_id: int, match: Match, digest: str) -> bool:
        """Store ``match``'s checkpoint as the one of match ``code``, whose chain's hash at its seq is ``digest``;
        False where there is no secret to seal it with."""
        secret = self._secret()
        if secret is None:
            return False
        blob = encode(match.checkpoint())
        connection.execute(self._upsert, {
            "match_id": match_id, "seq": match.seq, "hash": digest, "engine_version": self.engine_version,
            "blob": blob, "seal": _seal(secret, code, match.seq, digest, self.engine_version, blob)})
        return True


def _seal(secret: bytes, code: str, seq: int, digest: str, engine_version: str, blob: bytes) -> str:
    return seal(secret, "checkpoint", {"match": code, "seq": seq, "hash": digest, "engine_version": engine_version,
                                       "blob": hashlib.sha256(blob).hexdigest()})


# -- the blob ------------------------------------------------------------------------------------------

def encode(checkpoint: Checkpoint) -> bytes:
    """The checkpoint as the blob's JSON."""
    writer = _Writer()
    play = checkpoint.play
    return json.dumps({
        "format": FORMAT, "seq": checkpoint.seq, "last_at": writer.value(checkpoint.last_at),
        "voids": writer.value(dict(checkpoint.voids)), "answers": writer.value(dict(checkpoint.answers)),
        "play": {name: writer.value(getattr(play, name)) for name in PLAY_FIELDS},
    }, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


def decode(blob: bytes) -> Checkpoint:
    """The checkpoint in a blob; ValueError, TypeError or KeyError where it is not one of this format."""
    found = json.loads(blob)
    if found["format"] != FORMAT or set(found["play"]) != set(PLAY_FIELDS):
        raise ValueError("not a checkpoint of this format")
    reader = _Reader()
    values = {name: reader.value(found["play"][name]) for name in PLAY_FIELDS}
    # The match.start's conditions and wording replace these in Match.resume.
    play = Play(None, None, **values)  # type: ignore[arg-type]
    return Checkpoint(found["seq"], reader.value(found["last_at"]), play, reader.value(found["voids"]),
                      reader.value(found["answers"]))


def _names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(kind)) if is_dataclass(kind) else kind._fields  # type: ignore[attr-defined]


class _Writer:
    """Values as JSON, each container and engine value tagged; an engine value met again is a reference to the
    first (the play tells the free hit a failure gave from an equal one by identity)."""

    def __init__(self) -> None:
        self._seen: dict[int, int] = {}  # id of an engine value -> its number, in the order they were written

    def value(self, value: Any) -> Any:
        kind = type(value)
        if value is None or kind in (str, int, float, bool):
            return value
        if kind is datetime:
            return {"datetime": value.isoformat()}
        if kind is list:
            return [self.value(item) for item in value]
        if kind is tuple:
            return {"tuple": [self.value(item) for item in value]}
        if kind is dict:
            return {"dict": [[self.value(key), self.value(item)] for key, item in value.items()]}
        if VALUES.get(kind.__name__) is not kind:
            raise TypeError(f"a checkpoint cannot hold a {kind.__name__}")
        if id(value) in self._seen:
            return {"same": self._seen[id(value)]}
        written = {kind.__name__: {name: self.value(getattr(value, name)) for name in _names(kind)}}
        self._seen[id(value)] = len(self._seen)  # numbered once written whole, as the reader rebuilds them
        return written


class _Reader:
    """The values :class:`_Writer` wrote: only JSON's own, and the engine's value types in :data:`VALUES`."""

    def __init__(self) -> None:
        self._made: list[Any] = []

    def value(self, found: Any) -> Any:
        if type(found) is list:
            return [self.value(item) for item in found]
        if type(found) is not dict:
            return found
        ((tag, body),) = found.items()
        if tag == "datetime":
            return datetime.fromisoformat(body)
        if tag == "tuple":
            return tuple(self.value(item) for item in body)
        if tag == "dict":
            return {self.value(key): self.value(item) for key, item in body}
        if tag == "same":
            return self._made[body]
        made = VALUES[tag](**{name: self.value(item) for name, item in _mapping(body).items()})
        self._made.append(made)
        return made


def _mapping(body: Any) -> Mapping[str, Any]:
    if type(body) is not dict:
        raise TypeError("an engine value's fields are an object")
    return body
