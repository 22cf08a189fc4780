"""Match analysis (rules A-ANALYSIS-*): GNU Backgammon's figures for an ended match, and a
director's request to analyse it again."""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

import msgspec
from litestar import Controller
from litestar.params import FromPath

from api.http.routes import director_post, get_route
from api.http.schemas import ActorDep, ServicesDep, restate
from domain.events import copied
from domain.match_analysis import PlayerFigures
from service.analysis.analysis import AnalysisView, ShownStatus


class PlayerAnalysis(msgspec.Struct, frozen=True, kw_only=True):
    """rule A-ANALYSIS-3: one player's figures, non-negative; a rate without decisions is
    null. ``pr`` = ``error_rate_memg`` / 2 (PR-style)."""

    name: str
    error_rate_memg: float | None
    chequer_error_rate_memg: float | None
    cube_error_rate_memg: float | None
    error_total_emg: float
    pr: float | None
    unforced_moves: int
    cube_decisions: int


class PlayersAnalysis(msgspec.Struct, frozen=True):
    a: PlayerAnalysis
    b: PlayerAnalysis


class Analysis(msgspec.Struct, frozen=True, kw_only=True):
    status: ShownStatus
    engine: str | None
    """e.g. "GNU Backgammon 1.07.001"; null unless ``done``."""
    plies: int
    analysed_at: datetime | None
    reason: str | None
    """Why ``unavailable`` (gnubg not installed, no recorded moves, ``variant``) or ``failed``."""
    players: PlayersAnalysis | None
    """Null unless ``done``."""


class AnalysisRequested(msgspec.Struct, frozen=True):
    status: ShownStatus


def player_analysis(name: str, figures: PlayerFigures) -> PlayerAnalysis:
    """The player's figures under the same names, with their ``pr``."""
    return restate(
        {"name": name, "pr": figures.pr, **msgspec.structs.asdict(figures)}, PlayerAnalysis
    )


def analysis_view(view: AnalysisView) -> Analysis:
    """The view under the same names, its figures as each named player's (null unless done)."""
    figures = view.figures
    name_a, name_b = view.names
    players = (
        PlayersAnalysis(player_analysis(name_a, figures.a), player_analysis(name_b, figures.b))
        if figures is not None
        else None
    )
    return copied(view, Analysis, players=players)


class MatchAnalysisController(Controller):
    path = "/api/v1/matches/{match_id:uuid}/analysis"
    tags = ["matches"]  # noqa: RUF012

    @get_route(summary="GNU Backgammon's analysis of the ended match (409 while it is played)")
    def show(self, match_id: FromPath[UUID], services: ServicesDep) -> Analysis:
        return analysis_view(services.analyses.analysis(match_id))

    @director_post(status_code=202, summary="Analyse the match (again) (director)")
    def request(
        self, match_id: FromPath[UUID], services: ServicesDep, actor: ActorDep
    ) -> AnalysisRequested:
        view = services.analyses.request(match_id, actor=actor)
        return AnalysisRequested(status=view.status)
