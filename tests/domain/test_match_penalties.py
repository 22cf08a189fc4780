"""Penalty points in a match: given a match, when the director penalises a side, then the
opponent's score moves, a waiver moves it back, and too many points decide the match
(rules C-BREAK-2, T-FMT-7)."""

from __future__ import annotations

from datetime import timedelta
from uuid import UUID

import pytest

from domain.errors import InvalidInputError
from domain.mat import format_mat
from domain.match import (
    MatchOverError,
    MatchWon,
    PenaltyAwarded,
    PenaltyNotFoundError,
    award_penalty,
    change_penalty,
)
from domain.match.errors import PenaltyAwardedAlreadyError
from tests.domain.test_mat import BERLIN
from tests.domain.test_match import Table, types

LATE = UUID(int=101)
AGAIN = UUID(int=102)


def test_a_penalty_point_is_added_to_the_opponents_score() -> None:
    table = Table(match_length=7)
    [event] = table.do(award_penalty, penalty_id=LATE, side="a", points=2, reason="late back")
    assert isinstance(event, PenaltyAwarded)
    state = table.state
    assert (state.score_a, state.score_b) == (0, 2)
    assert state.penalty_points_against("a") == 2
    assert not state.is_over


def test_a_penalty_awarded_already_is_refused_and_counts_once() -> None:
    # the break list's proposal approved twice: one decision, recorded once (rule C-BREAK-2)
    table = Table(match_length=7)
    table.do(award_penalty, penalty_id=LATE, side="a", points=2, reason="late back")
    with pytest.raises(PenaltyAwardedAlreadyError):
        table.do(award_penalty, penalty_id=LATE, side="a", points=2, reason="late back")
    assert (table.state.score_a, table.state.score_b) == (0, 2)


def test_a_waived_penalty_takes_its_points_back_and_an_adjusted_one_changes_them() -> None:
    table = Table(match_length=7)
    table.do(award_penalty, penalty_id=LATE, side="b", points=2, reason="late back")
    table.do(change_penalty, penalty_id=LATE, points=1, reason="the train was late")
    assert (table.state.score_a, table.state.score_b) == (1, 0)
    table.do(change_penalty, penalty_id=LATE, points=0, reason="waived")
    assert (table.state.score_a, table.state.score_b) == (0, 0)
    assert [p.points for p in table.state.penalties] == [0]


def test_penalty_points_above_half_the_match_length_win_the_match_at_its_length() -> None:
    # rule C-BREAK-2, T-FMT-7: 4 of a 7-point match is more than half
    table = Table(match_length=7)
    table.do(award_penalty, penalty_id=LATE, side="a", points=2, reason="late back")
    events = table.do(award_penalty, penalty_id=AGAIN, side="a", points=2, reason="late again")
    assert types(events) == ["PenaltyAwarded", "MatchWon"]
    won = events[-1]
    assert isinstance(won, MatchWon)
    assert (won.winner, won.reason, won.score_a, won.score_b) == ("b", "penalty", 0, 7)
    assert table.state.is_over
    with pytest.raises(MatchOverError):
        table.do(change_penalty, penalty_id=LATE, points=0, reason="too late to waive")


def test_exactly_half_the_match_length_in_penalties_does_not_decide_it() -> None:
    table = Table(match_length=8)
    assert types(
        table.do(award_penalty, penalty_id=LATE, side="a", points=4, reason="late back")
    ) == ["PenaltyAwarded"]


@pytest.mark.parametrize(("points", "reason", "field"), [(0, "x", "points"), (1, " ", "reason")])
def test_a_penalty_needs_points_and_a_reason(points: int, reason: str, field: str) -> None:
    table = Table(match_length=7)
    with pytest.raises(InvalidInputError) as raised:
        table.do(award_penalty, penalty_id=LATE, side="a", points=points, reason=reason)
    assert raised.value.field == field


def test_an_unknown_penalty_cannot_be_changed() -> None:
    with pytest.raises(PenaltyNotFoundError):
        Table().do(change_penalty, penalty_id=LATE, points=0, reason="waived")


def test_the_mat_file_notes_each_penalty_in_its_header() -> None:
    table = Table(match_length=7)
    table.wait(60)
    table.do(award_penalty, penalty_id=LATE, side="a", points=1, reason="late back")
    table.now += timedelta(seconds=1)
    table.do(change_penalty, penalty_id=LATE, points=0, reason="waived")
    text = format_mat(table.events, BERLIN)
    header = text.split(" 7 point match")[0]
    assert '; [Note "Penalty on anna awarded 1 point(s) for ben"]' in header
    assert '; [Note "Penalty on anna changed to 0 point(s) for ben"]' in header
