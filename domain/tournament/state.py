"""The tournament's state as of its latest event, and the one function that applies events."""

from __future__ import annotations

from datetime import date, datetime
from functools import cache
from uuid import UUID
from zoneinfo import ZoneInfo

import msgspec

from domain.calendar import local_isoformat
from domain.events import Aggregate
from domain.tournament.defaults import (
    SEAT_HOLDING,
    WAITING,
    RegistrationStatus,
    TournamentStatus,
)
from domain.tournament.errors import RegistrationNotFoundError, TournamentNotFoundError
from domain.tournament.events import (
    LateWithdrawalRecorded,
    NoShowReleased,
    PlayerCheckedIn,
    PlayerRegistered,
    RegistrationCancelled,
    RegistrationWaitlisted,
    StandbyCheckedIn,
    StandbyNotSeated,
    TournamentCompleted,
    TournamentEvent,
    TournamentScheduled,
    TournamentStarted,
    WaitlistPromoted,
    status_after,
)


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


@cache
def _zone(key: str) -> ZoneInfo:
    return ZoneInfo(key)
