"""``matchstate witness`` (c2sp.org/tlog-witness), tested as transparency-dev/witness tests its own: a first
checkpoint, the same again, a larger one with a good proof, a bad proof, a smaller one, an unknown origin, a bad
signature; each refusal with the spec's status, and the state unchanged by a refusal and kept across a restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from witness_helpers import MemoryLog, post, running_witness

from matchstate.cli import main
from matchstate.tlog import merkle
from matchstate.tlog.cosignature import Cosigner
from matchstate.tlog.note import Note, Signer
from matchstate.tlog.policy import Policy
from matchstate.witness.app import create_witness_app
from matchstate.witness.state import WitnessState
from matchstate.witness.witness import Witness

NOW = 1_790_000_000


class Fixture:
    def __init__(self, tmp_path: Path) -> None:
        self.log = MemoryLog()
        self.log.grow(10)
        self.cosigner = Cosigner("witness.example/w1", Ed25519PrivateKey.generate())
        follows = Policy.parse(f"log {self.log.signer.verifier.vkey()}\n", quorum_needed=False)
        self.state = WitnessState(tmp_path / "state.db")
        self.client = TestClient(create_witness_app(Witness(self.cosigner, follows, self.state, lambda: NOW)))
        self.policy = Policy.parse(f"log {self.log.signer.verifier.vkey()}\n"
                                   f"witness w1 {self.cosigner.verifier.vkey()}\nquorum w1\n")

    def add(self, body: bytes) -> tuple[int, str, str]:
        answer = self.client.post("/add-checkpoint", content=body)
        return answer.status_code, answer.headers["content-type"], answer.text

    def cosigned(self, note: str, lines: str) -> dict[str, int]:
        """The witnesses whose cosignature the answer ``lines`` gives ``note``, the policy's checks passed."""
        together = Note.parse(note + lines)
        self.policy.open(str(together))
        return self.policy.cosigners(together)


@pytest.fixture
def witness(tmp_path: Path) -> Iterator[Fixture]:
    fixture = Fixture(tmp_path)
    yield fixture
    fixture.state.close()


def test_a_first_checkpoint_is_cosigned_with_a_timestamped_cosignature_the_policy_accepts(witness: Fixture) -> None:
    status, _, lines = witness.add(witness.log.body(0))
    assert status == 200 and lines.startswith("\u2014 witness.example/w1 ") and lines.endswith("\n")
    assert witness.cosigned(witness.log.checkpoint(), lines) == {"w1": NOW}
    assert witness.state.latest(witness.log.signer.name) == (10, merkle.root(witness.log.leaves, 10))


def test_the_same_checkpoint_again_is_cosigned_again(witness: Fixture) -> None:
    assert witness.add(witness.log.body(0))[0] == 200
    status, _, lines = witness.add(witness.log.body(10, 10))
    assert status == 200 and witness.cosigned(witness.log.checkpoint(), lines) == {"w1": NOW}


def test_a_larger_checkpoint_with_a_good_proof_is_cosigned(witness: Fixture) -> None:
    assert witness.add(witness.log.body(0))[0] == 200
    witness.log.grow(27)
    status, _, lines = witness.add(witness.log.body(10))
    assert status == 200 and witness.cosigned(witness.log.checkpoint(), lines) == {"w1": NOW}
    assert witness.state.latest(witness.log.signer.name)[0] == 37  # type: ignore[index]


def test_a_bad_proof_is_refused_422_and_changes_nothing(witness: Fixture) -> None:
    assert witness.add(witness.log.body(0))[0] == 200
    witness.log.grow(5)
    good = merkle.consistency_proof(witness.log.leaves, 10, 15)
    flipped = [bytes([good[0][0] ^ 1]) + good[0][1:], *good[1:]]
    for proof in (flipped, good[:-1], [*good, good[0]], []):
        status, _, text = witness.add(witness.log.body(10, proof=proof))
        assert status == 422, text
    assert witness.state.latest(witness.log.signer.name)[0] == 10  # type: ignore[index]
    assert witness.add(witness.log.body(10))[0] == 200  # the good proof still goes


def test_a_smaller_checkpoint_is_refused(witness: Fixture) -> None:
    witness.log.grow(5)
    assert witness.add(witness.log.body(0))[0] == 200
    assert witness.add(witness.log.body(15, 12, proof=[]))[0] == 400  # an old size above the checkpoint's
    status, kind, text = witness.add(witness.log.body(0, 12))  # a log restored from an older copy
    assert (status, kind, text) == (409, "text/x.tlog.size", "15\n")


def test_a_wrong_old_size_is_refused_409_with_the_size_cosigned(witness: Fixture) -> None:
    status, kind, text = witness.add(witness.log.body(4, 10))
    assert (status, kind, text) == (409, "text/x.tlog.size", "0\n")


def test_a_fork_of_the_same_size_is_refused_422(witness: Fixture) -> None:
    assert witness.add(witness.log.body(0))[0] == 200
    other = MemoryLog(witness.log.signer.name)
    other.signer = witness.log.signer
    other.grow(9)
    other.leaves.append(b"\x07" * 32)
    assert witness.add(other.body(10, 10))[0] == 422


def test_an_unknown_origin_is_refused_404(witness: Fixture) -> None:
    stranger = MemoryLog("stranger.example/log")
    stranger.grow(3)
    assert witness.add(stranger.body(0))[0] == 404


