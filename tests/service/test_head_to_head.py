"""A player's record against each opponent through the use case ``RatingService.head_to_head``:
every tournament counts, a corrected result counts once as corrected, byes are no meetings,
rated ad hoc matches count and friendlies do not (issue 22; API.md head-to-head)."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID, uuid4

import pytest

from domain.errors import NotFoundError
from service.bootstrap import Services
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.rounds.rounds import ReportedResult
from service.shared.day_views import Round
from service.shared.match_play import MatchTerms
from tests.service.conftest import CHECK_IN_OPENS, Day, registered_tournament
from tests.service.test_ratings import a_result_of_a_table_played_on_paper, win_one_point_match

Verdict = Callable[[int, int], tuple[int, int, int]]
"""Player indexes (a, b) of a table -> the winner's index and the points of a and of b."""


def lower_wins(a: int, b: int) -> tuple[int, int, int]:
    """The first tournament: the lower index wins 3 to the loser's index minus one (mod 3)."""
    winner, loser = min(a, b), (max(a, b) - 1) % 3
    return winner, *((3, loser) if a == winner else (loser, 3))


def higher_wins(a: int, b: int) -> tuple[int, int, int]:
    """The second tournament: the higher index wins 3 to 1."""
    winner = max(a, b)
    return winner, *((3, 1) if a == winner else (1, 3))


def two_tournaments(services: Services, clock: MovableClock, players: int = 4) -> list[Day]:
    """The same players in two tournaments of three 3-point Swiss rounds, checked in."""
    days = [
        registered_tournament(services, players, name=name, match_length=3, swiss_rounds=3)
        for name in ("Frühlingsturnier", "Sommerturnier")
    ]
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for day in days:
        for receipt in day.registrations:
            services.tournaments.check_in(
                day.tournament_id,
                receipt.registration_id,
                CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00),
            )
    return days


def play_swiss(services: Services, day: Day, verdict: Verdict) -> list[UUID]:
    """Every Swiss round, each table decided by ``verdict``; the result ids in order."""
    index = {day.player(i): i for i in range(len(day.registrations))}
    results = []
    paired: Round = services.rounds.start(day.tournament_id).round
    for number in (1, 2, 3):
        if number > 1:
            paired = services.rounds.pair_round(day.tournament_id)
        for table in paired.pairings:
            if table.player_b is None or table.match_id is None:
                continue
            winner, points_a, points_b = verdict(index[table.player_a], index[table.player_b])
            recorded = services.rounds.record_result(
                day.tournament_id,
                ReportedResult(
                    match_id=table.match_id,
                    winner=day.player(winner),
                    points_a=points_a,
                    points_b=points_b,
                ),
            )
            results.append(recorded.result_id)
    return results


def figures(services: Services, player: UUID) -> dict[UUID, tuple[int, int, int, int, int]]:
    """Opponent -> matches, wins, losses, points for, points against."""
    return {
        row.opponent_id: (row.matches, row.wins, row.losses, row.points_for, row.points_against)
        for row in services.ratings.head_to_head(player).opponents
    }


def test_two_tournaments_give_each_opponent_exact_figures(
    services: Services, clock: MovableClock
) -> None:
    first, second = two_tournaments(services, clock)
    assert [first.player(i) for i in range(4)] == [second.player(i) for i in range(4)]
    play_swiss(services, first, lower_wins)
    play_swiss(services, second, higher_wins)
    p1, p2, p3, p4 = (first.player(i) for i in range(4))
    # four players, three Swiss rounds without rematch: everyone met everyone once in each
    assert figures(services, p1) == {
        p2: (2, 1, 1, 3 + 1, 0 + 3),
        p3: (2, 1, 1, 3 + 1, 1 + 3),
        p4: (2, 1, 1, 3 + 1, 2 + 3),
    }
    assert figures(services, p4) == {
        p1: (2, 1, 1, 2 + 3, 3 + 1),
        p2: (2, 1, 1, 2 + 3, 3 + 1),
        p3: (2, 1, 1, 2 + 3, 3 + 1),
    }
    rows = services.ratings.head_to_head(p1).opponents
    assert {row.opponent for row in rows} == {"Spieler2 M.", "Spieler3 M.", "Spieler4 M."}
    assert {row.last_played for row in rows} == {clock.now().date().isoformat()}


