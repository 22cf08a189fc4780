"""What every console form checks before it acts (API.md "Pages for people"): the director's
scope (rule C-DIR-1: another tournament's forms are a 403 and record nothing, even with a
field the form would refuse), and fields no form sends (a number of thousands of digits, a
garbled hidden id) refused in words with a 422, never a 500 and never another action."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from api.http.forms import whole_number
from service.clock import MovableClock
from tests.api import test_tournament_day as tournament_day
from tests.api.test_console import csrf_of, desk, signed_in
from tests.api.test_console_desk import desk_url, late_after_round_one, submit
from tests.api.test_directors import appoint
from tests.api.test_tournament_day import start_tournament
from tests.api.test_tournaments import person, schedule, stored_events
from tests.conftest import DIRECTOR

Client = TestClient[Any]

HUGE = "1" * 5000
"""More digits than Python's ``int`` reads from a text (4,300): no form sends it."""


@pytest.mark.parametrize(
    "path",
    [
        "/registrations",
        "/late-entry",
        "/check-in",
        "/start",
        "/withdrawals",
        "/exclusions",
        "/penalties",
        "/breaks/present",
        "/breaks/return-time",
        "/finalize",
        "/reopen",
        "/rounds",
        "/rounds/1/results",
        "/rounds/1/unpair",
        "/rounds/1/pairings",
    ],
)
def test_a_director_of_another_tournament_is_refused_every_form_and_nothing_is_recorded(
    client: Client, clock: MovableClock, path: str
) -> None:
    # rule C-DIR-1: the scope holds on the pages' forms as over REST
    other = start_tournament(client, clock, 4)
    player = next(iter(other.players))
    table = other.rounds[0]["pairings"][0]
    mine = schedule(client, name="Mein Turnier", date="2026-05-16")
    named = appoint(client, "Erika Mustermann", tournament_id=mine["id"])
    signed_in(client, named["token"])
    token = csrf_of(desk(client, mine["id"]).text)
    registration = other.players[player]["registration_id"]
    url = desk_url(
        other.id, path.replace("/late-entry", f"/registrations/{registration}/late-entry")
    )
    url = url.replace("/check-in", f"/registrations/{registration}/check-in")
    before = stored_events(client)
    for form in (
        {"player_id": player, "match_id": table["match_id"], "points": "1", "reason": "x"},
        # a field the form refuses is no way around the scope either
        {"player_id": player, "match_id": table["match_id"], "points": "0", "age": "x"},
    ):
        fields = {**form, "winner": player, "points_a": "1", "points_b": "0", "first_name": "A"}
        answer = client.post(url, data={"_csrf_token": token, **fields}, follow_redirects=False)
        assert answer.status_code == 403, (path, answer.status_code)
    assert stored_events(client) == before


def test_penalty_points_of_thousands_of_digits_are_refused_in_words(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-2: 1 to 64 points; no number at all is refused as one out of range
    day, late, match_id = late_after_round_one(client, clock)
    signed_in(client)
    before = stored_events(client)
    answer = submit(
        client, day.id, "/penalties", player_id=late, match_id=match_id, points=HUGE, reason="x"
    )
    assert answer.status_code == 422
    assert "Bitte Strafpunkte von 1 bis 64 eingeben." in answer.text
    assert stored_events(client) == before


def test_an_age_of_thousands_of_digits_is_refused_in_words(client: Client) -> None:
    tournament = schedule(client)
    signed_in(client)
    before = stored_events(client)
    answer = submit(
        client,
        tournament["id"],
        "/registrations",
        first_name="Anna",
        last_name="Muster",
        email="anna@example.org",
        age=HUGE,
    )
    assert answer.status_code == 422
    assert "data-error" in answer.text
    assert stored_events(client) == before


def test_reported_points_of_thousands_of_digits_are_refused_in_words(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = day.rounds[0]["pairings"][0]
    signed_in(client)
    page = client.get(f"/director/tournaments/{day.id}/rounds/1").text
    before = stored_events(client)
    answer = client.post(
        f"/director/tournaments/{day.id}/rounds/1/results",
        data={
            "_csrf_token": csrf_of(page),
            "match_id": table["match_id"],
            "winner": table["player_a"],
            "points_a": HUGE,
            "points_b": "0",
        },
        follow_redirects=False,
    )
    assert answer.status_code == 422
    assert stored_events(client) == before


def test_a_waiver_for_a_garbled_player_is_refused_and_marks_nobody_present(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-1: a waiver names its player; a garbled id is not "everyone"
    day, _, _ = late_after_round_one(client, clock)
    signed_in(client)
    before = stored_events(client)
    answer = submit(client, day.id, "/breaks/present", player_id="not-an-id", reason="traffic")
    assert answer.status_code == 422
    assert stored_events(client) == before
    breaks = client.get(day.url("/breaks"), headers=DIRECTOR).json()
    assert any(b["ended_at"] is None for b in breaks)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("7", 7),
        (" 64 ", 64),
        ("0", 0),
        ("0" * 5000 + "2", 2),
        ("65", None),
        ("²", None),
        (HUGE, None),
        ("", None),
        ("-1", None),
        ("1.5", None),
    ],
)
def test_a_forms_whole_number_is_read_or_refused(text: str, number: int | None) -> None:
    assert whole_number(text, 64) == number


SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"onmouseover=alert(1) x="'


@pytest.mark.parametrize(
    "terms", [{"format": "elimination", "variant": "plakoto"}, {"stage_variants": {}}]
)
def test_hostile_names_are_escaped_in_the_bracket_the_round_page_and_the_desk(
    client: Client, clock: MovableClock, monkeypatch: pytest.MonkeyPatch, terms: dict[str, Any]
) -> None:
    # rule T-REG-5: a name is text; no page runs it as markup
    def hostile(number: int, **changes: Any) -> dict[str, Any]:
        name = SCRIPT if number % 2 else ATTRIBUTE
        return person(number, first_name=name, last_name=name, **changes)

    monkeypatch.setattr(tournament_day, "person", hostile)
    day = start_tournament(client, clock, 4, **terms)
    signed_in(client)
    pages = [
        f"/pages/tournaments/{day.id}/bracket",
        f"/pages/tournaments/{day.id}/tables/1",
        f"/director/tournaments/{day.id}",
        f"/director/tournaments/{day.id}/rounds/1?lang=en",
    ]
    for path in pages:
        html = client.get(path).text
        assert SCRIPT not in html, path
        assert '"onmouseover' not in html, path  # a name's quote is escaped
    # the names are shown, escaped: table 1 seats two players drawn by lot, whichever names
    # they have (odd numbers the script, even ones the attribute)
    table = client.get(pages[1]).text
    assert "&lt;script&gt;alert(1)" in table or "&#34;onmouseover=alert(1)" in table
    assert "&lt;script&gt;alert(1)" in client.get(pages[2]).text  # the desk lists everyone
