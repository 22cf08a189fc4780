"""Breaks between matches and the penalty a late return earns (rules C-BREAK-1..3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError
from domain.events import EventBatch
from domain.text import one_line
from domain.tournament.defaults import (
    DEFAULT_BREAK_MINUTES,
    DEFAULT_PENALTY_GRACE_MINUTES,
    DEFAULT_PENALTY_STEP_MINUTES,
    MAX_REASON_LENGTH,
    ResultSource,
)
from domain.tournament.errors import RoundNotFoundError
from domain.tournament.events import (
    BreakOverrunFlagged,
    PairedTable,
    PlayerMarkedPresent,
    ReturnTimeAgreed,
    TournamentEvent,
)
from domain.tournament.rounds import require_active, require_running
from domain.tournament.state import Result, Tournament


class BreakScale(msgspec.Struct, frozen=True, kw_only=True):
    """How long a break may last, and how lateness turns into penalty points (C-BREAK-2)."""

    break_minutes: int = DEFAULT_BREAK_MINUTES
    grace_minutes: int = DEFAULT_PENALTY_GRACE_MINUTES
    step_minutes: int = DEFAULT_PENALTY_STEP_MINUTES

    def penalty(self, late: timedelta) -> int:
        """1 point once ``grace_minutes`` late, 1 more for each further ``step_minutes``."""
        minutes = late.total_seconds() / 60
        if minutes < self.grace_minutes:
            return 0
        return 1 + int((minutes - self.grace_minutes) // self.step_minutes)


class Break(msgspec.Struct, frozen=True, kw_only=True):
    """A player's break since their last match ended, and how late they are (or were)."""

    player_id: UUID
    since: datetime
    allowed_until: datetime
    ended_at: datetime | None
    """When the player was back: marked present, or their next match began."""
    late: timedelta
    proposed_penalty: int
    next_match_id: UUID | None
    """The match a confirmed penalty applies to: its opponent gets the points."""


def breaks(
    state: Tournament,
    *,
    began_at: Mapping[UUID, datetime],
    now: datetime,
    scale: BreakScale = BreakScale(),  # noqa: B008 - an immutable value
) -> list[Break]:
    """Every active player's break after their last decided match, in order of its start.

    rule C-BREAK-1: between two matches: the break starts when the player's match is decided,
    or when the next one is paired if that is later (nobody is late for a match not yet
    paired, nor while sitting out a bye), and ends when the next match begins, in whatever
    way the venue records that:

    - the director marks the player present (alone, with their table, or the whole round);
    - a match played through the service begins with its opening roll (``began_at``: match
      id -> that roll);
    - a match played at the board leaves no record of its beginning: its result comes from
      the players' reports or the director. At such a venue (the player's last match played
      was recorded so, or the next one is being reported) the pairing, the round's call to
      the tables, is the beginning: nobody is late there by records that show nothing late.

    rule C-BREAK-3: an agreed return time later than the allowed break moves the limit, and
    a player away by one is back only when marked present or when the match's opening roll
    comes; a report of the match shows they came back, not when, so it ends the break at
    the agreed time. A break that has not ended is late by ``now``.
    """
    found = []
    for player_id in state.active_players():
        last = _last_decided(state, player_id)
        if last is None:
            continue
        decided_at, decided_round = last
        following = _next_table(state, player_id, decided_round)
        if following is None:
            continue
        paired_at = _paired_at(state, following)
        since = max(decided_at, paired_at) if paired_at else decided_at
        allowed = since + timedelta(minutes=scale.break_minutes)
        agreed = [m.at for m in state.return_times if m.player_id == player_id and m.at > since]
        if agreed:
            allowed = max(allowed, agreed[-1])
        ended_at = _back_at(state, player_id, since, following, began_at)
        if ended_at is None and _played_at_the_board(state, player_id, following):
            if not agreed:
                ended_at = since  # called to the table by the pairing
            elif _reported(state, following):
                ended_at = allowed  # back in time for all the records show
        late = max((ended_at or now) - allowed, timedelta(0))
        found.append(
            Break(
                player_id=player_id,
                since=since,
                allowed_until=allowed,
                ended_at=ended_at,
                late=late,
                proposed_penalty=scale.penalty(late),
                next_match_id=following.match_id,
            )
        )
    return sorted(found, key=lambda b: (b.since, str(b.player_id)))


BOARD_SOURCES: frozenset[ResultSource] = frozenset({"players", "director"})
"""Results recorded from the board: the players' reports, or the director's entry."""


def _played_at_the_board(state: Tournament, player_id: UUID, following: PairedTable) -> bool:
    """Whether the venue records ``following`` (the player's next match) from the board, and
    so not its beginning: it is being reported, or the player's latest match played (else
    the tournament's) was recorded from the board."""
    if _reported(state, following):
        return True
    played = [r for r in state.results if r.played]
    own = [r for r in played if _plays(state, r.match_id, player_id)]
    latest = max(own or played, key=_recorded_at, default=None)
    return latest is not None and latest.source in BOARD_SOURCES


