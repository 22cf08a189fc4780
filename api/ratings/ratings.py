"""The club's rating list (rules R-RATE-*): the list, a player's history, imports, settings;
and a player's record against each opponent (head-to-head)."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

import msgspec
from litestar import Controller, Request, Response, post
from litestar.openapi.spec import OpenAPIMediaType, Operation, RequestBody, Schema
from litestar.openapi.spec.enums import OpenAPIType
from litestar.params import FromPath, JSONBody

from api.http.auth import director_only, in_thread
from api.http.routes import director_put, get_route
from api.http.schemas import ActorDep, ServicesDep
from api.http.tabular import CSV, table_response, table_route
from domain.errors import InvalidInputError
from domain.ratings.club import ImportRow
from projections.head_to_head import HeadToHeadRow
from projections.ratings import PlayerRatings, RatingRow
from service.ratings.ratings import ImportReceipt, RatingSettings

_T = TypeVar("_T")

RATING_COLUMNS = (
    "rank",
    "player_id",
    "display_name",
    "rating",
    "experience",
    "last_change",
    "matches",
)
CSV_HEADER = ["date", "winner", "loser", "length"]


class ImportedMatchRow(msgspec.Struct, forbid_unknown_fields=True):
    """One past match; every row is checked, and a bad one names itself (rule R-RATE-8)."""

    date: str
    """YYYY-MM-DD, a real day, not after today."""
    winner: str
    """A player id, or a display name (exact, outer spaces trimmed); a new name adds a player."""
    loser: str
    length: int | str
    """1 to 64 points."""


class ImportCreate(msgspec.Struct, forbid_unknown_fields=True):
    matches: list[ImportedMatchRow]


class RatingSettingsChange(msgspec.Struct, forbid_unknown_fields=True):
    """A field left out keeps its value (docs/api.md: API.md is silent on partial bodies)."""

    start_rating: float | msgspec.UnsetType = msgspec.UNSET
    newcomer_boost: bool | msgspec.UnsetType = msgspec.UNSET


_IMPORT_ROW_SCHEMA = Schema(
    type=OpenAPIType.OBJECT,
    required=["date", "winner", "loser", "length"],
    properties={
        "date": Schema(type=OpenAPIType.STRING, examples=["2025-03-01"]),
        "winner": Schema(type=OpenAPIType.STRING),
        "loser": Schema(type=OpenAPIType.STRING),
        "length": Schema(type=OpenAPIType.INTEGER),
    },
    additional_properties=False,
)


@dataclass
class ImportOperation(Operation):
    """The import's body: JSON ``{"matches": [...]}`` or a CSV file with a header line."""

    def __post_init__(self) -> None:
        self.request_body = RequestBody(
            required=True,
            content={
                "application/json": OpenAPIMediaType(
                    schema=Schema(
                        type=OpenAPIType.OBJECT,
                        required=["matches"],
                        properties={
                            "matches": Schema(type=OpenAPIType.ARRAY, items=_IMPORT_ROW_SCHEMA)
                        },
                        additional_properties=False,
                    )
                ),
                CSV: OpenAPIMediaType(
                    schema=Schema(
                        type=OpenAPIType.STRING,
                        description="the header line date,winner,loser,length, then a match "
                        "per line (row i of the errors is line i + 2)",
                    )
                ),
            },
        )


_JSON_PATH = re.compile(r"at `\$\.?(.*)`")


def import_rows(content_type: str, body: bytes) -> tuple[list[ImportRow], list[int] | None]:
    """The rows of a JSON or CSV import, and for a CSV file each row's index among its
    records (a blank line holds no row, yet counts: row i is line i + 2); a malformed body is
    422 naming where."""
    if content_type.split(";")[0].strip().lower() == CSV:
        return _csv_rows(body)
    try:
        # decoded untyped first, as Litestar does: a body nested too deep is a 400 everywhere
        data = msgspec.convert(msgspec.json.decode(body), ImportCreate)
    except msgspec.ValidationError as error:
        found = _JSON_PATH.search(str(error))
        field = found.group(1) if found and found.group(1) else "matches"
        raise InvalidInputError(field, str(error).split(" - at ")[0]) from None
    except msgspec.DecodeError:
        raise InvalidInputError("body", "is not JSON (or send Content-Type: text/csv)") from None
    rows = [
        ImportRow(date=r.date, winner=r.winner, loser=r.loser, length=r.length)
        for r in data.matches
    ]
    return rows, None


_ROW_INDEX = re.compile(r"^matches\[(\d+)\]")


def renumbered(error: InvalidInputError, records: list[int]) -> InvalidInputError:
    """The import's refusal with each row named by its CSV record (``records``: each row's
    index among them), as the file's reader names the rows it refuses itself."""

    def field(name: str) -> str:
        found = _ROW_INDEX.match(name)
        if found is None or int(found.group(1)) >= len(records):
            return name
        return f"matches[{records[int(found.group(1))]}]{name[found.end() :]}"

    extensions = dict(error.extensions)
    errors = extensions.get("errors")
    if isinstance(errors, list):
        extensions["errors"] = [
            {**each, "field": field(str(each["field"]))} if isinstance(each, dict) else each
            for each in errors
        ]
    return InvalidInputError(field(error.field), error.message, **extensions)


