"""axe-core (from npm, installed by scripts/test, injected from node_modules: never a CDN) finds no serious or
critical violation on any page, in English and in Spanish (chosen with the toggle, and remembered)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from browser.browsing import PAGES, TABLET, match_with_events, open_page
from matchstate.web.process import ServerProcess

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
GRAVE = ("serious", "critical")


@pytest.fixture(scope="module")
def axe() -> Path:
    if not AXE.exists():
        reason = f"{AXE} is missing: ./scripts/test installs it (npm ci, from package-lock.json)"
        if os.environ.get("MATCHSTATE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"{reason}, and MATCHSTATE_REQUIRE_BROWSER=1", pytrace=False)
        pytest.skip(reason)
    return AXE


def described(violations: list[dict[str, Any]]) -> str:
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']}; " + ", ".join(
        " ".join(node["target"]) if isinstance(node["target"], list) else str(node["target"])
        for node in v["nodes"][:4]) for v in violations)


# What a page shows once a person has opened a part of it (clicking each in turn): the console's form, the
# review's ruling, its dialog (the void is the selected row's).
OPENED = {"console form": ("console", ['#buttons [data-type="penalty.award"]'], "#form:not([hidden])"),
          "review ruling": ("review", ["table.timeline tr.has-ruling"], "#detail .clause"),
          "review void": ("review", ['table.timeline tr[data-seq="4"]', 'table.timeline tr[data-seq="4"] button'],
                          "#void[open]")}


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("page_name", PAGES + list(OPENED))
def test_axe_finds_no_serious_or_critical_violation(server: ServerProcess, new_page: Any, axe: Path,
                                                    page_name: str, language: str) -> None:
    keys = match_with_events(server, "axe-1")
    page = new_page(viewport=TABLET, bypass_csp=True)  # axe-core goes in as an inline script, which the CSP refuses
    shown, click, wait = OPENED.get(page_name, (page_name, None, None))
    open_page(server, page, shown, "axe-1", keys)
    if language == "es":
        page.click("#lang")
        open_page(server, page, shown, "axe-1", keys)  # the choice is remembered
        assert page.inner_text("#lang") == "English"
        assert page.evaluate("() => document.documentElement.lang") == "es"
    if click is not None:
        for target in click:
            page.locator(target).first.click()
        page.wait_for_selector(wait)
    page.add_script_tag(path=str(axe))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    grave = [v for v in results["violations"] if v["impact"] in GRAVE]
    assert not grave, f"{page_name} in {language}:\n{described(grave)}"


@pytest.mark.parametrize("language", ["en", "es"])
def test_axe_finds_no_serious_violation_in_the_review_with_a_clip_open_and_a_review_open(
        server: ServerProcess, new_page: Any, axe: Path, clip: Path, language: str) -> None:
    keys = match_with_events(server, "axe-video")
    page = new_page(viewport=TABLET, bypass_csp=True)  # axe-core goes in as an inline script, which the CSP refuses
    open_page(server, page, "review", "axe-video", keys)
    if language == "es":
        page.click("#lang")
    page.set_input_files("#clip-file", str(clip))
    page.wait_for_function("() => document.querySelector('.player video').readyState >= 1")
    page.click('table.timeline tr[data-seq="4"]')
    page.wait_for_selector('table.timeline tr.selected[data-seq="4"]')
    page.click(".player .pin")
    page.wait_for_selector("table.timeline .moment")
    page.click('#review-ask [data-asker="umpire"]')
    page.wait_for_selector("#review-open .open-review")
    page.add_script_tag(path=str(axe))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    grave = [v for v in results["violations"] if v["impact"] in GRAVE]
    assert not grave, f"the review with a clip open, in {language}:\n{described(grave)}"
