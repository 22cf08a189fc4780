"""The season ranking (rules R-ATT-1..2, R-MATCH-1, R-BYE-1, R-CLASS-1, R-TIE-1)."""

from __future__ import annotations

from collections.abc import Iterable
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInputError
from domain.seasons.ranking import RankingRow, TournamentRecord, WonMatch, compute_ranking

ANNA, BERT, CARL, DORA, EMIL = (UUID(int=number) for number in range(1, 6))


def match(winner: UUID, length: int = 7, *, stage: str = "swiss", played: bool = True) -> WonMatch:
    return WonMatch(
        match_id=UUID(int=10_000 + length * 100 + winner.int),
        round=1,
        stage=stage,
        winner=winner,
        match_length=length,
        played=played,
    )


def tournament(
    number: int,
    attended: Iterable[UUID],
    *matches: WonMatch,
    winner: UUID | None = None,
    left_early: Iterable[UUID] = (),
    class_name: str = "Champions",
) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=UUID(int=number),
        name=f"Turnier {number}",
        class_name=class_name,
        attended=frozenset(attended),
        left_early=frozenset(left_early),
        winner=winner,
        won_matches=matches,
    )


def row(ranking: list[RankingRow], player: UUID) -> RankingRow:
    return next(line for line in ranking if line.player_id == player)


def test_every_player_present_gets_seven_attendance_points_and_no_shows_are_not_listed() -> None:
    # rule R-ATT-1: points for presence (checked in); BERT registered online but never came
    ranking = compute_ranking([tournament(1, [ANNA, CARL])])
    assert [(line.player_id, line.points, line.attendance_points) for line in ranking] == [
        (ANNA, 7, 7),
        (CARL, 7, 7),
    ]
    assert BERT not in {line.player_id for line in ranking}


def test_each_won_match_scores_its_match_length_knockout_included() -> None:
    # rule R-MATCH-1
    record = tournament(1, [ANNA, BERT], match(ANNA, 7), match(ANNA, 11, stage="final"))
    anna = row(compute_ranking([record]), ANNA)
    assert (anna.points, anna.attendance_points, anna.match_points) == (25, 7, 18)
    assert [(entry.kind, entry.points, entry.stage) for entry in anna.explanation] == [
        ("attendance", 7, None),
        ("match_won", 7, "swiss"),
        ("match_won", 11, "final"),
    ]


def test_byes_and_unplayed_forfeits_score_nothing_but_are_shown() -> None:
    # rule R-BYE-1
    record = tournament(1, [ANNA], match(ANNA, played=False), match(ANNA, played=False))
    anna = row(compute_ranking([record]), ANNA)
    assert (anna.points, anna.match_points) == (7, 0)
    assert [entry.kind for entry in anna.explanation].count("match_unplayed") == 2


def test_a_bye_is_shown_without_a_match() -> None:
    # rule R-BYE-1: a bye's table has no match (T-FMT-2)
    bye = WonMatch(round=2, stage="swiss", winner=ANNA, match_length=7, played=False)
    anna = row(compute_ranking([tournament(1, [ANNA], bye)]), ANNA)
    [entry] = [entry for entry in anna.explanation if entry.kind == "match_unplayed"]
    assert (entry.points, entry.match_id, entry.round) == (0, None, 2)


def test_tournaments_of_another_class_are_ignored() -> None:
    # rule R-CLASS-1: only the class "Champions" is ranked
    records = [
        tournament(1, [ANNA, BERT], match(ANNA)),
        tournament(2, [BERT, CARL], match(BERT), winner=BERT, class_name="Einsteiger"),
    ]
    ranking = compute_ranking(records)
    assert [(line.player_id, line.points, line.tournaments_played) for line in ranking] == [
        (ANNA, 14, 1),
        (BERT, 7, 1),
    ]
    assert row(ranking, BERT).tournament_wins == 0


def test_leaving_early_revokes_the_attendance_points_but_not_the_matches_won() -> None:
    # rule R-ATT-2
    record = tournament(1, [ANNA, BERT], match(BERT), left_early=[BERT])
    bert = row(compute_ranking([record]), BERT)
    assert (bert.points, bert.attendance_points, bert.match_points) == (7, 0, 7)
    assert [(entry.kind, entry.points) for entry in bert.explanation] == [
        ("attendance", 7),
        ("attendance_revoked", -7),
        ("match_won", 7),
    ]


