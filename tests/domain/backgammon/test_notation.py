"""Move notation: golden strings from GNU Backgammon 1.07, variants, errors and round trips.

Every golden list below is gnubg's own ``hint`` output (0-ply, all moves) for the position and
roll, sorted: ``set board <Position ID>``, ``set dice a b``, ``gnubg.hint(10000)``.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.backgammon.notation import (
    AmbiguousPlayError,
    NotationError,
    format_play,
    parse_play,
)
from domain.backgammon.plays import (
    APP_RULES,
    Dice,
    IllegalPlayError,
    Move,
    Play,
    legal_plays,
)
from domain.backgammon.position import Position

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "gnubg_legal_plays.jsonl.gz"
START = Position.starting()


def board(mine: dict[int, int], theirs: dict[int, int]) -> Position:
    """A position with the mover's point numbers for both sides: 25 is that side's bar."""
    on_roll = [0] * 25
    opponent = [0] * 25
    for point, count in mine.items():
        on_roll[point - 1] += count
    for point, count in theirs.items():
        opponent[24 if point == 25 else 24 - point] += count
    return Position(tuple(on_roll), tuple(opponent))


def formatted(position: Position, dice: Dice) -> list[str]:
    return sorted(format_play(play) for play in legal_plays(position, dice))


def canonical(text: str, position: Position, dice: Dice) -> str:
    return format_play(parse_play(text, position, dice))


# The mover's opening setup against opposing blots and points placed to show one rule each.
START_SIDE = {24: 2, 13: 5, 8: 3, 6: 5}
BLOT_ON_18 = board(START_SIDE, {1: 2, 12: 5, 17: 4, 18: 1, 20: 3})
BLOTS_ON_18_AND_19 = board(START_SIDE, {1: 2, 12: 5, 17: 3, 18: 1, 19: 1, 20: 3})
BLOT_ON_18_AND_19_BLOCKED = board(START_SIDE, {1: 2, 12: 5, 17: 2, 18: 1, 19: 2, 20: 3})
BLOT_ON_23 = board(START_SIDE, {1: 2, 12: 5, 17: 3, 19: 4, 23: 1})
BLOT_ON_7 = board(START_SIDE, {1: 2, 7: 1, 12: 5, 17: 3, 19: 4})
ON_THE_BAR = board({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
CLOSED_OUT = board(
    {25: 1, 16: 1, 13: 5, 8: 3, 6: 5}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}
)
BEARING_OFF = board({6: 2, 5: 3, 3: 2, 2: 1}, {12: 5, 17: 5, 18: 5})
TWO_CHECKERS_HOME = board({5: 1, 3: 1}, {12: 5, 17: 5, 18: 5})
ONE_ON_8 = board({8: 1, 6: 2, 5: 3}, {12: 5, 17: 5, 18: 5})
ONLY_ONE_DIE = board({13: 1, 1: 14}, {2: 2, 20: 13})  # 13/7 and 13/8 dead-end on the 2-point
LAST_TWO = board({6: 1, 1: 1}, {14: 5})

GOLDEN: list[tuple[str, str, Dice, list[str]]] = [
    # (what it shows, Position ID, dice, gnubg's hint moves sorted)
    ("opening 6-5: one checker with both dice", "4HPwATDgc/ABMA", (6, 5),
     ["13/2", "13/7 8/3", "13/8 13/7", "24/13", "24/18 13/8", "24/18 8/3", "8/3 8/2"]),
    ("opening 3-1", "4HPwATDgc/ABMA", (3, 1),
     ["13/10 6/5", "13/10 8/7", "13/9", "24/20", "24/21 6/5", "24/21 8/7", "24/23 13/10",
      "24/23 24/21", "24/23 6/3", "24/23 8/5", "6/2", "6/5 6/3", "8/4", "8/5 6/5", "8/7 6/3",
      "8/7 8/5"]),
    ("6-6 from the start: counts", "4HPwATDgc/ABMA", (6, 6),
     ["13/7 8/2(3)", "13/7(2) 8/2(2)", "13/7(3) 8/2", "13/7(4)", "24/18 13/7 8/2(2)",
      "24/18 13/7(2) 8/2", "24/18 13/7(3)", "24/18 8/2(3)", "24/18(2) 13/7 8/2",
      "24/18(2) 13/7(2)", "24/18(2) 8/2(2)"]),
    ("5-5 from the start", "4HPwATDgc/ABMA", (5, 5),
     ["13/3 13/8(2)", "13/3 8/3(2)", "13/3(2)", "13/8(4)"]),
    ("opening 6-4", "4HPwATDgc/ABMA", (6, 4),
     ["13/3", "13/7 6/2", "13/7 8/4", "13/9 13/7", "13/9 8/2", "24/14", "24/18 13/9",
      "24/18 6/2", "24/18 8/4", "24/20 13/7", "24/20 24/18", "24/20 8/2", "8/2 6/2", "8/4 8/2"]),
    ("a hit where the checker ends", "4OvIATDCZ/ABMA", (5, 1),
     ["13/7", "13/8 6/5", "24/18*", "24/23 13/8", "24/23 8/3", "8/2", "8/3 6/5", "8/7 8/3"]),
    ("a hit on the way, with doubles", "EPBU8gz/BwDBCA", (1, 1),
     ["19/15", "19/16 19/18", "19/17(2)", "22/20* 19/17", "22/20* 19/18(2)", "22/20*/18",
      "22/21 19/16", "22/21 19/17 19/18"]),
    ("quiet and hitting route to the same point", "QqGD6gP/ZwABCA", (4, 1),
     ["12/7*", "12/8* 3/2", "12/8*/7*", "22/17", "22/18* 12/11", "22/18* 3/2", "22/18*/17",
      "22/21 12/8*"]),
    ("entering from the bar", "wYSeFBmDB8jwSA", (4, 3),
     ["bar/18", "bar/21 14/11", "bar/21 16/13*", "bar/21 20/17*", "bar/21 23/20",
      "bar/21 6/3", "bar/22 14/10*", "bar/22 20/16"]),
    ("entering with a hit, then a hit marked once", "JRN6kBiRD0B4Rg", (4, 1),
     ["bar/21* 16/15", "bar/21* 22/21", "bar/21* 4/3", "bar/21* 6/5*", "bar/21*/20",
      "bar/24* 20/16", "bar/24* 22/18", "bar/24*/20"]),
    ("two checkers entering, joined parts keep their place", "V3DQEgoFHIDzYQ", (6, 6),
     ["bar/13 bar/19 21/15", "bar/13 bar/19 9/3*", "bar/13(2)", "bar/19(2) 21/15 9/3*",
      "bar/19(2) 21/15(2)", "bar/19(2) 21/9", "bar/19(2) 9/3*(2)", "bar/7 bar/19"]),
    ("several hits on one checker's way", "OCckOEUXgAD/JA", (3, 3),
     ["20/17*(3) 12/9", "20/17*(4)", "20/17*/11* 12/9", "20/17*/11* 20/17",
      "20/17*/11*/8", "20/17*/14 20/17 12/9", "20/17*/14 20/17(2)", "20/17*/14(2)"]),
    ("three hits on one checker's way", "97RAQQLfPwAgQA", (6, 6),
     ["bar/19*/13* 17/5*", "bar/19*/13*/7* 17/11", "bar/19*/13*/7*/1"]),
    ("bearing off", "DSUjOAd/7wQAAA", (2, 2),
     ["2/off(4)", "3/1 2/off(3)", "3/1(2) 2/off(2)", "3/1(3) 2/off", "5/1 2/off(2)",
      "5/1 3/1 2/off", "5/1 3/1(2)", "5/3 2/off(3)"]),
    ("a hit on the way to bearing off", "EQg5/gj/XwQAAA", (6, 2), ["5/3*/off", "5/off 2/off"]),
    ("closed out: no move", "lM9ghCTCM3gEVA", (6, 6), []),
    ("quiet route 24/13 beside 24/18*/13", BLOT_ON_18.position_id, (6, 5),
     ["13/2", "13/7 8/3", "13/8 13/7", "24/13", "24/18* 13/8", "24/18* 8/3", "24/18*/13",
      "24/19 13/7", "24/19 24/18*", "24/19 8/2", "8/3 8/2"]),
    ("both routes hit", BLOTS_ON_18_AND_19.position_id, (6, 5),
     ["13/2", "13/7 8/3", "13/8 13/7", "24/18* 13/8", "24/18* 8/3", "24/18*/13",
      "24/19* 13/7", "24/19* 24/18*", "24/19* 8/2", "24/19*/13", "8/3 8/2"]),
    ("a hit marked once per point, also with counts", BLOT_ON_7.position_id, (6, 6),
     ["13/7* 8/2(3)", "13/7*(2) 8/2(2)", "13/7*(3) 8/2", "13/7*(4)", "24/18 13/7* 8/2(2)",
      "24/18 13/7*(2) 8/2", "24/18 13/7*(3)", "24/18 8/2(3)", "24/18(2) 13/7* 8/2",
      "24/18(2) 13/7*(2)", "24/18(2) 8/2(2)"]),
    ("on the bar", ON_THE_BAR.position_id, (6, 5),
     ["bar/14", "bar/20 13/7", "bar/20 24/18", "bar/20 8/2"]),
    ("bearing off beside a move", BEARING_OFF.position_id, (6, 4), ["6/2 6/off", "6/off 5/1"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("position_id", "dice", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in GOLDEN],
)
def test_every_legal_play_is_written_as_gnubg_writes_it(
    position_id: str, dice: Dice, expected: list[str]
) -> None:
    # rule G-LEGAL-1: the notation players and gnubg records use, exactly.
    assert formatted(Position.from_position_id(position_id), dice) == expected


@pytest.mark.parametrize(
    ("position_id", "dice", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in GOLDEN],
)
def test_gnubg_notation_parses_back_to_the_play_it_names(
    position_id: str, dice: Dice, expected: list[str]
) -> None:
    position = Position.from_position_id(position_id)
    for text in expected:
        assert canonical(text, position, dice) == text


@cache
def reference_cases() -> list[tuple[Position, Dice, list[tuple[str, str]]]]:
    """The committed gnubg reference: per case, gnubg's notation and Position ID per play."""
    cases = []
    with gzip.open(REFERENCE, "rt", encoding="ascii") as lines:
        for line in lines:
            raw = json.loads(line)
            plays = [(str(play[0]), str(play[1])) for play in raw["plays"]]
            dice = (int(raw["dice"][0]), int(raw["dice"][1]))
            cases.append((Position.from_position_id(raw["id"]), dice, plays))
    return cases


