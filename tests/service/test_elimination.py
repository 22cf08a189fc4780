"""The elimination format through the service: created, started, paired from the brackets,
played to the end with random results and placed (rules T-FMT-10, T-FMT-12..14)."""

from __future__ import annotations

import random
from collections import Counter
from uuid import UUID

import msgspec
import pytest

from domain.bracket import bracket_size, consolation_played, main_rounds, tournament_rounds
from domain.errors import InvalidInputError
from domain.tournament import (
    AllRoundsPairedError,
    FormatFixedScheduleError,
    ResultConflictError,
    ResultsMissingError,
)
from projections.ranking import tournament_record
from service.bootstrap import Services
from service.clock import MovableClock
from service.rounds.rounds import ReportedResult, WithdrawalNotice
from service.shared.day_views import Round
from service.venue.venue import LateAdmission
from tests.service.conftest import checked_in_tournament, plan
from tests.service.test_round_robin import play_randomly
from tests.service.test_seasons import SPRING

ELIMINATION = {"format": "elimination", "swiss_rounds": None, "match_length": 5}


def play_to_the_end(
    services: Services, clock: MovableClock, players: int, seed: int, **changes: object
) -> tuple[UUID, list[Round]]:
    day = checked_in_tournament(services, clock, players, **{**ELIMINATION, **changes})
    rng = random.Random(seed)
    rounds = [services.rounds.start(day.tournament_id).round]
    while True:
        play_randomly(services, day.tournament_id, rounds[-1], rng)
        if services.tournaments.get_tournament(day.tournament_id).completed_at is not None:
            return day.tournament_id, rounds
        rounds.append(services.rounds.pair_round(day.tournament_id))
        assert len(rounds) <= 10


@pytest.mark.parametrize("consolation", ["first_round", "progressive", "none"])
@pytest.mark.parametrize("players", range(2, 21))
def test_eliminations_of_every_size_play_their_brackets_and_place_everyone_once(
    services: Services, clock: MovableClock, players: int, consolation: str
) -> None:
    tournament_id, rounds = play_to_the_end(
        services, clock, players, seed=players, consolation=consolation, capacity=max(players, 9)
    )
    played = consolation_played(players, consolation)  # type: ignore[arg-type]
    # rule T-FMT-12, T-FMT-13: log2(B) rounds, one more with a progressive consolation
    assert len(rounds) == tournament_rounds(players, played)
    assert {paired.stage for paired in rounds} == {"elimination"}
    size = bracket_size(players)
    first = rounds[0].pairings
    # rule T-FMT-12: the byes go to the top seeds, every player seated once in round 1
    assert sorted(t.seed_a or 0 for t in first if t.player_b is None) == list(
        range(1, size - players + 1)
    )
    assert {t.bracket for t in first} == {"main"}
    for paired in rounds:
        seated = Counter(p for t in paired.pairings for p in (t.player_a, t.player_b) if p)
        assert set(seated.values()) == {1}
    finals = [t for t in rounds[main_rounds(players) - 1].pairings if t.stage == "final"]
    assert len(finals) == 1
    thirds = [t for paired in rounds for t in paired.pairings if t.stage == "third_place"]
    assert len(thirds) == (1 if players >= 4 else 0)
    consolation_tables = [t for p in rounds for t in p.pairings if t.bracket == "consolation"]
    assert bool(consolation_tables) == (played != "none")
    # rule T-FMT-14: places 1..N each once, 1 and 2 from the final
    places = services.places.list_places(tournament_id)
    assert [p.place for p in places] == list(range(1, players + 1))
    assert len({p.player_id for p in places}) == players
    final = finals[0]
    assert {places[0].player_id, places[1].player_id} == {final.player_a, final.player_b}
    # rule T-FMT-13: the consolation's winner and finalist hold consolation places 1 and 2
    side = sorted(p.consolation_place for p in places if p.consolation_place)
    assert side == ([1, 2] if played != "none" else [])
    # rule T-FMT-14: the pot split in two, every cent paid
    prizes = services.places.get_prizes(tournament_id)
    assert prizes.main_pot_cents + prizes.consolation_pot_cents == prizes.pot_cents
    assert prizes.consolation_pot_cents == (prizes.pot_cents * 20 // 100 if side else 0)
    if players >= 3:
        assert sum(p.amount_cents for p in prizes.payouts) == prizes.pot_cents
    consolation_paid = [p for p in prizes.payouts if p.bracket == "consolation"]
    assert {p.player_id for p in consolation_paid} == {
        p.player_id for p in places if p.consolation_place
    }
    with pytest.raises(AllRoundsPairedError):
        services.rounds.pair_round(tournament_id)
    # rule T-FMT-14: one computation of the places serves every caller, so the places answer,
    # the standings and the season ranking's record of the tournament agree
    assert_the_places_agree(services, tournament_id, [p.player_id for p in places])


def assert_the_places_agree(services: Services, tournament_id: UUID, places: list[UUID]) -> None:
    standings = services.rounds.list_standings(tournament_id)
    assert [row.player_id for row in standings] == places
    assert [row.place for row in standings] == list(range(1, len(places) + 1))
    services.views.catch_up()
    with services.views.reading() as db:
        record = tournament_record(db, str(tournament_id))
    assert record is not None
    assert list(record.places) == places


def test_an_elimination_refuses_overrides_and_late_entries(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-12: late entries and pairing overrides are refused
    day = checked_in_tournament(services, clock, 6, **ELIMINATION)
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
        ({"consolation": "progressive", "capacity": 8}, "consolation"),
        ({"knockout_players": 4}, "knockout_players"),
        ({"consolation": "none", "consolation_pot_percent": 10}, "consolation_pot_percent"),
        ({"consolation_payout_percent": (70, 20)}, "consolation_payout_percent"),
        ({"consolation_pot_percent": 51}, "consolation_pot_percent"),
    ],
)
def test_an_elimination_that_cannot_work_is_refused_with_its_field(
    services: Services, changes: dict[str, object], field: str
) -> None:
    # rule T-FMT-10, API.md "Formats": 422 with the field named
    with pytest.raises(InvalidInputError) as refused:
        services.tournaments.schedule_tournament(plan(**{**ELIMINATION, **changes}))
    assert refused.value.field == field


