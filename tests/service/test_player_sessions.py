"""The table page's player sessions at the service level: the personal link opens a session for
its registration only, which ends when the registration no longer plays; a player's table and a
match's pending reports, which the table page shows (issue 21, items 5, 6; rule T-FMT-6)."""

from __future__ import annotations

import pytest

from domain.errors import UnauthenticatedError
from domain.tournament import NotInMatchError
from service.bootstrap import Services
from service.clock import MovableClock
from service.settings import DEV_DIRECTOR_TOKEN
from service.venue.venue import TableReport
from tests.service.conftest import checked_in_tournament, registered_tournament


def test_the_personal_link_opens_a_session_for_its_registration_and_no_other(
    services: Services,
) -> None:
    day = registered_tournament(services, 2)
    anna, ben = day.registrations
    assert services.player_sessions.signs_in(anna.player_token)
    assert not services.player_sessions.signs_in("made-up")
    assert not services.player_sessions.signs_in(DEV_DIRECTOR_TOKEN)
    opened = services.player_sessions.open(anna.player_token)
    assert anna.player_token not in opened.cookie  # the cookie holds no token
    session = services.player_sessions.check(opened.cookie)
    assert session is not None
    assert (session.registration_id, session.player_id) == (anna.registration_id, anna.player_id)
    # the use cases get the registration's own token back, derived on the server
    assert services.player_sessions.player_token(session) == anna.player_token
    token = services.player_sessions.csrf_token(session.nonce)
    assert services.player_sessions.is_csrf_token(session.nonce, token)
    other = services.player_sessions.open(ben.player_token).session
    assert not services.player_sessions.is_csrf_token(other.nonce, token)
    with pytest.raises(UnauthenticatedError):
        services.player_sessions.open("made-up")


def test_a_cancelled_registrations_session_and_link_stop_at_once(services: Services) -> None:
    # rule T-CANCEL-1: a cancelled registration no longer plays, so its link signs nobody in
    day = registered_tournament(services, 1)
    anna = day.registrations[0]
    cookie = services.player_sessions.open(anna.player_token).cookie
    services.tournaments.cancel_registration(
        day.tournament_id, anna.registration_id, player_token=anna.player_token, by_director=False
    )
    assert services.player_sessions.check(cookie) is None
    assert not services.player_sessions.signs_in(anna.player_token)


def test_an_excluded_players_session_is_known_as_left_and_its_report_refused_saying_why(
    services: Services, clock: MovableClock
) -> None:
    # rule C-EXCL-1: the exclusion ends the player's session; ``left`` still knows it, so that
    # the report it sends is refused in the use case's words, and it acts for nothing else
    day = checked_in_tournament(services, clock, 4)
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    assert table.match_id is not None
    excluded = next(r for r in day.registrations if r.player_id == table.player_a)
    playing = next(r for r in day.registrations if r.player_id == table.player_b)
    cookie = services.player_sessions.open(excluded.player_token).cookie
    other = services.player_sessions.open(playing.player_token).cookie
    assert services.player_sessions.left(cookie) is None  # still playing: not left
    exclude = services.rounds.exclude
    exclude(day.tournament_id, player_id=excluded.player_id, reason="conduct", actor="director")
    assert services.player_sessions.check(cookie) is None
    left = services.player_sessions.left(cookie)
    assert left is not None
    assert (left.registration_id, left.player_id) == (excluded.registration_id, table.player_a)
    assert services.player_sessions.left(other) is None  # a playing player's session
    assert services.player_sessions.left("made-up") is None
    report = TableReport(match_id=table.match_id, winner=table.player_a, points_a=1, points_b=0)
    with pytest.raises(NotInMatchError, match="excluded from this tournament"):
        services.venue.report(day.tournament_id, report, player_token=excluded.player_token)
    assert services.venue.reports_at(day.tournament_id, table.match_id) == []


