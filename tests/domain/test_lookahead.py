"""The Swiss lookahead (rule T-FMT-9): examples, and whole random tournaments checked against an
exact reference written here (a plain backtracking over rounds and byes)."""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator, Sequence
from uuid import UUID

import pytest

from domain.lookahead import STEP_BUDGET, Budget, decide, dirac_keeps_a_completion
from domain.pairing import (
    LOOKAHEAD_NOTE,
    Entrant,
    SwissRound,
    Table,
    pair_swiss_round,
    pair_swiss_round_ahead,
)

SEED = 2026
TOURNAMENTS = int(os.environ.get("BGTD_LOOKAHEAD_TOURNAMENTS", "40"))
"""Random tournaments per field size and property; the default keeps the file's run short,
thousands go by the variable (docs/benchmarks.md)."""
SIZES = range(4, 13)
"""The small fields of rule T-FMT-9's property tests: 4 to 12 players."""


def player(rank: int) -> UUID:
    return UUID(int=rank)


def field(
    wins: Sequence[int], met: Sequence[tuple[int, int]] = (), byes: Sequence[int] = ()
) -> list[Entrant]:
    """Entrants in standing order, named by their rank from 1; ``met`` pairs ranks that played."""
    opponents: dict[int, set[UUID]] = {rank: set() for rank in range(1, len(wins) + 1)}
    for a, b in met:
        opponents[a].add(player(b))
        opponents[b].add(player(a))
    return [
        Entrant(
            player_id=player(rank),
            wins=count,
            opponents=frozenset(opponents[rank]),
            had_bye=rank in byes,
        )
        for rank, count in enumerate(wins, start=1)
    ]


def boards(tables: Sequence[Table]) -> list[tuple[int, int | None]]:
    return [(t.player_a.int, None if t.player_b is None else t.player_b.int) for t in tables]


# A field of six before round 3 of 5. The classic round (1 v 4, 2 v 3, 5 v 6) leaves a graph of
# unplayed pairs made of two triangles: no further round without a rematch.
# (With this seed the lot makes that the classic round.)
CORNERED = field([2, 1, 1, 1, 1, 0], met=[(1, 2), (1, 5), (2, 6), (3, 4), (3, 5), (4, 6)])
CORNERED_SEED = 5


# --- examples -------------------------------------------------------------------------------


def test_the_classic_round_that_paints_the_field_into_a_corner_is_replaced() -> None:
    # rule T-FMT-9
    assert boards(pair_swiss_round(CORNERED, seed=CORNERED_SEED)) == [(1, 4), (2, 3), (5, 6)]
    paired = pair_swiss_round_ahead(CORNERED, seed=CORNERED_SEED, rounds_left=3)
    assert boards(paired.tables) == [(1, 3), (2, 4), (5, 6)]
    assert paired.completable is True
    assert paired.looked_ahead is True


def test_each_table_the_lookahead_changed_says_so_and_no_other() -> None:
    # rule T-FMT-9: "... keeps the remaining rounds free of rematches"
    paired = pair_swiss_round_ahead(CORNERED, seed=CORNERED_SEED, rounds_left=3)
    changed = [t.table for t in paired.tables if LOOKAHEAD_NOTE in t.explanation]
    assert changed == [1, 2]
    assert "keeps the remaining rounds free of rematches" in paired.tables[0].explanation
    assert paired.tables[0].reason == "float"


def test_the_last_swiss_round_is_the_classic_one_and_always_completable() -> None:
    # rule T-FMT-9: nothing is left to pair after the last round
    paired = pair_swiss_round_ahead(CORNERED, seed=CORNERED_SEED, rounds_left=1)
    assert boards(paired.tables) == [(1, 4), (2, 3), (5, 6)]
    assert paired.completable is True
    assert paired.looked_ahead is False


def test_without_a_completion_the_classic_round_stands_and_is_not_completable() -> None:
    # rule T-FMT-9: player 1 has two opponents left for three rounds; T-FMT-2 applies as today
    entrants = field([1, 1, 0, 0], met=[(1, 2)])
    paired = pair_swiss_round_ahead(entrants, seed=SEED, rounds_left=3)
    assert paired.tables == tuple(pair_swiss_round(entrants, seed=SEED))
    assert paired.completable is False
    assert paired.looked_ahead is False


