"""What the tournament day shows, read by several use cases: a round's tables, the standings
with their final places, and the prize money (rules T-FMT-3, T-FMT-4, T-BUYIN-1)."""

from __future__ import annotations

from uuid import UUID

import msgspec

from domain import tournament
from domain.events import copied
from domain.tournament import RoundStage, Stage, Tournament
from projections import standings as day
from projections.runner import Views
from service.shared.loading import display_names, load_tournament
from service.storage.events import EventStore


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """A table of a round as shown: its players by name, why the pairing made it, its result."""

    table: int
    stage: Stage
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
    bracket: str | None = None
    """``main`` or ``consolation`` in an elimination; null in other formats."""
    bracket_round: int | None = None
    """The round within its bracket (elimination only)."""
    bracket_position: int | None = None
    """The match's 1-based position within its bracket round (elimination only; byes
    included): round r+1's match k follows matches 2k-1 and 2k (rules T-FMT-12, T-FMT-13)."""
    seed_a: int | None = None
    """A round robin's Berger number of ``player_a`` (rule T-FMT-11); null for Swiss."""
    seed_b: int | None = None
    """The Berger number of ``player_b``; null for Swiss and for a rest."""


class Round(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    stage: RoundStage
    seed: int
    """The lot of the round: the same seed pairs the same round again."""
    completable: bool | None
    """Swiss rounds (rule T-FMT-9): true when the remaining Swiss rounds can still be paired
    without a rematch after this one (always true for the last); false when not; null where
    that was not decided, and for every other stage."""
    pairings: list[Pairing]


class Tiebreaks(msgspec.Struct, frozen=True, kw_only=True):
    """The tiebreaks the format ranks by; an elimination's places have none (API.md
    "Formats": ``tiebreaks: {}``), each omitted where the format has none."""

    buchholz: int | msgspec.UnsetType = msgspec.UNSET
    """The sum of the opponents' wins; omitted in a round robin, which has none (T-FMT-11)."""
    head_to_head: int | msgspec.UnsetType = msgspec.UNSET
    """Wins against the players tied on every earlier key."""
    lot: int | msgspec.UnsetType = msgspec.UNSET
    """The player's place in the lot drawn at the start (1 first)."""


class Standing(msgspec.Struct, frozen=True, kw_only=True):
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

    # the tiebreaks by name, as the CSV's columns and the printed standings show them
    @property
    def buchholz(self) -> int | str:
        """Blank where the format has no Buchholz (a round robin, rule T-FMT-11)."""
        value = self.tiebreaks.buchholz
        return "" if isinstance(value, msgspec.UnsetType) else value

    @property
    def head_to_head(self) -> int | str:
        """Blank where the format has no head-to-head (an elimination)."""
        value = self.tiebreaks.head_to_head
        return "" if isinstance(value, msgspec.UnsetType) else value

    @property
    def lot(self) -> int | str:
        """Blank where the format has no lot among its tiebreaks (an elimination)."""
        value = self.tiebreaks.lot
        return "" if isinstance(value, msgspec.UnsetType) else value


class Score(msgspec.Struct, frozen=True, kw_only=True):
    """A match's score: side a's points and side b's."""

    a: int
    b: int


class Place(msgspec.Struct, frozen=True, kw_only=True):
    place: int
    player_id: UUID
    display_name: str
    consolation_place: int | None = None
    """rule T-FMT-13: 1 or 2 for the consolation's winner and finalist; else null."""


class Payout(msgspec.Struct, frozen=True, kw_only=True):
    place: int
    """The consolation place for a consolation payout (rule T-FMT-14)."""
    player_id: UUID | None
    """None until the tournament is completed."""
    amount_cents: int
    bracket: str = "main"
    """``main`` or ``consolation`` (an elimination's consolation pot, rule T-FMT-14)."""


class Prizes(msgspec.Struct, frozen=True, kw_only=True):
    pot_cents: int
    payout_percent: list[int]
    payouts: list[Payout]
    unpaid_cents: int
    """Shares of places nobody holds (a field smaller than the places paid)."""
    main_pot_cents: int = 0
    """rule T-FMT-14: the pot less an elimination's consolation pot; the whole pot otherwise."""
    consolation_pot_cents: int = 0
    """rule T-FMT-14: an elimination's consolation pot; 0 in the other formats."""


def round_view(views: Views, held: Tournament, paired: tournament.Round) -> Round:
    """One of ``held``'s rounds as shown: each table with its disputes and its result."""
    names = display_names(views, held.id)
    results = result_ids(held)
    berger: dict[UUID | None, int] = {
        player: number for number, player in enumerate(held.berger_numbers, start=1)
    }
    return Round(
        round=paired.number,
        stage=paired.stage,
        seed=paired.seed,
        completable=paired.completable if paired.stage == "swiss" else None,
        pairings=[
            copied(
                table,
                Pairing,
                player_a_name=names.get(str(table.player_a), ""),
                player_b_name=names.get(str(table.player_b)) if table.player_b else None,
                disputed=table.match_id in held.disputed,
                result_id=results.get(table.match_id) if table.match_id else None,
                seed_a=berger.get(table.player_a) if table.stage == "round_robin" else table.seed_a,
                seed_b=berger.get(table.player_b) if table.stage == "round_robin" else table.seed_b,
            )
            for table in paired.tables
        ],
    )


def list_standings(store: EventStore, views: Views, tournament_id: UUID) -> list[Standing]:
    """rule T-FMT-3: wins, points, Buchholz, head-to-head, lot; from the standings view.
    Once the tournament is completed each row also has its final place (rule T-FMT-4)."""
    held = load_tournament(store, tournament_id)
    finished = held.completed_at is not None
    places = enumerate(tournament.places(held), start=1) if finished else ()
    place_of = {player: number for number, player in places}
    round_robin = held.format != "swiss"
    elimination = held.format == "elimination"
    views.catch_up()
    with views.reading() as db:
        rows = day.list_standings(db, str(tournament_id))
    if held.format == "elimination":
        # API.md "Formats": the places (T-FMT-14), provisional until the brackets are decided
        order = {str(player): number for number, player in enumerate(tournament.places(held), 1)}
        rows = sorted(rows, key=lambda row: order.get(row["player_id"], len(order) + 1))
        rows = [{**row, "rank": number} for number, row in enumerate(rows, start=1)]
    return [
        Standing(
            rank=row["rank"],
            player_id=UUID(row["player_id"]),
            display_name=row["display_name"],
            wins=row["wins"],
            points=row["points"],
            # API.md "Formats": an elimination's rows are its places, without tiebreaks
            tiebreaks=Tiebreaks()
            if elimination
            else Tiebreaks(
                buchholz=msgspec.UNSET if round_robin else row["buchholz"],
                head_to_head=row["head_to_head"],
                lot=row["lot"],
            ),
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
    if held.format == "elimination":
        return _elimination_prizes(held) if held.completed_at else _elimination_preview(held)
    split = tournament.prizes(held) if held.completed_at else None
    shares = list(held.payout_percent)
    if split is None:
        amounts = _share_amounts(held.pot_cents, shares)
        return Prizes(
            pot_cents=held.pot_cents,
            payout_percent=shares,
            payouts=[
                Payout(place=number, player_id=None, amount_cents=amount)
                for number, amount in enumerate(amounts, start=1)
            ],
            unpaid_cents=held.pot_cents - sum(amounts),
            main_pot_cents=held.pot_cents,
        )
    return Prizes(
        pot_cents=held.pot_cents,
        payout_percent=shares,
        payouts=[
            Payout(place=p.place, player_id=p.player_id, amount_cents=p.amount_cents)
            for p in split.payouts
        ],
        unpaid_cents=split.unpaid_cents,
        main_pot_cents=held.pot_cents,
    )


def _share_amounts(pot_cents: int, shares: list[int]) -> list[int]:
    """rule T-BUYIN-1 before the places are known: each share's cents, the rounding remainder
    to place 1 when the shares add up to 100 (what they leave over is unpaid)."""
    amounts = [pot_cents * share // 100 for share in shares]
    if amounts and sum(shares) == 100:
        amounts[0] += pot_cents - sum(amounts)
    return amounts


def _elimination_preview(held: Tournament) -> Prizes:
    """rule T-FMT-14 before the brackets are decided: the main pot's shares over places 1, 2,
    ... and, when a consolation is played, the consolation pot's over consolation places 1, 2;
    nobody named yet, each pot paid to the cent."""
    main_pot, side_pot = tournament.elimination_pots(held)
    main = _share_amounts(main_pot, list(held.payout_percent))
    side = _share_amounts(side_pot, list(held.consolation_payout_percent)) if side_pot else []
    return Prizes(
        pot_cents=held.pot_cents,
        payout_percent=list(held.payout_percent),
        payouts=[
            Payout(place=number, player_id=None, amount_cents=amount)
            for number, amount in enumerate(main, start=1)
        ]
        + [
            Payout(place=number, player_id=None, amount_cents=amount, bracket="consolation")
            for number, amount in enumerate(side, start=1)
        ],
        unpaid_cents=held.pot_cents - sum(main) - sum(side),
        main_pot_cents=main_pot,
        consolation_pot_cents=side_pot,
    )


def _elimination_prizes(held: Tournament) -> Prizes:
    """rule T-FMT-14: the main pot over places 1, 2, ... and the consolation pot over
    consolation places 1, 2; with every paid place held, the payouts add up to the pot."""
    main, side = tournament.elimination_prizes(held)
    main_pot = sum(p.amount_cents for p in main.payouts) + main.unpaid_cents
    side_pot = sum(p.amount_cents for p in side.payouts) + side.unpaid_cents
    return Prizes(
        pot_cents=held.pot_cents,
        payout_percent=list(held.payout_percent),
        payouts=[
            Payout(place=p.place, player_id=p.player_id, amount_cents=p.amount_cents)
            for p in main.payouts
        ]
        + [
            Payout(
                place=p.place,
                player_id=p.player_id,
                amount_cents=p.amount_cents,
                bracket="consolation",
            )
            for p in side.payouts
        ],
        unpaid_cents=main.unpaid_cents + side.unpaid_cents,
        main_pot_cents=main_pot,
        consolation_pot_cents=side_pot,
    )


def result_ids(held: Tournament) -> dict[UUID, UUID]:
    """The id of the result that counts, by match: one pass over the results for a whole
    round or day (a lookup per table made the 64-player round page quadratic)."""
    return {result.match_id: result.id for result in held.results}
