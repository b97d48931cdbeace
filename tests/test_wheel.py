"""The built wheel, installed as a user installs it (not editable) into a venv of its own, upgrades a database,
replays a bundled example and serves the pages (issue 16, finding 1: a wheel without matchstate.engine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import urllib.request
from pathlib import Path

import pytest

from matchstate.web.process import ServerProcess

ROOT = Path(__file__).resolve().parent.parent


class InstalledServer(ServerProcess):
    """``matchstate serve`` as the installed wheel's own command runs it."""

    def __init__(self, command: Path, url: str) -> None:
        super().__init__(url)
        self.program = command

    def command(self) -> list[str]:
        return [str(self.program), "serve", "--port", str(self.port)]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding the wheel built from this checkout; its dependencies are the test's own (a .pth file
    names this environment's site-packages after the venv's), so nothing is downloaded."""
    folder = tmp_path_factory.mktemp("wheel")
    built = folder / "dist"
    # No build isolation: setuptools is a dev dependency, so the build needs no network.
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--disable-pip-version-check", "--wheel-dir", str(built), str(ROOT)],
                   check=True, cwd=folder)
    [wheel] = built.glob("matchstate-*.whl")
    venv = folder / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                    "--quiet", "--disable-pip-version-check", str(wheel)], check=True)
    return venv


def run(venv: Path, *args: str, url: str) -> str:
    """A command of the installed wheel, run away from the checkout so nothing of it can be imported."""
    env = {**os.environ, "MATCHSTATE_DATABASE_URL": url}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([str(venv / "bin" / "matchstate"), *args], cwd=venv, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_installed_wheel_is_imported_from_the_venv_not_the_checkout(installed: Path) -> None:
    where = subprocess.run([str(installed / "bin" / "python"), "-c",
                            "import matchstate.engine, matchstate.rules, matchstate.cli; print(matchstate.__file__)"],
                           cwd=installed, capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(installed)


def test_the_installed_wheel_upgrades_a_database_replays_an_example_and_serves(installed: Path,
                                                                              tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    run(installed, "db", "upgrade", "--create", url=url)
    examples = subprocess.run([str(installed / "bin" / "python"), "-c",
                               "import matchstate.examples as e, pathlib; print(pathlib.Path(e.__file__).parent)"],
                              cwd=installed, capture_output=True, text=True, check=True).stdout.strip()
    example = Path(examples) / "full-match.jsonl"
    replayed = run(installed, "replay", "--json", str(example), url=url)
    # The installed wheel rules on its own bundled example as this checkout does, line for line.
    checkout = subprocess.run([sys.executable, "-m", "matchstate", "replay", "--json", str(example)],
                              capture_output=True, text=True, check=True).stdout
    assert len(replayed.splitlines()) > 100 and replayed == checkout
    assert any(json.loads(line).get("ruling") for line in replayed.splitlines())
    with InstalledServer(installed / "bin" / "matchstate", url) as server:
        with urllib.request.urlopen(f"{server.base}/", timeout=30) as page:
            assert page.status == 200
            html = page.read().decode()
        static = Path(examples).parent / "web" / "static"
        for asset in sorted(static.iterdir()):  # every file the pages load from /static answers
            if asset.is_file():
                with urllib.request.urlopen(f"{server.base}/static/{asset.name}", timeout=30) as answer:
                    assert answer.status == 200, asset.name
    assert "matchstate" in html.lower()
