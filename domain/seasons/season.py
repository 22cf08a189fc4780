"""The season aggregate: the club's calendar of named periods that hold its tournaments (CAL-1)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Literal, NamedTuple, cast, get_args
from uuid import UUID

import msgspec

from domain.calendar import parse_date
from domain.errors import ConflictError, InvalidInputError, NotFoundError
from domain.events import Aggregate, DomainEvent, EventBatch, open_state
from domain.seasons.options import DEFAULT_OPTIONS, EventsTiebreak, SeasonOptions
from domain.text import one_line, visible_name

PeriodKind = Literal["tournament", "break"]
PERIOD_KINDS: tuple[str, ...] = get_args(PeriodKind)


class SeasonNotFoundError(NotFoundError):
    """No season has this id."""


class SeasonCreated(DomainEvent, frozen=True, kw_only=True):
    name: str
    starts_on: date
    ends_on: date
    # The season's ranking options (rule R-OPT-1), copied here once: its rules snapshot. No
    # event changes them, so no ranking is ever recomputed under other rules (older events
    # carry none: the defaults, R-TIE-1 as it always was).
    drop_worst: int | None = None
    events_tiebreak: EventsTiebreak = "fewer"
    best_place_tiebreak: bool = False

    @property
    def options(self) -> SeasonOptions:
        return SeasonOptions(
            drop_worst=self.drop_worst,
            events_tiebreak=self.events_tiebreak,
            best_place_tiebreak=self.best_place_tiebreak,
        )


class CalendarPeriodAdded(DomainEvent, frozen=True, kw_only=True):
    """A named period of the club's calendar: tournaments are played in it, or it is a break."""

    name: str
    kind: PeriodKind
    starts_on: date
    ends_on: date


class PlayerBanned(DomainEvent, frozen=True, kw_only=True):
    """A repeat offender is banned from the season's further tournaments (rules C-EXCL-1,
    R-ATT-2); ``revoke_points`` takes all their season points."""

    player_id: UUID
    reason: str
    revoke_points: bool = True


class CalendarPeriod(msgspec.Struct, frozen=True, kw_only=True):
    """Frühlingsturnier, Sommerpause (a break), Herbstturnier, Winterturnier (seed 000)."""

    name: str
    kind: PeriodKind
    starts_on: date
    ends_on: date

    def contains(self, day: date) -> bool:
        return self.starts_on <= day <= self.ends_on


class Season(Aggregate, frozen=True, kw_only=True):
    """A season and its calendar periods, in date order."""

    name: str
    starts_on: date
    ends_on: date
    periods: tuple[CalendarPeriod, ...] = ()
    banned: frozenset[UUID] = frozenset()
    options: SeasonOptions = DEFAULT_OPTIONS
    """How the season ranks (rule R-OPT-1), fixed at its creation."""

    def period_of(self, day: date) -> CalendarPeriod | None:
        return next((period for period in self.periods if period.contains(day)), None)


class PeriodInput(NamedTuple):
    """A calendar period as the director enters it (dates as text, validated here)."""

    name: str
    kind: str
    starts_on: str
    ends_on: str


SeasonEvent = SeasonCreated | CalendarPeriodAdded | PlayerBanned


def evolve(state: Season | None, event: SeasonEvent) -> Season:
    """The one place where season events apply.

    A stream that does not start with ``SeasonCreated`` is not a season (e.g. a tournament's
    id): not found. Any other event on an existing season is a programming error.
    """
    if isinstance(event, SeasonCreated):
        return open_state(event, Season, options=event.options)
    if state is None:
        raise SeasonNotFoundError(f"no season with id {event.originator_id}")
    if isinstance(event, CalendarPeriodAdded):
        period = CalendarPeriod(
            name=event.name, kind=event.kind, starts_on=event.starts_on, ends_on=event.ends_on
        )
        periods = tuple(sorted((*state.periods, period), key=lambda p: p.starts_on))
        return msgspec.structs.replace(state, version=event.originator_version, periods=periods)
    if isinstance(event, PlayerBanned):
        return msgspec.structs.replace(
            state, version=event.originator_version, banned=state.banned | {event.player_id}
        )
    raise TypeError(f"not a season event: {type(event).__name__}")


