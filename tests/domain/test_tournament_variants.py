"""A tournament in a variant: the variant of each stage, checked at creation and copied into
the start (rule V-MATCH-VARIANT-1; API.md "Matches and tournaments: variants")."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.errors import InvalidInputError
from domain.tournament import ResultRecorded, TournamentPlan, TournamentStarted, start
from domain.tournament.defaults import ResultSource
from domain.tournament.rounds import record_result
from domain.tournament.variants import VariantTerms
from tests.domain.test_tournament import (
    CLUB_OF_FOUR,
    START,
    checked_in,
    given,
    scheduled,
    with_players,
)
from tests.domain.test_tournament_rounds import DIRECTOR, RESULT_IDS, paired, started


def plan(**changes: Any) -> TournamentPlan:
    return msgspec.structs.replace(CLUB_OF_FOUR, **changes)


def test_todays_plan_plays_backgammon_in_every_stage() -> None:
    # rule V-MATCH-VARIANT-1: backgammon by default, the cube by the variant's default
    state = given(scheduled(plan()))
    assert state.variants == VariantTerms()
    assert {state.variants.of_stage(s) for s in ("swiss", "semi_final", "final")} == {"backgammon"}


def test_a_plakoto_swiss_with_a_backgammon_final_names_each_stages_variant() -> None:
    # rule V-MATCH-VARIANT-1: a stage not named plays the tournament's variant
    state = given(scheduled(plan(variant="plakoto", stage_variants={"final": "backgammon"})))
    variants = state.variants
    assert [variants.of_stage(s) for s in ("swiss", "semi_final", "final", "third_place")] == [
        "plakoto",
        "plakoto",
        "backgammon",
        "plakoto",
    ]
    # rule V-CUBE-1: unset, each match gets its variant's default
    assert variants.match_options("final") == ("backgammon", None, None)


def test_the_tavli_format_goes_only_to_the_stages_that_play_tavli() -> None:
    # rule V-TAVLI-MATCH-1
    state = given(
        scheduled(
            plan(
                variant="tavli",
                tavli_format="best_of_three",
                stage_variants={"final": "portes"},
            )
        )
    )
    assert state.variants.match_options("swiss") == ("tavli", None, "best_of_three")
    assert state.variants.match_options("final") == ("portes", None, None)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"variant": "chess"}, "variant"),
        ({"variant": "tavli", "stage_variants": {"final": "tavli-ish"}}, "stage_variants.final"),
        ({"stage_variants": {"quarter_final": "plakoto"}}, "stage_variants.quarter_final"),
        # stages the format never plays
        ({"stage_variants": {"round_robin": "plakoto"}}, "stage_variants.round_robin"),
        ({"stage_variants": {"consolation": "plakoto"}}, "stage_variants.consolation"),
        ({"stage_variants": {"main": "plakoto"}}, "stage_variants.main"),
        (
            {"knockout_players": 0, "stage_variants": {"final": "plakoto"}},
            "stage_variants.final",
        ),
        (
            {"format": "round_robin", "swiss_rounds": None, "stage_variants": {"swiss": "fevga"}},
            "stage_variants.swiss",
        ),
        (
            {
                "format": "elimination",
                "swiss_rounds": None,
                "consolation": "none",
                "stage_variants": {"consolation": "fevga"},
            },
            "stage_variants.consolation",
        ),
        # rule G-CUBE-1: backgammon is played with the cube
        ({"cube": False}, "cube"),
        ({"variant": "plakoto", "cube": False, "stage_variants": {"final": "backgammon"}}, "cube"),
        # rule V-TAVLI-MATCH-1: the Tavli format needs a stage that plays tavli
        ({"variant": "plakoto", "tavli_format": "points"}, "tavli_format"),
        ({"variant": "tavli", "tavli_format": "best_of_five"}, "tavli_format"),
    ],
)
def test_variant_settings_that_cannot_work_are_refused_with_the_field_named(
    changes: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        scheduled(plan(**changes))
    assert refused.value.field == field


def test_an_elimination_names_its_bracket_stages() -> None:
    # rule V-MATCH-VARIANT-1: "any stage a format adds"
    state = given(
        scheduled(
            plan(
                format="elimination",
                variant="portes",
                stage_variants={"main": "tavla", "consolation": "fevga", "final": "backgammon"},
            )
        )
    )
    assert state.variants.of_stage("main") == "tavla"
    assert state.variants.of_stage("consolation") == "fevga"
    assert state.variants.of_stage("semi_final") == "portes"


def test_the_start_copies_the_variants_into_the_rules_snapshot() -> None:
    # the start event holds the rules as they stand: a later change of a setting changes nothing
    terms = plan(variant="fevga", cube=True, stage_variants={"final": "backgammon"})
    state = checked_in(with_players(4, terms), 1, 2, 3, 4)
    started = start(state, lot_seed=0, now=START, actor="director")[-1]
    assert isinstance(started, TournamentStarted)
    assert (started.variant, started.cube, started.tavli_format) == ("fevga", True, None)
    assert started.stage_variants == {"final": "backgammon"}


def test_a_best_of_three_tavli_match_records_its_game_points_and_its_winner_by_games() -> None:
    # rule V-TAVLI-MATCH-1: won by two games (1 + 1) against one gammon (2); the standings count
    # game points (V-MATCH-VARIANT-1), so the winner holds no more points than the loser
    state = paired(started(2, variant="tavli", tavli_format="best_of_three", match_length=7))
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    [recorded, *_] = record_result(
        state,
        result_id=next(RESULT_IDS),
        match_id=table.match_id,
        winner=table.player_a,
        points_a=2,
        points_b=2,
        source="match",
        now=START,
        actor=DIRECTOR,
    )
    assert isinstance(recorded, ResultRecorded)
    assert (recorded.winner, recorded.points_a, recorded.points_b) == (table.player_a, 2, 2)


@pytest.mark.parametrize(
    ("source", "tavli_format"),
    [("director", "best_of_three"), ("players", "best_of_three"), ("match", "points")],
)
def test_other_results_still_give_the_winner_the_match_length(
    source: ResultSource, tavli_format: str
) -> None:
    # rule T-FMT-7: a result a director posts, or a Tavli match played to its points, is checked
    # against the match length as before
    state = paired(started(2, variant="tavli", tavli_format=tavli_format, match_length=7))
    table = state.rounds[0].tables[0]
    assert table.match_id is not None
    with pytest.raises(InvalidInputError) as refused:
        record_result(
            state,
            result_id=next(RESULT_IDS),
            match_id=table.match_id,
            winner=table.player_a,
            points_a=2,
            points_b=2,
            source=source,
            now=START,
            actor=DIRECTOR,
        )
    assert refused.value.field == "points_a"
