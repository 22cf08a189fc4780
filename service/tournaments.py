"""Use cases of seasons and tournaments: load, decide, append, catch up the views, return."""

from __future__ import annotations

import hmac
import secrets
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID
from zoneinfo import ZoneInfo

from domain import season as seasons
from domain import tournament as tournaments
from domain.calendar import deadline_policy, parse_date
from domain.errors import InvalidInputError
from domain.events import DIRECTOR, Aggregate, DomainEvent
from domain.season import PeriodInput, Season, SeasonNotFoundError
from domain.tokens import token_hash
from domain.tournament import Tournament, TournamentNotFoundError, TournamentPlan
from projections import calendar, participants, seats
from projections.runner import Views
from service.clock import Clock
from service.commands import DECIDE_AGAIN, CommandRunner
from service.store import Change, EventStore

S = TypeVar("S", bound=Aggregate)
E = TypeVar("E", bound=DomainEvent)
T = TypeVar("T")

PLAYER_NAMESPACE = UUID("6f1c7f0e-5a43-4c52-9a7e-0c4b1f3d2a90")
DEVELOPMENT_KEY = b"bgtd development key: not a secret"
"""Only for a service built without a server key (tests, tools): its player ids are guessable."""


def player_id_for(key: bytes, email: str) -> UUID:
    """One id per person (e-mail address, case-insensitive) in every tournament of this server.

    The public participant list shows player ids: keyed with a server secret, an id tells
    nobody without the key whether a given e-mail address is registered.
    """
    address = email.strip().casefold().encode("utf-8", "surrogateescape")
    return uuid.uuid5(PLAYER_NAMESPACE, hmac.new(key, address, "sha256").hexdigest())


