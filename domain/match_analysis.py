"""A match's analysis by GNU Backgammon (rules A-ANALYSIS-1..4): its events, its state and the
reading of gnubg's ``show statistics match``.

The analysis is an aggregate of its own, one per match (``analysis_id``), so that the match's
stream, its export and everything folded from it stay as they are (A-ANALYSIS-4: information
only). Its first event is the result of the automatic run after the match ended
(``MatchAnalysed`` or ``MatchAnalysisFailed``) or a director's ``MatchAnalysisRequested``; each
request is answered by exactly one result, since a result is recorded only on the version its
run started from (the store refuses a second one).
"""

from __future__ import annotations

import re
import uuid
from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

from domain.errors import ConflictError, NotFoundError
from domain.events import Aggregate, DomainEvent, EventBatch

ANALYSIS_PLIES = 0
"""rule A-ANALYSIS-2: chequer play and cube decisions evaluated at 0 ply."""
_NAMESPACE = uuid.UUID("5d0f3c1e-8a57-4f52-9a35-1b7e7d2f0a11")

AnalysisStatus = Literal["pending", "done", "failed"]


def analysis_id(match_id: UUID) -> UUID:
    """The one analysis aggregate of a match (two runs of the job meet at its version)."""
    return uuid.uuid5(_NAMESPACE, str(match_id))


class AnalysisNotFoundError(NotFoundError):
    """No analysis recorded for this match."""


class MatchInPlayError(ConflictError):
    """A match is analysed when it has ended."""

    type_slug = "match-in-play"


class AnalysisUnavailableError(ConflictError):
    """No analysis can be made (gnubg missing, analysis off, a variant, no recorded moves)."""

    type_slug = "analysis-unavailable"


class PlayerFigures(msgspec.Struct, frozen=True, kw_only=True):
    """rule A-ANALYSIS-3: one player's figures, non-negative; a rate without decisions is None."""

    unforced_moves: int
    cube_decisions: int
    """Close or actual cube decisions."""
    error_total_emg: float
    """Chequer play plus cube (gnubg's "Overall statistics: Error total EMG")."""
    error_rate_memg: float | None
    chequer_error_rate_memg: float | None
    cube_error_rate_memg: float | None

    @property
    def pr(self) -> float | None:
        """PR-style: the error rate / 2, XG's scale (500 x mean error per decision)."""
        return None if self.error_rate_memg is None else self.error_rate_memg / 2


class GnubgStatistics(msgspec.Struct, frozen=True, kw_only=True):
    """What ``show statistics match`` printed, side a (gnubg's player 0, the ``.mat``'s left
    column) and side b."""

    engine: str
    a: PlayerFigures
    b: PlayerFigures


class MatchAnalysisRequested(DomainEvent, frozen=True, kw_only=True):
    """A director asked for the match to be analysed (again)."""

    match_id: UUID


class MatchAnalysed(DomainEvent, frozen=True, kw_only=True):
    """GNU Backgammon's figures for the match (rule A-ANALYSIS-2: the setting is recorded)."""

    match_id: UUID
    engine: str
    plies: int = ANALYSIS_PLIES
    a: PlayerFigures
    b: PlayerFigures


class MatchAnalysisFailed(DomainEvent, frozen=True, kw_only=True):
    """gnubg ran and gave no figures (timeout, crash, unreadable output): why, in words."""

    match_id: UUID
    reason: str


MatchAnalysisEvent = MatchAnalysisRequested | MatchAnalysed | MatchAnalysisFailed


class MatchAnalysis(Aggregate, frozen=True, kw_only=True):
    """The analysis of one match as of its latest event."""

    match_id: UUID
    status: AnalysisStatus
    engine: str | None = None
    plies: int = ANALYSIS_PLIES
    figures: GnubgStatistics | None = None
    reason: str | None = None
    """Why the last run failed."""
    analysed_at: datetime | None = None


def evolve(state: MatchAnalysis | None, event: MatchAnalysisEvent) -> MatchAnalysis:
    """The one place where an analysis's events apply."""
    base = state or MatchAnalysis(
        id=event.originator_id, version=0, match_id=event.match_id, status="pending"
    )
    version = event.originator_version
    if isinstance(event, MatchAnalysisRequested):
        return msgspec.structs.replace(base, version=version, status="pending")
    if isinstance(event, MatchAnalysed):
        figures = GnubgStatistics(engine=event.engine, a=event.a, b=event.b)
        return msgspec.structs.replace(
            base,
            version=version,
            status="done",
            engine=event.engine,
            plies=event.plies,
            figures=figures,
            reason=None,
            analysed_at=event.timestamp,
        )
    if isinstance(event, MatchAnalysisFailed):
        return msgspec.structs.replace(
            base, version=version, status="failed", reason=event.reason, analysed_at=event.timestamp
        )
    raise TypeError(f"not an analysis event: {type(event).__name__}")


