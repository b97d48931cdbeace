"""The built wheel, installed as a user installs it (not editable) into a venv of its own, upgrades a database,
replays a bundled example and serves the pages (issue 16, finding 1: a wheel without matchstate.engine)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.request
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]  # PyYAML ships no types; the test reads one file

from matchstate.web.process import START_TIMEOUT, ServerProcess, free_port

ROOT = Path(__file__).resolve().parent.parent


class InstalledServer(ServerProcess):
    """``matchstate serve`` as the installed wheel's own command runs it."""

    def __init__(self, command: Path, url: str) -> None:
        super().__init__(url)
        self.program = command

    def command(self) -> list[str]:
        return [str(self.program), "serve", "--port", str(self.port)]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The wheel built from this checkout, and what its build printed."""
    folder = tmp_path_factory.mktemp("wheel")
    # No build isolation: setuptools is a dev dependency, so the build needs no network.
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "--disable-pip-version-check", "--wheel-dir", str(folder / "dist"), str(ROOT)],
                           check=True, cwd=folder, capture_output=True, text=True)
    [wheel] = (folder / "dist").glob("matchstate-*.whl")
    return wheel, build.stdout + build.stderr


@pytest.fixture(scope="module")
def installed(built: tuple[Path, str]) -> Path:
    """A venv holding the built wheel; its dependencies are the test's own (a .pth file names this environment's
    site-packages after the venv's), so nothing is downloaded."""
    wheel, _ = built
    venv = wheel.parent.parent / "venv"
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


def test_the_wheel_builds_without_setuptools_warning_of_a_folder_it_would_leave_out(built: tuple[Path, str]) -> None:
    """The folders holding only data (the catalog, the pages' files, the examples) are packages the build names:
    a folder setuptools finds importable but not named is one a later setuptools leaves out of the wheel."""
    _, printed = built
    assert "Building wheel for matchstate" in printed
    assert "absent from the `packages` configuration" not in printed, printed


def test_the_installed_wheel_is_imported_from_the_venv_not_the_checkout(installed: Path) -> None:
    where = subprocess.run([str(installed / "bin" / "python"), "-c",
                            "import matchstate.engine, matchstate.rules, matchstate.cli; print(matchstate.__file__)"],
                           cwd=installed, capture_output=True, text=True)
    assert where.returncode == 0, where.stderr
    assert Path(where.stdout.strip()).is_relative_to(installed)


def test_the_installed_wheel_upgrades_a_database_replays_an_example_and_serves(installed: Path,
                                                                              tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    # the installed command's entry (matchstate.commands) answers --help itself
    listed = run(installed, "--help", url=url)
    assert listed.startswith("usage: matchstate [-h] [--version] COMMAND ...") and "    serve " in listed
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


def containerfile() -> tuple[dict[str, str], list[str], list[str], str]:
    """deploy/Containerfile's ENV (its continued lines joined), CMD, HEALTHCHECK's CMD and USER."""
    text = (ROOT / "deploy" / "Containerfile").read_text().replace("\\\n", " ")
    instructions = [line.split(None, 1) for line in text.splitlines() if line.strip() and not line.startswith("#")]
    found = {kind: rest for kind, rest in instructions}
    environment = dict(shlex.split(pair)[0].split("=", 1) for pair in shlex.split(found["ENV"], posix=False))
    health = json.loads(found["HEALTHCHECK"].split(" CMD ", 1)[1])
    return environment, json.loads(found["CMD"]), health, found["USER"]


@pytest.mark.parametrize("compose", [False, True], ids=["image", "compose"])
def test_the_containerfile_cmd_upgrades_a_new_store_and_serves_until_its_healthcheck_passes(
        installed: Path, tmp_path: Path, compose: bool) -> None:
    """The image's CMD and HEALTHCHECK run as the Containerfile says, with its environment, over the installed wheel
    (no container engine here): the store is made, the server answers /healthz, a non-root user runs it. With
    compose's environment too: its allowed hosts refused the health check's 127.0.0.1, so the container never
    became healthy."""
    environment, command, health, user = containerfile()
    if compose:
        service = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())["services"]["matchstate"]
        environment |= {name: str(value) for name, value in service["environment"].items()
                        if name == "MATCHSTATE_ALLOWED_HOSTS"}
        assert environment["MATCHSTATE_ALLOWED_HOSTS"]
    assert user not in ("root", "0")
    assert command[:2] == ["sh", "-c"]
    assert "matchstate db upgrade" in command[2] and "exec matchstate serve" in command[2]
    port = free_port()
    env = {**os.environ, **environment, "PATH": f"{installed / 'bin'}:{os.environ['PATH']}",
           # the image's own paths, moved to this test's folder; its port one that is free here
           "MATCHSTATE_DATABASE_URL": f"sqlite:///{tmp_path / 'matchstate.db'}",
           "MATCHSTATE_SECRET_FILE": str(tmp_path / "matchstate.secret"), "MATCHSTATE_PORT": str(port)}
    env.pop("PYTHONPATH", None)
    assert environment["MATCHSTATE_HOST"] == "0.0.0.0"
    env["MATCHSTATE_HOST"] = "127.0.0.1"  # a test listens on loopback only
    log = tmp_path / "container.log"
    with open(log, "wb") as out:
        container = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + START_TIMEOUT  # only guards against a server that never answers
        while subprocess.run(health, cwd=tmp_path, env=env, capture_output=True).returncode != 0:
            assert container.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        assert (tmp_path / "matchstate.db").exists() and (tmp_path / "matchstate.secret").exists()
    finally:
        container.terminate()  # `exec`: the shell became the server, which SIGTERM ends cleanly
        assert container.wait(timeout=60) in (0, -signal.SIGTERM), log.read_text()
    assert "Finished server process" in log.read_text() and "Traceback" not in log.read_text()
