"""The deploy recipes (deploy/), tested as far as a machine without a service manager's run or a container engine
allows: the systemd unit passes ``systemd-analyze verify`` (where it is installed) and every command it runs is one
the CLI has, with options it takes; the environment file and the compose file set only variables matchstate reads;
the compose file is a well-formed service over PostgreSQL. The Containerfile's CMD runs against an installed wheel
in tests/test_wheel.py."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]  # PyYAML ships no types; the test reads one file

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
MATCHSTATE = str(Path(sys.executable).with_name("matchstate"))


def help_of(*command: str) -> str:
    done = subprocess.run([MATCHSTATE, *command, "--help"], capture_output=True, text=True, check=True)
    return done.stdout


def read_variables() -> set[str]:
    """The variables matchstate reads: each serve option's (named in its help) and those the package reads itself."""
    named = set(re.findall(r"\$(MATCHSTATE_\w+)", help_of("serve")))
    source = "\n".join(path.read_text() for path in (ROOT / "matchstate").rglob("*.py"))
    return named | set(re.findall(r"environ(?:\.get\(|\[)\"(MATCHSTATE_\w+)\"", source))


def unit() -> configparser.ConfigParser:
    parsed = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parsed.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys are case-sensitive
    parsed.read(DEPLOY / "matchstate.service")
    return parsed


def check_command(line: str) -> None:
    """A command line of matchstate: its sub-command (and action) exist, and each option is in their help."""
    words = shlex.split(line)
    assert Path(words[0]).name == "matchstate", line
    command = [word for word in words[1:] if not word.startswith("-")]
    assert help_of(*command), line  # argparse refuses an unknown command or action with exit 2
    options = help_of(*command)
    for option in (word.split("=")[0] for word in words[1:] if word.startswith("-")):
        assert re.search(rf"(^|[\s,]){re.escape(option)}\b", options), f"{line}: {option} is not an option"


def test_the_unit_runs_commands_the_cli_has_in_a_hardened_sandbox() -> None:
    service = unit()["Service"]
    for key in ("ExecStartPre", "ExecStart"):
        check_command(service[key])
    assert service["ExecStartPre"].split()[1:3] == ["db", "upgrade"]
    hardening = {"DynamicUser": "yes", "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes",
                 "PrivateTmp": "yes", "StateDirectory": "matchstate"}
    assert {key: service.get(key) for key in hardening} == hardening
    assert service["EnvironmentFile"] == "/etc/matchstate/matchstate.env"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    # The unit names /usr/local/bin/matchstate; verify checks that it is executable, so it is pointed at this one.
    text = (DEPLOY / "matchstate.service").read_text().replace("/usr/local/bin/matchstate", MATCHSTATE)
    (tmp_path / "matchstate.service").write_text(text)
    done = subprocess.run(["systemd-analyze", "verify", str(tmp_path / "matchstate.service")],
                          capture_output=True, text=True)
    assert (done.returncode, done.stderr.strip()) == (0, "")  # an unknown key is only a warning: none either


def test_the_environment_file_sets_only_variables_matchstate_reads() -> None:
    lines = [line for line in (DEPLOY / "matchstate.env").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    names = {line.split("=", 1)[0] for line in lines}
    assert names <= read_variables(), names - read_variables()
    assert {"MATCHSTATE_DATABASE_URL", "MATCHSTATE_SECRET_FILE", "MATCHSTATE_PORT"} <= names


def test_the_compose_file_runs_the_image_over_postgresql_with_variables_matchstate_reads() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"db", "matchstate"}
    app, db = services["matchstate"], services["db"]
    assert app["build"]["dockerfile"] == "deploy/Containerfile"
    assert (DEPLOY / app["build"]["context"] / app["build"]["dockerfile"]).resolve() == DEPLOY / "Containerfile"
    assert app["depends_on"]["db"]["condition"] == "service_healthy" and "healthcheck" in db
    environment = app["environment"]
    assert set(environment) <= read_variables(), set(environment) - read_variables()
    assert environment["MATCHSTATE_DATABASE_URL"].startswith("postgresql://")
    password = db["environment"]["POSTGRES_PASSWORD"]
    assert f"{db['environment']['POSTGRES_USER']}:{password}@db/{db['environment']['POSTGRES_DB']}" in \
        environment["MATCHSTATE_DATABASE_URL"]
    named_volumes = {mount.split(":")[0] for service in services.values() for mount in service.get("volumes", [])}
    assert named_volumes == set(compose["volumes"])
    assert all(all(isinstance(value, str) for value in service.get("environment", {}).values())
               for service in services.values())  # a number unquoted is a YAML int, refused by compose's schema
