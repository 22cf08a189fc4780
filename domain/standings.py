"""Tournament standings, final places and the prize split: pure functions over decided results."""

# Rules T-FMT-3, T-FMT-4, T-FMT-5, T-FMT-7, T-BUYIN-1 (DOMAIN.md sections 2 and 3).

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """One decided Swiss pairing: a match won, a forfeit or a bye."""

    round: int
    player_a: UUID
    player_b: UUID | None
    """None: a bye for ``player_a`` (rule T-FMT-2)."""
    winner: UUID
    """``player_a`` or ``player_b``; a bye's winner is ``player_a``."""
    points_a: int = 0
    """Points ``player_a`` won in the match, the final match score (T-FMT-7 included)."""
    points_b: int = 0
    played: bool = True
    """False: a bye or an unplayed forfeit (T-FMT-5, T-FMT-7), a win with 0 points for both."""


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """One player's line in the Swiss standings, with every tiebreak value shown."""

    rank: int
    """1..n, never shared: the lot breaks every tie."""
    player_id: UUID
    wins: int
    """Matches won, byes and forfeits included."""
    points: int
    """Points won in played matches (byes and unplayed forfeits: 0)."""
    buchholz: int
    """The sum of the opponents' wins (a bye has no opponent and adds nothing)."""
    head_to_head: int
    """Wins against the players tied on wins, points and Buchholz (0 when tied with nobody)."""
    lot: int
    """The player's position (1 = first) in the draw of the whole field from the lot seed."""
    matches: int
    """Decided pairings the player had, byes included."""
    byes: int


class KnockoutResult(msgspec.Struct, frozen=True, kw_only=True):
    """A decided knockout match: the final or the match for 3rd place (rule T-FMT-4)."""

    winner: UUID
    loser: UUID


class Payout(msgspec.Struct, frozen=True, kw_only=True):
    """The prize money one place receives, in integer cents (rule T-BUYIN-1)."""

    place: int
    player_id: UUID
    amount_cents: int


class PotSplit(msgspec.Struct, frozen=True, kw_only=True):
    """The whole pot: the payouts, place by place, and the cents nobody receives."""

    payouts: tuple[Payout, ...]
    unpaid_cents: int
    """Shares of places nobody holds, and what shares adding up to less than 100 leave over."""


def lot_draw(players: Sequence[UUID], seed: int) -> dict[UUID, int]:
    """Each player's position (1 = first) in the seeded draw: SHA-256 of ``seed:player_id``."""
    # rule T-FMT-3: the lot is seeded, so the same seed (recorded as an event) draws the same order
    drawn = sorted(players, key=lambda player: (_lot_ticket(seed, player), player.bytes))
    return {player: position for position, player in enumerate(drawn, start=1)}


def compute_standings(
    players: Sequence[UUID], outcomes: Sequence[Outcome], *, lot_seed: int
) -> list[Standing]:
    """The Swiss standings, best first: wins, points won, Buchholz, head-to-head, lot.

    Rule T-FMT-3. A bye and an unplayed forfeit are wins with 0 points (T-FMT-2, T-FMT-5,
    T-FMT-7). Every player in ``players`` appears, with or without outcomes.

    Head-to-head is decided inside a tie group: the players equal on wins, points and Buchholz.
    A player's head-to-head value is the number of outcomes the player won against another
    member of the same group (byes never count, forfeits do). A player tied with nobody has 0.
    When head-to-head goes round in a circle, the values stay equal and the lot decides.
    """
    _check_players(players, outcomes)
    wins, points, matches, byes = _tally(outcomes, bye_wins=True)

    buchholz: Counter[UUID] = Counter()
    for outcome in outcomes:
        if outcome.player_b is not None:
            buchholz[outcome.player_a] += wins[outcome.player_b]
            buchholz[outcome.player_b] += wins[outcome.player_a]

    def group(player: UUID) -> tuple[int, int, int]:
        return wins[player], points[player], buchholz[player]

    head_to_head: Counter[UUID] = Counter()
    for outcome in outcomes:
        if outcome.player_b is not None and group(outcome.player_a) == group(outcome.player_b):
            head_to_head[outcome.winner] += 1

    lot = lot_draw(players, lot_seed)
    order = sorted(
        players,
        key=lambda player: (
            -wins[player],
            -points[player],
            -buchholz[player],
            -head_to_head[player],
            lot[player],
        ),
    )
    return _lines(order, wins, points, buchholz, head_to_head, lot, matches, byes)


