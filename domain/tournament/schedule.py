"""Putting a tournament on the calendar: its plan checked, its terms and deadlines recorded
(rules CAL-2, CAL-3, T-SEAT-1, T-BUYIN-1, T-FMT-8, T-FMT-10, V-MATCH-VARIANT-1)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from uuid import UUID
from zoneinfo import ZoneInfo

import msgspec

from domain.backgammon.match_id import MAX_MATCH_LENGTH
from domain.calendar import DeadlinePolicy, compute_deadlines, local_isoformat, parse_date
from domain.clock import OVERTIME_SECONDS, ClockPresetName
from domain.errors import InvalidInputError
from domain.events import EventBatch
from domain.match import DiceMode
from domain.seasons.season import Season, check_play_date
from domain.text import visible_name
from domain.tournament.defaults import (
    DEFAULT_BUY_IN_CENTS,
    DEFAULT_CLASS,
    DEFAULT_CLOCK,
    DEFAULT_DICE,
    DEFAULT_MATCH_LENGTH,
    DEFAULT_MIN_AGE,
    DEFAULT_PAYOUT_PERCENT,
    DEFAULT_POT_SHARE_CENTS,
    MAX_AGE,
    MAX_PERSON_NAME_LENGTH,
    MIN_PLAYERS_TO_START,
)
from domain.tournament.events import KnockoutLengths, TournamentEvent, TournamentScheduled
from domain.tournament.formats import FORMAT_FIELDS, format_terms
from domain.tournament.variants import variant_terms


class TournamentPlan(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as the director enters it: text and numbers, validated by scheduling."""

    name: str
    date: str
    venue: str
    capacity: int | None = None
    """Default: 20, or 12 for a round robin (rule T-FMT-11)."""
    min_age: int = DEFAULT_MIN_AGE
    buy_in_cents: int = DEFAULT_BUY_IN_CENTS
    pot_share_cents: int = DEFAULT_POT_SHARE_CENTS
    waitlist: bool = True
    waitlist_limit: int | None = None
    """Places on the waitlist; None: twice the capacity."""
    swiss_rounds: int | None = None
    """Swiss only (default 6, rule T-FMT-1)."""
    match_length: int = DEFAULT_MATCH_LENGTH
    class_name: str = DEFAULT_CLASS
    payout_percent: tuple[int, ...] = DEFAULT_PAYOUT_PERCENT
    knockout_lengths: KnockoutLengths | None = None
    """Default: every knockout stage plays ``match_length`` (rule T-FMT-8)."""
    dice: DiceMode = DEFAULT_DICE
    clock: ClockPresetName = DEFAULT_CLOCK
    clock_overtime_seconds: int = 0
    """rule G-CLOCK-1, USBGF option: one overtime of 60 or 120 s on the club clock."""
    # rule T-FMT-10: the format and its settings; None: not given (see ``format_terms``)
    format: str = "swiss"
    knockout_players: int | None = None
    round_robin_cycles: int | None = None
    seeding: str | None = None
    consolation: str | None = None
    consolation_match_length: int | None = None
    consolation_pot_percent: int | None = None
    consolation_payout_percent: tuple[int, ...] | None = None
    # rule V-MATCH-VARIANT-1: the variants (see ``variant_terms``)
    variant: str = "backgammon"
    cube: bool | None = None
    tavli_format: str | None = None
    stage_variants: dict[str, str] | None = None


def schedule_tournament(
    tournament_id: UUID,
    plan: TournamentPlan,
    *,
    season: Season | None,
    policy: DeadlinePolicy,
    zone: ZoneInfo,
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """Put a tournament on the calendar with its deadlines in the club's time zone (CAL-3)."""
    name = visible_name("name", plan.name)
    venue = visible_name("venue", plan.venue)
    class_name = visible_name("class", plan.class_name, MAX_PERSON_NAME_LENGTH)
    play_date = parse_date("date", plan.date)  # rule CAL-2
    period = check_play_date(season, play_date, "date") if season else None
    terms = format_terms(**{field: getattr(plan, field) for field in FORMAT_FIELDS})
    variants = variant_terms(
        terms,
        variant=plan.variant,
        cube=plan.cube,
        tavli_format=plan.tavli_format,
        stage_variants=plan.stage_variants,
    )
    _check_range("capacity", terms.capacity, MIN_PLAYERS_TO_START, 1000)
    _check_range("min_age", plan.min_age, 0, MAX_AGE)
    if plan.waitlist_limit is not None:
        _check_range("waitlist_limit", plan.waitlist_limit, 0, 10_000)
    _check_range("buy_in_cents", plan.buy_in_cents, 0, 100_000_00)
    _check_range("pot_share_cents", plan.pot_share_cents, 0, plan.buy_in_cents)
    if terms.format == "swiss":
        _check_range("swiss_rounds", terms.swiss_rounds, 1, 20)
    _check_range("match_length", plan.match_length, 1, MAX_MATCH_LENGTH)
    knockout = plan.knockout_lengths or KnockoutLengths(
        semi_final=plan.match_length, final=plan.match_length, third_place=plan.match_length
    )
    for stage in ("semi_final", "final", "third_place"):
        _check_range(f"match_lengths.{stage}", getattr(knockout, stage), 1, MAX_MATCH_LENGTH)
    _check_payout(plan.payout_percent)
    if plan.clock_overtime_seconds not in OVERTIME_SECONDS or (
        plan.clock_overtime_seconds and plan.clock != "club"
    ):
        raise InvalidInputError(
            "clock_overtime_seconds",
            "is 0, or 60 or 120 with the club clock (G-CLOCK-1, USBGF option)",
        )
    deadlines = compute_deadlines(play_date, zone, policy)
    if deadlines.starts_at <= now:
        raise InvalidInputError(
            "date",
            f"the tournament would start at {local_isoformat(deadlines.starts_at, zone)}, "
            "which has passed",
        )
    batch = EventBatch[TournamentEvent](tournament_id, 0, now, actor)
    batch.add(
        TournamentScheduled,
        season_id=season.id if season else None,
        period=period.name if period else None,
        name=name,
        play_date=play_date,
        venue=venue,
        capacity=terms.capacity,
        min_age=plan.min_age,
        buy_in_cents=plan.buy_in_cents,
        pot_share_cents=plan.pot_share_cents,
        waitlist=plan.waitlist,
        waitlist_limit=plan.waitlist_limit,
        swiss_rounds=terms.swiss_rounds,
        match_length=plan.match_length,
        class_name=class_name,
        payout_percent=tuple(plan.payout_percent),
        time_zone=zone.key,
        cancellation_until=deadlines.cancellation_until,
        check_in_opens=deadlines.check_in_opens,
        starts_at=deadlines.starts_at,
        knockout_lengths=knockout,
        dice=plan.dice,
        clock=plan.clock,
        clock_overtime_seconds=plan.clock_overtime_seconds,
        **terms.scheduled(),
        **msgspec.structs.asdict(variants),
    )
    return batch.events


def _check_range(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InvalidInputError(field, f"must be between {low} and {high}, not {value}")


def _check_payout(percent: Sequence[int]) -> None:
    """rule T-BUYIN-1: shares of the pot for places 1, 2, 3, ... adding up to 100."""
    if not percent or any(share <= 0 for share in percent):
        raise InvalidInputError("payout_percent", "give positive shares, e.g. [50, 30, 20]")
    if sum(percent) != 100:
        raise InvalidInputError("payout_percent", f"the shares add up to {sum(percent)}, not 100")
