"""Bar charts drawn on the server as SVG: no script, printable, and read out whole by a screen reader
(the chart is an image whose title and description name every number it draws)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

# Series colours: dark then light of a hue, told apart by the legend's words as well as by colour.
COLOURS = ("#1f6f4a", "#8cc5a6", "#1b4f8a", "#9ab8dc")
INK = "#1d2327"
# Each row's label stands above its bar, so a long name is never cut and a phone's narrow column still reads.
WIDTH, BAR_WIDTH = 480, 440
ROW, BAR, LEGEND = 36, 14, 26


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart: ``svg`` is a complete ``<svg>`` element, its text escaped, ready to place in a page."""

    id: str
    title: str
    svg: str


def bar_chart(chart_id: str, title: str, series: Sequence[str],
              rows: Sequence[tuple[str, Sequence[float]]], no_data: str = "No data") -> Chart:
    """Horizontal bars, one per row, each stacked from the row's values in ``series`` order; ``no_data`` is
    what a chart without rows says."""
    most = max((sum(values) for _, values in rows), default=0) or 1
    height = LEGEND + ROW * max(len(rows), 1) + 4
    desc = "; ".join(f"{label}: " + ", ".join(f"{value:g} {name}" for name, value in zip(series, values, strict=True))
                     for label, values in rows) or f"{no_data}."
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
             f'aria-labelledby="{chart_id}-title" aria-describedby="{chart_id}-desc">',
             f'<title id="{chart_id}-title">{escape(title)}</title>',
             f'<desc id="{chart_id}-desc">{escape(desc)}</desc>']
    x = 0
    for n, name in enumerate(series):
        parts.append(f'<rect x="{x}" y="6" width="12" height="12" fill="{COLOURS[n]}"/>'
                     f'<text x="{x + 16}" y="16" font-size="12" fill="{INK}">{escape(name)}</text>')
        x += 28 + 7 * len(name)
    if not rows:
        parts.append(f'<text x="0" y="{LEGEND + 16}" font-size="13" fill="{INK}">{escape(no_data)}</text>')
    for n, (label, values) in enumerate(rows):
        y = LEGEND + n * ROW
        parts.append(f'<text x="0" y="{y + 12}" font-size="13" fill="{INK}">{escape(label)}</text>')
        left = 0.0
        for colour, value in zip(COLOURS, values, strict=False):
            width = BAR_WIDTH * value / most
            if width:
                parts.append(f'<rect x="{left:.1f}" y="{y + 16}" width="{width:.1f}" height="{BAR}" fill="{colour}"/>')
            left += width
        parts.append(f'<text x="{left + 5:.1f}" y="{y + 28}" font-size="12" fill="{INK}">{sum(values):g}</text>')
    parts.append("</svg>")
    return Chart(chart_id, title, "".join(parts))
