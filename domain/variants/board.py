"""Variant boards: each side seen from its own point of view (rules V-BOARD-1, V-BOARD-2).

A side is a tuple of 25 counts: index p (1..24) holds the side's checkers on its own point p,
index 0 its bar (Portes and Tavla only). Borne off is 15 minus the sum. The same physical
point is the other side's point 25 - p in Portes, Tavla and Plakoto (opposite directions),
and p + 12 or p - 12 in Fevga and Nardi (the same direction, diagonally opposite starts).

In Plakoto a point may hold both sides' checkers: exactly one pinned checker under one or more
of the pinner's (V-PLAKOTO-2). ``pinned`` lists, per side and in that side's own numbering,
the points where that side's checker is pinned.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

CHECKERS_PER_SIDE = 15
POINTS = 24
BAR_INDEX = 0

Side = tuple[int, ...]
Pins = tuple[int, ...]


class Variant(StrEnum):
    """The regional variants of seed 002 that have boards of their own (rule V-MATCH-VARIANT-1;
    ``tavli`` is a cycle of three of them, a match format and not a board)."""

    PORTES = "portes"
    PLAKOTO = "plakoto"
    FEVGA = "fevga"
    TAVLA = "tavla"
    NARDI = "nardi"

    @property
    def has_bar(self) -> bool:
        """rule V-BOARD-1: only Portes and Tavla have a bar (and hitting)."""
        return self in _WITH_BAR

    @property
    def same_direction(self) -> bool:
        """rule V-BOARD-2: in Fevga and Nardi both sides travel the same way round."""
        return self in _SAME_DIRECTION


_WITH_BAR = frozenset({Variant.PORTES, Variant.TAVLA})
_SAME_DIRECTION = frozenset({Variant.FEVGA, Variant.NARDI})


class InvalidVariantBoardError(ValueError):
    """A board that is not a board of its variant; ``field`` names the offending part."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def other_point(variant: Variant, point: int) -> int:
    """The other side's number for a side's point 1..24 (rule V-BOARD-2)."""
    if variant.same_direction:
        return point + 12 if point <= 12 else point - 12
    return 25 - point


_STANDARD: Side = tuple({6: 5, 8: 3, 13: 5, 24: 2}.get(point, 0) for point in range(POINTS + 1))
"""rule G-SETUP-1 in this numbering: 2 on 24, 5 on 13, 3 on 8, 5 on 6."""
_ALL_ON_24: Side = (0,) * POINTS + (CHECKERS_PER_SIDE,)
"""rule V-START-1: Plakoto, Fevga and Nardi start with all 15 on the side's own 24-point."""


