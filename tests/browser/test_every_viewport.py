"""Every page fits a phone, a tablet and a laptop without scrolling sideways, on a match that holds events
(so the timelines have rows); on the tablet the review's timeline shows every column whole."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browsing import PAGES, PHONE, TABLET, match_with_events, open_page
from matchstate.web.process import ServerProcess

VIEWPORTS: dict[str, Any] = {
    "phone": PHONE, "tablet": {"width": 768, "height": 1024}, "laptop": {"width": 1366, "height": 768}}

@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("page_name", PAGES)
def test_every_page_fits_the_screen_without_scrolling_sideways(server: ServerProcess, new_page: Any,
                                                               page_name: str, viewport: str) -> None:
    keys = match_with_events(server, "fit-1")
    page = new_page(viewport=VIEWPORTS[viewport])
    open_page(server, page, page_name, "fit-1", keys)
    width = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"{page_name} on a {viewport} is {width[0]} px wide for {width[1]} px"
    assert page.errors == []


@pytest.mark.parametrize("viewport", [VIEWPORTS["tablet"], TABLET], ids=["upright", "sideways"])
def test_the_reviews_timeline_shows_every_column_whole_on_a_tablet(server: ServerProcess, new_page: Any,
                                                                   viewport: dict[str, int]) -> None:
    keys = match_with_events(server, "fit-2")
    page = new_page(viewport=viewport)
    open_page(server, page, "review", "fit-2", keys)
    # Inside the viewport and inside the timeline's own scrolling box (the pane): nothing hidden or cut.
    pane = page.eval_on_selector("#pane", "p => p.getBoundingClientRect().left + p.clientWidth")
    headers = page.eval_on_selector_all("table.timeline thead th", """cells => cells.map((th) => {
        const r = th.getBoundingClientRect(), style = getComputedStyle(th);
        return {text: th.innerText, left: r.left, right: r.right, width: r.width,
                shown: style.display !== 'none' && style.visibility !== 'hidden'};
    })""")
    assert len(headers) == 7
    for header in headers:
        assert header["shown"] and header["width"] > 0, header
        assert header["left"] >= 0 and header["right"] <= min(viewport["width"], pane), (header, pane)
