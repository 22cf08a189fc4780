"""The Swiss lookahead (rule T-FMT-9): can the remaining rounds still be paired without a rematch?

The field is a graph. Its nodes are the players to be paired, in standing order, and in an odd
field one more node last: the *phantom*, whose partner has the bye. Two players are joined when
they have not met; a player and the phantom when the player has had no bye. A round is then a
perfect matching of the graph, and a *completion* of ``k`` rounds is ``k`` perfect matchings
with no edge in common (no pair plays twice, nobody has two byes). Scores play no part.

Deciding whether ``k`` edge-disjoint perfect matchings exist is hard in general (three of them
in a graph of degree three is edge-colouring a cubic graph), so it is searched for: round by
round, each round seating first the player with the fewest partners left, and remembering each
graph that was left without a completion. The rounds are interchangeable, so the *anchor* (the
node with the fewest edges) meets its partners in rising order, and one completion stands for
all its reorderings. The search counts its steps and gives up at a budget; the domain never
reads the clock, and the budget stands for "within 1 s".

Large fields need no search at all (see ``dirac_keeps_a_completion``).
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence

Matching = tuple[tuple[int, int], ...]
"""A round as pairs of nodes, each pair (lower, higher), in rising order."""

STEP_BUDGET = 100_000
"""Steps one decision may take, a step being one player seated: about a second."""
CHOICE_BUDGET = 100_000
"""Steps the search for the cheapest round that keeps a completion may take."""
CANDIDATE_STEPS = 10_000
"""Steps the check of one candidate round may take in ``cheapest_keeping``."""
RESTART_STEPS = 256
"""The unit of the search's attempts (see ``find_completion``)."""
SEARCH_LIMIT = 48
"""Fields of more nodes are decided by the sufficient condition only, or left undecided."""


class UndecidedError(Exception):
    """The search reached its budget without an answer."""


class Budget:
    """Steps left to a search; spending past zero raises ``UndecidedError``."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self, steps: int = 1) -> None:
        self.left -= steps
        if self.left < 0:
            raise UndecidedError


def dirac_keeps_a_completion(degrees: Sequence[int], rounds: int) -> bool:
    """A sufficient condition: every round without a rematch keeps a completion.

    Claim: in a graph of an even number n of nodes whose every node has at least
    ``n/2 + k - 1`` edges (k >= 1), every perfect matching is the first round of a completion
    of k rounds, and one exists.

    Proof by induction on k. Such a graph has minimum degree at least n/2, so by Dirac's
    theorem (n >= 3) it has a Hamiltonian cycle; n is even, so every other edge of that cycle
    is a perfect matching (n = 2: the one edge). Take any perfect matching R. Removing it takes
    exactly one edge from every node, so the rest has minimum degree at least
    ``n/2 + (k - 1) - 1``: for k - 1 >= 1 the claim gives a completion of k - 1 rounds in it,
    and R followed by that is a completion of k rounds; for k = 1, R alone is one.

    With r rounds played rematch-free and nobody gone, every player has n - 1 - r allowed
    opponents, so the condition holds whenever n >= 2 (r + k): every field of at least twice
    the Swiss rounds. An odd field counts its phantom as a node (n + 1 nodes), whose degree is
    the number of players without a bye.
    """
    if rounds <= 0:
        return True
    if not degrees:
        return False
    return min(degrees) >= len(degrees) // 2 + rounds - 1


def find_completion(adjacency: Sequence[int], rounds: int, budget: Budget) -> list[Matching] | None:
    """``rounds`` edge-disjoint perfect matchings of the graph, or None where there are none.

    ``adjacency[v]`` is the bit mask of v's neighbours. Raises ``UndecidedError`` at the budget.
    """
    if rounds <= 0:
        return []
    if len(adjacency) % 2:
        return None
    # The search's time is heavy-tailed: most orders of the players find a completion at once,
    # a few wander for long. So it restarts, each time with the players in another fixed order
    # and as many steps as Luby's universal sequence says (1, 1, 2, 1, 1, 2, 4, ... units);
    # once a quarter of the budget is spent so, the last attempt has every step left (where
    # it alone may have to prove that there is none).
    size = len(adjacency)
    start = budget.left
    for attempt in itertools.count():
        order = sorted(range(size), key=lambda v: _shuffle_key(attempt, v))
        label = {node: index for index, node in enumerate(order)}
        relabelled = [0] * size
        for node in range(size):
            for neighbour in _nodes(adjacency[node]):
                relabelled[label[node]] |= 1 << label[neighbour]
        last = (start - budget.left) * 4 >= start
        steps = budget.left if last else min(budget.left, _luby(attempt + 1) * RESTART_STEPS)
        trial = Budget(steps)
        try:
            found = _Rounds(relabelled, trial).complete(relabelled, rounds)
        except UndecidedError:
            budget.spend(steps + 1 if last else steps)
            continue
        budget.spend(steps - trial.left)
        if found is None:
            return None
        return [
            tuple(sorted((min(order[a], order[b]), max(order[a], order[b])) for a, b in round_))
            for round_ in found
        ]
    raise AssertionError("unreachable")  # pragma: no cover


def decide(adjacency: Sequence[int], rounds: int, budget: Budget) -> bool | None:
    """Whether a completion of ``rounds`` exists: True, False, or None (budget reached)."""
    degrees = [mask.bit_count() for mask in adjacency]
    if dirac_keeps_a_completion(degrees, rounds):
        return True
    if len(adjacency) > SEARCH_LIMIT:
        return None
    try:
        return find_completion(adjacency, rounds, budget) is not None
    except UndecidedError:
        return None


def without(adjacency: Sequence[int], matching: Sequence[tuple[int, int]]) -> list[int]:
    """The graph after a round: the round's edges taken out (pairs that are no edge stay so)."""
    rest = list(adjacency)
    for a, b in matching:
        rest[a] &= ~(1 << b)
        rest[b] &= ~(1 << a)
    return rest


