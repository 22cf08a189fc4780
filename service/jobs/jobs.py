"""Scheduled jobs: what the deadlines in the events make due, and one idempotent command each.

The pending jobs are a projection of the events (``projections/deadlines.py``) and of the
running clocks; a job's run records its effect as an event with the actor ``scheduler``. A job
run twice, by a second process or after a restart, finds its effect recorded and does nothing:
the events decide, never the scheduler. A new kind (as ``flag_break`` for over-long breaks did)
adds its rows to the projection and its runner to ``JobService.runners``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Literal, Protocol
from uuid import UUID

import msgspec

from domain import match, tournament
from domain.errors import DomainError
from domain.events import SCHEDULER
from domain.match import Match
from domain.tournament import Tournament
from projections.deadlines import (
    ANALYSE_MATCH,
    CLOSE_CANCELLATION,
    DELETE_VIDEO,
    FLAG_CLOCK,
    OPEN_CHECK_IN,
    START_TOURNAMENT,
    job_id,
)
from projections.runner import Views
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.loading import load_match, load_tournament
from service.storage.events import EventStore


class PairedRound(Protocol):
    @property
    def round(self) -> int: ...


class StartedTournament(Protocol):
    @property
    def players(self) -> int: ...
    @property
    def no_shows(self) -> Sequence[UUID]: ...
    @property
    def round(self) -> PairedRound: ...


class Rounds(Protocol):
    """What a due start asks of the rounds (``service/rounds``)."""

    def start(self, tournament_id: UUID, *, actor: str = ...) -> StartedTournament: ...


class Conduct(Protocol):
    """What the breaks' flags ask of conduct (``service/conduct``)."""

    def next_overrun(self, tournament_id: UUID) -> datetime | None: ...
    def flag_overruns(self, tournament_id: UUID, *, actor: str) -> int: ...


class Videos(Protocol):
    """What a due deletion asks of the evidence (``service/evidence``)."""

    def delete_due(self, video_id: UUID) -> str | None: ...


class Analyses(Protocol):
    """What a due analysis asks of the match analysis (``service/analysis``)."""

    def analyse_due(self, match_id: UUID) -> str | None: ...
    def unavailable_reason(self) -> str | None: ...


log = logging.getLogger(__name__)

JobStatus = Literal["waiting", "pending", "held", "done"]
FLAG_BREAK = "flag_break"
JOB_KINDS = (
    CLOSE_CANCELLATION,
    OPEN_CHECK_IN,
    START_TOURNAMENT,
    DELETE_VIDEO,
    FLAG_CLOCK,
    FLAG_BREAK,
    ANALYSE_MATCH,
)
"""Every kind of job."""
SLOW_KINDS = frozenset({ANALYSE_MATCH})
"""Jobs that run a program for a while (gnubg): run by ``run_slow``, in a scheduler thread of
their own, one per call, so that no deadline of play waits for them (A-ANALYSIS-1)."""


class Job(msgspec.Struct, frozen=True, kw_only=True):
    """A job of the scheduler, pending or past; instants in UTC."""

    id: str
    kind: str
    target: UUID
    """The tournament, recording or match the job acts on."""
    deadline: datetime | None
    """None: waiting for an event (a recording's game still being played)."""
    status: JobStatus
    done_at: datetime | None
    effect: str | None
    """The event the job recorded (or its last failure, for a retried one)."""
    attempts: int


@dataclass(frozen=True, slots=True)
class JobRun:
    job: str
    kind: str
    target: UUID
    effect: str | None
    """What the run recorded; None when it found nothing to do (done already, or not due)."""