def test_notation_matches_gnubg_for_every_play_of_the_committed_reference() -> None:
    # Thousands of positions gnubg played through: bar, primes, bear-offs, doubles, game ends.
    differences = []
    for index, (position, dice, gnubg_plays) in enumerate(reference_cases()):
        ours = {play.position_id: format_play(play) for play in legal_plays(position, dice)}
        if ours != {after: text for text, after in gnubg_plays}:
            differences.append(f"{position.position_id} {dice}")
        if gnubg_plays:  # one play per case, in turn, read back
            text, after = gnubg_plays[index % len(gnubg_plays)]
            if parse_play(text, position, dice).position_id != after:
                differences.append(f"{position.position_id} {dice}: {text} reads wrong")
    assert len(reference_cases()) >= 4000
    assert not differences, differences[:10]


# --- how gnubg writes a play ----------------------------------------------------------------


def test_a_checker_moving_with_both_dice_shows_only_where_it_starts_and_ends() -> None:
    # rule G-MOVE-1: one checker may use both numbers.
    assert format_play([Move(24, 18), Move(18, 13)]) == "24/13"
    assert format_play([Move(24, 19), Move(19, 13)]) == "24/13"


def test_a_checker_that_hits_on_the_way_shows_each_point_where_it_hit() -> None:
    # rule G-MOVE-2: the hit sends a checker to the bar, so the route matters.
    assert format_play([Move(24, 18, hit=True), Move(18, 13)]) == "24/18*/13"
    assert format_play([Move(25, 22, hit=True), Move(22, 16)]) == "bar/22*/16"
    assert format_play([Move(8, 4, hit=True), Move(4, 0)]) == "8/4*/off"


