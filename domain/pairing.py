"""Swiss pairings and knockout seeding: pure functions over the standing before a round."""

# Rules T-FMT-1, T-FMT-2, T-FMT-4 (DOMAIN.md section 3).
#
# A Swiss round is a minimum-cost perfect matching (networkx's blossom algorithm), never a greedy
# pass that can fail late. Each candidate pair has a cost compared component by component, the
# first one most: (bye to a player who had one, rematch, bye to a higher-ranked player, squared
# difference in wins, distance from the classic pairing, lot). The components are packed into
# one integer per edge with a radix above the largest possible sum of the components below, so
# a higher component always outweighs everything after it.
#
# The classic pairing is the one a director makes by hand: in each score group from the top the
# upper half plays the lower half (1 v 5, 2 v 6, ...); an odd group's lowest-ranked player floats
# down to the highest-ranked player of the next group. When the classic pairing has no rematch
# it is the unique optimum of the cost, and is taken as it is.

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from typing import Literal
from uuid import UUID

import msgspec
import networkx as nx

from domain.errors import InvalidInputError
from domain.lookahead import (
    CHOICE_BUDGET,
    SEARCH_LIMIT,
    STEP_BUDGET,
    Budget,
    UndecidedError,
    cheapest_keeping,
    decide,
    dirac_keeps_a_completion,
    find_completion,
    without,
)

TableReason = Literal["score_group", "float", "rematch_unavoidable", "bye"]
"""Why two players meet: same wins, a float between score groups, a forced rematch; or the bye."""
KnockoutMatch = Literal["semi_final_1", "semi_final_2"]
_Cost = tuple[int, int, int, int, int, int]

# Fields up to this size are solved on the complete graph whenever the classic pairing has a
# rematch; larger ones repair the classic pairing in windows first (the complete graph of 1,000
# players takes minutes in networkx's pure-Python blossom algorithm).
COMPLETE_GRAPH_LIMIT = 64
# Larger fields: how many classic pairs on either side of a rematch are paired again together.
WINDOW_REACHES = (3, 10, 30)
_LOT_RANGE = 16


class Entrant(msgspec.Struct, frozen=True, kw_only=True):
    """One active player before a round; a field of entrants comes in standing order."""

    player_id: UUID
    wins: int
    """The score group: wins in the Swiss phase so far, a bye counting as a win (R-BYE-1)."""
    opponents: frozenset[UUID] = frozenset()
    """Everyone met so far in the Swiss phase (rule T-FMT-1: no rematch)."""
    had_bye: bool = False


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """One board of a Swiss round: two players, or one player and the bye (``player_b`` None)."""

    table: int
    """1.. from the top boards down; the bye comes last."""
    player_a: UUID
    """The higher-ranked player of the two."""
    player_b: UUID | None
    reason: TableReason
    explanation: str


class SwissRound(msgspec.Struct, frozen=True, kw_only=True):
    """A Swiss round paired with the lookahead (rule T-FMT-9)."""

    tables: tuple[Table, ...]
    completable: bool | None
    """Whether the remaining Swiss rounds can still be paired without a rematch after this one:
    None where that was not decided (a large field with many rounds, or the budget ran out)."""
    looked_ahead: bool
    """The lookahead changed the round that the classic criteria alone would have chosen."""


class PairingInputError(InvalidInputError):
    """A field that cannot be paired: a player twice, negative wins, not four semi-finalists."""


def pair_swiss_round(entrants: Sequence[Entrant], *, seed: int) -> list[Table]:
    """The next Swiss round's tables (rule T-FMT-2): the same field and seed, the same round.

    No lookahead: the round as if it were the last Swiss round."""
    return list(pair_swiss_round_ahead(entrants, seed=seed, rounds_left=1).tables)


