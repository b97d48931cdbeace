"""What the service worker keeps for a server that does not answer: the pages it keeps as they are visited, and
what it keeps as it installs (besides the static files). Its script (``templates/sw.js``) and the pages' own
(``data-kept-offline``, to say so while this device has no copy of the page yet) read both from here."""

from __future__ import annotations

import re

# A match's console, review and scoreboard, the scoreboard of every match in play and the records page: as
# its pattern is read in JavaScript too, only what both languages read alike.
KEPT_PAGE = re.compile(r"^/(scoreboard|matches/[^/]+/(console|review|scoreboard))?$")
# Kept as the worker installs: the records page, the scoreboard of every match in play, the start page the
# installed app opens, the reference data the console reads and the web app manifest.
PRECACHE = ["/", "/scoreboard", "/api/event-types", "/api/rules", "/console", "/manifest.webmanifest"]


def kept_offline(path: str) -> bool:
    """Whether the service worker keeps the page at ``path``."""
    return KEPT_PAGE.fullmatch(path) is not None or path in PRECACHE