def cheapest_keeping(
    adjacency: Sequence[int],
    rounds: int,
    cost: Callable[[int, int], int],
    known: Sequence[Matching],
    budget: Budget,
) -> tuple[Matching, bool]:
    """The cheapest first round of a completion of ``rounds``, and whether it is proven cheapest.

    ``known`` are rounds already known to start a completion (a completion's rounds, in any
    order, each start one); the cheapest of them is the answer to beat. Branch and bound: the
    highest-ranked unpaired node takes its partners in order of cost, a partial round is cut
    where its cost and each unpaired node's cheapest half-edge reach the best so far, and a
    complete round that is cheaper is kept only where the remaining rounds stay completable.
    At the budget the best round found so far is returned (False: not proven cheapest); a
    candidate whose own check runs out of steps is passed over.
    """
    size = len(adjacency)
    price = {(a, b): cost(a, b) for a in range(size) for b in range(a + 1, size)}

    def total(matching: Sequence[tuple[int, int]]) -> int:
        return sum(price[pair] for pair in matching)

    best = min(known, key=lambda matching: (total(matching), matching))
    best_cost = total(best)

    def edge(a: int, b: int) -> int:
        return price[min(a, b), max(a, b)]

    # The bound counts twice every cost: each unpaired node's cheapest edge is at most twice
    # its share of the pair that will seat it, and integers stay integers.
    cheapest_edge = [
        min((edge(a, b) for b in _nodes(adjacency[a])), default=0) for a in range(size)
    ]
    partners = [sorted(_nodes(adjacency[a]), key=lambda b: (edge(a, b), b)) for a in range(size)]
    chosen: list[tuple[int, int]] = []
    unpaired = (1 << size) - 1

    def extend(spent: int, bound: int) -> None:
        nonlocal best, best_cost, unpaired
        budget.spend()
        if not unpaired:
            matching = tuple(sorted(chosen))
            if spent < best_cost and _completable_after(adjacency, matching, rounds - 1, budget):
                best, best_cost = matching, spent
            return
        low = unpaired & -unpaired
        a = low.bit_length() - 1
        for b in partners[a]:
            if not unpaired >> b & 1 or b == a:
                continue
            pair = (a, b) if a < b else (b, a)
            paid = price[pair]
            rest_bound = bound - cheapest_edge[a] - cheapest_edge[b]
            if 2 * (spent + paid) + rest_bound >= 2 * best_cost:
                continue
            chosen.append(pair)
            unpaired &= ~(low | 1 << b)
            extend(spent + paid, rest_bound)
            unpaired |= low | 1 << b
            chosen.pop()

    try:
        extend(0, sum(cheapest_edge))
    except UndecidedError:
        return best, False
    return best, True


