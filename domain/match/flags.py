"""When a match's running clock runs out, and the flag the scheduler records then."""

from __future__ import annotations

from datetime import datetime, timedelta

from domain.events import DomainEvent, EventBatch
from domain.match.events import ClockFlagged
from domain.match.state import Match


def clock_expires_at(state: Match) -> datetime | None:
    """The instant the running side's time runs out, unless a move comes first (None when no
    clock runs, the match is over, or this period is flagged already)."""
    clock = state.clock
    if state.is_over or clock.running is None or clock.since is None:
        return None
    if state.flagged_since == clock.since:
        return None
    limit = clock.limit(state.preset, clock.running)  # after the overtime, if there is one
    return clock.since + timedelta(milliseconds=limit)


def flag_clock(state: Match, now: datetime, *, actor: str) -> list[DomainEvent]:
    """G-CLOCK-1, G-CLOCK-2: the running side is out of time at ``now``: flag it, once per
    expiry, so that the opponent can claim; nothing before the expiry or after a move."""
    expires = clock_expires_at(state)
    if expires is None or now < expires:
        return []
    clock = state.clock
    assert clock.running is not None
    assert clock.since is not None
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(
        ClockFlagged,
        flagged=clock.running,
        since=clock.since,
        reserve_ms=clock.reserve(clock.running),
        used_ms=clock.elapsed(now),
        overtime_ms=clock.allowance(state.preset, clock.running) - clock.reserve(clock.running),
    )
    return batch.events
