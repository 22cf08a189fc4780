"""Use cases at the venue: results reported by the players, pairing overrides and unpaired
rounds, late entries, fixed tables, the tables' pages and QR codes, the wallboard, printing,
and the director's final word on places and prizes.

A repaired or unpaired round voids the matches of the tables it replaces and starts the new
tables' matches in the same transaction as the tournament's event.
"""

from __future__ import annotations

import io
import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import msgspec
import segno

from domain import match, tournament
from domain.events import DIRECTOR, copied
from domain.people.tokens import token_hash
from domain.tournament import (
    MAX_TABLE,
    MissedRounds,
    PairingWarning,
    ReportStatus,
    Tournament,
    TournamentStatus,
)
from domain.tournament import (
    Round as PairedRound,
)
from service.shared.commands import DECIDE_AGAIN, Decision
from service.shared.day_views import (
    Prizes,
    Round,
    Score,
    Standing,
    list_standings,
    prizes,
    round_view,
)
from service.shared.match_play import DayParts, TournamentDay
from service.storage.events import Change

PLAYERS = "players"
EXCLUDED_REPORTS = (
    "the player is excluded from this tournament (C-EXCL-1): their reports no longer count"
)
WITHDRAWN_REPORTS = "the player has withdrawn from this tournament: their reports no longer count"


class Replacement(msgspec.Struct, frozen=True, kw_only=True):
    table: int
    before: list[UUID | None] | None
    """The table's players before the override (None: no such table before)."""
    after: list[UUID | None] | None


class RepairedRound(Round, frozen=True, kw_only=True):
    """The round as the director paired it, what the pairing warns of, and what it changed."""

    warnings: list[PairingWarning]
    replaced: list[Replacement]
    """The tables that differ from the pairing as it stood before (the computed one, or the
    last override)."""


