"""The tournament aggregate: schedule, seats, waitlist, cancellation, check-in and start."""

# Rules T-SEAT-1, T-REG-1..3, T-CANCEL-1, T-CHECKIN-1..2, T-BUYIN-1 (DOMAIN.md section 2).

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date, datetime
from functools import cache
from typing import Literal, assert_never
from uuid import UUID
from zoneinfo import ZoneInfo

import msgspec

from domain.backgammon.match_id import MAX_MATCH_LENGTH
from domain.calendar import (
    DeadlinePolicy,
    age_on,
    compute_deadlines,
    local_isoformat,
    parse_birth_date,
    parse_date,
)
from domain.errors import ConflictError, ForbiddenError, InvalidInputError, NotFoundError
from domain.events import Aggregate, DomainEvent, EventBatch
from domain.season import Season, check_play_date
from domain.text import one_line
from domain.tokens import token_matches

RegistrationStatus = Literal[
    "registered", "waitlisted", "standby", "checked_in", "cancelled", "withdrawn", "no_show"
]
"""``standby``: waitlisted and checked in on site, ready to take a seat freed at the start."""
TournamentStatus = Literal["open", "cancellation_closed", "check_in", "running", "completed"]
SEAT_HOLDING: tuple[RegistrationStatus, ...] = ("registered", "checked_in")
WAITING: tuple[RegistrationStatus, ...] = ("waitlisted", "standby")
ACTIVE: tuple[RegistrationStatus, ...] = SEAT_HOLDING + WAITING

# The club's defaults (seed 000); every one can be set per tournament.
DEFAULT_CAPACITY = 20  # rule T-SEAT-1
DEFAULT_MIN_AGE = 18  # rule T-REG-1
DEFAULT_BUY_IN_CENTS = 100_00  # rule T-BUYIN-1: 100 EUR on site ...
DEFAULT_POT_SHARE_CENTS = 80_00  # ... of which 80 EUR go to the pot, 20 EUR to the organisation
DEFAULT_PAYOUT_PERCENT = (50, 30, 20)  # rule T-BUYIN-1: default shares of places 1-3
DEFAULT_SWISS_ROUNDS = 6  # rule T-FMT-1
DEFAULT_MATCH_LENGTH = 5
DEFAULT_CLASS = "Champions"  # rule R-CLASS-1: the ranked class
MIN_PLAYERS_TO_START = 2
MAX_PERSON_NAME_LENGTH = 100
MAX_AGE = 130
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s.]+")


class TournamentNotFoundError(NotFoundError):
    """No tournament has this id."""


class RegistrationNotFoundError(NotFoundError):
    """The tournament has no registration with this id."""


class UnderAgeError(InvalidInputError):
    """Younger than the tournament's minimum age on the play date (rule T-REG-1)."""

    type_slug = "under-age"


class DuplicateRegistrationError(ConflictError):
    """The same person is already registered or waitlisted (rule T-REG-2)."""

    type_slug = "duplicate-registration"


class TournamentFullError(ConflictError):
    """All seats are taken and the tournament keeps no waitlist (rule T-REG-3)."""

    type_slug = "tournament-full"


class RegistrationClosedError(ConflictError):
    """The tournament has started (or its start time has passed): no more registrations."""

    type_slug = "registration-closed"


class CancellationClosedError(ConflictError):
    """The cancellation deadline has passed (rule T-CANCEL-1)."""

    type_slug = "cancellation-closed"


class CheckInClosedError(ConflictError):
    """Check-in is possible only from its opening on the play date until the start."""

    type_slug = "check-in-closed"


class TournamentStateError(ConflictError):
    """A command the tournament's or the registration's current state does not allow."""

    type_slug = "tournament-state"


class NotYourRegistrationError(ForbiddenError):
    """The player token does not belong to this registration."""


