"""The public pages: calendar, tournament, standings, bracket and ranking, server-rendered in
German or English with display names only (rule P-PUB-1). Browser checks: tests/browser."""

from __future__ import annotations

from typing import Any, get_args

from litestar.testing import TestClient

from api.pages.pages import TEXT
from domain.tournament import TournamentStatus
from service.clock import MovableClock
from tests.api.test_calendar_feed import season
from tests.api.test_tournament_day import (
    CHECK_IN_OPENS,
    Day,
    pair_next,
    report,
    run_day,
    start_tournament,
)
from tests.api.test_tournaments import advance_to, person, register, schedule
from tests.conftest import DIRECTOR
from tests.mailbox import register_by_mail

Client = TestClient[Any]
UNKNOWN = "00000000-0000-4000-8000-000000000000"


def page(client: Client, path: str, **headers: str) -> str:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert "x-frame-options" not in response.headers  # rule P-PUB-1: a site may embed it
    return response.text


def test_the_season_page_lists_tournaments_with_dates_and_free_seats(client: Client) -> None:
    season_id = season(client)
    spring = schedule(client, season_id=season_id)
    register(client, spring["id"], 1)
    html = page(client, f"/pages/seasons/{season_id}")
    assert "Saison 2026" in html
    assert "Frühlingsturnier 2026" in html
    assert "Sa, 18.04.2026" in html
    assert "19 von 20 Plätzen frei" in html
    assert f"/seasons/{season_id}/calendar.ics" in html


def test_pages_speak_english_by_query_or_accept_language(client: Client) -> None:
    season_id = season(client)
    schedule(client, season_id=season_id)
    assert "20 of 20 seats free" in page(client, f"/pages/seasons/{season_id}?lang=en")
    english = page(client, f"/pages/seasons/{season_id}", **{"Accept-Language": "en-GB,en;q=0.9"})
    assert "20 of 20 seats free" in english
    german = page(client, f"/pages/seasons/{season_id}", **{"Accept-Language": "fr, de;q=0.5"})
    assert "20 von 20 Plätzen frei" in german


def test_the_tournament_page_shows_venue_seats_local_deadlines_and_the_form(client: Client) -> None:
    tournament = schedule(client)
    for number in (1, 2):
        register(client, tournament["id"], number)
    html = page(client, f"/pages/tournaments/{tournament['id']}")
    assert "Amberg" in html
    assert "18 von 20 Plätzen frei" in html
    # rule CAL-3: deadlines in Berlin time
    assert "Do, 16.04.2026, 18:00 Uhr" in html
    assert "Sa, 18.04.2026, 12:30 Uhr" in html
    assert '<form id="register">' in html
    assert f'"/api/v1/tournaments/{tournament["id"]}"' in html
    assert 'url + "/registrations"' in html
    assert "http://" not in html.replace("http://testserver.local", "")  # nothing from a CDN
    # display names only: no e-mail address, no last name
    assert "spieler1@example.org" not in html


def test_the_standings_page_shows_the_round_and_the_standings_by_display_name(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 6)
    for table in day.rounds[0]["pairings"]:
        if table["player_b"]:
            report(client, day, table)
    html = page(client, f"/pages/tournaments/{day.id}/standings")
    rows = client.get(day.url("/standings")).json()
    # each name links to the player's head-to-head (issue 22)
    positions = [html.index(f">{row['display_name']}</a></td>") for row in rows]
    assert positions == sorted(positions)
    assert "Nachname1<" not in html
    assert "Runde 1" in html
    assert f"/api/v1/tournaments/{day.id}/live" in html


def test_the_bracket_page_shows_the_knockout_once_it_is_paired(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4, swiss_rounds=1)
    assert "K.-o.-Runde beginnt nach den Schweizer Runden" in page(
        client, f"/pages/tournaments/{day.id}/bracket"
    )
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    semis = pair_next(client, day)
    for table in semis["pairings"]:
        report(client, day, table)
    pair_next(client, day)
    html = page(client, f"/pages/tournaments/{day.id}/bracket?lang=en")
    assert html.count('class="semi_final"') == 2
    assert "Final" in html
    assert "Third place" in html
    assert html.count(" winner") >= 2


def test_the_ranking_page_shows_its_placeholder_until_results_exist(client: Client) -> None:
    season_id = season(client)
    html = page(client, f"/pages/seasons/{season_id}/ranking")
    assert "sobald das erste Turnier Ergebnisse bringt" in html


def test_unknown_ids_are_404_on_every_page(client: Client) -> None:
    for path in (
        f"/pages/seasons/{UNKNOWN}",
        f"/pages/seasons/{UNKNOWN}/ranking",
        f"/pages/tournaments/{UNKNOWN}",
        f"/pages/tournaments/{UNKNOWN}/standings",
        f"/pages/tournaments/{UNKNOWN}/bracket",
        f"/api/v1/tournaments/{UNKNOWN}/live",
        f"/api/v1/matches/{UNKNOWN}/live",
    ):
        assert client.get(path).status_code == 404, path