class TournamentService:
    """Seasons, the calendar, registration, cancellation, check-in and the start."""

    def __init__(
        self,
        store: EventStore,
        views: Views,
        clock: Clock,
        zone: ZoneInfo,
        *,
        player_key: bytes = DEVELOPMENT_KEY,
        commands: CommandRunner | None = None,
    ) -> None:
        """``player_key`` keys player ids: derived from the server's secret (service.secret)."""
        self._store = store
        self._views = views
        self._clock = clock
        self._zone = zone
        self._commands = commands or CommandRunner(store, clock, views)
        self._player_key = player_key

    # Seasons --------------------------------------------------------------------------------

    def create_season(
        self,
        *,
        name: str,
        starts_on: str,
        ends_on: str,
        periods: Sequence[PeriodInput] = (),
        actor: str = DIRECTOR,
    ) -> dict[str, Any]:
        season_id = uuid.uuid4()
        events = seasons.create_season(
            season_id,
            name=name,
            starts_on=starts_on,
            ends_on=ends_on,
            periods=periods,
            now=self._clock.now(),
            actor=actor,
        )
        self._save(seasons.evolve, events)
        return self.get_season(season_id)

    def add_period(
        self, season_id: UUID, period: PeriodInput, *, actor: str = DIRECTOR
    ) -> dict[str, Any]:
        self._execute(
            season_id,
            self._load_season,
            seasons.evolve,
            lambda state, now: seasons.add_period(state, period, now=now, actor=actor),
        )
        return self.get_season(season_id)

    def get_season(self, season_id: UUID) -> dict[str, Any]:
        season = self._query(lambda db: calendar.get_season(db, str(season_id)))
        if season is None:
            raise SeasonNotFoundError(f"no season with id {season_id}")
        return season

    def list_seasons(self) -> list[dict[str, Any]]:
        with self._views.reading() as db:
            return calendar.list_seasons(db)

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
    ) -> dict[str, Any]:
        """A new tournament; without ``season_id`` it joins the season that includes its date."""
        policy = deadline_policy(
            cancellation_weekday=cancellation_weekday,
            cancellation_time=cancellation_time,
            check_in_time=check_in_time,
            start_time=start_time,
        )
        if season_id is None:
            play_date = parse_date("date", plan.date).isoformat()
            with self._views.reading() as db:
                found = calendar.find_season_of(db, play_date)
            season_id = UUID(found) if found else None
        season = self._season_for("season_id", season_id) if season_id else None
        tournament_id = uuid.uuid4()
        events = tournaments.schedule_tournament(
            tournament_id,
            plan,
            season=season,
            policy=policy,
            zone=self._zone,
            now=self._clock.now(),
            actor=actor,
        )
        self._save(tournaments.evolve, events)
        return self.get_tournament(tournament_id)

    def get_tournament(self, tournament_id: UUID) -> dict[str, Any]:
        def read(db: Any) -> dict[str, Any] | None:
            row = calendar.get_tournament(db, str(tournament_id))
            if row is None:
                return None
            return self._tournament_view(row, seats.get_seats(db, row["id"]), self._clock.now())

        tournament = self._query(read)
        if tournament is None:
            raise TournamentNotFoundError(f"no tournament with id {tournament_id}")
        return tournament

    def list_tournaments(self, season_id: UUID | None = None) -> list[dict[str, Any]]:
        """The calendar: every tournament (of one season) with status, deadlines and seats."""
        with self._views.reading() as db:
            rows = calendar.list_tournaments(db, str(season_id) if season_id else None)
            seats_by_id = seats.list_seats(db, [row["id"] for row in rows])
        now = self._clock.now()
        return [self._tournament_view(row, seats_by_id.get(row["id"]), now) for row in rows]

    def get_seats(self, tournament_id: UUID) -> dict[str, int]:
        found = self._query(lambda db: seats.get_seats(db, str(tournament_id)))
        if found is None:
            raise TournamentNotFoundError(f"no tournament with id {tournament_id}")
        return found

    def list_participants(self, tournament_id: UUID) -> list[dict[str, Any]]:
        """Public: display names only."""
        self.get_seats(tournament_id)
        with self._views.reading() as db:
            return participants.list_participants(db, str(tournament_id))

    def list_registrations(self, tournament_id: UUID) -> list[dict[str, Any]]:
        """Director: every registration with the person's data."""
        self.get_seats(tournament_id)
        with self._views.reading() as db:
            rows = participants.list_registrations(db, str(tournament_id))
        for row in rows:
            for key in ("registered_at", "updated_at", "checked_in_at"):
                row[key] = _instant(row[key], self._zone)
        return rows

    # Registration ---------------------------------------------------------------------------

    def register(
        self,
        tournament_id: UUID,
        *,
        first_name: str,
        last_name: str,
        email: str,
        age: int | None = None,
        birth_date: str | None = None,
    ) -> dict[str, Any]:
        """A seat or a waitlist place, and the player token for self-service (rule T-REG-3)."""
        registration_id = uuid.uuid4()
        player_id = player_id_for(self._player_key, email)
        player_token = secrets.token_urlsafe(32)
        state = self._execute(
            tournament_id,
            self._load_tournament,
            tournaments.evolve,
            lambda state, now: tournaments.register(
                state,
                registration_id=registration_id,
                player_id=player_id,
                first_name=first_name,
                last_name=last_name,
                email=email,
                age=age,
                birth_date=birth_date,
                token_hash=token_hash(player_token),
                now=now,
            ),
        ).state
        registration = state.registration(registration_id)
        return {
            "registration_id": registration_id,
            "tournament_id": tournament_id,
            "player_id": registration.player_id,
            "status": registration.status,
            "player_token": player_token,
            "waitlist_position": _waitlist_position(state, registration_id),
        }

    def cancel_registration(
        self,
        tournament_id: UUID,
        registration_id: UUID,
        *,
        player_token: str | None,
        by_director: bool,
        reason: str = "",
    ) -> dict[str, Any]:
        """rule T-CANCEL-1: the player until the deadline; the director also later."""

        def decide(state: Tournament, now: datetime) -> list[tournaments.TournamentEvent]:
            player = state.registration(registration_id).player_id
            return tournaments.cancel_registration(
                state,
                registration_id,
                by_director=by_director,
                player_token=player_token,
                now=now,
                actor=DIRECTOR if by_director else f"player:{player}",
                reason=reason,
            )

        change = self._execute(tournament_id, self._load_tournament, tournaments.evolve, decide)
        state, events = change.state, change.events
        promoted = next(
            (e.registration_id for e in events if isinstance(e, tournaments.WaitlistPromoted)),
            None,
        )
        refund = sum(
            e.refund_cents for e in events if isinstance(e, tournaments.RegistrationCancelled)
        )
        return {
            "registration_id": registration_id,
            "status": state.registration(registration_id).status,
            "promoted_registration_id": promoted,
            "refund_cents": refund,
        }

    def check_in(
        self,
        tournament_id: UUID,
        registration_id: UUID,
        *,
        id_document_seen: bool,
        buy_in_paid_cents: int,
        actor: str = DIRECTOR,
    ) -> dict[str, Any]:
        """rule T-CHECKIN-1: ID document seen and buy-in paid, inside the check-in window.

        A waitlisted person checks in as a standby for a seat released at the start.
        """
        change = self._execute(
            tournament_id,
            self._load_tournament,
            tournaments.evolve,
            lambda state, now: tournaments.check_in(
                state,
                registration_id,
                id_document_seen=id_document_seen,
                buy_in_paid_cents=buy_in_paid_cents,
                now=now,
                actor=actor,
            ),
        )
        state, events = change.state, change.events
        checked_in = len(state.with_status("checked_in"))
        return {
            "registration_id": registration_id,
            "status": state.registration(registration_id).status,
            "checked_in_at": events[-1].timestamp.astimezone(self._zone),
            "checked_in": checked_in,
            "standbys": len(state.with_status("standby")),
            # rule T-BUYIN-1: the pot counts seated players; a standby's buy-in is held apart
            "pot_cents": checked_in * state.pot_share_cents,
        }

    def start(self, tournament_id: UUID, *, actor: str = DIRECTOR) -> dict[str, Any]:
        """Play begins (rules T-CHECKIN-2, T-REG-3, T-BUYIN-1).

        No-shows are released, standbys seated, the pot fixed; standbys left without a seat
        are listed with the refund of their buy-in.
        """
        change = self._execute(
            tournament_id,
            self._load_tournament,
            tournaments.evolve,
            lambda state, now: tournaments.start(state, now=now, actor=actor),
        )
        state, events = change.state, change.events
        assert state.started_at is not None
        return {
            "id": tournament_id,
            "status": state.status(self._clock.now()),
            "started_at": state.started_at.astimezone(self._zone),
            "players": state.players,
            "pot_cents": state.pot_cents,
            "no_shows": [
                e.registration_id for e in events if isinstance(e, tournaments.NoShowReleased)
            ],
            "promoted_standbys": [
                e.registration_id for e in events if isinstance(e, tournaments.WaitlistPromoted)
            ],
            "unseated_standbys": [
                {"registration_id": e.registration_id, "refund_cents": e.refund_cents}
                for e in events
                if isinstance(e, tournaments.StandbyNotSeated)
            ],
        }

    # Plumbing -------------------------------------------------------------------------------

    def _execute(
        self,
        aggregate_id: UUID,
        load: Callable[[UUID], S],
        evolve: Callable[[S | None, E], S],
        decide: Callable[[S, datetime], list[E]],
    ) -> Change[S]:
        """Load, decide, append; on a lost version race reload and decide again.

        The decision (e.g. whether a seat is free) is always taken on the latest stored
        version, so concurrent commands serialise through the event store, not through a lock.
        """
        return self._commands.run(
            lambda now: Change.of(evolve, (state := load(aggregate_id)), decide(state, now)),
            DECIDE_AGAIN,
        )

    def _save(self, evolve: Callable[[S | None, E], S], events: list[E]) -> S:
        return self._commands.run(lambda now: Change.of(evolve, None, events), DECIDE_AGAIN).state

    def _load_tournament(self, tournament_id: UUID) -> Tournament:
        return self._store.load_as(
            tournament_id,
            tournaments.evolve,
            Tournament,
            lambda: TournamentNotFoundError(f"no tournament with id {tournament_id}"),
        )

    def _load_season(self, season_id: UUID) -> Season:
        return self._store.load_as(
            season_id,
            seasons.evolve,
            Season,
            lambda: SeasonNotFoundError(f"no season with id {season_id}"),
        )

    def _season_for(self, field: str, season_id: UUID) -> Season:
        try:
            return self._load_season(season_id)
        except SeasonNotFoundError:
            raise InvalidInputError(field, f"no season with id {season_id}") from None

    def _query(self, read: Callable[[Any], T | None]) -> T | None:
        """Read a view; on a miss catch up once (another process may have just written it)."""
        with self._views.reading() as db:
            found = read(db)
        if found is None:
            self._views.catch_up()
            with self._views.reading() as db:
                found = read(db)
        return found

    def _tournament_view(
        self, row: dict[str, Any], seat_counts: Any, now: datetime
    ) -> dict[str, Any]:
        deadlines = {
            key: datetime.fromisoformat(row[key]).astimezone(self._zone)
            for key in ("cancellation_until", "check_in_opens", "starts_at")
        }
        started_at = _instant(row["started_at"], self._zone)
        status = tournaments.tournament_status(
            now,
            cancellation_until=deadlines["cancellation_until"],
            check_in_opens=deadlines["check_in_opens"],
            started=started_at is not None,
            completed=row["completed_at"] is not None,
        )
        checked_in = seat_counts["checked_in"] if seat_counts else 0
        return {
            "id": row["id"],
            "season_id": row["season_id"],
            "period": row["period"],
            "name": row["name"],
            "date": row["play_date"],
            "venue": row["venue"],
            "capacity": row["capacity"],
            "min_age": row["min_age"],
            "buy_in_cents": row["buy_in_cents"],
            "pot_share_cents": row["pot_share_cents"],
            "organisation_cents": row["buy_in_cents"] - row["pot_share_cents"],
            "waitlist": row["waitlist"],
            "swiss_rounds": row["swiss_rounds"],
            "match_length": row["match_length"],
            "class": row["class_name"],
            "payout_percent": row["payout_percent"],
            "time_zone": row["time_zone"],
            "status": status,
            "deadlines": deadlines,
            "seats": seat_counts,
            "started_at": started_at,
            "completed_at": _instant(row["completed_at"], self._zone),
            # rule T-BUYIN-1: the pot share (80 EUR by default) per checked-in player, fixed at
            # the start
            "pot_cents": row["pot_cents"] if started_at else checked_in * row["pot_share_cents"],
        }


def _waitlist_position(state: Tournament, registration_id: UUID) -> int | None:
    waiting = state.waiting()
    return next((i for i, r in enumerate(waiting, start=1) if r.id == registration_id), None)


def _instant(text: str | None, zone: ZoneInfo) -> datetime | None:
    return datetime.fromisoformat(text).astimezone(zone) if text else None
