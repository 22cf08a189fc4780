"""Legal plays in the variants: every distinct board a roll can lead to (rule V-MAX-1).

Portes and Tavla play exactly like backgammon (V-PORTES-1, V-TAVLA-1): their plays come from
the backgammon core, whose plays agree with GNU Backgammon's, and only the game values differ
(V-WIN-1: no 3-point win). Plakoto, Fevga and Nardi share one search over single-die steps,
each with its own landing rule (V-PLAKOTO-3, V-FEVGA-2, V-NARDI-2), the step rules of Fevga's
first checker (V-FEVGA-3) and Nardi's head (V-NARDI-3), and the end-of-play rules of Fevga's
starting quadrant (V-FEVGA-4) and the six-block (V-FEVGA-5, V-NARDI-4).

Steps are numbered from the mover's side: points 1..24, ``BAR`` (25) and ``OFF`` (0).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import NamedTuple

from domain.backgammon import GameResult, Move, Position, legal_plays
from domain.backgammon.plays import Dice, validate_dice
from domain.variants.board import (
    CHECKERS_PER_SIDE,
    Side,
    Variant,
    VariantBoard,
    other_point,
)

BAR = 25
OFF = 0


class VariantResult(StrEnum):
    """How a variant game ends (rules V-WIN-1, V-PLAKOTO-7, V-PLAKOTO-8)."""

    SINGLE = "single"
    GAMMON = "gammon"
    MOTHER = "mother"
    DRAW = "draw"

    @property
    def points(self) -> int:
        """The game's value before any cube: 1, 2 (gammon, mars, mother) or 0 (a draw)."""
        return _POINTS[self]


_POINTS = {
    VariantResult.SINGLE: 1,
    VariantResult.GAMMON: 2,
    VariantResult.MOTHER: 2,
    VariantResult.DRAW: 0,
}


Step = Move
"""One checker moved by one die, in the mover's numbering (``hit`` in Portes and Tavla only):
the backgammon core's ``Move``, so that Portes and Tavla take the core's plays unchanged."""


class VariantPlay(NamedTuple):
    """A whole turn's steps, in an order in which they can be played, and where they lead."""

    steps: tuple[Step, ...]
    board: VariantBoard
    """The board after the play, with the opponent on roll (as a Position ID after a play)."""
    game_result: VariantResult | None = None

    @property
    def notation(self) -> str:
        """The single-die steps, ``from/to`` (``bar/to``, ``from/off``, ``*`` after a hit)."""
        return format_steps(self.steps)


def format_steps(steps: Iterable[Step]) -> str:
    return " ".join(
        ("bar" if source == BAR else str(source))
        + "/"
        + ("off" if destination == OFF else str(destination))
        + ("*" if hit else "")
        for source, destination, hit in steps
    )


def variant_legal_plays(board: VariantBoard, dice: Iterable[int]) -> tuple[VariantPlay, ...]:
    """Every legal play of ``dice`` on ``board``, one per resulting board (rule V-MAX-1).

    An empty tuple means no legal play (the turn passes), or a finished game.
    """
    die_1, die_2 = validate_dice(dice)
    if game_is_over(board):
        return ()
    if board.variant.has_bar:
        return _backgammon_plays(board, (die_1, die_2))
    return _Search(board).plays(die_1, die_2)


def game_is_over(board: VariantBoard) -> bool:
    """A side has no checker left; or in Plakoto the on-roll side's mother is pinned while the
    opponent has no free checker on its own 24-point (it won, or both mothers are pinned)."""
    if not sum(board.on_roll) or not sum(board.opponent):
        return True
    if board.variant is Variant.PLAKOTO and 24 in board.pinned_on_roll:
        free_at_home = board.opponent[24] - (24 in board.pinned_opponent)
        return free_at_home == 0
    return False


# --- Portes and Tavla: the backgammon core --------------------------------------------------


def _backgammon_plays(board: VariantBoard, dice: Dice) -> tuple[VariantPlay, ...]:
    position = Position.trusted(_to_core(board.on_roll), _to_core(board.opponent))
    return tuple(
        VariantPlay(
            play.moves,
            VariantBoard.trusted(
                board.variant,
                _from_core(play.position.on_roll),
                _from_core(play.position.opponent),
            ),
            _VALUE_OF_CORE_RESULT[play.game_result] if play.game_result else None,
        )
        for play in legal_plays(position, dice)
    )


_VALUE_OF_CORE_RESULT = {
    GameResult.SINGLE: VariantResult.SINGLE,
    GameResult.GAMMON: VariantResult.GAMMON,
    # rule V-WIN-1: what GNU Backgammon scores as a backgammon scores 2 in Portes and Tavla.
    GameResult.BACKGAMMON: VariantResult.GAMMON,
}


def _to_core(side: Side) -> Side:
    """The core's side: index i < 24 is point i + 1, index 24 the bar."""
    return (*side[1:], side[0])


