"""A player's rating over their rated matches as an SVG line, drawn by the service (no script)."""

from __future__ import annotations

from collections.abc import Sequence

WIDTH, HEIGHT = 640, 240
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_Y = 56, 12, 18


def rating_chart(start: float, ratings: Sequence[float], *, label: str) -> str:
    """The rating before the first match and after each one, as an SVG polyline with the
    lowest and highest rating written on the axis. Only numbers go into it: no names."""
    points = [start, *ratings]
    low, high = min(points), max(points)
    if high - low < 10:  # a flat line still gets a readable scale
        low, high = low - 5, high + 5
    span_x = WIDTH - MARGIN_LEFT - MARGIN_RIGHT
    span_y = HEIGHT - 2 * MARGIN_Y

    def x(index: int) -> float:
        return MARGIN_LEFT + span_x * index / max(1, len(points) - 1)

    def y(rating: float) -> float:
        return MARGIN_Y + span_y * (high - rating) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(points))
    last = points[-1]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{_escape(label)}" class="chart">'
        f'<line x1="{MARGIN_LEFT}" y1="{MARGIN_Y}" x2="{MARGIN_LEFT}" y2="{HEIGHT - MARGIN_Y}" '
        'stroke="currentColor" stroke-opacity="0.4"/>'
        f'<line x1="{MARGIN_LEFT}" y1="{HEIGHT - MARGIN_Y}" x2="{WIDTH - MARGIN_RIGHT}" '
        f'y2="{HEIGHT - MARGIN_Y}" stroke="currentColor" stroke-opacity="0.4"/>'
        f'<text x="{MARGIN_LEFT - 6}" y="{MARGIN_Y + 4}" text-anchor="end" font-size="12" '
        f'fill="currentColor">{round(high)}</text>'
        f'<text x="{MARGIN_LEFT - 6}" y="{HEIGHT - MARGIN_Y}" text-anchor="end" font-size="12" '
        f'fill="currentColor">{round(low)}</text>'
        f'<polyline points="{line}" fill="none" stroke="#1d6b3a" stroke-width="2"/>'
        f'<circle cx="{x(len(points) - 1):.1f}" cy="{y(last):.1f}" r="3.5" fill="#1d6b3a"/>'
        "</svg>"
    )


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
