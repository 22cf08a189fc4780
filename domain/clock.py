"""Match clocks: presets and clock arithmetic from event timestamps (G-CLOCK-1, G-CLOCK-2).

No timer runs per move. The match records when each side's clock started (the timestamp of the
event that handed it the turn); a reading at any instant, and a timeout claim, is arithmetic on
those timestamps. All durations are integer milliseconds.

Two delay modes:
- Bronstein (club, WBGF 3.5): the reserve counts down from the first second of a move; after
  the move the player gets back the time used, up to the delay. The flag falls when the time
  used in one move reaches the reserve held at its start.
- Simple delay (app, online30): the per-move time runs first, then the reserve. The flag falls
  when a move takes longer than the per-move time plus the reserve.

USBGF overtime (option of G-CLOCK-1, ``overtime_ms`` 60 or 120 s): the first time a side's time
runs out, the overtime is added to its reserve and its clock runs on; the second expiry is the
one that loses. Like the rest, it is arithmetic: the side's allowance in a move is its reserve
plus the overtime it has not yet drawn, and the period that runs past the reserve draws it.
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from typing import Literal

import msgspec
import msgspec.structs

ClockPresetName = Literal["club", "app", "online30", "none"]
TimeoutOutcome = Literal["match", "gammon"]

_MS = timedelta(milliseconds=1)


class ClockPreset(msgspec.Struct, frozen=True, kw_only=True):
    """How much time each side has and what running out of it costs.

    Each side's reserve lasts the whole match: it is never refilled between games.
    """

    name: ClockPresetName
    delay_ms: int = 0
    bronstein: bool = False
    reserve_ms: int = 0
    reserve_ms_per_point: int = 0
    runs_between_games: bool = False
    """Breaks between games count against the match time (club rule, G-CLOCK-1)."""
    timeout_outcome: TimeoutOutcome = "gammon"
    """``match``: the side out of time loses the match; ``gammon``: the opponent may claim the
    game as a gammon (times the cube)."""
    overtime_ms: int = 0
    """USBGF option of G-CLOCK-1: one overtime per side after its first expiry (0: none)."""

    @property
    def is_timed(self) -> bool:
        return self.name != "none"

    def initial_reserve(self, match_length: int) -> int:
        """The reserve each side starts with (2 minutes per match point for the club)."""
        return self.reserve_ms + self.reserve_ms_per_point * match_length

    def limit(self, reserve_ms: int) -> int:
        """Milliseconds one move may take, given the reserve at its start, before the flag falls."""
        return reserve_ms if self.bronstein else self.delay_ms + reserve_ms

    def charge(self, reserve_ms: int, elapsed_ms: int) -> int:
        """The reserve after a move that took ``elapsed_ms``; never below zero."""
        if elapsed_ms >= self.limit(reserve_ms):
            return 0
        if self.bronstein:
            return reserve_ms - elapsed_ms + min(elapsed_ms, self.delay_ms)
        return reserve_ms - max(0, elapsed_ms - self.delay_ms)

    def is_expired(self, reserve_ms: int, elapsed_ms: int) -> bool:
        return self.is_timed and elapsed_ms >= self.limit(reserve_ms)


# rule G-CLOCK-1 (seed 000, WBGF 3.5): Bronstein delay 12 s per move, 2 minutes per match point;
# breaks between games count against the match time; running out loses the match.
CLUB = ClockPreset(
    name="club",
    delay_ms=12_000,
    bronstein=True,
    reserve_ms_per_point=120_000,
    runs_between_games=True,
    timeout_outcome="match",
)
# rule G-CLOCK-2 (seed 001): 11 s per move, then a 1:30 reserve per player (for the match, like
# every reserve here); at expiry the opponent must claim the win, worth a gammon.
APP = ClockPreset(name="app", delay_ms=11_000, reserve_ms=90_000, timeout_outcome="gammon")
# rule G-CLOCK-2 (seed 003): 30 s per move, no reserve. The seed is silent on the consequence;
# default: as in the app preset, the opponent may claim a gammon.
ONLINE30 = ClockPreset(name="online30", delay_ms=30_000, timeout_outcome="gammon")
NO_CLOCK = ClockPreset(name="none")

PRESETS: dict[str, ClockPreset] = {p.name: p for p in (CLUB, APP, ONLINE30, NO_CLOCK)}


OVERTIME_SECONDS = (0, 60, 120)
"""rule G-CLOCK-1 (USBGF option): no overtime, or one overtime of 1 or 2 minutes."""


@functools.cache
def with_overtime(preset: ClockPreset, overtime_seconds: int) -> ClockPreset:
    """``preset`` with the USBGF overtime of G-CLOCK-1 (``overtime_seconds`` 0 leaves it)."""
    if not overtime_seconds:
        return preset
    return msgspec.structs.replace(preset, overtime_ms=overtime_seconds * 1000)


def elapsed_ms(since: datetime, until: datetime) -> int:
    """Whole milliseconds from ``since`` to ``until`` (zero if the instants are out of order)."""
    return max(0, (until - since) // _MS)


class SideReading(msgspec.Struct, frozen=True, kw_only=True):
    """One side's clock at an instant."""

    reserve_ms: int
    """Reserve left (for Bronstein: counting down since the move began)."""
    delay_ms: int
    """Per-move time left in the current move (the full delay when not running)."""
    running: bool
    expired: bool
    overtime: bool = False
    """The side's overtime has begun (G-CLOCK-1, USBGF option): the next expiry loses."""


