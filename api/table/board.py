"""The backgammon board drawn by the service as SVG, for the table page (API.md "Playing at the
table"): the 24 points with both sides' checkers, the bar, the borne-off trays, the cube with
its value and owner, and the dice.

Drawn from side a's seat: side a's home (its points 1..6) bottom right, side b's top right, as
GNU Backgammon draws it. The point numbers are those of ``numbering``, the side on turn, whose
notation the legal plays use. Every part carries a hook for tests and scripts (``data-point``,
``data-bar``, ``data-off``, ``data-cube``, ``data-die``): names, not layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Literal

Side = Literal["a", "b"]
CHECKERS = 15
POINT_WIDTH = 36
LEFT = 50
"""The cube's column, left of the points."""
BAR_WIDTH = 36
TRAY_WIDTH = 56
TOP = 22
BOTTOM = 442
POINT_HEIGHT = 170
RADIUS = 16
STACK = 5
"""Checkers drawn on a point; a taller stack shows its count on the last one."""
WIDTH = LEFT + 12 * POINT_WIDTH + BAR_WIDTH + TRAY_WIDTH + 8
HEIGHT = BOTTOM + 22
MIDDLE = (TOP + BOTTOM) // 2
COLOURS: dict[Side, tuple[str, str]] = {"a": ("#f5efe0", "#5a4a3a"), "b": ("#2b211b", "#d8c8b0")}
"""Each side's checker fill and its text and rim colour."""
POINT_COLOURS = ("#b5563c", "#dcc59a")
PIPS = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


@dataclass(frozen=True, slots=True)
class CubePicture:
    value: int
    owner: Side | None
    offered: int | None = None
    """A double awaiting its answer: the value the cube would take."""


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """What the board shows: both sides' checkers from their own side (index p - 1 is the
    side's point p, index 24 its bar), the cube, the dice and whose numbering the labels use."""

    board_a: Sequence[int]
    board_b: Sequence[int]
    cube: CubePicture | None
    """rule V-CUBE-1: None, no cube on the board of a match played without it."""
    dice: tuple[int, int] | None
    numbering: Side
    title: str
    same_direction: bool = False
    """rule V-BOARD-2: Fevga and Nardi, where side b's point p is side a's point p ± 12."""
    pinned_a: tuple[int, ...] = ()
    """Plakoto (V-PLAKOTO-2): side a's points, in its numbering, where its checker is pinned."""
    pinned_b: tuple[int, ...] = ()
    directions: bool = False
    """Mark where each side starts and which way it travels (a variant's board)."""

    def point_of_b(self, point: int) -> int:
        """Side b's number for side a's point ``point`` (rule V-BOARD-2)."""
        if self.same_direction:
            return point + 12 if point <= 12 else point - 12
        return 25 - point


def board_svg(picture: BoardPicture) -> str:
    """The board as an inline ``<svg>`` element (no script, no external reference)."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="board" data-board aria-label="{escape(picture.title)}">',
        f"<title>{escape(picture.title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="8" fill="#4a3323"/>',
        f'<rect x="{LEFT}" y="{TOP}" width="{12 * POINT_WIDTH + BAR_WIDTH}" '
        f'height="{BOTTOM - TOP}" fill="#2f6b3a"/>',
    ]
    for point in range(1, 25):
        parts.append(_point(picture, point))
    parts.append(_bar(picture))
    parts.append(_trays(picture))
    if picture.cube is not None:
        parts.append(_cube(picture.cube))
    if picture.directions:
        parts.extend(_direction(picture, side) for side in ("a", "b"))
    parts.append(_dice(picture.dice))
    parts.append("</svg>")
    return "".join(parts)


def _column(point: int) -> int:
    """The column (0..11 from the left) of side a's point ``point``."""
    return 12 - point if point <= 12 else point - 13


def _x(column: int) -> int:
    """The left edge of a column; the six right of the bar lie past it."""
    return LEFT + column * POINT_WIDTH + (BAR_WIDTH if column >= 6 else 0)


