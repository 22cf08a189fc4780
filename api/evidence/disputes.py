"""Disputes (rule C-DISPUTE-1): opened by a player of the match or a director, decided by a
director after replaying the match before and after the disputed event."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, JSONBody

from api.http.auth import (
    MATCH_PLAYER,
    director_of,
    director_only,
    require_token,
    unknown_token_refused,
)
from api.http.routes import get_route, post_route
from api.http.schemas import MAX_VERSION, Actor, ActorDep, ServicesDep, actor_view
from domain.events import copied
from domain.evidence.dispute import MAX_TEXT_LENGTH, DisputeStatus
from domain.evidence.dispute import Dispute as DisputeRecord
from service.bootstrap import Services
from service.shared.match_play import Caller

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
    decided_by: Actor


class Dispute(msgspec.Struct):
    id: UUID
    status: DisputeStatus
    match_id: UUID
    version: int
    claim: str
    opened_at: datetime
    opened_by: Actor
    replay: Replay
    decision: Decision | None


def dispute_view(state: DisputeRecord, services: Services) -> Dispute:
    """The dispute as the API shows it; a named director appears by id and name (C-DIR-1)."""
    decided = state.decision
    names = services.directors.names([state.opened_by, decided.decided_by if decided else None])
    match_url = f"/api/v1/matches/{state.match_id}"
    version = state.version_disputed
    replay = Replay(
        before=f"{match_url}?version={version - 1}" if version > 1 else None,
        after=f"{match_url}?version={version}",
        events=f"{match_url}/events?until_version={version}",
    )
    decision = None
    if decided:
        decided_by = actor_view(decided.decided_by, names)
        decision = copied(decided, Decision, decided_by=decided_by)
    return copied(
        state,
        Dispute,
        status=state.status,
        version=version,  # the disputed version, not the dispute's own
        opened_by=actor_view(state.opened_by, names),
        replay=replay,
        decision=decision,
    )


@dataclass(frozen=True, slots=True)
class Party:
    """A request of a party to a dispute: a player of the match or a director (rule
    C-DISPUTE-1), with the use cases."""

    request: Request[Any, Any, Any]
    services: Services

    def caller(self, match_id: UUID) -> Caller:
        """A player of the match by their token, or a director whose scope holds the match."""
        token = require_token(self.request, MATCH_PLAYER.whose)
        acting = director_of(self.request)
        if acting is None:
            return Caller(token=token)
        if acting.scope.kind != "club":
            acting.authorize(self.services.directors.match_target(match_id))
        return Caller(token=token, director=True, actor=acting.actor)

    def unknown_token_refused(self) -> AbstractContextManager[None]:
        """Around a use case: a 403 for a token nobody holds becomes a 401."""
        return unknown_token_refused(self.services, require_token(self.request, MATCH_PLAYER.whose))


def provide_party(request: Request[Any, Any, Any], services: ServicesDep) -> Party:
    return Party(request, services)


PartyDep = NamedDependency[Party]


class DisputeController(Controller):
    """What the parties do: open a dispute, read it."""

    path = "/api/v1/disputes"
    tags = ["disputes"]  # noqa: RUF012
    guards = [MATCH_PLAYER]  # noqa: RUF012
    dependencies = {"party": Provide(provide_party, sync_to_thread=False)}  # noqa: RUF012

    @post_route("/", summary="Dispute an event of a match (player, director)")
    def open(self, data: JSONBody[DisputeCreate], party: PartyDep) -> Dispute:
        caller = party.caller(data.match_id)
        with party.unknown_token_refused():
            state = party.services.disputes.open(data.match_id, data.version, data.claim, caller)
        return dispute_view(state, party.services)

    @get_route("/{dispute_id:uuid}", summary="A dispute with its replay links")
    def show(self, dispute_id: FromPath[UUID], party: PartyDep) -> Dispute:
        disputes = party.services.disputes
        caller = party.caller(disputes.load(dispute_id).match_id)
        with party.unknown_token_refused():
            state = disputes.get(dispute_id, caller)
        return dispute_view(state, party.services)


class DisputeDecisionController(Controller):
    """What only a director does: decide."""

    path = "/api/v1/disputes/{dispute_id:uuid}/decision"
    tags = ["disputes"]  # noqa: RUF012
    guards = [director_only]  # noqa: RUF012

    @post_route(status_code=200, summary="Decide a dispute (director); history is never edited")
    def decide(
        self,
        dispute_id: FromPath[UUID],
        data: JSONBody[DisputeDecision],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Dispute:
        state = services.disputes.decide(dispute_id, data.ruling, data.reason, actor=actor)
        return dispute_view(state, services)
