"""Use cases of tournaments: schedule, register, cancel, check in; the calendar views."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, cast
from uuid import UUID
from zoneinfo import ZoneInfo

import msgspec
import sqlite_utils

from domain import tournament as tournaments
from domain.calendar import deadline_policy
from domain.events import DIRECTOR
from domain.people.tokens import token_hash
from domain.tournament import (
    Applicant,
    Tournament,
    TournamentEvent,
    TournamentNotFoundError,
    TournamentPlan,
    TournamentStatus,
)
from projections import calendar, participants, seats
from projections.calendar import TournamentRow
from projections.participants import ParticipantRow, RegistrationRow
from projections.runner import Views
from projections.seats import SeatCounts
from service.clock import Clock
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.loading import load_tournament, season_of
from service.shared.registrants import Registrants, Registration
from service.storage.events import Change, EventStore


class Deadlines(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament's deadlines in the club's time zone (rule CAL-3)."""

    cancellation_until: datetime
    check_in_opens: datetime
    starts_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament of the calendar with its status, deadlines and seats as of now."""

    row: TournamentRow
    status: TournamentStatus
    deadlines: Deadlines
    seats: SeatCounts
    started_at: datetime | None
    completed_at: datetime | None
    finalized_at: datetime | None
    """While the director's finalize stands (rule T-FMT-8): places and prizes are fixed."""
    pot_cents: int

    @property
    def id(self) -> UUID:
        return self.row.id

    @property
    def organisation_cents(self) -> int:
        return self.row.buy_in_cents - self.row.pot_share_cents


class RegistrationCancellation(msgspec.Struct, frozen=True, kw_only=True):
    registration_id: UUID
    status: Literal["cancelled", "withdrawn"]
    promoted_registration_id: UUID | None
    """The first waitlisted registration, which got the freed seat."""
    refund_cents: int
    """A standby leaving the waitlist, or a late registration checked in but never admitted,
    gets the buy-in paid at check-in back."""


class CheckInProof(msgspec.Struct, frozen=True, kw_only=True):
    """What a person shows at the desk to check in (rule T-CHECKIN-1): the command
    ``check_in`` takes."""

    id_document_seen: bool
    buy_in_paid_cents: int


class CheckIn(msgspec.Struct, frozen=True, kw_only=True):
    registration_id: UUID
    status: Literal["checked_in", "standby"]
    """``standby`` for a waitlisted person: a seat released at the start goes to them."""
    checked_in_at: datetime
    checked_in: int
    """Checked-in seat holders (standbys not counted)."""
    standbys: int
    pot_cents: int
    """``pot_share_cents`` (80 EUR by default) per checked-in seat holder (rule T-BUYIN-1)."""


