"""A German page says a use case's refusal in German, an English page in English (API.md
"Pages for people"): the common refusals of a club day, on the round page, the desk and the
table page. The REST API keeps its English ``detail``. Browser check:
tests/browser/test_pages_words_and_scores.py."""

from __future__ import annotations

import html as html_escape
import re
import uuid
from typing import Any

import pytest
from litestar.testing import TestClient

from api.console.refusals import in_words
from service.clock import MovableClock
from tests.api.test_console import csrf_of, signed_in
from tests.api.test_console_desk import row_with, submit
from tests.api.test_console_rounds import (
    override_form,
    result_form,
    round_page,
    round_url,
    row_of,
    tables,
)
from tests.api.test_table_page import hidden as hidden_of
from tests.api.test_table_page import pairing, report_form
from tests.api.test_table_page import signed_in as player_signed_in
from tests.api.test_table_play import Table, seated, the_form
from tests.api.test_tournament_day import report, start_tournament
from tests.api.test_tournaments import schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
ENGLISH_WORDS = re.compile(r"\b(the|is|has|must|of|already|cannot|round|match)\b")


def refusal(html: str) -> str:
    """The first refusal the page shows (``data-error``), as people read it."""
    found = re.search(r"data-error[^>]*>([^<]+)<", html)
    assert found is not None, "the page shows a refusal"
    return html_escape.unescape(found.group(1))


@pytest.mark.parametrize(
    ("kind", "detail", "german"),
    [
        # rule T-FMT-7: the winner reaches the match length, the loser stays below it
        ("invalid-input", "the winner of a 7-point match has at least that", "mindestens 7"),
        ("invalid-input", "the loser of a 7-point match has less than that", "weniger als 7"),
        ("invalid-input", "must be between 0 and 999", "von 0 bis 999"),
        ("invalid-input", "a valid ID document must be seen", "Ausweis"),
        ("invalid-input", "the buy-in is 10000 cents, not 5000", "100,00 €"),
        ("invalid-input", "is not an e-mail address", "E-Mail-Adresse"),
        ("invalid-input", "a player is paired twice", "zweimal"),
        ("invalid-input", "at most one bye", "Freilos"),
        ("invalid-input", "must not be empty", "ausfüllen"),
        ("invalid-input", "at most 500 characters", "500 Zeichen"),
        ("results-missing", "round 2 still needs the results of table(s) 1, 3", "Tisch 1, 3"),
        ("all-rounds-paired", "every round of this tournament is paired", "ausgelost"),
        ("result-recorded", "match 1f0e has its result already", "schon ein Ergebnis"),
        (
            "result-recorded",
            "match 1f0e has its result (9a2b); to correct it, name that result in corrects",
            "schon ein Ergebnis",
        ),
        ("round-locked", "round 3 has a result already", "Runde 3"),
        ("round-locked", "round 2 is not the latest round", "Runde 2"),
        ("tournament-state", "the tournament has not started", "noch nicht begonnen"),
        ("tournament-state", "the tournament is completed", "beendet"),
        ("tournament-state", "the tournament has already started", "schon begonnen"),
        ("tournament-state", "1 player(s) checked in; at least 2 are needed", "mindestens 2"),
        ("tournament-state", "only a completed tournament is finalized", "beendetes Turnier"),
        ("tournament-state", "the player is excluded already", "ausgeschlossen"),
        ("check-in-closed", "check-in closed when the tournament started", "Check-in"),
        ("places-not-final", "places are fixed when the tournament is completed", "Plätze"),
        ("wrong-phase", "cannot roll now: side a has rolled and must play", "gerade nicht"),
        ("not-your-turn", "it is side a's turn, not side b's", "am Zug"),
        ("match-over", "the match is over: nothing more can be recorded", "zu Ende"),
        ("illegal-play", "illegal play: 24/1: no move leads from 24 to 1 (G-LEGAL-1)", "Zug"),
        ("stale-version", "the match is at version 9, not 8 (If-Match)", "neu"),
        # the desk's register form (rule T-REG-1)
        ("under-age", "participants must be at least 18 on 2026-04-18", "18.04.2026"),
        (
            "under-age",
            "participants must be at least 18 on 2026-04-18; if you turn 18 by then, give "
            "birth_date instead",
            "Geburtsdatum",
        ),
        ("invalid-input", "2031-01-01 lies in the future", "01.01.2031"),
        ("invalid-input", "1890-01-01 is not plausible", "01.01.1890"),
        ("invalid-input", "does not match birth_date 1990-05-01 (35 on the play date)", "35"),
        ("invalid-input", "2000-04-31 does not exist: April 2000 has 30 days", "30 Tage"),
        ("invalid-input", "2000-13-01 does not exist: there is no month 13", "Monat 13"),
        ("invalid-input", "'gestern' is not a date; use YYYY-MM-DD", "„gestern“"),
        ("invalid-input", "write the part after the @ without comments or the characters ( )", "@"),
        (
            "invalid-input",
            "must not contain invisible format characters (e.g. text direction marks)",
            "unsichtbare",
        ),
        ("invalid-input", "must not contain control characters or line breaks (U+000A)", "U+000A"),
        # the round page's pairing override (rule T-FMT-2)
        ("invalid-input", "not in this round's field: 1f0e", "neu laden"),
        ("invalid-input", "every active player once; missing: 1f0e, 9a2b", "2 Spieler"),
        # move notation at the table (rule G-LEGAL-1)
        ("invalid-input", "'24/x': 'x' at column 4 is not a point (1-24, bar or off)", "„x“"),
        ("invalid-input", "'24/': '24/' ends with '/', a point must follow", "Punkt"),
        (
            "invalid-input",
            "cannot read '24-18': steps read 'from/to', 'bar/to' or 'from/off'",
            "24-18",
        ),
        # a desk row drawn before the registration changed (rule T-CANCEL-1)
        ("tournament-state", "the registration is checked in", "eingecheckt"),
        ("tournament-state", "the registration is withdrawn", "zurückgezogen"),
        (
            "tournament-state",
            "the tournament is running: record a withdrawal instead of a cancellation",
            "Rückzug",
        ),
        # the break list (rule C-BREAK-2)
        ("not-found", "no round is paired yet", "keine Runde"),
        ("not-found", "round 2 has no table 9", "Tisch 9"),
        # a player excluded from the tournament reports (rule C-EXCL-1)
        (
            "forbidden",
            "the player is excluded from this tournament (C-EXCL-1): their reports no longer count",
            "ausgeschlossen",
        ),
    ],
)
def test_a_common_refusal_reads_in_german_on_a_german_page_and_as_sent_on_an_english_one(
    kind: str, detail: str, german: str
) -> None:
    said = in_words(kind, detail, "de")
    assert german in said
    assert not ENGLISH_WORDS.search(said), said
    assert in_words(kind, detail, "en") == detail


