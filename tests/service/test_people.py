"""The people slice at the service level: named directors and their scopes (C-DIR-1), and
whose a bearer token is."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.errors import ForbiddenError, UnauthenticatedError
from domain.people.director import CLUB_WIDE, ActingDirector, Target
from service.bootstrap import Services
from service.clock import MovableClock
from service.settings import DEV_DIRECTOR_TOKEN
from service.shared.match_play import Caller, MatchTerms
from tests.service.conftest import checked_in_tournament, plan, registered_tournament


def club(services: Services) -> ActingDirector:
    """The club's director, by the bootstrap token."""
    acting = services.directors.acting(DEV_DIRECTOR_TOKEN)
    assert acting is not None
    return acting


def test_the_club_token_acts_for_the_club_and_a_player_token_for_no_director(
    services: Services,
) -> None:
    day = registered_tournament(services, 1)
    player_token = day.registrations[0].player_token
    assert services.directors.is_bootstrap(DEV_DIRECTOR_TOKEN)
    assert services.directors.may_be_director(DEV_DIRECTOR_TOKEN)
    assert club(services).scope.kind == "club"
    assert not services.directors.may_be_director(player_token)
    assert services.directors.acting(player_token) is None
    assert services.directors.acting(None) is None
    # whose a token is: a director's or a player's is known, anything else is nobody's (401)
    assert services.tokens.is_known(DEV_DIRECTOR_TOKEN)
    assert services.tokens.is_known(player_token)
    assert not services.tokens.is_known("made-up")


def test_a_director_appointed_for_one_tournament_acts_there_only_until_revoked(
    services: Services,
) -> None:
    # rule C-DIR-1: a director for the club, a season or one tournament
    ours = services.tournaments.schedule_tournament(plan()).id
    other = services.tournaments.schedule_tournament(plan(name="Sommerturnier")).id
    appointed = services.directors.appoint(club(services), "Hanna Leiter", tournament_id=ours)
    assert services.directors.is_known_token(appointed.token)
    assert services.tokens.is_known(appointed.token)
    hanna = services.directors.acting(appointed.token)
    assert hanna is not None
    assert hanna.director_id == appointed.director.id
    assert services.directors.tournament_target(ours).tournament_id == ours
    services.directors.authorize_tournament(hanna, ours)
    with pytest.raises(ForbiddenError):
        services.directors.authorize_tournament(hanna, other)
    with pytest.raises(ForbiddenError):
        services.directors.authorize_tournament(hanna, None)  # the club's business
    assert [row.name for row in services.directors.list_directors(club(services))] == [
        "Hanna Leiter"
    ]
    assert services.directors.names([hanna.actor, "director", None]) == {
        appointed.director.id: "Hanna Leiter"
    }

    revoked = services.directors.revoke(club(services), appointed.director.id)
    assert not revoked.is_active
    with pytest.raises(UnauthenticatedError):
        services.directors.acting(appointed.token)


def test_a_season_director_acts_in_the_seasons_tournaments(services: Services) -> None:
    # rule C-DIR-1: a season's director acts in each of its tournaments
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31"
    )
    inside = services.tournaments.schedule_tournament(plan()).id
    appointed = services.directors.appoint(club(services), "Sven Saison", season_id=season.id)
    sven = services.directors.acting(appointed.token)
    assert sven is not None
    assert services.directors.season_target(season.id).season_id == season.id
    services.directors.authorize_tournament(sven, inside)


def test_a_tournaments_director_acts_on_its_matches_only_and_the_club_on_any(
    services: Services, clock: MovableClock
) -> None:
    # rule C-DIR-1: a match belongs to its tournament (and season); a free match to the club
    day = checked_in_tournament(services, clock, 2)
    [table] = services.rounds.start(day.tournament_id).round.pairings
    assert table.match_id is not None
    free = services.matches.create(MatchTerms(player_a="anna", player_b="ben", match_length=1))
    appointed = services.directors.appoint(
        club(services), "Hanna Leiter", tournament_id=day.tournament_id
    )

    ours = services.directors.match_target(table.match_id)
    assert (ours.tournament_id, ours.season_id) == (
        day.tournament_id,
        services.venue.load(day.tournament_id).season_id,
    )
    assert services.directors.match_target(free.match.id) == CLUB_WIDE
    hanna = services.directors.acting_on_match(appointed.token, table.match_id)
    assert hanna is not None
    assert hanna.director_id == appointed.director.id
    with pytest.raises(ForbiddenError):
        services.directors.acting_on_match(appointed.token, free.match.id)
    assert services.directors.acting_on_match(DEV_DIRECTOR_TOKEN, free.match.id) is not None
    assert (
        services.directors.acting_on_match(day.registrations[0].player_token, free.match.id) is None
    )


def test_an_audit_stream_belongs_to_what_its_first_event_names(
    services: Services, clock: MovableClock
) -> None:
    # rule C-DIR-1: a director sees the audit of what they may act on
    day = checked_in_tournament(services, clock, 2)
    [table] = services.rounds.start(day.tournament_id).round.pairings
    assert table.match_id is not None
    free = services.matches.create(MatchTerms(player_a="anna", player_b="ben", match_length=1))
    dispute = services.disputes.open(table.match_id, 1, "the clock ran", Caller(director=True))

    def target_of(stream_id: UUID) -> Target:
        return services.directors.stream_target(services.store.stream(stream_id)[0])

    tournament = services.directors.tournament_target(day.tournament_id)
    assert target_of(day.tournament_id) == tournament
    assert target_of(table.match_id) == tournament
    assert target_of(dispute.id) == tournament
    assert target_of(free.match.id) == CLUB_WIDE
    season = services.seasons.create_season(
        name="Saison 2027", starts_on="2027-01-01", ends_on="2027-12-31"
    )
    assert target_of(season.id) == Target(season_id=season.id)