def test_a_players_table_and_the_reports_waiting_at_it(
    services: Services, clock: MovableClock
) -> None:
    day = checked_in_tournament(services, clock, 4)
    assert services.venue.table_of(day.tournament_id, day.player(0)) is None  # before round 1
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    assert table.match_id is not None
    assert table.player_b is not None
    assert services.venue.table_of(day.tournament_id, table.player_a) == table.table
    assert services.venue.table_of(day.tournament_id, table.player_b) == table.table
    tokens = {r.player_id: r.player_token for r in day.registrations}
    # the opponent's equal report confirms the first (rule T-FMT-6)
    won_by_a = TableReport(match_id=table.match_id, winner=table.player_a, points_a=1, points_b=0)
    services.venue.report(day.tournament_id, won_by_a, player_token=tokens[table.player_a])
    waiting = services.venue.reports_at(day.tournament_id, table.match_id)
    assert [(r.player_id, r.winner, r.points_a, r.points_b) for r in waiting] == [
        (table.player_a, table.player_a, 1, 0)
    ]
    services.venue.report(day.tournament_id, won_by_a, player_token=tokens[table.player_b])
    assert services.venue.reports_at(day.tournament_id, table.match_id) == []  # decided


def test_a_tables_tablet_acts_with_the_tokens_of_the_players_there(
    services: Services, clock: MovableClock
) -> None:
    # API.md "Playing at the table": both players on one tablet opened by the director
    day = checked_in_tournament(services, clock, 2)
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    assert table.player_b is not None
    sessions = services.player_sessions
    tablet, cookie = sessions.open_tablet(day.tournament_id, table.table)
    assert sessions.check_tablet(cookie) == tablet
    assert (tablet.tournament_id, tablet.table) == (day.tournament_id, table.table)
    assert sessions.check_tablet(cookie[:-2] + "xx") is None  # forged
    assert sessions.check(cookie) is None  # a tablet is no player's session
    tokens = {r.player_id: r.player_token for r in day.registrations}
    for player in (table.player_a, table.player_b):
        assert sessions.side_token(day.tournament_id, player) == tokens[player]
        assert tokens[player] not in cookie  # the cookie holds no token
    clock.advance(17 * 3600)
    assert sessions.check_tablet(cookie) is None  # expired after the day


def test_a_tablets_sign_out_ends_it_for_every_copy_of_its_cookie(
    services: Services, clock: MovableClock
) -> None:
    # a lost tablet must not play on for the rest of the day (docs/api.md "Tablet")
    day = checked_in_tournament(services, clock, 2)
    sessions = services.player_sessions
    _, signed_out = sessions.open_tablet(day.tournament_id, 1)
    _, other = sessions.open_tablet(day.tournament_id, 1)

    sessions.end_tablet(signed_out)

    assert sessions.check_tablet(signed_out) is None
    assert sessions.check_tablet(other) is not None
    assert sessions.check(other) is None  # still no player's session


def test_the_director_ends_every_tablet_of_a_tournament_and_may_open_new_ones(
    services: Services, clock: MovableClock
) -> None:
    day = checked_in_tournament(services, clock, 2)
    sessions = services.player_sessions
    before = [sessions.open_tablet(day.tournament_id, n)[1] for n in (1, 2)]

    sessions.end_tablets_of(day.tournament_id)

    assert [sessions.check_tablet(cookie) for cookie in before] == [None, None]
    _, after = sessions.open_tablet(day.tournament_id, 1)
    assert sessions.check_tablet(after) is not None
    sessions.end_tablets_of(day.tournament_id)  # and once more: the new one ends too
    assert sessions.check_tablet(after) is None
    _, latest = sessions.open_tablet(day.tournament_id, 1)
    assert sessions.check_tablet(latest) is not None


def test_a_players_sign_out_ends_that_session_only(services: Services) -> None:
    day = registered_tournament(services, 1)
    [anna] = day.registrations
    signed_out = services.player_sessions.open(anna.player_token).cookie
    other = services.player_sessions.open(anna.player_token).cookie
    services.player_sessions.end(signed_out)
    assert services.player_sessions.check(signed_out) is None
    assert services.player_sessions.check(other) is not None