class TournamentPlan(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament as the director enters it: text and numbers, validated by scheduling."""

    name: str
    date: str
    venue: str
    capacity: int = DEFAULT_CAPACITY
    min_age: int = DEFAULT_MIN_AGE
    buy_in_cents: int = DEFAULT_BUY_IN_CENTS
    pot_share_cents: int = DEFAULT_POT_SHARE_CENTS
    waitlist: bool = True
    swiss_rounds: int = DEFAULT_SWISS_ROUNDS
    match_length: int = DEFAULT_MATCH_LENGTH
    class_name: str = DEFAULT_CLASS
    payout_percent: tuple[int, ...] = DEFAULT_PAYOUT_PERCENT


# Events ------------------------------------------------------------------------------------


class TournamentScheduled(DomainEvent, frozen=True, kw_only=True):
    """The director put a tournament on the calendar; deadlines are UTC instants (CAL-3)."""

    season_id: UUID | None = None
    period: str | None = None
    name: str
    play_date: date
    venue: str
    capacity: int
    min_age: int
    buy_in_cents: int
    pot_share_cents: int
    waitlist: bool = True
    swiss_rounds: int
    match_length: int
    class_name: str
    payout_percent: tuple[int, ...] = DEFAULT_PAYOUT_PERCENT
    time_zone: str
    cancellation_until: datetime
    check_in_opens: datetime
    starts_at: datetime


class RegistrationFacts(DomainEvent, frozen=True, kw_only=True):
    """What a registration records: the person's data and the hash of their player token."""

    registration_id: UUID
    player_id: UUID
    first_name: str
    last_name: str
    email: str
    age: int | None = None
    birth_date: date | None = None
    token_hash: str
    """SHA-256 (hex) of the player token; the token itself is never stored."""


class PlayerRegistered(RegistrationFacts, frozen=True, kw_only=True):
    """The person got a seat."""


class RegistrationWaitlisted(RegistrationFacts, frozen=True, kw_only=True):
    """All seats were taken: the person waits for one (rule T-REG-3)."""


class RegistrationCancelled(DomainEvent, frozen=True, kw_only=True):
    """The registration was cancelled in time (or taken off the waitlist)."""

    registration_id: UUID
    refund_cents: int = 0
    """The buy-in a standby paid on site, to be handed back."""


class WaitlistPromoted(DomainEvent, frozen=True, kw_only=True):
    """A freed seat went to the first person on the waitlist (rule T-REG-3)."""

    registration_id: UUID
    checked_in: bool = False
    """A standby, already checked in on site, takes the seat as a checked-in player."""


class LateWithdrawalRecorded(DomainEvent, frozen=True, kw_only=True):
    """The director withdrew a seat holder after the cancellation deadline (rule T-CANCEL-1)."""

    registration_id: UUID
    reason: str = ""


class PlayerCheckedIn(DomainEvent, frozen=True, kw_only=True):
    """On site: a valid ID document was seen and the buy-in paid (rules T-CHECKIN-1, T-BUYIN-1)."""

    registration_id: UUID
    id_document_seen: bool
    buy_in_paid_cents: int


class StandbyCheckedIn(DomainEvent, frozen=True, kw_only=True):
    """A waitlisted person checked in on site as a standby: ID seen, buy-in paid (T-CHECKIN-1).

    A seat released at the start goes to the standbys in waitlist order (T-CHECKIN-2, T-REG-3).
    """

    registration_id: UUID
    id_document_seen: bool
    buy_in_paid_cents: int


class StandbyNotSeated(DomainEvent, frozen=True, kw_only=True):
    """At the start no seat was left for a standby: still waitlisted, the buy-in is refunded."""

    registration_id: UUID
    refund_cents: int


class NoShowReleased(DomainEvent, frozen=True, kw_only=True):
    """At the start, a registered player had not checked in: the seat is released (T-CHECKIN-2)."""

    registration_id: UUID


class TournamentStarted(DomainEvent, frozen=True, kw_only=True):
    """Play began with the checked-in players; the pot is fixed (rule T-BUYIN-1)."""

    players: int
    """Checked-in seat holders, standbys promoted at the start included."""
    pot_cents: int


class TournamentCompleted(DomainEvent, frozen=True, kw_only=True):
    """The last match of the tournament is decided."""


RegistrationChange = (
    RegistrationCancelled
    | WaitlistPromoted
    | LateWithdrawalRecorded
    | PlayerCheckedIn
    | StandbyCheckedIn
    | StandbyNotSeated
    | NoShowReleased
)
"""The events that move an existing registration to another status."""
RegistrationEvent = PlayerRegistered | RegistrationWaitlisted | RegistrationChange
TournamentEvent = TournamentScheduled | RegistrationEvent | TournamentStarted | TournamentCompleted


def status_after(event: RegistrationEvent) -> RegistrationStatus:
    """The status of the event's registration once the event applies (the aggregate and the
    read models all follow this one mapping)."""
    match event:
        case PlayerRegistered():
            return "registered"
        case RegistrationWaitlisted() | StandbyNotSeated():
            return "waitlisted"
        case RegistrationCancelled():
            return "cancelled"
        case WaitlistPromoted():
            # a standby, already checked in on site, takes the seat as a checked-in player
            return "checked_in" if event.checked_in else "registered"
        case LateWithdrawalRecorded():
            return "withdrawn"
        case PlayerCheckedIn():
            return "checked_in"
        case StandbyCheckedIn():
            return "standby"
        case NoShowReleased():
            return "no_show"
    assert_never(event)


# State -------------------------------------------------------------------------------------


class Registration(msgspec.Struct, frozen=True, kw_only=True):
    """One registration as the aggregate needs it for decisions (personal data stays in events)."""

    id: UUID
    player_id: UUID
    status: RegistrationStatus
    token_hash: str
    sequence: int
    """The aggregate version that recorded it: the order of arrival, also on the waitlist."""


class Tournament(Aggregate, frozen=True, kw_only=True):
    """A tournament's terms, deadlines and registrations as of its latest event."""

    play_date: date
    capacity: int
    min_age: int
    buy_in_cents: int
    pot_share_cents: int
    waitlist: bool
    time_zone: str
    cancellation_until: datetime
    check_in_opens: datetime
    starts_at: datetime
    registrations: tuple[Registration, ...] = ()
    started_at: datetime | None = None
    completed_at: datetime | None = None
    players: int = 0
    pot_cents: int = 0

    def registration(self, registration_id: UUID) -> Registration:
        for registration in self.registrations:
            if registration.id == registration_id:
                return registration
        raise RegistrationNotFoundError(
            f"tournament {self.id} has no registration {registration_id}"
        )

    def with_status(self, *statuses: RegistrationStatus) -> list[Registration]:
        """Registrations in any of ``statuses``, in the order of arrival."""
        return [r for r in self.registrations if r.status in statuses]

    def waiting(self) -> list[Registration]:
        """The waitlist in its order, standbys (checked in on site) included (rule T-REG-3)."""
        return self.with_status(*WAITING)

    @property
    def seats_taken(self) -> int:
        """rule T-SEAT-1: registered and checked-in players hold seats."""
        return sum(1 for r in self.registrations if r.status in SEAT_HOLDING)

    def status(self, now: datetime) -> TournamentStatus:
        return tournament_status(
            now,
            cancellation_until=self.cancellation_until,
            check_in_opens=self.check_in_opens,
            started=self.started_at is not None,
            completed=self.completed_at is not None,
        )

    def local(self, instant: datetime) -> str:
        """An instant in the club's time zone, as problem details and messages show it."""
        return local_isoformat(instant, _zone(self.time_zone))


def tournament_status(
    now: datetime,
    *,
    cancellation_until: datetime,
    check_in_opens: datetime,
    started: bool,
    completed: bool,
) -> TournamentStatus:
    """Derived from events and the clock: open -> cancellation_closed -> check_in -> running."""
    if completed:
        return "completed"
    if started:
        return "running"
    if now >= check_in_opens:
        return "check_in"
    if now > cancellation_until:
        return "cancellation_closed"
    return "open"


def evolve(state: Tournament | None, event: TournamentEvent) -> Tournament:
    """The one place where tournament events apply."""
    if isinstance(event, TournamentScheduled):
        return Tournament(
            id=event.originator_id,
            version=event.originator_version,
            play_date=event.play_date,
            capacity=event.capacity,
            min_age=event.min_age,
            buy_in_cents=event.buy_in_cents,
            pot_share_cents=event.pot_share_cents,
            waitlist=event.waitlist,
            time_zone=event.time_zone,
            cancellation_until=event.cancellation_until,
            check_in_opens=event.check_in_opens,
            starts_at=event.starts_at,
        )
    if not isinstance(state, Tournament):
        raise TournamentNotFoundError(f"no tournament with id {event.originator_id}")
    version = event.originator_version
    match event:
        case PlayerRegistered() | RegistrationWaitlisted():
            registration = Registration(
                id=event.registration_id,
                player_id=event.player_id,
                status=status_after(event),
                token_hash=event.token_hash,
                sequence=version,
            )
            return msgspec.structs.replace(
                state, version=version, registrations=(*state.registrations, registration)
            )
        case (
            RegistrationCancelled()
            | WaitlistPromoted()
            | LateWithdrawalRecorded()
            | PlayerCheckedIn()
            | StandbyCheckedIn()
            | StandbyNotSeated()
            | NoShowReleased()
        ):
            return _set_status(state, version, event.registration_id, status_after(event))
        case TournamentStarted():
            return msgspec.structs.replace(
                state,
                version=version,
                started_at=event.timestamp,
                players=event.players,
                pot_cents=event.pot_cents,
            )
        case TournamentCompleted():
            return msgspec.structs.replace(state, version=version, completed_at=event.timestamp)
    raise TypeError(f"not a tournament event: {type(event).__name__}")


def _set_status(
    state: Tournament, version: int, registration_id: UUID, status: RegistrationStatus
) -> Tournament:
    registrations = tuple(
        msgspec.structs.replace(r, status=status) if r.id == registration_id else r
        for r in state.registrations
    )
    return msgspec.structs.replace(state, version=version, registrations=registrations)


# Commands ----------------------------------------------------------------------------------


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
    name = one_line("name", plan.name)
    venue = one_line("venue", plan.venue)
    class_name = one_line("class", plan.class_name, MAX_PERSON_NAME_LENGTH)
    play_date = parse_date("date", plan.date)  # rule CAL-2
    period = check_play_date(season, play_date, "date") if season else None
    _check_range("capacity", plan.capacity, MIN_PLAYERS_TO_START, 1000)
    _check_range("min_age", plan.min_age, 0, MAX_AGE)
    _check_range("buy_in_cents", plan.buy_in_cents, 0, 100_000_00)
    _check_range("pot_share_cents", plan.pot_share_cents, 0, plan.buy_in_cents)
    _check_range("swiss_rounds", plan.swiss_rounds, 1, 20)
    _check_range("match_length", plan.match_length, 1, MAX_MATCH_LENGTH)
    _check_payout(plan.payout_percent)
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
        capacity=plan.capacity,
        min_age=plan.min_age,
        buy_in_cents=plan.buy_in_cents,
        pot_share_cents=plan.pot_share_cents,
        waitlist=plan.waitlist,
        swiss_rounds=plan.swiss_rounds,
        match_length=plan.match_length,
        class_name=class_name,
        payout_percent=tuple(plan.payout_percent),
        time_zone=zone.key,
        cancellation_until=deadlines.cancellation_until,
        check_in_opens=deadlines.check_in_opens,
        starts_at=deadlines.starts_at,
    )
    return batch.events


