"""The tournament day: the start with round 1, rounds, results, withdrawals, standings, the
tournament's matches, places and prizes (rules T-FMT-1..8, T-BUYIN-1)."""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response
from litestar.params import FromPath, JSONBody, QueryParameter

from api.http.routes import director_delete, director_post, get_route
from api.http.schemas import ActorDep, AsCommand, ServicesDep
from api.http.tabular import table_response, table_route
from service.rounds.rounds import (
    ReportedResult,
    Result,
    TournamentMatch,
    TournamentStart,
    Withdrawal,
    WithdrawalNotice,
)
from service.shared.day_views import Place, Prizes, Round, Standing, Tiebreaks
from service.venue.venue import UnpairedRound

Reason = Annotated[str, msgspec.Meta(max_length=500)]


class ResultReport(msgspec.Struct, forbid_unknown_fields=True):
    """A match decided at the board; ``corrects`` names the result a correction replaces."""

    match_id: UUID
    winner: UUID
    points_a: Annotated[int, msgspec.Meta(ge=0, le=999)]
    points_b: Annotated[int, msgspec.Meta(ge=0, le=999)]
    corrects: UUID | None = None
    reason: Reason = ""


class WithdrawalCreate(msgspec.Struct, forbid_unknown_fields=True):
    player_id: UUID
    reason: Reason = ""
    left_early: bool = True
    """rule R-ATT-2: leaving early revokes the tournament's attendance points."""


REPORTED_RESULT = AsCommand(ResultReport, ReportedResult)
WITHDRAWAL_NOTICE = AsCommand(WithdrawalCreate, WithdrawalNotice)


STANDING_COLUMNS = (
    "place",
    "rank",
    "player_id",
    "display_name",
    "wins",
    "points",
    *Tiebreaks.__struct_fields__,
    "matches",
    "byes",
    "withdrawn",
    "penalty_points",
)
"""The standings as a spreadsheet opens them: the final place first (empty until the tournament
is completed, rule T-FMT-4), then the Swiss rank and every tiebreak a column."""


class TournamentDayController(Controller):
    path = "/api/v1/tournaments/{tournament_id:uuid}"
    tags = ["tournament day"]  # noqa: RUF012

    @director_post(
        "/start",
        status_code=200,
        summary="Start: no-shows released, standbys seated, the pot fixed, round 1 paired",
    )
    def start(
        self, tournament_id: FromPath[UUID], services: ServicesDep, actor: ActorDep
    ) -> TournamentStart:
        return services.rounds.start(tournament_id, actor=actor)

    @director_post(
        "/rounds", summary="Pair the next round (Swiss, then the knockout) once every result is in"
    )
    def pair_round(
        self, tournament_id: FromPath[UUID], services: ServicesDep, actor: ActorDep
    ) -> Round:
        return services.rounds.pair_round(tournament_id, actor=actor)

    @get_route("/rounds/{number:int}", summary="One round's tables and why")
    def show_round(
        self, tournament_id: FromPath[UUID], number: FromPath[int], services: ServicesDep
    ) -> Round:
        return services.rounds.get_round(tournament_id, number)

    @director_delete(
        "/rounds/{number:int}",
        status_code=200,
        summary="Unpair the latest round while it has no result; its matches are void",
    )
    def unpair_round(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        services: ServicesDep,
        actor: ActorDep,
        reason: Annotated[str, QueryParameter(max_length=500)] = "",
    ) -> UnpairedRound:
        return services.venue.unpair(tournament_id, number, reason=reason, actor=actor)

    @director_post(
        "/results", summary="Report a result decided at the board, or correct one by naming it"
    )
    def record_result(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[ResultReport],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Result:
        report = REPORTED_RESULT(data)
        return services.rounds.record_result(tournament_id, report, actor=actor)

    @director_post(
        "/withdrawals",
        summary="A player leaves the running tournament: not paired again, open matches forfeited",
    )
    def withdraw(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[WithdrawalCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Withdrawal:
        return services.rounds.withdraw(tournament_id, WITHDRAWAL_NOTICE(data), actor=actor)

    @table_route(
        "/standings",
        summary="Swiss standings with every tiebreak (also as CSV with Accept: text/csv)",
        description="Wins (a bye is a win with 0 points), then points won, then Buchholz, then "
        "head-to-head, then the lot drawn at the start (rule T-FMT-3).",
    )
    def standings(
        self, tournament_id: FromPath[UUID], request: Request[Any, Any, Any], services: ServicesDep
    ) -> Response[list[Standing]]:
        rows = services.rounds.list_standings(tournament_id)
        return table_response(request, rows, STANDING_COLUMNS)

    @get_route("/matches", summary="Every pairing's match with its status")
    def matches(
        self, tournament_id: FromPath[UUID], services: ServicesDep
    ) -> list[TournamentMatch]:
        return services.rounds.list_matches(tournament_id)

    @get_route("/places", summary="Final places 1..N (409 until completed)")
    def places(self, tournament_id: FromPath[UUID], services: ServicesDep) -> list[Place]:
        return services.places.list_places(tournament_id)

    @get_route("/prizes", summary="The prize pot and its payout, in cents")
    def prizes(self, tournament_id: FromPath[UUID], services: ServicesDep) -> Prizes:
        return services.places.get_prizes(tournament_id)