def _from_core(side: Side) -> Side:
    return (side[24], *side[:24])


# --- Plakoto, Fevga and Nardi: one search -----------------------------------------------------

Path = tuple[Step, ...]
_DOUBLED_HEAD_ROLLS = frozenset({6, 4, 3})
"""rule V-NARDI-3: 6-6, 4-4 and 3-3 let two checkers leave a full head in the first turn."""


_PRIME_MASKS = tuple(sum(1 << point for point in range(q, q + 6)) for q in range(1, 20))
"""rules V-FEVGA-5, V-NARDI-4: each run of six points q..q+5 in the opponent's numbering
(1 <= q <= 19), as bits of the opponent's point numbers; index q - 1 is the run from q."""
_QUADRANT = sum(1 << point for point in range(19, 25))
"""rule V-FEVGA-4: the mover's own points 19..24, as bits of its point numbers."""


_OWN_BIT = (0, *(1 << point for point in range(1, 25)))
_OTHER_BIT = (0, *(1 << other_point(Variant.FEVGA, point) for point in range(1, 25)))
"""The bit of each of the mover's points in its own and in the opponent's numbering."""


def _held(key: bytes, bits: tuple[int, ...]) -> int:
    """The points the mover holds after a play (its key's counts), as bits."""
    held = 0
    for point in range(1, 25):
        if key[point]:
            held |= bits[point]
    return held


def _primed(held: int, primes: tuple[int, ...]) -> bool:
    return any(held & prime == prime for prime in primes)