def test_identical_parts_are_written_once_with_their_count() -> None:
    moves = [Move(13, 7), Move(13, 7), Move(8, 2), Move(8, 2)]
    assert format_play(moves) == "13/7(2) 8/2(2)"


def test_a_hit_is_marked_once_however_many_checkers_land_on_the_point() -> None:
    assert format_play([Move(13, 7, hit=True), Move(8, 7)]) == "13/7* 8/7"
    assert format_play([Move(13, 7, hit=True), Move(13, 7)]) == "13/7*(2)"


def test_parts_are_ordered_by_source_then_destination_whatever_order_they_were_played() -> None:
    assert format_play([Move(13, 7), Move(24, 18)]) == "24/18 13/7"
    assert format_play([Move(6, 0), Move(6, 2)]) == "6/2 6/off"


def test_gnubg_joins_a_checker_s_moves_in_its_sorted_order() -> None:
    # gnubg's movetupletostring gives "8/4 6/4" for 8/6 6/4 6/4 in either order, not 8/6 6/4(2).
    assert format_play([Move(8, 6), Move(6, 4), Move(6, 4)]) == "8/4 6/4"
    assert format_play([Move(6, 4), Move(8, 6), Move(6, 4)]) == "8/4 6/4"


def test_the_empty_play_is_the_empty_string() -> None:
    # rule G-MAX-1: gnubg says "There are no legal moves." / "cannot move"; the notation is "".
    assert legal_plays(CLOSED_OUT, (6, 5)) == ()
    assert format_play(()) == ""
    assert format_play(Play((), CLOSED_OUT.swap_sides())) == ""