def _csv_rows(body: bytes) -> tuple[list[ImportRow], list[int]]:
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInputError("body", "a CSV import is UTF-8 text") from None
    try:
        lines = list(csv.reader(io.StringIO(text)))
    except csv.Error as unreadable:  # e.g. a quote never closed: the rest is one huge cell
        raise InvalidInputError(
            "body", f"is no CSV file the import can read ({unreadable})"
        ) from None
    if not lines or [cell.strip().lower() for cell in lines[0]] != CSV_HEADER:
        raise InvalidInputError("body", "the first line is the header date,winner,loser,length")
    rows, records, errors = [], [], []
    for index, cells in enumerate(lines[1:]):
        if not cells:
            continue
        if len(cells) != len(CSV_HEADER):
            errors.append(
                {"field": f"matches[{index}]", "message": f"has {len(cells)} cells, not 4"}
            )
            continue
        date, winner, loser, length = cells
        rows.append(ImportRow(date=date, winner=winner, loser=loser, length=length))
        records.append(index)
    if errors:
        raise InvalidInputError(errors[0]["field"], errors[0]["message"], errors=errors)
    return rows, records


class RatingController(Controller):
    path = "/api/v1/ratings"
    tags = ["ratings"]  # noqa: RUF012

    @table_route(
        "/",
        summary="The club's rating list (also as CSV with Accept: text/csv)",
        description="Every player with a rated match, highest rating first; ratings and the "
        "last change are unrounded (clients round); equal ratings share a rank (rules "
        "R-RATE-1..5, the FIBS formula).",
    )
    def list_ratings(
        self, request: Request[Any, Any, Any], services: ServicesDep
    ) -> Response[list[RatingRow]]:
        return table_response(request, services.ratings.list_ratings(), RATING_COLUMNS)

    @get_route(
        "/settings", summary="The rating settings: start rating and newcomer boost (rule R-RATE-3)"
    )
    def settings(self, services: ServicesDep) -> RatingSettings:
        return services.ratings.rating_settings()

    @director_put(
        "/settings",
        summary="Change the rating settings from the next rated match on (club director)",
    )
    def change_settings(
        self, data: JSONBody[RatingSettingsChange], services: ServicesDep, actor: ActorDep
    ) -> RatingSettings:
        return services.ratings.change_rating_settings(
            start_rating=_given(data.start_rating),
            newcomer_boost=_given(data.newcomer_boost),
            actor=actor,
        )

    @get_route(
        "/{player_id:uuid}",
        summary="A player's rating and every rated match with the numbers that went into it",
        description="Oldest first: rating before, the opponent's before, p (the chance the "
        "loser would have won), k (the boost), the change and the rating after; anyone can "
        "recompute each line (rule R-RATE-1). 404 for a player without a rated match.",
    )
    def player(self, player_id: FromPath[UUID], services: ServicesDep) -> PlayerRatings:
        return services.ratings.player_ratings(player_id)

    @post(
        "/imports",
        guards=[director_only],
        status_code=201,
        operation_class=ImportOperation,
        summary="Import past results, all or nothing (club director)",
        description='JSON `{"matches": [{"date", "winner", "loser", "length"}]}` or '
        "`Content-Type: text/csv` with the header `date,winner,loser,length`. Rated at the "
        "import, in list order; a name nobody has adds a rating-only player; a bad import "
        "stores nothing and its 422 names every bad row (rules R-RATE-4, R-RATE-6..8).",
    )
    async def import_results(
        self, request: Request[Any, Any, Any], services: ServicesDep, actor: ActorDep
    ) -> ImportReceipt:
        rows, records = import_rows(request.headers.get("content-type", ""), await request.body())
        try:
            return await in_thread(
                services, lambda: services.ratings.import_results(rows, actor=actor)
            )
        except InvalidInputError as refused:
            if records is None:
                raise
            raise renumbered(refused, records) from None


class PlayerController(Controller):
    path = "/api/v1/players"
    tags = ["ratings"]  # noqa: RUF012

    @get_route(
        "/{player_id:uuid}/head-to-head",
        summary="A player's record against each opponent (public, display names only)",
        description="Per opponent: matches, wins, losses, points for and against, the day of "
        "the last meeting. Decided tournament matches of every tournament (played or reported; "
        "no byes, no unplayed forfeits; a corrected result counts once, as corrected) and "
        "rated ad hoc matches. Most meetings first. 404 for an unknown player.",
    )
    def head_to_head(self, player_id: FromPath[UUID], services: ServicesDep) -> list[HeadToHeadRow]:
        return services.ratings.head_to_head(player_id).opponents


def _given(value: _T | msgspec.UnsetType) -> _T | None:
    """A field of a partial body: ``None`` when the body left it out."""
    return None if isinstance(value, msgspec.UnsetType) else value
