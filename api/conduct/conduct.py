"""Conduct on the tournament day: penalty points, breaks and late returns, exclusions
(rules C-BREAK-1..3, C-EXCL-1, T-FMT-7)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller
from litestar.params import FromPath, JSONBody

from api.http.auth import director_only
from api.http.routes import get_route, post_route
from api.http.schemas import ActorDep, AsCommand, ServicesDep
from api.rounds.rounds import Reason
from domain.tournament import MAX_TABLE
from service.conduct.conduct import BackFromBreak, Break, Penalty, PenaltyAward
from service.rounds.rounds import Withdrawal

PenaltyPoints = Annotated[int, msgspec.Meta(ge=1, le=64)]


class PenaltyCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Penalty points against ``player_id`` in ``match_id``: they go to the opponent's score."""

    player_id: UUID
    match_id: UUID
    points: PenaltyPoints
    reason: Reason


# rule C-BREAK-1: a penalty for a break (``for_break_since``) is the desk's approval of the break
# list's proposal, never a REST body's
PENALTY_AWARD = AsCommand(PenaltyCreate, PenaltyAward, set_by_server=("for_break_since",))


class PenaltyWaiver(msgspec.Struct, forbid_unknown_fields=True):
    reason: Reason


class PenaltyAdjustment(msgspec.Struct, forbid_unknown_fields=True):
    points: Annotated[int, msgspec.Meta(ge=0, le=64)]
    reason: Reason


class PresentMarking(msgspec.Struct, forbid_unknown_fields=True):
    """Who is back (rule C-BREAK-1): ``player_id``, both players of the current round's
    ``table``, or, with neither, everyone playing in the current round."""

    player_id: UUID | None = None
    table: Annotated[int, msgspec.Meta(ge=1, le=MAX_TABLE)] | None = None
    reason: Reason = ""
    """Why a late player's proposed penalty is waived (rule C-BREAK-2), recorded."""


BACK_FROM_BREAK = AsCommand(PresentMarking, BackFromBreak)


class Present(msgspec.Struct):
    present: list[UUID]
    """The players marked present: their breaks ended now."""


class ReturnTime(msgspec.Struct, forbid_unknown_fields=True):
    until: Annotated[datetime, msgspec.Meta(tz=True)]
    """An instant with its offset, e.g. 2026-04-18T15:30:00+02:00."""


class ExclusionCreate(msgspec.Struct, forbid_unknown_fields=True):
    player_id: UUID
    reason: Reason


class ConductController(Controller):
    path = "/api/v1/tournaments/{tournament_id:uuid}"
    tags = ["conduct"]  # noqa: RUF012
    guards = [director_only]  # noqa: RUF012

    @post_route("/penalties", summary="Penalty points to the opponent's score")
    def award_penalty(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[PenaltyCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Penalty:
        award = PENALTY_AWARD(data)
        return services.conduct.award_penalty(tournament_id, award, actor=actor)

    @post_route(
        "/penalties/{penalty_id:uuid}/waive",
        status_code=200,
        summary="Waive a penalty: its points leave the opponent's score",
    )
    def waive_penalty(
        self,
        tournament_id: FromPath[UUID],
        penalty_id: FromPath[UUID],
        data: JSONBody[PenaltyWaiver],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Penalty:
        return services.conduct.change_penalty(
            tournament_id, penalty_id, points=0, reason=data.reason, actor=actor
        )

    @post_route(
        "/penalties/{penalty_id:uuid}/adjust", status_code=200, summary="Adjust a penalty's points"
    )
    def adjust_penalty(
        self,
        tournament_id: FromPath[UUID],
        penalty_id: FromPath[UUID],
        data: JSONBody[PenaltyAdjustment],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Penalty:
        return services.conduct.change_penalty(
            tournament_id,
            penalty_id,
            points=data.points,
            reason=data.reason,
            actor=actor,
        )

    @get_route("/breaks", summary="Who is on a break, for how long, how late")
    def breaks(self, tournament_id: FromPath[UUID], services: ServicesDep) -> list[Break]:
        return services.conduct.list_breaks(tournament_id, services.clock.now())

    @post_route(
        "/breaks/present",
        status_code=200,
        summary="Players back from their break, ready to play: one player, both players of a "
        "table, or everyone in the current round",
    )
    def mark_present(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[PresentMarking],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Present:
        back = BACK_FROM_BREAK(data)
        return Present(services.conduct.mark_present(tournament_id, back, actor=actor))

    @post_route(
        "/breaks/{player_id:uuid}/return-time",
        status_code=204,
        summary="A player leaving the venue agrees a time to be back",
    )
    def agree_return_time(
        self,
        tournament_id: FromPath[UUID],
        player_id: FromPath[UUID],
        data: JSONBody[ReturnTime],
        services: ServicesDep,
        actor: ActorDep,
    ) -> None:
        services.conduct.agree_return_time(
            tournament_id, player_id=player_id, until=data.until, actor=actor
        )

    @post_route("/exclusions", summary="Exclude a player: no refund, not paired")
    def exclude(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[ExclusionCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Withdrawal:
        return services.rounds.exclude(
            tournament_id, player_id=data.player_id, reason=data.reason, actor=actor
        )
