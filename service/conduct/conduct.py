"""Use cases of conduct on the tournament day: penalty points, breaks and late returns
(rules C-BREAK-1..3, T-FMT-7)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

from domain import match, tournament
from domain.errors import InvalidInputError
from domain.events import DIRECTOR
from domain.match import Match, PenaltyNotFoundError
from domain.tournament import Tournament
from projections import standings as day
from service.shared.match_play import TournamentDay


class Penalty(msgspec.Struct, frozen=True, kw_only=True):
    penalty_id: UUID
    match_id: UUID
    player_id: UUID
    points: int
    """Now counting: 0 once waived."""
    reason: str
    score_a: int
    score_b: int
    """The match score after it, penalty points included."""
    match_status: Literal["playing", "finished"]
    """``finished`` when the penalty decided the match (rule C-BREAK-2, T-FMT-7)."""


class PenaltyAward(msgspec.Struct, frozen=True, kw_only=True):
    """Penalty points against ``player_id`` in ``match_id``, for the opponent's score: the
    command ``award_penalty`` takes. ``for_break_since`` approves the break list's proposal
    for the player's break that began then (rule C-BREAK-1)."""

    match_id: UUID
    player_id: UUID
    points: int
    reason: str
    for_break_since: datetime | None = None


class BackFromBreak(msgspec.Struct, frozen=True, kw_only=True):
    """Who is back from their break (rule C-BREAK-1): the command ``mark_present`` takes.
    ``player_id``, both players of the current round's ``table``, or, neither given, everyone
    in the current round; ``reason`` says why a proposed penalty is waived (C-BREAK-2)."""

    player_id: UUID | None = None
    table: int | None = None
    reason: str = ""


class Break(msgspec.Struct, frozen=True, kw_only=True):
    player_id: UUID
    display_name: str
    since: datetime
    """When the player's last match was decided."""
    allowed_until: datetime
    """10 minutes later by default, or the agreed return time (rule C-BREAK-3)."""
    ended_at: datetime | None
    late_minutes: int
    proposed_penalty: int
    """What the penalty scale gives for the lateness (rule C-BREAK-2); the director confirms,
    adjusts or waives it."""
    next_match_id: UUID | None
    flagged: bool
    """The scheduler flagged the break as run over, for the director (rule C-BREAK-1)."""


