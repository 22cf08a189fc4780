"""The tournament's deadlines as commands the scheduler gives: each records its effect once.

A command decided again (a second process, a retry) finds the effect recorded and decides
nothing, so a job may run any number of times.
"""

from __future__ import annotations

from datetime import datetime

from domain.events import EventBatch
from domain.tournament.events import (
    CancellationClosed,
    CheckInOpened,
    TournamentEvent,
    TournamentStartFailed,
)
from domain.tournament.state import Tournament


def close_cancellation(state: Tournament, now: datetime, *, actor: str) -> list[TournamentEvent]:
    """rule T-CANCEL-1: after the deadline cancellations are closed (once, before the start)."""
    if state.cancellation_closed or state.started_at is not None or now <= state.cancellation_until:
        return []
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(CancellationClosed)
    return batch.events


def open_check_in(state: Tournament, now: datetime, *, actor: str) -> list[TournamentEvent]:
    """rule T-CHECKIN-1: check-in opens on the play date at its time (once, before the start)."""
    if state.check_in_opened or state.started_at is not None or now < state.check_in_opens:
        return []
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(CheckInOpened)
    return batch.events


def is_start_due(state: Tournament, now: datetime) -> bool:
    """rule T-CHECKIN-1: at the latest start time a tournament not yet started starts, once."""
    return state.started_at is None and state.start_failed_at is None and now >= state.starts_at


def record_start_failure(
    state: Tournament, reason: str, now: datetime, *, actor: str
) -> list[TournamentEvent]:
    """The start at the latest start time was refused: recorded once, for the director."""
    if not is_start_due(state, now):
        return []
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(TournamentStartFailed, reason=reason)
    return batch.events
