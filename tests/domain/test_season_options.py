"""A season's ranking options (rule R-OPT-1) beside R-TIE-1: best N results, tiebreaks."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from uuid import UUID

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInputError
from domain.seasons import season as seasons
from domain.seasons.options import DEFAULT_OPTIONS, SeasonOptions, season_options
from domain.seasons.ranking import RankingRow, TournamentRecord, WonMatch, compute_ranking
from domain.seasons.season import SeasonCreated

ANNA, BERT, CARL, DORA = (UUID(int=number) for number in range(1, 5))
NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


def won(winner: UUID, length: int, number: int) -> WonMatch:
    return WonMatch(
        match_id=UUID(int=1_000 + number),
        round=1,
        stage="swiss",
        winner=winner,
        match_length=length,
    )


def tournament(
    number: int,
    attended: Iterable[UUID],
    *matches: WonMatch,
    places: tuple[UUID, ...] = (),
    winner: UUID | None = None,
) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=UUID(int=100 + number),
        name=f"Turnier {number}",
        class_name="Champions",
        attended=frozenset(attended),
        winner=winner,
        won_matches=matches,
        places=places,
    )


def row(ranking: list[RankingRow], player: UUID) -> RankingRow:
    return next(line for line in ranking if line.player_id == player)


def ranks(ranking: list[RankingRow]) -> list[tuple[int, UUID]]:
    return [(line.rank, line.player_id) for line in ranking]


# drop_worst ----------------------------------------------------------------------------------

# Anna's four results: 7 + 7 = 14, 7 (attendance only), 7 + 21 = 28, 7 + 14 = 21.
ANNAS_SEASON = [
    tournament(1, [ANNA, BERT], won(ANNA, 7, 1)),
    tournament(2, [ANNA, BERT], won(BERT, 7, 2)),
    tournament(3, [ANNA, BERT], won(ANNA, 21, 3)),
    tournament(4, [ANNA, BERT], won(ANNA, 14, 4)),
]


def test_drop_worst_counts_exactly_the_best_n_results_and_explains_each_dropped_one() -> None:
    # rule R-OPT-1: with drop_worst 2 Anna's best two results (28 and 21) count, 14 and 7 do not
    anna = row(compute_ranking(ANNAS_SEASON, options=SeasonOptions(drop_worst=2)), ANNA)
    assert anna.points == 28 + 21
    assert (anna.attendance_points, anna.match_points) == (14, 35)
    dropped = [
        (entry.tournament_name, entry.points, entry.rule)
        for entry in anna.explanation
        if entry.kind == "result_dropped"
    ]
    assert dropped == [("Turnier 1", -14, "R-OPT-1"), ("Turnier 2", -7, "R-OPT-1")]
    assert sum(entry.points for entry in anna.explanation) == anna.points
    # the attendance count is every tournament attended, dropped or not
    assert anna.tournaments_played == 4


def test_without_drop_worst_every_result_counts() -> None:
    # rule R-OPT-1: the default (null) counts all results, as R-TIE-1 always did
    anna = row(compute_ranking(ANNAS_SEASON), ANNA)
    assert anna.points == 14 + 7 + 28 + 21
    assert "result_dropped" not in {entry.kind for entry in anna.explanation}


def test_drop_worst_can_change_the_order_of_the_ranking() -> None:
    # rule R-OPT-1: Carl came often and scored little; Dora came twice and scored well
    records = [
        tournament(1, [CARL, DORA], won(DORA, 14, 1)),
        tournament(2, [CARL, DORA], won(DORA, 7, 2)),
        tournament(3, [CARL], won(CARL, 7, 3)),
        tournament(4, [CARL], won(CARL, 7, 4)),
    ]
    assert [line.player_id for line in compute_ranking(records)] == [CARL, DORA]  # 56 : 35
    best_two = compute_ranking(records, options=SeasonOptions(drop_worst=2))
    assert [(line.player_id, line.points) for line in best_two] == [(DORA, 35), (CARL, 28)]


def test_of_equal_results_the_earlier_one_counts() -> None:
    # rule R-OPT-1: equal results are worth the same; the explanation drops the later one
    records = [tournament(1, [ANNA]), tournament(2, [ANNA])]
    anna = row(compute_ranking(records, options=SeasonOptions(drop_worst=1)), ANNA)
    assert anna.points == 7
    assert [(e.kind, e.tournament_name) for e in anna.explanation][-1] == (
        "result_dropped",
        "Turnier 2",
    )


def test_a_revoked_season_takes_back_only_the_counted_points() -> None:
    # rules R-OPT-1, R-ATT-2: the explanation still adds up to 0
    ranking = compute_ranking(
        ANNAS_SEASON, revoked_season=frozenset({ANNA}), options=SeasonOptions(drop_worst=1)
    )
    anna = row(ranking, ANNA)
    assert anna.points == 0
    assert anna.explanation[-1].points == -28
    assert sum(entry.points for entry in anna.explanation) == 0


# the tiebreaks after points and tournament wins ----------------------------------------------

# Anna and Bert both end with 28 points and no tournament win: Anna in two tournaments, Bert
# in three.
TIED_ON_POINTS = [
    tournament(1, [ANNA, BERT, CARL], won(ANNA, 7, 1), winner=CARL),
    tournament(2, [ANNA, BERT, CARL], won(ANNA, 7, 2), winner=CARL),
    tournament(3, [BERT], won(BERT, 7, 3)),
]


def test_by_default_fewer_tournaments_played_ranks_higher() -> None:
    # rule R-TIE-1 (events_tiebreak "fewer", the default)
    ranking = compute_ranking(TIED_ON_POINTS)
    assert (row(ranking, ANNA).points, row(ranking, BERT).points) == (28, 28)
    assert row(ranking, ANNA).rank < row(ranking, BERT).rank


def test_events_tiebreak_more_ranks_the_more_frequent_player_higher() -> None:
    # rule R-OPT-1: clubs that rank ties by attendance
    ranking = compute_ranking(TIED_ON_POINTS, options=SeasonOptions(events_tiebreak="more"))
    assert row(ranking, BERT).rank < row(ranking, ANNA).rank


def test_best_place_tiebreak_ranks_the_better_single_placing_higher() -> None:
    # rule R-OPT-1: Anna and Bert are equal in points (21), tournament wins (0) and events (2);
    # Anna's best place is 2, Bert's 3 (Carl won both and scored no match)
    records = [
        tournament(1, [ANNA, BERT, CARL], won(BERT, 7, 1), places=(CARL, ANNA, BERT), winner=CARL),
        tournament(2, [ANNA, BERT, CARL], won(ANNA, 7, 2), places=(CARL, ANNA, BERT), winner=CARL),
    ]
    assert ranks(compute_ranking(records)) == [(1, ANNA), (1, BERT), (3, CARL)]
    by_place = compute_ranking(records, options=SeasonOptions(best_place_tiebreak=True))
    assert ranks(by_place) == [(1, ANNA), (2, BERT), (3, CARL)]
    assert (row(by_place, ANNA).best_place, row(by_place, BERT).best_place) == (2, 3)


def test_a_player_without_any_place_ranks_after_one_with_a_place() -> None:
    # rule R-OPT-1: places count once a tournament is completed
    records = [tournament(1, [ANNA, BERT], places=()), tournament(2, [BERT], places=())]
    records.append(tournament(3, [ANNA], places=(ANNA,)))
    by_place = compute_ranking(records, options=SeasonOptions(best_place_tiebreak=True))
    assert ranks(by_place) == [(1, ANNA), (2, BERT)]
    assert row(by_place, BERT).best_place is None


def test_players_equal_on_every_tiebreak_share_their_rank() -> None:
    # rule R-OPT-1: "then shared": Anna and Bert are equal on every key (best place 2)
    records = [
        tournament(1, [ANNA, BERT, CARL], places=(CARL, ANNA, BERT)),
        tournament(2, [ANNA, BERT, CARL], places=(CARL, BERT, ANNA)),
    ]
    options = SeasonOptions(events_tiebreak="more", best_place_tiebreak=True, drop_worst=1)
    assert ranks(compute_ranking(records, options=options)) == [(1, CARL), (2, ANNA), (2, BERT)]


def test_tournament_wins_still_come_before_every_option() -> None:
    # rules R-TIE-1, R-OPT-1: 14 points each; Bert won a tournament, Anna came more often
    records = [
        tournament(1, [ANNA, BERT], won(BERT, 7, 1), places=(BERT, ANNA), winner=BERT),
        tournament(2, [ANNA]),
    ]
    options = SeasonOptions(events_tiebreak="more", best_place_tiebreak=True)
    ranking = compute_ranking(records, options=options)
    assert (row(ranking, ANNA).points, row(ranking, BERT).points) == (14, 14)
    assert ranks(ranking) == [(1, BERT), (2, ANNA)]


# the defaults ----------------------------------------------------------------------------------

players = st.sampled_from([ANNA, BERT, CARL, DORA])


@st.composite
def seasons_of_records(draw: st.DrawFn) -> list[TournamentRecord]:
    records = []
    for number in range(draw(st.integers(0, 5))):
        attended = draw(st.lists(players, min_size=1, max_size=4, unique=True))
        winners = draw(st.lists(st.sampled_from(attended), max_size=4))
        matches = [won(winner, 7, number * 10 + index) for index, winner in enumerate(winners)]
        places = draw(st.permutations(attended)) if draw(st.booleans()) else []
        records.append(
            tournament(
                number,
                attended,
                *matches,
                places=tuple(places),
                winner=places[0] if places else None,
            )
        )
    return records


@settings(max_examples=200, deadline=None)
@given(seasons_of_records())
def test_the_default_options_rank_as_r_tie_1_always_did(records: list[TournamentRecord]) -> None:
    # rule R-OPT-1: "defaults keep today's ranking unchanged": places play no part, all counts
    ranking = compute_ranking(records, options=DEFAULT_OPTIONS)
    placeless = [msgspec.structs.replace(record, places=()) for record in records]
    assert [msgspec.structs.replace(line, best_place=None) for line in ranking] == (
        compute_ranking(placeless)
    )
    assert compute_ranking(records) == ranking
    counted_all = SeasonOptions(drop_worst=len(records) or 1)
    assert [
        (line.rank, line.player_id, line.points)
        for line in compute_ranking(records, options=counted_all)
    ] == [(line.rank, line.player_id, line.points) for line in ranking]


# the options themselves ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"drop_worst": 0}, "drop_worst", "1 or more"),
        ({"drop_worst": -2}, "drop_worst", "1 or more"),
        ({"events_tiebreak": "most"}, "events_tiebreak", "'fewer'"),
    ],
)
def test_an_invalid_option_is_refused_with_words(
    fields: dict[str, object], field: str, words: str
) -> None:
    # rule R-OPT-1
    with pytest.raises(InvalidInputError) as refused:
        season_options(**fields)  # type: ignore[arg-type]
    assert refused.value.field == field
    assert words in refused.value.message


def test_the_options_are_copied_into_the_season_created_event() -> None:
    # rule R-OPT-1: the season's rules snapshot, fixed at its creation
    options = season_options(drop_worst=5, events_tiebreak="more", best_place_tiebreak=True)
    events = seasons.create_season(
        UUID(int=77),
        name="Saison 2026",
        starts_on="2026-01-01",
        ends_on="2026-12-31",
        options=options,
        now=NOW,
        actor="director",
    )
    created = events[0]
    assert isinstance(created, SeasonCreated)
    assert created.options == options
    assert seasons.evolve(None, created).options == options


def test_a_season_created_before_the_options_existed_ranks_by_the_defaults() -> None:
    # rule R-OPT-1: never retroactive: an older event without options keeps R-TIE-1
    old = msgspec.json.encode(
        {
            "originator_id": str(UUID(int=78)),
            "originator_version": 1,
            "timestamp": NOW.isoformat(),
            "name": "Saison 2025",
            "starts_on": "2025-01-01",
            "ends_on": "2025-12-31",
        }
    )
    created = msgspec.json.decode(old, type=SeasonCreated)
    assert created.options == DEFAULT_OPTIONS