def register(
    state: Tournament,
    *,
    registration_id: UUID,
    player_id: UUID,
    first_name: str,
    last_name: str,
    email: str,
    age: int | None,
    birth_date: str | None,
    token_hash: str,
    now: datetime,
    actor: str = "public",
) -> list[TournamentEvent]:
    """A seat while one is free, else a place on the waitlist (rules T-REG-1..3, T-SEAT-1).

    ``player_id`` identifies the person (the service derives it from the e-mail address with a
    server key, so that it is stable across tournaments but not computable by others).
    The seat count is decided here, on the aggregate's own version: two registrations decided
    on the same version cannot both be stored, so the capacity can never be exceeded.
    """
    first = one_line("first_name", first_name, MAX_PERSON_NAME_LENGTH)
    last = one_line("last_name", last_name, MAX_PERSON_NAME_LENGTH)
    address = _email(email)
    born = _check_age(state, age, birth_date, now)
    if state.started_at is not None or now >= state.starts_at:
        raise RegistrationClosedError(
            f"registration closed when the tournament started ({state.local(state.starts_at)})",
            starts_at=state.local(state.starts_at),
        )
    # rule T-REG-2: one active registration per person (the player id identifies them).
    if any(r.player_id == player_id and r.status in ACTIVE for r in state.registrations):
        raise DuplicateRegistrationError(
            f"{address} is already registered for this tournament", field="email"
        )
    has_seat = state.seats_taken < state.capacity
    if not has_seat and not state.waitlist:
        raise TournamentFullError(f"all {state.capacity} seats are taken", capacity=state.capacity)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        PlayerRegistered if has_seat else RegistrationWaitlisted,
        registration_id=registration_id,
        player_id=player_id,
        first_name=first,
        last_name=last,
        email=address,
        age=age,
        birth_date=born,
        token_hash=token_hash,
    )
    return batch.events


