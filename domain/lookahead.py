"""The Swiss lookahead (rule T-FMT-9): can the remaining rounds still be paired without a rematch?

The field is a graph. Its nodes are the players to be paired, in standing order, and in an odd
field one more node last: the *phantom*, whose partner has the bye. Two players are joined when
they have not met; a player and the phantom when the player has had no bye. A round is then a
perfect matching of the graph, and a *completion* of ``k`` rounds is ``k`` perfect matchings
with no edge in common (no pair plays twice, nobody has two byes). Scores play no part.

Deciding whether ``k`` edge-disjoint perfect matchings exist is hard in general (three of them
in a graph of degree three is edge-colouring a cubic graph), so it is searched for: an exact
cover of the items (player, round) by the edges, always branching on the item with the fewest
edges left (Knuth's heuristic for Algorithm X). Rounds not yet fixed are interchangeable, so
the *anchor* (the node with the fewest edges) meets its partners of those rounds in rising
order, and one completion stands for all its reorderings. The search counts its steps and gives
up at a budget; the domain never reads the clock, and the budget stands for "within 1 s".

Large fields need no search at all (see ``dirac_keeps_a_completion``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Matching = tuple[tuple[int, int], ...]
"""A round as pairs of nodes, each pair (lower, higher), in rising order."""

STEP_BUDGET = 2_000_000
"""Steps one decision may take, a step being one (player, round) looked at: about a second."""
CHOICE_BUDGET = 2_000_000
"""Steps the search for the cheapest round that keeps a completion may take."""
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
    degrees = [mask.bit_count() for mask in adjacency]
    if min(degrees, default=0) < rounds:
        return None  # a node without enough partners: nothing to search
    search = _Search(adjacency, rounds, budget, interchangeable_from=0)
    return search.pairs() if search.run() else None


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
    At the budget the best round found so far is returned (False: not proven cheapest).
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
    rest = without(adjacency, matching)
    if dirac_keeps_a_completion([mask.bit_count() for mask in rest], rounds):
        return True
    return find_completion(rest, rounds, budget) is not None


def _nodes(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


class _Search:
    """An exact cover of every (node, round) by unused edges, fewest choices first."""

    def __init__(
        self, adjacency: Sequence[int], rounds: int, budget: Budget, *, interchangeable_from: int
    ) -> None:
        size = len(adjacency)
        self.adjacency = list(adjacency)
        self.rounds = rounds
        self.budget = budget
        self.unseated = [(1 << size) - 1] * rounds
        self.chosen: list[list[tuple[int, int]]] = [[] for _ in range(rounds)]
        self.anchor = min(range(size), key=lambda v: (adjacency[v].bit_count(), v))
        self.anchor_partner = [-1] * rounds
        self.interchangeable_from = interchangeable_from

    def pairs(self) -> list[Matching]:
        return [tuple(sorted(pairs)) for pairs in self.chosen]

    def _anchor_windows(self) -> list[int]:
        """Per round, the partners the anchor may still meet there: in the interchangeable
        rounds its partners rise with the round."""
        everyone = (1 << len(self.adjacency)) - 1
        windows = [everyone] * self.rounds
        first = self.interchangeable_from
        below = -1
        for round_ in range(first, self.rounds):
            windows[round_] &= ~((2 << below) - 1) if below >= 0 else everyone
            met = self.anchor_partner[round_]
            if met >= 0:
                below = met
        above = len(self.adjacency)
        for round_ in range(self.rounds - 1, first - 1, -1):
            windows[round_] &= (1 << above) - 1
            met = self.anchor_partner[round_]
            if met >= 0:
                above = met
        return windows

    def run(self) -> bool:
        windows = self._anchor_windows()
        anchor = self.anchor
        anchor_bit = 1 << anchor
        adjacency = self.adjacency
        item: tuple[int, int] | None = None
        fewest = -1
        options = 0
        scanned = 1
        for round_ in range(self.rounds):
            left = self.unseated[round_]
            window = windows[round_]
            while left:
                scanned += 1
                low = left & -left
                left ^= low
                node = low.bit_length() - 1
                choices = adjacency[node] & self.unseated[round_]
                if node == anchor:
                    choices &= window
                elif not window & low:
                    choices &= ~anchor_bit
                count = choices.bit_count()
                if item is None or count < fewest:
                    item, fewest, options = (node, round_), count, choices
                    if count <= 1:
                        break
            if item is not None and fewest <= 1:
                break
        self.budget.spend(scanned)
        if item is None:
            return True
        if not options:
            return False
        node, round_ = item
        for partner in _nodes(options):
            self._seat(node, partner, round_)
            if self.run():
                return True
            self._unseat(node, partner, round_)
        return False

    def _seat(self, a: int, b: int, round_: int) -> None:
        self.adjacency[a] &= ~(1 << b)
        self.adjacency[b] &= ~(1 << a)
        self.unseated[round_] &= ~(1 << a | 1 << b)
        self.chosen[round_].append((min(a, b), max(a, b)))
        if self.anchor in (a, b):
            self.anchor_partner[round_] = b if a == self.anchor else a

    def _unseat(self, a: int, b: int, round_: int) -> None:
        self.adjacency[a] |= 1 << b
        self.adjacency[b] |= 1 << a
        self.unseated[round_] |= 1 << a | 1 << b
        self.chosen[round_].pop()
        if self.anchor in (a, b):
            self.anchor_partner[round_] = -1