def round_robin_standings(
    players: Sequence[UUID], outcomes: Sequence[Outcome], *, lot_seed: int
) -> list[Standing]:
    """The round robin's standings, best first: matches won, points, head-to-head, lot.

    Rule T-FMT-11. A rest (an outcome without ``player_b``) is worth no win and no points; it
    is counted in ``byes``. An unplayed forfeit is a won match with 0 points (T-FMT-5, T-FMT-7).
    Head-to-head is decided among the players equal on wins and points: each one's wins in the
    matches among them (two players: who won their match, or more of their two; three or more:
    the wins in their mini-table). Equal there, the lot decides. There is no Buchholz (0).
    """
    _check_players(players, outcomes)
    wins, points, matches, rests = _tally(outcomes, bye_wins=False)
    head_to_head: Counter[UUID] = Counter()
    for outcome in outcomes:
        a, b = outcome.player_a, outcome.player_b
        if b is not None and (wins[a], points[a]) == (wins[b], points[b]):
            head_to_head[outcome.winner] += 1
    lot = lot_draw(players, lot_seed)
    order = sorted(
        players,
        key=lambda player: (-wins[player], -points[player], -head_to_head[player], lot[player]),
    )
    return _lines(order, wins, points, Counter(), head_to_head, lot, matches, rests)


def _tally(
    outcomes: Sequence[Outcome], *, bye_wins: bool
) -> tuple[Counter[UUID], Counter[UUID], Counter[UUID], Counter[UUID]]:
    """Each player's wins, points won in played matches, decided pairings and byes.

    A Swiss bye is a win (rule T-FMT-2, ``bye_wins``); a round robin's rest is not (T-FMT-11).
    """
    wins: Counter[UUID] = Counter()
    points: Counter[UUID] = Counter()
    matches: Counter[UUID] = Counter()
    byes: Counter[UUID] = Counter()
    for outcome in outcomes:
        matches[outcome.player_a] += 1
        if outcome.player_b is None:
            byes[outcome.player_a] += 1
            if bye_wins:
                wins[outcome.winner] += 1
            continue
        matches[outcome.player_b] += 1
        wins[outcome.winner] += 1
        if outcome.played:
            points[outcome.player_a] += outcome.points_a
            points[outcome.player_b] += outcome.points_b
    return wins, points, matches, byes


def _lines(
    order: Sequence[UUID],
    wins: Counter[UUID],
    points: Counter[UUID],
    buchholz: Counter[UUID],
    head_to_head: Counter[UUID],
    lot: dict[UUID, int],
    matches: Counter[UUID],
    byes: Counter[UUID],
) -> list[Standing]:
    """The standings' lines in ``order``, ranked from 1."""
    return [
        Standing(
            rank=rank,
            player_id=player,
            wins=wins[player],
            points=points[player],
            buchholz=buchholz[player],
            head_to_head=head_to_head[player],
            lot=lot[player],
            matches=matches[player],
            byes=byes[player],
        )
        for rank, player in enumerate(order, start=1)
    ]