def cancel_registration(
    state: Tournament,
    registration_id: UUID,
    *,
    by_director: bool,
    player_token: str | None,
    now: datetime,
    actor: str,
    reason: str = "",
) -> list[TournamentEvent]:
    """Cancel (Abmeldung) until the deadline; afterwards only the director, as a late withdrawal.

    rule T-CANCEL-1: players may cancel a seat until the Thursday before, 18:00 local time;
    the waitlist holds no seat, so leaving it is possible until the start.
    rule T-FMT-5: until the start the director may also withdraw a checked-in player, so that
    the pot and round 1 count only who plays.
    rule T-REG-3: a freed seat goes to the first person on the waitlist.
    """
    registration = state.registration(registration_id)
    if not by_director and not (
        player_token and token_matches(player_token, registration.token_hash)
    ):
        raise NotYourRegistrationError("this player token does not belong to the registration")
    if state.started_at is not None:
        raise TournamentStateError(
            "the tournament is running: record a withdrawal instead of a cancellation"
        )
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    if registration.status in WAITING:
        batch.add(
            RegistrationCancelled,
            registration_id=registration_id,
            refund_cents=state.buy_in_cents if registration.status == "standby" else 0,
        )
        return batch.events
    if registration.status not in SEAT_HOLDING:
        raise TournamentStateError(
            f"the registration is {registration.status.replace('_', ' ')}",
            registration_status=registration.status,
        )
    late = now > state.cancellation_until or registration.status == "checked_in"
    if late and not by_director:
        until = state.local(state.cancellation_until)
        raise CancellationClosedError(
            f"cancellation was possible until {until}; ask the tournament director",
            cancellation_until=until,
        )
    if late:
        batch.add(LateWithdrawalRecorded, registration_id=registration_id, reason=reason)
    else:
        batch.add(RegistrationCancelled, registration_id=registration_id)
    if waiting := state.waiting():
        batch.add(
            WaitlistPromoted,
            registration_id=waiting[0].id,
            checked_in=waiting[0].status == "standby",
        )
    return batch.events


