"""At the venue: results reported by the players, pairing overrides, late entries, fixed
tables, and the director's final word on places and prizes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError
from domain.events import EventBatch, fold
from domain.text import one_line
from domain.tournament.defaults import MAX_REASON_LENGTH
from domain.tournament.errors import (
    MatchNotInTournamentError,
    NotInMatchError,
    PlayerNotInTournamentError,
    ResultConflictError,
    RoundLockedError,
    RoundNotFoundError,
    TournamentStateError,
)
from domain.tournament.events import (
    FixedTableAssigned,
    LateEntryAdmitted,
    MissedRounds,
    PairedTable,
    ResultDisputed,
    ResultReported,
    RoundRepaired,
    RoundUnpaired,
    TournamentEvent,
    TournamentFinalized,
    TournamentReopened,
)
from domain.tournament.formats import require_late_entry_open, require_open_schedule
from domain.tournament.registration import check_in
from domain.tournament.rounds import (
    _check_points,
    prizes,
    record_result,
    require_not_final,
    swiss_standings,
)
from domain.tournament.rounds import places as final_places
from domain.tournament.state import Round, Tournament, evolve

MAX_TABLE = 999

ReportStatus = Literal["awaiting_confirmation", "confirmed", "disputed"]
WarningKind = Literal["rematch", "second_bye", "score_gap"]


class PairingWarning(msgspec.Struct, frozen=True, kw_only=True):
    """What a director's pairing does that the computed pairing avoids (rules T-FMT-1, -2)."""

    kind: WarningKind
    table: int
    players: tuple[UUID, ...]
    detail: str


def report_status(state: Tournament, match_id: UUID) -> ReportStatus:
    """Where the players' reports of a match stand."""
    if state.result_of(match_id) is not None:
        return "confirmed"
    if match_id in state.disputed:
        return "disputed"
    return "awaiting_confirmation"


# Commands ----------------------------------------------------------------------------------


