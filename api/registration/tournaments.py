"""Tournaments, their seats and registrations: the calendar, sign-up, cancellation, check-in."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, FromQuery, JSONBody, QueryParameter
from litestar.status_codes import HTTP_201_CREATED, HTTP_202_ACCEPTED

from api.http.auth import (
    REGISTERED_PLAYER,
    any_director,
    director_of,
    director_only,
    require_token,
    unknown_token_refused,
)
from api.http.routes import delete_route, director_post, get_route, post_route
from api.http.schemas import (
    ActingDirectorDep,
    ActorDep,
    AsCommand,
    DateText,
    NameText,
    ServicesDep,
    restate,
    restate_all,
)
from api.http.tabular import table_response, table_route
from domain.clock import ClockPresetName
from domain.match import DiceMode, MatchVariant
from domain.people.director import ActingDirector, Target
from domain.tournament import (
    DEFAULT_BUY_IN_CENTS,
    DEFAULT_CLASS,
    DEFAULT_CLOCK,
    DEFAULT_DICE,
    DEFAULT_MATCH_LENGTH,
    DEFAULT_MIN_AGE,
    DEFAULT_PAYOUT_PERCENT,
    DEFAULT_POT_SHARE_CENTS,
    Applicant,
    TournamentPlan,
    TournamentStatus,
)
from projections.calendar import TournamentRow
from projections.participants import ParticipantRow, RegistrationRecord
from projections.seats import SeatCounts
from service.bootstrap import Services
from service.registration.tournaments import (
    CheckIn,
    CheckInProof,
    Deadlines,
    RegistrationCancellation,
    TournamentView,
)
from service.shared.registrants import Registration

TimeText = Annotated[str, msgspec.Meta(description="HH:MM, local time of the club")]
BirthDateText = Annotated[
    str,
    msgspec.Meta(
        description="YYYY-MM-DD, DD.MM.YYYY or DD.MM.YY, from 1900 to the play date; a two-digit "
        "year is 20YY, or 19YY when 20YY would lie after the play date (05.07.85 is 1985)",
        examples=["1985-07-05"],
    ),
]
CLUB_VENUE = "Sportverein Raigering e.V., Am Pandurenpark 2, 92224 Amberg"


class MatchLengths(msgspec.Struct, forbid_unknown_fields=True):
    """Match lengths of the knockout stages (rule T-FMT-8)."""

    semi_final: int = DEFAULT_MATCH_LENGTH
    final: int = DEFAULT_MATCH_LENGTH
    third_place: int = DEFAULT_MATCH_LENGTH


class TournamentCreate(msgspec.Struct, forbid_unknown_fields=True):
    """A tournament; the defaults are the club's (seed 000). Deadlines are local wall times."""

    name: NameText
    date: DateText
    season_id: UUID | None = None
    """Default: the season whose dates include ``date`` (none if there is no such season)."""
    venue: NameText = CLUB_VENUE
    capacity: int | None = None
    """Default: 20; 12 for a round robin, which seats at most 12 (rule T-FMT-11)."""
    min_age: int = DEFAULT_MIN_AGE
    buy_in_cents: int = DEFAULT_BUY_IN_CENTS
    pot_share_cents: int = DEFAULT_POT_SHARE_CENTS
    """The part of each buy-in that goes to the prize pot; the rest is for the organisation."""
    payout_percent: list[int] = msgspec.field(default_factory=lambda: list(DEFAULT_PAYOUT_PERCENT))
    waitlist: bool = True
    waitlist_limit: int | None = None
    """Places on the waitlist (default: twice the capacity); beyond them registration is a 409."""
    swiss_rounds: int | None = None
    """The Swiss format only; default 6 (rule T-FMT-1)."""
    match_length: int = DEFAULT_MATCH_LENGTH
    """The Swiss (or round robin) rounds' match length (rule T-FMT-8)."""
    match_lengths: MatchLengths | None = None
    """The knockout stages' match lengths; default: ``match_length`` for each."""
    dice: DiceMode = DEFAULT_DICE
    """How the tournament's matches roll: ``entered`` (physical dice) or ``server``."""
    clock: ClockPresetName = DEFAULT_CLOCK
    clock_overtime_seconds: Literal[0, 60, 120] = 0
    """rule G-CLOCK-1, USBGF option (club clock): one overtime of 1 or 2 minutes in every
    match of the tournament; the second expiry loses."""
    class_: str = msgspec.field(name="class", default=DEFAULT_CLASS)
    format: Literal["swiss", "round_robin", "elimination"] = "swiss"
    """rule T-FMT-10, fixed at creation."""
    knockout_players: Literal[0, 4] | None = None
    """The knockout of the best four after the Swiss or round robin stage (T-FMT-4); default
    4 for swiss, 0 for round_robin."""
    round_robin_cycles: Literal[1, 2] | None = None
    """round_robin only; default 1 (rule T-FMT-11)."""
    seeding: Literal["lot", "ranking"] | None = None
    """The Berger numbers of a round robin; default ``lot``; ``ranking``: the season ranking at
    the start, ranked players first, ties and the others by lot (T-FMT-11, T-FMT-12)."""
    consolation: Literal["none", "first_round", "progressive"] | None = None
    """elimination only; default ``first_round`` (rule T-FMT-13)."""
    consolation_match_length: int | None = None
    """elimination with a consolation; default ``match_length`` (rule T-FMT-12)."""
    consolation_pot_percent: int | None = None
    """elimination with a consolation; 0..50, default 20 (rule T-FMT-14)."""
    consolation_payout_percent: list[int] | None = None
    """elimination with a consolation; one or two shares adding up to 100, default [60, 40]."""
    variant: MatchVariant = "backgammon"
    """rule V-MATCH-VARIANT-1: the variant of every stage not named in ``stage_variants``
    (``tavli``: the Portes, Plakoto, Fevga cycle)."""
    cube: bool | None = None
    """rule V-CUBE-1: unset, each match gets its variant's default (on in backgammon only);
    ``false`` is refused while a stage plays backgammon. There is no per-stage cube."""
    tavli_format: Literal["points", "best_of_three"] | None = None
    """rule V-TAVLI-MATCH-1, where a stage plays ``tavli``; default ``points``."""
    stage_variants: dict[str, str] | None = None
    """Another variant for some pairing stages, e.g. ``{"final": "backgammon"}``. Keys:
    ``swiss``, ``round_robin``, ``main``, ``semi_final``, ``final``, ``third_place``,
    ``consolation``, each one the format plays."""
    cancellation_weekday: str = "thursday"
    """Cancellation is possible until this weekday before the play date ..."""
    cancellation_time: TimeText = "18:00"
    """... at this local time (rule T-CANCEL-1)."""
    check_in_time: TimeText = "12:30"
    start_time: TimeText = "13:00"
    """The latest start on the play date (rule T-CHECKIN-1)."""


