"""Personal data: a director erases a person's data on their request (crypto-shredding)."""

from __future__ import annotations

from uuid import UUID

import msgspec
from litestar import Controller
from litestar.params import FromPath

from api.http.auth import director_only
from api.http.routes import post_route
from api.http.schemas import ActorDep, ServicesDep


class Erasure(msgspec.Struct):
    pseudonym: str
    """The name the person's results stand under from now on (the same on every request)."""


class PeopleController(Controller):
    path = "/api/v1/people"
    tags = ["personal data"]  # noqa: RUF012
    guards = [director_only]  # noqa: RUF012

    @post_route(
        "/{player_id:uuid}/erasure",
        status_code=200,
        summary="Erase a person's personal data everywhere (director)",
        description=(
            "Their name, e-mail address, age and birth date become unreadable in the events,"
            " the views and every answer; results, standings, rankings and `.mat` exports stay"
            " under the pseudonym. Erasing again answers the same pseudonym."
        ),
    )
    def erase(self, player_id: FromPath[UUID], services: ServicesDep, actor: ActorDep) -> Erasure:
        # a person is the club's, not one tournament's: only a club director erases
        return Erasure(pseudonym=services.people.erase(player_id, actor=actor))