def _completable_after(
    adjacency: Sequence[int], matching: Matching, rounds: int, budget: Budget
) -> bool:
    """Whether a completion follows the round; a round whose check takes more than
    ``CANDIDATE_STEPS`` is passed over (counted as False)."""
    rest = without(adjacency, matching)
    if dirac_keeps_a_completion([mask.bit_count() for mask in rest], rounds):
        return True
    trial = Budget(min(budget.left, CANDIDATE_STEPS))
    try:
        found = find_completion(rest, rounds, trial)
    except UndecidedError:
        found = None
    budget.spend(min(budget.left, CANDIDATE_STEPS) - max(trial.left, 0))
    return found is not None


def _counts_allow(adjacency: Sequence[int], rounds: int) -> bool:
    """Necessary for a completion of ``rounds``: every node has at least ``rounds`` edges, and
    a node's surplus (its edges beyond ``rounds``) stays unplayed, so it needs as many
    neighbours with a surplus of their own to share those edges with.

    Without the second count the search proves a field with one rematch hopeless only by
    trying every order (rule T-FMT-9: fields of up to 24 players are decided exactly).
    """
    surplus = [mask.bit_count() - rounds for mask in adjacency]
    if min(surplus, default=0) < 0:
        return False
    with_surplus = sum(1 << node for node, extra in enumerate(surplus) if extra > 0)
    return all(
        (adjacency[node] & with_surplus).bit_count() >= extra
        for node, extra in enumerate(surplus)
        if extra > 0
    )


def _luby(index: int) -> int:
    """Luby's sequence from index 1: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ..."""
    while True:
        power = 1
        while (1 << power) - 1 < index:
            power += 1
        if index == (1 << power) - 1:
            return 1 << (power - 1)
        index -= (1 << (power - 1)) - 1


def _shuffle_key(attempt: int, node: int) -> tuple[bytes, int]:
    """A fixed order of the nodes per attempt: the first as they come, then hashed."""
    if attempt == 0:
        return b"", node
    return hashlib.sha256(f"{attempt}:{node}".encode()).digest()[:4], node


def _nodes(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class _Rounds:
    """A completion searched round by round; within a round, the unseated node with the fewest
    partners left is seated first. A graph left without a completion is remembered, so that
    another way to the same graph is not searched again."""

    def __init__(self, adjacency: Sequence[int], budget: Budget) -> None:
        self.budget = budget
        self.size = len(adjacency)
        self.failed: set[tuple[tuple[int, ...], int, int]] = set()
        # The rounds are interchangeable: in a completion found, the anchor's partners rise.
        self.anchor = min(range(self.size), key=lambda v: (adjacency[v].bit_count(), v))

    def complete(self, adjacency: list[int], rounds: int, after: int = -1) -> list[Matching] | None:
        """``rounds`` rounds of ``adjacency`` whose anchor meets partners above ``after``."""
        if rounds <= 0:
            return []
        key = (tuple(adjacency), rounds, after)
        if key in self.failed:
            return None
        found = None
        if _counts_allow(adjacency, rounds):
            found = self._seat(adjacency, rounds, after, (1 << self.size) - 1, [])
        if found is None:
            self.failed.add(key)
            return None
        return found

    def _seat(
        self,
        adjacency: list[int],
        rounds: int,
        after: int,
        unseated: int,
        chosen: list[tuple[int, int]],
    ) -> list[Matching] | None:
        self.budget.spend()
        if not unseated:
            partner = next((a + b - self.anchor for a, b in chosen if self.anchor in (a, b)), -1)
            rest = self.complete(adjacency, rounds - 1, partner)
            return None if rest is None else [tuple(sorted(chosen)), *rest]
        anchor, anchor_bit = self.anchor, 1 << self.anchor
        fewest, node, options = self.size + 1, -1, 0
        left = unseated
        while left:
            low = left & -left
            left ^= low
            candidate = low.bit_length() - 1
            choices = adjacency[candidate] & unseated
            if candidate == anchor and after >= 0:
                choices &= ~((2 << after) - 1)
            elif choices & anchor_bit and candidate <= after:
                choices &= ~anchor_bit
            count = choices.bit_count()
            if count < fewest:
                fewest, node, options = count, candidate, choices
                if count <= 1:
                    break
        for partner in _nodes(options):
            adjacency[node] &= ~(1 << partner)
            adjacency[partner] &= ~(1 << node)
            chosen.append((min(node, partner), max(node, partner)))
            seated = unseated & ~(1 << node | 1 << partner)
            found = self._seat(adjacency, rounds, after, seated, chosen)
            chosen.pop()
            adjacency[node] |= 1 << partner
            adjacency[partner] |= 1 << node
            if found is not None:
                return found
        return None
