"""Use cases of tournaments: schedule, register, cancel, check in; the calendar views."""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, cast
from uuid import UUID
from zoneinfo import ZoneInfo

import msgspec
import sqlite_utils

from domain import tournament as tournaments
from domain.calendar import deadline_policy
from domain.events import DIRECTOR
from domain.tokens import token_hash
from domain.tournament import (
    ACTIVE,
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
from service.commands import DECIDE_AGAIN, CommandRunner
from service.seasons import SeasonService
from service.secret import keyed_token
from service.store import Change, EventStore

PLAYER_NAMESPACE = UUID("6f1c7f0e-5a43-4c52-9a7e-0c4b1f3d2a90")
DEVELOPMENT_KEY = b"bgtd development key: not a secret"
"""Only for a service built without a server key (tests, tools): its player ids are guessable."""


def player_id_for(key: bytes, email: str) -> UUID:
    """One id per person (``email_key``: NFKC, then lowercase) in every tournament here.

    The public participant list shows player ids: keyed with a server secret, an id tells
    nobody without the key whether a given e-mail address is registered. Ids stored before
    the NFKC key were derived from the casefolded address: the same for an ASCII address,
    another one for some others (see ``TournamentService.register``).
    """
    address = tournaments.email_key(email).encode("utf-8", "surrogateescape")
    return uuid.uuid5(PLAYER_NAMESPACE, hmac.new(key, address, "sha256").hexdigest())


@dataclass(frozen=True, slots=True)
class Deadlines:
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


@dataclass(frozen=True, slots=True)
class Registered:
    registration_id: UUID
    tournament_id: UUID
    player_id: UUID
    status: Literal["registered", "waitlisted"]
    player_token: str
    """Shown once: the events keep only its hash."""
    waitlist_position: int | None


@dataclass(frozen=True, slots=True)
class Cancelled:
    registration_id: UUID
    status: Literal["cancelled", "withdrawn"]
    promoted_registration_id: UUID | None
    refund_cents: int


@dataclass(frozen=True, slots=True)
class CheckedIn:
    registration_id: UUID
    status: Literal["checked_in", "standby"]
    checked_in_at: datetime
    checked_in: int
    standbys: int
    pot_cents: int


class TournamentService:
    """The calendar of tournaments, registration, cancellation and check-in."""

    def __init__(
        self,
        store: EventStore,
        views: Views,
        clock: Clock,
        zone: ZoneInfo,
        *,
        player_key: bytes = DEVELOPMENT_KEY,
        token_key: bytes = DEVELOPMENT_KEY,
        commands: CommandRunner | None = None,
        seasons: SeasonService | None = None,
    ) -> None:
        """``player_key`` keys player ids, ``token_key`` player tokens: both derived from the
        server's secret (service.secret)."""
        self._store = store
        self._views = views
        self._clock = clock
        self._zone = zone
        self._commands = commands or CommandRunner(store, clock, views)
        self._seasons = seasons or SeasonService(store, views, clock, commands=self._commands)
        self._player_key = player_key
        self._token_key = token_key

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
        season = self._seasons.season_of("season_id", season_id, plan.date)
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
    ) -> Registered:
        """A seat or a waitlist place, and the player token for self-service (rule T-REG-3);
        after the start only the director registers (a late entry)."""
        registration_id = uuid.uuid4()
        player_id = self.player_id_for(applicant.email)
        same_address = self.ids_of_same_address(tournament_id, applicant.email, player_id)
        player_token = self.player_token(registration_id)

        def banned_until(state: Tournament) -> date | None:
            return self.banned_until(state, player_id)

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
                    banned_until=banned_until(state),
                    also_known_as=same_address,
                    actor=actor,
                ),
            )
        return self.registered(change.state, registration_id)

    def registered(self, state: Tournament, registration_id: UUID) -> Registered:
        """The answer to a registration: its place and its player token (derived again)."""
        registration = state.registration(registration_id)
        return Registered(
            registration_id=registration_id,
            tournament_id=state.id,
            player_id=registration.player_id,
            status=cast(Literal["registered", "waitlisted"], registration.status),
            player_token=self.player_token(registration_id),
            waitlist_position=_waitlist_position(state, registration_id),
        )

    def player_id_for(self, email: str) -> UUID:
        return player_id_for(self._player_key, email)

    def player_token(self, registration_id: UUID) -> str:
        """The registration's player token: the mails' cancellation link carries it (rule
        P-MAIL-1), so the service derives it from the registration id with a server key."""
        return keyed_token(self._token_key, registration_id)

    def banned_until(self, state: Tournament, player_id: UUID) -> date | None:
        """The end of the season whose director banned the person, if so (rule C-EXCL-1)."""
        if state.season_id is None:
            return None
        season = self._seasons.load(state.season_id)
        return season.ends_on if player_id in season.banned else None

    def is_registered(self, tournament_id: UUID, player_ids: Collection[UUID]) -> bool:
        """Whether one of ``player_ids`` holds a seat or a waitlist place (the views' word)."""
        with self._views.reading() as db:
            rows = participants.list_registrations(db, str(tournament_id))
        return any(row.player_id in player_ids and row.status in ACTIVE for row in rows)

    def ids_of_same_address(
        self, tournament_id: UUID, email: str, player_id: UUID
    ) -> tuple[UUID, ...]:
        """Other player ids under which this address is registered in the tournament.

        Only a non-ASCII address can have one: an id derived before the NFKC key (from the
        casefolded address). The views know every such old registration by its address.
        """
        if email.isascii():
            return ()
        key = tournaments.email_key(email)
        with self._views.reading() as db:
            rows = participants.list_registrations(db, str(tournament_id))
        return tuple(
            {
                row.player_id
                for row in rows
                if row.player_id != player_id and tournaments.email_key(row.email) == key
            }
        )

    def cancel_registration(
        self,
        tournament_id: UUID,
        registration_id: UUID,
        *,
        player_token: str | None,
        by_director: bool,
        director_actor: str | None = None,
        reason: str = "",
    ) -> Cancelled:
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
        return Cancelled(
            registration_id=registration_id,
            status=cast(Literal["cancelled", "withdrawn"], status),
            promoted_registration_id=promoted,
            refund_cents=refund,
        )

    def check_in(
        self,
        tournament_id: UUID,
        registration_id: UUID,
        *,
        id_document_seen: bool,
        buy_in_paid_cents: int,
        actor: str = DIRECTOR,
    ) -> CheckedIn:
        """rule T-CHECKIN-1: ID document seen and buy-in paid, inside the check-in window.

        A waitlisted person checks in as a standby for a seat released at the start.
        """
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
        return CheckedIn(
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


def load_tournament(store: EventStore, tournament_id: UUID) -> Tournament:
    """The tournament, or a 404 when the id is unknown or names another aggregate."""
    return store.load_as(
        tournament_id,
        tournaments.evolve,
        Tournament,
        lambda: TournamentNotFoundError(f"no tournament with id {tournament_id}"),
    )


def _waitlist_position(state: Tournament, registration_id: UUID) -> int | None:
    waiting = state.waiting()
    return next((i for i, r in enumerate(waiting, start=1) if r.id == registration_id), None)


def _local(instant: datetime | None, zone: ZoneInfo) -> datetime | None:
    return instant.astimezone(zone) if instant else None
