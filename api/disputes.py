"""Disputes (rule C-DISPUTE-1): opened by a player of the match or a director, decided by a
director after replaying the match before and after the disputed event."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.auth import MATCH_PLAYER, director_only, is_director, require_token
from api.schemas import MAX_VERSION
from domain.dispute import MAX_TEXT_LENGTH, DisputeStatus
from domain.dispute import Dispute as DisputeRecord
from domain.events import DIRECTOR
from service.bootstrap import Services
from service.matches import Caller

Text = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_TEXT_LENGTH)]


class DisputeCreate(msgspec.Struct, forbid_unknown_fields=True):
    """The match, the version of the disputed event, and what the caller claims."""

    match_id: UUID
    version: Annotated[int, msgspec.Meta(ge=1, le=MAX_VERSION)]
    claim: Text


class DisputeDecision(msgspec.Struct, forbid_unknown_fields=True):
    ruling: Text
    reason: Text


class Replay(msgspec.Struct):
    """The match right before and right after the disputed event (``before`` is None for the
    first event)."""

    before: str | None
    after: str
    events: str


class Decision(msgspec.Struct):
    ruling: str
    reason: str
    decided_at: datetime
    decided_by: str | None


class Dispute(msgspec.Struct):
    id: UUID
    status: DisputeStatus
    match_id: UUID
    version: int
    claim: str
    opened_at: datetime
    opened_by: str | None
    replay: Replay
    decision: Decision | None


def dispute_view(state: DisputeRecord) -> Dispute:
    match_url = f"/api/v1/matches/{state.match_id}"
    version = state.version_disputed
    decided = state.decision
    return Dispute(
        id=state.id,
        status=state.status,
        match_id=state.match_id,
        version=version,
        claim=state.claim,
        opened_at=state.opened_at,
        opened_by=state.opened_by,
        replay=Replay(
            before=f"{match_url}?version={version - 1}" if version > 1 else None,
            after=f"{match_url}?version={version}",
            events=f"{match_url}/events?until_version={version}",
        ),
        decision=Decision(
            ruling=decided.ruling,
            reason=decided.reason,
            decided_at=decided.decided_at,
            decided_by=decided.decided_by,
        )
        if decided
        else None,
    )


def _caller(request: Request[Any, Any, Any]) -> Caller:
    token = require_token(request, MATCH_PLAYER.whose)
    return Caller(token=token, director=is_director(request))


class DisputeController(Controller):
    path = "/api/v1/disputes"
    tags = ["disputes"]  # noqa: RUF012

    @post(
        "/",
        guards=[MATCH_PLAYER],
        sync_to_thread=True,
        summary="Dispute an event of a match (player, director)",
    )
    def open(
        self,
        request: Request[Any, Any, Any],
        data: JSONBody[DisputeCreate],
        services: NamedDependency[Services],
    ) -> Dispute:
        state = services.disputes.open(data.match_id, data.version, data.claim, _caller(request))
        return dispute_view(state)

    @get(
        "/{dispute_id:uuid}",
        guards=[MATCH_PLAYER],
        sync_to_thread=True,
        summary="A dispute with its replay links",
    )
    def show(
        self,
        request: Request[Any, Any, Any],
        dispute_id: FromPath[UUID],
        services: NamedDependency[Services],
    ) -> Dispute:
        return dispute_view(services.disputes.get(dispute_id, _caller(request)))

    @post(
        "/{dispute_id:uuid}/decision",
        guards=[director_only],
        status_code=200,
        sync_to_thread=True,
        summary="Decide a dispute (director); history is never edited",
    )
    def decide(
        self,
        dispute_id: FromPath[UUID],
        data: JSONBody[DisputeDecision],
        services: NamedDependency[Services],
    ) -> Dispute:
        state = services.disputes.decide(dispute_id, data.ruling, data.reason, actor=DIRECTOR)
        return dispute_view(state)