def pair_swiss_round_ahead(
    entrants: Sequence[Entrant], *, seed: int, rounds_left: int
) -> SwissRound:
    """The next Swiss round with ``rounds_left`` Swiss rounds to pair, this one included.

    rule T-FMT-9: where the remaining rounds can be paired without a rematch, the round is the
    first of such a completion, and among those the best by the criteria of rule T-FMT-2; the
    classic round (``pair_swiss_round``) wherever it keeps a completion, or none exists.
    """
    order = _standing(entrants, seed)
    if not order:
        return SwissRound(tables=(), completable=True, looked_ahead=False)
    default_bye = _lowest_ranked_for_bye(order) if len(order) % 2 else None
    pairs = _classic_or_repaired(order, default_bye, seed)
    bye = default_bye
    if pairs is None:
        bye, pairs = _pair_whole_field(order, default_bye, seed)
    completable, better = _look_ahead(order, pairs, bye, default_bye, seed, rounds_left)
    if better is None:
        tables = _tables(order, pairs, bye, default_bye)
        return SwissRound(tables=tuple(tables), completable=completable, looked_ahead=False)
    new_bye, new_pairs = better
    tables = _tables(order, new_pairs, new_bye, default_bye, classic=(set(pairs), bye))
    return SwissRound(tables=tuple(tables), completable=completable, looked_ahead=True)


def seed_knockout(top_four: Sequence[UUID]) -> list[tuple[KnockoutMatch, UUID, UUID]]:
    """The semi-finals of the best four of the Swiss standing: 1 v 4 and 2 v 3 (rule T-FMT-4)."""
    if len(top_four) != 4 or len(set(top_four)) != 4:
        raise PairingInputError("top_four", "the semi-finals need four different players")
    first, second, third, fourth = top_four
    return [("semi_final_1", first, fourth), ("semi_final_2", second, third)]


def _standing(entrants: Sequence[Entrant], seed: int) -> list[Entrant]:
    ids = [entrant.player_id for entrant in entrants]
    if len(set(ids)) != len(ids):
        raise PairingInputError("entrants", "a player appears more than once")
    if any(entrant.wins < 0 for entrant in entrants):
        raise PairingInputError("entrants", "wins cannot be negative")
    if all(not e.wins and not e.opponents and not e.had_bye for e in entrants):
        # rule T-FMT-2: before round 1 everyone is tied, so the order is drawn by lot.
        return sorted(entrants, key=lambda entrant: _lot(seed, entrant.player_id))
    # rule T-FMT-3: the standing counts wins first; the caller's order breaks the ties.
    return sorted(entrants, key=lambda entrant: -entrant.wins)


def _lot(seed: int, *player_ids: UUID) -> bytes:
    return hashlib.sha256(":".join([str(seed), *map(str, player_ids)]).encode()).digest()


def _lowest_ranked_for_bye(order: Sequence[Entrant]) -> int:
    # rule T-FMT-2: the bye goes to the lowest-ranked player who has not had one (if all have
    # had one, to the lowest-ranked).
    without_bye = [place for place, entrant in enumerate(order) if not entrant.had_bye]
    return without_bye[-1] if without_bye else len(order) - 1


def _is_rematch(a: Entrant, b: Entrant) -> bool:
    return b.player_id in a.opponents or a.player_id in b.opponents


def _classic_partners(wins: Sequence[int]) -> list[int]:
    """The place of each place's partner in the classic pairing of an even field (wins falling)."""
    size = len(wins)
    cuts = {0, size}
    for boundary in range(1, size):
        if wins[boundary] != wins[boundary - 1]:
            # An odd boundary: its lowest player above floats down to the highest player below,
            # as a bracket of their own; every cut stays even, so every bracket pairs up.
            cuts.update((boundary,) if boundary % 2 == 0 else (boundary - 1, boundary + 1))
    bounds = sorted(cuts)
    partners = list(range(size))
    for start, end in itertools.pairwise(bounds):
        half = (end - start) // 2
        for place in range(start, start + half):
            partners[place], partners[place + half] = place + half, place
    return partners


