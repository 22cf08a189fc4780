"""The printouts the desk links to (``/pages/tournaments/{id}/print/...``) speak the reader's
language as the other pages do: German by default, English with ``?lang=en`` or
``Accept-Language: en`` (API.md "Pages for people"). Browser check:
tests/browser/test_pages_words_and_scores.py."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import signed_in
from tests.api.test_tournament_day import start_tournament

Client = TestClient[Any]
PRINTOUTS = ("pairings?by=table", "pairings?by=name", "slips", "standings")
ENGLISH = {
    "pairings?by=table": ("Pairings round 1", "Table", "Player A", "Swiss round", "Bye"),
    "pairings?by=name": ("Pairings round 1", "Name", "Table", "Opponent"),
    "slips": ("Result slips round 1", "Table", "points", "Winner", "Signature", "Print"),
    "standings": ("Standings", "Rank", "Wins", "Points", "Matches"),
}
GERMAN = {
    "pairings?by=table": ("Paarungen Runde 1", "Tisch", "Spieler A", "Schweizer Runde", "Freilos"),
    "pairings?by=name": ("Paarungen Runde 1", "Name", "Tisch", "Gegner"),
    "slips": ("Ergebniszettel Runde 1", "Tisch", "Punkte", "Sieger", "Unterschrift", "Drucken"),
    "standings": ("Tabelle", "Rang", "Siege", "Punkte", "Spiele"),
}


def printout(client: Client, day_id: str, name: str, query: str = "", **headers: str) -> Any:
    joined = "&" if "?" in name else "?"
    url = f"/pages/tournaments/{day_id}/print/{name}" + (joined + query if query else "")
    answer = client.get(url, headers=headers)
    assert answer.status_code == 200, answer.text
    return answer


@pytest.mark.parametrize("name", PRINTOUTS)
def test_a_printout_speaks_english_with_lang_en_or_accept_language_en(
    client: Client, clock: MovableClock, name: str
) -> None:
    day = start_tournament(client, clock, 7)  # three tables and a bye
    for english in (
        printout(client, day.id, name, "lang=en"),
        printout(client, day.id, name, **{"Accept-Language": "en-GB,en;q=0.9"}),
    ):
        assert '<html lang="en">' in english.text
        assert english.headers["content-language"] == "en"
        for word in ENGLISH[name]:
            assert word in english.text, word
        for word in ("Runde", "Tisch", "Unterschrift", "Drucken", "Freilos"):
            assert word not in english.text, word


@pytest.mark.parametrize("name", PRINTOUTS)
def test_a_printout_stays_german_by_default_and_with_lang_de(
    client: Client, clock: MovableClock, name: str
) -> None:
    day = start_tournament(client, clock, 7)
    for german in (
        printout(client, day.id, name),
        printout(client, day.id, name, "lang=de", **{"Accept-Language": "en"}),
    ):
        assert '<html lang="de">' in german.text
        assert german.headers["content-language"] == "de"
        for word in GERMAN[name]:
            assert word in german.text, word


def test_the_english_desk_links_to_the_english_printouts(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    desk = client.get(f"/director/tournaments/{day.id}?lang=en").text
    link = f'href="/pages/tournaments/{day.id}/print/pairings?by=name&amp;lang=en"'
    assert link in desk
    english = client.get(f"/pages/tournaments/{day.id}/print/pairings?by=name&lang=en").text
    assert "Pairings round 1" in english
