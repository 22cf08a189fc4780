"""The tournament day: given a started tournament, when a round, a result or a withdrawal, then
events or an error (rules T-FMT-1..8)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import count
from uuid import UUID

import pytest

from domain.errors import InvalidInputError
from domain.events import fold
from domain.tournament import (
    AllRoundsPairedError,
    MatchNotInTournamentError,
    PlayerWithdrew,
    ResultConflictError,
    ResultRecorded,
    ResultsMissingError,
    RoundPaired,
    Tournament,
    TournamentCompleted,
    TournamentEvent,
    TournamentPlan,
    TournamentStarted,
    evolve,
    start,
)
from domain.tournament.rounds import (
    MatchScore,
    pair_next_round,
    places,
    playable_swiss_rounds,
    record_result,
    swiss_standings,
    withdraw,
)
from tests.domain.test_tournament import CHECK_IN, START, checked_in, player, with_players

DIRECTOR = "director"


def ids(prefix: int) -> Iterator[UUID]:
    return (UUID(int=prefix * 1_000_000 + n) for n in count(1))


MATCH_IDS = ids(7)
RESULT_IDS = ids(9)


def started(players: int, **plan: object) -> Tournament:
    terms = TournamentPlan(
        name="Frühlingsturnier",
        date="2026-04-18",
        venue="Amberg",
        **plan,  # type: ignore[arg-type]
    )
    state = checked_in(with_players(players, terms), *range(1, players + 1))
    return apply(state, start(state, lot_seed=11, now=START, actor=DIRECTOR))


def apply(state: Tournament, events: Sequence[TournamentEvent]) -> Tournament:
    after = fold(evolve, state, events)
    assert after is not None
    return after


def paired(state: Tournament, seed: int = 5) -> Tournament:
    events = pair_next_round(
        state, seed=seed, new_match_id=lambda: next(MATCH_IDS), now=START, actor=DIRECTOR
    )
    return apply(state, events)


def report(
    state: Tournament, match_id: UUID, winner: UUID, points: tuple[int, int] | None = None
) -> list[TournamentEvent]:
    located = state.table_of(match_id)
    assert located is not None
    table = located[1]
    length = table.match_length
    if points is None:
        points = (length, length - 3) if winner == table.player_a else (length - 3, length)
    return list(
        record_result(
            state,
            result_id=next(RESULT_IDS),
            match_id=match_id,
            winner=winner,
            points_a=points[0],
            points_b=points[1],
            source="director",
            now=START,
            actor=DIRECTOR,
        )
    )


def decide_round(state: Tournament, winner_is_a: bool = True) -> Tournament:
    """Every open table of the last round won by its player a (or b)."""
    for table in state.open_tables(state.rounds[-1]):
        assert table.match_id is not None
        assert table.player_b is not None
        winner = table.player_a if winner_is_a else table.player_b
        state = apply(state, report(state, table.match_id, winner))
    return state


def test_the_start_records_the_field_the_lot_seed_and_the_swiss_rounds_it_plays() -> None:
    state = started(8)
    assert state.field == tuple(player(n) for n in range(1, 9))
    assert (state.lot_seed, state.swiss_rounds) == (11, 6)


@pytest.mark.parametrize(
    ("players", "rounds"), [(2, 1), (3, 3), (4, 3), (5, 5), (7, 6), (8, 6), (20, 6)]
)
def test_a_small_field_plays_only_the_swiss_rounds_it_can_play_without_rematch(
    players: int, rounds: int
) -> None:
    # rule T-FMT-1: no rematch in the Swiss phase
    assert playable_swiss_rounds(6, players) == rounds


def test_a_round_is_one_event_with_every_table_and_a_match_of_the_swiss_length() -> None:
    # rules T-FMT-2, T-FMT-8
    state = started(5, match_length=5)
    [event] = pair_next_round(
        state, seed=3, new_match_id=lambda: next(MATCH_IDS), now=START, actor=DIRECTOR
    )
    assert isinstance(event, RoundPaired)
    assert (event.round, event.stage, event.seed) == (1, "swiss", 3)
    players = [p for t in event.tables for p in (t.player_a, t.player_b) if p is not None]
    assert sorted(players) == sorted(state.field)
    [bye] = [t for t in event.tables if t.player_b is None]
    assert (bye.match_id, bye.reason) == (None, "bye")
    assert {t.match_length for t in event.tables if t.player_b} == {5}
    assert all(t.explanation for t in event.tables)


def test_the_next_round_waits_for_every_result_and_names_the_open_tables() -> None:
    state = paired(started(6))
    first = state.rounds[0].tables[0]
    assert first.match_id is not None
    state = apply(state, report(state, first.match_id, first.player_a))
    with pytest.raises(ResultsMissingError) as raised:
        paired(state)
    assert raised.value.extensions["tables"] == [2, 3]


def test_four_players_play_three_swiss_rounds_then_semi_finals_from_the_standings() -> None:
    # rule T-FMT-4: 1 v 4 and 2 v 3 of the Swiss standings, then final and 3rd place
    state = started(4)
    for _ in range(3):
        state = decide_round(paired(state))
    order = [s.player_id for s in swiss_standings(state)]
    state = paired(state)
    semis = state.rounds[-1]
    assert semis.stage == "knockout"
    assert [(t.stage, t.player_a, t.player_b) for t in semis.tables] == [
        ("semi_final", order[0], order[3]),
        ("semi_final", order[1], order[2]),
    ]
    state = decide_round(state, winner_is_a=False)  # 4th and 3rd win their semi-finals
    state = paired(state)
    finals = state.rounds[-1]
    assert [(t.stage, t.player_a, t.player_b) for t in finals.tables] == [
        ("final", order[3], order[2]),
        ("third_place", order[0], order[1]),
    ]
    final, third = finals.tables
    assert final.match_id is not None
    assert third.match_id is not None
    state = apply(state, report(state, final.match_id, order[2]))
    events = report(state, third.match_id, order[0])
    assert [type(e) for e in events] == [ResultRecorded, TournamentCompleted]
    state = apply(state, events)
    assert places(state) == [order[2], order[3], order[0], order[1]]
    with pytest.raises(AllRoundsPairedError):
        paired(state)


def test_a_field_of_three_has_no_knockout_and_completes_with_its_last_swiss_round() -> None:
    state = started(3)
    for number in range(1, 4):
        state = paired(state)
        last = decide_round(state)
        if number < 3:
            assert last.completed_at is None
        state = last
    assert state.completed_at is not None
    byes = [t.player_a for r in state.rounds for t in r.tables if t.player_b is None]
    assert sorted(byes) == sorted(state.field)  # rule T-FMT-2: one bye each, never two


def test_a_result_cannot_be_recorded_twice_but_can_be_corrected_by_naming_it() -> None:
    # rule T-FMT-6
    state = paired(started(4))
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    assert table.player_b is not None
    state = apply(state, report(state, table.match_id, table.player_a))
    first = state.result_of(table.match_id)
    assert first is not None
    with pytest.raises(ResultConflictError):
        report(state, table.match_id, table.player_b)
    [correction] = record_result(
        state,
        result_id=next(RESULT_IDS),
        match_id=table.match_id,
        winner=table.player_b,
        points_a=2,
        points_b=7,
        source="director",
        corrects=first.id,
        reason="score sheet misread",
        now=START,
        actor=DIRECTOR,
    )
    assert isinstance(correction, ResultRecorded)
    assert correction.corrects == first.id
    after = apply(state, [correction])
    now_counting = after.result_of(table.match_id)
    assert now_counting is not None
    assert now_counting.winner == table.player_b


def test_a_correction_after_the_next_round_leaves_that_round_as_paired() -> None:
    # rule T-FMT-6: pairings already made are not silently changed
    state = decide_round(paired(started(6)))
    state = paired(state)
    second_round = state.rounds[1]
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    assert table.player_b is not None
    first = state.result_of(table.match_id)
    assert first is not None
    state = apply(
        state,
        record_result(
            state,
            result_id=next(RESULT_IDS),
            match_id=table.match_id,
            winner=table.player_b,
            points_a=0,
            points_b=7,
            source="director",
            corrects=first.id,
            now=START,
            actor=DIRECTOR,
        ),
    )
    assert state.rounds[1] == second_round


def test_the_result_of_a_played_match_arrives_once_and_a_second_arrival_records_nothing() -> None:
    state = paired(started(4))
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    arguments = {
        "match_id": table.match_id,
        "winner": table.player_a,
        "points_a": 7,
        "points_b": 1,
        "source": "match",
        "now": START,
        "actor": DIRECTOR,
    }
    state = apply(state, record_result(state, result_id=next(RESULT_IDS), **arguments))  # type: ignore[arg-type]
    assert record_result(state, result_id=next(RESULT_IDS), **arguments) == []  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("points", "field"), [((6, 2), "points_a"), ((7, 7), "points_b"), ((-1, 0), "points_a")]
)
def test_a_won_match_gives_the_winner_the_match_length_and_the_loser_less(
    points: tuple[int, int], field: str
) -> None:
    # rule T-FMT-7
    state = paired(started(4))
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    with pytest.raises(InvalidInputError) as raised:
        report(state, table.match_id, table.player_a, points)
    assert raised.value.field == field


def test_a_match_of_another_tournament_has_no_result_here() -> None:
    state = paired(started(4))
    with pytest.raises(MatchNotInTournamentError):
        record_result(
            state,
            result_id=next(RESULT_IDS),
            match_id=UUID(int=1),
            winner=player(1),
            points_a=7,
            points_b=0,
            source="director",
            now=START,
            actor=DIRECTOR,
        )


def test_a_withdrawn_player_forfeits_an_unplayed_match_with_0_points_and_is_not_paired_again() -> (
    None
):
    # rule T-FMT-5, T-FMT-7: never started, so unplayed: a win for the opponent with 0 points
    state = paired(started(6))
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    assert table.player_b is not None
    events = withdraw(
        state,
        player_id=table.player_a,
        reason="train home",
        left_early=True,
        unfinished={table.match_id: None},
        new_result_id=lambda: next(RESULT_IDS),
        now=START,
        actor=DIRECTOR,
    )
    withdrew, forfeit = events
    assert isinstance(withdrew, PlayerWithdrew)
    assert withdrew.left_early
    assert isinstance(forfeit, ResultRecorded)
    assert (forfeit.winner, forfeit.points_a, forfeit.points_b, forfeit.played) == (
        table.player_b,
        0,
        0,
        False,
    )
    state = decide_round(apply(state, events))
    state = paired(state)
    in_round_two = {p for t in state.rounds[1].tables for p in (t.player_a, t.player_b)}
    assert table.player_a not in in_round_two
    assert len(state.rounds[1].tables) == 3  # five left: two tables and a bye


def test_a_withdrawal_during_a_begun_match_gives_the_opponent_the_match_length() -> None:
    # rule T-FMT-7: decided early, the loser keeps the points they had
    state = paired(started(4))
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    assert table.player_b is not None
    _, forfeit = withdraw(
        state,
        player_id=table.player_b,
        reason="ill",
        left_early=True,
        unfinished={table.match_id: MatchScore(points_a=2, points_b=4)},
        new_result_id=lambda: next(RESULT_IDS),
        now=START,
        actor=DIRECTOR,
    )
    assert isinstance(forfeit, ResultRecorded)
    assert (forfeit.winner, forfeit.points_a, forfeit.points_b, forfeit.played) == (
        table.player_a,
        7,
        4,
        True,
    )


def test_the_start_event_carries_the_standbys_seated_at_the_start_in_the_field() -> None:
    state = checked_in(with_players(3), 1, 2)
    [*_, started_event] = start(state, lot_seed=1, now=CHECK_IN, actor=DIRECTOR)
    assert isinstance(started_event, TournamentStarted)
    assert started_event.field == (player(1), player(2))


def test_a_semi_final_loser_who_leaves_forfeits_the_3rd_place_match_and_places_still_hold() -> None:
    # rule T-FMT-4, T-FMT-5: the knockout's four keep places 1-4; the absent player is not paired
    state = started(4)
    for _ in range(3):
        state = decide_round(paired(state))
    state = decide_round(paired(state))  # semi-finals won by players a
    semis = state.rounds[-1]
    leaving = semis.tables[0].player_b
    assert leaving is not None
    state = apply(
        state,
        withdraw(
            state,
            player_id=leaving,
            reason="train",
            left_early=True,
            unfinished={},
            new_result_id=lambda: next(RESULT_IDS),
            now=START,
            actor=DIRECTOR,
        ),
    )
    events = pair_next_round(
        state, seed=1, new_match_id=lambda: next(MATCH_IDS), now=START, actor=DIRECTOR
    )
    assert [type(e).__name__ for e in events] == ["RoundPaired", "ResultRecorded"]
    forfeit = events[1]
    assert isinstance(forfeit, ResultRecorded)
    assert (forfeit.played, forfeit.points_a, forfeit.points_b) == (False, 0, 0)
    state = decide_round(apply(state, events))
    assert state.completed_at is not None
    seeded = {p for t in semis.tables for p in (t.player_a, t.player_b)}
    assert set(places(state)[:4]) == seeded
    assert places(state)[3] == leaving  # the 3rd-place match went to the one who stayed


def test_a_field_down_to_three_before_the_knockout_completes_with_the_swiss_rounds() -> None:
    # rule T-FMT-4: fewer than four still in play: no knockout
    state = paired(started(5))
    for leaving in list(state.field)[:2]:
        open_matches = [t.match_id for t in state.open_tables(state.rounds[-1]) if t.match_id]
        state = apply(
            state,
            withdraw(
                state,
                player_id=leaving,
                reason="ill",
                left_early=True,
                unfinished=dict.fromkeys(open_matches),
                new_result_id=lambda: next(RESULT_IDS),
                now=START,
                actor=DIRECTOR,
            ),
        )
    while state.completed_at is None:
        state = decide_round(state)
        if state.completed_at is None:
            state = paired(state)
    assert all(r.stage == "swiss" for r in state.rounds)
    assert len(places(state)) == 5