class _Costs:
    """The cost components of pairing two places of a field whose bye (if any) is settled."""

    def __init__(self, order: Sequence[Entrant], bye: int | None, seed: int) -> None:
        self.order = order
        self.seed = seed
        self.rest = [place for place in range(len(order)) if place != bye]
        self.position = {place: index for index, place in enumerate(self.rest)}
        partners = _classic_partners([order[place].wins for place in self.rest])
        self.classic = {place: self.rest[partners[self.position[place]]] for place in self.rest}

    def pair(self, a: int, b: int) -> _Cost:
        first, second = self.order[a], self.order[b]
        classic = 0
        if a in self.position and b in self.position:
            classic = abs(self.position[b] - self.position[self.classic[a]]) + abs(
                self.position[a] - self.position[self.classic[b]]
            )
        lot = _lot(self.seed, *sorted((first.player_id, second.player_id)))
        return (
            0,
            int(_is_rematch(first, second)),
            0,
            (first.wins - second.wins) ** 2,
            classic,
            int.from_bytes(lot[:2]) % _LOT_RANGE,
        )

    def bye(self, place: int) -> _Cost:
        return (int(self.order[place].had_bye), 0, len(self.order) - 1 - place, 0, 0, 0)


def _classic_or_repaired(
    order: Sequence[Entrant], bye: int | None, seed: int
) -> list[tuple[int, int]] | None:
    """The classic pairing, or one repaired in windows: None where neither avoids every rematch."""
    costs = _Costs(order, bye, seed)
    classic = [
        (place, costs.classic[place]) for place in costs.rest if place < costs.classic[place]
    ]
    rematches = [k for k, (a, b) in enumerate(classic) if _is_rematch(order[a], order[b])]
    if not rematches:
        return classic
    if len(costs.rest) <= COMPLETE_GRAPH_LIMIT:
        return None
    for reach in WINDOW_REACHES:
        repaired = _repair_in_windows(costs, classic, rematches, reach)
        if repaired is not None:
            return repaired
    return None


def _repair_in_windows(
    costs: _Costs, classic: list[tuple[int, int]], rematches: list[int], reach: int
) -> list[tuple[int, int]] | None:
    # Each window pairs the players of the classic pairs around a rematch again. A window whose
    # new pairs have no rematch and no larger score differences keeps the whole round optimal in
    # everything but the distance from the classic pairing. Windows that overlap merge, and a
    # merged run is cut again into windows of at most 2 * reach + 1 pairs: a matching costs the
    # cube of its size.
    runs: list[list[int]] = []
    for k in rematches:
        low, high = max(0, k - reach), min(len(classic) - 1, k + reach)
        if runs and low <= runs[-1][1] + 1:
            runs[-1][1] = high
        else:
            runs.append([low, high])
    size = 2 * reach + 1
    windows = [
        (low, min(end, low + size - 1))
        for start, end in runs
        for low in range(start, end + 1, size)
    ]
    kept = set(range(len(classic)))
    repaired: list[tuple[int, int]] = []
    for low, high in windows:
        players = sorted(place for pair in classic[low : high + 1] for place in pair)
        edges = [(a, b, costs.pair(a, b)) for i, a in enumerate(players) for b in players[i + 1 :]]
        matched = _cheapest_perfect_matching(players, edges)
        if any(costs.pair(a, b)[1] for a, b in matched):
            return None
        before = sum(costs.pair(a, b)[3] for a, b in classic[low : high + 1])
        if sum(costs.pair(a, b)[3] for a, b in matched) > before:
            return None
        kept -= set(range(low, high + 1))
        repaired += matched
    return sorted([classic[k] for k in kept] + repaired)


def _pair_whole_field(
    order: Sequence[Entrant], default_bye: int | None, seed: int
) -> tuple[int | None, list[tuple[int, int]]]:
    """The bye and the pairs from one matching over every possible pair of the field."""
    size = len(order)
    costs = _Costs(order, default_bye, seed)
    edges = [(a, b, costs.pair(a, b)) for a in range(size) for b in range(a + 1, size)]
    if default_bye is None:
        return None, _cheapest_perfect_matching(list(range(size)), edges)
    # The bye is a node of its own, so that the field chooses it together with the pairs: it
    # moves up from the lowest-ranked player only where that saves a rematch.
    edges += [(place, size, costs.bye(place)) for place in range(size)]
    matched = _cheapest_perfect_matching(list(range(size + 1)), edges)
    bye = next(a for a, b in matched if b == size)
    pairs = [(a, b) for a, b in matched if b != size]
    if bye == default_bye:
        return bye, pairs
    costs = _Costs(order, bye, seed)
    rest = costs.rest
    edges = [(a, b, costs.pair(a, b)) for i, a in enumerate(rest) for b in rest[i + 1 :]]
    return bye, _cheapest_perfect_matching(rest, edges)


