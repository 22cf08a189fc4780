"""At the venue, in the domain: given a started tournament, when players report, the director
repairs or unpairs a round, admits a late entry, fixes a table or finalizes, then events or an
error."""

from __future__ import annotations

from uuid import UUID

import pytest

from domain.errors import InvalidInputError
from domain.tournament import (
    NotInMatchError,
    PairedTable,
    ResultDisputed,
    ResultRecorded,
    ResultReported,
    RoundLockedError,
    RoundUnpaired,
    Tournament,
    TournamentEvent,
    TournamentFinalError,
    TournamentStateError,
    assign_fixed_table,
    finalize,
    pairing_warnings,
    record_result,
    reopen_tournament,
    report_result,
    seat_fixed_tables,
    unpair_round,
)
from tests.domain.test_tournament import START
from tests.domain.test_tournament_rounds import RESULT_IDS, apply, paired, started

DIRECTOR = "director"


def first_table(state: Tournament) -> PairedTable:
    return next(t for t in state.rounds[-1].tables if t.player_b is not None)


def reported(
    state: Tournament, player: UUID, winner: UUID, loser_points: int = 1
) -> list[TournamentEvent]:
    table = first_table(state)
    a_wins = winner == table.player_a
    return report_result(
        state,
        match_id=table.match_id,  # type: ignore[arg-type]
        player_id=player,
        winner=winner,
        points_a=table.match_length if a_wins else loser_points,
        points_b=loser_points if a_wins else table.match_length,
        new_result_id=lambda: next(RESULT_IDS),
        now=START,
        actor="player",
    )


def test_equal_reports_of_both_players_record_the_result_from_the_players() -> None:
    state = paired(started(4))
    table = first_table(state)
    first = reported(state, table.player_a, table.player_a)
    assert [type(e) for e in first] == [ResultReported]
    state = apply(state, first)
    assert table.player_b is not None
    second = reported(state, table.player_b, table.player_a)
    assert [type(e) for e in second] == [ResultReported, ResultRecorded]
    recorded = second[1]
    assert isinstance(recorded, ResultRecorded)
    assert recorded.source == "players"


def test_different_reports_dispute_the_match_and_record_nothing() -> None:
    state = paired(started(4))
    table = first_table(state)
    assert table.player_b is not None
    state = apply(state, reported(state, table.player_a, table.player_a))
    events = reported(state, table.player_b, table.player_b)
    assert [type(e) for e in events] == [ResultReported, ResultDisputed]
    after = apply(state, events)
    assert after.disputed == (table.match_id,)
    assert after.result_of(table.match_id) is None  # type: ignore[arg-type]


def test_a_player_of_another_match_may_not_report() -> None:
    state = paired(started(4))
    other = state.rounds[-1].tables[1]
    with pytest.raises(NotInMatchError):
        reported(state, other.player_a, first_table(state).player_a)


def test_a_pairing_that_repeats_a_match_is_warned_as_a_rematch() -> None:
    # rule T-FMT-1: no rematch in the Swiss phase unless the director forces one
    state = paired(started(4))
    table = first_table(state)
    for t in state.rounds[-1].tables:
        state = apply(
            state,
            record_result(
                state,
                result_id=next(RESULT_IDS),
                match_id=t.match_id,  # type: ignore[arg-type]
                winner=t.player_a,
                points_a=t.match_length,
                points_b=0,
                source="director",
                now=START,
                actor=DIRECTOR,
            ),
        )
    state = paired(state)
    kinds = {w.kind for w in pairing_warnings(state, 2, [(table.player_a, table.player_b)])}
    assert "rematch" in kinds


def test_only_the_latest_round_without_results_is_unpaired() -> None:
    state = paired(started(4))
    events = unpair_round(state, number=1, reason="", now=START, actor=DIRECTOR)
    assert [type(e) for e in events] == [RoundUnpaired]
    assert apply(state, events).rounds == ()
    with pytest.raises(RoundLockedError):
        unpair_round(_decided(state), number=1, reason="", now=START, actor=DIRECTOR)


def _decided(state: Tournament) -> Tournament:
    table = first_table(state)
    return apply(
        state,
        record_result(
            state,
            result_id=next(RESULT_IDS),
            match_id=table.match_id,  # type: ignore[arg-type]
            winner=table.player_a,
            points_a=table.match_length,
            points_b=0,
            source="director",
            now=START,
            actor=DIRECTOR,
        ),
    )


def test_a_fixed_table_seats_its_player_there_and_the_others_keep_their_order() -> None:
    state = paired(started(8))
    player = state.rounds[-1].tables[0].player_a
    state = apply(
        state, assign_fixed_table(state, player_id=player, table=3, now=START, actor=DIRECTOR)
    )
    seated = seat_fixed_tables(state, list(state.rounds[-1].tables))
    assert [t.table for t in seated] == [1, 2, 3, 4]
    assert next(t for t in seated if t.table == 3).player_a == player
    with pytest.raises(InvalidInputError):
        assign_fixed_table(state, player_id=player, table=0, now=START, actor=DIRECTOR)


def test_a_final_tournament_refuses_results_until_reopened() -> None:
    # rule T-FMT-6, T-FMT-8: places are fixed until a correction
    state = paired(started(2))
    state = _decided(state)
    assert state.completed_at is not None
    state = apply(state, finalize(state, now=START, actor=DIRECTOR))
    table = first_table(state)
    result = state.result_of(table.match_id)  # type: ignore[arg-type]
    assert result is not None
    with pytest.raises(TournamentFinalError):
        record_result(
            state,
            result_id=next(RESULT_IDS),
            match_id=table.match_id,  # type: ignore[arg-type]
            winner=table.player_b,  # type: ignore[arg-type]
            points_a=0,
            points_b=table.match_length,
            source="director",
            corrects=result.id,
            now=START,
            actor=DIRECTOR,
        )
    with pytest.raises(InvalidInputError):
        reopen_tournament(state, reason=" ", now=START, actor=DIRECTOR)
    state = apply(state, reopen_tournament(state, reason="wrong winner", now=START, actor=DIRECTOR))
    assert state.finalized_at is None
    with pytest.raises(TournamentStateError):
        reopen_tournament(state, reason="again", now=START, actor=DIRECTOR)
