"""An independent, slow generator of variant plays, written from DOMAIN.md section 8 alone.

It shares no code with ``domain/variants``: the board is 24 physical places, each a stack of
checkers (bottom first, "A" for the side on roll and "B" for the other), so a pin is simply an
opposing checker under the mover's, and a release is the top of a stack changing hands. Every
sequence of steps is walked breadth first, a set of boards per number of steps, and rule
V-MAX-1 is applied as written.
"""

from __future__ import annotations

from dataclasses import dataclass

Board = tuple[tuple[str, ...], ...]
"""24 physical places, index 0..23, each a stack of "A"/"B" checkers, bottom first."""
SAME_WAY = {"fevga", "nardi"}
WITH_BAR = {"portes", "tavla"}


def place(variant: str, side: str, point: int) -> int:
    """Where a side's own point 1..24 lies (rules V-BOARD-1, V-BOARD-2): A's point p is place
    p - 1; B's is A's 25 - p, or A's p + 12 / p - 12 when both travel the same way."""
    if side == "A":
        return point - 1
    if variant in SAME_WAY:
        return (point + 11) % 24
    return 24 - point


@dataclass(frozen=True)
class State:
    board: Board
    bar: tuple[int, int]  # A, B
    off: tuple[int, int]  # A, B
    head_left: int = 0  # checkers that left A's 24-point this turn (Nardi)


def build(
    variant: str,
    on_roll: tuple[int, ...],
    opponent: tuple[int, ...],
    pinned_on_roll: tuple[int, ...],
    pinned_opponent: tuple[int, ...],
) -> State:
    stacks: list[list[str]] = [[] for _ in range(24)]
    for point in range(1, 25):
        a = place(variant, "A", point)
        b = place(variant, "B", point)
        # the pinned side's single checker goes to the bottom of a mixed stack
        if point in pinned_on_roll:
            stacks[a][:0] = ["A"]
        else:
            stacks[a] += ["A"] * on_roll[point]
        if point in pinned_opponent:
            stacks[b][:0] = ["B"]
        else:
            stacks[b] += ["B"] * opponent[point]
    return State(
        tuple(tuple(s) for s in stacks),
        (on_roll[0], opponent[0]),
        (15 - sum(on_roll), 15 - sum(opponent)),
    )


def count(state: State, variant: str, side: str, point: int) -> int:
    return state.board[place(variant, side, point)].count(side)


def pinned(state: State, variant: str, side: str, point: int) -> bool:
    stack = state.board[place(variant, side, point)]
    return len(stack) > 1 and stack[0] == side and stack[-1] != side


def step(
    state: State, variant: str, source: int, die: int, start_on_head: int, roll: tuple[int, int]
) -> State | None:
    """Side A moves one checker from its point ``source`` (25 = the bar) by ``die``; None when
    the rules forbid it."""
    stacks = [list(s) for s in state.board]
    bar_a, bar_b = state.bar
    off_a, off_b = state.off
    head_left = state.head_left
    target = source - die
    # rule G-BAR-1: with a checker on the bar, only entering moves
    if variant in WITH_BAR and bar_a and source != 25:
        return None
    if source == 25:
        if not bar_a:
            return None
        bar_a -= 1
    else:
        here = stacks[place(variant, "A", source)]
        if not here or here[-1] != "A":  # no checker of A on top: none, or A is pinned
            return None
        if source == 24 and variant == "fevga":
            # rule V-FEVGA-3
            middle = any(count(state, variant, "A", p) for p in range(12, 24))
            past = any(count(state, variant, "A", p) for p in range(1, 12)) or off_a
            if middle and not past:
                return None
        if source == 24 and variant == "nardi":
            # rule V-NARDI-3
            limit = 2 if start_on_head == 15 and roll[0] == roll[1] and roll[0] in (3, 4, 6) else 1
            if head_left >= limit:
                return None
            head_left += 1
        here.pop()
    if target <= 0:
        # rule V-OFF-1: everything home, nothing on the bar; V-PLAKOTO-6: nothing pinned
        if state.bar[0]:
            return None
        if any(count(state, variant, "A", p) for p in range(7, 25)):
            return None
        if variant == "plakoto" and any(pinned(state, variant, "A", p) for p in range(1, 25)):
            return None
        if target < 0 and any(count(state, variant, "A", p) for p in range(source + 1, 25)):
            return None
        off_a += 1
    else:
        there = stacks[place(variant, "A", target)]
        opposing = there.count("B")
        if variant in WITH_BAR:
            if opposing >= 2:
                return None
            if opposing == 1:
                there.clear()
                bar_b += 1
        elif variant == "plakoto":
            # rule V-PLAKOTO-3: empty, own on top, or a lone opposing checker (pinned now)
            if there and there[-1] != "A" and there != ["B"]:
                return None
        elif opposing:
            return None  # rules V-FEVGA-2, V-NARDI-2
        there.append("A")
    return State(tuple(tuple(s) for s in stacks), (bar_a, bar_b), (off_a, off_b), head_left)