# --- reading variants -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "dice", "text", "expected"),
    [
        pytest.param(START, (6, 5), "24/18 18/13", "24/13", id="a checker's moves apart"),
        pytest.param(START, (6, 5), "24/18/13", "24/13", id="the point in between written"),
        pytest.param(START, (6, 5), "13/8 24/18", "24/18 13/8", id="any order"),
        pytest.param(START, (6, 5), "  24/18   13/8 ", "24/18 13/8", id="extra spaces"),
        pytest.param(START, (6, 5), "24 / 18, 13/8", "24/18 13/8", id="spaces and commas"),
        pytest.param(START, (6, 6), "13/7 13/7 24/18 24/18", "24/18(2) 13/7(2)", id="no count"),
        pytest.param(START, (6, 6), "24/18(2) 13/7 (2)", "24/18(2) 13/7(2)", id="count apart"),
        pytest.param(BLOT_ON_7, (6, 1), "13/7 8/7", "13/7* 8/7", id="hit mark left out"),
        pytest.param(BLOT_ON_7, (6, 1), "13/7* 8/7*", "13/7* 8/7", id="hit marked twice"),
        pytest.param(BLOT_ON_23, (3, 1), "24/23*/20", "24/23*/20", id="hit on the way"),
        pytest.param(BLOT_ON_23, (3, 1), "24/23/20", "24/23*/20", id="hit on the way unmarked"),
        pytest.param(BLOT_ON_23, (3, 1), "24/23* 23/20", "24/23*/20", id="hit, then on"),
        pytest.param(ON_THE_BAR, (6, 5), "bar/20 13/7", "bar/20 13/7", id="bar"),
        pytest.param(ON_THE_BAR, (6, 5), "25/20 13/7", "bar/20 13/7", id="bar as 25"),
        pytest.param(ON_THE_BAR, (6, 5), "Bar/20 13/7", "bar/20 13/7", id="Bar"),
        pytest.param(ON_THE_BAR, (6, 5), "BAR/14", "bar/14", id="BAR with both dice"),
        pytest.param(BEARING_OFF, (6, 4), "6/off 6/2", "6/2 6/off", id="off"),
        pytest.param(BEARING_OFF, (6, 4), "6/0 6/2", "6/2 6/off", id="off as 0"),
        pytest.param(BEARING_OFF, (6, 4), "6/OFF 6/2", "6/2 6/off", id="OFF"),
        pytest.param(LAST_TWO, (6, 5), "6/1 1/off", "6/off", id="moves joined by gnubg"),
    ],
)
def test_variants_of_the_notation_read_as_the_same_play(
    position: Position, dice: Dice, text: str, expected: str
) -> None:
    assert canonical(text, position, dice) == expected


