"""What the tournament day shows, read by several use cases: a round's tables, the standings
with their final places, and the prize money (rules T-FMT-3, T-FMT-4, T-BUYIN-1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from uuid import UUID

from domain import tournament
from domain.tournament import Round, Tournament
from projections import standings as day
from projections.runner import Views
from service.shared.loading import display_names, load_tournament
from service.storage.events import EventStore


@dataclass(frozen=True, slots=True)
class TableView:
    table: int
    stage: str
    player_a: UUID
    player_b: UUID | None
    player_a_name: str
    player_b_name: str | None
    match_id: UUID | None
    match_length: int
    reason: str
    explanation: str
    disputed: bool = False
    """The players reported different results: the director decides."""
    result_id: UUID | None = None
    """The result that counts for the match, which a correction names (rule T-FMT-6)."""


@dataclass(frozen=True, slots=True)
class RoundView:
    round: int
    stage: Literal["swiss", "knockout"]
    seed: int
    pairings: list[TableView]


@dataclass(frozen=True, slots=True)
class StandingView:
    rank: int
    player_id: UUID
    display_name: str
    wins: int
    points: int
    buchholz: int
    head_to_head: int
    lot: int
    matches: int
    byes: int
    withdrawn: bool
    penalty_points: int
    """Penalty points given against the player in the tournament (rule C-BREAK-2)."""
    place: int | None = None
    """The final place once the tournament is completed (rule T-FMT-4), else None."""


@dataclass(frozen=True, slots=True)
class Place:
    place: int
    player_id: UUID
    display_name: str


@dataclass(frozen=True, slots=True)
class Payout:
    place: int
    player_id: UUID | None
    """None until the tournament is completed and its places are fixed."""
    amount_cents: int


@dataclass(frozen=True, slots=True)
class Prizes:
    pot_cents: int
    payout_percent: list[int]
    payouts: list[Payout]
    unpaid_cents: int


def round_view(views: Views, held: Tournament, paired: Round) -> RoundView:
    """One of ``held``'s rounds as shown: each table with its disputes and its result."""
    names = display_names(views, held.id)
    return RoundView(
        round=paired.number,
        stage=paired.stage,
        seed=paired.seed,
        pairings=[
            TableView(
                table=table.table,
                stage=table.stage,
                player_a=table.player_a,
                player_b=table.player_b,
                player_a_name=names.get(str(table.player_a), ""),
                player_b_name=names.get(str(table.player_b)) if table.player_b else None,
                match_id=table.match_id,
                match_length=table.match_length,
                reason=table.reason,
                explanation=table.explanation,
                disputed=table.match_id in held.disputed,
                result_id=result_id(held, table.match_id),
            )
            for table in paired.tables
        ],
    )


def list_standings(store: EventStore, views: Views, tournament_id: UUID) -> list[StandingView]:
    """rule T-FMT-3: wins, points, Buchholz, head-to-head, lot; from the standings view.
    Once the tournament is completed each row also has its final place (rule T-FMT-4)."""
    held = load_tournament(store, tournament_id)
    finished = held.completed_at is not None
    places = enumerate(tournament.places(held), start=1) if finished else ()
    place_of = {player: number for number, player in places}
    views.catch_up()
    with views.reading() as db:
        rows = day.list_standings(db, str(tournament_id))
    return [
        StandingView(
            rank=row["rank"],
            player_id=UUID(row["player_id"]),
            display_name=row["display_name"],
            wins=row["wins"],
            points=row["points"],
            buchholz=row["buchholz"],
            head_to_head=row["head_to_head"],
            lot=row["lot"],
            matches=row["matches"],
            byes=row["byes"],
            withdrawn=bool(row["withdrawn"]),
            penalty_points=row["penalty_points"],
            place=place_of.get(UUID(row["player_id"])),
        )
        for row in rows
    ]


def prizes(held: Tournament) -> Prizes:
    """rule T-BUYIN-1: the pot and its split; who gets each share once places are fixed."""
    split = tournament.prizes(held) if held.completed_at else None
    shares = list(held.payout_percent)
    if split is None:
        amounts = [held.pot_cents * share // 100 for share in shares]
        if amounts and sum(shares) == 100:
            amounts[0] += held.pot_cents - sum(amounts)
        payouts = [
            Payout(place=number, player_id=None, amount_cents=amount)
            for number, amount in enumerate(amounts, start=1)
        ]
        return Prizes(held.pot_cents, shares, payouts, held.pot_cents - sum(amounts))
    return Prizes(
        pot_cents=held.pot_cents,
        payout_percent=shares,
        payouts=[Payout(p.place, p.player_id, p.amount_cents) for p in split.payouts],
        unpaid_cents=split.unpaid_cents,
    )


def result_id(held: Tournament, match_id: UUID | None) -> UUID | None:
    result = held.result_of(match_id) if match_id is not None else None
    return result.id if result is not None else None
