"""The console installs as an app: Chromium finds the manifest installable, and the installed app opens at
the console of the match in progress, also with the server down."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browsing import TABLET, TIMEOUT_MS, create, wait_until, wait_until_kept
from browser.conftest import ARGS, CHROMIUM, require_browser, watch
from matchstate.web.process import ServerProcess


@pytest.fixture
def profile_page(tmp_path: Path) -> Iterator[Any]:
    """A page of a browser with a profile on disk, as a tablet's is: Chromium installs nothing from an
    incognito context, which is what a new Playwright context is."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=ARGS,
            viewport={"width": TABLET["width"], "height": TABLET["height"]})
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        yield watch(page)
        context.close()


def test_the_manifest_passes_chromiums_installability_check(server: ServerProcess, profile_page: Any) -> None:
    keys = create(server, "install-1")
    page = profile_page
    page.goto(f"{server.base}/matches/install-1/console#key={keys['scorer_key']}")
    page.wait_for_selector("#console.ready")
    wait_until(page, "async () => (await navigator.serviceWorker.getRegistrations()).length === 1")
    session = page.context.new_cdp_session(page)
    manifest = session.send("Page.getAppManifest")
    assert manifest["errors"] == [] and manifest["url"].endswith("/manifest.webmanifest")
    assert session.send("Page.getInstallabilityErrors")["installabilityErrors"] == []


def test_the_installed_app_opens_the_console_of_the_match_in_progress_online_and_offline(
        server: ServerProcess, new_page: Callable[..., Any]) -> None:
    for code in ("install-old", "install-now"):
        keys = create(server, code)
    page = new_page(viewport=TABLET)
    page.goto(f"{server.base}/console")
    page.wait_for_url(f"{server.base}/matches/install-now/console")  # none opened here yet: the newest in play
    page.wait_for_selector("#console.ready")
    page.goto(f"{server.base}/matches/install-old/console")
    page.wait_for_selector("#console.ready")
    wait_until_kept(page, "'/console'")
    wait_until_kept(page)
    page.goto(f"{server.base}/console")
    page.wait_for_url(f"{server.base}/matches/install-old/console")  # this device's own match comes first
    page.wait_for_selector("#console.ready")

    server.stop()
    page.goto(f"{server.base}/console")
    page.wait_for_url(f"{server.base}/matches/install-old/console")
    page.wait_for_selector("#console.ready")
    assert "This site can" not in page.content()
    del keys
