"""Seasons and the club's calendar periods (rules CAL-1, CAL-2)."""

from __future__ import annotations

from datetime import date
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.auth import director_only
from api.schemas import DateText
from domain.season import PeriodInput, PeriodKind
from projections.calendar import SeasonRow
from service.bootstrap import Services


class PeriodCreate(msgspec.Struct, forbid_unknown_fields=True):
    """A named period: tournaments are played in it (``tournament``) or it is a ``break``."""

    name: str
    starts_on: DateText
    ends_on: DateText
    kind: PeriodKind = "tournament"


class Period(msgspec.Struct):
    name: str
    kind: PeriodKind
    starts_on: date
    ends_on: date


class SeasonCreate(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    starts_on: DateText
    ends_on: DateText
    periods: list[PeriodCreate] = msgspec.field(default_factory=list)


class Season(msgspec.Struct):
    id: UUID
    name: str
    starts_on: date
    ends_on: date
    periods: list[Period]


def season_response(row: SeasonRow) -> Season:
    return Season(
        id=row.id,
        name=row.name,
        starts_on=row.starts_on,
        ends_on=row.ends_on,
        periods=[
            Period(name=p.name, kind=p.kind, starts_on=p.starts_on, ends_on=p.ends_on)
            for p in row.periods
        ],
    )


def _period(data: PeriodCreate) -> PeriodInput:
    return PeriodInput(
        name=data.name, kind=data.kind, starts_on=data.starts_on, ends_on=data.ends_on
    )


class SeasonController(Controller):
    path = "/api/v1/seasons"
    tags = ["seasons"]  # noqa: RUF012

    @post("/", guards=[director_only], sync_to_thread=True, summary="Create a season")
    def create(self, data: JSONBody[SeasonCreate], services: NamedDependency[Services]) -> Season:
        season = services.seasons.create_season(
            name=data.name,
            starts_on=data.starts_on,
            ends_on=data.ends_on,
            periods=[_period(period) for period in data.periods],
        )
        return season_response(season)

    @get("/", sync_to_thread=True, summary="Every season with its calendar periods")
    def list_seasons(self, services: NamedDependency[Services]) -> list[Season]:
        return [season_response(row) for row in services.seasons.list_seasons()]

    @get("/{season_id:uuid}", sync_to_thread=True, summary="One season with its calendar periods")
    def show(self, season_id: FromPath[UUID], services: NamedDependency[Services]) -> Season:
        return season_response(services.seasons.get_season(season_id))

    @post(
        "/{season_id:uuid}/periods",
        guards=[director_only],
        sync_to_thread=True,
        summary="Add a period to the season's calendar (e.g. Sommerpause as a break)",
    )
    def add_period(
        self,
        season_id: FromPath[UUID],
        data: JSONBody[PeriodCreate],
        services: NamedDependency[Services],
    ) -> Season:
        season = services.seasons.add_period(season_id, _period(data))
        return season_response(season)
