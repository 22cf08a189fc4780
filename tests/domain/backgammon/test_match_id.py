"""GNU Backgammon's Match ID: golden IDs from gnubg 1.07.001, round trips and refusals."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.backgammon.match_id import (
    MAX_MATCH_LENGTH,
    MAX_SCORE,
    CubeOwner,
    GameState,
    InvalidMatchIdError,
    MatchState,
)

CENTRED = CubeOwner.CENTRED

# Each ID was read with gnubg.matchid() after the gnubg commands named (players human,
# "set automatic roll off", "set automatic game off"); the states are what gnubg showed.
GOLDEN = {
    # "new match 7": gnubg rolled the opening 6 and 3 for player 1.
    "new 7-point match, opening roll 63 for player 1": (
        "cAnvAAAAAAAE",
        MatchState(match_length=7, player_on_roll=1, turn=1, dice=(6, 3)),
    ),
    # then "set dice 2 5": gnubg writes the larger die first.
    "dice set to 2 and 5": (
        "cInqAAAAAAAE",
        MatchState(match_length=7, player_on_roll=1, turn=1, dice=(5, 2)),
    ),
    # then "move 13/11 13/8": player 0 is on roll, not yet rolled.
    "player 0 to roll or double": (
        "MAHgAAAAAAAE",
        MatchState(match_length=7),
    ),
    # then "double": player 0 stays on roll, player 1 decides.
    "cube offered by player 0": (
        "MBngAAAAAAAE",
        MatchState(match_length=7, turn=1, double_offered=True),
    ),
    # then "take": player 1 owns the 2-cube (rule G-CUBE-1).
    "cube taken by player 1": (
        "EQHgAAAAAAAE",
        MatchState(match_length=7, cube_value=2, cube_owner=CubeOwner.PLAYER_1),
    ),
    "player 0 rolled 65 with player 1 owning the 2-cube": (
        "EQH3AAAAAAAE",
        MatchState(match_length=7, cube_value=2, cube_owner=CubeOwner.PLAYER_1, dice=(6, 5)),
    ),
    # The example of gnubg's manual (written before bit 66, so it reads as Jacoby on).
    "manual: 9-point match at 2-4, player 0 owns the 2-cube, player 1 rolled 52": (
        "QYkqASAAIAAA",
        MatchState(
            match_length=9,
            score=(2, 4),
            cube_value=2,
            cube_owner=CubeOwner.PLAYER_0,
            player_on_roll=1,
            turn=1,
            dice=(5, 2),
            jacoby=True,
        ),
    ),
    # 5-point match at 2-3, "double" then "take": player 1 holds the 4-cube.
    "4-cube owned by player 1": (
        "EgGgACAAGAAE",
        MatchState(match_length=5, score=(2, 3), cube_value=4, cube_owner=CubeOwner.PLAYER_1),
    ),
    # rule G-CUBE-2: player 0 won a gammon at 2-3 of 5; the next game is the Crawford game.
    "Crawford game at 4-3, player 1 rolled 31": (
        "8ImlAEAAGAAE",
        MatchState(
            match_length=5, score=(4, 3), crawford=True, player_on_roll=1, turn=1, dice=(3, 1)
        ),
    ),
    "player 1 rolled 33 at 3-4 of 5": (
        "cImtADAAIAAE",
        MatchState(match_length=5, score=(3, 4), player_on_roll=1, turn=1, dice=(3, 3)),
    ),
    # rule G-RESIGN-1: then "resign backgammon"; player 0 decides.
    "player 1 offers to resign a backgammon": (
        "cOGtADAAIAAE",
        MatchState(
            match_length=5, score=(3, 4), player_on_roll=1, turn=0, resignation=3, dice=(3, 3)
        ),
    ),
    "player 0 offers to resign a gammon after rolling 65": (
        "MEn3AAAAAAAE",
        MatchState(match_length=7, turn=1, resignation=2, dice=(6, 5)),
    ),
    # 3-point match at 1-2 (Crawford game): player 0 resigns a single, player 1 accepts.
    "match over by resignation: the score reaches the match length": (
        "MCtgABAAGAAE",
        MatchState(
            match_length=3,
            score=(1, 3),
            turn=1,
            game_state=GameState.RESIGNED,
            resignation=1,
        ),
    ),
    # rule G-WIN-1: 7-point match at 2-1, player 0 bears off the last checker: a gammon.
    "game over, player 0 won a gammon": (
        "cArgAEAACAAE",
        MatchState(
            match_length=7, score=(4, 1), player_on_roll=1, turn=1, game_state=GameState.OVER
        ),
    ),
    "match over, 5-4 in a 5-point match": (
        "cAqgAFAAIAAE",
        MatchState(
            match_length=5, score=(5, 4), player_on_roll=1, turn=1, game_state=GameState.OVER
        ),
    ),
    # rule G-CUBE-1: 7-point match at 2-1, player 0 doubles, player 1 drops.
    "game ended by a dropped cube": (
        "MAzgADAACAAE",
        MatchState(match_length=7, score=(3, 1), turn=1, game_state=GameState.DROPPED),
    ),
    # rule G-CUBE-3: "new session" with gnubg's default Jacoby rule, then without it.
    "money session with the Jacoby rule, player 1 rolled 32": (
        "cIkJAAAAAAAA",
        MatchState(match_length=0, player_on_roll=1, turn=1, dice=(3, 2), jacoby=True),
    ),
    "money session without the Jacoby rule, player 1 rolled 53": (
        "cIkOAAAAAAAE",
        MatchState(match_length=0, player_on_roll=1, turn=1, dice=(5, 3)),
    ),
    "money session, player 0 resigned a single": (
        "MCsAAAAACAAA",
        MatchState(
            match_length=0,
            score=(0, 1),
            turn=1,
            game_state=GameState.RESIGNED,
            resignation=1,
            jacoby=True,
        ),
    ),
    # "set matchid" accepted these and showed them back unchanged.
    "4096-cube, gnubg's largest settable cube": (
        "PAHgAAAAAAAE",
        MatchState(match_length=7, cube_value=4096),
    ),
    "64-point match, gnubg's longest": (
        "MAEACAAAAAAE",
        MatchState(match_length=64),
    ),
    "money session at 1000-3": (
        "MAEAAIA+GAAE",
        MatchState(match_length=0, score=(1000, 3)),
    ),
}


@pytest.mark.parametrize(("match_id", "state"), GOLDEN.values(), ids=GOLDEN.keys())
def test_golden_match_id_decodes_to_the_state_gnubg_showed(
    match_id: str, state: MatchState
) -> None:
    assert MatchState.from_match_id(match_id) == state


@pytest.mark.parametrize(("match_id", "state"), GOLDEN.values(), ids=GOLDEN.keys())
def test_golden_state_encodes_to_the_match_id_gnubg_wrote(match_id: str, state: MatchState) -> None:
    assert state.match_id == match_id


def test_dice_are_kept_larger_first_as_gnubg_writes_them() -> None:
    assert MatchState(match_length=7, dice=(2, 5)).dice == (5, 2)


def test_match_id_with_the_smaller_die_first_decodes_as_gnubg_reads_it() -> None:
    # "set matchid MAH1AAAAAAAE" (dice 2, 5) made gnubg show MIHqAAAAAAAE (dice 5, 2).
    state = MatchState.from_match_id("MAH1AAAAAAAE")
    assert state.dice == (5, 2)
    assert state.match_id == "MIHqAAAAAAAE"


def test_crawford_flag_round_trips_through_the_match_id() -> None:
    # rule G-CUBE-2
    state = MatchState(match_length=7, score=(6, 2), crawford=True)
    assert MatchState.from_match_id(state.match_id).crawford is True


def test_money_session_is_a_match_of_length_zero() -> None:
    assert MatchState.from_match_id("cIkOAAAAAAAE").is_money_session
    assert not MatchState.from_match_id("MAHgAAAAAAAE").is_money_session


def valid_states() -> st.SearchStrategy[MatchState]:
    """Every state gnubg accepts: scores within the match, no Crawford game in money play."""

    def build(match_length: int) -> st.SearchStrategy[MatchState]:
        top = match_length or MAX_SCORE
        rolled = st.tuples(st.integers(1, 6), st.integers(1, 6))
        return st.builds(
            MatchState,
            match_length=st.just(match_length),
            score=st.tuples(st.integers(0, top), st.integers(0, top)),
            cube_value=st.integers(0, 15).map(lambda power: 1 << power),
            cube_owner=st.sampled_from(CubeOwner),
            player_on_roll=st.integers(0, 1),
            turn=st.integers(0, 1),
            crawford=st.booleans() if match_length else st.just(False),
            game_state=st.sampled_from(GameState),
            double_offered=st.booleans(),
            resignation=st.integers(0, 3),
            dice=st.just((0, 0)) | rolled,
            jacoby=st.booleans(),
        )

    return st.integers(0, MAX_MATCH_LENGTH).flatmap(build)


@settings(deadline=None)
@given(valid_states())
def test_every_valid_state_round_trips_through_its_match_id(state: MatchState) -> None:
    match_id = state.match_id
    assert len(match_id) == 12
    assert MatchState.from_match_id(match_id) == state


BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


@settings(deadline=None)
@given(st.text(alphabet=BASE64, min_size=12, max_size=12))
def test_any_twelve_characters_are_refused_or_decode_to_a_state_that_round_trips(
    match_id: str,
) -> None:
    try:
        state = MatchState.from_match_id(match_id)
    except InvalidMatchIdError:
        return
    assert MatchState.from_match_id(state.match_id) == state


# Checked with "set matchid" in gnubg 1.07.001: it answered "Illegal match ID" to a die of 7,
# a score above the match length, a 65-point match and a Crawford game in a money session, and
# could not set a single rolled die. The rest it reads leniently (short or foreign text as zero
# bits, owner bits 10 as centred, game state 5 as is, unused bits ignored); they are refused
# here so that typos do not pass and every state has exactly one ID.
REFUSED = {
    "too short": ("MAHgAAAAAAA", "has 12 characters, got 11"),
    "too long": ("MAHgAAAAAAAEA", "has 12 characters, got 13"),
    "padding": ("MAHgAAAAAA==", "uses only the characters"),
    "URL-safe alphabet": ("MAHgAAAAAA-_", "uses only the characters"),
    "die of 7": ("MIHnAAAAAAAE", "each die is 0 (not rolled) or 1 to 6"),
    "one die rolled": ("MIHhAAAAAAAE", "both dice are rolled, or neither"),
    "score above the match length": ("MAHgAIAAAAAE", "more than the match length 7"),
    "65-point match": ("MAEgCAAAAAAE", "match length 65 is not 0 (money) to 64"),
    "Crawford game in a money session": ("sAEAAAAAAAAE", "has no Crawford game"),
    "game state 5": ("MAXgAAAAAAAE", "game state 5 is not one of 0 to 4"),
    "cube owner bits 10": ("IAHgAAAAAAAE", "cube owner bits 10"),
    "unused bits set": ("MAHgAAAAAAD8", "bits 67 to 71 are unused"),
}


@pytest.mark.parametrize(("match_id", "reason"), REFUSED.values(), ids=REFUSED.keys())
def test_match_id_gnubg_would_refuse_is_rejected_with_the_reason(
    match_id: str, reason: str
) -> None:
    with pytest.raises(InvalidMatchIdError, match=re.escape(reason)) as error:
        MatchState.from_match_id(match_id)
    assert repr(match_id) in str(error.value)


def test_match_id_must_be_a_string() -> None:
    with pytest.raises(InvalidMatchIdError, match="has 12 characters"):
        MatchState.from_match_id(None)  # type: ignore[arg-type]


INVALID_STATES: dict[str, tuple[dict[str, Any], str]] = {
    "cube 3": ({"cube_value": 3}, "cube value 3 is not a power of 2"),
    "cube 65536": ({"cube_value": 1 << 16}, "cube value 65536 is not a power of 2"),
    "cube 0": ({"cube_value": 0}, "cube value 0"),
    "player 2 on roll": ({"player_on_roll": 2}, "player_on_roll is player 0 or 1"),
    "turn of player -1": ({"turn": -1}, "turn is player 0 or 1"),
    "Crawford as 1": ({"crawford": 1}, "crawford is True or False"),
    "resignation 4": ({"resignation": 4}, "resignation is 0 (none), 1, 2 or 3"),
    "die 0 and 4": ({"dice": (0, 4)}, "both dice are rolled, or neither"),
    "three dice": ({"dice": (1, 2, 3)}, "dice are two values"),
    "negative score": ({"score": (-1, 0)}, "score of player 0 is -1"),
    "score past the length": ({"score": (0, 8)}, "score of player 1 is 8, more than"),
    "money Crawford": ({"match_length": 0, "crawford": True}, "has no Crawford game"),
    "game state as int": ({"game_state": 1}, "is not a GameState"),
    "owner as int": ({"cube_owner": 0}, "is not a CubeOwner"),
}


@pytest.mark.parametrize(("changes", "reason"), INVALID_STATES.values(), ids=INVALID_STATES.keys())
def test_invalid_match_state_is_refused_with_the_reason(
    changes: dict[str, Any], reason: str
) -> None:
    fields: dict[str, Any] = {"match_length": 7, **changes}
    with pytest.raises(InvalidMatchIdError, match=re.escape(reason)):
        MatchState(**fields)
