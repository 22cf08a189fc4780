"""The people slice at the service level: named directors and their scopes (C-DIR-1), and
whose a bearer token is."""

from __future__ import annotations

import pytest

from domain.errors import ForbiddenError, UnauthenticatedError
from domain.people.director import ActingDirector
from service.bootstrap import Services
from service.settings import DEV_DIRECTOR_TOKEN
from tests.service.conftest import plan, registered_tournament


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
