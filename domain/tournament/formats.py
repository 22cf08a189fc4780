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
from domain.bracket import CONSOLATIONS, MIN_PROGRESSIVE_PLAYERS, consolation_played
from domain.errors import InvalidInputError
from domain.standings import lot_draw
from domain.tournament.defaults import (
    DEFAULT_CAPACITY,
    DEFAULT_CONSOLATION_PAYOUT_PERCENT,
    DEFAULT_CONSOLATION_POT_PERCENT,
    DEFAULT_ROUND_ROBIN_CAPACITY,
    DEFAULT_SWISS_ROUNDS,
    KNOCKOUT_PLAYERS,
    Consolation,
    Seeding,
    TournamentFormat,
)
from domain.tournament.errors import FormatFixedScheduleError, TournamentStateError
from domain.tournament.events import PairedTable
from domain.tournament.state import Tournament

Ranks = Mapping[UUID, int] | None
"""A season ranking's ranks by player (shared ranks allowed); None: not given."""
FORMATS: tuple[TournamentFormat, ...] = ("swiss", "round_robin", "elimination")
KNOCKOUT_CHOICES = (0, KNOCKOUT_PLAYERS)
CONSOLATION_SETTINGS = (
    "consolation_match_length",
    "consolation_pot_percent",
    "consolation_payout_percent",
)
FORMAT_FIELDS = (
    "format",
    "capacity",
    "swiss_rounds",
    "knockout_players",
    "round_robin_cycles",
    "seeding",
    "consolation",
    *CONSOLATION_SETTINGS,
)
"""The creation fields ``format_terms`` takes (API.md "Formats")."""


class FormatTerms(msgspec.Struct, frozen=True, kw_only=True):
    """The format's settings as scheduled, every default filled in."""

    format: TournamentFormat
    knockout_players: int
    round_robin_cycles: int
    seeding: Seeding
    swiss_rounds: int
    """The Swiss rounds asked for; 0 outside the Swiss format."""
    capacity: int
    consolation: Consolation = "none"
    consolation_match_length: int = 0
    """0: ``match_length`` (rule T-FMT-12)."""
    consolation_pot_percent: int = DEFAULT_CONSOLATION_POT_PERCENT
    consolation_payout_percent: tuple[int, ...] = DEFAULT_CONSOLATION_PAYOUT_PERCENT

    def scheduled(self) -> dict[str, object]:
        """The settings the scheduling event records."""
        return {
            field: getattr(self, field)
            for field in (
                "format",
                "knockout_players",
                "round_robin_cycles",
                "seeding",
                "consolation",
                *CONSOLATION_SETTINGS,
            )
        }


def format_terms(
    *,
    format: str,
    capacity: int | None,
    swiss_rounds: int | None,
    knockout_players: int | None,
    round_robin_cycles: int | None,
    seeding: str | None,
    consolation: str | None = None,
    consolation_match_length: int | None = None,
    consolation_pot_percent: int | None = None,
    consolation_payout_percent: Sequence[int] | None = None,
) -> FormatTerms:
    """rule T-FMT-10: the settings a format takes, with its defaults; a setting that does not
    apply to the format, or a combination that cannot work, is refused with its field named.
    ``None`` means not given. Without ``format`` the terms are exactly today's Swiss ones."""
    if format not in FORMATS:
        raise InvalidInputError("format", "is swiss, round_robin or elimination")
    if knockout_players is not None and knockout_players not in KNOCKOUT_CHOICES:
        raise InvalidInputError("knockout_players", "is 0 or 4")
    if round_robin_cycles is not None and round_robin_cycles not in ROUND_ROBIN_CYCLES:
        raise InvalidInputError("round_robin_cycles", "is 1 or 2")
    if seeding is not None and seeding not in ("lot", "ranking"):
        raise InvalidInputError("seeding", "is lot or ranking")
    if consolation is not None and consolation not in CONSOLATIONS:
        raise InvalidInputError("consolation", "is none, first_round or progressive")
    settings = {
        "consolation_match_length": consolation_match_length,
        "consolation_pot_percent": consolation_pot_percent,
        "consolation_payout_percent": consolation_payout_percent,
    }
    if format != "elimination":
        for field, value in {"consolation": consolation, **settings}.items():
            if value is not None:
                raise InvalidInputError(field, "applies to the elimination format only")
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
    if format == "elimination":
        return _elimination_terms(
            capacity=capacity,
            knockout_players=knockout_players,
            round_robin_cycles=round_robin_cycles,
            seeding=seeding,
            consolation=consolation,
            consolation_match_length=consolation_match_length,
            consolation_pot_percent=consolation_pot_percent,
            consolation_payout_percent=consolation_payout_percent,
        )
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