def _reported(state: Tournament, table: PairedTable) -> bool:
    return any(report.match_id == table.match_id for report in state.reports)


def _plays(state: Tournament, match_id: UUID, player_id: UUID) -> bool:
    located = state.table_of(match_id)
    return located is not None and player_id in (located[1].player_a, located[1].player_b)


def _recorded_at(result: Result) -> datetime:
    return result.recorded_at or datetime.min.replace(tzinfo=UTC)


def _last_decided(state: Tournament, player_id: UUID) -> tuple[datetime, int] | None:
    """When the player's latest decided match was decided, and its round."""
    last = None
    for paired in state.rounds:
        for table in paired.tables:
            if player_id not in (table.player_a, table.player_b) or table.match_id is None:
                continue
            result = state.result_of(table.match_id)
            if result is not None and result.recorded_at is not None:
                last = (result.recorded_at, paired.number)
    return last


def _next_table(state: Tournament, player_id: UUID, after_round: int) -> PairedTable | None:
    for paired in state.rounds:
        if paired.number <= after_round:
            continue
        for table in paired.tables:
            if player_id in (table.player_a, table.player_b) and table.match_id is not None:
                return table
    return None


def _paired_at(state: Tournament, table: PairedTable) -> datetime | None:
    for paired in state.rounds:
        if table in paired.tables:
            return paired.paired_at
    return None


def _back_at(
    state: Tournament,
    player_id: UUID,
    since: datetime,
    following: PairedTable | None,
    began_at: Mapping[UUID, datetime],
) -> datetime | None:
    marks = [m.at for m in state.present if m.player_id == player_id and m.at >= since]
    if following is not None and following.match_id is not None:
        begun = began_at.get(following.match_id)
        if begun is not None:
            marks.append(begun)
    return min(marks) if marks else None


def flag_overruns(
    state: Tournament, overrun: Sequence[Break], *, now: datetime, actor: str
) -> list[TournamentEvent]:
    """rule C-BREAK-1: flag each break in ``overrun`` that runs over at ``now`` and is not
    flagged yet; a second run flags nothing."""
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    for found in overrun:
        if found.ended_at is None and found.allowed_until <= now and not is_flagged(state, found):
            batch.add(BreakOverrunFlagged, player_id=found.player_id, since=found.since)
    return batch.events


def is_flagged(state: Tournament, found: Break) -> bool:
    """Whether the scheduler flagged this break as run over (rule C-BREAK-1)."""
    return any(
        mark.player_id == found.player_id and mark.at == found.since
        for mark in state.flagged_breaks
    )


def mark_present(
    state: Tournament,
    *,
    player_id: UUID | None = None,
    table: int | None = None,
    reason: str = "",
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """rule C-BREAK-1: the director sees players back from their break, ready to play, in one
    action: ``player_id`` alone, both players of the current round's ``table``, or (neither
    given) everyone playing in the current round. ``reason`` (C-BREAK-2: the director can
    waive) is why a late player's proposed penalty is waived, recorded with the marking."""
    require_running(state)
    reason = one_line("reason", reason, MAX_REASON_LENGTH) if reason else ""
    if player_id is not None and table is not None:
        raise InvalidInputError("table", "name a player or a table, not both")
    if player_id is not None:
        require_active(state, player_id)
        present = [player_id]
    else:
        present = seated_players(state, table)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    for player in present:
        batch.add(PlayerMarkedPresent, player_id=player, reason=reason)
    return batch.events


def seated_players(state: Tournament, table: int | None = None) -> list[UUID]:
    """The active players with a match in the current round: at ``table``, or at every table
    (``None``). A table the round does not have is not found."""
    if not state.rounds:
        raise RoundNotFoundError("no round is paired yet")
    paired = state.rounds[-1]
    tables = [t for t in paired.tables if table is None or t.table == table]
    if table is not None and not tables:
        raise RoundNotFoundError(f"round {paired.number} has no table {table}")
    active = set(state.active_players())
    return [
        player
        for t in tables
        if t.match_id is not None
        for player in (t.player_a, t.player_b)
        if player is not None and player in active
    ]


def agree_return_time(
    state: Tournament, *, player_id: UUID, until: datetime, now: datetime, actor: str
) -> list[TournamentEvent]:
    """rule C-BREAK-3: a player leaving the venue agrees a time to be back; later is late."""
    require_running(state)
    require_active(state, player_id)
    if until <= now:
        raise InvalidInputError("until", "the agreed return time lies in the past")
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(ReturnTimeAgreed, player_id=player_id, until=until)
    return batch.events
