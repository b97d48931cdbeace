"""Issue 19: the console keeps the latest league log checkpoint it has seen; when its server is restored from an
older copy of its store (a real copy of the SQLite file, taken while the server was stopped), the console and the
review say, in English and Spanish, that the log was rolled back, and offer the misbehaviour report, which
`matchstate verify --report` checks with no server."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from browser.browsing import Console
from browser.conftest import watch
from matchstate.cli import main
from matchstate.web.process import ServerProcess


def _copy(folder: Path, source: str, target: str) -> None:
    for suffix in ("", "-wal", "-shm"):
        (folder / f"{target}{suffix}").unlink(missing_ok=True)
        if (folder / f"{source}{suffix}").exists():
            shutil.copy(folder / f"{source}{suffix}", folder / f"{target}{suffix}")


def test_a_console_that_saw_a_newer_checkpoint_shows_the_rollback(server: ServerProcess,
                                                                  scorer: Callable[..., Console],
                                                                  tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    console = scorer("restored")
    page = console.page
    console.click("chukker.start")
    console.wait_until_sent()
    server.stop()
    _copy(tmp_path, "browser.db", "older.db")
    server.start()
    console.click("goal", team="Blue", player=3)
    console.wait_until_sent()
    console.click("goal", team="Red", player=2)
    console.wait_until_sent()
    page.wait_for_function("() => Object.keys(localStorage).some((name) => name.startsWith('matchstate.log:'))")
    server.stop()
    _copy(tmp_path, "older.db", "browser.db")  # the store restored from the older copy
    server.start()
    page.reload()
    alarm = page.locator("#log-alarm")
    alarm.wait_for(state="visible")
    assert "The league log was rolled back" in alarm.inner_text()
    assert "El registro de la liga retrocedió" in alarm.inner_text()
    with page.expect_download() as download:
        alarm.locator("a[download]").click()
    saved = tmp_path / "report.json"
    download.value.save_as(saved)
    report = json.loads(saved.read_text())
    assert report["kind"] == "rollback" and report["seen"] and report["given"]
    # The report's two checkpoints alone do not show which came first: verify names the question that does, and
    # the server, asked it, refuses (it holds fewer leaves than it signed), which is the rollback.
    assert main(["verify", "--report", str(saved)]) == 0
    older, newer = sorted(int(report[which].split("\n")[1]) for which in ("seen", "given"))
    asked = f"/api/log/consistency?from={older}&to={newer}"
    assert asked in capsys.readouterr().out
    assert page.evaluate("async (asked) => (await fetch(asked)).status", asked) == 400
    review = watch(page.context.new_page())  # the officials' review, in the same browser: the same kept checkpoint
    review.goto(f"{server.base}/matches/restored/review#key={console.keys['official_key']}")
    review.locator("#log-alarm").wait_for(state="visible")
    assert "El registro de la liga retrocedió" in review.locator("#log-alarm").inner_text()
    # the browser logs each refused connection while the server was stopped, and the 400 of the refused proof
    for seen in (page, review):
        assert [error for error in seen.errors if "ERR_CONNECTION_REFUSED" not in error and "400" not in error] == []