class Tournament(msgspec.Struct):
    """A tournament of the calendar as the API shows it.

    Not a twin of one view row: it composes the calendar's ``TournamentRow`` with the status,
    deadlines, seats and pot as of now (``TournamentView``, which the pages also read), under
    the contract's names (``date``, ``class``) and with the derived ``organisation_cents``."""

    id: UUID
    season_id: UUID | None
    period: str | None
    name: str
    date: date
    venue: str
    capacity: int
    min_age: int
    buy_in_cents: int
    pot_share_cents: int
    organisation_cents: int
    payout_percent: list[int]
    waitlist: bool
    swiss_rounds: int
    """0 outside the Swiss format."""
    match_length: int
    class_: str = msgspec.field(name="class")
    time_zone: str
    status: TournamentStatus
    deadlines: Deadlines
    seats: SeatCounts
    pot_cents: int
    """``pot_share_cents`` (80 EUR by default) per checked-in player (rule T-BUYIN-1); fixed when
    the tournament starts."""
    started_at: datetime | None
    completed_at: datetime | None
    format: str = "swiss"
    """rule T-FMT-10: ``swiss`` or ``round_robin``."""
    knockout_players: int = 4
    round_robin_cycles: int | None = None
    """round_robin only (else null)."""
    seeding: str | None = None
    """round_robin and elimination (else null): how the Berger numbers or seeds were given."""
    consolation: str | None = None
    """Elimination only (else null, like the four below; rule T-FMT-13)."""
    consolation_played: str | None = None
    """Set at the start: the consolation the field plays (T-FMT-13)."""
    consolation_match_length: int | None = None
    consolation_pot_percent: int | None = None
    consolation_payout_percent: list[int] | None = None
    variant: str = "backgammon"
    """rule V-MATCH-VARIANT-1: the variant of every stage not in ``stage_variants``."""
    cube: bool | None = None
    """As asked; null: each match gets its variant's default (V-CUBE-1)."""
    tavli_format: str | None = None
    """Where a stage plays tavli (else null): ``points`` or ``best_of_three``."""
    stage_variants: dict[str, str] = msgspec.field(default_factory=dict)
    """The stages that play another variant than ``variant``."""
    finalized_at: datetime | None = None
    """Set while the director's finalize stands (places and prizes fixed, rule T-FMT-8): the
    status is then ``final``; a reopen clears it and returns the status to ``completed``."""


class RegistrationCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Give ``age`` or ``birth_date`` (or both)."""

    first_name: NameText
    last_name: NameText
    email: str
    age: int | None = None
    birth_date: BirthDateText | None = None
    language: Literal["de", "en"] = "de"
    """The language of the person's mails (rule P-MAIL-1)."""

    @property
    def applicant(self) -> Applicant:
        """The person as the form gives them, for both ways to register."""
        return APPLICANT(self)


APPLICANT = AsCommand(RegistrationCreate, Applicant)


class RegistrationUnconfirmed(msgspec.Struct):
    """An anonymous registration waits for the link in its mail (rule P-MAIL-1); the same
    answer whether the address is new or registered already."""

    status: Literal["unconfirmed"]
    tournament_id: UUID
    confirm_by: datetime
    """The link expires then (24 hours): an unconfirmed registration never takes a seat."""


class CheckInCreate(msgspec.Struct, forbid_unknown_fields=True):
    id_document_seen: bool
    buy_in_paid_cents: int


CHECK_IN_PROOF = AsCommand(CheckInCreate, CheckInProof)


REGISTRATION_COLUMNS = tuple(RegistrationRecord.__struct_fields__)


_AS_OF_NOW = (
    "status",
    "deadlines",
    "seats",
    "pot_cents",
    "started_at",
    "completed_at",
    "finalized_at",
    "organisation_cents",
)
"""What ``Tournament`` takes from the view rather than from the calendar's row."""


def tournament_response(view: TournamentView) -> Tournament:
    """The calendar's row under the contract's names (``date``, ``class``), with the status,
    deadlines, seats and pot as of now, and a format's settings only where they apply."""
    row = view.row
    # the row's elimination settings show where they apply only (else null)
    scheduled = {k: v for k, v in msgspec.structs.asdict(row).items() if "consolation" not in k}
    shown = {
        **scheduled,
        **{name: getattr(view, name) for name in _AS_OF_NOW},
        "date": row.play_date,
        "class": row.class_name,
        "round_robin_cycles": row.round_robin_cycles if row.format == "round_robin" else None,
        "seeding": row.seeding if row.format != "swiss" else None,
        **_elimination_fields(row),
    }
    return restate(shown, Tournament)


def _elimination_fields(row: TournamentRow) -> dict[str, object]:
    """API.md "Formats": the consolation settings of an elimination, where they apply."""
    if row.format != "elimination":
        return {}
    fields: dict[str, object] = {
        "consolation": row.consolation,
        "consolation_played": row.consolation_played if row.started_at else None,
    }
    if row.consolation != "none":
        fields["consolation_match_length"] = row.consolation_match_length or row.match_length
        fields["consolation_pot_percent"] = row.consolation_pot_percent
        fields["consolation_payout_percent"] = row.consolation_payout_percent
    return fields


TOURNAMENT_PLAN = AsCommand(
    TournamentCreate,
    TournamentPlan,
    renamed={"class_": "class_name", "match_lengths": "knockout_lengths"},
    # the season and the local times of the deadlines go to ``schedule`` beside the plan
    apart=("season_id", "cancellation_weekday", "cancellation_time", "check_in_time", "start_time"),
)


def tournament_plan(data: TournamentCreate) -> TournamentPlan:
    """The request as the domain's plan: the same fields, but ``class`` is ``class_name`` and
    ``match_lengths`` is ``knockout_lengths``."""
    return TOURNAMENT_PLAN(data)


class TournamentController(Controller):
    path = "/api/v1/tournaments"
    tags = ["tournaments"]  # noqa: RUF012

    @post_route("/", guards=[any_director], summary="Schedule a tournament")
    def create(
        self,
        data: JSONBody[TournamentCreate],
        services: ServicesDep,
        acting_director: ActingDirectorDep,
    ) -> Tournament:
        if acting_director.scope.kind != "club":
            # rule C-DIR-1: a season's director schedules the season's tournaments only
            season = services.seasons.season_of("season_id", data.season_id, data.date)
            acting_director.authorize(Target(season_id=season.id if season else None))
        tournament = services.tournaments.schedule_tournament(
            tournament_plan(data),
            season_id=data.season_id,
            cancellation_weekday=data.cancellation_weekday,
            cancellation_time=data.cancellation_time,
            check_in_time=data.check_in_time,
            start_time=data.start_time,
            actor=acting_director.actor,
        )
        return tournament_response(tournament)

    @get_route("/", summary="The calendar: tournaments in date order")
    def list_tournaments(
        self, services: ServicesDep, season_id: FromQuery[UUID | None] = None
    ) -> list[Tournament]:
        return [tournament_response(t) for t in services.tournaments.list_tournaments(season_id)]

    @get_route("/{tournament_id:uuid}", summary="One tournament and its status")
    def show(self, tournament_id: FromPath[UUID], services: ServicesDep) -> Tournament:
        return tournament_response(services.tournaments.get_tournament(tournament_id))

    @get_route("/{tournament_id:uuid}/seats", summary="Free seats and waitlist")
    def seats(self, tournament_id: FromPath[UUID], services: ServicesDep) -> SeatCounts:
        return services.tournaments.get_seats(tournament_id)

    @get_route(
        "/{tournament_id:uuid}/participants",
        summary="Public participant list (display names only) and the waitlist",
    )
    def participants(
        self, tournament_id: FromPath[UUID], services: ServicesDep
    ) -> list[ParticipantRow]:
        return services.tournaments.list_participants(tournament_id)


