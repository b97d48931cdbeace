"""C2SP transparency log policies (c2sp.org/tlog-policy): which logs' keys sign checkpoints, which witnesses
cosign them, and the quorum of cosignatures a checkpoint needs to be believed::

    log <vkey> [<url>]
    witness <name> <vkey> [<url>]
    group <name> all|any|<k> <name>...
    quorum <name>|none

Keys that change: a log key may be valid for a range of tree sizes only, said by a comment line (which other
tlog-policy readers skip, so the file stays a standard policy for them)::

    # matchstate log-key <key name>+<key ID> sizes <first>..[<last>]

A checkpoint of size n counts as signed by that key only where first <= n <= last (no last: from first on). A
rotated key is valid up to the size its successor took over at; a frozen season's key up to its last checkpoint's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..errors import NotProven
from .checkpoint import Checkpoint, SignedCheckpoint
from .cosignature import cosigned_at
from .note import COSIGNATURE, ED25519, Note, Verifier

NONE = "none"
_VALIDITY = re.compile(r"#\s*matchstate\s+log-key\s+(\S+)\s+sizes\s+(0|[1-9][0-9]*)\.\.(0|[1-9][0-9]*)?")


@dataclass(frozen=True, slots=True)
class LogKey:
    """A log's key, its URL if any, and the tree sizes it may sign (``last`` None: no end)."""

    verifier: Verifier
    url: str | None = None
    first: int = 0
    last: int | None = None

    def valid_for(self, size: int) -> bool:
        return self.first <= size and (self.last is None or size <= self.last)

    @property
    def handle(self) -> str:
        return self.verifier.handle


@dataclass(frozen=True, slots=True)
class Witness:
    name: str
    verifier: Verifier
    url: str | None = None


@dataclass(frozen=True, slots=True)
class Group:
    name: str
    threshold: int
    members: tuple[str, ...]