def create_season(
    season_id: UUID,
    *,
    name: str,
    starts_on: str,
    ends_on: str,
    periods: Sequence[PeriodInput] = (),
    options: SeasonOptions = DEFAULT_OPTIONS,
    now: datetime,
    actor: str,
) -> list[SeasonEvent]:
    """A new season, optionally with its calendar periods (rules CAL-1, CAL-2) and its
    ranking options (rule R-OPT-1: fixed from here on; build them with ``season_options``)."""
    name = visible_name("name", name)
    first = parse_date("starts_on", starts_on)
    last = parse_date("ends_on", ends_on)
    if last < first:
        raise InvalidInputError("ends_on", f"the season ends ({last}) before it starts ({first})")
    batch = EventBatch[SeasonEvent](season_id, 0, now, actor)
    created = batch.add(
        SeasonCreated,
        name=name,
        starts_on=first,
        ends_on=last,
        drop_worst=options.drop_worst,
        events_tiebreak=options.events_tiebreak,
        best_place_tiebreak=options.best_place_tiebreak,
    )
    state = evolve(None, created)
    for index, period in enumerate(periods):
        state = evolve(state, _add_period(batch, state, period, f"periods[{index}]."))
    return batch.events


def add_period(
    state: Season, period: PeriodInput, *, now: datetime, actor: str
) -> list[SeasonEvent]:
    """One more period of the club's calendar (e.g. the winter crossing the year end)."""
    batch = EventBatch[SeasonEvent].after(state, now, actor)
    _add_period(batch, state, period, "")
    return batch.events


def _add_period(
    batch: EventBatch[SeasonEvent], state: Season, period: PeriodInput, prefix: str
) -> SeasonEvent:
    """Decide one period of ``state`` and add it to ``batch`` (the batch follows ``state``)."""
    name = visible_name(prefix + "name", period.name)
    kind = _kind(prefix + "kind", period.kind)
    # rule CAL-2: the club's own calendar says "31.11.26"; such a date is refused.
    first = parse_date(prefix + "starts_on", period.starts_on)
    last = parse_date(prefix + "ends_on", period.ends_on)
    if last < first:
        raise InvalidInputError(
            prefix + "ends_on", f"the period ends ({last}) before it starts ({first})"
        )
    if first < state.starts_on or last > state.ends_on:
        raise InvalidInputError(
            prefix + ("starts_on" if first < state.starts_on else "ends_on"),
            f"the period {first}..{last} lies outside the season "
            f"{state.starts_on}..{state.ends_on}",
        )
    for other in state.periods:
        if other.name.casefold() == name.casefold():
            raise InvalidInputError(prefix + "name", f"the season already has a period {name!r}")
        if first <= other.ends_on and other.starts_on <= last:
            raise InvalidInputError(
                prefix + "starts_on",
                f"the period {first}..{last} overlaps {other.name!r} "
                f"({other.starts_on}..{other.ends_on})",
            )
    return batch.add(CalendarPeriodAdded, name=name, kind=kind, starts_on=first, ends_on=last)


def ban(
    state: Season,
    *,
    player_id: UUID,
    reason: str,
    revoke_points: bool,
    now: datetime,
    actor: str,
) -> list[SeasonEvent]:
    """rule C-EXCL-1: the director bans a repeat offender from the season's tournaments."""
    if player_id in state.banned:
        raise SeasonStateError("the player is banned from this season already")
    batch = EventBatch[SeasonEvent].after(state, now, actor)
    batch.add(
        PlayerBanned,
        player_id=player_id,
        reason=one_line("reason", reason, 500),
        revoke_points=revoke_points,
    )
    return batch.events


class SeasonStateError(ConflictError):
    """A command the season's state does not allow."""

    type_slug = "season-state"


def check_play_date(state: Season, day: date, field: str) -> CalendarPeriod | None:
    """The period a tournament on ``day`` belongs to; refuses days outside play periods (CAL-1)."""
    if not state.starts_on <= day <= state.ends_on:
        raise InvalidInputError(
            field,
            f"{day} lies outside the season {state.name!r} ({state.starts_on}..{state.ends_on})",
        )
    if not state.periods:
        return None
    period = state.period_of(day)
    if period is None:
        raise InvalidInputError(
            field, f"{day} lies in no period of the calendar of season {state.name!r}"
        )
    if period.kind == "break":
        raise InvalidInputError(
            field, f"{day} lies in {period.name!r} ({period.starts_on}..{period.ends_on}): a break"
        )
    return period


def _kind(field: str, text: str) -> PeriodKind:
    if text not in PERIOD_KINDS:
        raise InvalidInputError(field, f"{text!r} is not a period kind; use one of {PERIOD_KINDS}")
    return cast(PeriodKind, text)
