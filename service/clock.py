"""The service's clock: the only place that reads the time; the domain gets ``now`` as argument."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """The current instant, timezone-aware (UTC)."""
        ...


class SystemClock:
    """Real time."""

    def now(self) -> datetime:
        return datetime.now(UTC)


class MovableClock:
    """A clock that starts at a chosen instant and can be moved forward (``--dev``).

    It ticks with real time unless ``ticking`` is off (tests that want exact instants).
    """

    def __init__(self, start: datetime | None = None, *, ticking: bool = True) -> None:
        self._start = (start or datetime.now(UTC)).astimezone(UTC)
        self._started = time.monotonic()
        self._offset = timedelta()
        self._ticking = ticking
        self._lock = threading.Lock()

    def now(self) -> datetime:
        with self._lock:
            elapsed = (
                timedelta(seconds=time.monotonic() - self._started)
                if self._ticking
                else timedelta()
            )
            return self._start + elapsed + self._offset

    def advance(self, seconds: float) -> datetime:
        """Move forward by ``seconds`` (never back: recorded history keeps its order)."""
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        with self._lock:
            self._offset += timedelta(seconds=seconds)
        return self.now()