class JobService:
    """Lists the jobs and runs those due, each as a command on its aggregate."""

    def __init__(
        self,
        store: EventStore,
        views: Views,
        commands: CommandRunner,
        rounds: Rounds,
        videos: Videos,
        conduct: Conduct,
        analyses: Analyses,
    ) -> None:
        self._store = store
        self._views = views
        self._commands = commands
        self._rounds = rounds
        self._videos = videos
        self._conduct = conduct
        self._analyses = analyses
        self.runners: dict[str, Callable[[UUID, datetime], str | None]] = {
            CLOSE_CANCELLATION: lambda target, now: self.close_cancellation(target),
            OPEN_CHECK_IN: lambda target, now: self.open_check_in(target),
            START_TOURNAMENT: self.start_tournament,
            DELETE_VIDEO: lambda target, now: self._videos.delete_due(target),
            FLAG_CLOCK: lambda target, now: self.flag_clock(target),
            FLAG_BREAK: lambda target, now: self.flag_breaks(target),
            ANALYSE_MATCH: lambda target, now: self._analyses.analyse_due(target),
        }
        """The command of each job kind, called with the job's target and ``now``."""

    # Queries ----------------------------------------------------------------------------------

    def list_jobs(self) -> list[Job]:
        """Pending and past jobs, by deadline (jobs without one last)."""
        self._views.catch_up()
        with self._views.reading() as db:
            rows = db.execute(
                "SELECT j.id, j.kind, j.target, j.deadline, j.done_at, j.effect, j.attempts, "
                "j.kind = ? AND EXISTS (SELECT 1 FROM open_disputes d "
                "WHERE d.match_id = j.match_id) FROM jobs j",
                [DELETE_VIDEO],
            ).fetchall()
            timed = [UUID(row[0]) for row in db.execute("SELECT match_id FROM timed_matches")]
            running = [
                UUID(row[0])
                for row in db.execute(
                    "SELECT id FROM calendar_tournaments "
                    "WHERE started_at IS NOT NULL AND completed_at IS NULL"
                )
            ]
        jobs = [_job(row) for row in rows]
        if self._analyses.unavailable_reason() is not None:
            # nothing runs and nothing is recorded where gnubg is missing (A-ANALYSIS-1)
            jobs = [
                msgspec.structs.replace(job, status="held")
                if job.kind == ANALYSE_MATCH and job.status == "pending"
                else job
                for job in jobs
            ]
        # flags are computed from the state, like the clocks, not scheduled
        jobs += _pending(FLAG_CLOCK, timed, lambda m: match.clock_expires_at(self._load_match(m)))
        jobs += _pending(FLAG_BREAK, running, self._conduct.next_overrun)
        return sorted(jobs, key=lambda job: (job.deadline is None, job.deadline or _EPOCH, job.id))

    def due(self, now: datetime) -> list[Job]:
        return [
            job
            for job in self.list_jobs()
            if job.status == "pending" and job.deadline is not None and job.deadline <= now
        ]

    # Commands ---------------------------------------------------------------------------------

    def run_due(self, now: datetime) -> list[JobRun]:
        """Run every job due at ``now`` once (the slow kinds aside); a job that fails is logged
        and tried again at the next run, the others run all the same."""
        return self._run([job for job in self.due(now) if job.kind not in SLOW_KINDS], now)

    def run_slow(self, now: datetime) -> list[JobRun]:
        """Run the first due job of the slow kinds (a match's analysis by gnubg)."""
        return self._run([job for job in self.due(now) if job.kind in SLOW_KINDS][:1], now)

    def _run(self, jobs: list[Job], now: datetime) -> list[JobRun]:
        runs = []
        for job in jobs:
            try:
                effect = self.runners[job.kind](job.target, now)
            except Exception:  # one broken job must not stop the others
                log.exception("job %s failed; it is tried again at the next run", job.id)
                effect = None
            runs.append(JobRun(job=job.id, kind=job.kind, target=job.target, effect=effect))
        return runs

    def close_cancellation(self, tournament_id: UUID) -> str | None:
        """rule T-CANCEL-1."""
        return self._tournament_command(tournament_id, tournament.close_cancellation)

    def open_check_in(self, tournament_id: UUID) -> str | None:
        """rule T-CHECKIN-1."""
        return self._tournament_command(tournament_id, tournament.open_check_in)

    def start_tournament(self, tournament_id: UUID, now: datetime) -> str | None:
        """rule T-CHECKIN-1, T-CHECKIN-2: at the latest start time the tournament starts by
        itself (no-shows released, round 1 paired); a refused start is recorded, once."""
        if not tournament.is_start_due(self._load(tournament_id), now):
            return None
        try:
            started = self._rounds.start(tournament_id, actor=SCHEDULER)
        except DomainError as refused:
            reason = refused.detail
            recorded = self._tournament_command(
                tournament_id,
                lambda state, now, *, actor: tournament.record_start_failure(
                    state, reason, now, actor=actor
                ),
            )
            return recorded and f"{recorded}: {reason}"
        return (
            f"TournamentStarted: {started.players} players, {len(started.no_shows)} no-shows "
            f"released, round {started.round.round} paired"
        )

    def flag_clock(self, match_id: UUID) -> str | None:
        """G-CLOCK-1, G-CLOCK-2: flag a run-out clock once, so that the opponent can claim."""
        change = self._commands.update(
            lambda: self._load_match(match_id),
            match.evolve,
            lambda state, now: match.flag_clock(state, now, actor=SCHEDULER),
            DECIDE_AGAIN,
        )
        return type(change.events[-1]).__name__ if change.events else None

    def flag_breaks(self, tournament_id: UUID) -> str | None:
        """rule C-BREAK-1: the breaks run over are flagged for the director's penalty."""
        flagged = self._conduct.flag_overruns(tournament_id, actor=SCHEDULER)
        return f"BreakOverrunFlagged x{flagged}" if flagged else None

    # Helpers ----------------------------------------------------------------------------------

    def _tournament_command(
        self, tournament_id: UUID, decide: Callable[..., list[tournament.TournamentEvent]]
    ) -> str | None:
        change = self._commands.update(
            lambda: self._load(tournament_id),
            tournament.evolve,
            lambda state, now: decide(state, now, actor=SCHEDULER),
            DECIDE_AGAIN,
        )
        return type(change.events[-1]).__name__ if change.events else None

    def _load(self, tournament_id: UUID) -> Tournament:
        return load_tournament(self._store, tournament_id)

    def _load_match(self, match_id: UUID) -> Match:
        return load_match(self._store, match_id)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _job(row: tuple[object, ...]) -> Job:
    identifier, kind, target, deadline, done_at, effect, attempts, held = row
    status: JobStatus
    if done_at is not None:
        status = "done"
    elif deadline is None:
        status = "waiting"
    else:
        status = "held" if held else "pending"
    return Job(
        id=str(identifier),
        kind=str(kind),
        target=UUID(str(target)),
        deadline=datetime.fromisoformat(deadline) if isinstance(deadline, str) else None,
        done_at=datetime.fromisoformat(done_at) if isinstance(done_at, str) else None,
        effect=effect if isinstance(effect, str) else None,
        status=status,
        attempts=int(str(attempts)),
    )


def _pending(
    kind: str, targets: list[UUID], deadline_of: Callable[[UUID], datetime | None]
) -> list[Job]:
    """A pending job of ``kind`` for each target that has a deadline now."""
    return [
        Job(
            id=job_id(kind, target),
            kind=kind,
            target=target,
            deadline=deadline,
            done_at=None,
            effect=None,
            status="pending",
            attempts=0,
        )
        for target in targets
        if (deadline := deadline_of(target)) is not None
    ]
