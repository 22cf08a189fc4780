"""Board positions and GNU Backgammon's Position ID.

A position is seen from the side on roll, as in GNU Backgammon (``lib/gnubg-types.h``):
each side is a tuple of 25 checker counts, index 0..23 for that side's own points 1..24 and
index 24 for its bar. Checkers not on the board have been borne off.
"""

from __future__ import annotations

import base64
import binascii
import codecs
from dataclasses import dataclass, field

CHECKERS_PER_SIDE = 15
BAR = 24
"""Index of the bar in a side's tuple; index i < 24 is the side's point i + 1."""

Side = tuple[int, ...]

# rule G-SETUP-1: 2 on the 24-point, 5 on 13, 3 on 8, 5 on 6 (pip count 167).
STARTING_SIDE: Side = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)

_KEY_BYTES = 10
_POSITION_ID_LENGTH = 14
_KEY_BITS = 8 * _KEY_BYTES
UNARY_CODES = tuple("0" + "1" * n for n in range(CHECKERS_PER_SIDE + 1))
"""A count n is n one-bits then a zero-bit in the key; written backwards for int(..., 2)."""


class InvalidPositionError(ValueError):
    """A Position ID or board that cannot be a backgammon position."""


@dataclass(frozen=True, slots=True)
class Position:
    """A board seen from the side on roll; immutable, hashable."""

    on_roll: Side
    opponent: Side
    known_id: str | None = field(default=None, compare=False, repr=False, kw_only=True)
    """The Position ID when the builder already knows it (the rules core's fast path)."""

    def __post_init__(self) -> None:
        _validate_side("on_roll", self.on_roll)
        _validate_side("opponent", self.opponent)
        for index in range(24):
            if self.on_roll[index] and self.opponent[23 - index]:
                raise InvalidPositionError(
                    f"point {index + 1} of the side on roll holds checkers of both sides"
                )

    @classmethod
    def starting(cls) -> Position:
        """The standard opening setup (rule G-SETUP-1)."""
        return cls(STARTING_SIDE, STARTING_SIDE)

    @classmethod
    def trusted(cls, on_roll: Side, opponent: Side, known_id: str | None = None) -> Position:
        """A position the rules core built from a valid one: skips validation (hot path)."""
        position = object.__new__(cls)
        _SET_ON_ROLL(position, on_roll)
        _SET_OPPONENT(position, opponent)
        _SET_KNOWN_ID(position, known_id)
        return position

    @classmethod
    def from_position_id(cls, position_id: str) -> Position:
        """Decode GNU Backgammon's 14-character Position ID."""
        return cls(*_sides_from_key(_key_from_position_id(position_id)))

    @property
    def position_id(self) -> str:
        """GNU Backgammon's Position ID: the side not on roll first, then the side on roll."""
        return self.known_id or encode_position_id(self.opponent, self.on_roll)

    def swap_sides(self) -> Position:
        """The same board with the other side on roll."""
        return Position(self.opponent, self.on_roll)

    @property
    def pip_counts(self) -> tuple[int, int]:
        """Pips to bear off every checker: (side on roll, opponent)."""
        return pip_count(self.on_roll), pip_count(self.opponent)

    @property
    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off: (side on roll, opponent)."""
        return CHECKERS_PER_SIDE - sum(self.on_roll), CHECKERS_PER_SIDE - sum(self.opponent)


# The slots' own setters: a frozen dataclass forbids ``setattr``, and these skip the generic
# attribute lookup of ``object.__setattr__`` (half the cost of the rules core's positions).
_SET_ON_ROLL = vars(Position)["on_roll"].__set__
_SET_OPPONENT = vars(Position)["opponent"].__set__
_SET_KNOWN_ID = vars(Position)["known_id"].__set__


def pip_count(side: Side) -> int:
    """Pips a side must travel to bear off every checker (the bar counts 25)."""
    return sum((index + 1) * count for index, count in enumerate(side))


def encode_position_id(first: Side, second: Side) -> str:
    """Encode two sides (not on roll, on roll) as a Position ID, without validation."""
    return position_id_from_digits(key_digits(first, second))


def key_digits(first: Side, second: Side) -> list[str]:
    """The key as binary digits, most significant first: one code per point, for fast updates.

    The key is the unary codes of ``first`` then ``second``, index by index, bit i of the key
    being bit i % 8 of byte i // 8: a little-endian integer. Its binary digits, most significant
    first, are therefore the codes in reverse order, each written backwards. Index i of
    ``first`` is at position 49 - i of the list, index i of ``second`` at 24 - i.
    """
    return [UNARY_CODES[count] for count in (*second[::-1], *first[::-1])]


def position_id_from_digits(digits: list[str]) -> str:
    return position_id_from_binary("".join(digits))


def position_id_from_binary(binary: str) -> str:
    """The Position ID of a key written as binary digits, most significant first."""
    key = int(binary, 2).to_bytes(_KEY_BYTES, "little")
    return binascii.b2a_base64(key, newline=False)[:_POSITION_ID_LENGTH].decode("ascii")


def side_binary(counts_last_first: bytes) -> str:
    """One side's part of the key as binary digits (see ``key_digits``), from its counts
    last index first: each count's unary code, in one pass of C code."""
    return codecs.charmap_decode(counts_last_first, "strict", UNARY_CODES)[0]