@dataclass(frozen=True, slots=True)
class VariantBoard:
    """A variant board seen from the side on roll; immutable, hashable, validated."""

    variant: Variant
    on_roll: Side
    opponent: Side
    pinned_on_roll: Pins = ()
    """Plakoto: the on-roll side's points (own numbering) where its checker is pinned."""
    pinned_opponent: Pins = ()
    """Plakoto: the opponent's points (own numbering) where its checker is pinned."""
    _checked: bool = field(default=True, compare=False, repr=False, kw_only=True)

    def __post_init__(self) -> None:
        if self._checked:
            validate(self)

    @classmethod
    def starting(cls, variant: Variant) -> VariantBoard:
        """The setup of rule V-START-1 (G-SETUP-1 in Portes and Tavla)."""
        side = _STANDARD if variant.has_bar else _ALL_ON_24
        return cls(variant, side, side)

    @classmethod
    def trusted(
        cls,
        variant: Variant,
        on_roll: Side,
        opponent: Side,
        pinned_on_roll: Pins = (),
        pinned_opponent: Pins = (),
    ) -> VariantBoard:
        """A board the rules built from a valid one: skips validation (the hot path)."""
        board = object.__new__(cls)
        for name, value in (
            ("variant", variant),
            ("on_roll", on_roll),
            ("opponent", opponent),
            ("pinned_on_roll", pinned_on_roll),
            ("pinned_opponent", pinned_opponent),
            ("_checked", False),
        ):
            object.__setattr__(board, name, value)
        return board

    def swap_sides(self) -> VariantBoard:
        """The same board with the other side on roll."""
        return VariantBoard.trusted(
            self.variant, self.opponent, self.on_roll, self.pinned_opponent, self.pinned_on_roll
        )

    @property
    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (side on roll, opponent)."""
        return CHECKERS_PER_SIDE - sum(self.on_roll), CHECKERS_PER_SIDE - sum(self.opponent)

    @property
    def pip_counts(self) -> tuple[int, int]:
        """Pips to bear off every checker: (side on roll, opponent); the bar counts 25."""
        return _pips(self.on_roll), _pips(self.opponent)


def _pips(side: Side) -> int:
    return 25 * side[BAR_INDEX] + sum(point * side[point] for point in range(1, 25))


def validate(board: VariantBoard) -> None:
    """The structural checks of API.md's variant board; positions that cannot arise in play
    but are structurally valid pass (they are analysed as given)."""
    variant = board.variant
    for name, side in (("on_roll", board.on_roll), ("opponent", board.opponent)):
        if len(side) != POINTS + 1 or any(
            isinstance(count, bool) or not isinstance(count, int) or count < 0 for count in side
        ):
            raise InvalidVariantBoardError(
                f"board.{name}", "must be 25 non-negative integers (the bar, then points 1..24)"
            )
        if sum(side) > CHECKERS_PER_SIDE:
            raise InvalidVariantBoardError(
                f"board.{name}",
                f"has {sum(side)} checkers, at most {CHECKERS_PER_SIDE} (the rest borne off)",
            )
        if side[BAR_INDEX] and not variant.has_bar:
            raise InvalidVariantBoardError(
                f"board.{name}[0]", f"{variant} has no bar (rule V-BOARD-1): index 0 must be 0"
            )
    if variant is not Variant.PLAKOTO:
        if board.pinned_on_roll or board.pinned_opponent:
            raise InvalidVariantBoardError(
                "board.pinned", f"only plakoto pins checkers, not {variant}"
            )
        for point in range(1, POINTS + 1):
            if board.on_roll[point] and board.opponent[other_point(variant, point)]:
                raise InvalidVariantBoardError(
                    "board",
                    f"the on-roll side's point {point} holds checkers of both sides, "
                    f"which {variant} never allows",
                )
        return
    _validate_pins(board)


def _validate_pins(board: VariantBoard) -> None:
    """rule V-PLAKOTO-2: every mixed point is listed once, under the side with one checker."""
    listed: dict[int, str] = {}  # on-roll points -> the side pinned there
    for name, points, own in (
        ("on_roll", board.pinned_on_roll, board.on_roll),
        ("opponent", board.pinned_opponent, board.opponent),
    ):
        for point in points:
            where = f"board.pinned.{name}"
            if isinstance(point, bool) or not isinstance(point, int) or not 1 <= point <= POINTS:
                raise InvalidVariantBoardError(where, f"points are 1..24, got {point!r}")
            if own[point] != 1:
                raise InvalidVariantBoardError(
                    where,
                    f"a pinned checker is alone under the pinner's: {name}'s point {point} "
                    f"holds {own[point]} of its checkers, not exactly 1",
                )
            physical = point if name == "on_roll" else 25 - point
            if physical in listed:
                raise InvalidVariantBoardError(where, f"point {point} is listed more than once")
            listed[physical] = name
    for point in range(1, POINTS + 1):
        mixed = bool(board.on_roll[point] and board.opponent[25 - point])
        if mixed and point not in listed:
            raise InvalidVariantBoardError(
                "board.pinned",
                f"the on-roll side's point {point} holds checkers of both sides: list the "
                "pinned one (rule V-PLAKOTO-2)",
            )
        if not mixed and point in listed:
            side = listed[point]
            own_point = point if side == "on_roll" else 25 - point
            raise InvalidVariantBoardError(
                f"board.pinned.{side}",
                f"{side}'s point {own_point} holds no checker of the other side to pin it",
            )