def test_a_field_without_rematch_risk_is_paired_as_before() -> None:
    # rule T-FMT-9: twenty players before round 2 of 6 meet Dirac's condition
    entrants = field([1] * 10 + [0] * 10, met=[(k, k + 10) for k in range(1, 11)])
    paired = pair_swiss_round_ahead(entrants, seed=SEED, rounds_left=5)
    assert paired.tables == tuple(pair_swiss_round(entrants, seed=SEED))
    assert paired.completable is True


def test_a_field_of_a_thousand_is_decided_by_the_sufficient_condition() -> None:
    # rule T-FMT-9: 1,000 players before round 2 of 6, one round played (1 v 501, ...)
    entrants = field([1] * 500 + [0] * 500, met=[(k, k + 500) for k in range(1, 501)])
    paired = pair_swiss_round_ahead(entrants, seed=SEED, rounds_left=5)
    assert paired.completable is True
    assert not paired.looked_ahead
    assert not any(t.reason == "rematch_unavoidable" for t in paired.tables)


def test_dirac_condition_asks_half_the_field_plus_the_rounds_less_one() -> None:
    # rule T-FMT-9: n/2 + k - 1 allowed opponents each
    assert dirac_keeps_a_completion([5] * 8, rounds=2)
    assert not dirac_keeps_a_completion([5, 5, 5, 5, 5, 5, 5, 4], rounds=2)
    assert dirac_keeps_a_completion([0, 0], rounds=0)


def test_an_odd_field_keeps_the_byes_for_those_who_had_none() -> None:
    # rule T-FMT-9: a phantom player is the bye, met only by players without a bye. Three
    # players, three rounds: each has the bye once, so none of them may have had one.
    assert pair_swiss_round_ahead(field([0, 0, 0]), seed=SEED, rounds_left=3).completable
    no_second_bye = pair_swiss_round_ahead(field([1, 0, 0], byes=[1]), seed=SEED, rounds_left=3)
    assert no_second_bye.completable is False


def test_a_field_with_one_rematch_is_proven_hopeless_at_once() -> None:
    # rule T-FMT-9: fields of up to 24 players are decided exactly. Ten players after two
    # rounds in which 1 and 2 met twice: 1 and 2 have eight opponents left, the others seven.
    # Seven more rounds would leave one pair unplayed, and it would have to be 1 v 2. (The
    # search used to spend its whole budget on this and answer None.)
    met = [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (3, 5), (4, 6), (7, 9), (8, 10)]
    unplayed = [
        sum(1 << (b - 1) for b in range(1, 11) if b != a and (min(a, b), max(a, b)) not in met)
        for a in range(1, 11)
    ]
    assert decide(unplayed, rounds=7, budget=Budget(STEP_BUDGET)) is False
    paired = pair_swiss_round_ahead(field([1] * 6 + [0] * 4, met=met), seed=SEED, rounds_left=7)
    assert paired.completable is False


def test_the_decision_answers_none_when_its_budget_runs_out() -> None:
    # rule T-FMT-9: undecided within the budget is null, never a guess
    complete_graph = [((1 << 10) - 1) & ~(1 << v) for v in range(10)]
    assert decide(complete_graph, rounds=9, budget=Budget(3)) is None
    assert decide(complete_graph, rounds=9, budget=Budget(1_000_000)) is True


# --- the exact reference --------------------------------------------------------------------


THE_BYE = 0
"""The bye as a seat of its own in an odd field (players are numbered from 1)."""


def reference_completable(
    players: Sequence[int], met: frozenset[frozenset[int]], byes: frozenset[int], rounds: int
) -> bool:
    """Whether ``rounds`` more rounds exist with no pair of ``met`` and no pair twice, and in an
    odd field one bye a round, never to a player in ``byes`` and never twice (rule T-FMT-9).

    Written from the rule, not from ``domain.lookahead``: in an odd field the bye is one more
    seat, which a player may take once unless they had the bye. Rounds are tried one by one,
    each seating first the player with the fewest opponents left in it; a set of unplayed pairs
    found to have no completion is remembered (the rounds come in any order, so the same set is
    reached many ways). A set is given up without a search where a count already rules it out.
    """
    seats = sorted(players)
    if len(seats) % 2:
        seats.append(THE_BYE)

    def may_meet(a: int, b: int) -> bool:
        if THE_BYE in (a, b):
            return a + b not in byes
        return frozenset((a, b)) not in met

    opponents = {
        seat: frozenset(o for o in seats if o != seat and may_meet(seat, o)) for seat in seats
    }
    hopeless: set[tuple[frozenset[tuple[int, int]], int]] = set()

    def completes(opponents: dict[int, frozenset[int]], left: int) -> bool:
        if left == 0:
            return True
        unplayed = frozenset((a, b) for a in opponents for b in opponents[a] if a < b)
        if (unplayed, left) in hopeless:
            return False
        if not counts_allow(opponents, left) or not any(
            completes(rest, left - 1) for rest in after_a_round(opponents)
        ):
            hopeless.add((unplayed, left))
            return False
        return True

    return completes(opponents, rounds)


