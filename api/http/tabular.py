"""Tables that also answer ``Accept: text/csv``: one header line, then a line per row."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from litestar import Request, Response, get
from litestar.enums import MediaType
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, Operation, Schema
from litestar.openapi.spec.enums import OpenAPIType

from domain.calendar import readable_isoformat

CSV = "text/csv"
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula to a spreadsheet (OWASP, "CSV Injection")."""


def wants_csv(request: Request[Any, Any, Any]) -> bool:
    """Whether the client prefers CSV to JSON (JSON when it says nothing)."""
    return request.accept.best_match([MediaType.JSON, CSV], default=MediaType.JSON) == CSV


def table_response(
    request: Request[Any, Any, Any], rows: Sequence[object], columns: tuple[str, ...]
) -> Response[Any]:
    """The rows as the client asks: CSV with ``columns`` (``csv_response``) for ``Accept:
    text/csv``, else JSON."""
    if wants_csv(request):
        return csv_response(rows, columns)
    return Response(rows)


def csv_response(rows: Iterable[object], columns: tuple[str, ...]) -> Response[Any]:
    """The rows as CSV with a header: ``columns`` name the fields, in order; each cell as
    ``csv_cell`` writes it."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(csv_cell(column) for column in columns)
    for row in rows:
        writer.writerow(csv_cell(getattr(row, column)) for column in columns)
    return Response(text.getvalue(), media_type=CSV)  # Litestar adds "; charset=utf-8"


def csv_cell(value: object) -> object:
    """One value as a CSV cell that a spreadsheet shows and never evaluates: every cell of every
    CSV the service writes passes here.

    Text that a spreadsheet would take for a formula (a name ``=HYPERLINK(...)``, an e-mail
    ``+x@...``) gets a leading ``'``, as OWASP recommends; numbers stay numbers (-3 is written
    as -3). Instants are shown to the second, booleans as ``true``/``false`` and None as an
    empty cell, as the JSON shows them."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    if isinstance(value, datetime):
        return readable_isoformat(value)
    if isinstance(value, str) and value.startswith(FORMULA_TRIGGERS):
        return "'" + value
    return value


@dataclass
class CsvTableOperation(Operation):
    """An operation whose 200 answers JSON or, with ``Accept: text/csv``, the same rows as CSV."""

    def __post_init__(self) -> None:
        ok = (self.responses or {}).get("200")
        if isinstance(ok, OpenAPIResponse):
            content = ok.content if ok.content is not None else {}
            content[CSV] = OpenAPIMediaType(
                schema=Schema(
                    type=OpenAPIType.STRING,
                    description="with Accept: text/csv, the same rows: a header line, "
                    "then one line per row",
                )
            )
            ok.content = content


table_route = partial(get, sync_to_thread=True, operation_class=CsvTableOperation)
"""A table's route: JSON, or the same rows as CSV with ``Accept: text/csv`` (documented by
``CsvTableOperation``); its handler reads the view database in a thread."""
