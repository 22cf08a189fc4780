"""Match analysis by GNU Backgammon (rules A-ANALYSIS-1..4): what a match's analysis says, a
director's request to analyse again, and the job's run.

The job (``service/jobs``: ``analyse_match``) runs after the log, in a scheduler thread of its
own, so play never waits for gnubg. Its result is recorded as an event of the match's analysis
only when the run answers the version it started from: exactly once, whichever process or
restart ran it. Where gnubg is missing or analysis is off, nothing runs and nothing is
recorded: the analysis says ``unavailable``. An analysis never changes a result, a standing or
a ranking (A-ANALYSIS-4): nothing reads its events but this slice and the job list.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, tzinfo
from typing import Literal
from uuid import UUID

import msgspec

from domain import match_analysis
from domain.events import SCHEDULER, DomainEvent
from domain.mat import format_mat
from domain.match import (
    CheckersPlayed,
    CubeOffered,
    Match,
    MatchStarted,
    TurnPassed,
)
from domain.match_analysis import (
    AnalysisNotFoundError,
    AnalysisUnavailableError,
    GnubgStatistics,
    MatchAnalysis,
    MatchInPlayError,
    analysis_id,
    is_due,
)
from service.analysis.gnubg import Gnubg
from service.shared.commands import CONDITIONAL, CommandRunner
from service.shared.match_play import MatchPlay
from service.storage.events import Change, EventStore, StaleVersionError

ShownStatus = Literal["pending", "done", "unavailable", "failed"]
VARIANT = "variant"
"""rule A-ANALYSIS-1: the reason a variant match (no ``.mat``) has no analysis."""
NO_MOVES = "no recorded moves"
TURNED_OFF = "analysis is turned off (BGTD_ANALYSIS=off)"
NOT_INSTALLED = "GNU Backgammon is not installed"


class AnalysisView(msgspec.Struct, frozen=True, kw_only=True):
    """A match's analysis as it stands: ``figures`` only when ``done``."""

    match_id: UUID
    status: ShownStatus
    engine: str | None
    plies: int
    analysed_at: datetime | None
    reason: str | None
    """Why ``unavailable`` or ``failed``."""
    names: tuple[str, str]
    """The players of sides a and b."""
    figures: GnubgStatistics | None