class RegistrationController(Controller):
    path = "/api/v1/tournaments/{tournament_id:uuid}/registrations"
    tags = ["registrations"]  # noqa: RUF012

    @post_route(
        "/",
        status_code=201,
        summary="Register: the director at once (201); anyone else by e-mail confirmation (202)",
        responses={
            201: ResponseSpec(
                data_container=Registration,
                description="With the director's token: registered or waitlisted at once",
            ),
            202: ResponseSpec(
                data_container=RegistrationUnconfirmed,
                description="Anonymous: stored unconfirmed, the mail carries the link "
                "(rule P-MAIL-1); the same answer for an address registered already",
            ),
        },
    )
    def register(
        self,
        tournament_id: FromPath[UUID],
        data: JSONBody[RegistrationCreate],
        request: Request[Any, Any, Any],
        services: ServicesDep,
    ) -> Response[Registration | RegistrationUnconfirmed]:
        acting = _director_in(request, services, tournament_id)
        applicant = data.applicant
        if acting is None:
            unconfirmed = services.requests.request(tournament_id, applicant)
            answer = RegistrationUnconfirmed(
                status="unconfirmed",
                tournament_id=unconfirmed.tournament_id,
                confirm_by=unconfirmed.confirm_by,
            )
            return Response(answer, status_code=HTTP_202_ACCEPTED)
        # after the start, the director's registration is a late entry's
        registration = services.tournaments.register(tournament_id, applicant, actor=acting.actor)
        return Response(registration, status_code=HTTP_201_CREATED)

    @table_route(
        "/",
        guards=[director_only],
        summary="Every registration with personal data (director; also as CSV with Accept: "
        "text/csv)",
    )
    def list_registrations(
        self, tournament_id: FromPath[UUID], request: Request[Any, Any, Any], services: ServicesDep
    ) -> Response[list[RegistrationRecord]]:
        rows = services.tournaments.list_registrations(tournament_id)
        return table_response(request, restate_all(rows, RegistrationRecord), REGISTRATION_COLUMNS)

    @delete_route(
        "/{registration_id:uuid}",
        guards=[REGISTERED_PLAYER],
        status_code=200,
        summary="Cancel: the player with their token until the deadline (the waitlist until the "
        "start), the director always until the start; after it a registration made after the "
        "start and not admitted (its player until checked in, the director with the refund)",
    )
    def cancel(
        self,
        request: Request[Any, Any, Any],
        tournament_id: FromPath[UUID],
        registration_id: FromPath[UUID],
        services: ServicesDep,
        reason: Annotated[str, QueryParameter(max_length=500)] = "",
    ) -> RegistrationCancellation:
        token = require_token(request, REGISTERED_PLAYER.whose)
        acting = _director_in(request, services, tournament_id)
        with unknown_token_refused(services, token):
            return services.tournaments.cancel_registration(
                tournament_id,
                registration_id,
                player_token=None if acting else token,
                by_director=acting is not None,
                director_actor=acting.actor if acting else None,
                reason=reason,
            )

    @director_post(
        "/{registration_id:uuid}/check-in",
        status_code=200,
        summary="Check in on site: ID document seen, buy-in paid (waitlisted: as a standby)",
    )
    def check_in(
        self,
        tournament_id: FromPath[UUID],
        registration_id: FromPath[UUID],
        data: JSONBody[CheckInCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> CheckIn:
        proof = CHECK_IN_PROOF(data)
        return services.tournaments.check_in(tournament_id, registration_id, proof, actor=actor)


def _director_in(
    request: Request[Any, Any, Any], services: Services, tournament_id: UUID
) -> ActingDirector | None:
    """The director sending the request (None: a player or the public); a director outside
    the tournament's scope gets a 403 (rule C-DIR-1)."""
    acting = director_of(request)
    if acting is not None and acting.scope.kind != "club":
        acting.authorize(services.directors.tournament_target(tournament_id))
    return acting