def test_a_result_short_of_the_match_length_is_refused_in_german_next_to_its_field(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-7
    day = start_tournament(client, clock, 4)
    signed_in(client)
    table = tables(day, 1)[0]
    length = table["match_length"]
    url = f"{round_url(day, 1)}/results"
    short = client.post(url, data=result_form(round_page(client, day, 1), table, "a", points_a="3"))
    assert short.status_code == 422
    row = row_of(short.text, table["match_id"])
    assert f'id="result:{table["match_id"]}-points_a-error"' in row
    assert refusal(row) == f"Der Sieger eines Matches auf {length} Punkte hat mindestens {length}."
    english = client.post(
        url + "?lang=en",
        data=result_form(round_page(client, day, 1, "?lang=en"), table, "a", points_a="3"),
    )
    assert refusal(row_of(english.text, table["match_id"])) == (
        f"the winner of a {length}-point match has at least that"
    )


def test_pairing_while_results_are_missing_names_the_tables_in_german(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 6)
    signed_in(client)
    first, *others = tables(day, 1)
    report(client, day, first)
    answer = client.post(
        f"/director/tournaments/{day.id}/rounds",
        data={"_csrf_token": csrf_of(round_page(client, day, 1))},
    )
    assert answer.status_code == 409
    numbers = ", ".join(str(t["table"]) for t in others)
    assert refusal(answer.text) == f"Runde 1 braucht noch die Ergebnisse von Tisch {numbers}."
    rest = client.post(day.url("/rounds"), headers=DIRECTOR).json()
    assert rest["detail"] == f"round 1 still needs the results of table(s) {numbers}"


def test_a_result_entered_from_a_stale_page_says_in_german_that_it_has_one(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    table = tables(day, 1)[0]
    stale = round_page(client, day, 1)
    report(client, day, table)  # entered meanwhile, on another device
    answer = client.post(f"{round_url(day, 1)}/results", data=result_form(stale, table, "a"))
    assert answer.status_code == 409
    assert refusal(row_of(answer.text, table["match_id"])).startswith(
        "Diese Partie hat schon ein Ergebnis"
    )


def test_a_check_in_without_the_id_document_is_refused_in_german(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    late = submit(
        client,
        day.id,
        "/registrations",
        first_name="Lena",
        last_name="Spät",
        email="lena@example.org",
        age="30",
    )
    assert late.status_code == 303, late.text
    registration = next(
        r
        for r in client.get(day.url("/registrations"), headers=DIRECTOR).json()
        if r["email"] == "lena@example.org"
    )
    url = f"/registrations/{registration['registration_id']}/late-entry"
    unseen = submit(client, day.id, url, buy_in_paid="100")
    assert unseen.status_code == 422
    row = row_with(
        unseen.text, "data-registration-id", registration["registration_id"], "late-entry"
    )
    assert refusal(row) == "Bitte den Ausweis ansehen: ohne gültigen Ausweis kein Check-in."


def test_a_players_report_short_of_the_match_length_is_refused_in_german(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    length = table["match_length"]
    player_signed_in(client, day, table["player_a"])
    answer = report_form(client, day, 1, table["player_a"], 2, 1)
    assert answer.status_code == 422
    assert refusal(answer.text) == (
        f"Der Sieger eines Matches auf {length} Punkte hat mindestens {length}."
    )


def test_a_players_report_after_the_directors_result_is_refused_in_german(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)  # a second table: the tournament goes on
    table = pairing(day, 1)
    player_signed_in(client, day, table["player_a"])
    page = client.get(f"/pages/tournaments/{day.id}/tables/1").text
    report(client, day, table)
    form = re.search(r'<form[^>]*data-action="report".*?</form>', page, re.DOTALL)
    assert form is not None
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form[0]))
    answer = client.post(
        f"/pages/tournaments/{day.id}/tables/1/report",
        data={**hidden, "winner": table["player_a"], "points_a": table["match_length"]}
        | {"points_b": "0"},
    )
    assert answer.status_code == 409
    assert refusal(answer.text).startswith("Diese Partie hat schon ein Ergebnis")


def test_a_roll_sent_twice_at_the_table_is_refused_in_german(
    client: Client, clock: MovableClock
) -> None:
    # a double tap: the form carries the version it was drawn at, as If-Match
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    seated(client, table, "a")
    form = the_form(client.get(table.url).text, "roll", "a")
    sent = {**hidden_of(form), "die1": "6", "die2": "1"}
    assert client.post(f"{table.url}/roll", data=sent, follow_redirects=False).status_code == 303
    again = client.post(f"{table.url}/roll", data=sent, follow_redirects=False)
    assert again.status_code == 409
    assert refusal(again.text) == "Jemand war schneller: die Seite zeigt jetzt den neuen Stand."
    english = client.post(f"{table.url}/roll?lang=en", data=sent, follow_redirects=False)
    assert refusal(english.text).startswith("the match is at version")


# The desk's register form: age and birth date (rule T-REG-1) ---------------------------------


@pytest.mark.parametrize(
    ("typed", "german"),
    [
        (
            {"age": "12", "birth_date": ""},
            "Teilnehmen kann nur, wer am 18.04.2026 mindestens 18 Jahre alt ist (Regel T-REG-1). "
            "Wer es bis dahin wird: bitte das Geburtsdatum angeben.",
        ),
        (
            {"age": "", "birth_date": "01.05.2010"},
            "Teilnehmen kann nur, wer am 18.04.2026 mindestens 18 Jahre alt ist (Regel T-REG-1).",
        ),
        (
            {"age": "", "birth_date": "31.02.1990"},
            "Den „31.02.1990“ gibt es nicht: dieser Monat hat 28 Tage.",
        ),
        (
            {"age": "", "birth_date": "01.01.1890"},
            "„01.01.1890“: das Jahr liegt zwischen 1900 und 2999.",
        ),
        (
            {"age": "", "birth_date": "01.01.2031"},
            "Das Geburtsdatum 01.01.2031 liegt nach dem Turniertag 18.04.2026.",
        ),
    ],
)
def test_an_age_or_birth_date_the_desk_refuses_is_said_in_german_and_in_english_on_the_english_desk(
    client: Client, typed: dict[str, str], german: str
) -> None:
    tournament = schedule(client)  # 2026-04-18, from 18 (rule T-REG-1)
    signed_in(client)
    form = {"first_name": "Anna", "last_name": "Muster", "email": "anna@example.org", **typed}
    answer = submit(client, tournament["id"], "/registrations", **form)
    assert answer.status_code == 422
    assert refusal(answer.text) == german
    english = client.post(
        f"/director/tournaments/{tournament['id']}/registrations?lang=en",
        data={"_csrf_token": csrf_of(answer.text), **form},
        follow_redirects=False,
    )
    assert english.status_code == 422
    assert not re.search("Geburtsdatum|Teilnehmen|gibt es nicht", refusal(english.text))


# The round page's pairing override (rule T-FMT-2) -------------------------------------------


def test_an_override_naming_a_player_not_in_the_round_is_refused_in_german(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    (one, two) = tables(day, 1)
    page = round_page(client, day, 1)
    stranger = str(uuid.uuid4())
    pairings = [(one["player_a"], stranger), (two["player_a"], two["player_b"])]
    answer = client.post(
        f"{round_url(day, 1)}/pairings", data=override_form(page, pairings, "Tischwunsch")
    )
    assert answer.status_code == 422
    assert refusal(answer.text) == (
        "Die Paarung nennt Spieler, die in dieser Runde nicht spielen: bitte die Seite neu laden."
    )
    left_out = client.post(
        f"{round_url(day, 1)}/pairings",
        data=override_form(page, [(one["player_a"], one["player_b"])], "nur einer"),
    )
    assert refusal(left_out.text) == (
        "Jeder aktive Spieler kommt genau einmal vor; es fehlen 2 Spieler."
    )
    english = client.post(
        f"{round_url(day, 1)}/pairings?lang=en",
        data=override_form(page, pairings, "table wish"),
    )
    assert refusal(english.text) == f"not in this round's field: {stranger}"


# Move notation typed at the table (rule G-LEGAL-1) -------------------------------------------


def test_a_play_that_is_no_move_notation_is_refused_in_german(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = Table(day, 1)
    seated(client, table, "a")
    rolled = the_form(client.get(table.url).text, "roll", "a")
    dice = {**hidden_of(rolled), "die1": "4", "die2": "1"}
    assert client.post(f"{table.url}/roll", data=dice, follow_redirects=False).status_code == 303
    form = the_form(client.get(table.url).text, "play", "a")
    sent = {**hidden_of(form), "play": "24/x"}
    answer = client.post(f"{table.url}/play", data=sent, follow_redirects=False)
    assert answer.status_code == 422
    assert refusal(answer.text) == (
        "„x“ in „24/x“ ist kein Punkt (1 bis 24, bar, off). Ein Zug lautet etwa 24/18 13/9."
    )
    english = client.post(f"{table.url}/play?lang=en", data=sent, follow_redirects=False)
    assert refusal(english.text).startswith("'24/x': 'x' at column 4")


# The desk's late-entry row, sent from a page drawn before the registration was cancelled -----


def test_cancelling_a_late_registration_cancelled_meanwhile_is_refused_in_german(
    client: Client, clock: MovableClock
) -> None:
    # rule T-CANCEL-1: cancelled on another device, the desk's row is stale
    day = start_tournament(client, clock, 4)
    signed_in(client)
    late = submit(
        client,
        day.id,
        "/registrations",
        first_name="Lena",
        last_name="Spät",
        email="lena@example.org",
        age="30",
    )
    assert late.status_code == 303, late.text
    registration = next(
        r
        for r in client.get(day.url("/registrations"), headers=DIRECTOR).json()
        if r["email"] == "lena@example.org"
    )
    rid = registration["registration_id"]
    assert client.delete(day.url(f"/registrations/{rid}"), headers=DIRECTOR).status_code == 200
    answer = submit(client, day.id, f"/registrations/{rid}/cancel-late-entry")
    assert answer.status_code == 409
    assert refusal(answer.text) == "Die Anmeldung ist bereits abgemeldet."
    rest = client.delete(day.url(f"/registrations/{rid}"), headers=DIRECTOR)
    assert rest.json()["detail"] == "the registration is cancelled"


def test_an_e_mail_address_with_a_comment_after_the_at_is_refused_in_german(
    client: Client,
) -> None:
    tournament = schedule(client)
    signed_in(client)
    form = {"first_name": "Anna", "last_name": "Muster", "age": "30", "birth_date": ""}
    answer = submit(
        client, tournament["id"], "/registrations", email="anna@example.org(Notiz)", **form
    )
    assert answer.status_code == 422
    assert refusal(answer.text) == (
        'Bitte den Teil nach dem @ ohne Kommentare und die Zeichen ( ) < > [ ] , ; : \\ " '
        "schreiben."
    )