def _point(picture: BoardPicture, point: int) -> str:
    """Side a's point ``point`` (side b's point 25 - point) and the checkers on it."""
    column = _column(point)
    left = _x(column)
    top_row = point > 12
    base = TOP if top_row else BOTTOM
    apex = base + POINT_HEIGHT if top_row else base - POINT_HEIGHT
    colour = POINT_COLOURS[(column + (1 if top_row else 0)) % 2]
    b_point = picture.point_of_b(point)
    a_count = picture.board_a[point - 1]
    b_count = picture.board_b[b_point - 1]
    # rule V-PLAKOTO-2: a point of both sides holds one pinned checker under the pinner's
    pinned: Side | None = None
    if a_count and b_count:
        pinned = "a" if point in picture.pinned_a else "b"
    side: Side | None = "b" if pinned == "a" or not a_count else "a"
    count = b_count if side == "b" else a_count
    if not count:
        side = None
    label = point if picture.numbering == "a" else b_point
    label_y = TOP - 6 if top_row else BOTTOM + 16
    centre = left + POINT_WIDTH // 2
    pin = f' data-pinned="{pinned}"' if pinned else ""
    parts = [
        f'<g data-point="{label}" data-side="{side or ""}" data-count="{count}"{pin}>',
        f'<polygon points="{left},{base} {left + POINT_WIDTH},{base} {centre},{apex}" '
        f'fill="{colour}"/>',
        f'<text x="{centre}" y="{label_y}" font-size="12" text-anchor="middle" '
        f'fill="#f0e6d0">{label}</text>',
    ]
    if side is not None:
        step = 1 if top_row else -1
        first = base + step * RADIUS
        if pinned is not None:
            # the pinned checker at the edge, ringed, the pinner's stack on top of it
            parts.append(_stack(pinned, 1, centre, first, step, ring=True))
            first += step * 2 * RADIUS
        parts.append(_stack(side, count, centre, first, step))
    parts.append("</g>")
    return "".join(parts)


def _stack(side: Side, count: int, x: int, first: int, step: int, *, ring: bool = False) -> str:
    """``count`` checkers of ``side`` from ``first`` on, at most ``STACK`` of them drawn;
    ``ring``: a pinned checker, rimmed in red."""
    fill, rim = COLOURS[side]
    stroke = (
        ' stroke="#c0392b" stroke-width="4" data-pinned-checker'
        if ring
        else (f' stroke="{rim}" stroke-width="2"')
    )
    parts = []
    for index in range(min(count, STACK)):
        y = first + step * index * 2 * RADIUS
        parts.append(f'<circle cx="{x}" cy="{y}" r="{RADIUS - 1}" fill="{fill}"{stroke}/>')
    if count > STACK:
        y = first + step * (STACK - 1) * 2 * RADIUS
        parts.append(
            f'<text x="{x}" y="{y + 5}" font-size="14" font-weight="bold" text-anchor="middle" '
            f'fill="{rim}">{count}</text>'
        )
    return "".join(parts)


def _direction(picture: BoardPicture, side: Side) -> str:
    """rule V-BOARD-1, V-BOARD-2: an arrow by the side's starting point (its 24), pointing the
    way it travels; ``data-start`` is that point in side a's numbering."""
    start, next_point = (24, 23) if side == "a" else (_a_point(picture, 24), _a_point(picture, 23))
    column, top_row = _column(start), start > 12
    arrow = "\u25c0" if _column(next_point) < column else "\u25b6"
    y = MIDDLE - 36 if top_row else MIDDLE + 48
    fill, rim = COLOURS[side]
    return (
        f'<text data-direction="{side}" data-start="{start}" x="{_x(column) + POINT_WIDTH // 2}" '
        f'y="{y}" font-size="22" text-anchor="middle" fill="{fill}" stroke="{rim}">{arrow}</text>'
    )


def _a_point(picture: BoardPicture, b_point: int) -> int:
    """Side a's number for side b's point ``b_point`` (the mapping is its own inverse)."""
    return picture.point_of_b(b_point)


