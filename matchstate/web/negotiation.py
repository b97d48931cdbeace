"""The ``Accept-*`` headers read as RFC 9110 (12.5) writes them: each value named, with its weight."""

from __future__ import annotations


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


def accepted_encodings(accept_encoding: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header takes: each named, but those weighted 0."""
    return {coding for coding, weight in weighted(accept_encoding) if weight > 0}