def _cheapest_perfect_matching(
    nodes: list[int], edges: list[tuple[int, int, _Cost]]
) -> list[tuple[int, int]]:
    """The perfect matching of least cost, costs compared component by component, first most."""
    packed = _packer([cost for _, _, cost in edges], len(nodes) // 2)
    maxima = [max(cost[k] for _, _, cost in edges) for k in range(len(edges[0][2]))]
    ceiling = packed(maxima) + 1
    graph: nx.Graph[int] = nx.Graph()
    # Nodes and edges go in in a fixed order: the matching networkx finds depends on it.
    graph.add_nodes_from(nodes)
    graph.add_weighted_edges_from((a, b, ceiling - packed(cost)) for a, b, cost in edges)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in matching)


def _packer(costs: Sequence[_Cost], pair_count: int) -> Callable[[Sequence[int]], int]:
    """One integer per cost: each component's radix exceeds the largest sum of the one below
    over ``pair_count`` pairs, so a sum of packed costs compares as the costs do."""
    width = len(costs[0])
    maxima = [max(cost[k] for cost in costs) for k in range(width)]
    radices = [pair_count * maximum + 1 for maximum in maxima]

    def packed(cost: Sequence[int]) -> int:
        value = 0
        for component, radix in zip(cost, radices, strict=True):
            value = value * radix + component
        return value

    return packed


# The lookahead (rule T-FMT-9) ---------------------------------------------------------------

LOOKAHEAD_NOTE = "chosen over the classic pairing: it keeps the remaining rounds free of rematches"


