"""Use cases of the tournament day: the start with round 1, rounds, results, withdrawals, and
the standings, matches, places and prizes that follow from them (rules T-FMT-1..8, T-BUYIN-1).

A round and the matches of its tables are saved in one transaction: a table never lacks its
match, and a match never exists without its table.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Literal, Protocol
from uuid import UUID

import msgspec

from domain import match, tournament
from domain import standings as swiss
from domain.errors import InvalidInputError
from domain.events import DIRECTOR, copied
from domain.match import Match
from domain.tournament import (
    Round as PairedRound,
)
from domain.tournament import (
    Stage,
    Tournament,
    TournamentEvent,
    TournamentStatus,
)
from domain.tournament.rounds import MatchScore
from projections import ranking
from projections import standings as day
from service.shared.commands import DECIDE_AGAIN, Decision
from service.shared.day_views import (
    Round,
    Score,
    Standing,
    list_standings,
    result_ids,
    round_view,
)
from service.shared.match_play import TournamentDay
from service.storage.events import Change

SEED_BITS = 63
"""A round's lot and the standings' lot are drawn from this many random bits."""


class NotATournamentMatchError(InvalidInputError):
    """A match given with a tournament must be between two of its seated players."""


class StandbyRefund(msgspec.Struct, frozen=True, kw_only=True):
    registration_id: UUID
    refund_cents: int
    """The buy-in the standby paid at check-in, to be handed back."""


class TournamentStart(msgspec.Struct, frozen=True, kw_only=True):
    id: UUID
    status: TournamentStatus
    started_at: datetime
    players: int
    """Checked-in seat holders, standbys seated at the start included."""
    pot_cents: int
    no_shows: list[UUID]
    """Registrations whose seats were released because they had not checked in."""
    promoted_standbys: list[UUID]
    """Standbys (waitlisted, checked in on site) who got a released seat, in waitlist order."""
    unseated_standbys: list[StandbyRefund]
    """Standbys left without a seat: still waitlisted, their buy-in is refunded."""
    swiss_rounds: int
    """The Swiss rounds this field plays: fewer than configured where a small field could not
    play them without a rematch (rule T-FMT-1)."""
    round: Round
    """Round 1, paired with the start."""


class StandingChange(msgspec.Struct, frozen=True, kw_only=True):
    player_id: UUID
    rank_before: int
    rank_after: int
    wins_before: int
    wins_after: int
    points_before: int
    points_after: int


@dataclass(frozen=True, slots=True)
class ReportedResult:
    """A match's result as the director reports it from the board; ``corrects`` names the
    result a correction replaces (rule T-FMT-6), ``reason`` says why."""

    match_id: UUID
    winner: UUID
    points_a: int
    points_b: int
    corrects: UUID | None = None
    reason: str = ""


class WithdrawalNotice(msgspec.Struct, frozen=True, kw_only=True):
    """A player leaving the running tournament (rule T-FMT-5): the command ``withdraw`` takes;
    ``left_early`` revokes the tournament's attendance points (rule R-ATT-2)."""

    player_id: UUID
    reason: str
    left_early: bool


class Affects(msgspec.Struct, frozen=True, kw_only=True):
    standings: list[StandingChange]
    rounds_paired_since: list[int]
    """Rounds paired after the corrected match's round: they stay as paired (rule T-FMT-6)."""


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """A result recorded, and what it changed."""

    result_id: UUID
    match_id: UUID
    winner: UUID
    points_a: int
    points_b: int
    corrects: UUID | None
    tournament_status: TournamentStatus
    affects: Affects


class Withdrawal(msgspec.Struct, frozen=True, kw_only=True):
    player_id: UUID
    left_early: bool
    forfeits: list[UUID]
    """The player's open matches, forfeited to their opponents (rules T-FMT-5, T-FMT-7)."""


