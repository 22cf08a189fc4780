"""Legal plays: every distinct way to play a roll, and the game result a play may end with.

Moves are numbered from the mover's side: points 1..24, ``BAR_POINT`` (25) for the bar and
``OFF`` (0) for borne off. A play is the sequence of moves for one roll; plays are distinct when
their resulting positions are (rules G-MOVE-1, G-MOVE-2, G-BAR-1, G-MAX-1, G-OFF-1, G-OFF-2).
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from domain.backgammon.position import (
    BAR,
    CHECKERS_PER_SIDE,
    UNARY_CODES,
    Position,
    Side,
    key_digits,
    position_id_from_binary,
    position_id_from_digits,
    side_binary,
)

BAR_POINT = 25
OFF = 0

Dice = tuple[int, int]


class IllegalPlayError(ValueError):
    """A play that the rules do not allow in this position with these dice."""


class InvalidDiceError(ValueError):
    """Dice outside 1..6, or not two of them."""


class GameResult(StrEnum):
    """How a game ends when the last checker is borne off (rule G-WIN-1)."""

    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        """Points per cube value: backgammon is 3x, not 2x + 3x."""
        return _MULTIPLIERS[self]


_MULTIPLIERS = {GameResult.SINGLE: 1, GameResult.GAMMON: 2, GameResult.BACKGAMMON: 3}


@dataclass(frozen=True, slots=True)
class RulesOptions:
    """Optional rules; the defaults are the tournament rules."""

    # rule G-OFF-2 (preset "app"): among plays using the most dice, bear off wasting the
    # fewest pips (a die larger than the point it bears off from wastes the difference).
    minimise_bear_off_waste: bool = False


TOURNAMENT_RULES = RulesOptions()
APP_RULES = RulesOptions(minimise_bear_off_waste=True)


class Move(NamedTuple):
    """One checker moved by one die: from ``source`` to ``destination``."""

    source: int
    destination: int
    hit: bool = False


class Play(NamedTuple):
    """A whole turn's moves, one die at a time, and where they lead (an immutable value)."""

    moves: tuple[Move, ...]
    position: Position
    """The position after the play, with the opponent on roll (GNU Backgammon's convention)."""
    game_result: GameResult | None = None

    @property
    def position_id(self) -> str:
        """Position ID after the play (the opponent on roll)."""
        return self.position.position_id