def _bar(picture: BoardPicture) -> str:
    """The bar between the halves: side a's checkers there wait in its upper half (they enter
    in side b's home, top right), side b's in its lower half."""
    left = LEFT + 6 * POINT_WIDTH
    centre = left + BAR_WIDTH // 2
    parts = [
        f'<rect x="{left}" y="{TOP}" width="{BAR_WIDTH}" height="{BOTTOM - TOP}" fill="#5b3f2b"/>'
    ]
    bars: tuple[tuple[Side, int, int], ...] = (
        ("a", MIDDLE - 2 * RADIUS, -1),
        ("b", MIDDLE + 2 * RADIUS, 1),
    )
    for side, first, step in bars:
        count = (picture.board_a if side == "a" else picture.board_b)[24]
        parts.append(f'<g data-bar="{side}" data-count="{count}">')
        if count:
            parts.append(_stack(side, count, centre, first, step))
        parts.append("</g>")
    return "".join(parts)


def _trays(picture: BoardPicture) -> str:
    """The borne-off checkers, right of the board: side a's in the lower tray (its home is
    bottom right), side b's in the upper one; thin slices, with their count."""
    left = LEFT + 12 * POINT_WIDTH + BAR_WIDTH + 6
    width = TRAY_WIDTH - 8
    height = MIDDLE - TOP - 14
    parts = []
    trays: tuple[tuple[Side, int], ...] = (("a", MIDDLE + 14), ("b", TOP))
    for side, top in trays:
        board = picture.board_a if side == "a" else picture.board_b
        off = CHECKERS - sum(board)
        fill, rim = COLOURS[side]
        parts.append(f'<g data-off="{side}" data-count="{off}">')
        parts.append(
            f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="#3b281b"/>'
        )
        for index in range(off):
            # side a's stack grows up from the bottom, side b's down from the top
            y = top + height - 4 - 9 * (index + 1) if side == "a" else top + 4 + 9 * index
            parts.append(
                f'<rect x="{left + 4}" y="{y}" width="{width - 8}" height="7" rx="2" '
                f'fill="{fill}" stroke="{rim}"/>'
            )
        label_y = top - 3 if side == "a" else top + height + 11
        parts.append(
            f'<text x="{left + width // 2}" y="{label_y}" font-size="11" text-anchor="middle" '
            f'fill="#f0e6d0">{off}</text></g>'
        )
    return "".join(parts)


def _cube(cube: CubePicture) -> str:
    """The cube left of the board: centred in the middle, at its owner's edge when owned
    (side a's below, side b's above); a double awaiting its answer shows the new value."""
    size = 34
    x = (LEFT - size) // 2
    if cube.owner == "a":
        y = BOTTOM - size
    elif cube.owner == "b":
        y = TOP
    else:
        y = MIDDLE - size // 2
    shown = cube.offered or cube.value
    # a centred cube of value 1 shows 64, as on a real board
    face = 64 if shown == 1 and cube.owner is None and not cube.offered else shown
    offered = f' data-offered="{cube.offered}"' if cube.offered else ""
    return (
        f'<g data-cube data-value="{cube.value}" '
        f'data-owner="{cube.owner or ""}"{offered}>'
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="5" fill="#f7f3ea" '
        f'stroke="{"#c0392b" if cube.offered else "#333"}" stroke-width="2"/>'
        f'<text x="{x + size // 2}" y="{y + size // 2 + 6}" font-size="16" font-weight="bold" '
        f'text-anchor="middle" fill="#222">{face}</text></g>'
    )


def _dice(dice: tuple[int, int] | None) -> str:
    """The dice rolled, in the middle of the right half."""
    if not dice:
        return ""
    size = 32
    centre_x = _x(9)
    parts = []
    for index, value in enumerate(dice):
        x = centre_x - size - 4 + index * (size + 8)
        y = MIDDLE - size // 2
        parts.append(
            f'<g data-die="{value}"><rect x="{x}" y="{y}" width="{size}" height="{size}" rx="5" '
            'fill="#fffdf7" stroke="#222" stroke-width="1.5"/>'
        )
        for dx, dy in PIPS[value]:
            parts.append(
                f'<circle cx="{x + size // 2 + dx * 9}" cy="{y + size // 2 + dy * 9}" r="3" '
                'fill="#222"/>'
            )
        parts.append("</g>")
    return "".join(parts)