class TournamentMatch(msgspec.Struct, frozen=True, kw_only=True):
    match_id: UUID
    round: int
    table: int
    stage: Stage
    player_a: UUID
    player_b: UUID
    status: Literal["pending", "playing", "disputed", "decided"]
    score: Score
    winner: UUID | None
    played: bool | None
    """False for an unplayed forfeit, a win with 0 points (rule T-FMT-7); null while open."""
    result_id: UUID | None
    """The result that counts: what a correction names in ``corrects`` (rule T-FMT-6); null
    before a result."""


class _Leaving(Protocol):
    """How a player leaves (``tournament.withdraw`` or ``tournament.exclude``, given the
    player and the reason): ``RoundService._leave`` supplies the rest."""

    def __call__(
        self,
        state: Tournament,
        *,
        unfinished: Mapping[UUID, MatchScore | None],
        new_result_id: Callable[[], UUID],
        now: datetime,
        actor: str,
    ) -> list[TournamentEvent]: ...


class RoundService(TournamentDay):
    """The tournament day: its start, rounds and results, and the views that follow them."""

    # Commands ---------------------------------------------------------------------------------

    def start(self, tournament_id: UUID, *, actor: str = DIRECTOR) -> TournamentStart:
        """Play begins and round 1 is paired, in one transaction (rules T-CHECKIN-2, T-REG-3,
        T-BUYIN-1, T-FMT-2): no-shows released, standbys seated, the pot fixed."""

        def attempt(now: datetime) -> Decision:
            held = self.load(tournament_id)
            ranks = self._season_ranks(held)
            started = Change.of(
                tournament.evolve,
                held,
                tournament.start(held, lot_seed=_seed(), now=now, actor=actor, season_ranks=ranks),
            )
            return self._paired(started, now, actor)

        decision = self._commands.run(attempt, DECIDE_AGAIN)
        change = decision.changes[0]
        state: Tournament = change.state
        events = change.events
        assert state.started_at is not None
        return TournamentStart(
            id=tournament_id,
            status=state.status(state.started_at),
            started_at=state.started_at.astimezone(self._zone),
            players=state.players,
            pot_cents=state.pot_cents,
            no_shows=[
                e.registration_id for e in events if isinstance(e, tournament.NoShowReleased)
            ],
            promoted_standbys=[
                e.registration_id for e in events if isinstance(e, tournament.WaitlistPromoted)
            ],
            unseated_standbys=[
                StandbyRefund(registration_id=e.registration_id, refund_cents=e.refund_cents)
                for e in events
                if isinstance(e, tournament.StandbyNotSeated)
            ],
            swiss_rounds=state.swiss_rounds,
            round=self.round_view(state, state.rounds[-1]),
        )

    def pair_round(self, tournament_id: UUID, *, actor: str = DIRECTOR) -> Round:
        """The next round once every result of the last is in (Swiss, then the knockout)."""

        def attempt(now: datetime) -> Decision:
            held = self.load(tournament_id)
            return self._paired(Change.of(tournament.evolve, held, ()), now, actor)

        state: Tournament = self._commands.run(attempt, DECIDE_AGAIN).changes[0].state
        return self.round_view(state, state.rounds[-1])

    def record_result(
        self, tournament_id: UUID, report: ReportedResult, *, actor: str = DIRECTOR
    ) -> Result:
        """A result reported by the director, or a correction naming the result it replaces
        (rule T-FMT-6): the answer lists the standings it moved and the rounds paired since."""
        result_id = uuid.uuid4()

        change = self._record(
            tournament_id,
            lambda held, now: tournament.record_result(
                held,
                result_id=result_id,
                match_id=report.match_id,
                winner=report.winner,
                points_a=report.points_a,
                points_b=report.points_b,
                source="director",
                corrects=report.corrects,
                reason=report.reason,
                now=now,
                actor=actor,
            ),
            actor,
        )
        before, after = change.before, change.state
        assert before is not None
        located = after.table_of(report.match_id)
        assert located is not None
        recorded = next(e for e in change.events if isinstance(e, tournament.ResultRecorded))
        return copied(
            recorded,
            Result,
            tournament_status=after.status(change.events[-1].timestamp),
            affects=Affects(
                standings=_standing_changes(
                    tournament.swiss_standings(before), tournament.swiss_standings(after)
                ),
                rounds_paired_since=[
                    paired.number for paired in after.rounds if paired.number > located[0].number
                ]
                if report.corrects
                else [],
            ),
        )

    def withdraw(self, tournament_id: UUID, notice: WithdrawalNotice, *, actor: str) -> Withdrawal:
        """rule T-FMT-5: the player is not paired again; each open match of theirs is forfeited
        to the opponent, in the tournament and in the match itself (rule T-FMT-7)."""
        player_id, left_early = notice.player_id, notice.left_early
        leave = partial(
            tournament.withdraw, player_id=player_id, reason=notice.reason, left_early=left_early
        )
        forfeits = self._leave(tournament_id, player_id, leave, actor)
        return Withdrawal(player_id=player_id, left_early=left_early, forfeits=forfeits)

    def exclude(
        self, tournament_id: UUID, *, player_id: UUID, reason: str, actor: str
    ) -> Withdrawal:
        """rule C-EXCL-1: not paired again, no refund (R-EXCL-1); each open match of theirs is
        decided at the match length for the opponent (rule T-FMT-7)."""
        leave = partial(tournament.exclude, player_id=player_id, reason=reason)
        forfeits = self._leave(tournament_id, player_id, leave, actor, excluded=True)
        return Withdrawal(player_id=player_id, left_early=True, forfeits=forfeits)

    def _leave(
        self,
        tournament_id: UUID,
        player_id: UUID,
        leave: _Leaving,
        actor: str,
        *,
        excluded: bool = False,
    ) -> list[UUID]:
        """A player leaves (``leave`` decides how): the tournament's events and each open
        match ended, in one transaction; returns the forfeited matches."""

        def attempt(now: datetime) -> Decision:
            held = self.load(tournament_id)
            open_matches = {
                table.match_id: self._play.get(table.match_id)
                for paired in held.rounds
                for table in held.open_tables(paired)
                if table.match_id is not None and player_id in (table.player_a, table.player_b)
            }
            unfinished = {
                match_id: MatchScore(state.score_a, state.score_b) if state.has_begun else None
                for match_id, state in open_matches.items()
            }
            events = leave(
                held, unfinished=unfinished, new_result_id=uuid.uuid4, now=now, actor=actor
            )
            left = Change.of(tournament.evolve, held, events)
            ended = [
                Change.of(
                    match.evolve,
                    state,
                    match.forfeit(
                        state,
                        _opponent_side(state, player_id),
                        now,
                        excluded=excluded,
                        actor=actor,
                    ),
                )
                for state in open_matches.values()
                if not state.is_over
            ]
            return Decision.of(left, *ended)

        decision = self._commands.run(attempt, DECIDE_AGAIN)
        return [
            e.match_id
            for e in decision.changes[0].events
            if isinstance(e, tournament.ResultRecorded)
        ]

    def check_seated(
        self, tournament_id: UUID, player_a: str, player_b: str
    ) -> tuple[str, str, match.SeatedPlayers]:
        """An ad hoc match of a running tournament is played by two of its seated players: their
        ids in, their display names out, and the persons the match names (sealed names)."""
        held = self.load(tournament_id)
        if held.started_at is None or held.completed_at is not None:
            raise tournament.TournamentStateError("the tournament is not running")
        names = self._names(tournament_id)
        active = {str(player) for player in held.active_players()}
        for field_name, player in (("player_a", player_a), ("player_b", player_b)):
            if player not in active:
                raise NotATournamentMatchError(
                    field_name, "give the player id of a player seated in the tournament"
                )
        if player_a == player_b:
            raise NotATournamentMatchError("player_b", "a player cannot play themselves")
        seated = match.SeatedPlayers(player_a_id=UUID(player_a), player_b_id=UUID(player_b))
        return names[player_a], names[player_b], seated

    # Queries ----------------------------------------------------------------------------------

    def latest_round(self, tournament_id: UUID) -> Round | None:
        """The round now being played (None before round 1)."""
        held = self.load(tournament_id)
        return self.round_view(held, held.rounds[-1]) if held.rounds else None

    def get_round(self, tournament_id: UUID, number: int) -> Round:
        held = self.load(tournament_id)
        for paired in held.rounds:
            if paired.number == number:
                return self.round_view(held, paired)
        raise tournament.RoundNotFoundError(f"tournament {tournament_id} has no round {number}")

    def list_rounds(self, tournament_id: UUID) -> list[Round]:
        """Every round paired so far, in order (the bracket page draws them all)."""
        held = self.load(tournament_id)
        return [self.round_view(held, paired) for paired in held.rounds]

    def round_view(self, held: Tournament, paired: PairedRound) -> Round:
        """One of ``held``'s rounds as shown: each table with its disputes and its result."""
        return round_view(self._views, held, paired)

    def list_standings(self, tournament_id: UUID) -> list[Standing]:
        """rule T-FMT-3: wins, points, Buchholz, head-to-head, lot; from the standings view.
        Once the tournament is completed each row also has its final place (rule T-FMT-4)."""
        return list_standings(self._store, self._views, tournament_id)

    def list_matches(self, tournament_id: UUID) -> list[TournamentMatch]:
        """Every pairing's match with its status, score, winner and the result's id."""
        held = self.load(tournament_id)
        self._views.catch_up()
        with self._views.reading() as db:
            rows = day.list_tables(db, str(tournament_id))
        results = result_ids(held)
        return [
            TournamentMatch(
                match_id=UUID(row["match_id"]),
                round=row["round"],
                table=row["table_number"],
                stage=row["stage"],
                player_a=UUID(row["player_a"]),
                player_b=UUID(row["player_b"]),
                status=row["status"],
                score=Score(a=row["score_a"], b=row["score_b"]),
                winner=UUID(row["winner"]) if row["winner"] else None,
                played=bool(row["played"]) if row["played"] is not None else None,
                result_id=results.get(UUID(row["match_id"])),
            )
            for row in rows
            if row["match_id"] is not None
        ]

    # Plumbing ---------------------------------------------------------------------------------

    def _paired(self, change: Change[Tournament], now: datetime, actor: str) -> Decision:
        """``change`` followed by the next round, with a match started at each of its tables."""
        state = change.state
        change = change.then(
            tournament.evolve,
            tournament.pair_next_round(
                state, seed=_seed(), new_match_id=uuid.uuid4, now=now, actor=actor
            ),
        )
        state = change.state
        return Decision.of(
            change,
            *self._play.open_tables(
                state, state.rounds[-1].tables, self._names(state.id), now, actor
            ),
        )

    def _season_ranks(self, held: Tournament) -> dict[UUID, int] | None:
        """rule T-FMT-11: the season ranking at the start, for a round robin seeded by it."""
        if held.seeding != "ranking" or held.season_id is None:
            return None
        self._views.catch_up()
        with self._views.reading() as db:
            rows = ranking.list_ranking(db, str(held.season_id))
        return {row.player_id: row.rank for row in rows}

    def display_names(self, tournament_id: UUID) -> dict[str, str]:
        """Display names ("Anna M.") of the tournament's players, by player id."""
        return self._names(tournament_id)


def _seed() -> int:
    return secrets.randbits(SEED_BITS)


def _opponent_side(state: Match, player_id: UUID) -> match.Side:
    assert state.pairing is not None
    return "b" if state.pairing.player_a_id == player_id else "a"


def _standing_changes(
    before: list[swiss.Standing], after: list[swiss.Standing]
) -> list[StandingChange]:
    earlier = {standing.player_id: standing for standing in before}
    changed = []
    for now in after:
        then = earlier[now.player_id]
        if (then.rank, then.wins, then.points) != (now.rank, now.wins, now.points):
            changed.append(
                StandingChange(
                    player_id=now.player_id,
                    rank_before=then.rank,
                    rank_after=now.rank,
                    wins_before=then.wins,
                    wins_after=now.wins,
                    points_before=then.points,
                    points_after=now.points,
                )
            )
    return changed
