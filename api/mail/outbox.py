"""The outbox of mails as the director sees it (rule P-MAIL-1)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec
from litestar import Controller
from litestar.params import FromQuery

from api.http.auth import director_only
from api.http.routes import get_route
from api.http.schemas import ServicesDep, restate_all
from projections.outbox import MailKind, MailStatus


class Mail(msgspec.Struct):
    """A mail of the outbox as the director sees it (no body: it would carry tokens).

    Kept beside the view's ``MailRow``, which holds what the mail is made of (its subject,
    parameters and source event): the API shows its delivery state only."""

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


class OutboxController(Controller):
    path = "/api/v1/outbox"
    tags = ["outbox"]  # noqa: RUF012
    guards = [director_only]  # noqa: RUF012

    @get_route(summary="The outbox: every mail with its delivery state, attempts and last error")
    def list_mails(
        self,
        services: ServicesDep,
        status: FromQuery[Literal["pending", "sent", "failed"] | None] = None,
    ) -> list[Mail]:
        return restate_all(services.outbox.list(status), Mail)
