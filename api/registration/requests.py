"""Registration by e-mail confirmation (rule P-MAIL-1): the link in the mail decides the seat."""

from __future__ import annotations

from typing import Annotated

import msgspec
from litestar import Controller
from litestar.params import JSONBody

from api.http.routes import post_route
from api.http.schemas import ServicesDep
from service.shared.registrants import Registration


class RegistrationConfirmation(msgspec.Struct, forbid_unknown_fields=True):
    token: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    """The token of the link in the mail."""


class RegistrationConfirmationController(Controller):
    path = "/api/v1/registrations/confirm"
    tags = ["registrations"]  # noqa: RUF012

    @post_route(
        status_code=201,
        summary="Confirm an anonymous registration with the token of its mail: the seat (or the "
        "waitlist) is decided now; confirming again answers the same registration",
    )
    def confirm(
        self, data: JSONBody[RegistrationConfirmation], services: ServicesDep
    ) -> Registration:
        return services.requests.confirm(data.token)