def is_due(state: MatchAnalysis | None) -> bool:
    """A run is due for an ended match never analysed, or after a director's request."""
    return state is None or state.status == "pending"


def request_analysis(
    state: MatchAnalysis | None, match_id: UUID, now: datetime, *, actor: str
) -> list[MatchAnalysisEvent]:
    """rule A-ANALYSIS-1: a director asks again; nothing new while a run is due anyway."""
    if is_due(state):
        return []
    assert state is not None
    batch = EventBatch[MatchAnalysisEvent].after(state, now, actor)
    batch.add(MatchAnalysisRequested, match_id=match_id)
    return batch.events


def record_result(
    state: MatchAnalysis | None,
    match_id: UUID,
    result: GnubgStatistics | str,
    now: datetime,
    *,
    actor: str,
) -> list[MatchAnalysisEvent]:
    """The run's figures, or its failure in words, answering the due run ``state`` stands for
    (nothing when no run is due: recorded already)."""
    if not is_due(state):
        return []
    batch = (
        EventBatch[MatchAnalysisEvent](analysis_id(match_id), 0, now, actor)
        if state is None
        else EventBatch[MatchAnalysisEvent].after(state, now, actor)
    )
    if isinstance(result, str):
        batch.add(MatchAnalysisFailed, match_id=match_id, reason=result)
    else:
        batch.add(MatchAnalysed, match_id=match_id, engine=result.engine, a=result.a, b=result.b)
    return batch.events


# Reading gnubg's output -------------------------------------------------------------------------


class GnubgOutputError(ValueError):
    """gnubg's output holds no match statistics (the import or the analysis failed)."""


_ENGINE = re.compile(r"^(GNU Backgammon \S+)", re.MULTILINE)
_DECIMAL = re.compile(r"([-+]?\d+\.\d+)\s+\(")
"""A figure followed by its MWC (or points) in parentheses: ``-2.978 (-32.629%)``."""
_SECTIONS = ("Chequerplay statistics", "Cube statistics", "Overall statistics")


def read_statistics(output: str) -> GnubgStatistics:
    """rule A-ANALYSIS-3: the figures of gnubg's ``show statistics match`` (run with
    ``LC_ALL=C``): per side, unforced moves, close or actual cube decisions, the overall
    error total and the overall, chequer and cube error rates, as printed (0.001 EMG,
    0.1 mEMG) but non-negative; a rate without decisions is None (gnubg prints -0.0)."""
    engine = _ENGINE.search(output)
    sections = _sections(output)
    try:
        chequer, cube, overall = (sections[name] for name in _SECTIONS)
        unforced = _integers(chequer, "Unforced moves")
        decisions = _integers(cube, "Close or actual cube decisions")
        total = _decimals(overall, "Error total EMG")
        rate = _decimals(overall, "Error rate mEMG")
        chequer_rate = _decimals(chequer, "Error rate mEMG")
        cube_rate = _decimals(cube, "Error rate mEMG")
    except (KeyError, ValueError) as unreadable:
        raise GnubgOutputError(f"no match statistics in gnubg's output ({unreadable})") from None
    figures = [
        PlayerFigures(
            unforced_moves=unforced[i],
            cube_decisions=decisions[i],
            error_total_emg=abs(total[i]),
            error_rate_memg=_rate(rate[i], unforced[i] + decisions[i]),
            chequer_error_rate_memg=_rate(chequer_rate[i], unforced[i]),
            cube_error_rate_memg=_rate(cube_rate[i], decisions[i]),
        )
        for i in (0, 1)
    ]
    return GnubgStatistics(
        engine=engine.group(1) if engine else "GNU Backgammon", a=figures[0], b=figures[1]
    )


def _sections(output: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.splitlines():
        if line.strip() in _SECTIONS or line.strip() == "Luck statistics":
            current = sections.setdefault(line.strip(), [])
        elif current is not None:
            current.append(line)
    return sections


def _line(lines: list[str], label: str) -> str:
    for line in lines:
        if line.startswith(label):
            return line[len(label) :]
    raise KeyError(label)


def _integers(lines: list[str], label: str) -> tuple[int, int]:
    found = [int(word) for word in _line(lines, label).split()]
    if len(found) != 2:
        raise ValueError(f"{label}: two counts expected")
    return found[0], found[1]


def _decimals(lines: list[str], label: str) -> tuple[float, float]:
    found = [float(number) for number in _DECIMAL.findall(_line(lines, label))]
    if len(found) != 2:
        raise ValueError(f"{label}: two figures expected")
    return found[0], found[1]


def _rate(printed: float, decisions: int) -> float | None:
    return abs(printed) if decisions else None
