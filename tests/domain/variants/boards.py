"""Boards written by hand for the golden tests: each side as ``{point: checkers}`` in its own
numbering (index 0 the bar), and a play's outcome as the mover's points after it."""

from __future__ import annotations

from domain.variants import Variant, VariantBoard, variant_legal_plays

Points = dict[int, int]


def side(points: Points) -> tuple[int, ...]:
    return tuple(points.get(index, 0) for index in range(25))


def board(
    variant: str,
    mine: Points,
    theirs: Points,
    pinned_mine: tuple[int, ...] = (),
    pinned_theirs: tuple[int, ...] = (),
) -> VariantBoard:
    return VariantBoard(Variant(variant), side(mine), side(theirs), pinned_mine, pinned_theirs)


Outcome = tuple[tuple[tuple[int, int], ...], tuple[int, ...], str | None]
"""The mover's occupied points after a play (point, checkers), highest first; the opponent's
points where its checker is pinned after it; the game result."""


def outcome(
    mine: Points, pinned_theirs: tuple[int, ...] = (), result: str | None = None
) -> Outcome:
    return tuple(sorted(mine.items(), reverse=True)), pinned_theirs, result


def outcomes(position: VariantBoard, dice: tuple[int, int]) -> set[Outcome]:
    found = set()
    for play in variant_legal_plays(position, dice):
        mover = play.board.opponent
        points = tuple((point, mover[point]) for point in range(24, -1, -1) if mover[point])
        result = play.game_result.value if play.game_result else None
        found.add((points, play.board.pinned_on_roll, result))
    return found


def mover_points(position: VariantBoard, dice: tuple[int, int]) -> list[dict[int, int]]:
    """The mover's points after each play, as dicts."""
    return [dict(points) for points, _, _ in outcomes(position, dice)]