class TournamentService:
    """The calendar of tournaments, registration, cancellation and check-in."""

    def __init__(
        self,
        store: EventStore,
        views: Views,
        clock: Clock,
        zone: ZoneInfo,
        *,
        commands: CommandRunner | None = None,
        registrants: Registrants | None = None,
    ) -> None:
        """``registrants`` keys player ids and tokens (the development keys when None)."""
        self._store = store
        self._views = views
        self._clock = clock
        self._zone = zone
        self._commands = commands or CommandRunner(store, clock, views)
        self._registrants = registrants or Registrants(store, views)

    # Tournaments ----------------------------------------------------------------------------

    def schedule_tournament(
        self,
        plan: TournamentPlan,
        *,
        season_id: UUID | None = None,
        cancellation_weekday: str = "thursday",
        cancellation_time: str = "18:00",
        check_in_time: str = "12:30",
        start_time: str = "13:00",
        actor: str = DIRECTOR,
    ) -> TournamentView:
        """A new tournament; without ``season_id`` it joins the season that includes its date."""
        policy = deadline_policy(
            cancellation_weekday=cancellation_weekday,
            cancellation_time=cancellation_time,
            check_in_time=check_in_time,
            start_time=start_time,
        )
        season = season_of(self._store, self._views, "season_id", season_id, plan.date)
        tournament_id = uuid.uuid4()

        self._commands.create(
            tournaments.evolve,
            lambda now: tournaments.schedule_tournament(
                tournament_id,
                plan,
                season=season,
                policy=policy,
                zone=self._zone,
                now=now,
                actor=actor,
            ),
            DECIDE_AGAIN,
        )
        return self.get_tournament(tournament_id)

    def get_tournament(self, tournament_id: UUID) -> TournamentView:
        def read(db: sqlite_utils.Database) -> TournamentView | None:
            row = calendar.get_tournament(db, str(tournament_id))
            if row is None:
                return None
            return self._tournament_view(row, seats.get_seats(db, str(row.id)), self._clock.now())

        tournament = self._views.find(read)
        if tournament is None:
            raise TournamentNotFoundError(f"no tournament with id {tournament_id}")
        return tournament

    def list_tournaments(self, season_id: UUID | None = None) -> list[TournamentView]:
        """The calendar: every tournament (of one season) with status, deadlines and seats."""
        with self._views.reading() as db:
            rows = calendar.list_tournaments(db, str(season_id) if season_id else None)
            seats_by_id = seats.list_seats(db, [str(row.id) for row in rows])
        now = self._clock.now()
        return [self._tournament_view(row, seats_by_id.get(str(row.id)), now) for row in rows]

    def get_seats(self, tournament_id: UUID) -> SeatCounts:
        found = self._views.find(lambda db: seats.get_seats(db, str(tournament_id)))
        if found is None:
            raise TournamentNotFoundError(f"no tournament with id {tournament_id}")
        return found

    def list_participants(self, tournament_id: UUID) -> list[ParticipantRow]:
        """Public: display names only."""
        self.get_seats(tournament_id)
        with self._views.reading() as db:
            return participants.list_participants(db, str(tournament_id))

    def list_registrations(self, tournament_id: UUID) -> list[RegistrationRow]:
        """Director: every registration with the person's data, instants in the club's zone."""
        self.get_seats(tournament_id)
        with self._views.reading() as db:
            rows = participants.list_registrations(db, str(tournament_id))
        return [
            msgspec.structs.replace(
                row,
                registered_at=row.registered_at.astimezone(self._zone),
                updated_at=row.updated_at.astimezone(self._zone),
                checked_in_at=_local(row.checked_in_at, self._zone),
            )
            for row in rows
        ]

    # Registration ---------------------------------------------------------------------------

    def register(
        self,
        tournament_id: UUID,
        applicant: Applicant,
        *,
        actor: str = "public",
    ) -> Registration:
        """A seat or a waitlist place, and the player token for self-service (rule T-REG-3);
        after the start only the director registers (a late entry)."""
        registration_id = uuid.uuid4()
        registrants = self._registrants
        player_id = registrants.player_id_for(applicant.email)
        same_address = registrants.ids_of_same_address(tournament_id, applicant.email, player_id)
        player_token = registrants.player_token(registration_id)

        with self._store.keys.typed_in(player_id):  # a new key even after an erasure
            change = self._execute(
                tournament_id,
                lambda state, now: tournaments.register(
                    state,
                    registration_id=registration_id,
                    player_id=player_id,
                    applicant=applicant,
                    token_hash=token_hash(player_token),
                    now=now,
                    banned_until=registrants.banned_until(state, player_id),
                    also_known_as=same_address,
                    actor=actor,
                ),
            )
        return registrants.registered(change.state, registration_id)

    def player_id_for(self, email: str) -> UUID:
        return self._registrants.player_id_for(email)

    def cancel_registration(
        self,
        tournament_id: UUID,
        registration_id: UUID,
        *,
        player_token: str | None,
        by_director: bool,
        director_actor: str | None = None,
        reason: str = "",
    ) -> RegistrationCancellation:
        """rule T-CANCEL-1: the player until the deadline; the director also later."""

        def decide(state: Tournament, now: datetime) -> list[TournamentEvent]:
            player = state.registration(registration_id).player_id
            return tournaments.cancel_registration(
                state,
                registration_id,
                by_director=by_director,
                player_token=player_token,
                now=now,
                actor=(director_actor or DIRECTOR) if by_director else f"player:{player}",
                reason=reason,
            )

        change = self._execute(tournament_id, decide)
        events = change.events
        promoted = next(
            (e.registration_id for e in events if isinstance(e, tournaments.WaitlistPromoted)),
            None,
        )
        refund = sum(
            e.refund_cents for e in events if isinstance(e, tournaments.RegistrationCancelled)
        )
        status = change.state.registration(registration_id).status
        return RegistrationCancellation(
            registration_id=registration_id,
            status=cast(Literal["cancelled", "withdrawn"], status),
            promoted_registration_id=promoted,
            refund_cents=refund,
        )

    def check_in(
        self,
        tournament_id: UUID,
        registration_id: UUID,
        proof: CheckInProof,
        *,
        actor: str = DIRECTOR,
    ) -> CheckIn:
        """rule T-CHECKIN-1: ID document seen and buy-in paid, inside the check-in window.

        A waitlisted person checks in as a standby for a seat released at the start.
        """
        id_document_seen, buy_in_paid_cents = proof.id_document_seen, proof.buy_in_paid_cents
        change = self._execute(
            tournament_id,
            lambda state, now: tournaments.check_in(
                state,
                registration_id,
                id_document_seen=id_document_seen,
                buy_in_paid_cents=buy_in_paid_cents,
                now=now,
                actor=actor,
            ),
        )
        state = change.state
        checked_in = len(state.with_status("checked_in"))
        return CheckIn(
            registration_id=registration_id,
            status=cast(
                Literal["checked_in", "standby"], state.registration(registration_id).status
            ),
            checked_in_at=change.events[-1].timestamp.astimezone(self._zone),
            checked_in=checked_in,
            standbys=len(state.with_status("standby")),
            # rule T-BUYIN-1: the pot counts seated players; a standby's buy-in is held apart
            pot_cents=checked_in * state.pot_share_cents,
        )

    # Plumbing -------------------------------------------------------------------------------

    def _execute(
        self,
        tournament_id: UUID,
        decide: Callable[[Tournament, datetime], list[TournamentEvent]],
    ) -> Change[Tournament]:
        """Load, decide, append; on a lost version race reload and decide again.

        The decision (e.g. whether a seat is free) is always taken on the latest stored
        version, so concurrent commands serialise through the event store, not through a lock.
        """

        return self._commands.update(
            lambda: self._load(tournament_id), tournaments.evolve, decide, DECIDE_AGAIN
        )

    def _load(self, tournament_id: UUID) -> Tournament:
        return load_tournament(self._store, tournament_id)

    def _tournament_view(
        self, row: TournamentRow, seat_counts: SeatCounts | None, now: datetime
    ) -> TournamentView:
        zone = self._zone
        deadlines = Deadlines(
            cancellation_until=row.cancellation_until.astimezone(zone),
            check_in_opens=row.check_in_opens.astimezone(zone),
            starts_at=row.starts_at.astimezone(zone),
        )
        started_at = _local(row.started_at, zone)
        status = tournaments.tournament_status(
            now,
            cancellation_until=deadlines.cancellation_until,
            check_in_opens=deadlines.check_in_opens,
            started=started_at is not None,
            completed=row.completed_at is not None,
            finalized=row.finalized_at is not None,
        )
        # The seats view is written in the same transaction as the calendar's row.
        assert seat_counts is not None, f"no seats for tournament {row.id}"
        return TournamentView(
            row=row,
            status=status,
            deadlines=deadlines,
            seats=seat_counts,
            started_at=started_at,
            completed_at=_local(row.completed_at, zone),
            finalized_at=_local(row.finalized_at, zone),
            # rule T-BUYIN-1: the pot share (80 EUR by default) per checked-in player, fixed at
            # the start
            pot_cents=row.pot_cents if started_at else seat_counts.checked_in * row.pot_share_cents,
        )


def _local(instant: datetime | None, zone: ZoneInfo) -> datetime | None:
    return instant.astimezone(zone) if instant else None