class ConductService(TournamentDay):
    """Penalties given by the director, breaks watched against the penalty scale."""

    def award_penalty(self, tournament_id: UUID, award: PenaltyAward, *, actor: str) -> Penalty:
        """rule C-BREAK-2: penalty points against a player of one of the tournament's matches
        go to the opponent's score; too many decide the match (and record its result).

        An award ``for_break_since`` a break (rule C-BREAK-1) takes its penalty's id from that
        break, so approving the same proposal twice is refused (409) and records nothing."""
        match_id, player_id = award.match_id, award.player_id
        points, reason = award.points, award.reason
        for_break_since = award.for_break_since
        side = self._side_of(tournament_id, match_id, player_id)
        penalty_id = (
            uuid.uuid5(tournament_id, f"break {player_id} {for_break_since.timestamp()}")
            if for_break_since is not None
            else uuid.uuid4()
        )
        state = self._play.run(
            match_id,
            None,
            lambda held, now: (
                DIRECTOR,
                match.award_penalty(
                    held,
                    penalty_id=penalty_id,
                    side=side,
                    points=points,
                    reason=reason,
                    now=now,
                    actor=actor,
                ),
            ),
        )
        return _penalty_view(state, penalty_id, player_id, reason)

    def change_penalty(
        self, tournament_id: UUID, penalty_id: UUID, *, points: int, reason: str, actor: str
    ) -> Penalty:
        """A penalty adjusted, or waived with 0 points: a later event, never an edit."""
        self._views.catch_up()
        with self._views.reading() as db:
            found = day.find_penalty(db, str(penalty_id))
        if found is None or found["tournament_id"] != str(tournament_id):
            raise PenaltyNotFoundError(f"tournament {tournament_id} has no penalty {penalty_id}")
        state = self._play.run(
            UUID(found["match_id"]),
            None,
            lambda held, now: (
                DIRECTOR,
                match.change_penalty(
                    held, penalty_id=penalty_id, points=points, reason=reason, now=now, actor=actor
                ),
            ),
        )
        return _penalty_view(state, penalty_id, UUID(found["player_id"]), reason)

    def list_breaks(self, tournament_id: UUID, now: datetime) -> list[Break]:
        """Who is on a break and for how long, with the penalty a late return earns
        (rules C-BREAK-1..3); a break that ended on time is not listed."""
        held = self.load(tournament_id)
        names = self._names(tournament_id)
        return [
            Break(
                player_id=found.player_id,
                display_name=names.get(str(found.player_id), ""),
                since=found.since.astimezone(self._zone),
                allowed_until=found.allowed_until.astimezone(self._zone),
                ended_at=found.ended_at.astimezone(self._zone) if found.ended_at else None,
                late_minutes=int(found.late.total_seconds() // 60),
                proposed_penalty=found.proposed_penalty,
                next_match_id=found.next_match_id,
                flagged=tournament.is_flagged(held, found),
            )
            for found in self._breaks(held, now)
            if found.ended_at is None or found.proposed_penalty
            if found.next_match_id is None or not held.result_of(found.next_match_id)
        ]

    def next_overrun(self, tournament_id: UUID) -> datetime | None:
        """When the next break of a running tournament runs over, unless flagged already."""
        held = self.load(tournament_id)
        if held.started_at is None or held.completed_at is not None:
            return None
        ends = [
            found.allowed_until
            # only the limits matter here, not how late anyone is by some instant
            for found in self._breaks(held, held.started_at)
            if found.ended_at is None and not tournament.is_flagged(held, found)
        ]
        return min(ends, default=None)

    def flag_overruns(self, tournament_id: UUID, *, actor: str) -> int:
        """rule C-BREAK-1: flag the breaks run over, for the director's penalty decision."""
        change = self._update(
            tournament_id,
            lambda state, now: tournament.flag_overruns(
                state, self._breaks(state, now), now=now, actor=actor
            ),
        )
        return len(change.events)

    def _breaks(self, held: Tournament, now: datetime) -> list[tournament.Break]:
        began_at = {}
        for paired in held.rounds:
            for table in paired.tables:
                if table.match_id is not None and not held.result_of(table.match_id):
                    begun = self._play.get(table.match_id).began_at
                    if begun is not None:
                        began_at[table.match_id] = begun
        return tournament.breaks(held, began_at=began_at, now=now)

    def mark_present(self, tournament_id: UUID, back: BackFromBreak, *, actor: str) -> list[UUID]:
        """rule C-BREAK-1: players back from their break, ready for the next match, in one
        action (see ``BackFromBreak``). Answers who was marked."""
        player_id, table, reason = back.player_id, back.table, back.reason
        change = self._update(
            tournament_id,
            lambda state, now: tournament.mark_present(
                state, player_id=player_id, table=table, reason=reason, now=now, actor=actor
            ),
        )
        return [e.player_id for e in change.events if isinstance(e, tournament.PlayerMarkedPresent)]

    def agree_return_time(
        self, tournament_id: UUID, *, player_id: UUID, until: datetime, actor: str
    ) -> None:
        """rule C-BREAK-3: a player leaving the venue agrees a time to be back."""
        self._update(
            tournament_id,
            lambda state, now: tournament.agree_return_time(
                state, player_id=player_id, until=until, now=now, actor=actor
            ),
        )

    def _side_of(self, tournament_id: UUID, match_id: UUID, player_id: UUID) -> match.Side:
        held = self.load(tournament_id)
        located = held.table_of(match_id)
        if located is None:
            raise tournament.MatchNotInTournamentError(
                f"no pairing of this tournament started match {match_id}"
            )
        table = located[1]
        if player_id == table.player_a:
            return "a"
        if player_id == table.player_b:
            return "b"
        raise InvalidInputError("player_id", f"{player_id} does not play match {match_id}")


def _penalty_view(state: Match, penalty_id: UUID, player_id: UUID, reason: str) -> Penalty:
    return Penalty(
        penalty_id=penalty_id,
        match_id=state.id,
        player_id=player_id,
        points=state.penalty(penalty_id).points,
        reason=reason,
        score_a=state.score_a,
        score_b=state.score_b,
        match_status="finished" if state.is_over else "playing",
    )
