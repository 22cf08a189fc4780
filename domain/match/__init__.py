"""The match aggregate: every roll, play, cube action, resignation and game result is an event.

A match holds its games; the state is folded from the events by ``evolve`` and commands are pure
functions ``(state, primitives, now) -> events``. Sides are ``"a"`` and ``"b"`` (gnubg's players
0 and 1). Dice arrive as arguments: typed in from a table (``entered``) or derived by the
service from the match's committed seed (``server``, rule G-DICE-1, see ``domain.dice``).
Clocks are arithmetic on the event timestamps (``domain.clock``).
"""

from __future__ import annotations

from domain.match.commands import (
    accept_resignation,
    beaver,
    claim_timeout,
    close_session,
    double,
    drop,
    offer_resignation,
    play,
    raccoon,
    reject_resignation,
    reveal_seed,
    roll,
    take,
    void,
)
from domain.match.early import award_penalty, change_penalty, conclude, forfeit
from domain.match.errors import (
    ClockNotExpiredError,
    CubeNotAvailableError,
    IllegalPlayRejectedError,
    MatchOverError,
    NotAMatchError,
    NotYourTurnError,
    PenaltyNotFoundError,
    RollNotVoidableError,
    WrongPhaseError,
)

# Every public name of ``events``, with no list to keep: stores written while the aggregate was
# one module name each event ``domain.match:Name``, and a new event must load from them too.
from domain.match.events import *  # noqa: F403
from domain.match.evolution import evolve
from domain.match.flags import clock_expires_at, flag_clock
from domain.match.start import VARIANTS, start_match
from domain.match.state import Match, Penalty
from domain.match.voids import void_roll

__all__ = [
    "VARIANTS",
    "ClockNotExpiredError",
    "CubeNotAvailableError",
    "IllegalPlayRejectedError",
    "Match",
    "MatchOverError",
    "NotAMatchError",
    "NotYourTurnError",
    "Penalty",
    "PenaltyNotFoundError",
    "RollNotVoidableError",
    "WrongPhaseError",
    "accept_resignation",
    "award_penalty",
    "beaver",
    "change_penalty",
    "claim_timeout",
    "clock_expires_at",
    "close_session",
    "conclude",
    "double",
    "drop",
    "evolve",
    "flag_clock",
    "forfeit",
    "offer_resignation",
    "play",
    "raccoon",
    "reject_resignation",
    "reveal_seed",
    "roll",
    "start_match",
    "take",
    "void",
    "void_roll",
]
