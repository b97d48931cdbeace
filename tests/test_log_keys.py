"""Keys that change: the league log's signing key rotated (the policy names each key's tree sizes), a season
frozen under its key, and a frozen season's bundle verified with nothing but itself and its policy."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import known, match_log

from matchstate import jcs
from matchstate.cli import main
from matchstate.errors import NotProven
from matchstate.evidence import CHECKPOINT, POLICY
from matchstate.store import Store
from matchstate.store.logkeys import LogKeys
from matchstate.tlog import merkle
from matchstate.tlog.checkpoint import Checkpoint
from matchstate.tlog.note import Note, Signer
from matchstate.tlog.policy import Policy
from matchstate.tlog.proof import TlogProof


def leaf(code: str, seq: int, digest: str) -> bytes:
    return merkle.leaf_hash(jcs.canonical({"kind": "append", "match": code, "seq": seq, "hash": digest}))


def proven(policy: Policy, answer_proof: str, code: str, seq: int, digest: str) -> int:
    """The size of the checkpoint a tlog proof leads to, once the policy's key valid for it signed it."""
    proof = TlogProof.parse(answer_proof)
    size = Checkpoint.from_text(Note.parse(proof.checkpoint).text).size
    origin = policy.signed(proof.checkpoint).checkpoint.origin
    return proof.verify(leaf(code, seq, digest), origin, policy.log_keys(origin, size)).checkpoint.size


def test_a_rotated_key_signs_on_the_old_proofs_still_hold_and_the_old_key_signs_nothing_larger(
        store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    log = match_log("m-1", 10)
    before = [store.create_match(log[0])] + [store.append("m-1", event) for event in log[1:5]]
    old = store.log.signer
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["keys", "rotate-log-key"]) == 0
    assert "rotated at" in capsys.readouterr().out
    rotated = Store(store.url.render_as_string(hide_password=False))
    try:
        policy = LogKeys(rotated.secrets).policy(rotated.log.signer)
        assert main(["keys", "log-policy"]) == 0 and Policy.parse(capsys.readouterr().out) == policy
        [first, second] = policy.logs
        assert (first.verifier, first.first) == (old.verifier, 0) and first.last == second.first
        assert rotated.log.signer.verifier != old.verifier and rotated.log.origin == old.name
        with rotated.database.transaction() as connection:
            handover = rotated.log.head(connection)[2]
        assert handover is not None and len(Note.parse(handover).signatures) == 2  # the old key and the new
        after = [rotated.append("m-1", event) for event in log[5:]]
        for answer in before + after:
            assert proven(policy, known(answer.proof), "m-1", answer.event.seq, answer.event.hash) > 0
        assert proven(policy, known(after[-1].proof), "m-1", 10, after[-1].event.hash) > first.last
        assert rotated.verify() == []
        # The old key (still the receipts' key) signing a larger tree: refused by anyone who reads the policy.
        forged = Checkpoint(old.name, first.last + 3, b"\x00" * 32).signed(old)
        with pytest.raises(NotProven, match=r"valid for sizes 0 to .* only"):
            policy.open(forged)
        assert main(["keys", "rotate-log-key"]) == 0  # again: the first rotated key is retired, its file replaced
        assert len(LogKeys(rotated.secrets).policy(rotated.log.signer).logs) == 3
    finally:
        rotated.close()


def test_a_frozen_season_verifies_from_its_bundle_and_policy_alone(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    log = match_log("m-1", 8)
    store.create_match(log[0])
    for event in log[1:]:
        store.append("m-1", event)
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["archive", "--season", "2026", str(tmp_path / "season"), "--freeze"]) == 0
    assert "frozen at" in capsys.readouterr().out
    # Checked against the league's keys, as `keys public` prints them: the frozen checkpoint is the first key's,
    # the heads and the list the key it was handed over to; the first alone is refused.
    assert main(["keys", "public", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    for name in ("public_key", "log_public_key"):
        (tmp_path / f"{name}.pem").write_text(printed[name])
    both = ["--public-key", str(tmp_path / "public_key.pem"), "--public-key", str(tmp_path / "log_public_key.pem")]
    assert main(["verify", "--bundle", str(tmp_path / "season"), *both]) == 0
    assert "signed by the league's public key given" in capsys.readouterr().out
    assert main(["verify", "--bundle", str(tmp_path / "season"), *both[:2]]) == 1
    assert capsys.readouterr().out == ("m-1: its head does not hold: no known key signed the note\n"
                                       "%list: the signed list does not hold: no known key signed the note\n")
    retired = Signer(store.log.origin, store.secrets.signing_key())
    bundle = tmp_path / "season" / "m-1"
    policy = Policy.parse((bundle / POLICY).read_bytes())
    frozen_size = policy.logs[0].last
    assert policy.open((bundle / CHECKPOINT).read_bytes()).checkpoint.size == frozen_size
    if store.url.get_backend_name() == "sqlite":
        Path(store.url.database or "").unlink()
    for path in (store.secrets.path, store.secrets.signing_path, LogKeys(store.secrets).key_path):
        path.unlink()
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", f"sqlite:///{tmp_path / 'nothing' / 'none.db'}")
    assert main(["verify", "--bundle", str(tmp_path / "season")]) == 0
    assert "verified: 1 matches, 8 events" in capsys.readouterr().out

    # The retired key, kept by someone, signs a longer season: the policy alone refuses it.
    forged = tmp_path / "forged"
    shutil.copytree(tmp_path / "season", forged)
    (forged / "m-1" / CHECKPOINT).write_text(
        Checkpoint(retired.name, frozen_size + 1, b"\x01" * 32).signed(retired))
    assert main(["verify", "--bundle", str(forged)]) == 1
    assert "only: it was retired" in capsys.readouterr().out
    assert main(["verify", "--bundle", str(forged), *both]) == 1  # the league's keys given: the retired one still
    assert "only: it was retired" in capsys.readouterr().out  # signs nothing past the size it was handed over at