def test_names_on_pages_are_escaped(client: Client) -> None:
    tournament = schedule(client, name="<script>alert(1)</script>")
    response = register_by_mail(client, tournament["id"], person(1, first_name="<b>Eve</b>"))
    assert response.status_code == 201
    html = page(client, f"/pages/tournaments/{tournament['id']}")
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


def test_a_tournament_that_has_begun_advertises_no_free_seats(
    client: Client, clock: MovableClock
) -> None:
    # rule P-PUB-1: "N von M Plätzen frei" invites registrations: only while they are possible
    season_id = season(client)
    day = start_tournament(client, clock, 6, season_id=season_id)

    for path in (f"/pages/tournaments/{day.id}", f"/pages/seasons/{season_id}"):
        assert "Plätzen frei" not in page(client, path), path
    feed = client.get(f"/seasons/{season_id}/calendar.ics").text
    assert "Plätzen frei" not in feed


def test_every_tournament_status_has_its_words_in_both_languages() -> None:
    # the season page shows a tournament's status by its word: a missing one would be a 500
    for lang in TEXT:
        for status in get_args(TournamentStatus):
            assert TEXT[lang][f"status_{status}"], (lang, status)


def table_of(html: str, table_id: str) -> str:
    """The HTML of the page's table with that id."""
    start = html.index(f'<table id="{table_id}">')
    return html[start : html.index("</table>", start)]


def test_after_the_knockout_the_standings_show_final_places_apart_from_swiss_ranks(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-4: places 1-4 come from the knockout; the Swiss rank is no place
    # the Swiss ranks 3 and 4 win the semi-finals (side b), so the final places differ
    day = run_day(client, clock, 4, semi_final_winner="b")
    places = [row["display_name"] for row in client.get(day.url("/places")).json()]
    swiss = [row["display_name"] for row in client.get(day.url("/standings")).json()]
    assert places[0] in swiss[2:]
    for path in ("/standings", "/print/standings"):
        html = page(client, f"/pages/tournaments/{day.id}{path}")
        shown = table_of(html, "places")
        assert "Platz" in shown
        assert [shown.index(f">{name}<") for name in places] == sorted(
            shown.index(f">{name}<") for name in places
        )
        ranked = table_of(html, "standings")
        assert "Platz" not in ranked
        assert "Rang" in ranked
        assert html.index('<table id="places">') < html.index('<table id="standings">')


def test_before_the_end_the_standings_show_no_final_places(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    for path in ("/standings", "/print/standings"):
        html = page(client, f"/pages/tournaments/{day.id}{path}")
        assert 'id="places"' not in html
        assert "Rang" in table_of(html, "standings")


def play_a_day_with_refunded_standbys(client: Client, clock: MovableClock) -> Day:
    """4 seats, 6 check in: 4 play, the 2 standbys get no seat and their buy-in back (rules
    T-CHECKIN-2, T-REG-3); the director reports every result until the final is decided."""
    tournament = schedule(client, capacity=4)["id"]
    registered = [register(client, tournament, number) for number in range(1, 7)]
    assert [r["status"] for r in registered] == ["registered"] * 4 + ["waitlisted"] * 2
    advance_to(client, clock, CHECK_IN_OPENS)
    for registration in registered:
        checked_in = client.post(
            f"/api/v1/tournaments/{tournament}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        )
        assert checked_in.status_code == 200, checked_in.text
    day = Day(id=tournament, players={r["player_id"]: r for r in registered})
    started = client.post(day.url("/start"), headers=DIRECTOR).json()
    assert [s["refund_cents"] for s in started["unseated_standbys"]] == [10000, 10000]
    day.rounds.append(started["round"])
    while True:
        for table in day.rounds[-1]["pairings"]:
            if table["player_b"]:
                report(client, day, table)
        paired = client.post(day.url("/rounds"), headers=DIRECTOR)
        if paired.status_code == 409:  # every result is in: the tournament is complete
            break
        day.rounds.append(paired.json())
    assert client.get(day.url()).json()["status"] == "completed"
    return day


def test_a_finished_tournaments_page_shows_its_places_and_no_waitlist_or_live_badge(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-4: the places are the day's outcome; the start closed the waitlist, and a
    # finished tournament changes no more, so nothing on its page is live
    day = play_a_day_with_refunded_standbys(client, clock)
    seats = client.get(day.url("/seats")).json()
    assert seats == {"capacity": 4, "taken": 4, "free": 0, "waitlist": 0, "checked_in": 4}
    places = client.get(day.url("/places")).json()

    html = page(client, f"/pages/tournaments/{day.id}")

    shown = table_of(html, "places")
    names = [f"<td>{p['display_name']}</td>" for p in places]
    assert [shown.index(name) for name in names] == sorted(shown.index(name) for name in names)
    winner = places[0]
    assert f'<tr data-place="1" data-player-id="{winner["player_id"]}" class="winner">' in shown
    assert "Endstand" in html
    assert "beendet" in html
    assert "2 auf der Warteliste" not in html
    assert 'id="waitlist"' not in html
    assert 'id="live"' not in html
    assert "EventSource" not in html
    client.post(day.url("/finalize"), headers=DIRECTOR)
    final = page(client, f"/pages/tournaments/{day.id}?lang=en")
    assert "places confirmed" in final
    assert table_of(final, "places").count("<tr data-place=") == 4
