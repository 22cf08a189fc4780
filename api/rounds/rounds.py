"""The tournament day: the start with round 1, rounds, results, withdrawals, standings, the
tournament's matches, places and prizes (rules T-FMT-1..8, T-BUYIN-1)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, delete, get, post
from litestar.params import FromPath, FromQuery, JSONBody

from api.http.auth import director_only
from api.http.schemas import ActorDep, ServicesDep, restate
from api.http.tabular import csv_response, table_route, wants_csv
from domain.tournament import TournamentStatus
from service.rounds.rounds import Recorded, ReportedResult, Started, TournamentMatch
from service.shared.day_views import Place, Prizes, Round, Standing

Reason = Annotated[str, msgspec.Meta(max_length=500)]


class UnpairedRound(msgspec.Struct):
    round: int
    voided: list[UUID]
    """The round's matches, closed without a result."""


class StandbyRefund(msgspec.Struct):
    registration_id: UUID
    refund_cents: int
    """The buy-in the standby paid at check-in, to be handed back."""


class TournamentStart(msgspec.Struct):
    id: UUID
    status: TournamentStatus
    started_at: datetime
    players: int
    """Checked-in seat holders, standbys seated at the start included."""
    pot_cents: int
    no_shows: list[UUID]
    """Registrations whose seats were released because they had not checked in."""
    promoted_standbys: list[UUID]
    """Standbys (waitlisted, checked in on site) who got a released seat, in waitlist order."""
    unseated_standbys: list[StandbyRefund]
    """Standbys left without a seat: still waitlisted, their buy-in is refunded."""
    swiss_rounds: int
    """The Swiss rounds this field plays: fewer than configured where a small field could not
    play them without a rematch (rule T-FMT-1)."""
    round: Round
    """Round 1, paired with the start."""


class ResultReport(msgspec.Struct, forbid_unknown_fields=True):
    """A match decided at the board; ``corrects`` names the result a correction replaces."""

    match_id: UUID
    winner: UUID
    points_a: Annotated[int, msgspec.Meta(ge=0, le=999)]
    points_b: Annotated[int, msgspec.Meta(ge=0, le=999)]
    corrects: UUID | None = None
    reason: Reason = ""


class StandingChange(msgspec.Struct):
    player_id: UUID
    rank_before: int
    rank_after: int
    wins_before: int
    wins_after: int
    points_before: int
    points_after: int


class Affects(msgspec.Struct):
    standings: list[StandingChange]
    rounds_paired_since: list[int]
    """Rounds paired after the corrected match's round: they stay as paired (rule T-FMT-6)."""


class Result(msgspec.Struct):
    result_id: UUID
    match_id: UUID
    winner: UUID
    points_a: int
    points_b: int
    corrects: UUID | None
    tournament_status: TournamentStatus
    affects: Affects


class WithdrawalCreate(msgspec.Struct, forbid_unknown_fields=True):
    player_id: UUID
    reason: Reason = ""
    left_early: bool = True
    """rule R-ATT-2: leaving early revokes the tournament's attendance points."""


class Withdrawal(msgspec.Struct):
    player_id: UUID
    left_early: bool
    forfeits: list[UUID]
    """The player's open matches, forfeited to their opponents (rules T-FMT-5, T-FMT-7)."""


def start_response(started: Started) -> TournamentStart:
    return TournamentStart(
        id=started.id,
        status=started.status,
        started_at=started.started_at,
        players=started.players,
        pot_cents=started.pot_cents,
        no_shows=started.no_shows,
        promoted_standbys=started.promoted_standbys,
        unseated_standbys=[
            StandbyRefund(registration_id=s.registration_id, refund_cents=s.refund_cents)
            for s in started.unseated_standbys
        ],
        swiss_rounds=started.swiss_rounds,
        round=started.round,
    )


