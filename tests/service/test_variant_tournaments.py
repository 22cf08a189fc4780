"""A tournament in a variant through the service: each pairing opens its match in its stage's
variant, with the tournament's cube and Tavli format (rule V-MATCH-VARIANT-1)."""

from __future__ import annotations

from uuid import UUID

from domain.match import Side
from service.bootstrap import Services
from service.clock import MovableClock
from service.shared.match_play import Caller
from tests.service.conftest import checked_in_tournament, report_every_table
from tests.service.test_seasons import SPRING

DIRECTOR = Caller(director=True)


def test_each_pairing_opens_its_match_in_its_stages_variant(
    services: Services, clock: MovableClock
) -> None:
    # a Tavli Swiss with a backgammon final and Portes for 3rd place
    day = checked_in_tournament(
        services,
        clock,
        4,
        variant="tavli",
        tavli_format="best_of_three",
        stage_variants={"final": "backgammon", "third_place": "portes"},
    )
    rounds = [services.rounds.start(day.tournament_id).round]
    for _ in range(3):  # round 2, the semi-finals, the final with the 3rd-place match
        report_every_table(services, day, rounds[-1])
        rounds.append(services.rounds.pair_round(day.tournament_id))

    opened = {
        table.stage: services.matches.get(table.match_id)
        for paired in rounds
        for table in paired.pairings
        if table.match_id is not None
    }
    assert set(opened) == {"swiss", "semi_final", "final", "third_place"}
    shown = {stage: (m.variant, m.cube_enabled, m.tavli_format) for stage, m in opened.items()}
    assert shown == {
        "swiss": ("tavli", False, "best_of_three"),
        "semi_final": ("tavli", False, "best_of_three"),
        "final": ("backgammon", True, "points"),
        "third_place": ("portes", False, "points"),
    }


def won_two_games_with_no_more_game_points(services: Services, match_id: UUID) -> None:
    """Side a wins a best-of-three Tavli match 2 to 2 in game points: b resigns the Portes game
    as a single, a resigns the Plakoto game as a gammon, b resigns the Fevga game as a single."""
    services.matches.roll(match_id, DIRECTOR, (6, 5))  # the opening roll: a is on roll
    games: tuple[tuple[Side, str], ...] = (("b", "single"), ("a", "gammon"), ("b", "single"))
    for loser, level in games:
        winner: Side = "a" if loser == "b" else "b"
        services.matches.resign(match_id, DIRECTOR.acting_for(loser), level)
        services.matches.answer_resignation(match_id, DIRECTOR.acting_for(winner), accept=True)


def test_a_best_of_three_tavli_match_counts_game_points_and_ranks_at_its_length(
    services: Services, clock: MovableClock
) -> None:
    # rules V-TAVLI-MATCH-1, V-MATCH-VARIANT-1: the winner won two games, the standings count
    # game points (T-FMT-3), the season ranking scores the won match at its length (R-MATCH-1)
    # and the rating list rates it as a match of that length
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    day = checked_in_tournament(
        services,
        clock,
        2,
        variant="tavli",
        tavli_format="best_of_three",
        match_length=7,
        swiss_rounds=1,
        knockout_players=0,
    )
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    assert table.match_id is not None
    assert table.player_b is not None
    won_two_games_with_no_more_game_points(services, table.match_id)

    played = services.matches.get(table.match_id)
    assert (played.winner, played.score_a, played.score_b) == ("a", 2, 2)
    rows = {row.player_id: row for row in services.rounds.list_standings(day.tournament_id)}
    assert (rows[table.player_a].wins, rows[table.player_a].points) == (1, 2)
    assert (rows[table.player_b].wins, rows[table.player_b].points) == (0, 2)
    assert rows[table.player_a].rank == 1
    services.views.catch_up()
    ranking = {row.player_id: row for row in services.seasons.get_ranking(season.id)}
    assert ranking[table.player_a].match_points == 7
    assert ranking[table.player_b].match_points == 0
    # rule R-RATE-1: rated once, at the match's end, as a match of its length
    [rated] = services.ratings.player_ratings(table.player_a).matches
    assert (rated.source, rated.length, rated.won) == ("match", 7, True)
