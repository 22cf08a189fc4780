"""The director's console over HTTP: sign-in and sessions, CSRF, the desk's check-in and start
(API.md "Pages for people"). Every action is the REST use case: the REST API agrees.
Browser checks: tests/browser/test_console.py."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from api.app import create_app
from service.clock import MovableClock
from service.settings import DEV_DIRECTOR_TOKEN, Settings
from tests.api.test_directors import appoint, audit
from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, register, schedule, stored_events
from tests.conftest import DIRECTOR

Client = TestClient[Any]
CSRF = re.compile(r'name="_csrf_token" value="([0-9a-f]+)"')


def csrf_of(html: str) -> str:
    found = CSRF.search(html)
    assert found is not None, "the page has a form with a CSRF token"
    return found.group(1)


def sign_in(client: Client, token: str = DEV_DIRECTOR_TOKEN, **form: str) -> Any:
    page = client.get("/director/sign-in")
    assert page.status_code == 200
    return client.post(
        "/director/sign-in",
        data={"_csrf_token": csrf_of(page.text), "token": token, **form},
        follow_redirects=False,
    )


def signed_in(client: Client, token: str = DEV_DIRECTOR_TOKEN) -> None:
    answer = sign_in(client, token)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == "/director"


def desk(client: Client, tournament_id: str, query: str = "") -> Any:
    answer = client.get(f"/director/tournaments/{tournament_id}{query}")
    assert answer.status_code == 200, answer.text
    return answer


def row_of(html: str, registration_id: str) -> str:
    found = re.search(rf'<tr data-registration-id="{registration_id}".*?</tr>', html, re.DOTALL)
    assert found is not None, f"a row for {registration_id}"
    return found.group(0)


def check_in_url(tournament_id: str, registration_id: str) -> str:
    return f"/director/tournaments/{tournament_id}/registrations/{registration_id}/check-in"


def status_of(client: Client, tournament_id: str, registration_id: str) -> str:
    rows = client.get(f"/api/v1/tournaments/{tournament_id}/registrations", headers=DIRECTOR).json()
    return str(next(r["status"] for r in rows if r["registration_id"] == registration_id))


# Sign-in and sessions --------------------------------------------------------------------


def test_a_console_page_without_a_session_redirects_to_the_sign_in(client: Client) -> None:
    tournament = schedule(client)
    for path in ("/director", f"/director/tournaments/{tournament['id']}"):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == 303
        assert answer.headers["location"].startswith("/director/sign-in?next=%2Fdirector")
    sign_in_page = client.get("/director")  # followed: the sign-in form
    assert 'data-action="sign-in"' in sign_in_page.text
    assert 'name="token"' in sign_in_page.text


def test_the_club_token_opens_a_session_whose_cookie_holds_no_token(client: Client) -> None:
    answer = sign_in(client)
    assert answer.status_code == 303
    cookie = next(
        value
        for value in answer.headers.get_list("set-cookie")
        if value.startswith("bgtd_director_session=")
    )
    flags = [part.strip().lower() for part in cookie.split(";")]
    assert "httponly" in flags
    assert "samesite=strict" in flags
    assert "path=/director" in flags
    assert "max-age=43200" in flags  # it expires after 12 hours
    assert "secure" not in flags  # served over http here
    assert DEV_DIRECTOR_TOKEN not in cookie
    home = client.get("/director")
    assert home.status_code == 200
    assert DEV_DIRECTOR_TOKEN not in home.text
    assert 'data-action="sign-out"' in home.text


def test_the_session_cookie_is_secure_behind_https(
    tmp_path: Path, settings: Settings, clock: MovableClock
) -> None:
    behind_https = Settings(
        data_dir=tmp_path / "https", dev=True, run_scheduler=False, public_url="https://bgtd.club"
    )
    with TestClient(create_app(behind_https, clock=clock)) as https_client:
        page = https_client.get("/director/sign-in")
        nonce_cookie = page.headers["set-cookie"]
        # the test client speaks http: it keeps no Secure cookie, so it is sent by hand
        https_client.cookies.set(
            "bgtd_director_sign_in", page.cookies["bgtd_director_sign_in"], path="/director"
        )
        answer = https_client.post(
            "/director/sign-in",
            data={"_csrf_token": csrf_of(page.text), "token": DEV_DIRECTOR_TOKEN},
            follow_redirects=False,
        )
    assert answer.status_code == 303
    session_cookie = next(
        value
        for value in answer.headers.get_list("set-cookie")
        if value.startswith("bgtd_director_session=")
    )
    for cookie in (nonce_cookie, session_cookie):
        assert "secure" in [part.strip().lower() for part in cookie.split(";")]


def test_a_wrong_token_is_refused_with_a_message_next_to_the_field(client: Client) -> None:
    answer = sign_in(client, "not-a-token")
    assert answer.status_code == 401
    assert "Dieses Token gehört keiner Turnierleitung" in answer.text
    assert re.search(r'id="token-error"[^>]*data-error', answer.text)
    assert "bgtd_director_session=" not in answer.headers.get("set-cookie", "")
    assert client.get("/director", follow_redirects=False).status_code == 303
    english = sign_in(client, "", lang="en")
    assert english.status_code == 422


def test_a_players_token_opens_no_session(client: Client) -> None:
    tournament = schedule(client)
    player = register(client, tournament["id"], 1)
    answer = sign_in(client, player["player_token"])
    assert answer.status_code == 401
    assert client.get("/director", follow_redirects=False).status_code == 303


def test_the_sign_in_goes_to_next_but_only_on_this_site(client: Client) -> None:
    tournament = schedule(client)
    desk_path = f"/director/tournaments/{tournament['id']}"
    assert sign_in(client, next=desk_path).headers["location"] == desk_path
    assert sign_in(client, next="//evil.example/x").headers["location"] == "/director"
    assert sign_in(client, next="https://evil.example").headers["location"] == "/director"


def test_sign_out_ends_the_session(client: Client) -> None:
    signed_in(client)
    home = client.get("/director").text
    answer = client.post(
        "/director/sign-out", data={"_csrf_token": csrf_of(home)}, follow_redirects=False
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == "/director/sign-in"
    assert client.get("/director", follow_redirects=False).status_code == 303


def test_a_copy_of_the_cookie_taken_before_the_sign_out_stops_working_even_after_a_restart(
    client: Client, settings: Settings, clock: MovableClock
) -> None:
    # API.md "Sessions": sign-out ends the session, on the server too
    signed_in(client)
    copied = client.cookies.get("bgtd_director_session")
    assert copied is not None
    home = client.get("/director").text
    client.post("/director/sign-out", data={"_csrf_token": csrf_of(home)})
    client.cookies.set("bgtd_director_session", copied, path="/director")
    assert client.get("/director", follow_redirects=False).status_code == 303
    client.cookies.clear()
    signed_in(client)  # a new session of the same director works
    assert client.get("/director", follow_redirects=False).status_code == 200
    client.__exit__(None, None, None)
    with TestClient(create_app(settings, clock=clock)) as restarted:
        restarted.cookies.set("bgtd_director_session", copied, path="/director")
        assert restarted.get("/director", follow_redirects=False).status_code == 303


def test_a_session_expires_after_twelve_hours(client: Client, clock: MovableClock) -> None:
    signed_in(client)
    clock.advance(timedelta(hours=11, minutes=59).total_seconds())
    assert client.get("/director", follow_redirects=False).status_code == 200
    clock.advance(60)
    assert client.get("/director", follow_redirects=False).status_code == 303


def test_a_forged_session_cookie_is_no_session(client: Client) -> None:
    signed_in(client)
    cookie = client.cookies.get("bgtd_director_session")
    assert cookie is not None
    body, signature = cookie.split(".")
    client.cookies.clear()
    client.cookies.set("bgtd_director_session", f"{body}.{signature[:-2]}AA", path="/director")
    assert client.get("/director", follow_redirects=False).status_code == 303


def test_a_revoked_directors_session_stops_working(client: Client) -> None:
    # rule C-DIR-1: a revoked director acts no more, through the pages either
    named = appoint(client, "Erika Mustermann")
    signed_in(client, named["token"])
    home = client.get("/director")
    assert "Angemeldet als Erika Mustermann" in home.text
    revoked = client.delete(f"/api/v1/directors/{named['director_id']}", headers=DIRECTOR)
    assert revoked.status_code == 200, revoked.text
    answer = client.get("/director", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/director/sign-in")
    assert sign_in(client, named["token"]).status_code == 401


def test_a_tournament_director_sees_only_their_tournament(client: Client) -> None:
    # rule C-DIR-1: the scope holds on the pages as over REST
    mine = schedule(client, name="Mein Turnier")
    other = schedule(client, name="Anderes Turnier", date="2026-05-16")
    named = appoint(client, "Erika Mustermann", tournament_id=mine["id"])
    signed_in(client, named["token"])
    home = client.get("/director").text
    assert "Mein Turnier" in home
    assert "Anderes Turnier" not in home
    refused = client.get(f"/director/tournaments/{other['id']}")
    assert refused.status_code == 403
    assert "data-error" in refused.text
    unknown = client.get("/director/tournaments/00000000-0000-4000-8000-000000000000")
    assert unknown.status_code == 404
    assert "data-error" in unknown.text


# CSRF and GETs ------------------------------------------------------------------------------


def test_a_form_without_its_csrf_token_is_forbidden_and_changes_nothing(
    client: Client, clock: MovableClock
) -> None:
    tournament = schedule(client)
    registration = register(client, tournament["id"], 1)
    advance_to(client, clock, CHECK_IN_OPENS)
    signed_in(client)
    before = stored_events(client)
    url = check_in_url(tournament["id"], registration["registration_id"])
    form = {"id_document_seen": "yes", "buy_in_paid": "100"}
    for csrf in ({}, {"_csrf_token": "0" * 64}):
        answer = client.post(url, data={**form, **csrf}, follow_redirects=False)
        assert answer.status_code == 403
        assert "Formular ist abgelaufen" in answer.text
    start = client.post(f"/director/tournaments/{tournament['id']}/start", data={})
    assert start.status_code == 403
    assert stored_events(client) == before
    assert status_of(client, tournament["id"], registration["registration_id"]) == "registered"


def test_the_sign_in_form_needs_its_csrf_token_too(client: Client) -> None:
    answer = client.post(
        "/director/sign-in", data={"token": DEV_DIRECTOR_TOKEN}, follow_redirects=False
    )
    assert answer.status_code == 403
    assert "bgtd_director_session=" not in answer.headers.get("set-cookie", "")


def test_another_sessions_csrf_token_is_refused(client: Client, clock: MovableClock) -> None:
    tournament = schedule(client)
    registration = register(client, tournament["id"], 1)
    advance_to(client, clock, CHECK_IN_OPENS)
    signed_in(client)
    earlier = csrf_of(client.get("/director").text)
    signed_in(client)  # a new session: a new nonce
    answer = client.post(
        check_in_url(tournament["id"], registration["registration_id"]),
        data={"_csrf_token": earlier, "id_document_seen": "yes", "buy_in_paid": "100"},
    )
    assert answer.status_code == 403
    assert status_of(client, tournament["id"], registration["registration_id"]) == "registered"


def test_a_get_on_a_forms_url_changes_nothing(client: Client, clock: MovableClock) -> None:
    tournament = schedule(client)
    registration = register(client, tournament["id"], 1)
    advance_to(client, clock, CHECK_IN_OPENS)
    signed_in(client)
    before = stored_events(client)
    for url in (
        check_in_url(tournament["id"], registration["registration_id"]),
        f"/director/tournaments/{tournament['id']}/start",
        "/director/sign-out",
    ):
        assert client.get(url, follow_redirects=False).status_code in (404, 405)
    assert stored_events(client) == before
    assert client.get("/director", follow_redirects=False).status_code == 200


def test_a_post_without_a_session_changes_nothing(client: Client, clock: MovableClock) -> None:
    tournament = schedule(client)
    registration = register(client, tournament["id"], 1)
    advance_to(client, clock, CHECK_IN_OPENS)
    before = stored_events(client)
    answer = client.post(
        check_in_url(tournament["id"], registration["registration_id"]),
        data={"id_document_seen": "yes", "buy_in_paid": "100"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/director/sign-in")
    assert stored_events(client) == before


# The desk ------------------------------------------------------------------------------------


def test_the_desk_finds_a_registration_by_name(client: Client) -> None:
    tournament = schedule(client)
    first = register(client, tournament["id"], 1)
    second = register(client, tournament["id"], 2)
    signed_in(client)
    everyone = desk(client, tournament["id"]).text
    assert f'data-registration-id="{first["registration_id"]}"' in everyone
    assert f'data-player-id="{first["player_id"]}"' in everyone
    found = desk(client, tournament["id"], "?q=nachname2").text
    assert f'data-registration-id="{second["registration_id"]}"' in found
    assert f'data-registration-id="{first["registration_id"]}"' not in found
    assert "spieler2@example.org" in found  # the director sees the person's data
    nobody = desk(client, tournament["id"], "?q=Niemand").text
    assert "Niemand passt zu „Niemand“." in nobody


def test_a_check_in_at_the_desk_shows_up_in_the_seats(client: Client, clock: MovableClock) -> None:
    # rule T-CHECKIN-1: ID seen and buy-in paid (prefilled with the tournament's buy-in)
    tournament = schedule(client, buy_in_cents=12000)
    registration = register(client, tournament["id"], 1)
    advance_to(client, clock, CHECK_IN_OPENS)
    named = appoint(client, "Erika Mustermann")
    signed_in(client, named["token"])
    page = desk(client, tournament["id"], "?q=Vorname1").text
    row = row_of(page, registration["registration_id"])
    assert 'data-action="check-in"' in row
    assert 'name="buy_in_paid" inputmode="decimal" value="120,00"' in row
    answer = client.post(
        check_in_url(tournament["id"], registration["registration_id"]),
        data={
            "_csrf_token": csrf_of(page),
            "id_document_seen": "yes",
            "buy_in_paid": "120,00",
            "q": "Vorname1",
        },
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == (
        f"/director/tournaments/{tournament['id']}?q=Vorname1&done=check-in"
        f"&registration={registration['registration_id']}"
    )
    shown = client.get(answer.headers["location"]).text
    assert re.search(r"role=\"status\">[^<]+ ist eingecheckt.<", shown)
    assert 'data-action="check-in"' not in row_of(shown, registration["registration_id"])
    seats = client.get(f"/api/v1/tournaments/{tournament['id']}/seats").json()
    assert seats["checked_in"] == 1
    listed = client.get(
        f"/api/v1/tournaments/{tournament['id']}/registrations", headers=DIRECTOR
    ).json()
    assert listed[0]["buy_in_paid_cents"] == 12000
    # the named director is recorded as the actor, as over REST
    checked_in = audit(client, tournament["id"])[-1]
    assert checked_in["actor"] == {"director_id": named["director_id"], "name": "Erika Mustermann"}


def test_a_refused_check_in_shows_its_reason_next_to_the_field(
    client: Client, clock: MovableClock
) -> None:
    tournament = schedule(client)
    registration = register(client, tournament["id"], 1)
    advance_to(client, clock, CHECK_IN_OPENS)
    signed_in(client)
    page = desk(client, tournament["id"]).text
    url = check_in_url(tournament["id"], registration["registration_id"])
    without_id = client.post(url, data={"_csrf_token": csrf_of(page), "buy_in_paid": "100"})
    assert without_id.status_code == 422
    row = row_of(without_id.text, registration["registration_id"])
    assert re.search(r"data-error[^>]*>Bitte den Ausweis ansehen: ohne gültigen Ausweis ", row)
    bad_amount = client.post(
        url,
        data={"_csrf_token": csrf_of(page), "id_document_seen": "yes", "buy_in_paid": "zehn"},
    )
    assert bad_amount.status_code == 422
    row = row_of(bad_amount.text, registration["registration_id"])
    assert "Bitte einen Betrag in Euro wie 20 oder 20,00 eingeben." in row
    assert 'aria-invalid="true"' in row
    assert status_of(client, tournament["id"], registration["registration_id"]) == "registered"


def test_a_check_in_before_it_opens_is_refused_on_the_desk(client: Client) -> None:
    tournament = schedule(client)
    registration = register(client, tournament["id"], 1)
    signed_in(client)
    page = desk(client, tournament["id"]).text
    answer = client.post(
        check_in_url(tournament["id"], registration["registration_id"]),
        data={"_csrf_token": csrf_of(page), "id_document_seen": "yes", "buy_in_paid": "100"},
    )
    assert answer.status_code == 409
    # the German desk says it in German, with the instant in the club's time
    row = row_of(answer.text, registration["registration_id"])
    assert "Der Check-in öffnet am 18.04.2026, 12:30 Uhr." in row


def test_the_desk_starts_the_tournament_and_the_rest_api_agrees(
    client: Client, clock: MovableClock
) -> None:
    tournament = schedule(client, capacity=4)
    registrations = [register(client, tournament["id"], n) for n in range(1, 5)]
    advance_to(client, clock, CHECK_IN_OPENS)
    signed_in(client)
    for registration in registrations:
        page = desk(client, tournament["id"]).text
        answer = client.post(
            check_in_url(tournament["id"], registration["registration_id"]),
            data={"_csrf_token": csrf_of(page), "id_document_seen": "yes", "buy_in_paid": "100"},
            follow_redirects=False,
        )
        assert answer.status_code == 303, answer.text
    page = desk(client, tournament["id"]).text
    assert 'data-action="start"' in page
    started = client.post(
        f"/director/tournaments/{tournament['id']}/start",
        data={"_csrf_token": csrf_of(page)},
        follow_redirects=False,
    )
    assert started.status_code == 303
    shown = client.get(started.headers["location"]).text
    assert "Das Turnier ist gestartet" in shown
    assert 'data-action="start"' not in shown
    status = client.get(f"/api/v1/tournaments/{tournament['id']}").json()["status"]
    assert status == "running"
    first_round = client.get(f"/api/v1/tournaments/{tournament['id']}/rounds/1")
    assert len(first_round.json()["pairings"]) == 2


def test_the_console_speaks_english_by_query(client: Client) -> None:
    tournament = schedule(client)
    signed_in(client)
    page = desk(client, tournament["id"], "?lang=en").text
    assert "Search by name" in page
    assert 'action="/director/tournaments/' in page


def test_the_home_page_lists_the_tournaments_each_linking_to_its_desk(client: Client) -> None:
    tournament = schedule(client)
    signed_in(client)
    german = client.get("/director").text
    assert f'<tr data-tournament-id="{tournament["id"]}">' in german
    assert f'href="/director/tournaments/{tournament["id"]}"' in german
    english = client.get("/director?lang=en").text
    assert f'href="/director/tournaments/{tournament["id"]}?lang=en"' in english
