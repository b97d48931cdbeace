"""Evidence bundles: written from a store, checked with no database and no secret; every single-byte change to
a bundle's line, proof or checkpoint is found; SQLite and PostgreSQL."""

import random
import shutil
from pathlib import Path

import pytest
from conftest import match_log

from matchstate.cli import main
from matchstate.evidence import CHECKPOINT, EVENTS, PROOFS, archive, verify_bundle
from matchstate.store import Store
from matchstate.version import ENGINE_VERSION


def bundle_of(store: Store, folder: Path, events: int = 6) -> Path:
    log = match_log("m-1", events)
    store.create_match(log[0], role="official")
    for event in log[1:]:
        store.append("m-1", event, role="scorer")
    return archive(store, ["m-1"], folder)[0]


def test_a_bundle_verifies_after_the_database_and_the_secret_are_gone(store: Store, tmp_path, monkeypatch, capsys):
    target = bundle_of(store, tmp_path / "bundle")
    assert sorted(path.name for path in target.iterdir()) == ["checkpoint", "events.jsonl", "policy", "proofs"]
    assert len(list((target / PROOFS).iterdir())) == 6
    store.secrets.path.unlink()
    store.secrets.signing_path.unlink()
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", "sqlite:////nonexistent/nothing.db")
    assert main(["verify", "--bundle", str(tmp_path / "bundle")]) == 0
    out = capsys.readouterr().out
    assert "verified: 1 matches, 6 events" in out
    report = verify_bundle(tmp_path / "bundle", ENGINE_VERSION)
    assert (report.matches, report.events, report.problems) == (1, 6, [])


def test_archive_from_the_command_line(store: Store, tmp_path, monkeypatch, capsys):
    bundle_of(store, tmp_path / "first")
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["archive", "m-1", str(tmp_path / "cli")]) == 0
    assert main(["archive", "--season", "2026", str(tmp_path / "season")]) == 0
    capsys.readouterr()
    for folder in ("cli", "season"):
        assert (tmp_path / folder / "m-1" / EVENTS).exists()
        assert main(["verify", "--bundle", str(tmp_path / folder)]) == 0


def test_every_single_byte_change_is_found(store: Store, tmp_path):
    """Each byte of the checkpoint and of one proof, and a sample of 400 bytes of the lines (every byte would
    take too long on a shared machine), changed in turn: the bundle no longer verifies."""
    target = bundle_of(store, tmp_path / "bundle", events=3)
    work = tmp_path / "work"
    files = {CHECKPOINT: None, f"{PROOFS}/2.tlog-proof": None, EVENTS: 400}
    random.seed(19)
    for name, sample in files.items():
        original = (target / name).read_bytes()
        places = range(len(original)) if sample is None else random.sample(range(len(original)), sample)
        for place in places:
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(target, work)
            changed = bytearray(original)
            changed[place] ^= 0x01 if chr(changed[place]) not in "+/" else 0x02
            (work / name).write_bytes(bytes(changed))
            assert verify_bundle(work, ENGINE_VERSION).problems, (name, place, bytes(original[place:place + 1]))


@pytest.mark.parametrize("what", ["line removed", "proof removed", "lines swapped"])
def test_a_bundle_cut_or_reordered_is_found(store: Store, tmp_path, what):
    target = bundle_of(store, tmp_path / "bundle")
    lines = (target / EVENTS).read_text().splitlines(keepends=True)
    if what == "line removed":
        (target / EVENTS).write_text("".join(lines[:2] + lines[3:]))
    elif what == "proof removed":
        (target / PROOFS / "4.tlog-proof").unlink()
    else:
        (target / EVENTS).write_text("".join([lines[0], lines[2], lines[1], *lines[3:]]))
    assert verify_bundle(target, ENGINE_VERSION).problems
