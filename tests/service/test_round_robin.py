"""The round robin through the service: created, started, paired from the Berger schedule,
played to the end with random results, ranked and placed (rules T-FMT-10, T-FMT-11)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from uuid import UUID

import pytest

from domain.errors import InvalidInputError
from domain.tournament import AllRoundsPairedError, FormatFixedScheduleError
from service.bootstrap import Services
from service.clock import MovableClock
from service.rounds.rounds import ReportedResult, WithdrawalNotice
from service.shared.day_views import Round
from service.venue.venue import LateAdmission
from tests.service.conftest import (
    checked_in_tournament,
    plan,
    played_to_the_end,
    report_every_table,
)
from tests.service.test_seasons import SPRING

ROUND_ROBIN = {"format": "round_robin", "swiss_rounds": None, "match_length": 5}


def play_randomly(
    services: Services, tournament_id: UUID, paired: Round, rng: random.Random
) -> None:
    """Every open table decided at random: a winner at the match length, the loser below it."""
    for table in paired.pairings:
        if table.match_id is None or table.player_b is None or table.result_id is not None:
            continue
        winner = rng.choice((table.player_a, table.player_b))
        loser_points = rng.randrange(table.match_length)
        won_a = winner == table.player_a
        services.rounds.record_result(
            tournament_id,
            ReportedResult(
                match_id=table.match_id,
                winner=winner,
                points_a=table.match_length if won_a else loser_points,
                points_b=loser_points if won_a else table.match_length,
            ),
        )


def play_to_the_end(
    services: Services, clock: MovableClock, players: int, seed: int, **changes: object
) -> tuple[UUID, list[Round]]:
    day = checked_in_tournament(services, clock, players, **{**ROUND_ROBIN, **changes})
    rng = random.Random(seed)
    rounds = [services.rounds.start(day.tournament_id).round]
    while True:
        play_randomly(services, day.tournament_id, rounds[-1], rng)
        if services.tournaments.get_tournament(day.tournament_id).completed_at is not None:
            return day.tournament_id, rounds
        rounds.append(services.rounds.pair_round(day.tournament_id))


@pytest.mark.parametrize("players", range(3, 13))
def test_round_robins_of_every_size_play_every_pair_once_and_place_everyone_once(
    services: Services, clock: MovableClock, players: int
) -> None:
    # rule T-FMT-11: everyone plays everyone once per cycle, byes as rests, places 1..N
    tournament_id, rounds = play_to_the_end(services, clock, players, seed=players)
    assert len(rounds) == players - 1 + players % 2
    assert {paired.stage for paired in rounds} == {"round_robin"}
    met = Counter(
        frozenset((t.player_a, t.player_b))
        for paired in rounds
        for t in paired.pairings
        if t.player_b is not None
    )
    field = {t.player_a for t in rounds[0].pairings} | {
        t.player_b for t in rounds[0].pairings if t.player_b is not None
    }
    assert len(field) == players
    assert set(met) == {frozenset(pair) for pair in combinations(field, 2)}
    assert set(met.values()) == {1}
    rests = Counter(t.player_a for paired in rounds for t in paired.pairings if t.player_b is None)
    assert rests == (Counter(dict.fromkeys(field, 1)) if players % 2 else Counter())

    standings = services.rounds.list_standings(tournament_id)
    # a rest is worth no win: the wins add up to the matches played
    assert sum(row.wins for row in standings) == len(met)
    assert [(row.wins, row.points) for row in standings] == sorted(
        ((row.wins, row.points) for row in standings), reverse=True
    )
    places = services.places.list_places(tournament_id)
    assert [p.place for p in places] == list(range(1, players + 1))
    assert {p.player_id for p in places} == field
    # rule T-FMT-11: without a knockout, the places are the standings
    assert [p.player_id for p in places] == [row.player_id for row in standings]
    with pytest.raises(AllRoundsPairedError):
        services.rounds.pair_round(tournament_id)


@pytest.mark.parametrize("players", [3, 4, 7])
def test_two_cycles_play_every_pair_twice_the_second_repeating_the_first(
    services: Services, clock: MovableClock, players: int
) -> None:
    # rule T-FMT-11: round_robin_cycles 2; "The second cycle repeats the first."
    _, rounds = play_to_the_end(services, clock, players, seed=7, round_robin_cycles=2)
    per_cycle = players - 1 + players % 2
    assert len(rounds) == 2 * per_cycle

    def seats(paired: Round) -> list[tuple[UUID, UUID | None]]:
        return [(t.player_a, t.player_b) for t in paired.pairings]

    assert [seats(r) for r in rounds[per_cycle:]] == [seats(r) for r in rounds[:per_cycle]]


def test_the_best_four_of_the_round_robin_play_the_knockout_for_places_one_to_four(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-11: knockout_players 4: T-FMT-4's knockout after the round robin
    day = checked_in_tournament(services, clock, 5, **ROUND_ROBIN, knockout_players=4)
    paired = services.rounds.start(day.tournament_id).round
    for _ in range(5):
        report_every_table(services, day, paired)
        paired = services.rounds.pair_round(day.tournament_id)
    assert paired.stage == "knockout"
    best = [row.player_id for row in services.rounds.list_standings(day.tournament_id)][:4]
    semis = [(t.player_a, t.player_b) for t in paired.pairings]
    assert semis == [(best[0], best[3]), (best[1], best[2])]
    report_every_table(services, day, paired)
    final = services.rounds.pair_round(day.tournament_id)
    report_every_table(services, day, final)
    places = [p.player_id for p in services.places.list_places(day.tournament_id)]
    assert places[:2] == [final.pairings[0].player_a, final.pairings[0].player_b]
    assert set(places[:4]) == set(best)
    assert services.tournaments.get_tournament(day.tournament_id).completed_at is not None


def test_a_withdrawn_players_remaining_scheduled_matches_go_unplayed_to_the_opponents(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-11, T-FMT-5, T-FMT-7: the schedule stays; the leaver's matches are forfeits
    day = checked_in_tournament(services, clock, 4, **ROUND_ROBIN)
    first = services.rounds.start(day.tournament_id).round
    report_every_table(services, day, first)
    leaving = first.pairings[0].player_a
    services.rounds.withdraw(
        day.tournament_id,
        WithdrawalNotice(player_id=leaving, reason="ill", left_early=True),
        actor="director",
    )
    second = services.rounds.pair_round(day.tournament_id)
    [theirs] = [t for t in second.pairings if leaving in (t.player_a, t.player_b)]
    opponent = theirs.player_b if theirs.player_a == leaving else theirs.player_a
    [match] = [
        m
        for m in services.rounds.list_matches(day.tournament_id)
        if m.round == 2 and m.match_id == theirs.match_id
    ]
    assert (match.winner, match.played) == (opponent, False)


def test_pairing_overrides_and_late_entries_are_refused_for_a_fixed_schedule(
    services: Services, clock: MovableClock
) -> None:
    # API "Formats": 409 format-fixed-schedule for round_robin
    day = checked_in_tournament(services, clock, 4, **ROUND_ROBIN)
    first = services.rounds.start(day.tournament_id).round
    swapped = [(t.player_b or t.player_a, t.player_a) for t in first.pairings]
    with pytest.raises(FormatFixedScheduleError):
        services.venue.repair(day.tournament_id, 1, pairings=swapped, reason="wish")
    with pytest.raises(FormatFixedScheduleError):
        services.venue.admit_late_entry(
            day.tournament_id, LateAdmission(registration_id=day.registrations[0].registration_id)
        )


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"capacity": 13}, "capacity"),
        ({"swiss_rounds": 6}, "swiss_rounds"),
        ({"round_robin_cycles": 3}, "round_robin_cycles"),
        ({"knockout_players": 2}, "knockout_players"),
    ],
)
def test_a_round_robin_refuses_settings_that_cannot_work(
    services: Services, changes: dict[str, object], field: str
) -> None:
    # rule T-FMT-10, T-FMT-11: at most 12 players; Swiss settings do not apply
    with pytest.raises(InvalidInputError) as refused:
        services.tournaments.schedule_tournament(plan(**{**ROUND_ROBIN, **changes}))
    assert refused.value.field == field


def test_a_swiss_tournament_refuses_round_robin_settings(services: Services) -> None:
    # rule T-FMT-10: round_robin_cycles and seeding do not apply to the Swiss format
    for changes, field in (
        ({"round_robin_cycles": 2}, "round_robin_cycles"),
        ({"seeding": "lot"}, "seeding"),
    ):
        with pytest.raises(InvalidInputError) as refused:
            services.tournaments.schedule_tournament(plan(**changes))
        assert refused.value.field == field


def test_the_season_ranking_counts_every_won_round_robin_match_at_its_length(
    services: Services, clock: MovableClock
) -> None:
    # rule R-MATCH-1 via T-FMT-11: every won match scores its length; a rest scores nothing
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    tournament_id, _ = play_to_the_end(services, clock, 5, seed=11)
    services.views.catch_up()
    ranking = services.seasons.get_ranking(season.id)
    assert len(ranking) == 5
    wins = {row.player_id: row.wins for row in services.rounds.list_standings(tournament_id)}
    for row in ranking:
        explained = services.seasons.get_player_ranking(season.id, row.player_id)
        stages = {e.stage for e in explained.entries if e.match_id is not None}
        assert stages <= {"round_robin"}
        # match length 5 in every round robin match
        assert row.match_points == 5 * wins[row.player_id]


def test_seeding_by_ranking_gives_the_ranked_players_the_first_berger_numbers(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-11 (numbering by the tournament's seeding), T-FMT-12: ranked players first
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    played_to_the_end(services, clock)
    services.views.catch_up()
    ranks = {row.player_id: row.rank for row in services.seasons.get_ranking(season.id)}
    day = checked_in_tournament(services, clock, 5, **ROUND_ROBIN, seeding="ranking")
    newcomer = day.player(4)
    assert newcomer not in ranks
    assert set(ranks) == {day.player(i) for i in range(4)}
    first = services.rounds.start(day.tournament_id).round
    numbers = {t.player_a: t.seed_a for t in first.pairings} | {
        t.player_b: t.seed_b for t in first.pairings if t.player_b is not None
    }
    by_number = sorted(numbers, key=lambda player: numbers[player] or 0)
    assert by_number[-1] == newcomer
    assert [ranks[p] for p in by_number[:4]] == sorted(ranks.values())


def test_an_unpaired_round_is_paired_again_with_the_same_tables(
    services: Services, clock: MovableClock
) -> None:
    # API "Formats": DELETE /rounds/{n} works for every format; the schedule gives the same round
    day = checked_in_tournament(services, clock, 6, **ROUND_ROBIN)
    report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    second = services.rounds.pair_round(day.tournament_id)
    services.venue.unpair(day.tournament_id, 2, reason="paired too early")
    again = services.rounds.pair_round(day.tournament_id)
    assert again.round == 2
    assert [(t.player_a, t.player_b) for t in again.pairings] == [
        (t.player_a, t.player_b) for t in second.pairings
    ]
    assert {t.match_id for t in again.pairings}.isdisjoint({t.match_id for t in second.pairings})


def test_a_swiss_tournament_without_knockout_is_complete_after_its_swiss_rounds(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-10: knockout_players 0, no knockout; places are the Swiss standings
    day = checked_in_tournament(services, clock, 4, knockout_players=0)
    report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    report_every_table(services, day, services.rounds.pair_round(day.tournament_id))
    assert services.tournaments.get_tournament(day.tournament_id).completed_at is not None
    with pytest.raises(AllRoundsPairedError):
        services.rounds.pair_round(day.tournament_id)
    places = [p.player_id for p in services.places.list_places(day.tournament_id)]
    assert places == [s.player_id for s in services.rounds.list_standings(day.tournament_id)]


def test_the_head_to_head_report_counts_each_round_robin_meeting_and_no_rest(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-11 with the head-to-head report: one meeting per pair and cycle, a rest is none
    tournament_id, _ = play_to_the_end(services, clock, 5, seed=3)
    for standing in services.rounds.list_standings(tournament_id):
        rows = services.ratings.head_to_head(standing.player_id).opponents
        assert sorted(row.matches for row in rows) == [1, 1, 1, 1]
        assert sum(row.wins for row in rows) == standing.wins


def test_a_match_of_two_players_who_both_left_is_not_scheduled_and_the_day_still_ends(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-11, T-FMT-5: nobody could win it; the others' matches go on to the end
    day = checked_in_tournament(services, clock, 4, **ROUND_ROBIN)
    first = services.rounds.start(day.tournament_id).round
    report_every_table(services, day, first)
    one, other = first.pairings[0].player_a, first.pairings[1].player_a  # they meet later
    for leaving in (one, other):
        services.rounds.withdraw(
            day.tournament_id,
            WithdrawalNotice(player_id=leaving, reason="ill", left_early=True),
            actor="director",
        )
    later = []
    while services.tournaments.get_tournament(day.tournament_id).completed_at is None:
        later.append(services.rounds.pair_round(day.tournament_id))
        report_every_table(services, day, later[-1])
    assert len(later) == 2
    pairs = [{t.player_a, t.player_b} for paired in later for t in paired.pairings]
    assert {one, other} not in pairs
    assert len(pairs) == 3
    places = services.places.list_places(day.tournament_id)
    assert [p.place for p in places] == [1, 2, 3, 4]
    assert {p.player_id for p in places[2:]} == {one, other}
