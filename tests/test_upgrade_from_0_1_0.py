"""An upgrade never cries wolf: a store made by the 0.1.0 release, upgraded by today's code, verifies; a row
of it changed afterwards still fails verify, which says where the values part.

The 0.1.0 release is commit 30fa216 ("Engine, rulings and CLI: each twin written once"): the last commit of
2026-11-30, the date of the CHANGELOG's 0.1.0 section, and the one before the first hardening round (10b60fe
wrote that section down the next morning). Its wheel is built here from the repository's own history and
installed in a venv of its own, which borrows today's dependencies (0.1.0 needs nothing newer).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

RELEASE_0_1_0 = "30fa216"
REPOSITORY = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def old_matchstate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``matchstate`` command of release 0.1.0, installed from a wheel built from its commit."""
    root = tmp_path_factory.mktemp("release-0.1.0")
    source = root / "source"
    source.mkdir()
    archive = subprocess.run(["git", "-C", str(REPOSITORY), "archive", RELEASE_0_1_0], capture_output=True, check=True)
    subprocess.run(["tar", "x", "-C", str(source)], input=archive.stdout, check=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(root / "dist"), str(source)], check=True,
                   capture_output=True)
    [wheel] = (root / "dist").glob("matchstate-0.1.0-*.whl")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    # After the venv's own packages: its matchstate is 0.1.0's, the rest today's.
    Path(site, "today.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([*pip, "--python", str(python), "install", "--no-deps", str(wheel)], check=True,
                   capture_output=True)
    return venv / "bin" / "matchstate"


def _run(command: list[str], url: str, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MATCHSTATE_DATABASE_URL": url}
    return subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=300)


def test_a_0_1_0_store_upgraded_verifies_and_a_change_after_still_fails_it(
        old_matchstate: Path, store_url: str, tmp_path: Path) -> None:
    made = _run([str(old_matchstate), "--version"], store_url, tmp_path)
    assert made.stdout.strip() == "matchstate 0.1.0"
    assert _run([str(old_matchstate), "db", "upgrade"], store_url, tmp_path).returncode == 0
    examples = Path(old_matchstate).parent.parent.glob("lib/python*/site-packages/matchstate/examples/*.jsonl")
    for example in sorted(examples):
        imported = _run([str(old_matchstate), "import", str(example)], store_url, tmp_path)
        assert imported.returncode == 0, imported.stderr
    assert _run([str(old_matchstate), "verify"], store_url, tmp_path).returncode == 0

    today = [sys.executable, "-m", "matchstate.cli"]
    assert _run([*today, "db", "upgrade"], store_url, tmp_path).returncode == 0
    verified = _run([*today, "verify"], store_url, tmp_path)
    assert (verified.returncode, verified.stdout.splitlines()[-1]) == (
        0, "verified: every chain is whole, every stored ruling is the engine's and every seal holds"), verified.stdout

    # A row 0.1.0 wrote (no handicap goals given: {} then, each team's 0 now), changed after the upgrade.
    engine = create_engine(store_url)
    with engine.begin() as connection:
        conditions = connection.execute(text("SELECT conditions FROM matches WHERE code = 'remanso-cup-2026-sf1'"))
        stored = conditions.scalar_one()  # SQLite's JSON as text, PostgreSQL's as a dict
        changed = {**(json.loads(stored) if isinstance(stored, str) else stored), "field_length": 280}
        connection.execute(text("UPDATE matches SET conditions = :conditions WHERE code = 'remanso-cup-2026-sf1'"),
                           {"conditions": json.dumps(changed)})
    engine.dispose()
    tampered = _run([*today, "verify"], store_url, tmp_path)
    assert tampered.returncode == 1
    assert ("match remanso-cup-2026-sf1, its row's conditions: at field_length: it is 280, but the chain and its "
            "replay give 300") in tampered.stdout
