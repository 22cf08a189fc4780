"""The wallboard page for the venue's big screen: the round, its timer, the tables with live
scores, the tables still to report and the standings, by display name only (rule P-PUB-1).
Its live updates in a browser: tests/browser/test_wallboard.py."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from api.pages.pages import TEXT
from service.clock import MovableClock
from tests.api.test_pages import UNKNOWN, page, play_a_day_with_refunded_standbys, table_of
from tests.api.test_tournament_day import Day, report, start_tournament
from tests.api.test_tournaments import person, schedule

Client = TestClient[Any]
TABLE_STATUSES = ("pending", "playing", "awaiting_confirmation", "disputed", "decided", "bye")


def wallboard(client: Client, day: Day, query: str = "", **headers: str) -> str:
    return page(client, f"/pages/tournaments/{day.id}/wallboard{query}", **headers)


def rows_of(html: str, table_id: str, attribute: str) -> list[str]:
    """The values of ``attribute`` on the rows of the page's table with that id, in order."""
    return re.findall(rf'<tr {attribute}="([^"]*)"', table_of(html, table_id))


def test_the_wallboard_shows_the_round_its_timer_and_each_tables_score(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 7)  # three tables and a bye
    tables = day.rounds[0]["pairings"]
    played = next(t for t in tables if t["player_b"])
    result = report(client, day, played)
    clock.advance(12 * 60 + 5)

    html = wallboard(client, day)

    assert 'data-round="1"' in html
    assert "Runde 1" in html
    assert ">12:05</span>" in html  # the round timer, from the pairing on
    shown = table_of(html, "tables")
    assert rows_of(html, "tables", "data-match-id") == [t["match_id"] or "" for t in tables]
    for table in tables:
        assert f'data-table="{table["table"]}"' in shown
        assert table["player_a_name"] in shown
        if table["player_b"]:
            assert table["player_b_name"] in shown
    row = shown[shown.index(f'data-match-id="{played["match_id"]}"') :]
    row = row[: row.index("</tr>")]
    assert f"{result['points_a']} : {result['points_b']}" in row
    assert "fertig" in row
    assert "spielfrei" in shown


def test_the_wallboard_names_the_tables_still_to_report(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 6)
    first, *others = day.rounds[0]["pairings"]
    report(client, day, first)
    html = wallboard(client, day)
    still = re.search(r'<p id="to-report">(.*?)</p>', html)
    assert still is not None
    numbers = re.findall(r'<span data-table="(\d+)">', still.group(1))
    assert numbers == [str(t["table"]) for t in others]
    for table in others:
        report(client, day, table)
    assert "Alle Ergebnisse sind da." in wallboard(client, day)


def test_the_wallboard_shows_the_standings_in_their_order_by_display_name(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 6)
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    html = wallboard(client, day)
    standings = client.get(day.url("/standings")).json()
    assert rows_of(html, "standings", "data-player-id") == [s["player_id"] for s in standings]
    shown = table_of(html, "standings")
    positions = [shown.index(f"<td>{s['display_name']}</td>") for s in standings]
    assert positions == sorted(positions)


def test_the_wallboard_shows_no_personal_data(client: Client, clock: MovableClock) -> None:
    # rule P-PUB-1: display names only; no e-mail, surname, age, token, payment or ID check
    day = start_tournament(client, clock, 6)
    report(client, day, day.rounds[0]["pairings"][0])
    html = wallboard(client, day) + wallboard(client, day, "?lang=en")
    for number, registration in enumerate(day.players.values(), start=1):
        someone = person(number)
        assert someone["email"] not in html
        assert someone["last_name"] not in html
        assert registration["player_token"] not in html
        assert registration["registration_id"] not in html
    shown = re.sub(r"<(style|script)>.*?</\1>", "", html, flags=re.DOTALL)  # what people read
    assert "@" not in shown
    for word in ("age", "Alter", "birth", "Geburt", "token", "10000", "100,00", "id_document"):
        assert not re.search(rf"\b{word}\b", shown), word


def test_the_wallboard_speaks_english_by_query_or_accept_language(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    for english in (
        wallboard(client, day, "?lang=en"),
        wallboard(client, day, **{"Accept-Language": "en-GB,en;q=0.9"}),
    ):
        assert "Round 1" in english
        assert "Still to report" in english
        assert '<html lang="en">' in english
    german = wallboard(client, day)
    assert "Noch zu melden" in german
    assert '<html lang="de">' in german


def test_the_wallboard_listens_to_the_tournaments_live_stream_and_loads_nothing_from_elsewhere(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    html = wallboard(client, day)
    assert f'new EventSource("/api/v1/tournaments/{day.id}/live")' in html
    for event in ("pairings", "result", "standings", "status"):
        assert f'"{event}"' in html
    assert 'id="live"' in html
    for elsewhere in ("http://", "https://", "<link", "<script src"):  # no CDN, no web font
        assert elsewhere not in html, elsewhere


def test_before_the_start_the_wallboard_says_the_round_is_to_come(client: Client) -> None:
    tournament = schedule(client)
    html = page(client, f"/pages/tournaments/{tournament['id']}/wallboard")
    assert "Die erste Runde erscheint, sobald das Turnier beginnt." in html
    assert "<tr data-match-id" not in html


def test_after_the_knockout_the_wallboard_shows_the_final_places(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-4: places 1-4 from the knockout, not the Swiss ranks
    day = play_a_day_with_refunded_standbys(client, clock)
    places = client.get(day.url("/places")).json()
    html = wallboard(client, day)
    assert "Endstand" in html
    assert rows_of(html, "standings", "data-player-id") == [p["player_id"] for p in places]
    shown = table_of(html, "standings")
    assert re.findall(r'data-place="(\d+)"', shown) == [str(p["place"]) for p in places]


def test_an_unknown_tournament_has_no_wallboard(client: Client) -> None:
    assert client.get(f"/pages/tournaments/{UNKNOWN}/wallboard").status_code == 404


def test_every_table_status_has_its_words_in_both_languages() -> None:
    # the board shows a table's status by its word: a missing one would be a 500
    for lang in TEXT:
        for status in TABLE_STATUSES:
            assert TEXT[lang][f"table_{status}"], (lang, status)
