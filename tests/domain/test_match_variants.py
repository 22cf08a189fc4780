"""A match in a variant (rules V-*): old events read as backgammon, and the variant's game
values end games as Plakoto scores them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec

from domain.events import DomainEvent
from domain.match import (
    GameDrawn,
    GameStarted,
    GameWon,
    Match,
    MatchStarted,
    VariantCheckersPlayed,
    accept_resignation,
    evolve,
    offer_resignation,
    play,
    roll,
    start_match,
)
from domain.variants import Variant

T0 = datetime(2026, 4, 18, 13, 0, tzinfo=UTC)
MATCH = UUID(int=11)


def side(**points: int) -> tuple[int, ...]:
    """A side's 25 counts in its own numbering: ``p3=1`` puts one on its 3-point."""
    counts = [0] * 25
    for name, count in points.items():
        counts[int(name[1:])] = count
    return tuple(counts)


def fold(events: list[DomainEvent], state: Match | None = None) -> Match:
    for event in events:
        state = evolve(state, event)
    assert state is not None
    return state


def plakoto_match_with_a_on_roll(
    variant: str = "plakoto", rules: str = "tournament", **board: Any
) -> Match:
    """A Plakoto match to 3 where side b has just left ``board`` (side a on roll); in a Tavli
    match, the Portes game is resigned first (b resigns, a accepts)."""
    state = fold(
        start_match(
            MATCH,
            T0,
            player_a="anna",
            player_b="ben",
            match_length=3,
            dice_mode="entered",
            clock="none",
            token_hash_a="x",
            token_hash_b="y",
            variant=variant,
            rules=rules,
        )
    )
    state = fold(roll(state, None, (5, 2), T0), state)  # V-OPEN-1: a starts, rolls again
    if variant == "tavli":
        state = fold(offer_resignation(state, "b", "single", T0), state)
        state = fold(accept_resignation(state, "a", T0), state)
    placed = VariantCheckersPlayed(
        originator_id=MATCH,
        originator_version=state.version + 1,
        timestamp=T0,
        side="b",
        dice=(1, 1),
        play="",
        moves=(),
        **board,
    )
    return fold([placed], state)


def test_a_match_started_before_variants_existed_reads_as_backgammon_with_the_cube() -> None:
    events = start_match(
        MATCH,
        T0,
        player_a="anna",
        player_b="ben",
        match_length=5,
        dice_mode="entered",
        clock="none",
        token_hash_a="x",
        token_hash_b="y",
    )
    stored = msgspec.to_builtins(events[0])
    for name in ("variant", "cube", "tavli_format"):
        del stored[name]

    old = msgspec.convert(stored, MatchStarted)
    state = evolve(None, old)

    assert (state.variant, state.cube_enabled, state.variant_board) == ("backgammon", True, None)


def test_pinning_the_last_mother_with_the_own_24_point_empty_wins_two_points() -> None:
    # rule V-PLAKOTO-7: b's mother on b's 24 (a's 1), a pins it with 3/1
    state = plakoto_match_with_a_on_roll(on_roll=side(p2=14, p3=1), opponent=side(p1=14, p24=1))
    state = fold(roll(state, "a", (2, 1), T0), state)

    events = play(state, "a", T0, notation="3/1 2/1")

    won = next(e for e in events if isinstance(e, GameWon))
    assert (won.winner, won.result, won.reason, won.points) == ("a", "mother", "mother", 2)
    after = fold(events, state)
    assert (after.score_a, after.game, after.phase) == (2, 2, "opening")
    assert after.games[0].result == "mother"


def test_both_mothers_pinned_draws_the_game_and_the_next_game_starts_at_the_same_score() -> None:
    # rule V-PLAKOTO-8: a's own mother is pinned on its 24 while a pins b's
    state = plakoto_match_with_a_on_roll(
        on_roll=side(p2=13, p3=1, p24=1),
        opponent=side(p1=13, p24=1, p2=1),
        pinned_on_roll=(24,),
    )
    state = fold(roll(state, "a", (2, 1), T0), state)

    events = play(state, "a", T0, notation="3/1 2/1")

    assert any(isinstance(e, GameDrawn) for e in events)
    assert not any(isinstance(e, GameWon) for e in events)
    started = next(e for e in events if isinstance(e, GameStarted))
    assert (started.game, started.score_a, started.score_b, started.crawford) == (2, 0, 0, False)
    after = fold(events, state)
    assert [(g.winner, g.result, g.points) for g in after.games] == [(None, None, 0)]
    assert after.variant_board is not None
    assert after.variant_board.on_roll[24] == 15  # V-START-1: the next game is set up


def test_a_drawn_plakoto_in_a_tavli_match_is_replayed_as_plakoto_by_its_starter() -> None:
    # rule V-TAVLI-MATCH-1, V-PLAKOTO-8: game 2 (Plakoto) is drawn; a won game 1 and started 2
    state = plakoto_match_with_a_on_roll(
        "tavli",
        on_roll=side(p2=13, p3=1, p24=1),
        opponent=side(p1=13, p24=1, p2=1),
        pinned_on_roll=(24,),
    )
    assert (state.game, state.game_variant, state.game_starter) == (2, Variant.PLAKOTO, "a")
    state = fold(roll(state, "a", (2, 1), T0), state)

    after = fold(play(state, "a", T0, notation="3/1 2/1"), state)

    assert (after.game, after.game_variant) == (3, Variant.PLAKOTO)
    assert (after.phase, after.turn, after.score_a) == ("roll", "a", 1)
    assert [(g.variant, g.result) for g in after.games] == [("portes", "single"), ("plakoto", None)]


def test_under_the_app_rules_a_variant_resignation_is_single_once_a_checker_is_borne_off() -> None:
    # rule V-RESIGN-1 with G-RESIGN-1 (app): the level follows from the variant board
    state = plakoto_match_with_a_on_roll(
        rules="app", on_roll=side(p2=14, p3=1), opponent=side(p1=10, p24=1)
    )

    events = offer_resignation(state, "b", None, T0)

    won = next(e for e in events if isinstance(e, GameWon))
    assert (won.winner, won.result, won.points) == ("a", "single", 1)
