"""The fast variant rules agree with an independent slow generator (``slow_rules.py``, written
from DOMAIN.md section 8 alone) on every position of random games, in every variant."""

from __future__ import annotations

import random

import pytest

from domain.variants import InvalidVariantBoardError, Variant, VariantBoard, variant_legal_plays
from tests.domain.variants.slow_rules import Outcome, slow_plays

STANDARD = tuple({6: 5, 8: 3, 13: 5, 24: 2}.get(point, 0) for point in range(25))
ALL_ON_24 = (0,) * 24 + (15,)
POSITIONS_PER_VARIANT = {"portes": 200, "tavla": 100, "plakoto": 300, "fevga": 300, "nardi": 300}


def fast_outcomes(board: VariantBoard, dice: tuple[int, int]) -> set[Outcome]:
    return {
        (
            play.board.on_roll,
            play.board.opponent,
            play.board.pinned_on_roll,
            play.board.pinned_opponent,
            play.game_result.value if play.game_result else None,
        )
        for play in variant_legal_plays(board, dice)
    }


def random_game_positions(
    variant: str, count: int, seed: int
) -> list[tuple[Outcome, tuple[int, int]]]:
    """Positions of random games walked with the slow generator's own plays."""
    rng = random.Random(seed)
    setup = STANDARD if variant in {"portes", "tavla"} else ALL_ON_24
    start: Outcome = (setup, setup, (), (), None)
    board = start
    cases: list[tuple[Outcome, tuple[int, int]]] = []
    while len(cases) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        cases.append((board, dice))
        on_roll, opponent, pinned_on_roll, pinned_opponent, _ = board
        outcomes = sorted(
            slow_plays(variant, on_roll, opponent, dice, pinned_on_roll, pinned_opponent), key=repr
        )
        if not outcomes:
            board = (opponent, on_roll, pinned_opponent, pinned_on_roll, None)
            continue
        board = rng.choice(outcomes)
        if board[4] is not None:
            board = start
    return cases


@pytest.mark.parametrize("variant", sorted(POSITIONS_PER_VARIANT))
def test_the_fast_rules_find_exactly_the_plays_of_the_slow_generator(variant: str) -> None:
    # rules V-MAX-1, V-OFF-1, V-WIN-1 and each variant's own V-* rules
    disagreements = []
    for (on_roll, opponent, pinned_on_roll, pinned_opponent, _), dice in random_game_positions(
        variant, POSITIONS_PER_VARIANT[variant], seed=24
    ):
        board = VariantBoard(Variant(variant), on_roll, opponent, pinned_on_roll, pinned_opponent)
        slow = slow_plays(variant, on_roll, opponent, dice, pinned_on_roll, pinned_opponent)
        fast = fast_outcomes(board, dice)
        if slow != fast:
            disagreements.append(
                f"{board} {dice}: only slow {sorted(slow - fast)}; only fast {sorted(fast - slow)}"
            )
    assert not disagreements[:3]


def random_board(variant: str, rng: random.Random) -> Outcome:
    """A structurally valid board, the mover's checkers bunched (blocks, primes, a full
    starting quadrant, bear-offs) and, in plakoto, a pinned checker of either side."""
    same_way = variant in {"fevga", "nardi"}

    def other(point: int) -> int:
        if same_way:
            return point + 12 if point <= 12 else point - 12
        return 25 - point

    mover = [0] * 25
    start = rng.choice([6, 6, 9, 12, 15, 20, 24])
    for _ in range(15 - rng.choice([0, 0, 0, 1, 4])):
        mover[max(1, start - rng.randint(0, 7))] += 1
    theirs = [0] * 25
    behind = rng.random() < 0.4  # the opponent all behind the mover's blocks, none off
    for _ in range(15 - (0 if behind else rng.choice([0, 0, 0, 0, 2]))):
        if behind:
            point = rng.randint(13, 24)
        else:
            point = rng.randint(1, 24) if rng.random() < 0.5 else rng.randint(1, 8)
        if not mover[other(point)]:
            theirs[point] += 1
    pinned_mover: tuple[int, ...] = ()
    pinned_theirs: tuple[int, ...] = ()
    if variant == "plakoto" and rng.random() < 0.7:
        singles = [p for p in range(1, 25) if mover[p] == 1 and not theirs[other(p)]]
        donors = [p for p in range(1, 25) if theirs[p] >= 2]
        if singles and donors:
            point, donor = rng.choice(singles), rng.choice(donors)
            theirs[donor] -= 1
            theirs[other(point)] += 1
            pinned_mover = (point,)
        lone = [p for p in range(1, 25) if theirs[p] == 1 and not mover[other(p)]]
        if lone and rng.random() < 0.7:
            point = rng.choice(lone)
            mover[other(point)] += 1
            if sum(mover) > 15:
                mover[max(range(1, 25), key=lambda p: mover[p] if p != other(point) else 0)] -= 1
            pinned_theirs = (point,)
    if variant in {"portes", "tavla"} and rng.random() < 0.2:
        mover[0], mover[start] = mover[start], 0
    return tuple(mover), tuple(theirs), pinned_mover, pinned_theirs, None


RANDOM_BOARDS_PER_VARIANT = 250


@pytest.mark.parametrize("variant", sorted(POSITIONS_PER_VARIANT))
def test_the_fast_rules_agree_on_random_boards_with_blocks_pins_and_bear_offs(
    variant: str,
) -> None:
    # rules V-FEVGA-4, V-FEVGA-5, V-NARDI-4 (rarely met in random games), V-PLAKOTO-2..8, V-OFF-1
    rng = random.Random(2024)
    disagreements = []
    checked = 0
    while checked < RANDOM_BOARDS_PER_VARIANT:
        on_roll, opponent, pinned_on_roll, pinned_opponent, _ = random_board(variant, rng)
        try:
            board = VariantBoard(
                Variant(variant), on_roll, opponent, pinned_on_roll, pinned_opponent
            )
        except InvalidVariantBoardError:
            continue
        checked += 1
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        slow = slow_plays(variant, on_roll, opponent, dice, pinned_on_roll, pinned_opponent)
        fast = fast_outcomes(board, dice)
        if slow != fast:
            disagreements.append(
                f"{board} {dice}: only slow {sorted(slow - fast)}; only fast {sorted(fast - slow)}"
            )
    assert not disagreements[:3]
