"""The players' pages over HTTP: the personal link signs a player in through a button, the table
page shows the match at a table, and its two players report and confirm the result there
(API.md "Pages for people"). Every action is the REST use case: the REST API agrees.
Browser check: tests/browser/test_table_page.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from api.app import create_app
from service.clock import MovableClock
from service.settings import Settings
from tests.api.test_tournament_day import Day, start_tournament
from tests.api.test_tournaments import register, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
CSRF = re.compile(r'name="_csrf_token" value="([0-9a-f]+)"')
SESSION = "bgtd_player_session"


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found is not None, "the page has a form with a CSRF token"
    return found.group(1)


def token_of(day: Day, player_id: str) -> str:
    token: str = day.players[player_id]["player_token"]
    return token


def sign_in(client: Client, token: str) -> Any:
    """Open the personal link, then press its button (a fresh browser: no cookies yet)."""
    client.cookies.clear()
    page = client.get("/pages/players/sign-in", params={"token": token})
    assert page.status_code == 200, page.text
    return client.post(
        "/pages/players/sign-in",
        data={"_csrf_token": csrf_of(page.text), "token": token},
        follow_redirects=False,
    )


def signed_in(client: Client, day: Day, player_id: str) -> None:
    answer = sign_in(client, token_of(day, player_id))
    assert answer.status_code == 303, answer.text


def table_page(client: Client, day: Day, number: int) -> str:
    answer = client.get(f"/pages/tournaments/{day.id}/tables/{number}")
    assert answer.status_code == 200, answer.text
    return answer.text


def form_of(html: str, action: str) -> str | None:
    found = re.search(rf'<form[^>]*data-action="{action}".*?</form>', html, re.DOTALL)
    return found.group(0) if found else None


def hidden(form: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))


def pairing(day: Day, number: int) -> dict[str, Any]:
    table: dict[str, Any] = next(t for t in day.rounds[0]["pairings"] if t["table"] == number)
    return table


def rest_table(client: Client, day: Day, number: int) -> dict[str, Any]:
    shown: dict[str, Any] = client.get(day.url(f"/tables/{number}")).json()
    return shown


def report_form(
    client: Client, day: Day, number: int, winner: str, points_a: int, points_b: int
) -> Any:
    html = table_page(client, day, number)
    form = form_of(html, "report")
    assert form is not None, "the signed-in player of the match gets the report form"
    return client.post(
        f"/pages/tournaments/{day.id}/tables/{number}/report",
        data={**hidden(form), "winner": winner, "points_a": points_a, "points_b": points_b},
        follow_redirects=False,
    )


def test_opening_the_personal_link_signs_nobody_in(client: Client, clock: MovableClock) -> None:
    # a mail scanner that prefetches the link gets the page with its button, and no session
    day = start_tournament(client, clock, 4)
    player = pairing(day, 1)["player_a"]
    page = client.get("/pages/players/sign-in", params={"token": token_of(day, player)})
    assert page.status_code == 200
    form = form_of(page.text, "player-sign-in")
    assert form is not None
    assert 'method="post"' in form
    assert hidden(form)["token"] == token_of(day, player)
    assert "_csrf_token" in hidden(form)
    assert not [c for c in page.headers.get_list("set-cookie") if c.startswith(f"{SESSION}=")]
    assert SESSION not in client.cookies
    assert form_of(table_page(client, day, 1), "report") is None


def test_an_unknown_personal_link_says_so_and_signs_nobody_in(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    page = client.get("/pages/players/sign-in", params={"token": "not-a-token"})
    assert page.status_code == 404
    assert "data-error" in page.text
    assert "gilt nicht" in page.text
    assert form_of(page.text, "player-sign-in") is None
    # a real link's form, sent with a token of nobody
    real = client.get(
        "/pages/players/sign-in", params={"token": token_of(day, next(iter(day.players)))}
    )
    answer = client.post(
        "/pages/players/sign-in",
        data={"_csrf_token": csrf_of(real.text), "token": "not-a-token"},
        follow_redirects=False,
    )
    assert answer.status_code == 401
    assert "data-error" in answer.text
    assert SESSION not in client.cookies


def test_the_button_opens_a_session_and_leads_to_the_players_table(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = pairing(day, 2)
    answer = sign_in(client, token_of(day, table["player_b"]))
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/pages/tournaments/{day.id}/tables/2"
    cookie = next(c for c in answer.headers.get_list("set-cookie") if c.startswith(f"{SESSION}="))
    flags = [part.strip().lower() for part in cookie.split(";")]
    assert "httponly" in flags
    assert "samesite=strict" in flags
    assert "path=/pages" in flags
    assert "max-age=57600" in flags  # it expires after 16 hours
    assert "secure" not in flags  # served over http here
    assert token_of(day, table["player_b"]) not in cookie
    html = table_page(client, day, 2)
    assert form_of(html, "report") is not None
    assert token_of(day, table["player_b"]) not in html


def test_a_player_without_a_current_table_lands_on_the_tournament_page(
    client: Client, clock: MovableClock, tmp_path: Path
) -> None:
    day = start_tournament(client, clock, 4)
    late = client.post(
        day.url("/registrations"),
        json={"first_name": "Lena", "last_name": "Spät", "email": "lena@example.org", "age": 30},
        headers=DIRECTOR,
    )
    assert late.status_code == 201, late.text
    answer = sign_in(client, late.json()["player_token"])
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/pages/tournaments/{day.id}"


def test_the_session_cookie_is_secure_behind_https(tmp_path: Path, clock: MovableClock) -> None:
    behind_https = Settings(
        data_dir=tmp_path / "https", dev=True, run_scheduler=False, public_url="https://bgtd.club"
    )
    with TestClient(create_app(behind_https, clock=clock)) as https_client:
        day = start_tournament(https_client, clock, 2)
        token = token_of(day, pairing(day, 1)["player_a"])
        page = https_client.get("/pages/players/sign-in", params={"token": token})
        nonce_cookie = page.headers["set-cookie"]
        # the test client speaks http: it keeps no Secure cookie, so it is sent by hand
        https_client.cookies.set(
            "bgtd_player_sign_in",
            page.cookies["bgtd_player_sign_in"],
            path="/pages/players/sign-in",
        )
        answer = https_client.post(
            "/pages/players/sign-in",
            data={"_csrf_token": csrf_of(page.text), "token": token},
            follow_redirects=False,
        )
    assert answer.status_code == 303
    session_cookie = next(
        c for c in answer.headers.get_list("set-cookie") if c.startswith(f"{SESSION}=")
    )
    for cookie in (nonce_cookie, session_cookie):
        assert "secure" in [part.strip().lower() for part in cookie.split(";")]


def test_the_sign_in_form_needs_its_csrf_token(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 2)
    token = token_of(day, pairing(day, 1)["player_a"])
    client.get("/pages/players/sign-in", params={"token": token})
    answer = client.post("/pages/players/sign-in", data={"token": token}, follow_redirects=False)
    assert answer.status_code == 403
    assert "data-error" in answer.text
    assert SESSION not in client.cookies


def test_a_player_of_another_match_gets_no_report_form_and_is_refused(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    mine, theirs = pairing(day, 1), pairing(day, 2)
    signed_in(client, day, mine["player_a"])
    own_page = table_page(client, day, 1)
    other_page = table_page(client, day, 2)
    assert form_of(other_page, "report") is None
    assert form_of(other_page, "confirm-report") is None
    # the form of their own table, sent to the other table's match: the use case refuses
    fields = hidden(form_of(own_page, "report") or "")
    refused = client.post(
        f"/pages/tournaments/{day.id}/tables/2/report",
        data={
            **fields,
            "match_id": theirs["match_id"],
            "winner": theirs["player_a"],
            "points_a": 5,
            "points_b": 0,
        },
        follow_redirects=False,
    )
    assert refused.status_code == 403
    assert "data-error" in refused.text
    assert rest_table(client, day, 2)["status"] == "pending"
    audit = client.get(f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR).json()
    assert not [e for e in audit if e["type"] == "ResultReported"]


def test_a_form_without_its_csrf_token_is_forbidden_and_changes_nothing(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    signed_in(client, day, table["player_a"])
    fields = hidden(form_of(table_page(client, day, 1), "report") or "")
    body = {"match_id": fields["match_id"], "winner": table["player_a"], "points_a": 5}
    for sent in ({**body, "points_b": 1}, {**body, "points_b": 1, "_csrf_token": "0" * 64}):
        answer = client.post(
            f"/pages/tournaments/{day.id}/tables/1/report", data=sent, follow_redirects=False
        )
        assert answer.status_code == 403
        assert "data-error" in answer.text
    assert rest_table(client, day, 1)["status"] == "pending"
    # without a session, even with the form's token, nothing changes either
    client.cookies.delete(SESSION)
    anonymous = client.post(
        f"/pages/tournaments/{day.id}/tables/1/report",
        data={**fields, "winner": table["player_a"], "points_a": 5, "points_b": 1},
        follow_redirects=False,
    )
    assert anonymous.status_code == 403
    assert rest_table(client, day, 1)["status"] == "pending"
    # a GET on a form's URL does nothing
    assert client.get(f"/pages/tournaments/{day.id}/tables/1/report").status_code == 405
    assert rest_table(client, day, 1)["status"] == "pending"


def test_a_report_and_the_opponents_confirmation_record_the_result(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = pairing(day, 1)
    length = table["match_length"]
    signed_in(client, day, table["player_a"])
    reported = report_form(client, day, 1, table["player_a"], length, 2)
    assert reported.status_code == 303
    assert reported.headers["location"] == f"/pages/tournaments/{day.id}/tables/1"
    assert rest_table(client, day, 1)["status"] == "awaiting_confirmation"
    assert form_of(table_page(client, day, 1), "confirm-report") is None  # nothing of their own

    signed_in(client, day, table["player_b"])
    html = table_page(client, day, 1)
    confirm = form_of(html, "confirm-report")
    assert confirm is not None
    fields = hidden(confirm)
    assert (fields["winner"], fields["points_a"], fields["points_b"]) == (
        table["player_a"],
        str(length),
        "2",
    )
    confirmed = client.post(
        f"/pages/tournaments/{day.id}/tables/1/confirm-report",
        data=fields,
        follow_redirects=False,
    )
    assert confirmed.status_code == 303
    matches = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    decided = matches[table["match_id"]]
    assert decided["status"] == "decided"
    assert decided["winner"] == table["player_a"]
    assert decided["score"] == {"a": length, "b": 2}
    assert decided["result_id"]
    # the decided table offers no more forms
    after = table_page(client, day, 1)
    assert form_of(after, "report") is None
    assert form_of(after, "confirm-report") is None


def test_a_different_report_disputes_the_match(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    length = table["match_length"]
    signed_in(client, day, table["player_a"])
    assert report_form(client, day, 1, table["player_a"], length, 1).status_code == 303
    signed_in(client, day, table["player_b"])
    assert report_form(client, day, 1, table["player_b"], 0, length).status_code == 303
    assert rest_table(client, day, 1)["status"] == "disputed"
    matches = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    assert matches[table["match_id"]]["result_id"] is None


def test_a_report_sent_to_another_tables_address_is_stale_and_records_nothing(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = pairing(day, 1)
    signed_in(client, day, table["player_a"])
    form = form_of(table_page(client, day, 1), "report")
    assert form is not None
    answer = client.post(
        f"/pages/tournaments/{day.id}/tables/2/report",
        data={**hidden(form), "winner": table["player_a"], "points_a": 1, "points_b": 0},
        follow_redirects=False,
    )
    assert answer.status_code == 409
    assert "passt nicht mehr zur Partie" in answer.text
    assert rest_table(client, day, 1)["status"] == "pending"


def test_a_refused_report_shows_its_reason_next_to_the_field(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    signed_in(client, day, table["player_a"])
    answer = report_form(client, day, 1, table["player_a"], "viele", 0)  # type: ignore[arg-type]
    assert answer.status_code == 422
    assert re.search(r"data-error>Bitte gib die Punkte", answer.text)
    assert rest_table(client, day, 1)["status"] == "pending"


def test_a_cancelled_registrations_link_and_session_stop_working(client: Client) -> None:
    tournament = schedule(client)["id"]
    registration = register(client, tournament, 1)
    answer = sign_in(client, registration["player_token"])
    assert answer.status_code == 303  # no round yet: to the tournament page
    assert answer.headers["location"] == f"/pages/tournaments/{tournament}"
    cookie = client.cookies[SESSION]
    sessions = client.app.state.services.player_sessions
    assert sessions.check(cookie) is not None
    cancelled = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{registration['registration_id']}",
        headers=DIRECTOR,
    )
    assert cancelled.status_code in (200, 204), cancelled.text
    assert sessions.check(cookie) is None  # checked in the event store on each request
    link = client.get("/pages/players/sign-in", params={"token": registration["player_token"]})
    assert link.status_code == 404
    assert "data-error" in link.text


def test_the_public_sees_display_names_and_the_score_only(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = pairing(day, 1)
    html = table_page(client, day, 1)
    shown = rest_table(client, day, 1)
    assert shown["player_a_name"] in html
    assert shown["player_b_name"] in html
    assert f'data-match-id="{table["match_id"]}" data-table="1"' in html
    assert "0 : 0" in html
    assert "example.org" not in html  # no e-mail address
    for registration in day.players.values():
        assert registration["player_token"] not in html
    assert form_of(html, "report") is None
    assert 'name="_csrf_token"' not in html


def test_the_table_page_speaks_english_and_waits_for_the_first_round(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    english = client.get(f"/pages/tournaments/{day.id}/tables/1", params={"lang": "en"})
    assert english.status_code == 200
    assert "Table 1" in english.text
    assert 'hreflang="de">Deutsch</a>' in english.text  # the way back to German
    empty = client.get(f"/pages/tournaments/{day.id}/tables/7")
    assert empty.status_code == 200
    assert "An diesem Tisch wird gerade keine Partie gespielt." in empty.text
    assert 'hreflang="en">English</a>' in empty.text


def action_of(form: str) -> str:
    found = re.search(r'action="([^"]+)"', form)
    assert found is not None, "the form posts somewhere"
    return found.group(1).replace("&amp;", "&")


def test_a_player_reading_in_english_reports_confirms_and_signs_out_in_english(
    client: Client, clock: MovableClock
) -> None:
    # API.md "Pages for people": `?lang=en` gives English; each form's answer is a 303 back
    # to the page, so the page it leads back to speaks the player's language still
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    length = table["match_length"]
    signed_in(client, day, table["player_a"])
    english = client.get(f"/pages/tournaments/{day.id}/tables/1", params={"lang": "en"}).text
    report = form_of(english, "report") or ""
    reported = client.post(
        action_of(report),
        data={**hidden(report), "winner": table["player_a"], "points_a": length, "points_b": 2},
        follow_redirects=False,
    )
    assert reported.status_code == 303
    assert reported.headers["location"] == f"/pages/tournaments/{day.id}/tables/1?lang=en"
    assert "You reported:" in client.get(reported.headers["location"]).text

    signed_in(client, day, table["player_b"])
    english = client.get(f"/pages/tournaments/{day.id}/tables/1", params={"lang": "en"}).text
    confirm = form_of(english, "confirm-report") or ""
    confirmed = client.post(action_of(confirm), data=hidden(confirm), follow_redirects=False)
    assert confirmed.status_code == 303
    assert confirmed.headers["location"] == f"/pages/tournaments/{day.id}/tables/1?lang=en"
    assert rest_table(client, day, 1)["status"] == "decided"

    english = client.get(f"/pages/tournaments/{day.id}/tables/1", params={"lang": "en"}).text
    sign_out = form_of(english, "sign-out") or ""
    signed_out = client.post(action_of(sign_out), data=hidden(sign_out), follow_redirects=False)
    assert signed_out.status_code == 303
    assert signed_out.headers["location"] == f"/pages/tournaments/{day.id}?lang=en"


def test_a_refused_report_keeps_the_winner_and_the_points_typed(
    client: Client, clock: MovableClock
) -> None:
    # the brief's "a form that loses what was typed on an error": the console's result form
    # keeps them (round.html), the player's report on a phone must too
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    signed_in(client, day, table["player_a"])
    answer = report_form(client, day, 1, table["player_a"], 5, 3)  # below the match length
    assert answer.status_code == 422
    assert "data-error" in answer.text
    form = form_of(answer.text, "report") or ""
    assert f'<option value="{table["player_a"]}" selected>' in form
    assert re.search(r'name="points_a"[^>]*value="5"', form)
    assert re.search(r'name="points_b"[^>]*value="3"', form)
    assert rest_table(client, day, 1)["status"] == "pending"
    # a fresh page starts empty again
    fresh = form_of(table_page(client, day, 1), "report") or ""
    assert "selected" not in fresh
    assert 'value="5"' not in fresh