def counts_allow(opponents: dict[int, frozenset[int]], left: int) -> bool:
    """Necessary conditions for ``left`` rounds: each seat plays once a round, so it needs
    ``left`` opponents and plays exactly ``left`` of them, leaving its surplus unplayed; every
    round seats everyone, so a group of seats who can only meet each other must be even."""
    surplus = {seat: len(others) - left for seat, others in opponents.items()}
    if any(extra < 0 for extra in surplus.values()):
        return False
    # The pairs played and those left unplayed split each seat's opponents: search the side
    # with fewer pairs.
    if sum(surplus.values()) <= left * len(opponents):
        shares = {seat: extra for seat, extra in surplus.items() if extra}
    else:
        shares = dict.fromkeys(opponents, left)
    if not pairs_fit(opponents, shares):
        return False
    unreached = set(opponents)
    while unreached:
        group = {unreached.pop()}
        frontier = list(group)
        while frontier:
            for other in opponents[frontier.pop()] - group:
                group.add(other)
                frontier.append(other)
        unreached -= group
        if len(group) % 2:
            return False
    return True


def pairs_fit(opponents: dict[int, frozenset[int]], shares: dict[int, int]) -> bool:
    """Whether some pairs of possible opponents give each seat exactly its share of them: the
    lowest seat left takes its share among the others, by backtracking."""
    hopeless: set[frozenset[tuple[int, int]]] = set()

    def fit(shares: dict[int, int]) -> bool:
        if not shares:
            return True
        key = frozenset(shares.items())
        if key in hopeless:
            return False
        seat = min(shares)
        others = sorted(opponents[seat] & shares.keys())
        for chosen in itertools.combinations(others, shares[seat]):
            rest = {s: share for s, share in shares.items() if s != seat}
            for other in chosen:
                rest[other] -= 1
                if not rest[other]:
                    del rest[other]
            if fit(rest):
                return True
        hopeless.add(key)
        return False

    return fit(shares)


def after_a_round(opponents: dict[int, frozenset[int]]) -> Iterator[dict[int, frozenset[int]]]:
    """The opponents left after each possible round: every perfect matching, by backtracking."""
    pairs: list[tuple[int, int]] = []

    def seat(unseated: frozenset[int]) -> Iterator[dict[int, frozenset[int]]]:
        if not unseated:
            rest = dict(opponents)
            for a, b in pairs:
                rest[a] -= {b}
                rest[b] -= {a}
            yield rest
            return
        player = min(unseated, key=lambda s: (len(opponents[s] & unseated), s))
        for other in sorted(opponents[player] & unseated, key=lambda o: (len(opponents[o]), o)):
            pairs.append((player, other))
            yield from seat(unseated - {player, other})
            pairs.pop()

    yield from seat(frozenset(opponents))


def test_the_reference_knows_the_cornered_field() -> None:
    # rule T-FMT-9
    met = frozenset(frozenset(p) for p in [(1, 2), (1, 5), (2, 6), (3, 4), (3, 5), (4, 6)])
    assert reference_completable(range(1, 7), met, frozenset(), 3)
    after_classic = met | {frozenset(p) for p in [(1, 4), (2, 3), (5, 6)]}
    assert not reference_completable(range(1, 7), after_classic, frozenset(), 2)


@pytest.mark.parametrize("size", range(4, 13))
def test_the_reference_completes_every_field_within_the_cap_and_no_more(size: int) -> None:
    # rule T-FMT-9: n - 1 rounds for an even n, n for an odd n, each player a bye once
    players = range(1, size + 1)
    assert reference_completable(players, frozenset(), frozenset(), most_rounds(size))
    assert not reference_completable(players, frozenset(), frozenset(), most_rounds(size) + 1)


