"""The ``Accept-*`` headers read as RFC 9110 (12.5) writes them: each value named, with its weight."""

from __future__ import annotations

from collections.abc import Sequence


def weighted(header: str) -> list[tuple[str, float]]:
    """Each value ``header`` names (lower case), in its order, with its weight (``q``; 1 where none is given, 0
    where it is no number)."""
    found = []
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(number)
                except ValueError:
                    weight = 0.0
        if name.strip():
            found.append((name.strip().lower(), weight))
    return found


def preferred_encoding(accept_encoding: str, offered: Sequence[str]) -> str | None:
    """Of ``offered`` (content codings, the server's choice first), the one an ``Accept-Encoding`` header weighs
    highest (``*`` weighs those it does not name; ``x-gzip`` is gzip); None where it takes none of them, and the
    answer goes as it is."""
    weights = {"gzip" if coding == "x-gzip" else coding: weight for coding, weight in weighted(accept_encoding)}
    weight, _, coding = max((weights.get(coding, weights.get("*", 0.0)), -order, coding)
                            for order, coding in enumerate(offered))
    return coding if weight > 0 else None
