"""The service's clock: the only place that reads the time; the domain gets ``now`` as argument."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime, timedelta
from typing import Protocol

from domain.errors import ConflictError

LATEST_INSTANT = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)
"""The dev clock stops short of the year 10000, which no ``datetime`` can hold."""


class ClockLimitError(ConflictError):
    """The dev clock would pass ``LATEST_INSTANT``."""

    type_slug = "clock-limit"


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
            return self._start + self._elapsed() + self._offset

    def advance(self, seconds: float) -> datetime:
        """Move forward by ``seconds`` (never back: recorded history keeps its order).

        An advance past ``LATEST_INSTANT`` is refused (``ClockLimitError``), the clock unmoved:
        past it every date computation of the service would overflow.
        """
        if seconds < 0:
            raise ValueError("the clock only moves forward")
        with self._lock:
            offset = self._offset + timedelta(seconds=seconds)
            if LATEST_INSTANT - self._start - offset < self._elapsed():
                raise ClockLimitError(
                    f"the clock cannot pass {LATEST_INSTANT.isoformat()}",
                    latest=LATEST_INSTANT.isoformat(),
                )
            self._offset = offset
        return self.now()

    def _elapsed(self) -> timedelta:
        return timedelta(seconds=time.monotonic() - self._started) if self._ticking else timedelta()