# --- whole random tournaments ---------------------------------------------------------------


class Played:
    """A Swiss phase played with random results, round by round, by the domain's pairing."""

    def __init__(self, size: int, rounds: int, chance: random.Random) -> None:
        self.size, self.rounds, self.chance = size, rounds, chance
        self.wins = dict.fromkeys(range(1, size + 1), 0)
        self.points = dict.fromkeys(range(1, size + 1), 0)
        self.met: set[frozenset[int]] = set()
        self.byes: set[int] = set()

    def entrants(self) -> list[Entrant]:
        ranked = sorted(self.wins, key=lambda p: (-self.wins[p], -self.points[p], p))
        return [
            Entrant(
                player_id=player(p),
                wins=self.wins[p],
                opponents=frozenset(
                    player(q) for pair in self.met if p in pair for q in pair - {p}
                ),
                had_bye=p in self.byes,
            )
            for p in ranked
        ]

    def completable(self, rounds: int) -> bool:
        return reference_completable(
            range(1, self.size + 1), frozenset(self.met), frozenset(self.byes), rounds
        )

    def play(self, paired: SwissRound) -> tuple[int, int]:
        """Record the round with random results: its rematches and its second byes."""
        rematches = second_byes = 0
        for table in paired.tables:
            a = table.player_a.int
            if table.player_b is None:
                second_byes += a in self.byes
                self.byes.add(a)
                self.wins[a] += 1
                continue
            b = table.player_b.int
            rematches += frozenset((a, b)) in self.met
            self.met.add(frozenset((a, b)))
            winner = self.chance.choice((a, b))
            self.wins[winner] += 1
            self.points[winner] += self.chance.randint(7, 14)
            self.points[a + b - winner] += self.chance.randint(0, 6)
        return rematches, second_byes


def most_rounds(size: int) -> int:
    """rule T-FMT-1's cap: n - 1 rounds for an even field, n for an odd one."""
    return size - 1 if size % 2 == 0 else size


def sampled(size: int, count: int = TOURNAMENTS) -> Iterator[tuple[str, Played]]:
    """``count`` tournaments of ``size`` players, each named and with its own seeded chance.
    Every other one plays the most Swiss rounds there are (rule T-FMT-1's cap), the others a
    random number of rounds from 2."""
    for number in range(count):
        name = f"{size} players, tournament {number}"
        chance = random.Random(name)
        rounds = most_rounds(size) if number % 2 == 0 else chance.randint(2, most_rounds(size))
        yield name, Played(size, rounds, chance)


@pytest.mark.parametrize("size", SIZES)
def test_no_round_has_a_rematch_or_second_bye_while_a_completion_exists(size: int) -> None:
    # rule T-FMT-9's promise, and T-FMT-1: a Swiss phase within the cap has no rematch at all
    for name, played in sampled(size):
        for number in range(played.rounds):
            left = played.rounds - number
            paired = pair_swiss_round_ahead(played.entrants(), seed=number, rounds_left=left)
            assert paired.completable is True, f"{name}, round {number + 1}"
            assert played.play(paired) == (0, 0), f"{name}, round {number + 1}"


@pytest.mark.parametrize("size", SIZES)
def test_completable_agrees_with_the_exact_reference_after_every_round(size: int) -> None:
    # rule T-FMT-9: decided exactly for small fields. The first 0 to 3 rounds are paired at
    # random within the field (a history imported from elsewhere, or forced by overrides), so
    # that fields without a completion come up too.
    for name, played in sampled(size):
        imported_rounds = played.chance.randint(0, 3)
        assert_agrees_with_the_reference(name, played, imported_rounds)


def assert_agrees_with_the_reference(name: str, played: Played, imported_rounds: int) -> None:
    """Each round the domain pairs: no rematch and no second bye while a completion exists,
    and ``completable`` as the reference finds after the round."""
    rounds, chance = played.rounds, played.chance
    for number in range(rounds):
        where = f"{name}, round {number + 1}"
        left = rounds - number
        entrants = played.entrants()
        before = played.completable(left)
        if number < imported_rounds:
            paired = random_round(entrants, chance)
        else:
            paired = pair_swiss_round_ahead(entrants, seed=number, rounds_left=left)
            if before:
                assert not any(t.reason == "rematch_unavoidable" for t in paired.tables), where
        rematches, second_byes = played.play(paired)
        if number >= imported_rounds:
            assert paired.completable == played.completable(left - 1), where
            assert not before or (rematches, second_byes, paired.completable) == (0, 0, True), where


