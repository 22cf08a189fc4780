"""The table page of a variant match (API.md "Playing at the table"; rules V-BOARD-1,
V-BOARD-2, V-PLAKOTO-2, V-CUBE-1, V-RESIGN-1, V-TAVLI-MATCH-1): the variant's board from each
side's own numbering, its legal plays as forms, no cube when off, and a Tavli match's games."""

from __future__ import annotations

import re

from api.table.board import BoardPicture, board_svg
from service.clock import MovableClock
from tests.api.test_table_page import Client, table_page
from tests.api.test_table_play import Step, Table, by_form, by_rest, forms, seated
from tests.api.test_tournament_day import start_tournament


def checkers(html: str, side: str) -> dict[int, int]:
    """Side ``side``'s checkers by point, in the numbering the board's labels use."""
    found = re.findall(rf'data-point="(\d+)" data-side="{side}" data-count="(\d+)"', html)
    return {int(point): int(count) for point, count in found}


def test_a_plakoto_table_draws_both_mothers_and_offers_the_legal_plays_as_forms(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2, variant="plakoto")
    table = Table(day, 1)
    html = table_page(client, day, 1)
    # rule V-START-1, V-BOARD-2: side a's 24-point is side b's 1-point, and the other way
    assert checkers(html, "a") == {24: 15}
    assert checkers(html, "b") == {1: 15}
    # each side starts on its own 24 and travels towards its 1 (in side a's numbering)
    assert 'data-direction="a" data-start="24"' in html
    assert 'data-direction="b" data-start="1"' in html
    # rule V-CUBE-1: no cube on the board, in the text or as a form
    assert "data-cube " not in html
    assert "data-no-cube" in html
    assert 'data-game-variant="plakoto"' in html

    # rule V-OPEN-1: the higher die starts and rolls both dice again
    assert by_form(client, table, "a", "roll", {"die1": "5", "die2": "3"}).status_code == 303
    assert by_form(client, table, "a", "roll", {"die1": "6", "die2": "4"}).status_code == 303
    seated(client, table, "a")
    page = table_page(client, day, 1)
    offered = sorted(re.findall(r'name="play" value="([^"]+)"', page))
    legal = client.get(f"/api/v1/matches/{table.match_id}").json()["legal_plays"]
    assert offered == sorted(play["play"] for play in legal)
    assert not forms(page, "cube")
    # rule V-RESIGN-1: single and gammon only
    assert re.findall(r'<option value="(\w+)">', page) == ["single", "gammon"]

    answer = by_form(client, table, "a", "play", {"play": offered[0]})
    assert answer.status_code == 303, answer.text
    state = client.get(f"/api/v1/matches/{table.match_id}").json()
    assert (state["phase"], state["turn"]) == ("roll", "b")
    client.cookies.clear()
    after = table_page(client, day, 1)
    assert sum(checkers(after, "b").values()) == 15
    # the labels follow the side on turn: side b's own numbering, its checkers on its 24
    assert checkers(after, "b") == {24: 15}


def test_a_pinned_checker_is_drawn_under_its_pinner() -> None:
    # rule V-PLAKOTO-2: side b's lone checker on its 20 (side a's 5) pinned by two of side a's
    board_a, board_b = [0] * 25, [0] * 25
    board_a[4], board_a[23] = 2, 13  # side a: its 5 and 24
    board_b[19], board_b[0] = 1, 14  # side b: its 20 and 1
    picture = BoardPicture(
        board_a=board_a,
        board_b=board_b,
        cube=None,  # rule V-CUBE-1: a variant plays without the cube
        dice=None,
        numbering="a",
        title="Plakoto",
        pinned_b=(20,),
        directions=True,
    )
    svg = board_svg(picture)
    assert 'data-point="5" data-side="a" data-count="2" data-pinned="b"' in svg
    point = re.search(r'<g data-point="5".*?</g>', svg)
    assert point is not None
    assert point.group(0).count("<circle") == 3
    assert point.group(0).count("data-pinned-checker") == 1
    assert "data-cube" not in svg


def test_a_fevga_board_has_both_sides_travel_the_same_way_round() -> None:
    # rule V-BOARD-2: side b's point p is side a's p + 12; its 24 is side a's 12
    board_a, board_b = [0] * 25, [0] * 25
    board_a[23], board_b[23] = 15, 15
    picture = BoardPicture(
        board_a=board_a,
        board_b=board_b,
        cube=None,  # rule V-CUBE-1: a variant plays without the cube
        dice=None,
        numbering="a",
        title="Fevga",
        same_direction=True,
        directions=True,
    )
    svg = board_svg(picture)
    assert 'data-point="24" data-side="a" data-count="15"' in svg
    assert 'data-point="12" data-side="b" data-count="15"' in svg
    assert 'data-direction="b" data-start="12"' in svg
    # side a's 24 (top right) runs left along the top; side b's 24 (bottom left) runs right
    assert re.search(r'data-direction="a"[^>]*>\u25c0<', svg)
    assert re.search(r'data-direction="b"[^>]*>\u25b6<', svg)


def test_a_tavli_table_lists_the_games_played_with_their_variants(
    client: Client, clock: MovableClock
) -> None:
    # rule V-TAVLI-MATCH-1: Portes, then Plakoto; the games list shows each finished game
    day = start_tournament(client, clock, 2, variant="tavli", match_length=5)
    table = Table(day, 1)
    steps: list[Step] = [
        ("a", "roll", {"die1": "5", "die2": "3"}),
        ("a", "roll", {"die1": "6", "die2": "4"}),
        ("b", "resign", {"level": "single"}),
        ("a", "accept-resignation", {}),
    ]
    for side, action, inputs in steps:
        assert by_rest(client, table, side, action, inputs).status_code == 200
    html = table_page(client, day, 1)
    rows = re.findall(r'<tr data-game="(\d)" data-variant="(\w+)" data-winner="(\w)"', html)
    assert rows == [("1", "portes", "a")]
    assert 'data-game-variant="plakoto"' in html
    assert checkers(html, "a") == {24: 15}  # the second game: Plakoto's start
    english = client.get(f"{table.url}?lang=en").text
    assert "Games played" in english
    assert "<td>Portes</td>" in english
