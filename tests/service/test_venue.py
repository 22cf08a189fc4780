"""The venue slice at the service level: players' reports, pairing overrides, late entries,
fixed tables, the tables' pages, the wallboard and the open tables' scores, finalising and
reopening."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.errors import InvalidInputError
from domain.tournament import (
    FormatFixedScheduleError,
    PlayerCheckedIn,
    TournamentFinalError,
    TournamentStateError,
)
from service.bootstrap import Services
from service.clock import MovableClock
from service.conduct.conduct import PenaltyAward
from service.registration.tournaments import CheckInProof
from service.shared.day_views import Score
from service.shared.registrants import Registration
from service.venue.venue import LateAdmission, LateArrival, TableNotFoundError, TableReport
from tests.service.conftest import (
    Day,
    applicant,
    checked_in_tournament,
    played_to_the_end,
    report_every_table,
)


def test_two_agreeing_reports_from_the_table_record_the_result(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-6: the players report; the second, agreeing report records the result
    day = checked_in_tournament(services, clock, 4)
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    assert table.match_id is not None
    tokens = {r.player_id: r.player_token for r in day.registrations}
    assert table.player_b is not None
    # the opponent's equal report confirms the first (rule T-FMT-6)
    won_by_a = TableReport(match_id=table.match_id, winner=table.player_a, points_a=1, points_b=0)
    first = services.venue.report(day.tournament_id, won_by_a, player_token=tokens[table.player_a])
    assert (first.status, first.result_id) == ("awaiting_confirmation", None)
    second = services.venue.report(day.tournament_id, won_by_a, player_token=tokens[table.player_b])
    assert second.status == "confirmed"
    assert second.result_id is not None
    now = services.venue.get_table(day.tournament_id, 1)
    assert (now.status, now.score.a, now.score.b) == ("decided", 1, 0)


def test_a_round_repaired_before_its_first_result_voids_the_replaced_matches(
    services: Services, clock: MovableClock
) -> None:
    # the director's pairing replaces the computed one; its new tables' matches start
    day = checked_in_tournament(services, clock, 4)
    computed = services.rounds.start(day.tournament_id).round
    one, two = computed.pairings
    assert one.player_b is not None
    assert two.player_b is not None
    pairings = [(one.player_a, two.player_a), (one.player_b, two.player_b)]
    repaired = services.venue.repair(day.tournament_id, 1, pairings=pairings, reason="family")
    assert [(t.player_a, t.player_b) for t in repaired.pairings] == pairings
    assert {r.table for r in repaired.replaced} == {1, 2}
    voided = {one.match_id, two.match_id}
    assert all(t.match_id not in voided for t in repaired.pairings)


def test_an_overrides_warnings_are_known_before_it_is_saved(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-1: a rematch the computed pairing avoids is warned about, and nothing is saved
    day = checked_in_tournament(services, clock, 4)
    first = services.rounds.start(day.tournament_id).round
    report_every_table(services, day, first)
    second = services.rounds.pair_round(day.tournament_id)
    rematches = [(t.player_a, t.player_b) for t in first.pairings]
    warnings = services.venue.repair_warnings(day.tournament_id, 2, rematches)
    assert sorted((w.kind, w.table) for w in warnings if w.kind == "rematch") == [
        ("rematch", 1),
        ("rematch", 2),
    ]
    assert services.rounds.get_round(day.tournament_id, 2) == second
    as_paired = [(t.player_a, t.player_b) for t in second.pairings]
    assert services.venue.repair_warnings(day.tournament_id, 2, as_paired) == []


def test_an_unpaired_round_is_void_and_paired_again(
    services: Services, clock: MovableClock
) -> None:
    day = checked_in_tournament(services, clock, 4)
    computed = services.rounds.start(day.tournament_id).round
    unpaired = services.venue.unpair(day.tournament_id, 1, reason="a late arrival")
    assert unpaired.round == 1
    assert set(unpaired.voided) == {t.match_id for t in computed.pairings}
    assert services.rounds.latest_round(day.tournament_id) is None
    again = services.rounds.pair_round(day.tournament_id)
    assert again.round == 1


def started_with_a_late_registration(
    services: Services, clock: MovableClock
) -> tuple[Day, Registration]:
    """Four players started, and a fifth registered by the director after the start."""
    day = checked_in_tournament(services, clock, 4)
    services.rounds.start(day.tournament_id)
    return day, services.tournaments.register(day.tournament_id, applicant(5), actor="director")


def arriving(late: Registration, *, id_document_seen: bool = True) -> LateArrival:
    """The late registration at the desk with the buy-in (100 euros) paid."""
    return LateArrival(
        registration_id=late.registration_id,
        id_document_seen=id_document_seen,
        buy_in_paid_cents=100_00,
    )


def test_a_late_entry_joins_the_next_round_and_the_pot(
    services: Services, clock: MovableClock
) -> None:
    # rule T-BUYIN-1: the late entry's pot share joins the pot; missed rounds count as losses
    day, late = started_with_a_late_registration(services, clock)
    entered = services.venue.admit_late_entry(
        day.tournament_id, LateAdmission(registration_id=late.registration_id)
    )
    assert (entered.player_id, entered.from_round, entered.missed) == (late.player_id, 2, "losses")
    assert (entered.players, entered.pot_cents) == (5, 5 * 80_00)


def test_a_late_arrival_is_checked_in_and_admitted_in_one_decision(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: the late entry's ID document seen and buy-in paid are recorded with
    # the admission; rule T-BUYIN-1: the pot grows by one share, once
    day, late = started_with_a_late_registration(services, clock)
    before = services.store.stream(day.tournament_id)
    arrival = arriving(late)
    entered = services.venue.admit_late_arrival(day.tournament_id, arrival)
    assert (entered.player_id, entered.from_round, entered.missed) == (late.player_id, 2, "losses")
    assert (entered.players, entered.pot_cents) == (5, 5 * 80_00)
    stored = services.store.stream(day.tournament_id)[len(before) :]
    assert [type(e).__name__ for e in stored] == ["PlayerCheckedIn", "LateEntryAdmitted"]
    assert [e.originator_version for e in stored] == [len(before) + 1, len(before) + 2]
    checked_in = stored[0]
    assert isinstance(checked_in, PlayerCheckedIn)
    assert (checked_in.id_document_seen, checked_in.buy_in_paid_cents) == (True, 100_00)
    state = services.venue.load(day.tournament_id)
    assert state.registration(late.registration_id).status == "checked_in"
    assert late.player_id in state.field
    # the same arrival again is refused: the player is in the field already, the pot unchanged
    with pytest.raises(TournamentStateError):
        services.venue.admit_late_arrival(day.tournament_id, arrival)
    assert services.venue.load(day.tournament_id).pot_cents == 5 * 80_00


def test_a_late_arrival_without_the_id_document_seen_stores_nothing(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: no check-in without the ID document seen, and no admission without it
    day, late = started_with_a_late_registration(services, clock)
    before = services.store.stream(day.tournament_id)
    unseen = arriving(late, id_document_seen=False)
    with pytest.raises(InvalidInputError) as refused:
        services.venue.admit_late_arrival(day.tournament_id, unseen)
    assert refused.value.field == "id_document_seen"
    assert services.store.stream(day.tournament_id) == before
    state = services.venue.load(day.tournament_id)
    assert (state.registration(late.registration_id).status, state.pot_cents) == (
        "registered",
        4 * 80_00,
    )


def test_a_late_arrival_refused_its_admission_is_not_checked_in_either(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-12: an elimination's schedule is fixed: no late entry, so no check-in either
    # (rule T-CHECKIN-1's proof is in order)
    elimination = {"format": "elimination", "swiss_rounds": None, "match_length": 5}
    day = checked_in_tournament(services, clock, 6, **elimination)
    services.rounds.start(day.tournament_id)
    late = services.tournaments.register(day.tournament_id, applicant(7), actor="director")
    before = services.store.stream(day.tournament_id)
    arrival = arriving(late)
    with pytest.raises(FormatFixedScheduleError):
        services.venue.admit_late_arrival(day.tournament_id, arrival)
    assert services.store.stream(day.tournament_id) == before
    assert services.venue.load(day.tournament_id).registration(late.registration_id).status == (
        "registered"
    )


def test_a_late_arrival_after_the_last_swiss_round_is_paired_is_not_checked_in_either(
    services: Services, clock: MovableClock
) -> None:
    # the admission is refused, and with it the whole arrival: no check-in without the
    # admission, no pot share (rule T-BUYIN-1)
    day = checked_in_tournament(services, clock, 4)
    report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    late = services.tournaments.register(day.tournament_id, applicant(5), actor="director")
    services.rounds.pair_round(day.tournament_id)  # round 2 of 2: the last Swiss round
    before = services.store.stream(day.tournament_id)
    arrival = arriving(late)
    with pytest.raises(TournamentStateError, match="no more late entries"):
        services.venue.admit_late_arrival(day.tournament_id, arrival)
    assert services.store.stream(day.tournament_id) == before
    state = services.venue.load(day.tournament_id)
    assert (state.registration(late.registration_id).status, state.pot_cents) == (
        "registered",
        4 * 80_00,
    )


def test_a_late_registration_is_not_checked_in_once_the_last_swiss_round_is_paired(
    services: Services, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1 with T-BUYIN-1: a late registration that can no longer join the field
    # (the last Swiss round is paired) pays no buy-in at the desk, over REST as on arrival
    day = checked_in_tournament(services, clock, 4)
    report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    late = services.tournaments.register(day.tournament_id, applicant(5), actor="director")
    services.rounds.pair_round(day.tournament_id)  # round 2 of 2: the last Swiss round
    before = services.store.stream(day.tournament_id)
    proof = CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00)
    with pytest.raises(TournamentStateError, match="no more late entries"):
        services.tournaments.check_in(day.tournament_id, late.registration_id, proof)
    assert services.store.stream(day.tournament_id) == before


def test_a_late_entry_checked_in_already_is_admitted_on_arrival(
    services: Services, clock: MovableClock
) -> None:
    # the REST check-in first (rule T-CHECKIN-1), then the arrival admits only: one check-in
    day, late = started_with_a_late_registration(services, clock)
    proof = CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00)
    services.tournaments.check_in(day.tournament_id, late.registration_id, proof)
    before = services.store.stream(day.tournament_id)
    arrival = arriving(late)
    entered = services.venue.admit_late_arrival(day.tournament_id, arrival)
    assert (entered.players, entered.pot_cents) == (5, 5 * 80_00)
    stored = services.store.stream(day.tournament_id)[len(before) :]
    assert [type(e).__name__ for e in stored] == ["LateEntryAdmitted"]


def test_a_player_with_a_fixed_table_plays_there(services: Services, clock: MovableClock) -> None:
    # a wheelchair user keeps table 2 in every later round
    day = checked_in_tournament(services, clock, 4)
    report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    services.venue.fix_table(day.tournament_id, player_id=day.player(3), table=2)
    with pytest.raises(TournamentStateError):
        services.venue.fix_table(day.tournament_id, player_id=day.player(0), table=2)
    second = services.rounds.pair_round(day.tournament_id)
    [at_two] = [t for t in second.pairings if t.table == 2]
    assert day.player(3) in (at_two.player_a, at_two.player_b)


def test_a_table_has_its_page_and_a_qr_code_of_it(services: Services, clock: MovableClock) -> None:
    day = checked_in_tournament(services, clock, 4)
    url = services.venue.table_url(day.tournament_id, 3)
    assert url.endswith(f"/pages/tournaments/{day.tournament_id}/tables/3")  # the page for people
    svg = services.venue.table_qr_svg(day.tournament_id, 3)
    assert svg.startswith("<svg")
    assert "Table 3" in svg
    with pytest.raises(TableNotFoundError):
        services.venue.table_qr_svg(day.tournament_id, 0)
    services.rounds.start(day.tournament_id)
    with pytest.raises(TableNotFoundError):
        services.venue.get_table(day.tournament_id, 3)  # two tables for four players


def test_the_wallboard_shows_the_round_its_timer_and_who_still_reports(
    services: Services, clock: MovableClock
) -> None:
    day = checked_in_tournament(services, clock, 4)
    before = services.venue.board(day.tournament_id, clock.now())
    assert (before.round, before.tables, before.to_report) == (None, [], [])
    started = services.rounds.start(day.tournament_id)
    clock.advance(timedelta(minutes=25).total_seconds())
    board = services.venue.board(day.tournament_id, clock.now())
    assert board.round == started.round
    assert board.timer.elapsed_seconds == 25 * 60
    assert board.to_report == [1, 2]
    assert [t.status for t in board.tables] == ["pending", "pending"]
    assert len(board.standings) == 4


def test_a_completed_tournament_is_finalised_and_reopened_for_a_correction(
    services: Services, clock: MovableClock
) -> None:
    # the final places and prizes are fixed; reopening is a new event, never an edit
    day = played_to_the_end(services, clock)
    final = services.venue.finalize(day.tournament_id)
    assert final.status == "final"
    assert final.finalized_at is not None
    assert final.prizes is not None
    assert (
        final.prizes.payouts[0].player_id
        == services.places.list_places(day.tournament_id)[0].player_id
    )
    assert services.venue.load(day.tournament_id).finalized_at == final.finalized_at
    with pytest.raises(TournamentFinalError):
        services.venue.finalize(day.tournament_id)
    reopened = services.venue.reopen_tournament(day.tournament_id, reason="a wrong score")
    assert (reopened.status, reopened.finalized_at) == ("completed", None)
    assert services.venue.load(day.tournament_id).finalized_at is None


def test_the_open_tables_show_each_matchs_own_score_penalty_points_included(
    services: Services, clock: MovableClock
) -> None:
    # rule C-BREAK-2: a penalty point is on the opponent's score; a table with a result is
    # open no longer (the round page's live scores)
    day = checked_in_tournament(services, clock, 4, match_length=3)
    assert services.venue.open_tables_now(day.tournament_id) == []  # no round yet
    first, second = services.rounds.start(day.tournament_id).round.pairings
    assert first.match_id is not None
    services.conduct.award_penalty(
        day.tournament_id,
        PenaltyAward(
            match_id=first.match_id, player_id=first.player_a, points=1, reason="11 min late"
        ),
        actor="director",
    )
    shown = services.venue.open_tables_now(day.tournament_id)
    assert [(t.table, t.match_id, t.score) for t in shown] == [
        (first.table, first.match_id, Score(a=0, b=1)),
        (second.table, second.match_id, Score(a=0, b=0)),
    ]

    report_every_table(services, day, services.rounds.get_round(day.tournament_id, 1))
    assert services.venue.open_tables_now(day.tournament_id) == []