class MatchClock(msgspec.Struct, frozen=True, kw_only=True):
    """Both sides' reserves as of the start of the current period, and whose clock runs."""

    reserve_a_ms: int
    reserve_b_ms: int
    running: Literal["a", "b"] | None = None
    since: datetime | None = None
    overtime_a: bool = False
    """Side a has drawn its overtime (G-CLOCK-1, USBGF option): its first expiry is behind it."""
    overtime_b: bool = False

    @classmethod
    def start(cls, preset: ClockPreset, match_length: int) -> MatchClock:
        reserve = preset.initial_reserve(match_length)
        return cls(reserve_a_ms=reserve, reserve_b_ms=reserve)

    def reserve(self, side: str) -> int:
        return self.reserve_a_ms if side == "a" else self.reserve_b_ms

    def in_overtime(self, side: str) -> bool:
        return self.overtime_a if side == "a" else self.overtime_b

    def allowance(self, preset: ClockPreset, side: str) -> int:
        """The most ``side``'s reserve can stretch to in a move: its reserve, plus the overtime
        when it has not drawn it yet (G-CLOCK-1, USBGF option)."""
        reserve = self.reserve(side)
        return reserve if self.in_overtime(side) else reserve + preset.overtime_ms

    def limit(self, preset: ClockPreset, side: str) -> int:
        """Milliseconds ``side``'s current (or next) move may take before the flag falls for
        good: the expiry that loses, after the overtime if there is one."""
        return preset.limit(self.allowance(preset, side))

    def draws_overtime(self, preset: ClockPreset, side: str, used_ms: int) -> bool:
        """A period of ``used_ms`` runs past ``side``'s reserve and draws its overtime."""
        return (
            preset.overtime_ms > 0
            and not self.in_overtime(side)
            and used_ms >= preset.limit(self.reserve(side))
        )

    def switch(
        self, preset: ClockPreset, running: Literal["a", "b"] | None, at: datetime
    ) -> MatchClock:
        """End the running side's period at ``at`` (charging it) and start ``running``'s."""
        reserve_a, reserve_b = self.reserve_a_ms, self.reserve_b_ms
        overtime_a, overtime_b = self.overtime_a, self.overtime_b
        if self.running is not None and self.since is not None:
            used = elapsed_ms(self.since, at)
            drawn = self.draws_overtime(preset, self.running, used)
            charged = preset.charge(
                self.allowance(preset, self.running) if drawn else self.reserve(self.running), used
            )
            if self.running == "a":
                reserve_a, overtime_a = charged, overtime_a or drawn
            else:
                reserve_b, overtime_b = charged, overtime_b or drawn
        return MatchClock(
            reserve_a_ms=reserve_a,
            reserve_b_ms=reserve_b,
            running=running,
            since=at if running is not None else None,
            overtime_a=overtime_a,
            overtime_b=overtime_b,
        )

    def elapsed(self, at: datetime) -> int:
        """Milliseconds the running side has used in its current period."""
        return elapsed_ms(self.since, at) if self.since is not None else 0

    def read(self, preset: ClockPreset, side: Literal["a", "b"], at: datetime) -> SideReading:
        reserve = self.reserve(side)
        if self.running != side:
            return SideReading(
                reserve_ms=reserve,
                delay_ms=preset.delay_ms,
                running=False,
                expired=False,
                overtime=self.in_overtime(side),
            )
        used = self.elapsed(at)
        drawn = self.draws_overtime(preset, side, used)
        if drawn:  # the first expiry is behind this move: the overtime counts down now
            reserve = self.allowance(preset, side)
        if preset.bronstein:
            left = max(0, reserve - used)
        else:
            left = max(0, reserve - max(0, used - preset.delay_ms))
        return SideReading(
            reserve_ms=left,
            delay_ms=max(0, preset.delay_ms - used),
            running=True,
            expired=preset.is_expired(reserve, used),
            overtime=drawn or self.in_overtime(side),
        )

    def is_expired(self, preset: ClockPreset, at: datetime) -> bool:
        """The running side's time has run out for good at ``at`` (after any overtime)."""
        if self.running is None:
            return False
        return preset.is_timed and self.elapsed(at) >= self.limit(preset, self.running)
