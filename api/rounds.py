"""The tournament day: the start with round 1, rounds, results, withdrawals, standings, the
tournament's matches, places and prizes (rules T-FMT-1..8, T-BUYIN-1)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, delete, get, post
from litestar.params import FromPath, FromQuery, JSONBody

from api.auth import director_only
from api.schemas import ActorDep, ServicesDep, restate
from api.tabular import csv_response, table_route, wants_csv
from domain.tournament import TournamentStatus
from service.rounds import Recorded, ReportedResult, RoundView, StandingView, Started

Reason = Annotated[str, msgspec.Meta(max_length=500)]


class Pairing(msgspec.Struct):
    table: int
    stage: Literal["swiss", "semi_final", "final", "third_place"]
    player_a: UUID
    player_b: UUID | None
    """None: ``player_a`` has the bye (a win with 0 points, rule T-FMT-2)."""
    player_a_name: str
    player_b_name: str | None
    match_id: UUID | None
    match_length: int
    reason: str
    """Why the pairing made this table: ``score_group``, ``float``, ``rematch_unavoidable``,
    ``bye`` or ``seeding`` (the knockout)."""
    explanation: str
    disputed: bool = False
    """The players reported different results: the director decides (``POST .../results``)."""
    result_id: UUID | None = None
    """The result that counts for the match: what a correction names in ``corrects``
    (rule T-FMT-6); null before a result."""


class Round(msgspec.Struct):
    round: int
    stage: Literal["swiss", "knockout"]
    seed: int
    """The lot of the round: the same seed pairs the same round again."""
    pairings: list[Pairing]


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


class Tiebreaks(msgspec.Struct):
    buchholz: int
    """The sum of the opponents' wins."""
    head_to_head: int
    """Wins against the players tied on every earlier key."""
    lot: int
    """The player's place in the lot drawn at the start (1 first)."""


class Standing(msgspec.Struct):
    rank: int
    """The rank in the Swiss standings (rule T-FMT-3), not a final place: after the knockout
    places 1-4 come from it, at ``.../places`` and in ``place`` (rule T-FMT-4)."""
    player_id: UUID
    display_name: str
    wins: int
    """A bye counts as a win with 0 points."""
    points: int
    """Points won in the Swiss matches (rule T-FMT-3)."""
    tiebreaks: Tiebreaks
    matches: int
    byes: int
    withdrawn: bool
    penalty_points: int
    """Penalty points given against the player (rule C-BREAK-2)."""
    place: int | None
    """The final place once the tournament is completed (rule T-FMT-4: 1-4 from the knockout,
    5.. from the Swiss standings), null before."""


class Score(msgspec.Struct):
    a: int
    b: int


class TournamentMatch(msgspec.Struct):
    match_id: UUID
    round: int
    table: int
    stage: Literal["swiss", "semi_final", "final", "third_place"]
    player_a: UUID
    player_b: UUID
    status: Literal["pending", "playing", "disputed", "decided"]
    score: Score
    winner: UUID | None
    played: bool | None
    """False for an unplayed forfeit, a win with 0 points (rule T-FMT-7); null while open."""
    result_id: UUID | None
    """The result that counts: what a correction names in ``corrects`` (rule T-FMT-6); null
    before a result."""


class Place(msgspec.Struct):
    place: int
    player_id: UUID
    display_name: str


class Payout(msgspec.Struct):
    place: int
    player_id: UUID | None
    """None until the tournament is completed."""
    amount_cents: int


class Prizes(msgspec.Struct):
    pot_cents: int
    payout_percent: list[int]
    payouts: list[Payout]
    unpaid_cents: int
    """Shares of places nobody holds (a field smaller than the places paid)."""


def round_response(view: RoundView) -> Round:
    return Round(
        round=view.round,
        stage=view.stage,
        seed=view.seed,
        pairings=[
            Pairing(
                table=t.table,
                stage=t.stage,  # type: ignore[arg-type]
                player_a=t.player_a,
                player_b=t.player_b,
                player_a_name=t.player_a_name,
                player_b_name=t.player_b_name,
                match_id=t.match_id,
                match_length=t.match_length,
                reason=t.reason,
                explanation=t.explanation,
                disputed=t.disputed,
                result_id=t.result_id,
            )
            for t in view.pairings
        ],
    )


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
        round=round_response(started.round),
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


def standing_response(row: StandingView) -> Standing:
    return Standing(
        rank=row.rank,
        player_id=row.player_id,
        display_name=row.display_name,
        wins=row.wins,
        points=row.points,
        tiebreaks=Tiebreaks(row.buchholz, row.head_to_head, row.lot),
        matches=row.matches,
        byes=row.byes,
        withdrawn=row.withdrawn,
        penalty_points=row.penalty_points,
        place=row.place,
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
        return round_response(services.rounds.pair_round(tournament_id, actor=actor))

    @get("/rounds/{number:int}", sync_to_thread=True, summary="One round's tables and why")
    def show_round(
        self, tournament_id: FromPath[UUID], number: FromPath[int], services: ServicesDep
    ) -> Round:
        return round_response(services.rounds.get_round(tournament_id, number))

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
        return Response([standing_response(row) for row in rows])

    @get("/matches", sync_to_thread=True, summary="Every pairing's match with its status")
    def matches(
        self, tournament_id: FromPath[UUID], services: ServicesDep
    ) -> list[TournamentMatch]:
        return [
            TournamentMatch(
                match_id=m.match_id,
                round=m.round,
                table=m.table,
                stage=m.stage,  # type: ignore[arg-type]
                player_a=m.player_a,
                player_b=m.player_b,
                status=m.status,
                score=Score(m.score_a, m.score_b),
                winner=m.winner,
                played=m.played,
                result_id=m.result_id,
            )
            for m in services.rounds.list_matches(tournament_id)
        ]

    @get("/places", sync_to_thread=True, summary="Final places 1..N (409 until completed)")
    def places(self, tournament_id: FromPath[UUID], services: ServicesDep) -> list[Place]:
        return [
            Place(p.place, p.player_id, p.display_name)
            for p in services.places.list_places(tournament_id)
        ]

    @get("/prizes", sync_to_thread=True, summary="The prize pot and its payout, in cents")
    def prizes(self, tournament_id: FromPath[UUID], services: ServicesDep) -> Prizes:
        prizes = services.places.get_prizes(tournament_id)
        return Prizes(
            pot_cents=prizes.pot_cents,
            payout_percent=prizes.payout_percent,
            payouts=[Payout(p.place, p.player_id, p.amount_cents) for p in prizes.payouts],
            unpaid_cents=prizes.unpaid_cents,
        )