def _elimination_terms(
    *,
    capacity: int | None,
    knockout_players: int | None,
    round_robin_cycles: int | None,
    seeding: str | None,
    consolation: str | None,
    consolation_match_length: int | None,
    consolation_pot_percent: int | None,
    consolation_payout_percent: Sequence[int] | None,
) -> FormatTerms:
    """rules T-FMT-12..14 and API.md "Formats": an elimination's settings and their 422s."""
    if knockout_players is not None:
        raise InvalidInputError("knockout_players", "does not apply to the elimination format")
    if round_robin_cycles is not None:
        raise InvalidInputError("round_robin_cycles", "applies to a round robin only")
    chosen: Consolation = "first_round"
    for value in CONSOLATIONS:
        if consolation == value:
            chosen = value
    seats = DEFAULT_CAPACITY if capacity is None else capacity
    if chosen == "none":
        for field, given in (
            ("consolation_match_length", consolation_match_length),
            ("consolation_pot_percent", consolation_pot_percent),
            ("consolation_payout_percent", consolation_payout_percent),
        ):
            if given is not None:
                raise InvalidInputError(field, "does not apply without a consolation")
    if chosen == "progressive" and seats < MIN_PROGRESSIVE_PLAYERS:
        raise InvalidInputError(
            "consolation", "a progressive consolation needs at least 9 players: use first_round"
        )
    if consolation_match_length is not None and not 1 <= consolation_match_length <= 64:
        raise InvalidInputError("consolation_match_length", "is 1..64")
    if consolation_pot_percent is not None and not 0 <= consolation_pot_percent <= 50:
        raise InvalidInputError("consolation_pot_percent", "is 0..50")
    shares = tuple(consolation_payout_percent or DEFAULT_CONSOLATION_PAYOUT_PERCENT)
    if not 1 <= len(shares) <= 2 or min(shares) <= 0 or sum(shares) != 100:
        raise InvalidInputError(
            "consolation_payout_percent", "is one or two positive shares adding up to 100"
        )
    return FormatTerms(
        format="elimination",
        knockout_players=0,
        round_robin_cycles=1,
        seeding="ranking" if seeding == "ranking" else "lot",
        swiss_rounds=0,
        capacity=seats,
        consolation=chosen,
        consolation_match_length=consolation_match_length or 0,
        consolation_pot_percent=(
            DEFAULT_CONSOLATION_POT_PERCENT
            if consolation_pot_percent is None
            else consolation_pot_percent
        ),
        consolation_payout_percent=shares,
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
) -> dict[str, object]:
    """The start event's numbers, by the tournament's ``seeding``: a round robin's Berger
    numbers (rule T-FMT-11), an elimination's bracket seeds and the consolation its field
    plays (rules T-FMT-12, T-FMT-13); none in the Swiss format."""
    if state.format == "swiss":
        return {}
    numbers = berger_numbers(field, lot_seed, season_ranks if state.seeding == "ranking" else None)
    if state.format == "round_robin":
        return {"berger_numbers": numbers}
    # the consolation's settings are copied into the start, like the other rules
    return {
        "bracket_seeds": numbers,
        "consolation_played": consolation_played(len(field), state.consolation),
        "consolation": state.consolation,
        **{setting: getattr(state, setting) for setting in CONSOLATION_SETTINGS},
    }


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
    """API "Formats": a round robin's schedule and an elimination's brackets are fixed at the
    start, so pairing overrides and late entries are refused."""
    if state.format != "swiss":
        raise FormatFixedScheduleError(
            f"{what} is refused: a {state.format.replace('_', ' ')} plays a schedule fixed at "
            "the start (rules T-FMT-11, T-FMT-12)"
        )


def require_late_entry_open(state: Tournament) -> None:
    """A registration made after the start can still join the field: the schedule is open
    (Swiss) and a Swiss round is left to pair. Its check-in and its admission both ask, so no
    buy-in is taken for a seat that cannot exist (rule T-BUYIN-1)."""
    require_open_schedule(state, "a late entry")
    swiss_paired = sum(1 for paired in state.rounds if paired.stage == "swiss")
    if swiss_paired >= state.swiss_rounds:
        # a late entry plays Swiss rounds; one who could play none would only enter the
        # standings on missed rounds, and perhaps the knockout without a match (T-FMT-4)
        raise TournamentStateError("the last Swiss round is paired: no more late entries")