def random_round(entrants: list[Entrant], chance: random.Random) -> SwissRound:
    shuffled = [e.player_id for e in entrants]
    chance.shuffle(shuffled)
    tables = [
        Table(table=k + 1, player_a=a, player_b=b, reason="score_group", explanation="")
        for k, (a, b) in enumerate(zip(shuffled[::2], shuffled[1::2], strict=False))
    ]
    if len(shuffled) % 2:
        last = Table(
            table=len(tables) + 1,
            player_a=shuffled[-1],
            player_b=None,
            reason="bye",
            explanation="",
        )
        tables.append(last)
    return SwissRound(tables=tuple(tables), completable=None, looked_ahead=False)


@pytest.mark.parametrize("size", [4, 5, 6, 7, 8])
def test_every_field_within_the_cap_starts_with_a_completion(size: int) -> None:
    # rule T-FMT-9: n - 1 rounds for an even n, n for an odd n
    first = pair_swiss_round_ahead(field([0] * size), seed=SEED, rounds_left=most_rounds(size))
    assert first.completable is True
    too_many = pair_swiss_round_ahead(
        field([0] * size), seed=SEED, rounds_left=most_rounds(size) + 1
    )
    assert too_many.completable is False


def every_round(players: Sequence[int], byes: set[int]) -> Iterator[tuple[list[int], int | None]]:
    """Every round of ``players``: a flat list of pairs, and the bye (odd fields, to a player
    without one)."""

    def matchings(rest: tuple[int, ...]) -> Iterator[list[int]]:
        if not rest:
            yield []
            return
        for k in range(1, len(rest)):
            for more in matchings(rest[1:k] + rest[k + 1 :]):
                yield [rest[0], rest[k], *more]

    if len(players) % 2 == 0:
        for flat in matchings(tuple(players)):
            yield flat, None
        return
    for bye in players:
        if bye not in byes:
            for flat in matchings(tuple(p for p in players if p != bye)):
                yield flat, bye


@pytest.mark.parametrize("size", range(4, 9))
def test_the_round_is_the_best_of_those_that_keep_a_completion(size: int) -> None:
    # rule T-FMT-9: among the rounds after which a completion exists, T-FMT-2's criteria in
    # their order: the bye as low as possible, then the smallest squared score differences.
    # Checked against every round there is (up to 8 players: 12 have 10,395 rounds).
    for name, played in sampled(size, TOURNAMENTS // 2):
        assert_the_best_round_keeps_a_completion(name, played)


def assert_the_best_round_keeps_a_completion(name: str, played: Played) -> None:
    size, rounds = played.size, played.rounds
    for number in range(rounds):
        left = rounds - number
        entrants = played.entrants()
        place = {e.player_id.int: index for index, e in enumerate(entrants)}

        def cost(
            flat: Sequence[int], bye: int | None, place: dict[int, int] = place
        ) -> tuple[int, int]:
            height = 0 if bye is None else size - 1 - place[bye]
            gaps = sum(
                (played.wins[flat[i]] - played.wins[flat[i + 1]]) ** 2
                for i in range(0, len(flat), 2)
            )
            return height, gaps

        keeping = [
            cost(flat, bye)
            for flat, bye in every_round(range(1, size + 1), played.byes)
            if not any(frozenset(flat[i : i + 2]) in played.met for i in range(0, size - 1, 2))
            and reference_completable(
                range(1, size + 1),
                frozenset(played.met | {frozenset(flat[i : i + 2]) for i in range(0, size - 1, 2)}),
                frozenset(played.byes | ({bye} if bye is not None else set())),
                left - 1,
            )
        ]
        paired = pair_swiss_round_ahead(entrants, seed=number, rounds_left=left)
        flat = [
            p.int for t in paired.tables if t.player_b is not None for p in (t.player_a, t.player_b)
        ]
        bye = next((t.player_a.int for t in paired.tables if t.player_b is None), None)
        assert keeping, (
            f"{name}, round {number + 1}: a Swiss phase within the cap keeps a completion"
        )
        if number > 0:  # round 1's order is drawn by lot, not by the standing (T-FMT-2)
            assert cost(flat, bye) == min(keeping), f"{name}, round {number + 1}"
        played.play(paired)