def report_result(
    state: Tournament,
    *,
    match_id: UUID,
    player_id: UUID,
    winner: UUID,
    points_a: int,
    points_b: int,
    new_result_id: Callable[[], UUID],
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """A player of the match reports its result. The opponent's equal report records it (source
    ``players``); a different one disputes the match, and the director decides."""
    _require_running(state)
    located = state.table_of(match_id)
    if located is None:
        raise MatchNotInTournamentError(f"no pairing of this tournament started match {match_id}")
    _, table = located
    if table.player_b is None or player_id not in (table.player_a, table.player_b):
        raise NotInMatchError("only the two players of a match report its result")
    existing = state.result_of(match_id)
    if existing is not None:
        raise ResultConflictError(
            f"match {match_id} has its result already", result_id=str(existing.id)
        )
    if winner not in (table.player_a, table.player_b):
        raise InvalidInputError("winner", f"{winner} does not play match {match_id}")
    _check_points(table, winner, points_a, points_b, played=True)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    reported = batch.add(
        ResultReported,
        match_id=match_id,
        player_id=player_id,
        winner=winner,
        points_a=points_a,
        points_b=points_b,
    )
    opponent = table.player_b if player_id == table.player_a else table.player_a
    theirs = state.report_of(match_id, opponent)
    if theirs is None:
        return batch.events
    if (theirs.winner, theirs.points_a, theirs.points_b) == (winner, points_a, points_b):
        return batch.events + record_result(
            evolve(state, reported),
            result_id=new_result_id(),
            match_id=match_id,
            winner=winner,
            points_a=points_a,
            points_b=points_b,
            source="players",
            now=now,
            actor=actor,
        )
    if match_id not in state.disputed:
        batch.add(ResultDisputed, match_id=match_id, reports=(opponent, player_id))
    return batch.events


def repair_round(
    state: Tournament,
    *,
    number: int,
    pairings: Sequence[tuple[UUID, UUID | None]],
    reason: str,
    new_match_id: Callable[[], UUID],
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """The director's pairing of the latest Swiss round, before its first result: every active
    player exactly once. A table whose players and number stay keeps its match; every other
    table is replaced: its match is void and the new table gets a new match."""
    require_open_schedule(state, "a pairing override")
    paired = _latest_unplayed_round(state, number)
    if paired.stage != "swiss":
        raise RoundLockedError("the knockout is seeded by the standings (rule T-FMT-4)")
    reason = _reason(reason)
    _check_field(state, pairings, number)
    before = {table.table: table for table in paired.tables}
    length = state.stage_length("swiss")
    tables = []
    for index, (player_a, player_b) in enumerate(pairings, start=1):
        old = before.get(index)
        if old is not None and (old.player_a, old.player_b) == (player_a, player_b):
            tables.append(old)
            continue
        tables.append(
            PairedTable(
                table=index,
                stage="swiss",
                player_a=player_a,
                player_b=player_b,
                match_id=new_match_id() if player_b is not None else None,
                match_length=length if player_b is not None else 0,
                reason="director" if player_b is not None else "bye",
                explanation=f"paired by the director: {reason}" if reason else "director",
            )
        )
    kept = {table.table for table in tables if before.get(table.table) is table}
    replaced = [table for table in paired.tables if table.table not in kept]
    if not replaced and len(tables) == len(paired.tables):
        return []
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        RoundRepaired,
        round=number,
        tables=tuple(tables),
        replaced=tuple(table.table for table in replaced),
        voided=tuple(table.match_id for table in replaced if table.match_id is not None),
        reason=reason,
    )
    return batch.events


def pairing_warnings(
    state: Tournament, number: int, pairings: Sequence[tuple[UUID, UUID | None]]
) -> list[PairingWarning]:
    """What the pairing of round ``number`` does that the computed pairing avoids: a rematch
    (T-FMT-1), a second bye, players of different score groups (T-FMT-2)."""
    earlier = [paired for paired in state.rounds if paired.number < number]
    met = {
        frozenset((table.player_a, table.player_b))
        for paired in earlier
        for table in paired.tables
        if table.player_b is not None
    }
    had_bye = {
        table.player_a for paired in earlier for table in paired.tables if table.player_b is None
    }
    had_bye |= {e.player_id for e in state.late_entries if e.missed == "byes" and e.from_round > 1}
    # the score groups before the round: its own bye (a win, T-FMT-2) is none of them yet
    before = msgspec.structs.replace(state, rounds=tuple(earlier))
    wins = {standing.player_id: standing.wins for standing in swiss_standings(before)}
    warnings = []
    for index, (player_a, player_b) in enumerate(pairings, start=1):
        if player_b is None:
            if player_a in had_bye:
                warnings.append(
                    PairingWarning(
                        kind="second_bye",
                        table=index,
                        players=(player_a,),
                        detail="the player had a bye already",
                    )
                )
            continue
        if frozenset((player_a, player_b)) in met:
            warnings.append(
                PairingWarning(
                    kind="rematch",
                    table=index,
                    players=(player_a, player_b),
                    detail="the players met in an earlier round (rule T-FMT-1)",
                )
            )
        gap = abs(wins.get(player_a, 0) - wins.get(player_b, 0))
        if gap:
            warnings.append(
                PairingWarning(
                    kind="score_gap",
                    table=index,
                    players=(player_a, player_b),
                    detail=f"the players' wins differ by {gap} (rule T-FMT-2)",
                )
            )
    return warnings


def unpair_round(
    state: Tournament, *, number: int, reason: str, now: datetime, actor: str
) -> list[TournamentEvent]:
    """Take back the latest round before its first result: its matches are void, and the next
    pairing pairs this round again."""
    paired = _latest_unplayed_round(state, number)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        RoundUnpaired,
        round=number,
        voided=tuple(table.match_id for table in paired.tables if table.match_id is not None),
        reason=_reason(reason),
    )
    return batch.events


def admit_late_entry(
    state: Tournament,
    *,
    registration_id: UUID,
    missed: MissedRounds,
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """A registration made after the start joins the field: paired from the next round; the
    rounds paired before count as losses with 0 points (or as 0-point byes), and the seat's
    pot share joins the pot (rule T-BUYIN-1)."""
    _require_running(state)
    require_late_entry_open(state)
    registration = state.registration(registration_id)
    if registration.sequence <= state.started_version:
        raise TournamentStateError("a late entry is a registration made after the start")
    if registration.status not in ("registered", "waitlisted", "checked_in"):
        raise TournamentStateError(f"the registration is {registration.status}")
    if registration.player_id in state.field:
        raise TournamentStateError("the player is in the field already")
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        LateEntryAdmitted,
        registration_id=registration_id,
        player_id=registration.player_id,
        from_round=len(state.rounds) + 1,
        missed=missed,
        pot_share_cents=state.pot_share_cents_at_start or state.pot_share_cents,
    )
    return batch.events


