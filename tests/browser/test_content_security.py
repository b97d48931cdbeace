"""Every page under the server's Content-Security-Policy (no 'unsafe-inline'): it loads and draws what it
shows, the browser reports no violation of the policy, and a page's main action still works."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from browser.browsing import Console, log, match_with_events, open_page
from matchstate.web.process import ServerProcess

PAGES = ["records", "console", "review", "sheet", "scoreboard", "every scoreboard", "stats", "docs"]
# Each violation the page's document reports, kept where the test can read it.
LISTEN = """window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(
    `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));"""


def violations(page: Any) -> list[str]:
    found: list[str] = page.evaluate("window.__violations")
    return found


@pytest.mark.parametrize("page_name", PAGES)
def test_every_page_loads_under_the_policy_without_a_violation(server: ServerProcess, new_page: Callable[..., Any],
                                                               page_name: str) -> None:
    code = f"csp-{PAGES.index(page_name)}"
    keys = match_with_events(server, code)
    page = new_page()
    page.add_init_script(LISTEN)
    policies: list[str] = []
    page.on("response", lambda answer: policies.append(answer.headers.get("content-security-policy", ""))
            if answer.request.resource_type == "document" else None)
    open_page(server, page, page_name, code, keys)
    assert policies and all("script-src 'self'" in policy and "unsafe-inline" not in policy for policy in policies)
    page.click("#lang")  # every page's toggle: the catalog, read from its data block, still speaks Spanish
    page.wait_for_function("() => document.documentElement.lang === 'es'")
    assert violations(page) == [] and page.errors == []


def test_the_console_logs_an_event_under_the_policy(server: ServerProcess, scorer: Callable[..., Console]) -> None:
    console = scorer("csp-console", prepare=lambda page: page.add_init_script(LISTEN))
    console.click("chukker.start")
    console.page.wait_for_selector(".banner.ok")
    console.wait_until_sent()
    assert [row["type"] for row in log(server, "csp-console")] == ["match.start", "chukker.start"]
    assert violations(console.page) == [] and console.page.errors == []