def final_places(
    swiss_order: Sequence[UUID],
    *,
    final: KnockoutResult | None = None,
    third_place: KnockoutResult | None = None,
) -> list[UUID]:
    """Places 1..N: the knockout decides the top places, the Swiss standings the rest.

    Rule T-FMT-4: with four or more players the final gives places 1-2 and the match for 3rd
    place gives 3-4; places 5.. follow ``swiss_order`` (the players in standing order). A field
    of two or three plays no knockout: the Swiss order is the places. A final alone (a field
    that plays one without semi-finals) gives places 1-2. The knockout players must be the
    Swiss top two (final only) or top four.
    """
    if len(set(swiss_order)) != len(swiss_order):
        raise InvalidInputError("swiss_order", "a player appears more than once")
    if third_place is not None and final is None:
        raise InvalidInputError("third_place", "a match for 3rd place needs the final")
    knockout = [
        player
        for result in (final, third_place)
        if result is not None
        for player in (result.winner, result.loser)
    ]
    if len(set(knockout)) != len(knockout):
        raise InvalidInputError("final", "a player appears in more than one knockout place")
    if set(knockout) != set(swiss_order[: len(knockout)]):
        raise InvalidInputError(
            "final", f"the knockout players must be the top {len(knockout)} of the Swiss standings"
        )
    return knockout + list(swiss_order[len(knockout) :])


def split_pot(pot_cents: int, shares_percent: Sequence[int], places: Sequence[UUID]) -> PotSplit:
    """The pot split by percent shares for places 1, 2, 3, ... (rule T-BUYIN-1), in cents.

    Each place that a player holds gets ``floor(pot * share / 100)``. The rounding remainder,
    fewer cents than there are places paid, goes all to the highest place with a positive
    share. Shares adding up to 100 pay out exactly the pot when every paid place is held.
    Shares of places nobody holds (a field smaller than the places paid) and what shares below
    100 in total leave over are not paid: they are reported as ``unpaid_cents``. A place whose
    share is 0 is listed with 0 cents; places beyond the shares get nothing and are not listed.
    """
    if pot_cents < 0:
        raise InvalidInputError("pot_cents", f"must not be negative, not {pot_cents}")
    if any(share < 0 for share in shares_percent):
        raise InvalidInputError("shares_percent", "shares must not be negative")
    if sum(shares_percent) > 100:
        raise InvalidInputError(
            "shares_percent", f"the shares add up to {sum(shares_percent)}, more than 100"
        )
    if len(set(places)) != len(places):
        raise InvalidInputError("places", "a player holds more than one place")
    paid = list(zip(places, shares_percent, strict=False))
    amounts = [pot_cents * share // 100 for _, share in paid]
    due = pot_cents * sum(share for _, share in paid) // 100
    first_positive = next((index for index, (_, share) in enumerate(paid) if share > 0), None)
    if first_positive is not None:
        amounts[first_positive] += due - sum(amounts)
    payouts = tuple(
        Payout(place=place, player_id=player, amount_cents=amount)
        for place, ((player, _), amount) in enumerate(zip(paid, amounts, strict=True), start=1)
    )
    return PotSplit(payouts=payouts, unpaid_cents=pot_cents - due)


def _lot_ticket(seed: int, player: UUID) -> bytes:
    return hashlib.sha256(f"{seed}:{player}".encode()).digest()


def _check_players(players: Sequence[UUID], outcomes: Sequence[Outcome]) -> None:
    known = set(players)
    if len(known) != len(players):
        raise InvalidInputError("players", "a player appears more than once")
    for outcome in outcomes:
        pair = (outcome.player_a, outcome.player_b)
        if not all(player is None or player in known for player in pair):
            raise InvalidInputError("outcomes", f"round {outcome.round}: a player not in the field")
        if outcome.player_a == outcome.player_b:
            raise InvalidInputError("outcomes", f"round {outcome.round}: a player against itself")
        if outcome.winner not in pair:
            raise InvalidInputError("outcomes", f"round {outcome.round}: the winner did not play")
        if outcome.points_a < 0 or outcome.points_b < 0:
            raise InvalidInputError("outcomes", f"round {outcome.round}: negative points")
