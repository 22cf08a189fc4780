"""Registration by e-mail confirmation and the outbox of mails (rule P-MAIL-1)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.params import FromQuery, JSONBody

from api.auth import director_only
from api.schemas import ServicesDep, restate_all
from api.tournaments import Registration, registration_response
from projections.outbox import MailKind, MailStatus


class RegistrationConfirmation(msgspec.Struct, forbid_unknown_fields=True):
    token: Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
    """The token of the link in the mail."""


class Mail(msgspec.Struct):
    """A mail of the outbox as the director sees it (no body: it would carry tokens)."""

    id: str
    kind: MailKind
    recipient: str
    language: str
    tournament_id: UUID | None
    player_id: UUID | None
    status: MailStatus
    """``pending`` (waiting or retrying), ``sent``, or ``failed`` (retries given up)."""
    attempts: int
    next_attempt_at: datetime | None
    last_error: str | None
    created_at: datetime
    sent_at: datetime | None


class RegistrationConfirmationController(Controller):
    path = "/api/v1/registrations/confirm"
    tags = ["registrations"]  # noqa: RUF012

    @post(
        sync_to_thread=True,
        status_code=201,
        summary="Confirm an anonymous registration with the token of its mail: the seat (or the "
        "waitlist) is decided now; confirming again answers the same registration",
    )
    def confirm(
        self, data: JSONBody[RegistrationConfirmation], services: ServicesDep
    ) -> Registration:
        return registration_response(services.requests.confirm(data.token))


class OutboxController(Controller):
    path = "/api/v1/outbox"
    tags = ["outbox"]  # noqa: RUF012
    guards = [director_only]  # noqa: RUF012

    @get(
        sync_to_thread=True,
        summary="The outbox: every mail with its delivery state, attempts and last error",
    )
    def list_mails(
        self,
        services: ServicesDep,
        status: FromQuery[Literal["pending", "sent", "failed"] | None] = None,
    ) -> list[Mail]:
        return restate_all(services.outbox.list(status), Mail)