@dataclass(frozen=True)
class Policy:
    """A parsed policy (see the module's docstring); ``quorum`` None only where none was asked for (a witness's
    list of the logs it follows)."""

    logs: tuple[LogKey, ...]
    witnesses: Mapping[str, Witness] = field(default_factory=dict)
    groups: Mapping[str, Group] = field(default_factory=dict)
    quorum: str | None = NONE

    @classmethod
    def parse(cls, text: str | bytes, *, quorum_needed: bool = True) -> Policy:
        """A policy from its text; :class:`NotProven` naming the line that is wrong."""
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="surrogateescape")
        if any((ord(char) < 0x20 and char not in "\t\n") or ord(char) == 0x7F for char in text):
            raise NotProven("a policy holds no control character but tab and newline")
        logs: list[LogKey] = []
        witnesses: dict[str, Witness] = {}
        groups: dict[str, Group] = {}
        quorum: str | None = None
        validity: dict[str, tuple[int, int | None]] = {}
        for number, line in enumerate(text.split("\n"), 1):
            words = line.split()
            if words and words[0].startswith("#"):
                if found := _VALIDITY.match(line.strip()):
                    validity[found[1]] = int(found[2]), None if found[3] is None else int(found[3])
                continue
            try:
                if not words:
                    continue
                if words[0] == "log" and len(words) in (2, 3):
                    logs.append(LogKey(_key(words[1], ED25519), words[2] if len(words) == 3 else None))
                elif words[0] == "witness" and len(words) in (3, 4):
                    _new_name(words[1], witnesses, groups)
                    witnesses[words[1]] = Witness(words[1], _key(words[2], COSIGNATURE),
                                                  words[3] if len(words) == 4 else None)
                elif words[0] == "group" and len(words) >= 4:
                    _new_name(words[1], witnesses, groups)
                    groups[words[1]] = _group(words[1], words[2], words[3:], witnesses, groups)
                elif words[0] == "quorum" and len(words) == 2 and quorum is None:
                    if words[1] != NONE and words[1] not in witnesses and words[1] not in groups:
                        raise NotProven(f"the quorum {words[1]!r} is no witness or group named before it")
                    quorum = words[1]
                else:
                    raise NotProven("it is not a log, witness, group or (one) quorum line")
            except NotProven as err:
                raise NotProven(f"the policy's line {number} ({line.strip()!r}): {err}") from None
        publics = [key.verifier.public for key in logs] + [w.verifier.public for w in witnesses.values()]
        if len(set(publics)) != len(publics):
            raise NotProven("the policy names one public key twice")
        if quorum is None and quorum_needed:
            raise NotProven("the policy has no quorum line")
        for key in logs:
            if key.handle in validity:
                first, last = validity.pop(key.handle)
                logs[logs.index(key)] = LogKey(key.verifier, key.url, first, last)
        if validity:
            raise NotProven(f"the policy gives sizes for a log key it does not name: {', '.join(validity)}")
        return cls(tuple(logs), witnesses, groups, quorum)

    def text(self) -> str:
        """The policy as a file's text."""
        lines = []
        for key in self.logs:
            lines.append(" ".join(["log", key.verifier.vkey(), *([key.url] if key.url else [])]))
            if (key.first, key.last) != (0, None):
                last = "" if key.last is None else key.last
                lines.append(f"# matchstate log-key {key.handle} sizes {key.first}..{last}")
        lines += [" ".join(["witness", w.name, w.verifier.vkey(), *([w.url] if w.url else [])])
                  for w in self.witnesses.values()]
        lines += [f"group {g.name} {g.threshold} {' '.join(g.members)}" for g in self.groups.values()]
        if self.quorum is not None:
            lines.append(f"quorum {self.quorum}")
        return "".join(line + "\n" for line in lines)

    def log_keys(self, origin: str, size: int) -> list[Verifier]:
        """The keys of log ``origin`` that may sign a checkpoint of ``size``."""
        return [key.verifier for key in self.logs if key.verifier.name == origin and key.valid_for(size)]

    def signed(self, note: str | bytes) -> SignedCheckpoint:
        """The checkpoint in ``note``, signed by a key of its log valid for its size (its cosignatures unchecked)."""
        read = Note.parse(note)
        checkpoint = Checkpoint.from_text(read.text)
        if not any(key.verifier.name == checkpoint.origin for key in self.logs):
            raise NotProven(f"the policy names no log {checkpoint.origin!r}")
        keys = self.log_keys(checkpoint.origin, checkpoint.size)
        if not keys:
            raise NotProven(f"no key of log {checkpoint.origin!r} is valid for a tree of {checkpoint.size} leaves: "
                            "its keys were rotated or retired before it")
        try:
            read.verified_by(keys)
        except NotProven:
            retired = [key for key in self.logs if key.verifier.name == checkpoint.origin and
                       not key.valid_for(checkpoint.size)]
            for key in retired:
                if key.verifier in read.verified_by([key.verifier, *keys]):  # raises where it did not sign either
                    raise NotProven(f"the checkpoint of {checkpoint.size} leaves is signed by a key of "
                                    f"{checkpoint.origin!r} valid for sizes {key.first} to {key.last} only: it was "
                                    "retired before it") from None
            raise
        return SignedCheckpoint(checkpoint, read)

    def cosigners(self, note: Note) -> dict[str, int]:
        """The policy's witnesses that cosigned ``note``, with the time each did; :class:`NotProven` where a
        witness's line does not verify."""
        found = {}
        for witness in self.witnesses.values():
            if (at := cosigned_at(witness.verifier, note)) is not None:
                found[witness.name] = at
        return found

    def witnessed(self, names: Iterable[str]) -> bool:
        """Whether cosignatures of the witnesses ``names`` meet the quorum."""
        return self.quorum is None or self.quorum == NONE or self._holds(self.quorum, set(names))

    def _holds(self, name: str, names: set[str]) -> bool:
        group = self.groups.get(name)
        if group is None:
            return name in names
        return sum(self._holds(member, names) for member in group.members) >= group.threshold

    def open(self, note: str | bytes) -> SignedCheckpoint:
        """The checkpoint in ``note`` once the policy holds of it: a valid log key signed it, and its cosignatures
        meet the quorum; else :class:`NotProven` naming what falls short."""
        signed = self.signed(note)
        cosigned = self.cosigners(signed.note)
        if not self.witnessed(cosigned):
            have = ", ".join(sorted(cosigned)) or "no witness"
            raise NotProven(f"the checkpoint's cosignatures ({have}) do not meet the policy's quorum {self.quorum!r}")
        return signed


def _key(vkey: str, kind: int) -> Verifier:
    verifier = Verifier.parse(vkey)
    if verifier.kind != kind:
        raise NotProven(f"the key of {verifier.name} is of signature type {verifier.kind:#04x}, not {kind:#04x}")
    return verifier


def _new_name(name: str, witnesses: Mapping[str, Witness], groups: Mapping[str, Group]) -> None:
    if name == NONE or name in witnesses or name in groups:
        raise NotProven(f"the name {name!r} is taken")


def _group(name: str, threshold: str, members: list[str], witnesses: Mapping[str, Witness],
           groups: Mapping[str, Group]) -> Group:
    if len(set(members)) != len(members):
        raise NotProven("a group names each member once")
    unknown = [member for member in members if member not in witnesses and member not in groups]
    if unknown:
        raise NotProven(f"its members {', '.join(unknown)} are not named before it")
    count = {"all": len(members), "any": 1}.get(threshold)
    if count is None:
        if not re.fullmatch(r"[1-9][0-9]*", threshold) or int(threshold) > len(members):
            raise NotProven(f"a group's threshold is all, any or 1 to {len(members)}, not {threshold!r}")
        count = int(threshold)
    return Group(name, count, tuple(members))
