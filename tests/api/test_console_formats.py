"""The director's pages for a round robin and an elimination over HTTP: the round page shows
Berger numbers, brackets, seeds and the consolation in the page's language; the fixed schedule
refuses a pairing by hand and a late entry in words, never with a 500; the desk pays both pots
(rules T-FMT-10..14; API.md "Formats", "Pages for people").
Browser check: tests/browser/test_console_formats.py."""

from __future__ import annotations

import re
from typing import Any

import pytest
from litestar.testing import TestClient

from api.console.round_texts import explanation_in
from service.clock import MovableClock
from tests.api.test_console import desk, signed_in
from tests.api.test_console_desk import registrations, row_with, submit
from tests.api.test_console_rounds import round_page, round_url, row_of
from tests.api.test_tournament_day import Day, pair_next, report, standings, start_tournament

Client = TestClient[Any]
SWISS_WORDS = re.compile(r"Schweizer|Swiss|swiss_rounds|Buchholz")


def play_round(client: Client, day: Day) -> None:
    for table in day.rounds[-1]["pairings"]:
        if table["match_id"] is not None:
            report(client, day, table)


def test_a_round_robins_round_page_shows_the_berger_numbers_and_the_rest(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-11: five players, numbers 1..5 fixed at the start, number 6 is the rest
    day = start_tournament(client, clock, 5, format="round_robin")
    signed_in(client)
    page = round_page(client, day, 1)
    assert "Spieler (Berger-Nummer)" in page
    assert "Jeder gegen jeden" in page
    for table in day.rounds[0]["pairings"]:
        row = row_of(page, table["match_id"] or "")
        assert f'data-seed="{table["seed_a"]}"' in row
        assert explanation_in("de", table["explanation"]) in row
        if table["player_b"]:
            assert f'data-seed="{table["seed_b"]}"' in row
            assert "Berger-Tabelle, Durchgang 1: Nummer" in row
        else:
            assert "hat diese Runde spielfrei (kein Sieg, keine Punkte)" in row
    assert not SWISS_WORDS.search(page)
    assert 'data-action="override-pairings"' not in page  # API.md: the schedule is fixed
    english = round_page(client, day, 1, "?lang=en")
    assert "Players (Berger number)" in english
    assert "Berger table, cycle 1: number" in english
    assert "places are fixed after the last round" in desk(client, day.id, "?lang=en").text
    wallboard = client.get(f"/pages/tournaments/{day.id}/wallboard").text
    assert "Jeder gegen jeden" in wallboard
    assert not SWISS_WORDS.search(wallboard)  # no Buchholz column in a round robin


def test_an_eliminations_round_page_shows_seeds_brackets_and_the_consolation(
    client: Client, clock: MovableClock
) -> None:
    # rules T-FMT-12, T-FMT-13: eight players; round 2 holds the semi-finals and consolation
    # round 1 of the four round-1 losers
    day = start_tournament(client, clock, 8, format="elimination")
    signed_in(client)
    first = round_page(client, day, 1)
    assert "K.-o.-System" in first
    assert "Spieler (Setzplatz)" in first
    seeds = [(t["seed_a"], t["seed_b"]) for t in day.rounds[0]["pairings"]]
    assert seeds == [(1, 8), (4, 5), (2, 7), (3, 6)]
    for table in day.rounds[0]["pairings"]:
        row = row_of(first, table["match_id"])
        assert "Hauptfeld, Runde 1" in row
        assert f'data-seed="{table["seed_a"]}"' in row
        assert f'data-seed="{table["seed_b"]}"' in row
        assert f"Setzplatz {table['seed_a']} gegen Setzplatz {table['seed_b']}" in row
    play_round(client, day)
    second = pair_next(client, day)
    page = round_page(client, day, 2)
    stages = [(t["stage"], t["bracket"]) for t in second["pairings"]]
    assert stages == [("semi_final", "main")] * 2 + [("consolation", "consolation")] * 2
    for table in second["pairings"]:
        row = row_of(page, table["match_id"])
        if table["bracket"] == "consolation":
            assert 'data-bracket="consolation"' in row
            assert "Trostrunde, Runde 1" in row
            assert "Trostrunde, Runde 1, Spiel" in row  # the explanation, in German
        else:
            assert ">Halbfinale<" in row
    assert not SWISS_WORDS.search(page)
    assert "Consolation, round 1" in round_page(client, day, 2, "?lang=en")
    assert "places are fixed after the finals" in desk(client, day.id, "?lang=en").text


@pytest.mark.parametrize("format_name", ["round_robin", "elimination"])
def test_a_fixed_schedule_refuses_a_pairing_by_hand_in_words(
    client: Client, clock: MovableClock, format_name: str
) -> None:
    # API.md "Formats": an override is 409 format-fixed-schedule; the page says why, in German
    day = start_tournament(client, clock, 4, format=format_name)
    signed_in(client)
    page = round_page(client, day, 1)
    tables = day.rounds[0]["pairings"]
    swapped = {f"a_{n}": t["player_b"] or "" for n, t in enumerate(tables, start=1)} | {
        f"b_{n}": t["player_a"] for n, t in enumerate(tables, start=1)
    }
    form = {"_csrf_token": re.findall(r'name="_csrf_token" value="([^"]+)"', page)[0]}
    answer = client.post(
        f"{round_url(day, 1)}/pairings", data={**form, **swapped, "reason": "Wunsch"}
    )
    assert answer.status_code == 409, answer.text
    assert "festgelegten Plan: keine Nachzügler und keine Paarungen von Hand" in answer.text
    assert [(t["player_a"], t["player_b"]) for t in day.rounds[0]["pairings"]] == [
        (t["player_a"], t["player_b"]) for t in client.get(day.url("/rounds/1")).json()["pairings"]
    ]  # nothing stored
    english = client.post(
        f"{round_url(day, 1)}/pairings?lang=en", data={**form, **swapped, "reason": "wish"}
    )
    assert english.status_code == 409
    assert "plays a schedule fixed at the start" in english.text


@pytest.mark.parametrize("format_name", ["round_robin", "elimination"])
def test_a_fixed_schedule_shows_a_late_registration_without_admitting_it(
    client: Client, clock: MovableClock, format_name: str
) -> None:
    # rules T-FMT-11, T-FMT-12: late entries are refused; the desk says so instead of a button
    day = start_tournament(client, clock, 4, format=format_name)
    signed_in(client)
    registered = submit(
        client,
        day.id,
        "/registrations",
        first_name="Lena",
        last_name="Spät",
        email="lena@example.org",
        age="33",
    )
    assert registered.status_code == 303, registered.text
    late = next(r for r in registrations(client, day.id) if r["email"] == "lena@example.org")
    page = client.get(registered.headers["location"]).text
    row = row_with(page, "data-registration-id", late["registration_id"])
    assert 'data-action="late-entry"' not in row
    assert "Nachzügler spielen nicht mit" in page
    # a late-entry form sent anyway (an old page): refused in words, nothing stored
    answer = submit(client, day.id, f"/registrations/{late['registration_id']}/late-entry")
    assert answer.status_code == 409, answer.text
    assert "keine Nachzügler und keine Paarungen von Hand" in answer.text
    assert late["player_id"] not in {row["player_id"] for row in standings(client, day)}


def test_the_desk_pays_an_eliminations_main_and_consolation_places(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-14: a consolation payout's place is the consolation place; the desk shows it
    # beside the main place's prize, never in its stead
    day = start_tournament(client, clock, 8, format="elimination")
    signed_in(client)
    while client.get(day.url()).json()["status"] != "completed":
        play_round(client, day)
        if client.get(day.url()).json()["status"] != "completed":
            pair_next(client, day)
    prizes = client.get(day.url("/prizes")).json()
    main = {p["place"]: p["amount_cents"] for p in prizes["payouts"] if p["bracket"] == "main"}
    consolation = {
        p["player_id"]: (p["place"], p["amount_cents"])
        for p in prizes["payouts"]
        if p["bracket"] == "consolation"
    }
    page = desk(client, day.id).text
    rows = re.findall(r'<tr data-place="(\d+)" data-player-id="([^"]+)">.*?</tr>', page, re.DOTALL)
    assert [int(place) for place, _ in rows] == list(range(1, 9))
    for place, player in rows:
        row = row_with(page, "data-place", place)
        cells = re.findall(r'<td class="num[^"]*"[^>]*>([^<]*)</td>', row)
        amount = main.get(int(place), 0)
        assert cells[1] == (f"{amount // 100},{amount % 100:02d}" if amount else "")
        if player in consolation:
            won, cents = consolation[player]
            assert cells[2] == f"{won}.: {cents // 100},{cents % 100:02d}"
        else:
            assert cells[2] == ""
    assert len(consolation) == 2


def test_an_elimination_refuses_a_correction_once_the_next_round_is_paired_in_words(
    client: Client, clock: MovableClock
) -> None:
    # API.md "Formats": the next bracket round was paired from the result: 409, unpair first
    day = start_tournament(client, clock, 4, format="elimination")
    signed_in(client)
    play_round(client, day)
    pair_next(client, day)
    table = day.rounds[0]["pairings"][0]
    before = client.get(day.url("/matches")).json()
    page = round_page(client, day, 1)
    form = {
        "_csrf_token": re.findall(r'name="_csrf_token" value="([^"]+)"', page)[0],
        "match_id": table["match_id"],
        "winner": table["player_b"],
        "points_a": "0",
        "points_b": str(table["match_length"]),
        "corrects": next(m["result_id"] for m in before if m["match_id"] == table["match_id"]),
        "reason": "Zettel vertauscht",
    }
    answer = client.post(f"{round_url(day, 1)}/results", data=form, follow_redirects=False)
    assert answer.status_code == 409, answer.text
    assert "Runde 2 ist aus diesem Ergebnis ausgelost: erst Runde 2 zurücknehmen" in row_of(
        answer.text, table["match_id"]
    )
    assert client.get(day.url("/matches")).json() == before  # nothing stored


def test_the_note_on_a_match_of_two_leavers_reads_in_german_on_the_round_page() -> None:
    # rules T-FMT-5, T-FMT-12: the bracket's wording and the note that the director decides
    # the match of two players who both left, both in the page's language
    explanation = (
        "main bracket, round 2, match 1: seed 1 v seed 4; both players have left the "
        "tournament: the director records who goes through"
    )
    german = explanation_in("de", explanation)
    assert german == (
        "Hauptfeld, Runde 2, Spiel 1: Setzplatz 1 gegen Setzplatz 4; beide Spieler haben das "
        "Turnier verlassen: der Turnierleiter trägt ein, wer weiterkommt"
    )
