"""A tournament's format and its settings (rule T-FMT-10), and the round robin's rounds
(rule T-FMT-11): the Berger numbers drawn at the start and each round's tables from the
fixed schedule (``domain.berger``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from uuid import UUID

import msgspec

from domain.berger import (
    MAX_ROUND_ROBIN_PLAYERS,
    ROUND_ROBIN_CYCLES,
    rounds_per_cycle,
    schedule_round,
)
from domain.errors import InvalidInputError
from domain.standings import lot_draw
from domain.tournament.defaults import (
    DEFAULT_CAPACITY,
    DEFAULT_ROUND_ROBIN_CAPACITY,
    DEFAULT_SWISS_ROUNDS,
    KNOCKOUT_PLAYERS,
    Seeding,
    TournamentFormat,
)
from domain.tournament.errors import FormatFixedScheduleError
from domain.tournament.events import PairedTable
from domain.tournament.state import Tournament

Ranks = Mapping[UUID, int] | None
"""A season ranking's ranks by player (shared ranks allowed); None: not given."""
FORMATS: tuple[TournamentFormat, ...] = ("swiss", "round_robin")
KNOCKOUT_CHOICES = (0, KNOCKOUT_PLAYERS)


class FormatTerms(msgspec.Struct, frozen=True, kw_only=True):
    """The format's settings as scheduled, every default filled in."""

    format: TournamentFormat
    knockout_players: int
    round_robin_cycles: int
    seeding: Seeding
    swiss_rounds: int
    """The Swiss rounds asked for; 0 outside the Swiss format."""
    capacity: int


def format_terms(
    *,
    format: str,
    capacity: int | None,
    swiss_rounds: int | None,
    knockout_players: int | None,
    round_robin_cycles: int | None,
    seeding: str | None,
) -> FormatTerms:
    """rule T-FMT-10: the settings a format takes, with its defaults; a setting that does not
    apply to the format, or a combination that cannot work, is refused with its field named.
    ``None`` means not given. Without ``format`` the terms are exactly today's Swiss ones."""
    if format == "elimination":
        raise InvalidInputError("format", "elimination is not built yet: swiss or round_robin")
    if format not in FORMATS:
        raise InvalidInputError("format", "is swiss or round_robin")
    if knockout_players is not None and knockout_players not in KNOCKOUT_CHOICES:
        raise InvalidInputError("knockout_players", "is 0 or 4")
    if round_robin_cycles is not None and round_robin_cycles not in ROUND_ROBIN_CYCLES:
        raise InvalidInputError("round_robin_cycles", "is 1 or 2")
    if seeding is not None and seeding not in ("lot", "ranking"):
        raise InvalidInputError("seeding", "is lot or ranking")
    if format == "swiss":
        if round_robin_cycles is not None:
            raise InvalidInputError("round_robin_cycles", "applies to a round robin only")
        if seeding is not None:
            raise InvalidInputError("seeding", "does not apply to the Swiss format")
        return FormatTerms(
            format="swiss",
            knockout_players=KNOCKOUT_PLAYERS if knockout_players is None else knockout_players,
            round_robin_cycles=1,
            seeding="lot",
            swiss_rounds=DEFAULT_SWISS_ROUNDS if swiss_rounds is None else swiss_rounds,
            capacity=DEFAULT_CAPACITY if capacity is None else capacity,
        )
    if swiss_rounds is not None:
        raise InvalidInputError("swiss_rounds", "applies to the Swiss format only")
    seats = DEFAULT_ROUND_ROBIN_CAPACITY if capacity is None else capacity
    if seats > MAX_ROUND_ROBIN_PLAYERS:
        raise InvalidInputError("capacity", "a round robin seats at most 12 players")
    return FormatTerms(
        format="round_robin",
        knockout_players=0 if knockout_players is None else knockout_players,
        round_robin_cycles=1 if round_robin_cycles is None else round_robin_cycles,
        seeding="ranking" if seeding == "ranking" else "lot",
        swiss_rounds=0,
        capacity=seats,
    )


def berger_numbers(
    field: Sequence[UUID], lot_seed: int, ranks: Mapping[UUID, int] | None = None
) -> tuple[UUID, ...]:
    """rule T-FMT-11, T-FMT-12: the players by Berger number. By lot (``ranks`` None): drawn
    from the start's recorded seed (the same lot that breaks the standings' last ties). By
    ranking: the players ranked in the season at the start first, by rank, then the others;
    ties by that lot."""
    drawn = lot_draw(field, lot_seed)
    ranked = ranks or {}
    unranked = len(field) + max(ranked.values(), default=0) + 1
    return tuple(sorted(field, key=lambda p: (ranked.get(p, unranked), drawn[p])))


def starting_numbers(
    state: Tournament, field: Sequence[UUID], lot_seed: int, season_ranks: Ranks
) -> tuple[UUID, ...]:
    """rule T-FMT-11: a round robin's Berger numbers at the start, by its ``seeding``;
    none in the Swiss format."""
    if state.format != "round_robin":
        return ()
    return berger_numbers(field, lot_seed, season_ranks if state.seeding == "ranking" else None)


def round_robin_rounds(state: Tournament) -> int:
    """rule T-FMT-11: m - 1 rounds per cycle."""
    return rounds_per_cycle(len(state.berger_numbers)) * state.round_robin_cycles


def round_robin_tables(state: Tournament, new_match_id: Callable[[], UUID]) -> list[PairedTable]:
    """rule T-FMT-11: the next round of the fixed Berger schedule.

    A player who rests has a table without a match (a bye worth nothing). A match between two
    players who both left is not played: nobody could win it (T-FMT-5)."""
    numbers = state.berger_numbers
    played = sum(1 for paired in state.rounds if paired.stage == "round_robin")
    per_cycle = rounds_per_cycle(len(numbers))
    cycle = played // per_cycle + 1
    active = set(state.active_players())
    length = state.stage_length("round_robin")
    tables: list[PairedTable] = []
    for berger in schedule_round(len(numbers), played + 1):
        player_a = numbers[berger.number_a - 1]
        if berger.number_b is None:
            tables.append(
                PairedTable(
                    table=len(tables) + 1,
                    stage="round_robin",
                    player_a=player_a,
                    reason="bye",
                    explanation=f"Berger number {berger.number_a} rests this round "
                    "(no win, no points)",
                )
            )
            continue
        player_b = numbers[berger.number_b - 1]
        if player_a not in active and player_b not in active:
            continue
        tables.append(
            PairedTable(
                table=len(tables) + 1,
                stage="round_robin",
                player_a=player_a,
                player_b=player_b,
                match_id=new_match_id(),
                match_length=length,
                reason="schedule",
                explanation=f"Berger table, cycle {cycle}: "
                f"number {berger.number_a} v number {berger.number_b}",
            )
        )
    return tables


def require_open_schedule(state: Tournament, what: str) -> None:
    """API "Formats": a round robin's schedule is fixed at the start, so pairing overrides and
    late entries are refused."""
    if state.format != "swiss":
        raise FormatFixedScheduleError(
            f"{what} is refused: a {state.format.replace('_', ' ')} plays a schedule fixed at "
            "the start (rule T-FMT-11)"
        )
