"""Rolls that do not count (rule G-DICE-2): a die off the board, cocked, or on a checker ("dice
on checker" is not allowed, WBGF 4.1 iv). The roll is voided and rolled again; its event stays
in the stream and ``RollVoided`` records why and on whose word.

Who voids: a director at once; a player by asking, and the roll is voided when the opponent
asks too (API.md, ``POST /matches/{id}/rolls/void``). Only the latest roll, while nothing has
been played from it: a play, or the opponent's next action after a roll that passed the turn
(rule G-MAX-1), makes it count.
"""

from __future__ import annotations

from datetime import datetime

from domain.events import DomainEvent, EventBatch
from domain.match.errors import MatchOverError, RollNotVoidableError
from domain.match.events import LatestRoll, RollVoided, RollVoidRequested, Side, other
from domain.match.state import Match
from domain.text import one_line

MAX_REASON_LENGTH = 500


def void_roll(
    state: Match,
    side: Side | None,
    reason: str,
    now: datetime,
    *,
    director: bool = False,
    actor: str | None = None,
) -> list[DomainEvent]:
    """rule G-DICE-2: void the latest roll (``director``), or ask to as ``side``: the second
    side's request voids it. The roller then rolls again (the opening roll: both again)."""
    if state.is_over:
        raise MatchOverError("the match is over: nothing more can be recorded")
    latest = voidable_roll(state)
    reason = one_line("reason", reason, MAX_REASON_LENGTH)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    if director or latest.void_asked_by not in (None, side):
        batch.add(
            RollVoided,
            roll_version=latest.version,
            side=latest.side,
            dice=latest.dice,
            reason=reason,
            by="director" if director else "players",
        )
        return batch.events
    if side is None:  # a caller that is neither a director nor a player is refused earlier
        raise RollNotVoidableError("name the side that asks to void the roll")
    if latest.void_asked_by == side:
        raise RollNotVoidableError(
            f"side {side} has asked already: the roll is voided when side {other(side)} asks "
            "too, or by a director (G-DICE-2)"
        )
    batch.add(RollVoidRequested, side=side, roll_version=latest.version, reason=reason)
    return batch.events


def voidable_roll(state: Match) -> LatestRoll:
    """The latest roll, while rule G-DICE-2 may still void it; otherwise why not (409)."""
    latest = state.latest_roll
    if latest is None:
        raise RollNotVoidableError(
            "there is no roll to void: none has been made since the last play or cube action "
            "(G-DICE-2 voids the latest roll before a play is made from it)"
        )
    if state.phase == "move" and not latest.passed:
        return latest
    if latest.passed and state.phase == "roll":
        return latest  # the opponent has neither doubled nor rolled since the pass
    raise RollNotVoidableError(
        f"the roll cannot be voided while the match is in phase {state.phase}: "
        "answer the resignation first"
    )
