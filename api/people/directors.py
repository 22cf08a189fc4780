"""Named directors (rule C-DIR-1): appoint (club, season or one tournament), list, revoke."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec
from litestar import Controller
from litestar.params import FromPath, JSONBody

from api.http.auth import any_director
from api.http.routes import delete_route, get_route, post_route
from api.http.schemas import ActingDirectorDep, NameText, ServicesDep
from domain.events import copied
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
    """The view's row under the API's names."""
    return copied(row, DirectorRecord, director_id=row.id, active=row.revoked_at is None)


def revoked_record(state: Director) -> DirectorRecord:
    return copied(state, DirectorRecord, **renamed_fields(state), active=state.is_active)


def renamed_fields(state: Director) -> dict[str, Any]:
    """The director's fields the API names otherwise than the aggregate: the id as
    ``director_id``, the scope flat, as the view lists it."""
    scope = state.scope
    return {
        "director_id": state.id,
        "scope": scope.kind,
        "season_id": scope.season_id,
        "tournament_id": scope.tournament_id,
    }


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
        return copied(state, DirectorAppointment, **renamed_fields(state), token=appointed.token)

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
