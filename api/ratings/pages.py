"""Public pages of the rating list: the list, a player's page with their history, an SVG chart
and their head-to-head, and the head-to-head page of any player (rules R-RATE-1, P-PUB-1).
German by default, English with ``?lang=en``."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

from litestar import Controller, Response
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath
from litestar.response import Template

from api.http.tabular import CSV, csv_response
from api.pages.pages import TEXT as PAGE_TEXT
from api.pages.pages import Page, page_route, provide_page
from api.ratings.chart import rating_chart
from api.ratings.ratings import RATING_COLUMNS
from api.ratings.texts import TEXT, change_number, day, decimal, rating_number
from domain.errors import DomainError
from projections.ratings import RatingLine
from service.analysis.analysis import AnalysisView

RATING_TEMPLATES = Path(__file__).parent / "templates"


def _analysed(page: Page, history: Sequence[RatingLine]) -> list[tuple[RatingLine, AnalysisView]]:
    """rule A-ANALYSIS-3: the player's matches played through bgtd that gnubg has analysed,
    newest first, each with its line of the history (date, opponent)."""
    analysed = []
    for line in reversed(history):
        if line.match_id is None or line.source != "match":
            continue
        try:
            analysis = page.services.analyses.analysis(line.match_id)
        except DomainError:  # a match voided since, or no longer readable: nothing to show
            continue
        if analysis.status == "done":
            analysed.append((line, analysis))
    return analysed


def _render(page: Page, name: str, **context: Any) -> Template:
    lang = page.lang
    return page.render(
        name,
        t=PAGE_TEXT[lang] | TEXT[lang],
        rating_number=lambda value: rating_number(value, lang),
        change_number=lambda value: change_number(value, lang),
        decimal=lambda value, places: decimal(value, places, lang),
        day=lambda iso: day(iso, lang),
        **context,
    )


class RatingPageController(Controller):
    path = "/pages"
    tags = ["pages"]  # noqa: RUF012
    dependencies = {"page": Provide(provide_page, sync_to_thread=False)}  # noqa: RUF012

    @page_route("/ratings", summary="Page: the club's rating list")
    def ratings(self, page: NamedDependency[Page]) -> Template:
        return _render(page, "ratings/list.html", rows=page.services.ratings.list_ratings())

    @page_route(
        "/ratings.csv",
        media_type=CSV,
        summary="The club's rating list as a CSV file (formula cells neutralised)",
    )
    def ratings_csv(self, page: NamedDependency[Page]) -> Response[Any]:
        answer = csv_response(page.services.ratings.list_ratings(), RATING_COLUMNS)
        answer.headers["Content-Disposition"] = 'attachment; filename="ratings.csv"'
        return answer

    @page_route(
        "/players/{player_id:uuid}",
        summary="Page: a player's rating, history with every number and a rating chart",
    )
    def player(self, player_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        found = page.services.ratings.player_ratings(player_id)
        label = TEXT[page.lang]["chart_label"].format(name=found.display_name)
        start = found.matches[0].rating_before
        chart = rating_chart(start, [line.rating_after for line in found.matches], label=label)
        meetings = page.services.ratings.head_to_head(player_id).opponents
        analysed = _analysed(page, found.matches)
        return _render(
            page,
            "ratings/player.html",
            player=found,
            chart=chart,
            meetings=meetings,
            analysed=analysed,
        )

    @page_route(
        "/players/{player_id:uuid}/head-to-head",
        summary="Page: a player's record against each opponent (display names only)",
    )
    def head_to_head(self, player_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        found = page.services.ratings.head_to_head(player_id)
        return _render(page, "ratings/head_to_head.html", player=found, meetings=found.opponents)