def arrive_late(
    state: Tournament,
    *,
    registration_id: UUID,
    id_document_seen: bool,
    buy_in_paid_cents: int,
    missed: MissedRounds,
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """A registration made after the start arrives at the desk: checked in and admitted as
    one decision, so that neither is recorded without the other.

    rule T-CHECKIN-1: the check-in records the ID document seen and the buy-in paid; rule
    T-BUYIN-1: the admission adds the seat's pot share to the pot, once. A registration
    checked in already (by its own check-in after the start) is admitted only, its proof as
    recorded then. A refused check-in or admission refuses the whole: no event.
    """
    # a fixed schedule or a last Swiss round paired takes no late entry, whatever the proof
    require_late_entry_open(state)
    checked_in: list[TournamentEvent] = []
    if state.registration(registration_id).status != "checked_in":
        checked_in = check_in(
            state,
            registration_id,
            id_document_seen=id_document_seen,
            buy_in_paid_cents=buy_in_paid_cents,
            now=now,
            actor=actor,
        )
    # the admission is decided on the state the check-in leaves: its versions follow on
    after = fold(evolve, state, checked_in)
    assert after is not None
    return checked_in + admit_late_entry(
        after, registration_id=registration_id, missed=missed, now=now, actor=actor
    )


def assign_fixed_table(
    state: Tournament, *, player_id: UUID, table: int, now: datetime, actor: str
) -> list[TournamentEvent]:
    """Mobility: the player always plays at ``table``, from the next round paired on."""
    _require_running(state)
    if player_id not in state.active_players():
        raise PlayerNotInTournamentError(f"player {player_id} does not play in this tournament")
    if not 1 <= table <= MAX_TABLE:
        raise InvalidInputError("table", f"must be between 1 and {MAX_TABLE}")
    holder = next((p for p, number in state.fixed_tables if number == table), None)
    if holder is not None and holder != player_id:
        raise TournamentStateError(f"table {table} is fixed for another player already")
    if state.fixed_table_of(player_id) == table:
        return []
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(FixedTableAssigned, player_id=player_id, table=table)
    return batch.events


def finalize(state: Tournament, *, now: datetime, actor: str) -> list[TournamentEvent]:
    """Places and prizes are fixed: a correction now needs ``reopen`` first."""
    if state.completed_at is None:
        raise TournamentStateError("only a completed tournament is finalized")
    require_not_final(state)
    split = prizes(state)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        TournamentFinalized,
        places=tuple(final_places(state)),
        payouts_cents=tuple(payout.amount_cents for payout in split.payouts),
    )
    return batch.events


def reopen_tournament(
    state: Tournament, *, reason: str, now: datetime, actor: str
) -> list[TournamentEvent]:
    """The director reopens a final tournament to correct it, saying why."""
    if state.finalized_at is None:
        raise TournamentStateError("the tournament is not final")
    reason = one_line("reason", reason, MAX_REASON_LENGTH)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(TournamentReopened, reason=reason)
    return batch.events


# Checks ------------------------------------------------------------------------------------


def _require_running(state: Tournament) -> None:
    if state.started_at is None:
        raise TournamentStateError("the tournament has not started")
    require_not_final(state)
    if state.completed_at is not None:
        raise TournamentStateError("the tournament is completed")


def _reason(reason: str) -> str:
    return one_line("reason", reason, MAX_REASON_LENGTH) if reason.strip() else ""


def _latest_unplayed_round(state: Tournament, number: int) -> Round:
    """The latest round, still without any result or report."""
    _require_running(state)
    paired = next((r for r in state.rounds if r.number == number), None)
    if paired is None:
        raise RoundNotFoundError(f"tournament {state.id} has no round {number}")
    if paired is not state.rounds[-1]:
        raise RoundLockedError(f"round {number} is not the latest round")
    matches = {table.match_id for table in paired.tables if table.match_id is not None}
    if any(result.match_id in matches for result in state.results):
        raise RoundLockedError(f"round {number} has a result already")
    return paired


def _check_field(
    state: Tournament, pairings: Sequence[tuple[UUID, UUID | None]], number: int
) -> None:
    """Every player of round ``number`` exactly once (a late entry plays from the round after
    its admission); at most one bye."""
    later = {e.player_id for e in state.late_entries if e.from_round > number}
    field = [p for p in state.active_players() if p not in later]
    seen = [p for pair in pairings for p in pair if p is not None]
    strangers = [str(p) for p in seen if p not in set(field)]
    if strangers:
        raise InvalidInputError("pairings", "not in this round's field: " + ", ".join(strangers))
    if len(seen) != len(set(seen)):
        raise InvalidInputError("pairings", "a player is paired twice")
    missing = [str(p) for p in field if p not in set(seen)]
    if missing:
        raise InvalidInputError(
            "pairings", "every active player once; missing: " + ", ".join(missing)
        )
    if sum(1 for _, b in pairings if b is None) > 1:
        raise InvalidInputError("pairings", "at most one bye")
    if any(a == b for a, b in pairings):
        raise InvalidInputError("pairings", "a player cannot play themselves")
