"""Brackets drawn on the server as SVG: one column per round, a box per fixture with its two teams (or where
they come from) and their goals, the winner marked. Styled by class from the page's stylesheet (no style
attributes, for the pages' Content-Security-Policy)."""

from __future__ import annotations

from markupsafe import Markup, escape

from .flow import Progress, fixture_json
from .standings import goals

BOX_WIDTH, BOX_HEIGHT, GAP_X, ROW = 180, 44, 36, 56


def stage_pictures(progress: Progress, lang: str = "en") -> dict[str, Markup]:
    """Each knockout stage's bracket as an ``<svg>``, by stage name, in the order the stages first appear."""
    stages: dict[str, list[str]] = {}
    for fixture in progress.tournament.fixtures:
        if fixture.kind == "knockout":
            stages.setdefault(fixture.stage, []).append(fixture.id)
    return {stage: picture(progress, stage, lang) for stage in stages}


def picture(progress: Progress, stage: str, lang: str = "en") -> Markup:
    fixtures = [f for f in progress.tournament.fixtures if f.stage == stage and f.kind == "knockout"]
    rounds = sorted({f.round for f in fixtures})
    columns = [[f for f in fixtures if f.round == number] for number in rounds]
    rows = max(len(column) for column in columns)
    height = rows * ROW + 8
    width = len(columns) * (BOX_WIDTH + GAP_X)
    parts = [Markup('<svg class="bracket" role="img" viewBox="0 0 {} {}" width="{}" height="{}" '
                    'aria-label="{}">').format(width, height, width, height, stage)]
    centres: dict[str, tuple[float, float]] = {}
    for index, column in enumerate(columns):
        x = index * (BOX_WIDTH + GAP_X)
        slot = height / len(column)
        for place, fixture in enumerate(column):
            y = slot * place + (slot - BOX_HEIGHT) / 2
            centres[fixture.id] = (x, y + BOX_HEIGHT / 2)
            data = fixture_json(progress, fixture)
            for source in (fixture.home, fixture.away):
                if source.kind in ("winner", "loser") and source.ref in centres:
                    fx, fy = centres[source.ref]
                    parts.append(Markup('<path class="feed" d="M{:.0f} {:.0f} H{:.0f} V{:.0f} H{:.0f}"/>').format(
                        fx + BOX_WIDTH, fy, x - GAP_X / 2, y + BOX_HEIGHT / 2, x))
            parts.append(Markup('<g class="fixture {}" data-fixture="{}" data-match="{}">').format(
                data["status"], fixture.id, fixture.match or ""))
            parts.append(Markup('<rect x="{:.0f}" y="{:.0f}" width="{}" height="{}" rx="4"/>').format(
                x, y, BOX_WIDTH, BOX_HEIGHT))
            for line, (team, label) in enumerate(((data["home"], fixture.home.said(lang)),
                                                  (data["away"], fixture.away.said(lang)))):
                score = data["score"] or {}
                won = team is not None and team == data["winner"]
                ty = y + 17 + line * 20
                parts.append(Markup('<text x="{:.0f}" y="{:.0f}" class="{}">{}</text>').format(
                    x + 8, ty, "team won" if won else "team" if team else "team waiting", team or label))
                if team is not None and team in score:
                    parts.append(Markup('<text x="{:.0f}" y="{:.0f}" class="goals" data-team="{}" '
                                        'text-anchor="end">{}</text>').format(x + BOX_WIDTH - 8, ty, team,
                                                                              goals(score[team])))
            parts.append(Markup("</g>"))
    parts.append(Markup("</svg>"))
    return Markup("").join(parts) if parts else escape("")