def _look_ahead(
    order: Sequence[Entrant],
    pairs: list[tuple[int, int]],
    bye: int | None,
    default_bye: int | None,
    seed: int,
    rounds_left: int,
) -> tuple[bool | None, tuple[int | None, list[tuple[int, int]]] | None]:
    """Whether a completion exists after the round, and the round that replaces the classic
    one (None: the classic round stands).

    The field is the lookahead's graph (``domain.lookahead``): places 0.. in standing order and,
    in an odd field, the phantom last, whose partner has the bye.
    """
    if rounds_left <= 1:
        return True, None  # rule T-FMT-9: after the last Swiss round nothing is left to pair
    size = len(order)
    phantom = size if size % 2 else -1
    classic = sorted([*pairs, *([(bye, phantom)] if bye is not None else [])])
    degrees = _degrees(order)
    fits = not any(_is_rematch(order[a], order[b]) for a, b in pairs) and (
        bye is None or not order[bye].had_bye
    )
    if fits and dirac_keeps_a_completion(degrees, rounds_left):
        return True, None
    if len(degrees) > SEARCH_LIMIT:
        after = [degree - 1 for degree in degrees] if fits else None
        return (True if after and dirac_keeps_a_completion(after, rounds_left - 1) else None), None
    adjacency = _adjacency(order)
    left_after = without(adjacency, classic)
    if fits:
        after_classic = decide(left_after, rounds_left - 1, Budget(STEP_BUDGET))
        if after_classic is not False:
            return after_classic, None
    try:
        witness = find_completion(adjacency, rounds_left, Budget(STEP_BUDGET))
    except UndecidedError:
        witness = None
    if witness is None:
        # rule T-FMT-2 as before: no completion (or none found in time); the classic round.
        if fits:
            return False, None
        return decide(left_after, rounds_left - 1, Budget(STEP_BUDGET)), None
    costs = _Costs(order, default_bye, seed)
    edge_costs = {
        (a, b): costs.bye(a) if b == phantom else costs.pair(a, b)
        for a in range(size)
        for b in [*range(a + 1, size), *([phantom] if phantom >= 0 else [])]
    }
    packed = _packer(list(edge_costs.values()), len(adjacency) // 2)
    chosen, _ = cheapest_keeping(
        adjacency,
        rounds_left,
        lambda a, b: packed(edge_costs[a, b]),
        witness,
        Budget(CHOICE_BUDGET),
    )
    new_bye = next((a for a, b in chosen if b == phantom), None)
    return True, (new_bye, [(a, b) for a, b in chosen if b != phantom])


def _degrees(order: Sequence[Entrant]) -> list[int]:
    """Each place's count of allowed opponents (and allowed byes), then the phantom's."""
    place = {entrant.player_id: index for index, entrant in enumerate(order)}
    met: set[tuple[int, int]] = set()
    for index, entrant in enumerate(order):
        for opponent in entrant.opponents:
            other = place.get(opponent)
            if other is not None and other != index:
                met.add((min(index, other), max(index, other)))
    degrees = [len(order) - 1] * len(order)
    for a, b in met:
        degrees[a] -= 1
        degrees[b] -= 1
    if len(order) % 2:
        degrees = [d + (not e.had_bye) for d, e in zip(degrees, order, strict=True)]
        degrees.append(sum(not entrant.had_bye for entrant in order))
    return degrees


def _adjacency(order: Sequence[Entrant]) -> list[int]:
    """Each node's allowed partners as a bit mask; the phantom (odd fields) last."""
    size = len(order)
    adjacency = [0] * (size + size % 2)
    for a in range(size):
        for b in range(a + 1, size):
            if not _is_rematch(order[a], order[b]):
                adjacency[a] |= 1 << b
                adjacency[b] |= 1 << a
        if size % 2 and not order[a].had_bye:
            adjacency[a] |= 1 << size
            adjacency[size] |= 1 << a
    return adjacency


def _tables(
    order: Sequence[Entrant],
    pairs: list[tuple[int, int]],
    bye: int | None,
    default_bye: int | None,
    classic: tuple[set[tuple[int, int]], int | None] | None = None,
) -> list[Table]:
    """The round's tables; ``classic`` (the classic pairs and bye) where the lookahead changed
    them: each table that differs says so (rule T-FMT-9)."""
    tables = [
        Table(
            table=number,
            player_a=order[a].player_id,
            player_b=order[b].player_id,
            reason=reason,
            explanation=explanation
            if classic is None or (a, b) in classic[0]
            else f"{explanation}; {LOOKAHEAD_NOTE}",
        )
        for number, (a, b) in enumerate(sorted(pairs), start=1)
        for reason, explanation in [_why(order, a, b)]
    ]
    if bye is not None:
        who = "the lowest-ranked player without a bye"
        if not any(not entrant.had_bye for entrant in order):
            who = "everyone has had one: the lowest-ranked player"
        if classic is not None and bye != classic[1]:
            who += f" ({LOOKAHEAD_NOTE})"
        elif bye != default_bye:
            who += " who leaves the fewest rematches"
        tables.append(
            Table(
                table=len(tables) + 1,
                player_a=order[bye].player_id,
                player_b=None,
                reason="bye",
                explanation=f"bye: {who} (rank {bye + 1})",
            )
        )
    return tables


def _why(order: Sequence[Entrant], a: int, b: int) -> tuple[TableReason, str]:
    first, second = order[a], order[b]
    if _is_rematch(first, second):
        return "rematch_unavoidable", (
            f"rematch, no pairing avoids it: rank {a + 1} ({_wins(first.wins)}) "
            f"v rank {b + 1} ({_wins(second.wins)})"
        )
    if first.wins == second.wins:
        return "score_group", f"both {_wins(first.wins)}"
    return "float", (
        f"rank {a + 1} ({_wins(first.wins)}) floats down to rank {b + 1} ({_wins(second.wins)})"
    )


def _wins(count: int) -> str:
    return "1 win" if count == 1 else f"{count} wins"