def check_in(
    state: Tournament,
    registration_id: UUID,
    *,
    id_document_seen: bool,
    buy_in_paid_cents: int,
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """rule T-CHECKIN-1: on site from the opening time, ID document seen, buy-in paid.

    A registered player checks in for their seat; a waitlisted person as a standby.
    """
    if id_document_seen is not True:
        raise InvalidInputError("id_document_seen", "a valid ID document must be seen")
    if buy_in_paid_cents != state.buy_in_cents:
        raise InvalidInputError(
            "buy_in_paid_cents",
            f"the buy-in is {state.buy_in_cents} cents, not {buy_in_paid_cents}",
            buy_in_cents=state.buy_in_cents,
        )
    registration = state.registration(registration_id)
    if state.started_at is not None:
        raise CheckInClosedError("check-in closed when the tournament started")
    if now < state.check_in_opens:
        opens = state.local(state.check_in_opens)
        raise CheckInClosedError(f"check-in opens at {opens}", check_in_opens=opens)
    if registration.status not in ("registered", "waitlisted"):
        raise TournamentStateError(
            f"only a registered or waitlisted person can check in; this one is "
            f"{registration.status.replace('_', ' ')}",
            registration_status=registration.status,
        )
    # rule T-CHECKIN-2: a waitlisted person on site checks in as a standby for a released seat
    recorded = PlayerCheckedIn if registration.status == "registered" else StandbyCheckedIn
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        recorded,
        registration_id=registration_id,
        id_document_seen=True,
        buy_in_paid_cents=buy_in_paid_cents,
    )
    return batch.events


