"""The browser tests' fixtures: Debian's Chromium driven by Playwright, against a real `matchstate serve`
on 127.0.0.1 (service workers need a real http origin), which a test may stop and start again.

Where Chromium or Playwright is missing these tests skip, or fail where CI sets MATCHSTATE_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browsing import TABLET, TIMEOUT_MS, Console, create, league_store
from matchstate.web.process import ServerProcess

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _unavailable() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing: install Debian's chromium package (.ci/run does)"
    if importlib.util.find_spec("playwright") is None:
        return "Playwright for Python is not installed (it is a dev dependency)"
    return None


# One browser per test module, not per session: Playwright's sync API keeps an event loop running while
# it is open, and the service's own tests, after these, run asyncio.run().
def require_browser() -> None:
    """Skip the test where Chromium or Playwright is missing; fail it instead under MATCHSTATE_REQUIRE_BROWSER=1."""
    reason = _unavailable()
    if reason is not None:
        if os.environ.get("MATCHSTATE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason}, and MATCHSTATE_REQUIRE_BROWSER=1", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on its own SQLite database; ``server.stop()`` and ``server.start()`` take it away and back."""
    url = f"sqlite:///{tmp_path / 'browser.db'}"
    league_store(url)
    process = ServerProcess(url, log=tmp_path / "server.log")
    process.start()
    yield process
    process.stop()


class PageErrors(list[str]):
    """The JavaScript errors a page reported: uncaught exceptions and console errors."""


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """A page in a browser context of its own (its own storage and service worker): ``new_page(viewport=...)``.
    Each page's JavaScript errors are kept in ``page.errors``."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int] | None = None, **options: Any) -> Any:
        context = browser.new_context(viewport=viewport or {"width": 1100, "height": 1000}, **options)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        watch(page)
        return page

    yield make
    for context in contexts:
        context.close()


def watch(page: Any) -> Any:
    page.errors = PageErrors()
    page.on("pageerror", lambda err: page.errors.append(f"uncaught: {err}"))
    page.on("console", lambda message: page.errors.append(f"console: {message.text}")
            if message.type == "error" else None)
    return page


@pytest.fixture
def scorer(server: ServerProcess, new_page: Callable[..., Any]) -> Callable[..., Console]:
    """A new match (``code``) and its scorer's console, open: ``scorer(code, viewport=..., prepare=f, **fields)``;
    ``prepare(page)`` runs before the console opens (say, to install Playwright's clock); ``fields`` are its
    match.start's (``chukkers=2``, say). The match's keys are in ``console.keys``."""

    def make(code: str, viewport: dict[str, int] = TABLET, prepare: Callable[[Any], None] | None = None,
             **fields: Any) -> Console:
        keys = create(server, code, **fields)
        page = new_page(viewport=viewport)
        if prepare is not None:
            prepare(page)
        console = Console(page, code).open(server, keys["scorer_key"])
        console.keys = keys
        return console

    return make


CLIP_SECONDS = 14


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 14 s WebM (VP8) at 30 frames a second, its frame number drawn on each frame (ffmpeg's testsrc)."""
    ffmpeg = shutil.which("ffmpeg")
    if ffmpeg is None:
        reason = "ffmpeg is missing: install Debian's ffmpeg (.ci/run does) to make the review's test recording"
        if os.environ.get("MATCHSTATE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason}, and MATCHSTATE_REQUIRE_BROWSER=1", pytrace=False)
        pytest.skip(reason)
    path = tmp_path_factory.mktemp("video") / "umpire-1.webm"
    subprocess.run([ffmpeg, "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                    f"testsrc=duration={CLIP_SECONDS}:size=320x180:rate=30", "-c:v", "libvpx", "-b:v", "300k",
                    "-g", "15", str(path)], check=True, timeout=120)
    return path
