"""The elimination format's brackets by seeds (rules T-FMT-12..14)."""

from __future__ import annotations

import random
import uuid
from collections import Counter

import msgspec
import pytest

from domain.bracket import (
    BracketMatch,
    Consolation,
    MatchKey,
    PlacingMatch,
    bracket_size,
    consolation_played,
    first_round,
    main_rounds,
    next_round,
    places,
    pot_split,
    standard_order,
    tournament_rounds,
)
from domain.errors import InvalidInputError
from domain.standings import split_pot

SIZES = range(2, 21)
CONSOLATIONS: tuple[Consolation, ...] = ("none", "first_round", "progressive")


def placing_matches(
    played: list[BracketMatch], winners: dict[MatchKey, int], loss_points: dict[int, int]
) -> list[PlacingMatch]:
    """The places' view of bracket matches by seed, their ``winners`` and the points each
    player scored in their main loss (the service builds it from the tables instead)."""
    result = []
    for match in played:
        winner = winners.get(match.key)
        loser = None
        if winner is not None and match.seed_b is not None:
            loser = match.seed_b if winner == match.seed_a else match.seed_a
        result.append(
            PlacingMatch(
                bracket=match.bracket,
                bracket_round=match.bracket_round,
                stage=match.stage,
                seed_a=match.seed_a,
                seed_b=match.seed_b,
                winner=winner,
                loser_points=loss_points.get(loser, 0) if loser is not None else 0,
            )
        )
    return result


class Played:
    """An elimination played to the end by seeded random winners, round by round."""

    def __init__(self, players: int, asked: Consolation, seed: int) -> None:
        self.players = players
        self.consolation = consolation_played(players, asked)
        self.rounds: list[tuple[BracketMatch, ...]] = []
        self.winners: dict[MatchKey, int] = {}
        self.loss_points: dict[int, int] = {}
        lot = random.Random(seed)
        while matches := next_round(
            players, self.consolation, [m for r in self.rounds for m in r], self.winners
        ):
            self.rounds.append(matches)
            for match in matches:
                if match.seed_b is not None:
                    winner = lot.choice((match.seed_a, match.seed_b))
                    self.winners[match.key] = winner
                    loser = match.seed_b if winner == match.seed_a else match.seed_a
                    if match.bracket == "main" and match.stage != "third_place":
                        self.loss_points[loser] = lot.randrange(7)
            assert len(self.rounds) <= 10

    @property
    def played(self) -> list[BracketMatch]:
        return [match for matches in self.rounds for match in matches]

    @property
    def placing(self) -> list[PlacingMatch]:
        return placing_matches(self.played, self.winners, self.loss_points)

    def of(self, bracket: str, bracket_round: int) -> list[BracketMatch]:
        return [m for m in self.played if m.bracket == bracket and m.bracket_round == bracket_round]

    def loser(self, match: BracketMatch) -> int | None:
        if match.seed_b is None:
            return None
        return match.seed_b if self.winners[match.key] == match.seed_a else match.seed_a

    def places(self) -> list[int]:
        lot = list(range(self.players, 0, -1))
        return [p.seed for p in places(self.players, self.placing, lot)]


def test_sixteen_slots_are_filled_in_the_standard_order() -> None:
    # rule T-FMT-12: the order for 16
    assert standard_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    assert standard_order(2) == (1, 2)
    assert standard_order(4) == (1, 4, 2, 3)


def test_a_bracket_size_that_is_no_power_of_two_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        standard_order(12)
    with pytest.raises(InvalidInputError):
        bracket_size(1)


@pytest.mark.parametrize("players", SIZES)
def test_the_bracket_is_the_smallest_power_of_two_and_byes_go_to_the_top_seeds(
    players: int,
) -> None:
    # rule T-FMT-12
    size = bracket_size(players)
    assert size >= players > size // 2 or players == 2
    matches = first_round(players)
    assert [(m.seed_a, m.seed_b or size + 1 - m.seed_a) for m in matches] == list(
        zip(standard_order(size)[::2], standard_order(size)[1::2], strict=True)
    )
    assert sorted(m.seed_a for m in matches if m.is_bye) == list(range(1, size - players + 1))
    seated = [s for m in matches for s in (m.seed_a, m.seed_b) if s is not None]
    assert sorted(seated) == list(range(1, players + 1))