class AnalysisService:
    """What a match's analysis says, a director's request, and the job's run."""

    def __init__(
        self,
        store: EventStore,
        play: MatchPlay,
        commands: CommandRunner,
        gnubg: Gnubg,
        zone: tzinfo,
        *,
        enabled: bool = True,
    ) -> None:
        self._store = store
        self._play = play
        self._commands = commands
        self._gnubg = gnubg
        self._zone = zone
        self._enabled = enabled

    # Queries ------------------------------------------------------------------------------------

    def unavailable_reason(self) -> str | None:
        """Why no match can be analysed here (analysis off, gnubg missing), or None."""
        if not self._enabled:
            return TURNED_OFF
        if self._gnubg.program is None:
            return NOT_INSTALLED
        return None

    def analysis(self, match_id: UUID) -> AnalysisView:
        """rule A-ANALYSIS-1: the match's analysis: ``done`` with the figures, ``failed``, due
        (``pending``) or ``unavailable``; a 409 while the match is being played."""
        state = self._play.get(match_id)
        names = (state.player_a, state.player_b)
        recorded = self._recorded(match_id)
        unanalysable = self._unanalysable(state, self._play_events(match_id))
        if unanalysable is not None:
            return _view(match_id, "unavailable", names, reason=unanalysable)
        if recorded is not None and recorded.status == "done":
            return _view(
                match_id,
                "done",
                names,
                engine=recorded.engine,
                analysed_at=recorded.analysed_at,
                figures=recorded.figures,
            )
        if (unavailable := self.unavailable_reason()) is not None:
            return _view(match_id, "unavailable", names, reason=unavailable)
        if recorded is not None and recorded.status == "failed":
            return _view(
                match_id, "failed", names, analysed_at=recorded.analysed_at, reason=recorded.reason
            )
        return _view(match_id, "pending", names)

    # Commands -----------------------------------------------------------------------------------

    def request(self, match_id: UUID, *, actor: str) -> AnalysisView:
        """rule A-ANALYSIS-1: a director asks for the match to be analysed (again), e.g. after
        gnubg was installed; refused (409, nothing recorded) where no analysis can be made."""
        state = self._play.get(match_id)
        reason = self._unanalysable(state, self._play_events(match_id))
        reason = reason or self.unavailable_reason()
        if reason is not None:
            raise AnalysisUnavailableError(f"the match cannot be analysed: {reason}")
        recorded = self._recorded(match_id)
        if recorded is not None:
            self._commands.update(
                lambda: self._load(match_id),
                match_analysis.evolve,
                lambda current, now: match_analysis.request_analysis(
                    current, match_id, now, actor=actor
                ),
                CONDITIONAL,
            )
        return self.analysis(match_id)

    def analyse_due(self, match_id: UUID) -> str | None:
        """The job: analyse the ended match once, and record the figures or the failure.

        None where nothing is due (recorded already, by this or another process) or no analysis
        can be made here (the job waits: ``unavailable_reason``)."""
        if self.unavailable_reason() is not None:
            return None
        before = self._recorded(match_id)
        if not is_due(before):
            return None
        state = self._play.get(match_id)
        events = self._play_events(match_id)
        try:
            reason = self._unanalysable(state, events)
        except MatchInPlayError:
            return None
        result = reason if reason is not None else self._analyse(events)
        try:
            change = self._commands.run(
                lambda now: Change.of(
                    match_analysis.evolve,
                    before,
                    match_analysis.record_result(before, match_id, result, now, actor=SCHEDULER),
                ),
                CONDITIONAL,
            )
        except StaleVersionError:
            return None  # another run recorded its answer first
        if not change.events:
            return None
        return _effect(change.events[-1])

    # Helpers ------------------------------------------------------------------------------------

    def _analyse(self, events: Sequence[DomainEvent]) -> GnubgStatistics | str:
        """gnubg's figures for the match, or why there are none: a match the export cannot
        write is a recorded failure too, not a job failing at every poll ahead of the others."""
        try:
            mat = format_mat(events, self._zone)
        except Exception as unexported:  # the slow jobs run one at a time: never stuck on one
            return f"the match could not be exported as .mat ({type(unexported).__name__})"
        return self._gnubg.analyse(mat)

    def _play_events(self, match_id: UUID) -> list[DomainEvent]:
        events: list[DomainEvent] = self._store.stream(match_id)
        return events

    def _unanalysable(self, state: Match, events: Sequence[DomainEvent]) -> str | None:
        """Why this match has no analysis, whatever is installed; a 409 while it is played."""
        if state.voided:
            return "the match was voided"
        if not state.is_over:
            raise MatchInPlayError("the match is being played: it is analysed when it has ended")
        started = events[0]
        if isinstance(started, MatchStarted) and getattr(started, "variant", "backgammon") not in {
            "backgammon",
            None,
        }:
            return VARIANT
        if not any(
            isinstance(event, CheckersPlayed | TurnPassed | CubeOffered) for event in events
        ):
            return NO_MOVES
        return None

    def _recorded(self, match_id: UUID) -> MatchAnalysis | None:
        try:
            return self._load(match_id)
        except AnalysisNotFoundError:
            return None

    def _load(self, match_id: UUID) -> MatchAnalysis:
        return self._store.load_as(
            analysis_id(match_id),
            match_analysis.evolve,
            MatchAnalysis,
            lambda: AnalysisNotFoundError(f"no analysis of match {match_id} recorded"),
        )


def _view(
    match_id: UUID,
    status: ShownStatus,
    names: tuple[str, str],
    *,
    engine: str | None = None,
    analysed_at: datetime | None = None,
    reason: str | None = None,
    figures: GnubgStatistics | None = None,
) -> AnalysisView:
    return AnalysisView(
        match_id=match_id,
        status=status,
        engine=engine,
        plies=match_analysis.ANALYSIS_PLIES,
        analysed_at=analysed_at,
        reason=reason,
        names=names,
        figures=figures,
    )


def _effect(event: DomainEvent) -> str:
    """What the job list shows of a run."""
    if isinstance(event, match_analysis.MatchAnalysed):
        rates = [figures.error_rate_memg for figures in (event.a, event.b)]
        shown = " / ".join("-" if rate is None else f"{rate:.1f}" for rate in rates)
        return f"MatchAnalysed: error rates {shown} mEMG"
    if isinstance(event, match_analysis.MatchAnalysisFailed):
        return f"MatchAnalysisFailed: {event.reason}"
    return type(event).__name__
