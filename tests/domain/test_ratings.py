"""The FIBS rating formula against published figures and a hand-computed pair of matches, and
the import's checks of every row (rules R-RATE-2, R-RATE-3, R-RATE-6..8)."""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime
from uuid import UUID, uuid4

import pytest

from domain.errors import InvalidInputError
from domain.ratings import club
from domain.ratings.club import (
    ImportRow,
    PlayerDirectory,
    RatingPlayerAdded,
    ResultsImported,
)
from domain.ratings.formula import Standing, after, boost, rate, upset_probability

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
TODAY = date(2026, 12, 2)

# The FIBS "batting average for favorite to maintain his rating" table (rec.games.backgammon,
# bkgm.com/rgb/rgb.cgi?view+45), printed to three decimals: the underdog's chance is one minus
# the favourite's. (rating difference, match length) -> the favourite's average.
FIBS_BATTING_AVERAGE = {
    (100, 1): 0.529,
    (200, 3): 0.598,
    (300, 5): 0.684,
    (400, 7): 0.772,
    (500, 9): 0.849,
    (600, 9): 0.888,
    (700, 11): 0.935,
    (700, 1): 0.691,
}


@pytest.mark.parametrize(("cell", "favourite"), FIBS_BATTING_AVERAGE.items())
def test_the_upset_probability_matches_the_published_fibs_table(
    cell: tuple[int, int], favourite: float
) -> None:
    # rule R-RATE-2: P(underdog wins) = 1 / (10^(D·√N/2000) + 1)
    difference, length = cell
    assert upset_probability(difference, length) == pytest.approx(1 - favourite, abs=0.0005)


def test_equal_ratings_give_even_chances_at_every_length() -> None:
    assert {upset_probability(0, n) for n in range(1, 12)} == {0.5}


def test_the_boost_falls_from_five_to_one_at_four_hundred_experience() -> None:
    # rule R-RATE-3: K = max(1, 5 - E/100)
    assert [boost(e, newcomer_boost=True) for e in (0, 150, 400, 1000)] == [5, 3.5, 1, 1]
    assert boost(0, newcomer_boost=False) == 1


def _two_matches(newcomer_boost: bool) -> list[float]:
    """Anna beats Bert 5 points, then Bert beats Anna 3 points, both new at 1800."""
    anna = bert = Standing(rating=1800.0, experience=0)
    first = rate(anna, bert, 5, newcomer_boost=newcomer_boost)
    anna, bert = after(anna, first.winner_change, 5), after(bert, first.loser_change, 5)
    ratings = [anna.rating, bert.rating]
    second = rate(bert, anna, 3, newcomer_boost=newcomer_boost)
    bert, anna = after(bert, second.winner_change, 3), after(anna, second.loser_change, 3)
    return [*ratings, anna.rating, bert.rating]


def test_a_pair_of_matches_without_the_boost_equals_the_hand_computation() -> None:
    # by hand: 1st P = 0.5, change 4·√5·0.5 = 4.4721; 2nd D = -8.9443, P = 0.50446,
    # change 4·√3·0.50446 = 3.4950
    assert _two_matches(False) == pytest.approx([1804.472, 1795.528, 1800.977, 1799.023], abs=1e-3)


def test_a_pair_of_matches_with_the_boost_equals_the_hand_computation() -> None:
    # by hand: 1st K = 5, change 5·4.4721 = 22.3607; 2nd E = 5, K = 4.95, D = -44.7214,
    # P = 0.52228, change 4.95·4·√3·0.52228 = 17.9114
    assert _two_matches(True) == pytest.approx([1822.361, 1777.639, 1804.449, 1795.551], abs=1e-3)


def test_a_match_between_newcomers_is_not_zero_sum_with_the_boost() -> None:
    # rule R-RATE-3: each side's change has its own K
    rated = rate(
        Standing(rating=1800, experience=0),
        Standing(rating=1800, experience=600),
        1,
        newcomer_boost=True,
    )
    assert (rated.k_winner, rated.k_loser) == (5, 1)
    assert rated.winner_change == pytest.approx(-5 * rated.loser_change)


# The import (rules R-RATE-6..8) -----------------------------------------------------------


def _import(rows: list[ImportRow], names: dict[UUID, str] | None = None) -> list[object]:
    counter = itertools.count(1)
    return list(
        club.import_results(
            None,
            rows,
            PlayerDirectory(names=names or {}),
            import_id=uuid4(),
            today=TODAY,
            now=NOW,
            new_id=lambda: UUID(int=next(counter)),
            actor="director",
        )
    )


def row(
    date: str = "2025-03-01", winner: str = "Anna", loser: str = "Bert", length: int | str = 5
) -> ImportRow:
    return ImportRow(date=date, winner=winner, loser=loser, length=length)


def test_an_import_adds_one_rating_only_player_per_new_name_and_finds_known_ones() -> None:
    known = uuid4()
    events = _import(
        [row(), row(winner="Carla", loser=" Anna "), row(winner="Dora")], {known: "Dora"}
    )
    added = [e for e in events if isinstance(e, RatingPlayerAdded)]
    imported = events[-1]
    assert isinstance(imported, ResultsImported)
    assert sorted(e.display_name for e in added) == ["Anna", "Bert", "Carla"]
    anna = next(e.player_id for e in added if e.display_name == "Anna")
    assert imported.matches[1].loser_id == anna  # outer spaces trimmed (rule R-RATE-7)
    assert imported.matches[2].winner_id == known
    assert (imported.new_players, imported.matched_players) == (3, 1)


def test_a_bad_import_names_every_bad_row_and_decides_nothing() -> None:
    shared = {uuid4(): "Eva", uuid4(): "Eva"}
    bad = [
        row(),
        row(winner="Anna", loser="Anna"),  # rule R-RATE-6
        row(length=0),
        row(date="2025-02-30"),  # rule CAL-2
        row(winner="Eva"),  # rule R-RATE-7: a name two players share
        row(date="2027-01-01"),  # after today
        row(length="seven"),
        row(winner=""),
    ]
    with pytest.raises(InvalidInputError) as refused:
        _import(bad, shared)
    errors = refused.value.extensions["errors"]
    assert isinstance(errors, list)
    fields = [e["field"] for e in errors]
    assert fields == [
        "matches[1]",
        "matches[2].length",
        "matches[3].date",
        "matches[4].winner",
        "matches[5].date",
        "matches[6].length",
        "matches[7].winner",
    ]


def test_an_import_refuses_a_row_whose_sides_are_one_player_by_id_and_name() -> None:
    anna = uuid4()
    with pytest.raises(InvalidInputError, match="same player"):
        _import([row(winner=str(anna), loser="Anna")], {anna: "Anna"})


def test_a_start_rating_outside_the_range_is_refused() -> None:
    with pytest.raises(InvalidInputError, match="start_rating"):
        club.change_settings(None, start_rating=0, newcomer_boost=False, now=NOW, actor=None)
