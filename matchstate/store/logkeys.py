"""The league log's signing keys over time: rotated (``matchstate keys rotate-log-key``), a season frozen under its
key (``matchstate archive --season YYYY DIR --freeze``), and the C2SP tlog-policy that says which key may sign
which tree sizes.

Until a rotation the log is signed by the receipts' key. A rotation adds a leaf naming the new key (an act,
``"act": "log-key"``), and the checkpoint of the tree with it, of size S, is signed by the old key and the new
(the handover). From then on the new key, a file beside the store's secret (``<secret>.log.ed25519``), signs
the checkpoints under the same origin; the old one is retired: the policy (``<secret>.log-policy``) names it
valid for sizes up to S only, the new one from S on, so a checkpoint of a larger tree signed by the old key
(a stolen copy, the receipts' key that goes on signing receipts) is refused by anyone who reads the policy. A
retired key's file, where it was a rotated one, is deleted. A server signing the log must be restarted after
a rotation: it reads its key once.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import update

from ..errors import StoreError
from ..models import LogHeadRow
from ..tlog.checkpoint import Checkpoint
from ..tlog.note import Signer
from ..tlog.policy import LogKey, Policy
from .leaguelog import ACT
from .secretfiles import SecretFiles, _create

if TYPE_CHECKING:
    from .facade import Store

LOG_KEY = "log-key"  # the act of a rotation: the leaf that names the key the log is handed over to


class LogKeys:
    """The league log's key files beside the store's ``secrets``."""

    def __init__(self, secrets: SecretFiles) -> None:
        self.key_path = secrets.beside(".log.ed25519")
        self.policy_path = secrets.beside(".log-policy")

    def signer(self, first: Signer) -> Signer:
        """The key that signs the log now: the rotated one where there is one, else ``first`` (the receipts')."""
        if not self.key_path.exists():
            return first
        key = serialization.load_pem_private_key(self.key_path.read_bytes(), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise StoreError(f"{self.key_path} is not an Ed25519 private key in PEM")
        return Signer(first.name, key)

    def policy(self, signer: Signer) -> Policy:
        """The policy naming every key the log has had (``signer`` its key now, where none was rotated)."""
        if self.policy_path.exists():
            return Policy.parse(self.policy_path.read_bytes())
        return Policy((LogKey(signer.verifier),))

    def rotate(self, store: Store) -> tuple[int, Policy]:
        """Hand the log over to a new key (see the module's docstring): the handover's tree size and the policy."""
        old = store.log.signer
        new = Signer(old.name, Ed25519PrivateKey.generate())
        policy = self.policy(old)
        staged = self.key_path.with_name(self.key_path.name + ".next")
        if not _create(staged, new.private_key.private_bytes(serialization.Encoding.PEM,
                                                              serialization.PrivateFormat.PKCS8,
                                                              serialization.NoEncryption())):
            raise StoreError(f"{staged} exists: another rotation is under way, or one stopped half-way")
        try:
            with store.database.transaction(write=True) as connection:
                added = store.log.add(connection, [{"kind": ACT, "act": LOG_KEY, "vkey": new.verifier.vkey()}],
                                      sign=False)
                tree = Checkpoint(old.name, added.size, added.root)
                connection.execute(update(LogHeadRow).where(LogHeadRow.id == 1).values(
                    checkpoint=tree.signed(old) + new.signature_line(tree.text())))
        except BaseException:
            staged.unlink()
            raise
        keys = tuple(replace(key, last=added.size) if key.verifier == old.verifier and key.last is None else key
                     for key in policy.logs)
        rotated = replace(policy, logs=(*keys, LogKey(new.verifier, first=added.size)))
        _write(self.policy_path, rotated.text().encode("utf-8"))
        os.replace(staged, self.key_path)  # the old rotated key, if any, is gone: retired
        store.log.retire()
        return added.size, rotated


def _write(path: Path, content: bytes) -> None:
    """Replace ``path`` with ``content`` whole (a reader sees the old file or the new one)."""
    staged = path.with_name(path.name + ".new")
    staged.unlink(missing_ok=True)
    _create(staged, content)
    os.replace(staged, path)