def test_a_consolation_setting_is_refused_outside_the_elimination(services: Services) -> None:
    # API.md "Formats": consolation fields apply to elimination only
    with pytest.raises(InvalidInputError) as refused:
        services.tournaments.schedule_tournament(plan(consolation="first_round"))
    assert refused.value.field == "consolation"


def test_a_correction_waits_until_the_later_round_is_unpaired_and_then_pairs_the_new_winner(
    services: Services, clock: MovableClock
) -> None:
    # API.md "Formats": a correction in an elimination bracket after the next round was paired
    # is refused; rule T-FMT-12: unpairing the latest round before its first result is allowed
    day = checked_in_tournament(services, clock, 4, **ELIMINATION)
    first = services.rounds.start(day.tournament_id).round
    play_randomly(services, day.tournament_id, first, random.Random(1))
    paired = services.rounds.pair_round(day.tournament_id)
    finalists = next(t for t in paired.pairings if t.stage == "final")
    decided = services.rounds.get_round(day.tournament_id, 1).pairings[0]
    assert decided.match_id is not None
    assert decided.result_id is not None
    won_a = decided.player_a in (finalists.player_a, finalists.player_b)
    loser = decided.player_b if won_a else decided.player_a
    assert loser is not None
    correction = ReportedResult(
        match_id=decided.match_id,
        winner=loser,
        points_a=5 if loser == decided.player_a else 0,
        points_b=5 if loser == decided.player_b else 0,
        corrects=decided.result_id,
        reason="wrong winner entered",
    )
    with pytest.raises(ResultConflictError):
        services.rounds.record_result(day.tournament_id, correction)
    services.venue.unpair(day.tournament_id, 2)
    services.rounds.record_result(day.tournament_id, correction)
    final = next(
        t for t in services.rounds.pair_round(day.tournament_id).pairings if t.stage == "final"
    )
    assert loser in (final.player_a, final.player_b)


