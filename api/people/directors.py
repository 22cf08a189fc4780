"""Named directors (rule C-DIR-1): appoint (club, season or one tournament), list, revoke."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec
from litestar import Controller
from litestar.params import FromPath, JSONBody

from api.http.auth import any_director
from api.http.routes import delete_route, get_route, post_route
from api.http.schemas import ActingDirectorDep, NameText, ServicesDep
from domain.people.director import Director
from projections.directors import DirectorRow


class DirectorCreate(msgspec.Struct, forbid_unknown_fields=True):
    """A new director: for one season, one tournament, or (neither given) the whole club."""

    name: NameText
    season_id: UUID | None = None
    tournament_id: UUID | None = None


class DirectorAppointment(msgspec.Struct):
    """The new director and their token: shown once, the service keeps only its hash."""

    director_id: UUID
    token: str
    name: str
    scope: Literal["club", "season", "tournament"]
    season_id: UUID | None
    tournament_id: UUID | None


class DirectorRecord(msgspec.Struct):
    """A named director as listed (never with a token).

    Kept beside the view's ``DirectorRow``: the API names the id ``director_id``, adds whether
    the director is ``active``, and leaves out who appointed and revoked them (the audit shows
    that); a revocation answers from the aggregate, not the view."""

    director_id: UUID
    name: str
    scope: Literal["club", "season", "tournament"]
    season_id: UUID | None
    tournament_id: UUID | None
    appointed_at: datetime
    revoked_at: datetime | None
    active: bool


def director_record(row: DirectorRow) -> DirectorRecord:
    return DirectorRecord(
        director_id=row.id,
        name=row.name,
        scope=row.scope,
        season_id=row.season_id,
        tournament_id=row.tournament_id,
        appointed_at=row.appointed_at,
        revoked_at=row.revoked_at,
        active=row.revoked_at is None,
    )


def revoked_record(state: Director) -> DirectorRecord:
    return DirectorRecord(
        director_id=state.id,
        name=state.name,
        scope=state.scope.kind,
        season_id=state.scope.season_id,
        tournament_id=state.scope.tournament_id,
        appointed_at=state.appointed_at,
        revoked_at=state.revoked_at,
        active=state.is_active,
    )


class DirectorController(Controller):
    """Every director may use these; each sees and changes only directors inside their scope."""

    path = "/api/v1/directors"
    tags = ["directors"]  # noqa: RUF012
    guards = [any_director]  # noqa: RUF012

    @post_route("/", summary="Appoint a director (the token is shown once)")
    def appoint(
        self,
        data: JSONBody[DirectorCreate],
        services: ServicesDep,
        acting_director: ActingDirectorDep,
    ) -> DirectorAppointment:
        appointed = services.directors.appoint(
            acting_director,
            data.name,
            season_id=data.season_id,
            tournament_id=data.tournament_id,
        )
        state = appointed.director
        return DirectorAppointment(
            director_id=state.id,
            token=appointed.token,
            name=state.name,
            scope=state.scope.kind,
            season_id=state.scope.season_id,
            tournament_id=state.scope.tournament_id,
        )

    @get_route("/", summary="The named directors inside the caller's scope")
    def list_directors(
        self, services: ServicesDep, acting_director: ActingDirectorDep
    ) -> list[DirectorRecord]:
        return [director_record(row) for row in services.directors.list_directors(acting_director)]

    @delete_route(
        "/{director_id:uuid}",
        status_code=200,
        summary="Revoke a director: their token stops working at once",
    )
    def revoke(
        self, director_id: FromPath[UUID], services: ServicesDep, acting_director: ActingDirectorDep
    ) -> DirectorRecord:
        return revoked_record(services.directors.revoke(acting_director, director_id))
