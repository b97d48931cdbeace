"""Feeds of a tournament for club websites: its fixtures as an iCalendar (RFC 5545) and its results as JSON."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..words import phrase
from .flow import Progress, fixture_json
from .standings import goals
from .when import MATCH_LENGTH, kickoff_read


def ics_text(value: str) -> str:
    """A TEXT value escaped as RFC 5545 3.3.11 says."""
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def folded(line: str) -> str:
    """A content line folded at 75 octets (RFC 5545 3.1): each continuation starts with one space, and no
    UTF-8 character is split."""
    octets = line.encode()
    if len(octets) <= 75:
        return line
    parts: list[str] = []
    current = b""
    limit = 75
    for char in line:
        encoded = char.encode()
        if len(current) + len(encoded) > limit:
            parts.append(current.decode())
            current = b""
            limit = 74  # the leading space of a continuation is one of its 75
        current += encoded
    parts.append(current.decode())
    return "\r\n ".join(parts)


def calendar(progress: Progress, host: str, stamp: datetime, lang: str = "en") -> str:
    """The tournament's scheduled fixtures as a VCALENDAR, one VEVENT each, UID ``fixture@slug.host``, in
    ``lang``; a fixture whose teams are not known yet says where they come from ("winner of Cup-R1-2")."""
    tournament = progress.tournament
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//matchstate//tournament desk//EN", "CALSCALE:GREGORIAN",
             f"X-WR-CALNAME:{ics_text(tournament.name)}"]
    dtstamp = stamp.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    for fixture in tournament.fixtures:
        start = kickoff_read(fixture.day, fixture.time)
        if start is None:
            continue
        data = fixture_json(progress, fixture)
        round_said = phrase("tournament", "round", lang, n=fixture.round)
        summary = f"{data['home'] or data['home_said'][lang]} v {data['away'] or data['away_said'][lang]}"
        if data["score"] and data["home"] and data["away"] and data["status"] in ("ended", "level"):
            summary += f" ({goals(data['score'][data['home']])}-{goals(data['score'][data['away']])})"
        lines += ["BEGIN:VEVENT", f"UID:{fixture.id}@{tournament.slug}.{host}", f"DTSTAMP:{dtstamp}",
                  f"DTSTART:{start.strftime('%Y%m%dT%H%M%S')}",
                  f"DTEND:{(start + MATCH_LENGTH).strftime('%Y%m%dT%H%M%S')}",
                  f"SUMMARY:{ics_text(summary)}",
                  f"DESCRIPTION:{ics_text(f'{tournament.name}: {fixture.stage}, ' + round_said)}"]
        where = ", ".join(part for part in (fixture.field, tournament.venue) if part)
        if where:
            lines.append(f"LOCATION:{ics_text(where)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(folded(line) + "\r\n" for line in lines)


def results_feed(progress: Progress) -> dict[str, Any]:
    """The results so far, for a club's website: every fixture with its teams, status and score, and the
    standings of each group."""
    tournament = progress.tournament
    return {"tournament": tournament.slug, "name": tournament.name, "starts": tournament.starts,
            "ends": tournament.ends, "venue": tournament.venue, **progress.to_json()}