def test_seven_players_seed_one_has_the_bye_and_meets_seed_two_only_in_the_final() -> None:
    # rule T-FMT-12: 1 v (8), 4 v 5, 2 v 7, 3 v 6
    assert [(m.seed_a, m.seed_b) for m in first_round(7)] == [(1, None), (4, 5), (2, 7), (3, 6)]
    assert [m.stage for m in first_round(7)] == ["main"] * 4


@pytest.mark.parametrize(
    ("players", "asked", "played"),
    [
        (2, "first_round", "none"),
        (4, "first_round", "none"),
        (5, "first_round", "none"),  # one round-1 loser only: N - B/2 = 1
        (6, "first_round", "first_round"),
        (8, "progressive", "first_round"),  # fewer than 9 players
        (9, "progressive", "progressive"),
        (9, "first_round", "none"),
        (10, "first_round", "first_round"),
        (20, "none", "none"),
    ],
)
def test_the_consolation_played_depends_on_the_field(
    players: int, asked: Consolation, played: Consolation
) -> None:
    # rule T-FMT-13
    assert consolation_played(players, asked) == played


@pytest.mark.parametrize("asked", CONSOLATIONS)
@pytest.mark.parametrize("players", SIZES)
def test_every_bracket_is_played_as_specified_and_places_everyone_once(
    players: int, asked: Consolation
) -> None:
    for seed in range(3):
        played = Played(players, asked, seed * 100 + players)
        size, last = bracket_size(players), main_rounds(players)
        # rule T-FMT-12: main round r in tournament round r, halving, final in round log2(B)
        for r in range(1, last + 1):
            main = [m for m in played.rounds[r - 1] if m.bracket == "main"]
            assert [m.bracket_round for m in main] == [r] * len(main)
            if r > 1:
                for m in main:
                    if m.stage == "third_place":
                        continue
                    before = {x.position: x for x in played.of("main", r - 1)}
                    expected = [
                        before[2 * m.position - 1].seed_a
                        if before[2 * m.position - 1].is_bye
                        else played.winners[before[2 * m.position - 1].key],
                        played.winners[before[2 * m.position].key]
                        if not before[2 * m.position].is_bye
                        else before[2 * m.position].seed_a,
                    ]
                    assert [m.seed_a, m.seed_b] == expected
        final_round = [m for m in played.rounds[last - 1] if m.bracket == "main"]
        assert final_round[0].stage == "final"
        # rule T-FMT-12: the match for 3rd place between the semi-final losers when N >= 4
        third = [m for m in final_round if m.stage == "third_place"]
        if players >= 4:
            semis = played.of("main", last - 1)
            assert [m.stage for m in semis] == ["semi_final", "semi_final"]
            assert {third[0].seed_a, third[0].seed_b} == {played.loser(m) for m in semis}
        else:
            assert third == []
        # every player plays at most once in each tournament round
        for matches in played.rounds:
            seats = Counter(s for m in matches for s in (m.seed_a, m.seed_b) if s is not None)
            assert max(seats.values()) == 1
        # rule T-FMT-13: who enters the consolation, and when it is played
        assert len(played.rounds) == tournament_rounds(players, played.consolation)
        consolation = [m for m in played.played if m.bracket == "consolation"]
        if played.consolation == "none":
            assert consolation == []
        else:
            round_one_losers = [played.loser(m) for m in played.of("main", 1)]
            entered_first = played.of("consolation", 1)
            slots = {m.position: (m.seed_a, m.seed_b) for m in entered_first}
            for j in range(1, size // 4 + 1):
                pair = [round_one_losers[2 * j - 2], round_one_losers[2 * j - 1]]
                present = [s for s in pair if s is not None]
                if present:
                    assert slots[j] == (present[0], present[1] if len(present) == 2 else None)
                else:
                    assert j not in slots
            for m in consolation:
                assert played.rounds[m.bracket_round].count(m) == 1  # round c in round c + 1
            if played.consolation == "progressive":
                quarter = size // 4
                main_two = played.of("main", 2)
                for m in played.of("consolation", 2):
                    newcomer = played.loser(main_two[quarter - m.position])
                    assert newcomer in (m.seed_a, m.seed_b)
                assert [m.bracket for m in played.rounds[-1]] == ["consolation"]
            else:
                side_final = [m for m in played.rounds[-1] if m.bracket == "consolation"]
                assert len(side_final) == 1  # in the round of the main final
        # rule T-FMT-14: places 1..N each once, 1-2 from the final, 3-4 from the 3rd place match
        order = played.places()
        assert sorted(order) == list(range(1, players + 1))
        final = final_round[0]
        assert order[:2] == [played.winners[final.key], played.loser(final)]
        if third:
            assert order[2:4] == [played.winners[third[0].key], played.loser(third[0])]


def test_later_main_losses_place_first_and_the_consolation_winner_leads_its_group() -> None:
    # rule T-FMT-14
    played = Played(16, "first_round", 7)
    result = places(16, played.placing, list(range(1, 17)))
    by_seed = {p.seed: p for p in result}
    lost_in = {played.loser(m): m.bracket_round for m in played.played if m.bracket == "main"}
    lost_in.pop(None, None)
    ordered = [p.seed for p in result][4:]
    assert [lost_in[s] for s in ordered] == sorted((lost_in[s] for s in ordered), reverse=True)
    consolation_final = played.of("consolation", 3)[0]
    champion = played.winners[consolation_final.key]
    assert by_seed[champion].consolation_place == 1
    assert by_seed[played.loser(consolation_final) or 0].consolation_place == 2
    round_one = [s for s in ordered if lost_in[s] == 1]
    assert round_one[:2] == [champion, played.loser(consolation_final)]
    assert [p.consolation_place for p in result].count(None) == 14


def test_three_players_place_the_round_one_loser_third() -> None:
    # rule T-FMT-14: with N = 3, place 3 is the round-1 loser
    played = Played(3, "first_round", 1)
    semi = next(m for m in played.of("main", 1) if not m.is_bye)
    assert played.places()[2] == played.loser(semi)


def test_a_withdrawn_round_one_loser_leaves_an_empty_consolation_slot() -> None:
    # rule T-FMT-13: 8 players, the loser of match 1 withdrew: the loser of match 2 has a bye
    matches = first_round(8)
    winners: dict[MatchKey, int] = {m.key: m.seed_a for m in matches}
    round_two = next_round(8, "first_round", matches, winners, withdrawn={8})
    consolation = [m for m in round_two if m.bracket == "consolation"]
    assert [(m.seed_a, m.seed_b) for m in consolation] == [(5, None), (7, 6)]


def test_pairing_a_round_again_gives_the_same_tables() -> None:
    # rule T-FMT-12: unpairing and pairing again gives the same tables
    played = Played(13, "progressive", 3)
    for done in range(len(played.rounds)):
        earlier = [m for r in played.rounds[:done] for m in r]
        assert next_round(13, "progressive", earlier, played.winners) == played.rounds[done]


def test_a_round_waits_for_every_winner() -> None:
    with pytest.raises(InvalidInputError):
        next_round(8, "first_round", first_round(8), {})


@pytest.mark.parametrize("pot", [0, 1, 999, 12_345, 100_001])
@pytest.mark.parametrize("players", SIZES)
def test_the_payouts_of_both_brackets_add_up_to_the_pot(players: int, pot: int) -> None:
    # rule T-FMT-14: main and consolation pots, each split as T-BUYIN-1, every cent paid
    played = Played(players, "progressive" if players >= 9 else "first_round", pot + players)
    main_pot, side_pot = pot_split(pot, played.consolation, 20)
    assert main_pot + side_pot == pot
    ids = {seed: uuid.UUID(int=seed) for seed in range(1, players + 1)}
    result = places(players, played.placing, [])
    shares = [50, 30, 20] if players >= 3 else [60, 40]
    main = split_pot(main_pot, shares, [ids[p.seed] for p in result])
    paid = sum(p.amount_cents for p in main.payouts)
    if played.consolation != "none":
        assert side_pot == pot * 20 // 100
        winners = sorted(
            (p for p in result if p.consolation_place), key=lambda p: p.consolation_place or 0
        )
        side = split_pot(side_pot, [60, 40], [ids[p.seed] for p in winners])
        paid += sum(p.amount_cents for p in side.payouts)
    else:
        assert side_pot == 0
    assert paid == pot


def test_a_consolation_pot_above_half_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        pot_split(1000, "first_round", 51)


@pytest.mark.parametrize("consolation", CONSOLATIONS)
@pytest.mark.parametrize("players", SIZES)
def test_the_places_do_not_depend_on_how_the_players_are_numbered(
    players: int, consolation: Consolation
) -> None:
    # rule T-FMT-14: the aggregate numbers the players by seed, the season ranking's fold by
    # seat; the one computation gives the same places under either numbering, round by round
    played = Played(players, consolation, 100 + players)
    renumber = list(range(1, players + 1))
    random.Random(players).shuffle(renumber)
    number = dict(zip(range(1, players + 1), renumber, strict=True))
    lot = list(range(players, 0, -1))
    for done in range(1, len(played.rounds) + 1):
        so_far = [m for r in played.rounds[:done] for m in r]
        by_seed = places(players, placing_matches(so_far, played.winners, played.loss_points), lot)
        renumbered = [
            msgspec.structs.replace(
                m,
                seed_a=number[m.seed_a],
                seed_b=None if m.seed_b is None else number[m.seed_b],
                winner=None if m.winner is None else number[m.winner],
            )
            for m in placing_matches(so_far, played.winners, played.loss_points)
        ]
        by_number = places(players, renumbered, [number[s] for s in lot])
        assert [number[p.seed] for p in by_seed] == [p.seed for p in by_number]
        assert [p.consolation_place for p in by_seed] == [p.consolation_place for p in by_number]


def test_the_consolation_places_wait_for_the_consolation_final() -> None:
    # rule T-FMT-13: a progressive consolation's final is the last round alone; until it is
    # decided nobody holds a consolation place, whatever the main final decided
    played = Played(16, "progressive", 11)
    for done in range(1, len(played.rounds)):
        so_far = [m for r in played.rounds[:done] for m in r]
        placed = places(16, placing_matches(so_far, played.winners, played.loss_points), [])
        assert all(p.consolation_place is None for p in placed)
    final = places(16, played.placing, [])
    assert sorted(p.consolation_place for p in final if p.consolation_place) == [1, 2]


def test_the_finalists_stay_above_the_third_place_match_decided_before_the_final() -> None:
    # rule T-FMT-14: the final's players take places 1-2 and the 3rd-place match's 3-4; while
    # the final is still played, its two players lead the provisional places, not the pair
    # whose 3rd-place match ended first
    matches = [
        PlacingMatch(
            bracket="main", bracket_round=1, stage="semi_final", seed_a=1, seed_b=4, winner=1
        ),
        PlacingMatch(
            bracket="main", bracket_round=1, stage="semi_final", seed_a=2, seed_b=3, winner=2
        ),
        PlacingMatch(bracket="main", bracket_round=2, stage="final", seed_a=1, seed_b=2),
        PlacingMatch(
            bracket="main", bracket_round=2, stage="third_place", seed_a=4, seed_b=3, winner=3
        ),
    ]
    placed = [p.seed for p in places(4, matches, [1, 2, 3, 4])]
    assert sorted(placed[:2]) == [1, 2]
    assert placed[2:] == [3, 4]
