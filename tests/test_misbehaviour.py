"""Issue 19: a store restored from an older copy (a real copy of its file) shows, to whoever kept a newer
checkpoint, as a rollback (the server cannot prove the tree it signed) or a fork (a tree of the same size with
another root); the report a page saves of it is checked by `matchstate verify --report` with no server: a fork
is proven by it, a rollback only by asking the server again."""

import base64
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import known, match_log

from matchstate.cli import COULD_NOT_RUN, main
from matchstate.misbehaviour import FORMAT
from matchstate.store import Appended, Store


def checkpoint_of(appended: Appended) -> str:
    return known(appended.proof).partition("\n\n")[2]


def report(path: Path, kind: str, store: Store, seen: str, given: str,
           consistency: dict[str, Any] | None = None) -> str:
    path.write_text(json.dumps({"format": FORMAT, "kind": kind, "origin": store.log.origin,
                                "vkey": store.log.signer.verifier.vkey(), "seen": seen, "given": given,
                                "consistency": consistency}))
    return str(path)


def test_a_restored_store_is_a_rollback_then_a_fork_and_the_report_proves_it(tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    store = Store(url)
    store.upgrade()
    log = match_log("m-1", 12)
    store.create_match(log[0])
    for event in log[1:4]:
        store.append("m-1", event)
    store.close()
    shutil.copy(tmp_path / "store.db", tmp_path / "copy.db")  # the older copy (WAL checkpointed at close)
    store = Store(url)
    answers = [store.append("m-1", event) for event in log[4:10]]
    seen = checkpoint_of(answers[-1])
    size = int(seen.split("\n")[1])
    store.close()
    shutil.copy(tmp_path / "copy.db", tmp_path / "store.db")  # restored
    store = Store(url)
    rolled = checkpoint_of(store.append("m-1", log[4]))
    assert int(rolled.split("\n")[1]) < size
    with pytest.raises(ValueError, match="fewer than"):
        store.log.proven_extension(int(rolled.split("\n")[1]), size)  # what the consistency endpoint refuses
    # The report's two checkpoints do not show which came first: anyone holding an honest log's two could say
    # "rollback" (an honest log was accused). It names the question that tells, which the server above refuses.
    assert main(["verify", "--report", report(tmp_path / "r1.json", "rollback", store, seen, rolled)]) == 0
    said = capsys.readouterr().out
    assert "two checkpoints alone do not show it" in said
    assert f"GET /api/log/consistency?from={int(rolled.split(chr(10))[1])}&to={size}" in said
    other = [store.append("m-1", {**event, "id": f"again-{number}"}) for number, event in enumerate(log[5:11])]
    forked = next(checkpoint_of(answer) for answer in other if int(checkpoint_of(answer).split("\n")[1]) == size)
    assert main(["verify", "--report", report(tmp_path / "r2.json", "fork", store, seen, forked)]) == 1
    assert "two trees of one size with different roots, both signed: the log forked" in capsys.readouterr().out
    honest = checkpoint_of(other[-1])
    older = checkpoint_of(other[0])
    proof = store.log.proven_extension(int(older.split("\n")[1]), int(honest.split("\n")[1]))
    good = {"from": 0, "to": 0, "proof": [base64.b64encode(step).decode() for step in proof]}
    assert main(["verify", "--report", report(tmp_path / "r3.json", "fork", store, older, honest, good)]) == 0
    assert "no misbehaviour" in capsys.readouterr().out
    altered = seen.replace(f"\n{size}\n", f"\n{size + 1}\n")
    assert main(["verify", "--report", report(tmp_path / "r4.json", "fork", store, altered, forked)]) == 0
    assert "the report proves nothing" in capsys.readouterr().out
    store.close()


@pytest.mark.parametrize(("content", "said"), [
    (None, "the report cannot be read: [Errno 2] No such file or directory"), ("", "the report cannot be read: "),
    ("not json", "the report cannot be read: "), ("[]", "is not a misbehaviour report"),
    ('{"format": "other"}', "is not a misbehaviour report")])
def test_a_report_that_cannot_be_read_exits_2_not_0(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    content: str | None, said: str) -> None:
    """0 says the report shows no misbehaviour: a script took a missing or unreadable report for that."""
    path = tmp_path / "report.json"
    if content is not None:
        path.write_text(content)
    assert main(["verify", "--report", str(path)]) == COULD_NOT_RUN
    assert said in capsys.readouterr().err