def start(state: Tournament, *, now: datetime, actor: str) -> list[TournamentEvent]:
    """Begin play with the checked-in players; the pot is fixed (rule T-BUYIN-1).

    rule T-CHECKIN-2: registered players who did not check in are no-shows, their seats are
    released; rule T-REG-3: released seats go to the standbys (waitlisted, checked in on site)
    in waitlist order. Standbys left without a seat stay waitlisted and get the buy-in back.
    """
    if state.started_at is not None:
        raise TournamentStateError("the tournament has already started")
    if now < state.check_in_opens:
        opens = state.local(state.check_in_opens)
        raise TournamentStateError(
            f"the tournament can start once check-in has opened ({opens})", check_in_opens=opens
        )
    checked_in = len(state.with_status("checked_in"))
    standbys = state.with_status("standby")
    seated = standbys[: state.capacity - checked_in]
    players = checked_in + len(seated)
    if players < MIN_PLAYERS_TO_START:
        raise TournamentStateError(
            f"{players} player(s) checked in; at least {MIN_PLAYERS_TO_START} are needed",
            checked_in=players,
        )
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    for registration in state.with_status("registered"):
        batch.add(NoShowReleased, registration_id=registration.id)
    for registration in seated:
        batch.add(WaitlistPromoted, registration_id=registration.id, checked_in=True)
    for registration in standbys[len(seated) :]:
        batch.add(
            StandbyNotSeated, registration_id=registration.id, refund_cents=state.buy_in_cents
        )
    batch.add(TournamentStarted, players=players, pot_cents=players * state.pot_share_cents)
    return batch.events


# Helpers -----------------------------------------------------------------------------------


def display_name(first_name: str, last_name: str) -> str:
    """The public form of a name: "Anna M." (no further personal data in public lists)."""
    return f"{first_name} {last_name[:1]}." if last_name else first_name


def _check_age(
    state: Tournament, age: int | None, birth_date: str | None, now: datetime
) -> date | None:
    """rule T-REG-1: age (or birth date) is required; at least ``min_age`` on the play date."""
    if age is None and birth_date is None:
        raise InvalidInputError("age", "give age or birth_date")
    if age is not None and not 0 <= age <= MAX_AGE:
        raise InvalidInputError("age", f"must be between 0 and {MAX_AGE}")
    born = (
        parse_birth_date("birth_date", birth_date, state.play_date)
        if birth_date is not None
        else None
    )
    if born is not None:
        if born > now.date():
            raise InvalidInputError("birth_date", f"{born} lies in the future")
        age_at_play = age_on(born, state.play_date)
        if age_at_play > MAX_AGE:
            raise InvalidInputError("birth_date", f"{born} is not plausible")
        # a stated age must agree with the birth date, today or on the play date
        if age is not None and age not in (age_on(born, now.date()), age_at_play):
            raise InvalidInputError(
                "age", f"does not match birth_date {born} ({age_at_play} on the play date)"
            )
        if age_at_play < state.min_age:
            raise UnderAgeError(
                "birth_date",
                f"participants must be at least {state.min_age} on {state.play_date}",
                min_age=state.min_age,
            )
    elif age is not None and age < state.min_age:
        raise UnderAgeError(
            "age",
            f"participants must be at least {state.min_age} on {state.play_date}; "
            f"if you turn {state.min_age} by then, give birth_date instead",
            min_age=state.min_age,
        )
    return born


def _email(text: str) -> str:
    address = text.strip()
    if len(address) > 254 or not _EMAIL.fullmatch(address):
        raise InvalidInputError("email", f"{text!r} is not an e-mail address")
    return address


def _check_range(field: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise InvalidInputError(field, f"must be between {low} and {high}, not {value}")


def _check_payout(percent: Sequence[int]) -> None:
    """rule T-BUYIN-1: shares of the pot for places 1, 2, 3, ... adding up to 100."""
    if not percent or any(share <= 0 for share in percent):
        raise InvalidInputError("payout_percent", "give positive shares, e.g. [50, 30, 20]")
    if sum(percent) != 100:
        raise InvalidInputError("payout_percent", f"the shares add up to {sum(percent)}, not 100")


@cache
def _zone(key: str) -> ZoneInfo:
    return ZoneInfo(key)