def ends_well(state: State, variant: str) -> bool:
    """The end-of-play rules V-FEVGA-4, V-FEVGA-5 and V-NARDI-4."""
    if variant not in SAME_WAY:
        return True
    held = [False] + [count(state, variant, "A", p) > 0 for p in range(1, 25)]
    if variant == "fevga" and all(held[19:25]):
        return False
    for q in range(1, 20):
        block = all("A" in state.board[place(variant, "B", o)] for o in range(q, q + 6))
        ahead = state.off[1] > 0 or any(count(state, variant, "B", o) for o in range(1, q))
        if block and not ahead:
            return False
    return True


Outcome = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], str | None]
"""The board after a play as API.md shows it (the opponent on roll, so B first): B's array,
A's array, B's pinned points, A's pinned points; then the game result."""


def outcome(state: State, variant: str) -> Outcome:
    def side_array(side: str) -> tuple[int, ...]:
        bar = state.bar[0 if side == "A" else 1]
        return (bar, *(count(state, variant, side, p) for p in range(1, 25)))

    def pins(side: str) -> tuple[int, ...]:
        if variant != "plakoto":
            return ()
        return tuple(p for p in range(1, 25) if pinned(state, variant, side, p))

    a, b = side_array("A"), side_array("B")
    result = None
    if sum(a) == 0:
        result = "gammon" if state.off[1] == 0 else "single"  # rule V-WIN-1, no 3-point win
    elif variant == "plakoto" and pinned(state, variant, "B", 24):
        if count(state, variant, "A", 24) == 0:
            result = "mother"  # rule V-PLAKOTO-7
        elif pinned(state, variant, "A", 24):
            result = "draw"  # rule V-PLAKOTO-8
    return b, a, pins("B"), pins("A"), result


def slow_plays(
    variant: str,
    on_roll: tuple[int, ...],
    opponent: tuple[int, ...],
    dice: tuple[int, int],
    pinned_on_roll: tuple[int, ...] = (),
    pinned_opponent: tuple[int, ...] = (),
) -> set[Outcome]:
    start = build(variant, on_roll, opponent, pinned_on_roll, pinned_opponent)
    if sum(on_roll) == 0 or sum(opponent) == 0:
        return set()
    if variant == "plakoto" and pinned(start, variant, "A", 24):
        free = count(start, variant, "B", 24) - pinned(start, variant, "B", 24)
        if not free:
            return set()
    dice_left = [dice[0]] * 4 if dice[0] == dice[1] else [dice[0], dice[1]]
    start_on_head = count(start, variant, "A", 24)
    # level k: every (state, dice still unused, die of the first step) after k steps
    level: set[tuple[State, tuple[int, ...], int]] = {(start, tuple(sorted(dice_left)), 0)}
    levels = [level]
    while level:
        following = set()
        for state, unused, first_die in level:
            for die in set(unused):
                rest = list(unused)
                rest.remove(die)
                for source in range(25, 0, -1):
                    after = step(state, variant, source, die, start_on_head, dice)
                    if after is not None:
                        following.add((after, tuple(rest), first_die or die))
        level = following
        if level:
            levels.append(level)
    # rule V-MAX-1
    admissible = [[(s, first) for s, _, first in each if ends_well(s, variant)] for each in levels]
    m = max((k for k, each in enumerate(admissible) if each), default=0)
    if m == 0:
        return set()
    chosen = admissible[m]
    if m == 1 and dice[0] != dice[1]:
        larger = max(dice)
        if any(first == larger for _, first in chosen):
            chosen = [(s, first) for s, first in chosen if first == larger]
    return {outcome(s, variant) for s, _ in chosen}
