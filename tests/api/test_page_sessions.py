"""The page sessions' hardening (API.md "Pages for people", "Sessions"): a player signs out on the
table page, and a copy of the cookie taken before stops working; the sign-in forms of the
console and of the personal link refuse a guesser after a few failures (429, in words).
The director's sign-out on the server: tests/api/test_console.py."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import sign_in as director_sign_in
from tests.api.test_console import signed_in as director_signed_in
from tests.api.test_directors import two_processes  # noqa: F401 - a fixture
from tests.api.test_table_page import (
    SESSION,
    csrf_of,
    form_of,
    pairing,
    signed_in,
    table_page,
    token_of,
)
from tests.api.test_tournament_day import start_tournament

Client = TestClient[Any]


def test_a_player_signs_out_on_the_table_page_and_a_copied_cookie_stops_working(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    table = pairing(day, 1)
    signed_in(client, day, table["player_a"])
    page = table_page(client, day, 1)
    form = form_of(page, "sign-out")
    assert form is not None, "a signed-in player gets the sign-out form"
    copied = client.cookies.get(SESSION)
    assert copied is not None
    answer = client.post(
        "/pages/players/sign-out", data={"_csrf_token": csrf_of(form)}, follow_redirects=False
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"/pages/tournaments/{day.id}"
    assert form_of(table_page(client, day, 1), "report") is None
    client.cookies.set(SESSION, copied, path="/pages")
    after = table_page(client, day, 1)
    assert form_of(after, "report") is None
    assert form_of(after, "sign-out") is None
    # without a session or its CSRF token the sign-out is a 403 and ends nothing
    signed_in(client, day, table["player_a"])
    assert client.post("/pages/players/sign-out", data={}).status_code == 403
    assert form_of(table_page(client, day, 1), "report") is not None


def test_the_console_sign_in_refuses_a_guesser_after_five_failures_a_minute(
    client: Client, clock: MovableClock
) -> None:
    for _ in range(5):
        assert director_sign_in(client, "not-a-token").status_code == 401
    refused = director_sign_in(client, "not-a-token")
    assert refused.status_code == 429
    assert "Zu viele Versuche" in refused.text
    assert "data-error" in refused.text
    # even the right token waits out the minute: the guesser learns nothing from it
    assert director_sign_in(client).status_code == 429
    assert "retry-after" in refused.headers
    clock.advance(61)
    director_signed_in(client)


def press_the_button(client: Client, token: str, csrf: str) -> Any:
    """The personal link's button posted with ``token`` (a guesser's tries, cookies kept)."""
    return client.post(
        "/pages/players/sign-in",
        data={"_csrf_token": csrf, "token": token},
        follow_redirects=False,
    )


def test_the_personal_links_sign_in_refuses_a_guesser_but_never_a_right_token(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 2)
    player = pairing(day, 1)["player_a"]
    mine = token_of(day, player)
    csrf = csrf_of(client.get("/pages/players/sign-in", params={"token": mine}).text)
    for number in range(5):
        assert press_the_button(client, f"guessed-{number}", csrf).status_code == 401
    refused = press_the_button(client, "guessed-again", csrf)
    assert refused.status_code == 429
    assert "Zu viele Versuche" in refused.text
    assert "data-error" in refused.text
    assert "retry-after" in refused.headers
    assert client.get("/pages/players/sign-in", params={"token": "guessed"}).status_code == 429
    # the players of a venue share its address: a guesser among them locks nobody out, and a
    # player token is too long to guess, so the right link signs in at once
    assert client.get("/pages/players/sign-in", params={"token": mine}).status_code == 200
    assert press_the_button(client, mine, csrf).status_code == 303


def test_opening_wrong_personal_links_counts_no_failed_sign_in(
    client: Client, clock: MovableClock
) -> None:
    # a GET changes no state (API.md "Pages for people"): it may say the link is unknown, but
    # what a later sign-in is answered stays as it was
    day = start_tournament(client, clock, 2)
    mine = token_of(day, pairing(day, 1)["player_a"])
    csrf = csrf_of(client.get("/pages/players/sign-in", params={"token": mine}).text)
    for number in range(6):
        page = client.get("/pages/players/sign-in", params={"token": f"guessed-{number}"})
        assert page.status_code == 404
    assert press_the_button(client, "guessed-again", csrf).status_code == 401


@pytest.mark.postgres
def test_a_sign_out_in_one_process_ends_the_session_in_another(
    two_processes: tuple[Client, Client],  # noqa: F811 - the fixture imported above
) -> None:
    # one PostgreSQL store shared by two processes: the record of the sign-out is shared too
    one, two = two_processes
    director_signed_in(one)
    copied = one.cookies.get("bgtd_director_session")
    assert copied is not None
    two.cookies.set("bgtd_director_session", copied, path="/director")
    assert two.get("/director", follow_redirects=False).status_code == 200
    home = one.get("/director").text
    one.post("/director/sign-out", data={"_csrf_token": csrf_of(home)})
    assert two.get("/director", follow_redirects=False).status_code == 303
