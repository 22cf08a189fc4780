"""The rounds slice at the service level: the start, pairing, results and corrections,
withdrawals and exclusions, and what the rounds show (rules T-FMT-*)."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.tournament import (
    KnockoutLengths,
    ResultRecorded,
    ResultsMissingError,
    RoundNotFoundError,
    TournamentStateError,
)
from service.bootstrap import Services
from service.clock import MovableClock
from service.rounds.rounds import NotATournamentMatchError, ReportedResult, WithdrawalNotice
from tests.service.conftest import checked_in_tournament, played_to_the_end, report_every_table


def test_the_start_pairs_round_one_and_fixes_the_pot(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CHECKIN-2, T-BUYIN-1, T-FMT-2: play begins with round 1 paired
    day = checked_in_tournament(services, clock, 4)
    assert services.rounds.latest_round(day.tournament_id) is None
    started = services.rounds.start(day.tournament_id)
    assert (started.players, started.pot_cents, started.swiss_rounds) == (4, 4 * 80_00, 2)
    assert started.no_shows == []
    assert started.round.round == 1
    assert len(started.round.pairings) == 2
    seated = {p for t in started.round.pairings for p in (t.player_a, t.player_b)}
    assert seated == {receipt.player_id for receipt in day.registrations}
    assert services.rounds.latest_round(day.tournament_id) == started.round
    assert services.rounds.get_round(day.tournament_id, 1) == started.round


def test_the_next_round_waits_for_every_result_and_avoids_rematches(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-1: no rematch in the Swiss rounds; T-FMT-2: winners meet winners
    day = checked_in_tournament(services, clock, 4)
    first = services.rounds.start(day.tournament_id).round
    with pytest.raises(ResultsMissingError):
        services.rounds.pair_round(day.tournament_id)
    report_every_table(services, day, first)
    second = services.rounds.pair_round(day.tournament_id)
    assert second.round == 2
    met = {frozenset((t.player_a, t.player_b)) for t in first.pairings}
    assert not met & {frozenset((t.player_a, t.player_b)) for t in second.pairings}
    winners = {t.player_a for t in first.pairings}
    assert {second.pairings[0].player_a, second.pairings[0].player_b} == winners
    with pytest.raises(RoundNotFoundError):
        services.rounds.get_round(day.tournament_id, 3)
    # every round paired so far, in order, each as its own round shows it (the bracket page)
    assert services.rounds.list_rounds(day.tournament_id) == [
        services.rounds.get_round(day.tournament_id, 1),
        second,
    ]


def test_a_result_moves_the_standings_and_a_correction_names_what_it_replaces(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-3: wins, then points; T-FMT-6: a correction is a new event naming the old
    day = checked_in_tournament(services, clock, 4)
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    assert table.match_id is not None
    assert table.player_b is not None
    recorded = services.rounds.record_result(
        day.tournament_id,
        ReportedResult(match_id=table.match_id, winner=table.player_a, points_a=1, points_b=0),
    )
    assert recorded.winner == table.player_a
    assert recorded.tournament_status == "running"
    assert {change.player_id for change in recorded.affects.standings} >= {table.player_a}
    standings = services.rounds.list_standings(day.tournament_id)
    assert standings[0].player_id == table.player_a
    assert (standings[0].wins, standings[0].points) == (1, 1)

    corrected = services.rounds.record_result(
        day.tournament_id,
        ReportedResult(
            match_id=table.match_id,
            winner=table.player_b,
            points_a=0,
            points_b=1,
            corrects=recorded.result_id,
            reason="the scoresheet was misread",
        ),
    )
    assert corrected.corrects == recorded.result_id
    assert corrected.affects.rounds_paired_since == []
    leader = services.rounds.list_standings(day.tournament_id)[0]
    assert (leader.player_id, leader.wins) == (table.player_b, 1)
    results = [e for e in services.store.stream(day.tournament_id) if isinstance(e, ResultRecorded)]
    assert [r.corrects for r in results] == [None, recorded.result_id]
    [listed] = [m for m in services.rounds.list_matches(day.tournament_id) if m.table == 1]
    assert (listed.status, listed.winner, listed.result_id) == (
        "decided",
        table.player_b,
        corrected.result_id,
    )


def test_a_withdrawn_player_forfeits_their_open_match_and_is_not_paired_again(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-5: no longer paired; T-FMT-7: the open match is the opponent's, unplayed
    day = checked_in_tournament(services, clock, 4)
    first = services.rounds.start(day.tournament_id).round
    leaving = first.pairings[0].player_a
    withdrawn = services.rounds.withdraw(
        day.tournament_id,
        WithdrawalNotice(player_id=leaving, reason="ill", left_early=True),
        actor="director",
    )
    assert withdrawn.forfeits == [first.pairings[0].match_id]
    forfeited = next(m for m in services.rounds.list_matches(day.tournament_id) if m.table == 1)
    assert (forfeited.winner, forfeited.played) == (first.pairings[0].player_b, False)
    report_every_table(services, day, services.rounds.get_round(day.tournament_id, 1))
    second = services.rounds.pair_round(day.tournament_id)
    assert leaving not in {p for t in second.pairings for p in (t.player_a, t.player_b)}


def test_an_excluded_player_loses_their_open_match_at_its_full_length(
    services: Services, clock: MovableClock
) -> None:
    # rule C-EXCL-1 and T-FMT-7: decided at the match length for the opponent
    day = checked_in_tournament(services, clock, 4, match_length=3)
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    excluded = services.rounds.exclude(
        day.tournament_id, player_id=table.player_a, reason="insults", actor="director"
    )
    assert excluded.forfeits == [table.match_id]
    [result] = [
        e for e in services.store.stream(day.tournament_id) if isinstance(e, ResultRecorded)
    ]
    assert (result.winner, result.points_a, result.points_b) == (table.player_b, 0, 3)
    assert table.match_id is not None
    assert services.matches.get(table.match_id).is_over


def test_an_excluded_player_is_paired_no_more_and_their_buy_in_stays_in_the_pot(
    services: Services, clock: MovableClock
) -> None:
    # rule C-EXCL-1, T-FMT-5: no longer paired; R-EXCL-1: no refund of the buy-in
    day = checked_in_tournament(services, clock, 6)
    leaving = services.rounds.start(day.tournament_id).round.pairings[0].player_a
    services.rounds.exclude(
        day.tournament_id, player_id=leaving, reason="insults", actor="director"
    )
    report_every_table(services, day, services.rounds.get_round(day.tournament_id, 1))

    second = services.rounds.pair_round(day.tournament_id)
    assert leaving not in {p for t in second.pairings for p in (t.player_a, t.player_b)}
    [excluded] = [
        row
        for row in services.tournaments.list_registrations(day.tournament_id)
        if row.player_id == leaving
    ]
    assert (excluded.status, excluded.buy_in_paid_cents, excluded.refund_cents) == (
        "excluded",
        100_00,
        None,
    )
    assert services.tournaments.get_tournament(day.tournament_id).pot_cents == 6 * 80_00


def test_each_knockout_stage_plays_the_match_length_set_for_it(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-8: the Swiss rounds play match_length, each knockout stage its own length
    lengths = KnockoutLengths(semi_final=3, final=5, third_place=2)
    day = checked_in_tournament(services, clock, 4, match_length=1, knockout_lengths=lengths)
    report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    for _ in range(3):  # round 2, the semi-finals, the final with the 3rd-place match
        report_every_table(services, day, services.rounds.pair_round(day.tournament_id))

    tables = [t for r in services.rounds.list_rounds(day.tournament_id) for t in r.pairings]
    assert sorted({(t.stage, t.match_length) for t in tables}) == [
        ("final", 5),
        ("semi_final", 3),
        ("swiss", 1),
        ("third_place", 2),
    ]
    for table in tables:
        assert table.match_id is not None
        assert services.matches.get(table.match_id).match_length == table.match_length
    assert services.tournaments.get_tournament(day.tournament_id).status == "completed"


def test_an_ad_hoc_match_is_played_by_two_seated_players(
    services: Services, clock: MovableClock
) -> None:
    # names in, display names out; a stranger or a player against themselves is refused
    day = checked_in_tournament(services, clock, 4)
    with pytest.raises(TournamentStateError):
        services.rounds.check_seated(day.tournament_id, str(day.player(0)), str(day.player(1)))
    services.rounds.start(day.tournament_id)
    a, b = str(day.player(0)), str(day.player(1))
    name_a, name_b, seated = services.rounds.check_seated(day.tournament_id, a, b)
    assert (name_a, name_b) == ("Spieler1 M.", "Spieler2 M.")
    assert (seated.player_a_id, seated.player_b_id) == (day.player(0), day.player(1))
    assert services.rounds.display_names(day.tournament_id)[a] == "Spieler1 M."
    with pytest.raises(NotATournamentMatchError):
        services.rounds.check_seated(day.tournament_id, a, str(UUID(int=7)))
    with pytest.raises(NotATournamentMatchError):
        services.rounds.check_seated(day.tournament_id, a, a)


def test_the_knockout_follows_the_swiss_rounds_and_completes_the_tournament(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-4: the best four play the semi-finals, the final and the third place
    day = played_to_the_end(services, clock)
    rounds = [services.rounds.get_round(day.tournament_id, n) for n in (1, 2, 3, 4)]
    assert [r.stage for r in rounds] == ["swiss", "swiss", "knockout", "knockout"]
    assert services.rounds.list_rounds(day.tournament_id) == rounds  # the bracket page's rounds
    held = services.venue.load(day.tournament_id)
    assert services.rounds.round_view(held, held.rounds[-1]) == rounds[-1]
    assert services.tournaments.get_tournament(day.tournament_id).status == "completed"
    assert all(m.status == "decided" for m in services.rounds.list_matches(day.tournament_id))


def test_no_round_is_listed_before_the_start_and_the_knockout_after_the_swiss_rounds(
    services: Services, clock: MovableClock
) -> None:
    # rules T-FMT-2, T-FMT-4: the Swiss rounds, then the knockout, as the bracket page draws them
    before = checked_in_tournament(services, clock, 4)
    assert services.rounds.list_rounds(before.tournament_id) == []

    day = played_to_the_end(services, clock)
    listed = services.rounds.list_rounds(day.tournament_id)

    assert [(r.round, r.stage) for r in listed] == [
        (1, "swiss"),
        (2, "swiss"),
        (3, "knockout"),
        (4, "knockout"),
    ]
    assert listed == [services.rounds.get_round(day.tournament_id, n) for n in (1, 2, 3, 4)]