class UnpairedRound(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    voided: list[UUID]
    """The round's matches, closed without a result."""


class TableReport(msgspec.Struct, frozen=True, kw_only=True):
    """A player's report of their match's result from the table: the command ``report``
    takes; the opponent's equal report confirms it, a different one disputes it."""

    match_id: UUID
    winner: UUID
    points_a: int
    points_b: int


class LateAdmission(msgspec.Struct, frozen=True, kw_only=True):
    """A registration made after the start joining the field: the command ``admit_late_entry``
    takes; ``missed`` says how the rounds paired before count, as losses or 0-point byes."""

    registration_id: UUID
    missed: MissedRounds = "losses"


class LateArrival(LateAdmission, frozen=True, kw_only=True):
    """A late entry arriving at the desk, checked in and admitted as one: the command
    ``admit_late_arrival`` takes; rule T-CHECKIN-1: the ID document seen, the buy-in paid."""

    id_document_seen: bool
    buy_in_paid_cents: int


class LateEntry(msgspec.Struct, frozen=True, kw_only=True):
    registration_id: UUID
    player_id: UUID
    from_round: int
    missed: MissedRounds
    players: int
    pot_cents: int


class Table(msgspec.Struct, frozen=True, kw_only=True):
    """A table of the current round as the players at it and the wallboard see it now."""

    table: int
    round: int
    match_id: UUID | None
    player_a: UUID
    player_b: UUID | None
    player_a_name: str
    player_b_name: str | None
    score: Score
    match_length: int
    phase: str
    """The match's phase (``opening`` .. ``match_over``), ``bye``, or ``decided`` where the
    result was reported without the match being played through the API."""
    status: str
    """``pending``, ``playing``, ``awaiting_confirmation``, ``disputed``, ``decided``, ``bye``."""
    match_url: str | None
    """The match's own resource, where the players play or follow it."""


class ReportAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """Where a player's report stands, and the result it confirmed."""

    status: ReportStatus
    """``awaiting_confirmation`` until the opponent reports; ``confirmed`` when both reports
    agree (the result is recorded); ``disputed`` when they differ: the director decides."""
    result_id: UUID | None
    """The recorded result once ``confirmed``: what a correction names in ``corrects``
    (rule T-FMT-6); null otherwise."""


class PendingReport(msgspec.Struct, frozen=True, kw_only=True):
    """A player's report of a match not yet decided: what the opponent may confirm."""

    player_id: UUID
    winner: UUID
    points_a: int
    points_b: int


class RoundTimer(msgspec.Struct, frozen=True, kw_only=True):
    paired_at: datetime | None
    elapsed_seconds: int


class Wallboard(msgspec.Struct, frozen=True, kw_only=True):
    """The room's screen: the round, its tables now, what is still to report, the standings."""

    tournament_id: UUID
    status: TournamentStatus
    round: Round | None
    timer: RoundTimer
    tables: list[Table]
    to_report: list[int]
    """Tables of the round still without their result."""
    standings: list[Standing]


class Finality(msgspec.Struct, frozen=True, kw_only=True):
    status: Literal["final", "completed"]
    """The tournament's status after finalize (``final``) or reopen (``completed``), as
    GET ``/tournaments/{id}`` shows it."""
    finalized_at: datetime | None
    prizes: Prizes | None


class VenueService(TournamentDay):
    """The tournament day as the venue lives it, beside the rounds and results (service/rounds)."""

    def __init__(self, parts: DayParts, public_url: str) -> None:
        super().__init__(parts)
        self._public_url = public_url.rstrip("/")

    # Commands ---------------------------------------------------------------------------------

    def report(
        self, tournament_id: UUID, report: TableReport, *, player_token: str
    ) -> ReportAnswer:
        """A player's report from the table, with their own registration's token."""
        hashed = token_hash(player_token)
        match_id, winner = report.match_id, report.winner
        points_a, points_b = report.points_a, report.points_b

        def decide(state: Tournament, now: datetime) -> list[tournament.TournamentEvent]:
            # the token of a registration that plays: not a cancelled or withdrawn one
            mine = next((r for r in state.registrations if r.token_hash == hashed), None)
            if mine is not None and mine.status == "excluded":
                # rule C-EXCL-1: one of the two players, but no longer in the tournament
                raise tournament.NotInMatchError(EXCLUDED_REPORTS)
            if mine is not None and mine.status == "withdrawn":
                raise tournament.NotInMatchError(WITHDRAWN_REPORTS)
            if mine is None or mine.status != "checked_in":
                raise tournament.NotInMatchError("only the two players of a match report it")
            player = mine.player_id
            return tournament.report_result(
                state,
                match_id=match_id,
                player_id=player,
                winner=winner,
                points_a=points_a,
                points_b=points_b,
                new_result_id=uuid.uuid4,
                now=now,
                actor=f"player:{player}",
            )

        # a confirmed report ends the match itself too (its clock, its plays)
        state = self._record(tournament_id, decide, DIRECTOR).state
        result = state.result_of(match_id)
        return ReportAnswer(
            status=tournament.report_status(state, match_id),
            result_id=result.id if result is not None else None,
        )

    def repair(
        self,
        tournament_id: UUID,
        number: int,
        *,
        pairings: Sequence[tuple[UUID, UUID | None]],
        reason: str,
        actor: str = DIRECTOR,
    ) -> RepairedRound:
        """The director's pairing of the latest round before its first result: the replaced
        tables' matches are void, the new tables' matches start, in one transaction."""
        computed: list[PairedRound] = []

        def attempt(now: datetime) -> Decision:
            held = self.load(tournament_id)
            computed[:] = [r for r in held.rounds if r.number == number]
            repaired = Change.of(
                tournament.evolve,
                held,
                tournament.repair_round(
                    held,
                    number=number,
                    pairings=pairings,
                    reason=reason,
                    new_match_id=uuid.uuid4,
                    now=now,
                    actor=actor,
                ),
            )
            events = [e for e in repaired.events if isinstance(e, tournament.RoundRepaired)]
            if not events:
                return Decision.of(repaired)
            kept = {t.match_id for t in held.rounds[-1].tables}
            fresh = tuple(t for t in events[0].tables if t.match_id not in kept)
            return Decision.of(
                repaired,
                *self._voided(events[0].voided, now, actor, f"round {number} repaired"),
                *self._play.open_tables(
                    repaired.state, fresh, self._names(tournament_id), now, actor
                ),
            )

        decision = self._commands.run(attempt, DECIDE_AGAIN)
        state: Tournament = decision.changes[0].state
        before = computed[0]
        paired = next(r for r in state.rounds if r.number == number)
        shown = round_view(self._views, state, paired)
        return RepairedRound(
            **msgspec.structs.asdict(shown),
            warnings=tournament.pairing_warnings(state, number, pairings),
            replaced=_difference(before, paired),
        )

    def unpair(
        self, tournament_id: UUID, number: int, *, reason: str = "", actor: str = DIRECTOR
    ) -> UnpairedRound:
        """Take back the latest round before its first result; its matches are void."""

        def attempt(now: datetime) -> Decision:
            held = self.load(tournament_id)
            unpaired = Change.of(
                tournament.evolve,
                held,
                tournament.unpair_round(held, number=number, reason=reason, now=now, actor=actor),
            )
            event = unpaired.events[0]
            assert isinstance(event, tournament.RoundUnpaired)
            voided = self._voided(event.voided, now, actor, f"round {number} unpaired")
            return Decision.of(unpaired, *voided)

        event = self._commands.run(attempt, DECIDE_AGAIN).changes[0].events[0]
        assert isinstance(event, tournament.RoundUnpaired)
        return UnpairedRound(round=number, voided=list(event.voided))

    def admit_late_entry(
        self, tournament_id: UUID, admission: LateAdmission, *, actor: str = DIRECTOR
    ) -> LateEntry:
        registration_id, missed = admission.registration_id, admission.missed
        change = self._update(
            tournament_id,
            lambda state, now: tournament.admit_late_entry(
                state, registration_id=registration_id, missed=missed, now=now, actor=actor
            ),
        )
        return _late_entry(change.state, registration_id)

    def admit_late_arrival(
        self, tournament_id: UUID, arrival: LateArrival, *, actor: str = DIRECTOR
    ) -> LateEntry:
        """A registration made after the start arrives: its check-in (rule T-CHECKIN-1: ID
        document seen, buy-in paid) and its admission (rule T-BUYIN-1: its pot share joins the
        pot) are stored together or not at all. One checked in already is admitted only."""
        change = self._update(
            tournament_id,
            lambda state, now: tournament.arrive_late(
                state,
                registration_id=arrival.registration_id,
                id_document_seen=arrival.id_document_seen,
                buy_in_paid_cents=arrival.buy_in_paid_cents,
                missed=arrival.missed,
                now=now,
                actor=actor,
            ),
        )
        return _late_entry(change.state, arrival.registration_id)

    def fix_table(
        self, tournament_id: UUID, *, player_id: UUID, table: int, actor: str = DIRECTOR
    ) -> None:
        self._update(
            tournament_id,
            lambda state, now: tournament.assign_fixed_table(
                state, player_id=player_id, table=table, now=now, actor=actor
            ),
        )

    def finalize(self, tournament_id: UUID, *, actor: str = DIRECTOR) -> Finality:
        change = self._update(
            tournament_id,
            lambda state, now: tournament.finalize(state, now=now, actor=actor),
        )
        return Finality(
            status="final",
            finalized_at=change.state.finalized_at,
            prizes=prizes(self.load(tournament_id)),
        )

    def reopen_tournament(
        self, tournament_id: UUID, *, reason: str, actor: str = DIRECTOR
    ) -> Finality:
        self._update(
            tournament_id,
            lambda state, now: tournament.reopen_tournament(
                state, reason=reason, now=now, actor=actor
            ),
        )
        return Finality(status="completed", finalized_at=None, prizes=None)

    # Queries ----------------------------------------------------------------------------------

    def repair_warnings(
        self, tournament_id: UUID, number: int, pairings: Sequence[tuple[UUID, UUID | None]]
    ) -> list[PairingWarning]:
        """What an override of round ``number`` would be warned about (a rematch, a second bye,
        a gap in wins), before it is saved: the warnings ``repair`` answers with."""
        return tournament.pairing_warnings(self.load(tournament_id), number, pairings)

    def get_table(self, tournament_id: UUID, number: int) -> Table:
        """The match now played at table ``number``: the latest round's table of that number."""
        held = self.load(tournament_id)
        if not held.rounds:
            raise tournament.RoundNotFoundError("no round is paired yet")
        paired = held.rounds[-1]
        names = self._names(tournament_id)
        for table in paired.tables:
            if table.table == number:
                return self._table_now(held, paired, table, names)
        raise TableNotFoundError(f"round {paired.number} has no table {number}")

    def open_tables_now(self, tournament_id: UUID) -> list[Table]:
        """The latest round's tables still without a result, as the wallboard shows them now:
        each match's own score, penalty points included (rule C-BREAK-2)."""
        held = self.load(tournament_id)
        if not held.rounds:
            return []
        paired = held.rounds[-1]
        names = self._names(tournament_id)
        return [self._table_now(held, paired, table, names) for table in held.open_tables(paired)]

    def table_url(self, tournament_id: UUID, number: int) -> str:
        """The table's page for people: what a phone at the table opens (API.md "Pages for
        people"), not the JSON of ``GET .../tables/{n}``."""
        return f"{self._public_url}/pages/tournaments/{tournament_id}/tables/{number}"

    def table_of(self, tournament_id: UUID, player_id: UUID) -> int | None:
        """The player's table in the latest round (a bye's too); None before the first round
        or when the player is not paired in it."""
        held = self.load(tournament_id)
        if not held.rounds:
            return None
        return next(
            (t.table for t in held.rounds[-1].tables if player_id in (t.player_a, t.player_b)),
            None,
        )

    def reports_at(self, tournament_id: UUID, match_id: UUID) -> list[PendingReport]:
        """The players' reports of a match still waiting for the opponent's (or disputed)."""
        held = self.load(tournament_id)
        if held.result_of(match_id) is not None:
            return []
        return [
            PendingReport(
                player_id=r.player_id, winner=r.winner, points_a=r.points_a, points_b=r.points_b
            )
            for r in held.reports
            if r.match_id == match_id
        ]

    def table_qr_svg(self, tournament_id: UUID, number: int) -> str:
        """A QR code (SVG) of the table's page URL."""
        self.load(tournament_id)
        if not 1 <= number <= MAX_TABLE:
            raise TableNotFoundError(f"there is no table {number}")
        out = io.BytesIO()
        segno.make(self.table_url(tournament_id, number), error="m").save(
            out, kind="svg", scale=8, border=4, xmldecl=False, title=f"Table {number}"
        )
        return out.getvalue().decode()

    def board(self, tournament_id: UUID, now: datetime) -> Wallboard:
        """The wallboard: the round, each table's live score, those still to report, the round
        timer and the standings, in one answer."""
        held = self.load(tournament_id)
        standings = list_standings(self._store, self._views, tournament_id)
        if not held.rounds:
            return Wallboard(
                tournament_id=tournament_id,
                status=held.status(now),
                round=None,
                timer=RoundTimer(paired_at=None, elapsed_seconds=0),
                tables=[],
                to_report=[],
                standings=standings,
            )
        paired = held.rounds[-1]
        names = self._names(tournament_id)
        tables = [self._table_now(held, paired, table, names) for table in paired.tables]
        elapsed = int((now - paired.paired_at).total_seconds()) if paired.paired_at else 0
        return Wallboard(
            tournament_id=tournament_id,
            status=held.status(now),
            round=round_view(self._views, held, paired),
            timer=RoundTimer(paired_at=paired.paired_at, elapsed_seconds=max(0, elapsed)),
            tables=tables,
            to_report=[t.table for t in held.open_tables(paired)],
            standings=standings,
        )

    # Plumbing ---------------------------------------------------------------------------------

    def _table_now(
        self,
        held: Tournament,
        paired: PairedRound,
        table: tournament.PairedTable,
        names: dict[str, str],
    ) -> Table:
        score_a = score_b = 0
        phase = "bye"
        begun = False
        result = held.result_of(table.match_id) if table.match_id else None
        if table.match_id is not None:
            state = self._play.get(table.match_id)
            score_a, score_b, phase = state.score_a, state.score_b, state.phase
            begun = state.has_begun
            if result is not None and not state.is_over:
                phase = "decided"
        if result is not None:
            score_a, score_b = result.points_a, result.points_b
        status = _table_status(held, table, begun=begun)
        return copied(
            table,
            Table,
            round=paired.number,
            player_a_name=names.get(str(table.player_a), ""),
            player_b_name=names.get(str(table.player_b)) if table.player_b else None,
            score=Score(a=score_a, b=score_b),
            phase=phase,
            status=status,
            match_url=f"/api/v1/matches/{table.match_id}" if table.match_id else None,
        )

    def _voided(
        self, match_ids: Sequence[UUID], now: datetime, actor: str, reason: str
    ) -> list[Change[Any]]:
        changes: list[Change[Any]] = []
        for match_id in match_ids:
            state = self._play.get(match_id)
            if not state.is_over:
                changes.append(
                    Change.of(
                        match.evolve, state, match.void(state, now, reason=reason, actor=actor)
                    )
                )
        return changes


class TableNotFoundError(tournament.RoundNotFoundError):
    """The current round has no table with this number."""


def _table_status(held: Tournament, table: tournament.PairedTable, *, begun: bool) -> str:
    if table.match_id is None:
        return "bye"
    if held.result_of(table.match_id) is not None:
        return "decided"
    if table.match_id in held.disputed:
        return "disputed"
    if any(r.match_id == table.match_id for r in held.reports):
        return "awaiting_confirmation"
    return "playing" if begun else "pending"


def _difference(before: PairedRound, after: PairedRound) -> list[Replacement]:
    """The tables of ``after`` that are not as they were in ``before``, by table number."""
    old: dict[int, list[UUID | None]] = {t.table: [t.player_a, t.player_b] for t in before.tables}
    new: dict[int, list[UUID | None]] = {t.table: [t.player_a, t.player_b] for t in after.tables}
    return [
        Replacement(table=number, before=old.get(number), after=new.get(number))
        for number in sorted(set(old) | set(new))
        if old.get(number) != new.get(number)
    ]


def _late_entry(state: Tournament, registration_id: UUID) -> LateEntry:
    """The late entry of ``registration_id`` as admitted, with the field and pot it made."""
    entry = state.late_entry_of(state.registration(registration_id).player_id)
    assert entry is not None
    return copied(
        entry,
        LateEntry,
        registration_id=registration_id,
        players=state.players,
        pot_cents=state.pot_cents,
    )