class _Search:
    """Depth-first search over the steps of one roll on scratch lists, keyed by the board.

    ``mine[0]`` counts the mover's borne-off checkers, ``mine[p]`` its point p. ``theirs[p]``
    counts the opposing checkers on the mover's point p; they never move during the turn.
    In Plakoto ``pins[p]`` is 1 where an opposing checker lies pinned under the mover's, and
    ``held[p]`` where the mover's own checker is pinned (it cannot move).
    """

    def __init__(self, board: VariantBoard) -> None:
        variant = board.variant
        self.board = board
        self.variant = variant
        self.plakoto = variant is Variant.PLAKOTO
        self.fevga = variant is Variant.FEVGA
        self.nardi = variant is Variant.NARDI
        opponent = board.opponent
        self.mine = [CHECKERS_PER_SIDE - sum(board.on_roll), *board.on_roll[1:]]
        self.theirs = [0] + [opponent[other_point(variant, point)] for point in range(1, 25)]
        self.pins = [0] * 25
        self.held = [0] * 25
        for point in board.pinned_opponent:
            self.pins[25 - point] = 1
        for point in board.pinned_on_roll:
            self.held[point] = 1
        self.any_held = bool(board.pinned_on_roll)
        self.head_limit = 1
        self.start_on_head = self.mine[24]
        self.larger = 0
        self.pinned_by: list[bool] = []
        self.opponent_off = sum(opponent) < CHECKERS_PER_SIDE
        self.found: list[dict[bytes, Path]] = [{} for _ in range(5)]
        self.larger_die_singles: dict[bytes, Path] = {}
        self.seen: set[tuple[bytes, tuple[int, ...]]] = set()

    # -- the search --

    def plays(self, die_1: int, die_2: int) -> tuple[VariantPlay, ...]:
        dice = (die_1,) * 4 if die_1 == die_2 else (max(die_1, die_2), min(die_1, die_2))
        if self.nardi and die_1 == die_2 and die_1 in _DOUBLED_HEAD_ROLLS:
            self.head_limit = 2 if self.mine[24] == CHECKERS_PER_SIDE else 1
        self.larger = dice[0] if die_1 != die_2 else 0
        self.search(dice, (), 0)
        # rule V-MAX-1: the admissible sequences of the greatest length m > 0; when m = 1,
        # those of the larger die if there are any (G-MAX-1).
        for length in range(4, 0, -1):
            chosen = self.admissible(self.found[length])
            if chosen:
                if length == 1:
                    chosen = self.admissible(self.larger_die_singles) or chosen
                return tuple(self.play(key, path) for key, path in chosen.items())
        return ()

    def search(self, dice: tuple[int, ...], path: Path, last_die: int) -> None:
        key = self.key()
        if (key, dice) in self.seen:
            return
        self.seen.add((key, dice))
        self.found[len(path)].setdefault(key, path)
        if len(path) == 1 and last_die == self.larger:
            self.larger_die_singles.setdefault(key, path)
        for index, die in enumerate(dice):
            if die in dice[:index]:
                continue
            rest = dice[:index] + dice[index + 1 :]
            for step in self.steps(die):
                released = self.move(step)
                self.search(rest, (*path, step), die)
                self.unmove(step, released)

    def key(self) -> bytes:
        return bytes(self.mine) + bytes(self.pins) if self.plakoto else bytes(self.mine)

    # -- single steps --

    def steps(self, die: int) -> list[Step]:
        mine = self.mine
        found = []
        bear_off = self.may_bear_off()
        for source in range(24, 0, -1):
            if not mine[source] or self.held[source]:
                continue  # rule V-PLAKOTO-2: a pinned checker cannot move
            if source == 24 and not self.may_leave_24():
                continue
            target = source - die
            if target > 0:
                if self.may_land(target):
                    found.append(Step(source, target))
            elif bear_off and (target == 0 or not any(mine[source + 1 : 7])):
                # rule V-OFF-1: die d bears off from d; a larger die from the highest point
                found.append(Step(source, OFF))
        return found

    def may_land(self, target: int) -> bool:
        theirs = self.theirs[target]
        if not theirs:
            return True
        if not self.plakoto:
            return False  # rules V-FEVGA-2, V-NARDI-2: any opposing checker blocks
        # rule V-PLAKOTO-3: onto the mover's own pin, or a lone opposing checker (pins it);
        # never onto two or more, nor where the mover's checker is pinned.
        return bool(self.pins[target]) or (theirs == 1 and not self.mine[target])

    def may_bear_off(self) -> bool:
        # rule V-OFF-1: all remaining checkers on points 1..6; V-PLAKOTO-6: none pinned.
        return not any(self.mine[7:25]) and not self.any_held

    def may_leave_24(self) -> bool:
        mine = self.mine
        if self.fevga:
            # rule V-FEVGA-3: not while a checker is on 12..23 and none is past the
            # opponent's start (on 1..11) or borne off.
            return not (any(mine[12:24]) and not any(mine[0:12]))
        if self.nardi:
            # rule V-NARDI-3: at most one (or two) checkers leave the head in a turn.
            return self.start_on_head - mine[24] < self.head_limit
        return True

    def move(self, step: Step) -> bool:
        """Make one step; returns whether it released an opposing checker (V-PLAKOTO-4)."""
        source, target, _ = step
        mine = self.mine
        mine[source] -= 1
        mine[target] += 1
        released = False
        if self.plakoto:
            if not mine[source] and self.pins[source]:
                self.pins[source] = 0  # rule V-PLAKOTO-4: free again at once
                released = True
            pins = bool(target and self.theirs[target] and not self.pins[target])
            if pins:
                self.pins[target] = 1  # rule V-PLAKOTO-2: lands on a lone checker, pins it
            self.pinned_by.append(pins)
        return released

    def unmove(self, step: Step, released: bool) -> None:
        source, target, _ = step
        mine = self.mine
        if self.plakoto:
            if self.pinned_by.pop():
                self.pins[target] = 0
            if released:
                self.pins[source] = 1
        mine[source] += 1
        mine[target] -= 1

    # -- the end of a play --

    def admissible(self, found: dict[bytes, Path]) -> dict[bytes, Path]:
        """The sequences whose end board passes V-FEVGA-4, V-FEVGA-5 and V-NARDI-4."""
        if self.plakoto or not found:
            return found
        opponent = self.board.opponent
        # A run from q is a prime when no opposing checker is ahead of it: none borne off
        # and none on the opponent's points below q, so only runs from q <= its lowest point.
        lowest = 0 if self.opponent_off else next(p for p in range(1, 25) if opponent[p])
        primes = _PRIME_MASKS[: min(lowest, 19)]
        fevga = self.fevga
        return {
            key: path
            for key, path in found.items()
            if not (fevga and _held(key, _OWN_BIT) & _QUADRANT == _QUADRANT)
            and not _primed(_held(key, _OTHER_BIT), primes)
        }

    def play(self, key: bytes, path: Path) -> VariantPlay:
        variant = self.variant
        mine = key[:25]
        mover: Side = (0, *mine[1:25])
        pinned_mover = tuple(sorted(self.board.pinned_on_roll))
        pinned_other: tuple[int, ...] = ()
        if self.plakoto:
            pins = key[25:]
            pinned_other = tuple(sorted(25 - point for point in range(1, 25) if pins[point]))
        after = VariantBoard.trusted(
            variant, self.board.opponent, mover, pinned_other, pinned_mover
        )
        return VariantPlay(path, after, self.result(mover, pinned_other))

    def result(self, mover: Side, pinned_other: tuple[int, ...]) -> VariantResult | None:
        if not sum(mover):
            # rule V-WIN-1 (checked first, V-PLAKOTO-9): all 15 borne off.
            opponent_off = CHECKERS_PER_SIDE - sum(self.board.opponent)
            return VariantResult.SINGLE if opponent_off else VariantResult.GAMMON
        if self.plakoto and 24 in pinned_other:
            if not mover[24]:
                return VariantResult.MOTHER  # rule V-PLAKOTO-7
            if 24 in self.board.pinned_on_roll:
                return VariantResult.DRAW  # rule V-PLAKOTO-8
        return None
