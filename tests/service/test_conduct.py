"""The conduct slice at the service level: breaks between matches, late returns and penalty
points (rules C-BREAK-1..3), with the clock moved by the test."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

from service.bootstrap import Services
from service.clock import MovableClock
from service.conduct.conduct import BackFromBreak, PenaltyAward
from service.shared.match_play import Caller
from tests.service.conftest import Day, checked_in_tournament

MINUTE = 60


def won_through_the_service(services: Services, match_id: UUID) -> None:
    """Side a wins the match as played on the phones: a roll, a play, b resigns a backgammon."""
    director = Caller(director=True)
    services.matches.roll(match_id, director, (6, 5))
    first_play = services.matches.get(match_id).plays()[0]
    services.matches.play(match_id, director.acting_for("a"), position_id=first_play.position_id)
    services.matches.resign(match_id, director.acting_for("b"), "backgammon")
    services.matches.answer_resignation(match_id, director.acting_for("a"), accept=True)


def in_round_two(services: Services, clock: MovableClock) -> Day:
    """Round 1 played through the service (its matches record when they begin), round 2
    paired now: every player's break starts (rule C-BREAK-1)."""
    day = checked_in_tournament(services, clock, 4, match_length=3)
    for table in services.rounds.start(day.tournament_id).round.pairings:
        assert table.match_id is not None
        won_through_the_service(services, table.match_id)
    services.rounds.pair_round(day.tournament_id)
    return day


def test_a_break_run_over_is_flagged_once_and_earns_the_proposed_penalty(
    services: Services, clock: MovableClock
) -> None:
    # rule C-BREAK-1: at most 10 minutes; C-BREAK-2: 1 point after 5 minutes late, 1 more each 5
    day = in_round_two(services, clock)
    paired_at = clock.now()
    assert services.conduct.next_overrun(day.tournament_id) == paired_at + timedelta(minutes=10)
    assert services.conduct.flag_overruns(day.tournament_id, actor="scheduler") == 0

    clock.advance(21 * MINUTE)
    breaks = services.conduct.list_breaks(day.tournament_id, clock.now())
    assert {b.player_id for b in breaks} == {r.player_id for r in day.registrations}
    assert {(b.late_minutes, b.proposed_penalty, b.flagged) for b in breaks} == {(11, 2, False)}
    assert services.conduct.flag_overruns(day.tournament_id, actor="scheduler") == 4
    assert services.conduct.flag_overruns(day.tournament_id, actor="scheduler") == 0
    assert all(b.flagged for b in services.conduct.list_breaks(day.tournament_id, clock.now()))
    assert services.conduct.next_overrun(day.tournament_id) is None


def test_players_marked_present_end_their_break_and_are_late_no_longer(
    services: Services, clock: MovableClock
) -> None:
    # rule C-BREAK-1: the director marks a table (or a player) back, in one action
    day = in_round_two(services, clock)
    second = services.rounds.latest_round(day.tournament_id)
    assert second is not None
    table = second.pairings[0]
    clock.advance(3 * MINUTE)
    marked = services.conduct.mark_present(
        day.tournament_id, BackFromBreak(table=table.table), actor="director"
    )
    assert set(marked) == {table.player_a, table.player_b}
    clock.advance(20 * MINUTE)
    late = {b.player_id for b in services.conduct.list_breaks(day.tournament_id, clock.now())}
    assert late == {r.player_id for r in day.registrations} - set(marked)


def test_an_agreed_return_time_moves_the_limit_of_the_break(
    services: Services, clock: MovableClock
) -> None:
    # rule C-BREAK-3: a player leaving the venue agrees a time to be back; later is late
    day = in_round_two(services, clock)
    back_at = clock.now() + timedelta(minutes=30)
    services.conduct.agree_return_time(
        day.tournament_id, player_id=day.player(0), until=back_at, actor="director"
    )
    clock.advance(21 * MINUTE)
    breaks = {b.player_id: b for b in services.conduct.list_breaks(day.tournament_id, clock.now())}
    assert (breaks[day.player(0)].allowed_until, breaks[day.player(0)].late_minutes) == (back_at, 0)
    assert breaks[day.player(1)].late_minutes == 11  # the others had their 10 minutes
    clock.advance(15 * MINUTE)  # 6 minutes after the agreed time
    away = services.conduct.list_breaks(day.tournament_id, clock.now())
    [late] = [b for b in away if b.player_id == day.player(0)]
    assert late.allowed_until == back_at
    assert (late.late_minutes, late.proposed_penalty) == (6, 1)


def test_a_penalty_point_goes_to_the_opponent_and_a_waiver_takes_it_back(
    services: Services, clock: MovableClock
) -> None:
    # rule C-BREAK-2: a penalty point is added to the opponent's score; the director can
    # waive it, as a later event
    day = in_round_two(services, clock)
    second = services.rounds.latest_round(day.tournament_id)
    assert second is not None
    table = second.pairings[0]
    assert table.match_id is not None
    penalty = services.conduct.award_penalty(
        day.tournament_id,
        PenaltyAward(
            match_id=table.match_id,
            player_id=table.player_a,
            points=1,
            reason="11 minutes late",
        ),
        actor="director",
    )
    assert (penalty.score_a, penalty.score_b, penalty.match_status) == (0, 1, "playing")
    waived = services.conduct.change_penalty(
        day.tournament_id, penalty.penalty_id, points=0, reason="the bus was late", actor="director"
    )
    assert (waived.penalty_id, waived.points, waived.score_b) == (penalty.penalty_id, 0, 0)


def test_penalty_points_over_half_the_match_length_decide_the_match(
    services: Services, clock: MovableClock
) -> None:
    # rule C-BREAK-2 and T-FMT-7: the late player forfeits; the opponent wins at the length
    day = in_round_two(services, clock)
    second = services.rounds.latest_round(day.tournament_id)
    assert second is not None
    table = second.pairings[0]
    assert table.match_id is not None
    decided = services.conduct.award_penalty(
        day.tournament_id,
        PenaltyAward(
            match_id=table.match_id,
            player_id=table.player_a,
            points=2,
            reason="25 minutes late",
        ),
        actor="director",
    )
    assert (decided.score_b, decided.match_status) == (3, "finished")
    [listed] = [
        m for m in services.rounds.list_matches(day.tournament_id) if m.match_id == table.match_id
    ]
    assert (listed.status, listed.winner) == ("decided", table.player_b)
