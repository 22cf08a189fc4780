"""At the venue: players' reports, pairing overrides, unpaired rounds, late entries, fixed
tables, the tables' pages and QR codes, the wallboard, and finalizing the tournament."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response
from litestar.params import FromPath, JSONBody

from api.http.auth import TokenRequired, require_token, unknown_token_refused
from api.http.routes import director_post, director_put, get_route, post_route
from api.http.schemas import ActorDep, AsCommand, ServicesDep
from api.rounds.rounds import Reason
from domain.tournament import MissedRounds
from service.venue.venue import (
    Finality,
    LateAdmission,
    LateEntry,
    RepairedRound,
    ReportAnswer,
    Table,
    TableReport,
    Wallboard,
)

Points = Annotated[int, msgspec.Meta(ge=0, le=999)]


class PlayerReport(msgspec.Struct, forbid_unknown_fields=True):
    """A player's report of their match's result from the table."""

    match_id: UUID
    winner: UUID
    points_a: Points
    points_b: Points


class PairingOverride(msgspec.Struct, forbid_unknown_fields=True):
    player_a: UUID
    player_b: UUID | None = None
    """None: ``player_a`` has the bye."""


class PairingsUpdate(msgspec.Struct, forbid_unknown_fields=True):
    """The director's pairing of a round: every active player exactly once, in table order."""

    pairings: Annotated[list[PairingOverride], msgspec.Meta(min_length=1, max_length=500)]
    reason: Reason


class LateEntryCreate(msgspec.Struct, forbid_unknown_fields=True):
    registration_id: UUID
    missed: MissedRounds = "losses"
    """How the rounds paired before count: ``losses`` (0 points) or 0-point ``byes``."""


TABLE_REPORT = AsCommand(PlayerReport, TableReport)
LATE_ADMISSION = AsCommand(LateEntryCreate, LateAdmission)


class FixedTableCreate(msgspec.Struct, forbid_unknown_fields=True):
    player_id: UUID
    table: Annotated[int, msgspec.Meta(ge=1, le=999)]


class FixedTable(msgspec.Struct):
    player_id: UUID
    table: int


class ReopenRequest(msgspec.Struct, forbid_unknown_fields=True):
    reason: Reason


_PLAYER_OF_THE_MATCH = TokenRequired("the player token of a player of this match")


class VenueController(Controller):
    path = "/api/v1/tournaments/{tournament_id:uuid}"
    tags = ["at the venue"]  # noqa: RUF012

    @post_route(
        "/reports",
        guards=[_PLAYER_OF_THE_MATCH],
        status_code=202,
        summary="A player reports their match's result (their player token); the opponent's "
        "equal report confirms it, a different one disputes it",
    )
    def report(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[PlayerReport],
        request: Request[Any, Any, Any],
        services: ServicesDep,
    ) -> ReportAnswer:
        token = require_token(request, _PLAYER_OF_THE_MATCH.whose)
        with unknown_token_refused(services, token):
            report = TABLE_REPORT(data)
            return services.venue.report(tournament_id, report, player_token=token)

    @director_put(
        "/rounds/{number:int}/pairings",
        summary="The director's pairing of the latest round, before its first result",
    )
    def repair(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        data: JSONBody[PairingsUpdate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> RepairedRound:
        return services.venue.repair(
            tournament_id,
            number,
            pairings=[(p.player_a, p.player_b) for p in data.pairings],
            reason=data.reason,
            actor=actor,
        )

    @director_post(
        "/late-entries",
        summary="A registration made after the start joins the field from the next round",
    )
    def late_entry(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[LateEntryCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> LateEntry:
        return services.venue.admit_late_entry(tournament_id, LATE_ADMISSION(data), actor=actor)

    @director_post(
        "/fixed-tables",
        summary="The player always plays at this table (mobility), from the next round",
    )
    def fix_table(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[FixedTableCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> FixedTable:
        services.venue.fix_table(
            tournament_id, player_id=data.player_id, table=data.table, actor=actor
        )
        return FixedTable(data.player_id, data.table)

    @get_route("/tables/{number:int}", summary="The match now played at a table")
    def table(
        self, tournament_id: FromPath[UUID], number: FromPath[int], services: ServicesDep
    ) -> Table:
        return services.venue.get_table(tournament_id, number)

    @get_route(
        "/tables/{number:int}/qr.svg",
        media_type="image/svg+xml",
        summary="A QR code of the table's page, for the phones at the table",
        response_description="An SVG image",
    )
    def table_qr(
        self, tournament_id: FromPath[UUID], number: FromPath[int], services: ServicesDep
    ) -> Response[str]:
        svg = services.venue.table_qr_svg(tournament_id, number)
        return Response(svg, media_type="image/svg+xml")

    @get_route("/board", summary="The wallboard in one call")
    def board(self, tournament_id: FromPath[UUID], services: ServicesDep) -> Wallboard:
        return services.venue.board(tournament_id, services.clock.now())

    @director_post(
        "/finalize",
        status_code=200,
        summary="Fix places and prizes of a completed tournament (status final)",
    )
    def finalize(
        self, tournament_id: FromPath[UUID], services: ServicesDep, actor: ActorDep
    ) -> Finality:
        return services.venue.finalize(tournament_id, actor=actor)

    @director_post(
        "/reopen", status_code=200, summary="Reopen a final tournament to correct it, with a reason"
    )
    def reopen(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[ReopenRequest],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Finality:
        return services.venue.reopen_tournament(tournament_id, reason=data.reason, actor=actor)
