"""Seasons and the club's calendar periods (rules CAL-1, CAL-2)."""

from __future__ import annotations

from datetime import date
from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from api.auth import director_only
from domain.season import PeriodInput, PeriodKind
from service.bootstrap import Services

DateText = Annotated[
    str,
    msgspec.Meta(
        description="YYYY-MM-DD (the club's DD.MM.YYYY and DD.MM.YY, read as 20YY, are accepted "
        "too); years 1900 to 2999",
        examples=["2026-03-01"],
    ),
]


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


def _period(data: PeriodCreate) -> PeriodInput:
    return PeriodInput(
        name=data.name, kind=data.kind, starts_on=data.starts_on, ends_on=data.ends_on
    )


class SeasonController(Controller):
    path = "/api/v1/seasons"
    tags = ["seasons"]  # noqa: RUF012

    @post("/", guards=[director_only], sync_to_thread=True, summary="Create a season")
    def create(self, data: JSONBody[SeasonCreate], services: NamedDependency[Services]) -> Season:
        season = services.tournaments.create_season(
            name=data.name,
            starts_on=data.starts_on,
            ends_on=data.ends_on,
            periods=[_period(period) for period in data.periods],
        )
        return msgspec.convert(season, Season)

    @get("/", sync_to_thread=True, summary="Every season with its calendar periods")
    def list_seasons(self, services: NamedDependency[Services]) -> list[Season]:
        return msgspec.convert(services.tournaments.list_seasons(), list[Season])

    @get("/{season_id:uuid}", sync_to_thread=True, summary="One season with its calendar periods")
    def show(self, season_id: FromPath[UUID], services: NamedDependency[Services]) -> Season:
        return msgspec.convert(services.tournaments.get_season(season_id), Season)

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
        season = services.tournaments.add_period(season_id, _period(data))
        return msgspec.convert(season, Season)