def result_response(recorded: Recorded) -> Result:
    return Result(
        result_id=recorded.result_id,
        match_id=recorded.match_id,
        winner=recorded.winner,
        points_a=recorded.points_a,
        points_b=recorded.points_b,
        corrects=recorded.corrects,
        tournament_status=recorded.tournament_status,
        affects=Affects(
            standings=[
                StandingChange(
                    c.player_id,
                    c.rank_before,
                    c.rank_after,
                    c.wins_before,
                    c.wins_after,
                    c.points_before,
                    c.points_after,
                )
                for c in recorded.standings_changed
            ],
            rounds_paired_since=recorded.rounds_paired_since,
        ),
    )


STANDING_COLUMNS = (
    "place",
    "rank",
    "player_id",
    "display_name",
    "wins",
    "points",
    "buchholz",
    "head_to_head",
    "lot",
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

    @post(
        "/start",
        guards=[director_only],
        status_code=200,
        sync_to_thread=True,
        summary="Start: no-shows released, standbys seated, the pot fixed, round 1 paired",
    )
    def start(
        self, tournament_id: FromPath[UUID], services: ServicesDep, actor: ActorDep
    ) -> TournamentStart:
        return start_response(services.rounds.start(tournament_id, actor=actor))

    @post(
        "/rounds",
        guards=[director_only],
        sync_to_thread=True,
        summary="Pair the next round (Swiss, then the knockout) once every result is in",
    )
    def pair_round(
        self, tournament_id: FromPath[UUID], services: ServicesDep, actor: ActorDep
    ) -> Round:
        return services.rounds.pair_round(tournament_id, actor=actor)

    @get("/rounds/{number:int}", sync_to_thread=True, summary="One round's tables and why")
    def show_round(
        self, tournament_id: FromPath[UUID], number: FromPath[int], services: ServicesDep
    ) -> Round:
        return services.rounds.get_round(tournament_id, number)

    @delete(
        "/rounds/{number:int}",
        guards=[director_only],
        status_code=200,
        sync_to_thread=True,
        summary="Unpair the latest round while it has no result; its matches are void",
    )
    def unpair_round(
        self,
        tournament_id: FromPath[UUID],
        number: FromPath[int],
        services: ServicesDep,
        actor: ActorDep,
        reason: FromQuery[str] = "",
    ) -> UnpairedRound:
        unpaired = services.venue.unpair(tournament_id, number, reason=reason[:500], actor=actor)
        return UnpairedRound(unpaired.round, unpaired.voided)

    @post(
        "/results",
        guards=[director_only],
        sync_to_thread=True,
        summary="Report a result decided at the board, or correct one by naming it",
    )
    def record_result(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[ResultReport],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Result:
        report = restate(data, ReportedResult)
        recorded = services.rounds.record_result(tournament_id, report, actor=actor)
        return result_response(recorded)

    @post(
        "/withdrawals",
        guards=[director_only],
        sync_to_thread=True,
        summary="A player leaves the running tournament: not paired again, open matches forfeited",
    )
    def withdraw(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[WithdrawalCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Withdrawal:
        withdrawn = services.rounds.withdraw(
            tournament_id,
            player_id=data.player_id,
            reason=data.reason,
            left_early=data.left_early,
            actor=actor,
        )
        return Withdrawal(withdrawn.player_id, withdrawn.left_early, withdrawn.forfeits)

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
        if wants_csv(request):
            return csv_response(rows, STANDING_COLUMNS)
        return Response(rows)

    @get("/matches", sync_to_thread=True, summary="Every pairing's match with its status")
    def matches(
        self, tournament_id: FromPath[UUID], services: ServicesDep
    ) -> list[TournamentMatch]:
        return services.rounds.list_matches(tournament_id)

    @get("/places", sync_to_thread=True, summary="Final places 1..N (409 until completed)")
    def places(self, tournament_id: FromPath[UUID], services: ServicesDep) -> list[Place]:
        return services.places.list_places(tournament_id)

    @get("/prizes", sync_to_thread=True, summary="The prize pot and its payout, in cents")
    def prizes(self, tournament_id: FromPath[UUID], services: ServicesDep) -> Prizes:
        return services.places.get_prizes(tournament_id)