def test_a_bad_signature_is_refused_403(witness: Fixture) -> None:
    impostor = Signer(witness.log.signer.name, Ed25519PrivateKey.generate())  # the log's name, another key
    assert witness.add(witness.log.body(0, note=witness.log.checkpoint(signer=impostor)))[0] == 403
    note = witness.log.checkpoint()
    changed = note.replace("\n10\n", "\n11\n", 1)  # the log's own key line over another text
    assert witness.add(witness.log.body(0, 11, proof=[], note=changed))[0] == 403
    assert witness.state.latest(witness.log.signer.name) is None


@pytest.mark.parametrize("body", [b"", b"old 01\n\nx", b"new 0\n\n", b"old 0\nnot base64!\n\n", b"\xff\n\n",
                                  b"old 0\n\nnot a note\n"])
def test_a_body_not_of_the_protocol_is_refused_400(witness: Fixture, body: bytes) -> None:
    assert witness.add(body)[0] == 400


def test_a_proof_from_the_empty_tree_is_refused_422(witness: Fixture) -> None:
    proof = [b"\x01" * 32]
    assert witness.add(witness.log.body(0, proof=proof))[0] == 422


def test_the_witness_as_run_from_the_command_line_keeps_its_state_across_a_restart(tmp_path: Path) -> None:
    log = MemoryLog()
    log.grow(20)
    follows = f"log {log.signer.verifier.vkey()}\n"
    with running_witness(tmp_path, follows) as (url, line):
        assert line.startswith("witness witness.example/w1 witness.example/w1+")
        status, _, lines = post(f"{url}/add-checkpoint", log.body(0))
        assert status == 200
        policy = Policy.parse(f"log {log.signer.verifier.vkey()}\n{line}\nquorum witness.example/w1\n")
        assert policy.open(log.checkpoint() + lines).checkpoint.size == 20
    with running_witness(tmp_path, follows) as (url, again):
        assert again.rsplit(" ", 1)[0] == line.rsplit(" ", 1)[0]  # the same key, kept in its file
        assert post(f"{url}/add-checkpoint", log.body(0, 12)) == (409, "text/x.tlog.size", "20\n")
        log.grow(3)
        assert post(f"{url}/add-checkpoint", log.body(20))[0] == 200


def test_two_requests_from_the_same_old_size_at_once_get_one_cosignature_and_one_409(witness: Fixture) -> None:
    import threading

    assert witness.add(witness.log.body(0))[0] == 200
    witness.log.grow(6)
    bodies = [witness.log.body(10, 13), witness.log.body(10, 16)]
    answers: list[int] = []
    barrier = threading.Barrier(2)

    def send(body: bytes) -> None:
        barrier.wait(timeout=30)
        answers.append(witness.add(body)[0])

    threads = [threading.Thread(target=send, args=(body,)) for body in bodies]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers) == [200, 409]  # the check and the write are one: no cosigned size goes back
    assert witness.state.latest(witness.log.signer.name)[0] in (13, 16)  # type: ignore[index]


def test_a_witness_given_the_leagues_policy_refuses_a_retired_keys_checkpoint_past_its_last(tmp_path: Path) -> None:
    log = MemoryLog()
    log.grow(12)
    handle = f"{log.signer.name}+{log.signer.verifier.id.hex()}"
    follows = Policy.parse(f"log {log.signer.verifier.vkey()}\n# matchstate log-key {handle} sizes 0..10\n"
                           "quorum none\n")
    state = WitnessState(tmp_path / "state.db")
    client = TestClient(create_witness_app(Witness(Cosigner("w", Ed25519PrivateKey.generate()), follows, state,
                                                   lambda: NOW)))
    assert client.post("/add-checkpoint", content=log.body(0, 10)).status_code == 200
    refused = client.post("/add-checkpoint", content=log.body(10, 12))
    assert refused.status_code == 403 and "retired" in refused.text
    state.close()


def test_a_body_over_the_limit_is_refused_413_and_only_post_is_answered(witness: Fixture) -> None:
    assert witness.add(b"old 0\n" + b"A" * (64 * 1024) + b"\n\n")[0] == 413
    assert witness.client.get("/add-checkpoint").status_code == 405


@pytest.mark.parametrize("name", ["", "has space", "a+b", "line\nbreak"])
def test_a_witness_name_its_policy_line_could_not_hold_is_refused(tmp_path: Path, name: str,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Taken, its printed policy line was then refused by the policy reader."""
    with pytest.raises(SystemExit) as refused:
        main(["witness", "--name", name, "--key", str(tmp_path / "key.pem"), "--print-vkey"])
    assert refused.value.code == 2
    assert "a key name is non-empty, with no space and no '+'" in capsys.readouterr().err
    assert not (tmp_path / "key.pem").exists()


def test_a_key_in_a_folder_not_there_is_refused_not_made_and_a_new_key_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mistyped = tmp_path / "no-such-folder" / "key.pem"
    assert main(["witness", "--name", "w1", "--key", str(mistyped), "--print-vkey"]) == 2
    assert f"--key {mistyped}: no such folder as {mistyped.parent}" in capsys.readouterr().err
    assert not mistyped.parent.exists()
    assert main(["witness", "--name", "w1", "--key", str(tmp_path / "key.pem"), "--print-vkey"]) == 0
    said = capsys.readouterr()
    assert said.err == f"a new witness key made at {tmp_path / 'key.pem'}\n" and said.out.startswith("witness w1 ")
    assert main(["witness", "--name", "w1", "--key", str(tmp_path / "key.pem"), "--print-vkey"]) == 0
    assert capsys.readouterr().err == ""  # the key kept: nothing made
