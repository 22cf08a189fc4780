"""The Swiss lookahead never calls a completable field hopeless (rule T-FMT-9): a wrong "no"
would force rematches no field needed. Fields of 13 to 24 players are built around a
completion known beforehand (rounds drawn as disjoint perfect matchings, then pairs that may
stay unplayed), so the right answer is known without a slow search."""

from __future__ import annotations

import random

import pytest

from domain.lookahead import STEP_BUDGET, Budget, _counts_allow, decide

FIELDS = 100
"""Fields per seed: each decision takes milliseconds."""


def field_with_a_completion(chance: random.Random) -> tuple[list[int], int] | None:
    """A graph (bit masks of neighbours) of 14 to 24 nodes, a phantom in an odd field, holding
    a completion of the rounds returned; None where the draw found no disjoint round."""
    players = chance.randint(13, 24)
    nodes = players + players % 2
    rounds = chance.randint(1, min(8, nodes - 1))
    adjacency = [0] * nodes
    for _ in range(rounds):
        for _attempt in range(200):
            order = chance.sample(range(nodes), nodes)
            pairs = list(zip(order[::2], order[1::2], strict=True))
            if not any(adjacency[a] >> b & 1 for a, b in pairs):
                break
        else:
            return None
        for a, b in pairs:
            adjacency[a] |= 1 << b
            adjacency[b] |= 1 << a
    for _ in range(chance.randint(0, 2 * nodes)):  # pairs that may stay unplayed
        a, b = chance.sample(range(nodes), 2)
        adjacency[a] |= 1 << b
        adjacency[b] |= 1 << a
    return adjacency, rounds


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_field_holding_a_completion_is_never_called_hopeless(seed: int) -> None:
    chance = random.Random(seed)
    for _ in range(FIELDS):
        drawn = field_with_a_completion(chance)
        if drawn is None:
            continue
        adjacency, rounds = drawn
        # the counts are necessary: each node plays ``rounds`` of its pairs, the rest stay
        # unplayed and so join two nodes with pairs to spare
        assert _counts_allow(adjacency, rounds), (adjacency, rounds)
        assert decide(adjacency, rounds, Budget(STEP_BUDGET)) is not False, (adjacency, rounds)