def test_a_corrected_result_counts_once_with_its_corrected_figures(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-6: the correction replaces the result it names
    first, second = two_tournaments(services, clock)
    play_swiss(services, first, lower_wins)
    play_swiss(services, second, higher_wins)
    p1, p2 = first.player(0), first.player(1)
    (table,) = [
        t
        for number in (1, 2, 3)
        for t in services.rounds.get_round(first.tournament_id, number).pairings
        if {t.player_a, t.player_b} == {p1, p2}
    ]
    assert table.match_id is not None
    a_is_p2 = table.player_a == p2
    services.rounds.record_result(
        first.tournament_id,
        ReportedResult(
            match_id=table.match_id,
            winner=p2,
            points_a=3 if a_is_p2 else 2,
            points_b=2 if a_is_p2 else 3,
            corrects=table.result_id,
        ),
    )
    assert figures(services, p1)[p2] == (2, 0, 2, 2 + 1, 3 + 3)
    assert figures(services, p2)[p1] == (2, 2, 0, 3 + 3, 2 + 1)
    before = services.ratings.head_to_head(p1)
    services.views.rebuild()
    assert services.ratings.head_to_head(p1) == before


def test_a_bye_is_no_meeting(services: Services, clock: MovableClock) -> None:
    # rule R-BYE-1: five players, one bye a round; nobody's record shows it
    first, _ = two_tournaments(services, clock, players=5)
    play_swiss(services, first, lower_wins)
    everyone = [first.player(i) for i in range(5)]
    met = sum(row.matches for p in everyone for row in services.ratings.head_to_head(p).opponents)
    assert met == 2 * 3 * 2  # two tables a round, three rounds, seen from both sides
    for player in everyone:
        assert player not in figures(services, player)


def test_a_rated_ad_hoc_match_counts_and_a_friendly_does_not(
    services: Services, clock: MovableClock
) -> None:
    # rule R-RATE-5: rated ad hoc matches are meetings; "rated": false ones are not
    first, _ = two_tournaments(services, clock)
    p1, p2 = first.player(0), first.player(1)
    rated = services.matches.create(MatchTerms(player_a=str(p1), player_b=str(p2), match_length=1))
    win_one_point_match(services, rated.match.id)
    friendly = services.matches.create(
        MatchTerms(player_a=str(p2), player_b=str(p1), match_length=1, rated=False)
    )
    win_one_point_match(services, friendly.match.id)
    assert figures(services, p1) == {p2: (1, 1, 0, 1, 0)}
    assert figures(services, p2) == {p1: (1, 0, 1, 0, 1)}


def test_a_registered_player_without_a_match_has_an_empty_record(
    services: Services, clock: MovableClock
) -> None:
    first, _ = two_tournaments(services, clock)
    record = services.ratings.head_to_head(first.player(0))
    assert (record.display_name, record.opponents) == ("Spieler1 M.", [])


def test_an_unknown_player_is_not_found(services: Services) -> None:
    with pytest.raises(NotFoundError, match="no player has the id"):
        services.ratings.head_to_head(uuid4())


def test_a_tournament_result_is_a_meeting_of_the_players_its_round_paired(
    services: Services, clock: MovableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # API.md head-to-head (decided tournament matches, reported ones too), rule R-RATE-1: the
    # meeting is between the two players the round's pairing seated at the table, read from
    # the pairing, not from a match the service may not hold
    _, table = a_result_of_a_table_played_on_paper(services, clock, monkeypatch)
    assert table.player_b is not None
    assert figures(services, table.player_a) == {table.player_b: (1, 1, 0, 3, 1)}
    assert figures(services, table.player_b) == {table.player_a: (1, 0, 1, 1, 3)}
