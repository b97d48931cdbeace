"""C2SP tlog-policy files and tlog-cosignature lines: groups and thresholds as the spec's example gives them,
every malformed policy refused naming its line, cosignatures timestamped and bound to the checkpoint's text,
and a real cosigner's vkey (transparency-dev/formats' test) read with its key ID checked."""

from __future__ import annotations

import base64

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from witness_helpers import MemoryLog

from matchstate.errors import NotProven
from matchstate.tlog.cosignature import Cosigner, cosigned_at
from matchstate.tlog.note import COSIGNATURE, Note, Verifier
from matchstate.tlog.policy import Policy


def cosigners(count: int) -> list[Cosigner]:
    return [Cosigner(f"witness.example/{n}", Ed25519PrivateKey.generate()) for n in range(count)]


def test_the_specs_two_level_quorum() -> None:
    log = MemoryLog()
    log.grow(4)
    x, y = cosigners(3), cosigners(3)
    lines = [f"log {log.signer.verifier.vkey()}"]
    lines += [f"witness X{n} {c.verifier.vkey()}" for n, c in enumerate(x)] + ["group X-witnesses 2 X0 X1 X2"]
    lines += [f"witness Y{n} {c.verifier.vkey()} https://y{n}.example" for n, c in enumerate(y)]
    lines += ["group Y-witnesses any Y0 Y1 Y2", "group X-and-Y all X-witnesses Y-witnesses", "quorum X-and-Y"]
    policy = Policy.parse("# a comment\n\n" + "\n".join(lines) + "\n")
    assert Policy.parse(policy.text()) == policy
    note = log.checkpoint()
    text = Note.parse(note).text

    def with_cosigners(*signers: Cosigner) -> str:
        return note + "".join(signer.cosign(text, 1_700_000_000 + n).line() for n, signer in enumerate(signers))

    assert policy.open(with_cosigners(x[0], x[2], y[1])).checkpoint.size == 4
    assert policy.cosigners(Note.parse(with_cosigners(x[0], x[2], y[1]))) == {"X0": 1_700_000_000,
                                                                                "X2": 1_700_000_001,
                                                                                "Y1": 1_700_000_002}
    for short in ((x[0], y[0], y[1]), (x[0], x[1]), ()):
        with pytest.raises(NotProven, match="do not meet the policy's quorum"):
            policy.open(with_cosigners(*short))
    stranger = cosigners(1)[0]  # a cosigner the policy does not name: ignored
    with pytest.raises(NotProven, match="quorum"):
        policy.open(with_cosigners(x[0], stranger, y[0]))


def test_a_cosignature_is_bound_to_the_checkpoint_and_its_time() -> None:
    log = MemoryLog()
    log.grow(2)
    [signer] = cosigners(1)
    note = log.checkpoint()
    line = signer.cosign(Note.parse(note).text, 1_790_000_000).line()
    assert cosigned_at(signer.verifier, Note.parse(note + line)) == 1_790_000_000
    log.grow(1)
    with pytest.raises(NotProven, match="does not verify"):
        cosigned_at(signer.verifier, Note.parse(log.checkpoint() + line))  # another checkpoint's text
    raw = bytearray(base64.b64decode(line.split(" ")[2]))
    raw[11] ^= 1  # the timestamp's last byte
    moved = f"{line.rsplit(' ', 1)[0]} {base64.b64encode(bytes(raw)).decode()}\n"
    with pytest.raises(NotProven):
        cosigned_at(signer.verifier, Note.parse(note + moved))
    assert cosigned_at(signer.verifier, Note.parse(note)) is None
    with pytest.raises(ValueError):
        signer.cosign(Note.parse(note).text, 0)  # the spec: a cosignature's time is never zero


def test_a_real_cosigners_vkey_is_read_with_its_key_id() -> None:
    verifier = Verifier.parse("remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2")
    assert (verifier.kind, verifier.name) == (COSIGNATURE, "remora.n621.de")
    assert Policy.parse(f"witness remora {verifier.vkey()}\nquorum remora\n").witnesses["remora"].verifier == verifier


@pytest.mark.parametrize(("text", "says"), [
    ("log x\nquorum none\n", "line 1"),
    ("quorum none\nquorum none\n", "line 2"),
    ("quorum w1\n", "no witness or group"),
    ("group g any w1\nquorum g\n", "not named before"),
    ("witness none {w}\nquorum none\n", "taken"),
    ("witness a {w}\nwitness b {w}\nquorum a\n", "one public key twice"),
    ("witness a {w}\ngroup g 2 a\nquorum g\n", "threshold"),
    ("witness a {w}\ngroup g all a a\nquorum g\n", "each member once"),
    ("log {w}\nquorum none\n", "signature type"),
    ("witness a {w}\n", "no quorum line"),
    ("frobnicate\nquorum none\n", "not a log, witness"),
    ("quorum none\n# matchstate log-key some+0000abcd sizes 0..5\n", "does not name"),
    ("quorum\tnone\x01\n", "control character"),
])
def test_a_malformed_policy_is_refused_naming_why(text: str, says: str) -> None:
    [cosigner] = cosigners(1)
    with pytest.raises(NotProven, match=says):
        Policy.parse(text.replace("{w}", cosigner.verifier.vkey()))