def validate_dice(dice: Iterable[int]) -> Dice:
    """Two dice, each 1..6, as a tuple."""
    values = tuple(dice)
    if len(values) != 2:
        raise InvalidDiceError(f"a roll is two dice, got {len(values)}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
            raise InvalidDiceError(f"a die shows 1 to 6, got {value!r}")
    return values[0], values[1]


def legal_plays(
    position: Position, dice: Iterable[int], options: RulesOptions = TOURNAMENT_RULES
) -> tuple[Play, ...]:
    """Every legal play of ``dice`` in ``position``, one per resulting position.

    An empty tuple means the roll cannot be played at all and the turn passes (rule G-MAX-1).
    """
    die_1, die_2 = validate_dice(dice)
    if not sum(position.on_roll) or not sum(position.opponent):
        return ()  # the game is over
    search = _PlaySearch(position, (die_1, die_2))
    if die_1 == die_2:
        found = search.doubles(die_1)
    else:
        found = search.non_doubles(max(die_1, die_2), min(die_1, die_2))
    leaves = found.items()
    if options.minimise_bear_off_waste and leaves:
        least = min(_bear_off_waste(path) for path in found.values())
        leaves = {key: path for key, path in leaves if _bear_off_waste(path) == least}.items()
    return _plays(position, leaves)


def apply_play(position: Position, play: Play | Iterable[Move]) -> Position:
    """The position after ``play``'s moves, with the opponent on roll.

    Checks that every move is physically possible (a checker to move, an open destination);
    whether the moves are a legal play of a roll is decided by matching ``legal_plays``.
    """
    moves = play.moves if isinstance(play, Play) else tuple(play)
    path = [(move.source, move.destination, 0) for move in moves]
    return _PlayBuilder(position).build(path).position


def game_result(position_after: Position) -> GameResult | None:
    """The result if the side that just played (not on roll) has borne off all 15 (G-WIN-1)."""
    if sum(position_after.opponent):
        return None
    loser = position_after.on_roll
    if sum(loser) < CHECKERS_PER_SIDE:
        return GameResult.SINGLE
    # The winner's home board is the loser's points 19..24; index 24 is the loser's bar.
    if any(loser[18:25]):
        return GameResult.BACKGAMMON
    return GameResult.GAMMON


Step = tuple[int, int, int]
"""One die's move in the search: (source, destination, die)."""
Path = tuple[Step, ...]
"""A play in the search, die by die in the order played."""

# The search keys a board by one integer: a byte per point of the mover (index 0 counts the
# borne-off checkers, 25 the bar) and one bit per point where an opposing blot was hit.
_WEIGHT = tuple(1 << (8 * index) for index in range(26))
_HIT_SHIFT = 208
_HIT = tuple(1 << (_HIT_SHIFT + point) for point in range(26))
_BOARD = (1 << _HIT_SHIFT) - 1

# Every step there can be, made once: the search shares them instead of building tuples.
_STEPS = tuple(
    tuple((source, max(source - die, OFF), die) for source in range(BAR_POINT + 1))
    for die in range(7)
)


_BLOCKS = bytes(int(count > 1) for count in range(256))
_BLOTS = bytes(int(count == 1) for count in range(256))


class _PlaySearch:
    """Depth-first search over one roll, moving checkers on a scratch board and back again.

    Only this class mutates anything, and only its own lists: positions stay immutable.
    """

    def __init__(self, position: Position, dice: Iterable[int]) -> None:
        # mine[0] counts borne-off checkers, mine[1..24] the points, mine[25] the bar.
        self.mine = [CHECKERS_PER_SIDE - sum(position.on_roll), *position.on_roll]
        # The opponent's point j is the mover's point 25 - j: reversed, their indexes 23..0
        # are the mover's points 1..24.
        # As bytes, with the off and bar ends open: 1 where blocked (or a blot), else 0.
        theirs = bytes((0, *position.opponent[23::-1], 0))
        self.blocked = theirs.translate(_BLOCKS)
        self.blot = theirs.translate(_BLOTS)
        self.outside = sum(self.mine[7:26])  # checkers not yet home; bear-off waits for 0
        self.key = int.from_bytes(bytes(self.mine), "little")
        # The opponent's blocks never move during a turn (a hit lands on a blot), so the
        # moves each die allows from a point within the board are known before the search.
        self.open: dict[int, list[Step]] = {
            die: [
                _STEPS[die][source]
                for source in range(24, die, -1)
                if not self.blocked[source - die]
            ]
            for die in set(dice)
        }

    def steps(self, die: int, highest_source: int = BAR_POINT) -> list[Step]:
        """Single-die moves: from the bar first (G-BAR-1), else any open or bear-off target."""
        mine = self.mine
        if mine[BAR_POINT]:
            return [] if self.blocked[BAR_POINT - die] else [_STEPS[die][BAR_POINT]]
        if highest_source >= 24:
            found = [step for step in self.open[die] if mine[step[0]]]
        else:
            found = [step for step in self.open[die] if step[0] <= highest_source and mine[step[0]]]
        if not self.outside:
            # rule G-OFF-1: bear off exactly, or with a higher die from the highest point.
            if mine[die]:
                if die <= highest_source:
                    found.append(_STEPS[die][die])
            else:
                highest = _highest_home(mine)
                if highest and highest < die and highest <= highest_source:
                    found.append(_STEPS[die][highest])
        return found

    def move(self, step: Step, hits: int) -> tuple[int, int]:
        """Move one checker; returns the new hit mask and the key delta to undo with."""
        source, target, _ = step
        mine = self.mine
        mine[source] -= 1
        mine[target] += 1
        if source > 6 >= target:
            self.outside -= 1
        delta = _WEIGHT[target] - _WEIGHT[source]
        if self.blot[target] and not hits & _HIT[target]:
            delta += _HIT[target]
            hits |= _HIT[target]
        self.key += delta
        return hits, delta

    def unmove(self, step: Step, delta: int) -> None:
        source, target, _ = step
        mine = self.mine
        mine[source] += 1
        mine[target] -= 1
        if source > 6 >= target:
            self.outside += 1
        self.key -= delta

    def finish(self, found: dict[int, Path], path: Path, steps: list[Step], hits: int) -> None:
        """Record the plays that end with one of ``steps``, keyed without making the move."""
        key = self.key
        blot = self.blot
        for step in steps:
            source, target, _ = step
            leaf = key + _WEIGHT[target] - _WEIGHT[source]
            if blot[target] and not hits & _HIT[target]:
                leaf += _HIT[target]
            if leaf not in found:
                found[leaf] = (*path, step)

    def non_doubles(self, high: int, low: int) -> dict[int, Path]:
        """rule G-MAX-1: both dice if possible; else one, the higher if it can be played."""
        both: dict[int, Path] = {}
        single_high = self.both_dice(both, high, low)
        if both and not self.mine[BAR_POINT]:
            self.low_die_first(both, low, high)
            return both
        single_low = self.both_dice(both, low, high)
        return both or single_high or single_low

    def both_dice(self, both: dict[int, Path], first: int, second: int) -> dict[int, Path]:
        """Add the plays of ``first`` then ``second`` to ``both``; returns the moves of
        ``first`` that leave ``second`` no move, each as a play of one die."""
        single: dict[int, Path] = {}
        for step in self.steps(first):
            hits, delta = self.move(step, 0)
            follow_ups = self.steps(second)
            if follow_ups:
                self.finish(both, (step,), follow_ups, hits)
            else:
                single.setdefault(self.key, (step,))
            self.unmove(step, delta)
        return single

    def low_die_first(self, both: dict[int, Path], low: int, high: int) -> None:
        """``both_dice(both, low, high)`` after ``both_dice(both, high, low)``, off the bar.

        Two moves within the board (neither bearing off) can be made in either order when
        each checker was already where it moves from: the high die first found those plays.
        The low die first adds only the checker that moves on, and whatever bears off.
        """
        mine, blocked = self.mine, self.blocked
        for step in self.steps(low):
            hits, delta = self.move(step, 0)
            target = step[1]
            if not self.outside:
                self.finish(both, (step,), self.steps(high), hits)
            elif mine[target] == 1 and target > high and not blocked[target - high]:
                self.finish(both, (step,), [_STEPS[high][target]], hits)
            self.unmove(step, delta)

    def doubles(self, die: int) -> dict[int, Path]:
        """Up to four moves of ``die``; sources never rise, so each set of moves is seen once."""
        by_length: list[dict[int, Path]] = [{}, {}, {}, {}, {}]

        def search(path: Path, highest_source: int, hits: int) -> None:
            steps = self.steps(die, highest_source)
            if not steps:
                by_length[len(path)].setdefault(self.key, path)
            elif len(path) == 3:
                self.finish(by_length[4], path, steps, hits)
            else:
                for step in steps:
                    new_hits, delta = self.move(step, hits)
                    search((*path, step), step[0], new_hits)
                    self.unmove(step, delta)

        search((), BAR_POINT, 0)
        # rule G-MAX-1: as many of the four moves as possible.
        return next((found for found in reversed(by_length[1:]) if found), {})


def _highest_home(mine: list[int]) -> int:
    """The highest occupied point when every checker is home (0 when all are off)."""
    return next((point for point in range(6, 0, -1) if mine[point]), 0)


# The moves there can be, each with and without a hit, made once and shared by every play.
_MOVES = tuple(
    tuple((Move(source, target, False), Move(source, target, True)) for target in range(26))
    for source in range(26)
)


class _PlayBuilder:
    """Makes the moves of a path on copies of one position's sides.

    The Position ID's digits are updated point by point as checkers move (see ``key_digits``):
    after the play the mover is not on roll, so the mover's index i sits at digit 49 - i and
    the opponent's index j at digit 24 - j.
    """

    def __init__(self, position: Position) -> None:
        self.mine = list(position.on_roll)
        self.theirs = list(position.opponent)
        self.digits = key_digits(position.on_roll, position.opponent)

    def build(self, path: Iterable[Step]) -> Play:
        """The play of ``path``, each move checked as it is made (``_check_move``)."""
        mine = self.mine[:]
        theirs = self.theirs[:]
        digits = self.digits[:]
        moves = []
        bore_off = False
        for source, target, _ in path:
            _check_move(mine, theirs, source, target)
            mine[source - 1] = count = mine[source - 1] - 1
            digits[50 - source] = UNARY_CODES[count]
            hit = False
            if target == OFF:
                bore_off = True
            else:
                mine[target - 1] = count = mine[target - 1] + 1
                digits[50 - target] = UNARY_CODES[count]
                if theirs[24 - target] == 1:
                    theirs[24 - target] = 0
                    theirs[24] += 1
                    digits[target] = UNARY_CODES[0]
                    digits[0] = UNARY_CODES[theirs[24]]
                    hit = True
            moves.append(_new_tuple(Move, (source, target, hit)))
        after = Position.trusted(tuple(theirs), tuple(mine), position_id_from_digits(digits))
        return _new_tuple(Play, (tuple(moves), after, game_result(after) if bore_off else None))


def _plays(position: Position, leaves: Iterable[tuple[int, Path]]) -> tuple[Play, ...]:
    """The plays a search found, made from their keys, which hold the mover's side after each.

    One loop with local names: this is the rules core's hottest code, a few µs per play.
    """
    # After the play the opponent is on roll: its digits come first (see ``key_digits``).
    no_hit = position.opponent, side_binary(bytes(position.opponent[::-1]))
    after_hits = {0: no_hit}
    board, hit_shift, moves_of, new_tuple = _BOARD, _HIT_SHIFT, _MOVES, _new_tuple
    trusted, checkers = Position.trusted, CHECKERS_PER_SIDE
    plays = []
    for key, path in leaves:
        # counts[0] is the mover's borne-off checkers, counts[1..25] its side after the play.
        mover = key & board
        counts = mover.to_bytes(26, "little")
        hits = key >> hit_shift
        if hits:
            if hits not in after_hits:
                after_hits[hits] = _after_hits(position.opponent, hits)
            theirs, theirs_binary = after_hits[hits]
            moves = _moves_hitting(path, hits)
        else:
            theirs, theirs_binary = no_hit
            moves = tuple([moves_of[source][target][0] for source, target, _ in path])
        binary = theirs_binary + _mover_binary(mover)
        after = trusted(theirs, tuple(counts[1:]), position_id_from_binary(binary))
        # Only bearing off the last checker ends the game (rule G-WIN-1).
        result = game_result(after) if counts[0] == checkers else None
        plays.append(new_tuple(Play, (moves, after, result)))
    return tuple(plays)


def _mover_binary(board: int) -> str:
    """``side_binary`` of the mover's side from a search key's board, two counts per table
    entry: ``board | board >> 4`` holds bytes k and k + 1 in byte k (counts are below 16).

    Bytes 25, 23, .., 1 pair the bar with an empty byte 26, whose "0" is dropped.
    """
    pairs = (board | board >> 4).to_bytes(26, "little")[25:0:-2]
    return codecs.charmap_decode(pairs, "strict", _PAIR_CODES)[0][1:]


_PAIR_CODES = tuple(UNARY_CODES[pair >> 4] + UNARY_CODES[pair & 15] for pair in range(256))
"""The digits of two counts, the higher index first, by their byte ``high << 4 | low``."""


def _after_hits(theirs: Side, hits: int) -> tuple[Side, str]:
    """The opponent's side, and its digits, after its blots on the points of ``hits`` (the
    mover's numbering) went to the bar."""
    counts = list(theirs)
    for point in range(1, 25):
        if hits >> point & 1:
            counts[24 - point] = 0
            counts[BAR] += 1
    return tuple(counts), side_binary(bytes(counts[::-1]))


def _moves_hitting(path: Path, hits: int) -> tuple[Move, ...]:
    """The first move onto each point of ``hits`` is the one that hit."""
    moves = []
    for source, target, _ in path:
        hit = hits >> target & 1
        hits &= ~(1 << target)
        moves.append(_MOVES[source][target][hit])
    return tuple(moves)


_new_tuple = tuple.__new__
"""Builds a NamedTuple without its keyword-handling constructor: the hot path's shortcut."""


def _check_move(mine: list[int], theirs: list[int], source: int, target: int) -> None:
    if not 1 <= source <= BAR_POINT or not OFF <= target < source:
        raise IllegalPlayError(f"no move leads from {source} to {target}")
    if not mine[source - 1]:
        raise IllegalPlayError(f"no checker on {source} to move")
    if target != OFF and theirs[24 - target] >= 2:
        raise IllegalPlayError(f"point {target} is blocked")


def _bear_off_waste(path: Path) -> int:
    return sum(die - source for source, target, die in path if target == OFF)
