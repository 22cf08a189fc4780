"""Seasons and the club's calendar periods (rules CAL-1, CAL-2)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response
from litestar.params import FromPath, JSONBody

from api.http.routes import director_post, get_route
from api.http.schemas import ActorDep, AsCommand, DateText, NameText, ServicesDep, restate
from api.http.tabular import table_response, table_route
from domain.seasons.ranking import EntryKind
from domain.seasons.season import PeriodInput, PeriodKind
from domain.tournament import Stage as StageName
from projections.calendar import SeasonRow
from projections.ranking import PlayerRanking, SeasonRankingRow
from service.seasons.seasons import BanDecision


class PeriodCreate(msgspec.Struct, forbid_unknown_fields=True):
    """A named period: tournaments are played in it (``tournament``) or it is a ``break``."""

    name: NameText
    starts_on: DateText
    ends_on: DateText
    kind: PeriodKind = "tournament"


class SeasonCreate(msgspec.Struct, forbid_unknown_fields=True):
    name: NameText
    starts_on: DateText
    ends_on: DateText
    periods: list[PeriodCreate] = msgspec.field(default_factory=list)
    # rule R-OPT-1: how the season ranks, fixed at its creation (the defaults: R-TIE-1)
    drop_worst: int | None = None
    """Count only each player's best N tournament results (null: all)."""
    events_tiebreak: Annotated[
        str, msgspec.Meta(description="`fewer` (default) or `more`", examples=["fewer"])
    ] = "fewer"
    """After points and tournament wins: fewer (default) or more tournaments played rank higher.
    Plain text here: the domain refuses any other value in words naming both (R-OPT-1)."""
    best_place_tiebreak: bool = False
    """Then the better best single place of a completed tournament; then the rank is shared."""


RANKING_COLUMNS = tuple(SeasonRankingRow.__struct_fields__)
"""The ranking as a spreadsheet opens it: the row's fields, in order."""


class RankingEntry(msgspec.Struct):
    """What gave or took points: attendance, its revocation, a match, a tournament won..."""

    kind: EntryKind
    points: int
    """Signed: a revocation takes points back."""
    rule: str
    tournament_id: UUID | None
    """None for the season's revocation, which concerns no single tournament."""
    tournament_name: str
    match_id: UUID | None
    """None for a bye (no match was played) and for entries about a whole tournament."""
    round: int | None
    stage: StageName | None


class RankingExplained(SeasonRankingRow, frozen=True, kw_only=True):
    """One row and the entries, tournament by tournament, that add up to its points.

    Kept beside the view's ``PlayerRanking`` (the row and its entries): the API answers the
    row's fields flat, and promises every entry field (the domain's ``RankingEntry`` has
    defaults and an open ``stage``)."""

    entries: list[RankingEntry]


def ranking_explained(found: PlayerRanking) -> RankingExplained:
    return restate(
        {**msgspec.structs.asdict(found.row), "entries": found.entries}, RankingExplained
    )


def _period(data: PeriodCreate) -> PeriodInput:
    return PeriodInput(
        name=data.name, kind=data.kind, starts_on=data.starts_on, ends_on=data.ends_on
    )


class BanCreate(msgspec.Struct, forbid_unknown_fields=True):
    player_id: UUID
    reason: Annotated[str, msgspec.Meta(max_length=500)]
    revoke_points: bool = True
    """rule R-ATT-2: take all the player's points of the season."""


BAN_DECISION = AsCommand(BanCreate, BanDecision)


class Ban(msgspec.Struct):
    season_id: UUID
    player_id: UUID
    reason: str
    revoke_points: bool
    until: date
    """Registrations for the season's tournaments are refused until its end (``banned``)."""


class SeasonController(Controller):
    path = "/api/v1/seasons"
    tags = ["seasons"]  # noqa: RUF012

    @director_post("/", summary="Create a season")
    def create(
        self, data: JSONBody[SeasonCreate], services: ServicesDep, actor: ActorDep
    ) -> SeasonRow:
        return services.seasons.create_season(
            name=data.name,
            starts_on=data.starts_on,
            ends_on=data.ends_on,
            periods=[_period(period) for period in data.periods],
            drop_worst=data.drop_worst,
            events_tiebreak=data.events_tiebreak,
            best_place_tiebreak=data.best_place_tiebreak,
            actor=actor,
        )

    @get_route("/", summary="Every season with its calendar periods")
    def list_seasons(self, services: ServicesDep) -> list[SeasonRow]:
        return services.seasons.list_seasons()

    @get_route("/{season_id:uuid}", summary="One season with its calendar periods")
    def show(self, season_id: FromPath[UUID], services: ServicesDep) -> SeasonRow:
        return services.seasons.get_season(season_id)

    @director_post(
        "/{season_id:uuid}/periods",
        summary="Add a period to the season's calendar (e.g. Sommerpause as a break)",
    )
    def add_period(
        self,
        season_id: FromPath[UUID],
        data: JSONBody[PeriodCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> SeasonRow:
        return services.seasons.add_period(season_id, _period(data), actor=actor)

    @director_post(
        "/{season_id:uuid}/bans",
        summary="Ban a repeat offender from the season's further tournaments",
    )
    def ban(
        self,
        season_id: FromPath[UUID],
        data: JSONBody[BanCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Ban:
        decision = BAN_DECISION(data)
        season = services.seasons.ban(season_id, decision, actor=actor)
        return Ban(season.id, data.player_id, data.reason, data.revoke_points, season.ends_on)

    @table_route(
        "/{season_id:uuid}/ranking",
        summary="The season ranking (also as CSV with Accept: text/csv)",
        description="Players of the class Champions who attended a tournament of the season: "
        "7 points for attendance, the match length for each won match, 0 for byes and "
        "unplayed matches; ordered by points, then tournament wins, then fewer tournaments "
        "played (rules R-ATT-1, R-ATT-2, R-MATCH-1, R-BYE-1, R-CLASS-1, R-TIE-1). A season's "
        "options (R-OPT-1, fixed at its creation) may count only the best N results, rank "
        "more tournaments played higher, and then the better best place.",
    )
    def ranking(
        self, season_id: FromPath[UUID], request: Request[Any, Any, Any], services: ServicesDep
    ) -> Response[list[SeasonRankingRow]]:
        return table_response(request, services.seasons.get_ranking(season_id), RANKING_COLUMNS)

    @get_route(
        "/{season_id:uuid}/ranking/{player_id:uuid}",
        summary="One player's ranking row explained: every entry that gave or took points",
    )
    def player_ranking(
        self, season_id: FromPath[UUID], player_id: FromPath[UUID], services: ServicesDep
    ) -> RankingExplained:
        return ranking_explained(services.seasons.get_player_ranking(season_id, player_id))