def test_a_route_left_unwritten_is_the_quiet_one_as_in_gnubg() -> None:
    # gnubg writes the point in between exactly when the checker hit there, so "24/13" is the
    # route through 19 when 24/18*/13 is also legal; round trips need that reading.
    assert canonical("24/13", BLOT_ON_18, (6, 5)) == "24/13"
    assert parse_play("24/13", BLOT_ON_18, (6, 5)).position.on_roll[24] == 0
    assert canonical("24/18*/13", BLOT_ON_18, (6, 5)) == "24/18*/13"
    assert canonical("24/18/13", BLOT_ON_18, (6, 5)) == "24/18*/13"
    assert canonical("24/19/13", BLOT_ON_18, (6, 5)) == "24/13"


def test_a_route_that_must_hit_is_read_without_its_hit_written() -> None:
    # 19 is blocked: the only way to 13 hits on 18.
    assert canonical("24/13", BLOT_ON_18_AND_19_BLOCKED, (6, 5)) == "24/18*/13"


def test_a_move_whose_routes_hit_different_blots_is_ambiguous() -> None:
    with pytest.raises(AmbiguousPlayError, match=r"24/18\*/13 or 24/19\*/13"):
        parse_play("24/13", BLOTS_ON_18_AND_19, (6, 5))
    assert canonical("24/19*/13", BLOTS_ON_18_AND_19, (6, 5)) == "24/19*/13"
    assert canonical("24/18/13", BLOTS_ON_18_AND_19, (6, 5)) == "24/18*/13"


def test_ambiguous_notation_is_a_notation_error() -> None:
    assert issubclass(AmbiguousPlayError, NotationError)
    assert issubclass(NotationError, ValueError)


def test_the_empty_string_is_the_play_when_no_checker_can_move() -> None:
    # rule G-BAR-1: a closed board means the turn is lost.
    play = parse_play("", CLOSED_OUT, (6, 5))
    assert play.moves == ()
    assert play.position == CLOSED_OUT.swap_sides()
    assert parse_play("   ", CLOSED_OUT, (6, 5)).moves == ()


