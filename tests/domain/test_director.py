"""Named directors (rule C-DIR-1): given events, when a command, then events or an error."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest

from domain.errors import InvalidInputError
from domain.events import fold
from domain.people import director
from domain.people.director import (
    BOOTSTRAP,
    CLUB,
    ActingDirector,
    Director,
    DirectorAppointed,
    DirectorRevoked,
    DirectorRevokedError,
    OutOfScopeError,
    Scope,
    SelfRevocationError,
    Target,
    is_director_actor,
    named_director_id,
)

NOW = datetime(2026, 4, 18, 10, 0, tzinfo=UTC)
SEASON = UUID(int=1)
OTHER_SEASON = UUID(int=2)
TOURNAMENT = UUID(int=3)
OTHER_TOURNAMENT = UUID(int=4)
ANNA = UUID(int=10)
BERND = UUID(int=11)
SEASON_SCOPE = Scope(kind="season", season_id=SEASON)
TOURNAMENT_SCOPE = Scope(kind="tournament", season_id=SEASON, tournament_id=TOURNAMENT)


def appointed(director_id: UUID, scope: Scope, by: ActingDirector = BOOTSTRAP) -> Director:
    events = director.appoint_director(director_id, "Anna Schmidt", scope, "hash", NOW, by=by)
    state = fold(director.evolve, None, events)
    assert state is not None
    return state


def test_appointing_records_the_name_the_scope_and_only_the_token_hash() -> None:
    # rule C-DIR-1
    (event,) = director.appoint_director(
        ANNA, "  Anna   Schmidt ", TOURNAMENT_SCOPE, "h", NOW, by=BOOTSTRAP
    )
    assert isinstance(event, DirectorAppointed)
    assert (event.name, event.scope, event.season_id, event.tournament_id) == (
        "Anna Schmidt",
        "tournament",
        SEASON,
        TOURNAMENT,
    )
    assert (event.token_hash, event.actor) == ("h", "director")


def test_a_name_with_a_line_break_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        director.appoint_director(ANNA, "Anna\nSchmidt", CLUB, "h", NOW, by=BOOTSTRAP)


@pytest.mark.parametrize(
    ("scope", "target", "covered"),
    [
        (CLUB, Target(), True),
        (CLUB, Target(season_id=SEASON, tournament_id=TOURNAMENT), True),
        (SEASON_SCOPE, Target(season_id=SEASON), True),
        (SEASON_SCOPE, Target(season_id=SEASON, tournament_id=OTHER_TOURNAMENT), True),
        (SEASON_SCOPE, Target(season_id=OTHER_SEASON, tournament_id=TOURNAMENT), False),
        (SEASON_SCOPE, Target(), False),
        (TOURNAMENT_SCOPE, Target(season_id=SEASON, tournament_id=TOURNAMENT), True),
        (TOURNAMENT_SCOPE, Target(season_id=SEASON, tournament_id=OTHER_TOURNAMENT), False),
        (TOURNAMENT_SCOPE, Target(season_id=SEASON), False),
        (TOURNAMENT_SCOPE, Target(), False),
    ],
)
def test_a_scope_covers_its_season_or_tournament_and_the_club_covers_all(
    scope: Scope, target: Target, covered: bool
) -> None:
    # rule C-DIR-1: a tournament's director acts in that tournament only
    assert scope.covers(target) is covered


def test_a_tournament_director_appoints_for_their_tournament_only() -> None:
    carla = appointed(ANNA, TOURNAMENT_SCOPE).acting()
    deputy = appointed(BERND, TOURNAMENT_SCOPE, by=carla)
    assert deputy.appointed_by == f"director:{ANNA}"
    other = Scope(kind="tournament", season_id=SEASON, tournament_id=OTHER_TOURNAMENT)
    for scope in (other, SEASON_SCOPE, CLUB):
        with pytest.raises(OutOfScopeError):
            director.appoint_director(BERND, "Bernd", scope, "h", NOW, by=carla)


def test_a_season_director_appoints_for_the_season_and_its_tournaments() -> None:
    erik = appointed(ANNA, SEASON_SCOPE).acting()
    assert appointed(BERND, TOURNAMENT_SCOPE, by=erik).scope == TOURNAMENT_SCOPE
    with pytest.raises(OutOfScopeError):
        director.appoint_director(BERND, "Bernd", CLUB, "h", NOW, by=erik)


def test_a_revoked_director_is_revoked_once() -> None:
    state = appointed(ANNA, CLUB)
    (event,) = director.revoke_director(state, NOW, by=BOOTSTRAP)
    assert isinstance(event, DirectorRevoked)
    revoked = director.evolve(state, event)
    assert not revoked.is_active
    with pytest.raises(DirectorRevokedError):
        director.revoke_director(revoked, NOW, by=BOOTSTRAP)


def test_a_director_does_not_revoke_themselves_nor_anyone_outside_their_scope() -> None:
    anna = appointed(ANNA, TOURNAMENT_SCOPE)
    with pytest.raises(SelfRevocationError):
        director.revoke_director(anna, NOW, by=anna.acting())
    club = appointed(BERND, CLUB)
    with pytest.raises(OutOfScopeError):
        director.revoke_director(club, NOW, by=anna.acting())


def test_a_named_directors_actor_carries_their_id_and_the_bootstrap_is_director() -> None:
    assert named_director_id(f"director:{ANNA}") == ANNA
    assert named_director_id("director") is None
    assert named_director_id("director:not-a-uuid") is None
    assert is_director_actor("director")
    assert is_director_actor(f"director:{ANNA}")
    assert not is_director_actor("player:Anna")