def test_the_season_ranking_counts_every_won_elimination_match_at_its_length(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-14 via R-MATCH-1: main, 3rd place and consolation wins score their length;
    # a bye scores nothing; the tournament win is main place 1
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    tournament_id, rounds = play_to_the_end(services, clock, 10, seed=5, consolation_match_length=3)
    services.views.catch_up()
    ranking = services.seasons.get_ranking(season.id)
    assert len(ranking) == 10
    lengths = {t.match_id: t.match_length for p in rounds for t in p.pairings if t.match_id}
    won: Counter[UUID] = Counter()
    for match in services.rounds.list_matches(tournament_id):
        assert match.winner is not None
        won[match.winner] += lengths[match.match_id]
    assert {
        t.match_length
        for p in rounds
        for t in p.pairings
        if t.stage == "consolation" and t.match_id
    } == {3}
    for row in ranking:
        assert row.match_points == won[row.player_id]
    champion = services.places.list_places(tournament_id)[0].player_id
    assert next(row for row in ranking if row.player_id == champion).tournament_wins == 1


def test_two_players_who_both_left_and_meet_wait_for_the_directors_result(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-12: a player who withdraws forfeits their next match; when both players of a
    # match have withdrawn neither can forfeit to the other and no rule says who goes through
    # (a ruling is needed): the match stays open, says so, and pairing on is refused by name
    day = checked_in_tournament(services, clock, 8, **{**ELIMINATION, "consolation": "none"})
    tournament_id = day.tournament_id
    first = services.rounds.start(tournament_id).round
    play_randomly(services, tournament_id, first, random.Random(3))
    winners = {m.match_id: m.winner for m in services.rounds.list_matches(tournament_id)}
    by_position = sorted(first.pairings, key=lambda t: t.bracket_position or 0)
    leaving = [winners[t.match_id] for t in by_position[:2] if t.match_id]
    for player in leaving:
        assert player is not None
        services.rounds.withdraw(
            tournament_id,
            WithdrawalNotice(player_id=player, reason="left", left_early=True),
            actor="director",
        )
    second = services.rounds.pair_round(tournament_id)
    deserted = next(t for t in second.pairings if t.bracket_position == 1)
    assert {deserted.player_a, deserted.player_b} == set(leaving)
    assert deserted.result_id is None
    assert "both players have left the tournament" in deserted.explanation
    others = msgspec.structs.replace(
        second, pairings=[t for t in second.pairings if t is not deserted]
    )
    play_randomly(services, tournament_id, others, random.Random(4))
    with pytest.raises(ResultsMissingError, match=rf"both players of table\(s\) {deserted.table} "):
        services.rounds.pair_round(tournament_id)


def test_the_director_decides_the_match_of_two_leavers_and_the_brackets_play_on(
    services: Services, clock: MovableClock
) -> None:
    # the director records who goes through; their next match then goes unplayed to the
    # opponent (T-FMT-7), and the tournament completes with places 1..N and the pot paid
    day = checked_in_tournament(services, clock, 8, **{**ELIMINATION, "consolation": "none"})
    tournament_id = day.tournament_id
    first = services.rounds.start(tournament_id).round
    play_randomly(services, tournament_id, first, random.Random(3))
    winners = {m.match_id: m.winner for m in services.rounds.list_matches(tournament_id)}
    by_position = sorted(first.pairings, key=lambda t: t.bracket_position or 0)
    for table in by_position[:2]:
        player = winners[table.match_id] if table.match_id else None
        assert player is not None
        services.rounds.withdraw(
            tournament_id,
            WithdrawalNotice(player_id=player, reason="left", left_early=True),
            actor="director",
        )
    second = services.rounds.pair_round(tournament_id)
    play_randomly(services, tournament_id, second, random.Random(4))  # the director's results
    last = services.rounds.pair_round(tournament_id)
    # both leavers are in the last round, the semi-final's winner in the final and its loser
    # in the match for 3rd place: each forfeits, unplayed, and the tournament completes
    matches = {m.match_id: m for m in services.rounds.list_matches(tournament_id)}
    assert {matches[t.match_id].played for t in last.pairings if t.match_id} == {False}
    assert services.tournaments.get_tournament(tournament_id).completed_at is not None
    places = services.places.list_places(tournament_id)
    assert [p.place for p in places] == list(range(1, 9))
    prizes = services.places.get_prizes(tournament_id)
    assert sum(p.amount_cents for p in prizes.payouts) == prizes.pot_cents


def test_a_consolation_finalist_who_leaves_forfeits_the_consolation_final(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-13: eight players, the four round-1 losers play the consolation; one of its
    # finalists leaves before the final, which goes unplayed to the other (T-FMT-7). Whether a
    # player who left is still paid for the place they hold is not ruled (docs/api.md): today
    # they are, and every cent of the pot is paid either way
    day = checked_in_tournament(services, clock, 8, **ELIMINATION)
    tournament_id = day.tournament_id
    first = services.rounds.start(tournament_id).round
    play_randomly(services, tournament_id, first, random.Random(6))
    second = services.rounds.pair_round(tournament_id)
    play_randomly(services, tournament_id, second, random.Random(7))
    winners = {m.match_id: m.winner for m in services.rounds.list_matches(tournament_id)}
    side = [t for t in second.pairings if t.bracket == "consolation" and t.match_id]
    assert side[0].match_id is not None
    leaver = winners[side[0].match_id]
    assert leaver is not None
    services.rounds.withdraw(
        tournament_id,
        WithdrawalNotice(player_id=leaver, reason="left", left_early=True),
        actor="director",
    )
    last = services.rounds.pair_round(tournament_id)
    side_final = next(t for t in last.pairings if t.bracket == "consolation")
    assert leaver in (side_final.player_a, side_final.player_b)
    matches = {m.match_id: m for m in services.rounds.list_matches(tournament_id)}
    assert side_final.match_id is not None
    assert matches[side_final.match_id].played is False
    assert matches[side_final.match_id].winner != leaver
    play_randomly(services, tournament_id, last, random.Random(8))
    places = services.places.list_places(tournament_id)
    assert {p.player_id: p.consolation_place for p in places}[leaver] == 2
    prizes = services.places.get_prizes(tournament_id)
    assert sum(p.amount_cents for p in prizes.payouts) == prizes.pot_cents