def test_the_parsed_play_is_one_of_the_legal_plays() -> None:
    play = parse_play("24/13", START, (6, 5))
    assert play in legal_plays(START, (6, 5))


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("24-18", r"'-' at column 3 is not part of move notation"),
        ("24/", r"'24/' ends with '/'"),
        ("/18", r"'/' at column 1 follows no point"),
        ("24//18", r"'/' at column 4 follows no point"),
        ("24/18x 13/8", r"'x' at column 6 is not a point"),
        ("jump/18", r"'jump' at column 1 is not a point"),
        ("24/26", r"'26' at column 4 is not a point"),
        ("off/3", r"'off/3' starts from off"),
        ("3/bar", r"'3/bar' moves onto the bar"),
        ("6/off/3", r"'6/off/3' goes on after bearing off"),
        ("6/off*", r"'6/off\*' marks a hit off the board"),
        ("24*/18", r"'\*' at column 3 marks a hit but follows no target point"),
        ("24/18(0)", r"'\(0\)' at column 6 is not a count of 1 to 4"),
        ("24/18(5)", r"'\(5\)' at column 6 is not a count of 1 to 4"),
        ("(2) 24/18", r"'\(2\)' at column 1 follows no move"),
        ("24/18 13", r"'13' is not a move"),
    ],
)
def test_malformed_notation_names_the_wrong_token(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_play(text, START, (6, 5))


@pytest.mark.parametrize(
    ("position", "dice", "text", "reason"),
    [
        pytest.param(START, (6, 5), "24/18", "both dice must be played", id="G-MAX-1 both"),
        pytest.param(START, (6, 6), "24/18(2)", "all four 6s must be played", id="G-MAX-1 4"),
        pytest.param(ONLY_ONE_DIE, (6, 5), "13/8", "it must be the larger, 6", id="G-MAX-1 larger"),
        pytest.param(START, (6, 5), "", "the roll can be played, so it must be", id="G-MAX-1 none"),
        pytest.param(START, (6, 5), "24/19 13/7", "point 19 is blocked", id="G-MOVE-2"),
        pytest.param(ON_THE_BAR, (6, 5), "13/7 13/8", "on the bar must enter before", id="G-BAR-1"),
        pytest.param(
            CLOSED_OUT,
            (6, 5),
            "bar/20 13/7",
            "no checker can move, the turn passes",
            id="G-BAR-1 closed",
        ),
        pytest.param(
            ONE_ON_8,
            (6, 4),
            "6/off 6/2",
            "while a checker is outside the home board",
            id="G-OFF-1 outside",
        ),
        pytest.param(
            TWO_CHECKERS_HOME,
            (6, 1),
            "3/off 5/4",
            "a 6 bears off from 3 only with no checker",
            id="G-OFF-1 higher point",
        ),
        pytest.param(START, (6, 5), "13/10 13/8", "13/10 is not a move of 6-5", id="dice"),
        pytest.param(START, (6, 5), "24/18 13/8 8/3", "more moves than 6-5 allows", id="3"),
        pytest.param(START, (6, 5), "8/13 24/18", "does not move toward home", id="back"),
        pytest.param(START, (6, 5), "14/8 14/9", "no checker on 14 to move", id="empty"),
        pytest.param(START, (6, 6), "24/18(3) 13/7", "moves 3 checkers from 24", id="too many"),
        pytest.param(START, (6, 5), "24/18* 13/8", "no blot on 18 to hit", id="wrong hit"),
    ],
)
def test_well_formed_notation_of_no_legal_play_is_refused_with_the_reason(
    position: Position, dice: Dice, text: str, reason: str
) -> None:
    # rule G-LEGAL-1: illegal moves are never recorded; the service says why.
    with pytest.raises(IllegalPlayError, match=reason):
        parse_play(text, position, dice)


def test_app_rules_refuse_a_bear_off_that_wastes_pips() -> None:
    # rule G-OFF-2: "6/off" (6/1 1/off) wastes 5 pips where 6/off 1/off wastes 4.
    assert canonical("6/off", LAST_TWO, (6, 5)) == "6/off"
    with pytest.raises(IllegalPlayError, match=r"wasting fewer pips \(G-OFF-2\)"):
        parse_play("6/off", LAST_TWO, (6, 5), APP_RULES)
    assert format_play(parse_play("6/off 1/off", LAST_TWO, (6, 5), APP_RULES)) == "6/off 1/off"


def test_illegal_play_errors_name_the_text_and_the_dice() -> None:
    with pytest.raises(IllegalPlayError, match=r"^24/18 with 6-5: "):
        parse_play("24/18", START, (6, 5))


# --- round trips ----------------------------------------------------------------------------

rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


@st.composite
def played_positions(draw: st.DrawFn) -> Position:
    """A position reached by random plays of random rolls from the opening setup."""
    position = START
    for _ in range(draw(st.integers(0, 60))):
        if not all(position.pip_counts):
            break
        plays = legal_plays(position, draw(rolls))
        position = draw(st.sampled_from(plays)).position if plays else position.swap_sides()
    return position


round_trips = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@round_trips
@given(played_positions(), rolls)
def test_every_legal_play_reads_back_from_its_notation(position: Position, dice: Dice) -> None:
    for play in legal_plays(position, dice):
        assert parse_play(format_play(play), position, dice).position == play.position


@round_trips
@given(played_positions(), rolls)
def test_every_legal_play_reads_back_from_its_moves_die_by_die(
    position: Position, dice: Dice
) -> None:
    for play in legal_plays(position, dice):
        text = " ".join(f"{move.source}/{move.destination}" for move in play.moves)
        assert parse_play(text, position, dice).position == play.position


# --- live check against gnubg ---------------------------------------------------------------

GNUBG_SCRIPT = """
import json
import gnubg

gnubg.command("set player 0 human")
gnubg.command("set player 1 human")
gnubg.command("set evaluation chequerplay evaluation plies 0")
gnubg.command("new game")
answers = []
for case in json.load(open("cases.json")):
    gnubg.command("set board " + case["id"])
    gnubg.command("set dice %d %d" % tuple(case["dice"]))
    hint = sorted(move["move"] for move in gnubg.hint(10000)["hint"])
    board = gnubg.board()
    tuples = [gnubg.movetupletostring(tuple(moves), board) for moves in case["moves"]]
    answers.append({"position_id": gnubg.positionid(), "hint": hint, "tuples": tuples})
json.dump(answers, open("answers.json", "w"))
"""


def gnubg_executable() -> str | None:
    return shutil.which("gnubg") or next(
        (path for path in ("/usr/games/gnubg",) if os.access(path, os.X_OK)), None
    )


@pytest.mark.gnubg
def test_notation_matches_gnubg_hint_on_a_fresh_random_sample(tmp_path: Path) -> None:
    executable = gnubg_executable()
    if executable is None:
        pytest.skip("GNU Backgammon is not installed")
    seed = int(os.environ.get("GNUBG_NOTATION_SEED", random.SystemRandom().randrange(1 << 31)))
    rng = random.Random(seed)
    samples: list[tuple[Position, Dice]] = []
    while len(samples) < 150:
        position = START
        for _ in range(rng.randrange(120)):
            if not all(position.pip_counts):
                break
            plays = legal_plays(position, (rng.randint(1, 6), rng.randint(1, 6)))
            hitting = [play for play in plays if any(move.hit for move in play.moves)]
            choices = hitting if hitting and rng.random() < 0.5 else plays
            position = rng.choice(choices).position if plays else position.swap_sides()
        if all(position.pip_counts):
            samples.append((position, (rng.randint(1, 6), rng.randint(1, 6))))
    cases = [
        {
            "id": position.position_id,
            "dice": list(dice),
            # gnubg's move tuples: 1-based points, 25 the bar, 0 off, zero-padded to 8.
            "moves": [
                [point for move in play.moves for point in (move.source, move.destination)]
                + [0] * (8 - 2 * len(play.moves))
                for play in legal_plays(position, dice)
            ],
        }
        for position, dice in samples
    ]
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "script.py").write_text(GNUBG_SCRIPT)
    subprocess.run(
        [executable, "-t", "-q", "-p", "script.py"],
        env={**os.environ, "HOME": str(tmp_path)},
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=300,
        check=True,
    )
    answers = json.loads((tmp_path / "answers.json").read_text())
    differences = []
    for (position, dice), answer in zip(samples, answers, strict=True):
        ours = [format_play(play) for play in legal_plays(position, dice)]
        assert answer["position_id"] == position.position_id
        if sorted(ours) != answer["hint"] or ours != answer["tuples"]:
            differences.append(f"{position.position_id} {dice}: {answer} vs {ours}")
    assert not differences, f"seed {seed}: " + "\n".join(differences[:5])
