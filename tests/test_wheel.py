"""The package as a club installs it: the built wheel, installed (not editable) into a fresh virtual
environment, upgrades a new store, replays a bundled example and serves a page. Every script here installs
matchstate editable, which hides a package or a data file the wheel leaves out (a wheel that did not import
shipped that way)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

from matchstate.web.process import ServerProcess

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment's Python with the wheel built from this tree installed in it; the dependencies
    are this environment's, seen through a path file (installing them again would need the network)."""
    folder = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(folder), str(ROOT)], check=True, capture_output=True)
    (wheel,) = folder.glob("matchstate-*.whl")
    env = folder / "env"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], check=True,
                   capture_output=True)
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def run(python: Path, *args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(python), "-m", "matchstate", *args], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, **env}, check=False)


def test_the_wheel_holds_every_package_of_the_tree(installed: Path) -> None:
    (wheel,) = installed.parent.parent.parent.glob("matchstate-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = [init.relative_to(ROOT).as_posix() for init in (ROOT / "matchstate").rglob("__init__.py")]
    assert packages and [name for name in packages if name not in names] == []
    assert "matchstate/migrations/versions/0001_matches_events_and_rulings.py" in names


def test_the_installed_wheel_upgrades_a_store_replays_an_example_and_serves_a_page(installed: Path,
                                                                                   tmp_path: Path) -> None:
    where = subprocess.run([str(installed), "-c", "import matchstate; print(matchstate.__file__)"], cwd=tmp_path,
                           capture_output=True, text=True, check=True).stdout
    assert where.startswith(str(installed.parent.parent)), where  # the wheel's, not this tree's
    url = f"sqlite:///{tmp_path / 'club.db'}"
    upgraded = run(installed, "db", "upgrade", cwd=tmp_path, MATCHSTATE_DATABASE_URL=url)
    assert upgraded.returncode == 0, upgraded.stderr
    assert "league key:" in upgraded.stdout
    example = subprocess.run([str(installed), "-c", "from matchstate.examples import path; print(path('full-match'))"],
                             cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    replayed = run(installed, "replay", "--json", example, cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "final" in json.loads(replayed.stdout.splitlines()[-1])
    with ServerProcess(url, log=tmp_path / "server.log", python=str(installed)) as server:
        with urllib.request.urlopen(server.base + "/") as page:
            assert page.status == 200 and b"matchstate" in page.read()
        with urllib.request.urlopen(server.base + "/static/console.mjs") as script:
            assert script.status == 200