def test_a_revoked_season_lists_the_player_last_with_no_points() -> None:
    # rules R-ATT-2, C-EXCL-1: a repeat offender loses all season points
    record = tournament(1, [ANNA, BERT], match(ANNA), match(ANNA), winner=ANNA)
    ranking = compute_ranking([record], revoked_season=frozenset({ANNA}))
    assert [(line.rank, line.player_id, line.points) for line in ranking] == [
        (1, BERT, 7),
        (2, ANNA, 0),
    ]
    anna = row(ranking, ANNA)
    assert anna.season_revoked
    assert (anna.explanation[-1].kind, anna.explanation[-1].points) == ("season_revoked", -21)


def test_equal_points_are_ordered_by_more_tournament_wins() -> None:
    # rule R-TIE-1: both have 28 points; ANNA won tournament 2, BERT won no tournament
    records = [
        tournament(1, [ANNA, BERT], match(BERT), match(BERT)),
        tournament(2, [ANNA, BERT], match(ANNA), match(ANNA), winner=ANNA),
    ]
    ranking = compute_ranking(records)
    assert [(line.player_id, line.points, line.tournament_wins) for line in ranking] == [
        (ANNA, 28, 1),
        (BERT, 28, 0),
    ]
    assert [line.rank for line in ranking] == [1, 2]


def test_equal_points_and_wins_are_ordered_by_fewer_tournaments_played() -> None:
    # rule R-TIE-1: CARL got his 14 points in one tournament, ANNA needed two
    records = [tournament(1, [ANNA, CARL], match(CARL)), tournament(2, [ANNA])]
    ranking = compute_ranking(records)
    assert [(line.player_id, line.points, line.tournaments_played) for line in ranking] == [
        (CARL, 14, 1),
        (ANNA, 14, 2),
    ]


def test_full_ties_share_a_rank_and_the_next_rank_skips() -> None:
    # rule R-TIE-1: BERT and CARL are equal on points, tournament wins and tournaments played
    record = tournament(1, [ANNA, BERT, CARL, DORA], match(ANNA), match(BERT, 3), match(CARL, 3))
    ranking = compute_ranking([record])
    assert [(line.rank, line.player_id, line.points) for line in ranking] == [
        (1, ANNA, 14),
        (2, BERT, 10),
        (2, CARL, 10),
        (4, DORA, 7),
    ]


def test_the_attendance_points_and_the_ranked_class_can_be_configured() -> None:
    records = [tournament(1, [ANNA], class_name="Open")]
    assert compute_ranking(records, ranked_class="Open", attendance_points=5)[0].points == 5


@pytest.mark.parametrize(
    ("record", "field"),
    [
        (tournament(1, [ANNA], left_early=[BERT]), "left_early"),
        (tournament(1, [ANNA], winner=BERT), "winner"),
        (tournament(1, [ANNA], match(BERT)), "won_matches"),
        (tournament(1, [ANNA], match(ANNA, 0)), "won_matches"),
    ],
)
def test_records_that_cannot_be_are_rejected(record: TournamentRecord, field: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        compute_ranking([record])
    assert raised.value.field == field


PLAYERS = [ANNA, BERT, CARL, DORA, EMIL]


@st.composite
def records(draw: st.DrawFn) -> list[TournamentRecord]:
    result = []
    for number in range(draw(st.integers(0, 5))):
        attended = draw(st.sets(st.sampled_from(PLAYERS), min_size=1))
        present = sorted(attended)
        matches = draw(
            st.lists(
                st.builds(
                    match,
                    st.sampled_from(present),
                    st.sampled_from([1, 3, 5, 7, 11]),
                    played=st.booleans(),
                ),
                max_size=8,
            )
        )
        result.append(
            tournament(
                number + 1,
                attended,
                *matches,
                winner=draw(st.none() | st.sampled_from(present)),
                left_early=draw(st.sets(st.sampled_from(present))),
                class_name=draw(st.sampled_from(["Champions", "Champions", "Einsteiger"])),
            )
        )
    return result


@settings(deadline=None)
@given(season=records(), revoked=st.frozensets(st.sampled_from(PLAYERS)))
def test_every_row_is_explained_by_entries_that_add_up_to_its_points(
    season: list[TournamentRecord], revoked: frozenset[UUID]
) -> None:
    ranking = compute_ranking(season, revoked_season=revoked)
    for position, line in enumerate(ranking, start=1):
        assert sum(entry.points for entry in line.explanation) == line.points
        if line.season_revoked:
            assert line.points == 0
        else:
            assert line.points == line.attendance_points + line.match_points
        # ranks: "1, 2, 2, 4" — equal to the previous row's rank or the row's position
        assert line.rank in {position, ranking[position - 2].rank if position > 1 else 1}
    keys = [
        (r.season_revoked, -r.points, -r.tournament_wins, r.tournaments_played) for r in ranking
    ]
    assert keys == sorted(keys)
