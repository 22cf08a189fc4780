"""The role matrix of the pages, beside the REST one (tests/api/test_unknown_tokens.py,
tests/api/test_directors.py): every console and table-page URL and form, read from the app's
own routes so that a new page joins the matrix by itself (API.md "Pages for people", "Never").

- without a session a console page is a 303 to the sign-in, and no form changes anything;
- a player's session reaches no console page and sends no console form;
- a revoked director's session, and a signed-out one, stop on every page and form;
- the public pages show display names only: no e-mail, age, token, payment, ID check,
  withdrawal reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from service.settings import DEV_DIRECTOR_TOKEN
from tests.api.test_console import csrf_of, signed_in
from tests.api.test_directors import appoint
from tests.api.test_table_page import SESSION as PLAYER_SESSION
from tests.api.test_table_page import sign_in as player_sign_in
from tests.api.test_tournament_day import Day, report, start_tournament
from tests.api.test_tournaments import CALENDAR, register, stored_events
from tests.conftest import DIRECTOR

Client = TestClient[Any]
DIRECTOR_SESSION = "bgtd_director_session"
SIGN_INS = ("/director/sign-in", "/pages/players/sign-in")
"""Public by design: the forms that open a session."""
WITH_A_TOKEN = ("/pages/registrations/confirm", "/pages/registrations/cancel")
"""Public pages of a mail's link: their token is the visitor's own (tests/api/test_pages.py)."""
WITHDRAWAL_REASON = "Migräne nach Runde eins"
A_FORM = {"player_id": "00000000-0000-4000-8000-000000000001", "reason": "x", "name": "X"}


@dataclass
class Venue:
    """A running tournament of a season with everything the pages may show or hide."""

    day: Day
    season_id: str
    registration_id: str
    director_id: str
    late: dict[str, Any]
    """A registration made after the start (its token must show nowhere either)."""
    player_id: str
    """A player with a rated result: their rating and head-to-head pages exist."""

    def url(self, path: str) -> str:
        """A route's path with this venue's ids (table and round 1)."""
        ids = {
            "tournament_id": self.day.id,
            "season_id": self.season_id,
            "registration_id": self.registration_id,
            "director_id": self.director_id,
            "player_id": self.player_id,
            "number": "1",
        }
        return re.sub(r"\{(\w+)(?::\w+)?\}", lambda found: ids[found.group(1)], path)


@pytest.fixture
def venue(client: Client, clock: MovableClock) -> Venue:
    season = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR).json()
    day = start_tournament(client, clock, 6)
    leaving = day.rounds[0]["pairings"][0]["player_a"]
    withdrawn = client.post(
        day.url("/withdrawals"),
        json={"player_id": leaving, "reason": WITHDRAWAL_REASON, "left_early": True},
        headers=DIRECTOR,
    )
    assert withdrawn.status_code in (200, 201), withdrawn.text
    played = day.rounds[0]["pairings"][1]
    report(client, day, played, winner="a")
    late = register(client, day.id, 40)
    named = appoint(client, "Erika Mustermann", season_id=season["id"])
    registration = next(iter(day.players.values()))["registration_id"]
    return Venue(day, season["id"], registration, named["director_id"], late, played["player_a"])


def routes(client: Client, prefix: str, method: str) -> list[str]:
    found = sorted(
        route.path
        for route in client.app.routes
        if route.path.startswith(prefix) and method in getattr(route, "methods", ())
    )
    return [path for path in found if path not in SIGN_INS + WITH_A_TOKEN]


def console_pages(client: Client) -> list[str]:
    return routes(client, "/director", "GET")


def console_forms(client: Client) -> list[str]:
    return routes(client, "/director", "POST")


def table_forms(client: Client) -> list[str]:
    return routes(client, "/pages", "POST")


def assert_no_console(client: Client, venue: Venue, csrf: str = "") -> None:
    """Every console page sends to the sign-in; every form (and the table page's) changes
    nothing."""
    pages = console_pages(client)
    assert len(pages) >= 5, pages
    for path in pages:
        answer = client.get(venue.url(path), follow_redirects=False)
        assert answer.status_code == 303, f"GET {path}"
        assert answer.headers["location"].startswith("/director/sign-in"), f"GET {path}"
    before = stored_events(client)
    forms = console_forms(client) + table_forms(client)
    assert len(forms) >= 18, forms
    for path in forms:
        sent = {**A_FORM, **({"_csrf_token": csrf} if csrf else {})}
        answer = client.post(venue.url(path), data=sent, follow_redirects=False)
        assert answer.status_code in (303, 401, 403), f"POST {path}: {answer.status_code}"
    assert stored_events(client) == before


def test_without_a_session_no_console_page_opens_and_no_form_changes_anything(
    client: Client, venue: Venue
) -> None:
    assert_no_console(client, venue)


def test_a_players_session_reaches_no_console_page(client: Client, venue: Venue) -> None:
    # a player still in the tournament: the one who left has no personal link any more
    token = venue.day.players[venue.player_id]["player_token"]
    assert player_sign_in(client, token).status_code == 303
    cookie = client.cookies.get(PLAYER_SESSION)
    assert cookie is not None
    # the player's cookie is not sent to /director; sent there by hand, it opens nothing
    client.cookies.set(DIRECTOR_SESSION, cookie, path="/director")
    assert_no_console(client, venue)


def test_a_revoked_directors_session_stops_on_every_page_and_form(
    client: Client, venue: Venue
) -> None:
    # rule C-DIR-1: a revoked director acts no more, on no page
    named = appoint(client, "Sven Berger")
    signed_in(client, named["token"])
    csrf = csrf_of(client.get("/director").text)
    revoked = client.delete(f"/api/v1/directors/{named['director_id']}", headers=DIRECTOR)
    assert revoked.status_code == 200
    assert_no_console(client, venue, csrf)


def test_a_signed_out_session_stops_on_every_page_and_form_even_as_a_copy(
    client: Client, venue: Venue
) -> None:
    signed_in(client)
    copied = client.cookies.get(DIRECTOR_SESSION)
    assert copied is not None
    csrf = csrf_of(client.get("/director").text)
    assert client.post("/director/sign-out", data={"_csrf_token": csrf}).status_code == 200
    client.cookies.set(DIRECTOR_SESSION, copied, path="/director")
    assert_no_console(client, venue, csrf)


def test_every_console_page_opens_for_a_signed_in_director(client: Client, venue: Venue) -> None:
    # the matrix's other side: the pages refused above are there for a director
    signed_in(client)
    for path in console_pages(client):
        answer = client.get(venue.url(path))
        assert answer.status_code == 200, f"GET {path}: {answer.text[:200]}"


def test_the_public_pages_show_no_personal_data(client: Client, venue: Venue) -> None:
    # API.md "Never": without a session, display names only
    day = venue.day
    secrets = [DEV_DIRECTOR_TOKEN, venue.late["player_token"], WITHDRAWAL_REASON]
    for registration in day.players.values():
        secrets.append(registration["player_token"])
    forbidden = re.compile(
        r"@example\.org|Nachname\d|\bAlter\b|Geburt|Ausweis|bezahlt|Startgeld bezahlt"
        r"|id_document|buy_in_paid",
        re.IGNORECASE,
    )
    pages = [path for path in routes(client, "/pages", "GET") if "{" in path or path == "/pages"]
    assert len(pages) >= 10, pages
    for path in pages:
        for query in ("", "?by=name", "?lang=en"):
            answer = client.get(venue.url(path) + query)
            assert answer.status_code == 200, f"GET {path}{query}"
            shown = answer.text
            assert not forbidden.search(shown), f"{path}{query}: {forbidden.search(shown)}"
            for secret in secrets:
                assert secret not in shown, f"{path}{query} shows a secret"