def _validate_side(name: str, side: Side) -> None:
    if len(side) != 25:
        raise InvalidPositionError(f"{name} must have 25 entries (24 points and the bar)")
    if any(count < 0 for count in side):
        raise InvalidPositionError(f"{name} has a negative checker count")
    if sum(side) > CHECKERS_PER_SIDE:
        raise InvalidPositionError(
            f"{name} has {sum(side)} checkers on the board, at most {CHECKERS_PER_SIDE} allowed"
        )


def _key_from_position_id(position_id: str) -> int:
    if not isinstance(position_id, str) or len(position_id) != _POSITION_ID_LENGTH:
        raise InvalidPositionError(
            f"a Position ID has {_POSITION_ID_LENGTH} characters, got {position_id!r}"
        )
    try:
        key = base64.b64decode(position_id + "==", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidPositionError(
            f"a Position ID uses the base64 alphabet, got {position_id!r}"
        ) from None
    return int.from_bytes(key, "little")


def _sides_from_key(key: int) -> tuple[Side, Side]:
    """Read the unary-coded counts: side not on roll first; returns (on roll, opponent).

    The key's bits, least significant first, split at each zero-bit are the counts' runs of
    one-bits: a valid key reads so in one pass of C code; anything else is read bit by bit
    (``_checked_sides_from_key``), which names what is wrong."""
    runs = format(key, f"0{_KEY_BITS}b")[::-1].split("0")
    if len(runs) > _COUNTS and not any(runs[_COUNTS:]):
        opponent = tuple(map(len, runs[:25]))
        on_roll = tuple(map(len, runs[25:_COUNTS]))
        total_opponent, total_on_roll = sum(opponent), sum(on_roll)
        if (
            total_opponent <= CHECKERS_PER_SIDE
            and total_on_roll <= CHECKERS_PER_SIDE
            and total_opponent + total_on_roll
        ):
            return on_roll, opponent
    return _checked_sides_from_key(key)


_COUNTS = 50
"""A key holds 25 counts of each side."""


def _checked_sides_from_key(key: int) -> tuple[Side, Side]:
    """``_sides_from_key`` bit by bit: an invalid key raises with what is wrong."""
    sides: list[Side] = []
    bit = 0
    for name in ("opponent", "on_roll"):
        counts: list[int] = []
        for _ in range(25):
            count = 0
            while bit < _KEY_BITS and (key >> bit) & 1:
                count += 1
                bit += 1
                if sum(counts) + count > CHECKERS_PER_SIDE:
                    raise InvalidPositionError(
                        f"{name} has more than {CHECKERS_PER_SIDE} checkers on the board"
                    )
            if bit >= _KEY_BITS:
                raise InvalidPositionError(f"the Position ID ends inside the {name} side")
            bit += 1
            counts.append(count)
        sides.append(tuple(counts))
    if key >> bit:
        raise InvalidPositionError("the Position ID has bits set after both sides")
    if not any(sides[0]) and not any(sides[1]):
        raise InvalidPositionError("no checkers of either side are on the board")
    opponent, on_roll = sides
    return on_roll, opponent
