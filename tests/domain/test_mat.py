"""The .mat export of recorded events: result lines, empty games, the club's local date."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

from domain import match as rules
from domain.events import DomainEvent, fold
from domain.mat import LEFT_WIDTH, format_mat, mat_name
from domain.people.tokens import token_hash
from tests.domain.test_match import Table, board
from tests.domain.test_match_voids import CLOSED_BOARD

BERLIN = ZoneInfo("Europe/Berlin")
T0 = datetime(2026, 4, 18, 13, 0, tzinfo=UTC)


class Recorder:
    """A match recorded command by command at a given time."""

    def __init__(self, start: datetime = T0, **options: Any) -> None:
        fields: dict[str, Any] = {
            "player_a": "anna",
            "player_b": "ben",
            "match_length": 5,
            "dice_mode": "entered",
            "clock": "none",
            "token_hash_a": token_hash("a"),
            "token_hash_b": token_hash("b"),
            **options,
        }
        self.now = start
        self.events: list[DomainEvent] = rules.start_match(UUID(int=1), start, **fields)

    def do(self, command: Any, *arguments: Any, **keywords: Any) -> None:
        state = fold(rules.evolve, None, self.events)
        self.events += command(state, *arguments, **keywords)

    def game_one_dropped_by_a(self) -> None:
        """Side a opens 3-1 and plays; b doubles, a drops: b wins 1 point."""
        self.do(rules.roll, None, (3, 1), self.now)
        self.do(rules.play, "a", self.now, notation="8/5 6/5")
        self.do(rules.double, "b", self.now)
        self.do(rules.drop, "a", self.now)


def test_a_match_lost_on_the_club_clock_ends_with_the_winners_result_line() -> None:
    # rule G-CLOCK-1: the side whose reserve runs out loses the match
    table = Recorder(clock="club")
    table.game_one_dropped_by_a()
    table.do(rules.roll, None, (5, 2), table.now)
    table.do(rules.play, "a", table.now, notation="13/8 13/11")
    flag_falls = table.now + timedelta(minutes=10, seconds=1)  # b's 5 x 2 minutes

    table.do(rules.claim_timeout, "a", flag_falls)

    games = format_mat(table.events, BERLIN).split(" Game ")[1:]
    assert len(games) == 2
    last_line = games[1].rstrip("\n").splitlines()[-1]
    assert last_line == " " * 6 + "Wins 5 points and the match"  # side a's column, 5 - 0


def test_the_winner_of_a_match_lost_on_time_in_side_bs_column() -> None:
    table = Recorder(clock="club", match_length=3)
    table.game_one_dropped_by_a()
    table.do(rules.roll, None, (5, 2), table.now)

    table.do(rules.claim_timeout, "b", table.now + timedelta(minutes=6, seconds=1))

    text = format_mat(table.events, BERLIN)
    assert text.rstrip("\n").endswith(" " * (6 + LEFT_WIDTH) + "Wins 2 points and the match")


def test_a_closed_money_session_has_no_empty_game_at_the_end() -> None:
    table = Recorder(match_length=0)
    table.game_one_dropped_by_a()

    table.do(rules.close_session, table.now)

    text = format_mat(table.events, BERLIN)
    assert [line for line in text.splitlines() if line.startswith(" Game ")] == [" Game 1"]
    assert text.rstrip("\n").endswith("Wins 1 point")


def test_the_event_date_is_the_clubs_local_date() -> None:
    # rule CAL-3: 22:30 UTC on 18 April is 00:30 on 19 April in Berlin (summer time)
    table = Recorder(start=datetime(2026, 4, 18, 22, 30, tzinfo=UTC))

    text = format_mat(table.events, BERLIN)

    assert '; [EventDate "2026.04.19"]' in text
    assert '; [EventDate "2026.04.18"]' in format_mat(table.events, UTC)


def game_won_by_b_on_a_dropped_redouble(table: Recorder) -> None:
    """b doubles, a takes; a redoubles to 4, b takes; b redoubles to 8, a drops: b wins 4."""
    table.do(rules.roll, None, (3, 1), table.now)
    table.do(rules.play, "a", table.now, notation="8/5 6/5")
    table.do(rules.double, "b", table.now)
    table.do(rules.take, "a", table.now)
    table.do(rules.roll, "b", (2, 1), table.now)
    table.do(rules.play, "b", table.now, notation="13/11 6/5")
    table.do(rules.double, "a", table.now)
    table.do(rules.take, "b", table.now)
    table.do(rules.roll, "a", (5, 2), table.now)
    table.do(rules.play, "a", table.now, notation="13/8 13/11")
    table.do(rules.double, "b", table.now)
    table.do(rules.drop, "a", table.now)


def penalised_match() -> Recorder:
    """A 5-point match: a comes late and gets 1 penalty point before the first roll (b: 1),
    then b wins the first game with 4 points: b wins the match 5-0."""
    table = Recorder(player_a="Kévin Unger", player_b="Ben", match_length=5)
    table.do(
        rules.award_penalty,
        penalty_id=UUID(int=7),
        side="a",
        points=1,
        reason="late",
        now=table.now,
    )
    game_won_by_b_on_a_dropped_redouble(table)
    return table


def test_the_game_header_counts_the_penalty_points_awarded_before_its_first_roll() -> None:
    # rule C-BREAK-2: a penalty point is added to the opponent's match score
    table = penalised_match()
    won = fold(rules.evolve, None, table.events)
    assert won is not None
    assert (won.winner, won.score_a, won.score_b) == ("b", 0, 5)

    text = format_mat(table.events, BERLIN)

    lines = text.rstrip("\n").splitlines()
    header = lines[lines.index(" Game 1") + 1]
    assert header.split() == ["Kévin", "Unger", ":", "0", "Ben", ":", "1"]
    assert lines[-1].strip() == "Wins 4 points and the match"  # 1 + 4: the match's 5


def test_penalty_points_awarded_during_a_game_count_from_that_games_header() -> None:
    # rule C-BREAK-2; the .mat format has no score change within a game
    table = Recorder(match_length=7)
    table.do(rules.roll, None, (3, 1), table.now)
    table.do(rules.play, "a", table.now, notation="8/5 6/5")
    table.do(rules.award_penalty, penalty_id=UUID(int=1), side="b", points=2, reason="left", now=T0)
    table.do(rules.double, "b", table.now)
    table.do(rules.drop, "a", table.now)  # b wins 1: 2-1 in the match
    table.do(rules.roll, None, (4, 2), table.now)  # game 2 opens
    table.do(rules.play, "a", table.now, notation="8/4 6/4")

    games = format_mat(table.events, BERLIN).split(" Game ")[1:]

    assert [game.splitlines()[1].split() for game in games] == [
        ["anna", ":", "2", "ben", ":", "0"],
        ["anna", ":", "2", "ben", ":", "1"],
    ]


def test_a_match_decided_by_penalty_points_ends_with_the_rest_of_its_length() -> None:
    # rules C-BREAK-2, T-FMT-7: 4 penalty points of 7 decide the match; it is won at its length
    table = Recorder(match_length=7)
    table.do(rules.roll, None, (3, 1), table.now)
    table.do(rules.play, "a", table.now, notation="8/5 6/5")
    table.do(rules.award_penalty, penalty_id=UUID(int=1), side="a", points=4, reason="left", now=T0)

    games = format_mat(table.events, BERLIN).split(" Game ")[1:]

    [game] = games
    assert game.splitlines()[1].split() == ["anna", ":", "0", "ben", ":", "4"]
    assert game.rstrip("\n").endswith(" " * (6 + LEFT_WIDTH) + "Wins 3 points and the match")


def test_names_keep_their_spaces_and_letters_and_lose_only_what_ends_a_name_for_gnubg() -> None:
    assert mat_name("  Kévin   Unger ") == "Kévin Unger"
    assert mat_name("Anna: Maier") == "Anna Maier"  # gnubg reads a name up to its colon
    assert mat_name("Maier, 2") == "Maier 2"  # gnubg reads ", 2" as a rating
    assert mat_name("Maier, Anna") == "Maier, Anna"
    # gnubg keeps 31 bytes of UTF-8: cut at a character's end, never inside one
    assert mat_name("Ö" * 20) == "Ö" * 15
    assert mat_name(":") == "player"


def test_a_long_name_is_followed_by_a_space_before_the_other_side() -> None:
    table = Recorder(player_a="Abcdefghijklmnopqrstuvwxyz01234", player_b="Ben", match_length=15)
    table.game_one_dropped_by_a()
    table.do(rules.award_penalty, penalty_id=UUID(int=1), side="b", points=7, reason="late", now=T0)
    table.do(rules.roll, None, (4, 2), table.now)  # game 2 opens
    table.do(rules.play, "a", table.now, notation="8/4 6/4")

    headers = [line for line in format_mat(table.events, BERLIN).splitlines() if " : " in line]

    assert headers[-1] == " Abcdefghijklmnopqrstuvwxyz01234 : 7 Ben : 1"


def test_a_voided_roll_is_left_out_as_if_it_had_never_been_cast() -> None:
    # rule G-DICE-2: the stream keeps the voided roll; gnubg reads only the roll played
    voided, plain = Recorder(), Recorder()
    for table in (voided, plain):
        table.do(rules.roll, None, (3, 1), table.now)
        table.do(rules.play, "a", table.now, notation="8/5 6/5")
    voided.do(rules.roll, "b", (6, 5), T0)
    voided.do(rules.void_roll, "b", "cocked", T0, director=True)
    for table in (voided, plain):
        table.do(rules.roll, "b", (4, 2), T0)
        table.do(rules.play, "b", T0, notation="8/4 6/4")

    assert any(isinstance(event, rules.RollVoided) for event in voided.events)
    assert format_mat(voided.events, BERLIN) == format_mat(plain.events, BERLIN)


def test_a_voided_roll_that_passed_the_turn_leaves_no_pass_line() -> None:
    # rules G-DICE-2 and G-MAX-1: the pass was the voided roll's only trace in the file
    voided, plain = Table(), Table()
    for table in (voided, plain):
        table.opening(3, 1)
        table.reach("a", board(bar=1, p12=14), CLOSED_BOARD)
    voided.do(rules.roll, side="a", dice=(6, 5))
    voided.do(rules.void_roll, side=None, reason="die off the board", director=True)
    for table in (voided, plain):
        table.do(rules.roll, side="a", dice=(6, 6))

    text = format_mat(voided.events, BERLIN)
    assert "65:" not in text
    assert text == format_mat(plain.events, BERLIN)


def test_a_beaver_and_a_raccoon_are_written_with_the_cube_value_they_name() -> None:
    # rule G-CUBE-3: the doubled side beavers, the doubler raccoons, each in its own column
    table = Recorder(match_length=0, beavers=True)
    table.do(rules.roll, None, (3, 1), table.now)
    table.do(rules.play, "a", table.now, notation="8/5 6/5")
    table.do(rules.double, "b", table.now)
    table.do(rules.beaver, "a", table.now)
    table.do(rules.raccoon, "b", table.now)

    lines = format_mat(table.events, BERLIN).splitlines()

    assert lines[-3:-1] == [
        f"  1) {'31: 8/5 6/5':<{LEFT_WIDTH}} Doubles => 2",
        f"  2) {' Beavers => 4':<{LEFT_WIDTH}} Raccoons => 8",
    ]
