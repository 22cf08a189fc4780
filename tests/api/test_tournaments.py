"""Seasons, tournaments and registrations over REST, with the dev clock moving through deadlines."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, get_type_hints
from uuid import uuid4

import msgspec
import pytest
from litestar.params import BodyKwarg, ParameterKwarg
from litestar.testing import TestClient

from api.app import create_app
from api.registration import tournaments as tournament_api
from domain.tournament import KnockoutLengths, TournamentPlan
from service.clock import MovableClock
from service.settings import Settings
from tests.conftest import DIRECTOR
from tests.mailbox import confirmation_token, register_by_mail

Client = TestClient[Any]
SPRING = {"name": "Frühlingsturnier 2026", "date": "2026-04-18", "venue": "Amberg"}
PERIODS: list[dict[str, str]] = [
    {"name": "Frühlingsturnier 2026", "starts_on": "01.03.26", "ends_on": "31.05.26"},
    {"name": "Sommerpause 2026", "kind": "break", "starts_on": "01.06.26", "ends_on": "31.08.26"},
    {"name": "Herbstturnier 2026", "starts_on": "01.09.26", "ends_on": "30.11.26"},
    {"name": "Winterturnier 2026", "starts_on": "01.12.26", "ends_on": "28.02.27"},
]
CALENDAR: dict[str, Any] = {
    "name": "Saison 2026",
    "starts_on": "2026-03-01",
    "ends_on": "2027-02-28",
    "periods": PERIODS,
}
# The fixture clock stands at 2026-03-01 09:00 UTC.
ONE_MINUTE_BEFORE_DEADLINE = datetime(2026, 4, 16, 15, 59, tzinfo=UTC)  # 17:59 in Berlin
CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)  # 12:30 in Berlin


def person(number: int, **changes: Any) -> dict[str, Any]:
    return {
        "first_name": f"Vorname{number}",
        "last_name": f"Nachname{number}",
        "age": 30 + number % 40,
        "email": f"spieler{number}@example.org",
        **changes,
    }


def schedule(client: Client, **changes: Any) -> dict[str, Any]:
    response = client.post("/api/v1/tournaments", json={**SPRING, **changes}, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def register(client: Client, tournament_id: str, number: int) -> dict[str, Any]:
    """The club registers a person who wrote to it (the director's token: confirmed at once);
    anonymous registrations by e-mail confirmation: tests/api/test_registration_confirmation.py
    """
    response = client.post(
        f"/api/v1/tournaments/{tournament_id}/registrations",
        json=person(number),
        headers=DIRECTOR,
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def advance_to(client: Client, clock: MovableClock, instant: datetime) -> None:
    seconds = (instant - clock.now()).total_seconds()
    response = client.post("/api/v1/dev/clock/advance", json={"seconds": seconds}, headers=DIRECTOR)
    assert response.status_code == 200
    assert response.json()["now"] == instant.isoformat().replace("+00:00", "Z")


def stored_events(client: Client) -> int:
    return len(client.app.state.services.store.notifications(0, 10_000))


def test_the_spring_tournament_shows_the_clubs_deadlines(client: Client) -> None:
    # rules T-CANCEL-1, T-CHECKIN-1, CAL-3: shown in Berlin time
    created = schedule(client)
    assert created["deadlines"] == {
        "cancellation_until": "2026-04-16T18:00:00+02:00",
        "check_in_opens": "2026-04-18T12:30:00+02:00",
        "starts_at": "2026-04-18T13:00:00+02:00",
    }
    assert created["status"] == "open"
    assert created["date"] == "2026-04-18"
    assert (created["capacity"], created["min_age"], created["class"]) == (20, 18, "Champions")
    # rule T-BUYIN-1: 100 EUR = 80 EUR pot + 20 EUR organisation
    assert (created["buy_in_cents"], created["pot_share_cents"], created["organisation_cents"]) == (
        10000,
        8000,
        2000,
    )
    assert created["seats"] == {
        "capacity": 20,
        "taken": 0,
        "free": 20,
        "waitlist": 0,
        "checked_in": 0,
    }
    shown = client.get(f"/api/v1/tournaments/{created['id']}")
    assert shown.status_code == 200
    assert shown.json() == created
    calendar = client.get("/api/v1/tournaments").json()
    assert [t["id"] for t in calendar] == [created["id"]]


def test_the_clubs_calendar_is_entered_and_tournaments_join_their_season(client: Client) -> None:
    # rule CAL-1
    response = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    season = response.json()
    assert [p["kind"] for p in season["periods"]] == [
        "tournament",
        "break",
        "tournament",
        "tournament",
    ]
    assert season["periods"][3]["ends_on"] == "2027-02-28"  # the winter crosses the year end
    spring = schedule(client)
    assert (spring["season_id"], spring["period"]) == (season["id"], "Frühlingsturnier 2026")
    winter = schedule(client, name="Winterturnier 2026", date="09.01.2027")
    assert winter["deadlines"]["cancellation_until"] == "2027-01-07T18:00:00+01:00"
    assert [
        t["name"] for t in client.get(f"/api/v1/tournaments?season_id={season['id']}").json()
    ] == [
        "Frühlingsturnier 2026",
        "Winterturnier 2026",
    ]
    summer = client.post(
        "/api/v1/tournaments", json={**SPRING, "date": "2026-07-18"}, headers=DIRECTOR
    )
    assert summer.status_code == 422
    assert summer.json()["errors"][0]["field"] == "date"
    assert "Sommerpause 2026" in summer.json()["detail"]
    assert client.get(f"/api/v1/seasons/{season['id']}").json() == season


def test_the_seeds_impossible_november_date_is_rejected_and_nothing_stored(client: Client) -> None:
    # rule CAL-2: the club's page says "Herbstturnier 2026 01.09.26 bis 31.11.26"
    periods = [dict(p) for p in PERIODS]
    periods[2]["ends_on"] = "31.11.26"
    response = client.post(
        "/api/v1/seasons", json={**CALENDAR, "periods": periods}, headers=DIRECTOR
    )
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["errors"] == [
        {
            "field": "periods[2].ends_on",
            "message": "31.11.26 does not exist: November 2026 has 30 days",
        }
    ]
    tournament = client.post(
        "/api/v1/tournaments", json={**SPRING, "date": "31.11.2026"}, headers=DIRECTOR
    )
    assert tournament.status_code == 422
    assert tournament.json()["errors"][0]["field"] == "date"
    assert client.get("/api/v1/seasons").json() == []
    assert client.get("/api/v1/tournaments").json() == []
    assert stored_events(client) == 0


def test_a_summer_break_is_added_to_a_season_as_a_period(client: Client) -> None:
    season = client.post(
        "/api/v1/seasons",
        json={"name": "S", "starts_on": "2026-03-01", "ends_on": "2027-02-28"},
        headers=DIRECTOR,
    ).json()
    added = client.post(
        f"/api/v1/seasons/{season['id']}/periods",
        json={
            "name": "Sommerpause 2026",
            "kind": "break",
            "starts_on": "2026-06-01",
            "ends_on": "2026-08-31",
        },
        headers=DIRECTOR,
    )
    assert added.status_code == 201
    assert added.json()["periods"] == [
        {
            "name": "Sommerpause 2026",
            "kind": "break",
            "starts_on": "2026-06-01",
            "ends_on": "2026-08-31",
        }
    ]


def test_registrations_fill_twenty_seats_then_the_waitlist(client: Client) -> None:
    # rules T-SEAT-1, T-REG-3
    tournament = schedule(client)["id"]
    receipts = [register(client, tournament, n) for n in range(1, 23)]
    assert [r["status"] for r in receipts] == ["registered"] * 20 + ["waitlisted"] * 2
    assert [r["waitlist_position"] for r in receipts[19:]] == [None, 1, 2]
    assert all(len(r["player_token"]) >= 40 for r in receipts)
    seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    assert seats == {"capacity": 20, "taken": 20, "free": 0, "waitlist": 2, "checked_in": 0}


def test_the_public_list_shows_display_names_only(client: Client) -> None:
    tournament = schedule(client)["id"]
    register(client, tournament, 1)
    public = client.get(f"/api/v1/tournaments/{tournament}/participants")
    assert public.status_code == 200
    [entry] = public.json()
    assert entry["display_name"] == "Vorname1 N."
    assert entry["status"] == "registered"
    assert set(entry) == {"player_id", "display_name", "status", "waitlist_position"}
    assert "spieler1@example.org" not in public.text
    assert "Nachname1" not in public.text


def test_the_directors_list_has_the_personal_data_and_needs_the_director(client: Client) -> None:
    tournament = schedule(client)["id"]
    receipt = register(client, tournament, 1)
    assert client.get(f"/api/v1/tournaments/{tournament}/registrations").status_code == 401
    other = {"Authorization": f"Bearer {receipt['player_token']}"}
    assert (
        client.get(f"/api/v1/tournaments/{tournament}/registrations", headers=other).status_code
        == 403
    )
    [record] = client.get(
        f"/api/v1/tournaments/{tournament}/registrations", headers=DIRECTOR
    ).json()
    assert record["registration_id"] == receipt["registration_id"]
    assert (record["first_name"], record["last_name"], record["email"], record["age"]) == (
        "Vorname1",
        "Nachname1",
        "spieler1@example.org",
        31,
    )
    assert record["registered_at"] == "2026-03-01T10:00:00+01:00"
    assert "player_token" not in record
    assert "token_hash" not in record


def test_the_same_person_cannot_register_twice(client: Client) -> None:
    # rule T-REG-2
    tournament = schedule(client)["id"]
    register(client, tournament, 1)
    again = client.post(
        f"/api/v1/tournaments/{tournament}/registrations",
        json=person(1, email="SPIELER1@example.org"),
        headers=DIRECTOR,
    )
    assert again.status_code == 409
    assert again.json()["type"].endswith("/duplicate-registration")
    assert again.json()["field"] == "email"


def test_cancellation_promotes_the_waitlist_until_the_deadline_then_409(
    client: Client, clock: MovableClock
) -> None:
    # rules T-CANCEL-1, T-REG-3, with the dev clock of API.md
    tournament = schedule(client)["id"]
    receipts = [register(client, tournament, n) for n in range(1, 24)]
    first_waiting, second_waiting = receipts[20], receipts[21]
    advance_to(client, clock, ONE_MINUTE_BEFORE_DEADLINE)
    assert client.get(f"/api/v1/tournaments/{tournament}").json()["status"] == "open"

    cancelled = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{receipts[4]['registration_id']}",
        headers={"Authorization": f"Bearer {receipts[4]['player_token']}"},
    )
    assert cancelled.status_code == 200, cancelled.text
    assert cancelled.json() == {
        "registration_id": receipts[4]["registration_id"],
        "status": "cancelled",
        "promoted_registration_id": first_waiting["registration_id"],
        "refund_cents": 0,
    }
    seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    assert (seats["taken"], seats["waitlist"]) == (20, 2)
    public = client.get(f"/api/v1/tournaments/{tournament}/participants").json()
    assert [p["waitlist_position"] for p in public if p["status"] == "waitlisted"] == [1, 2]
    assert public[-2]["player_id"] == second_waiting["player_id"]

    client.post("/api/v1/dev/clock/advance", json={"seconds": 120}, headers=DIRECTOR)
    assert client.get(f"/api/v1/tournaments/{tournament}").json()["status"] == "cancellation_closed"
    too_late = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{receipts[5]['registration_id']}",
        headers={"Authorization": f"Bearer {receipts[5]['player_token']}"},
    )
    assert too_late.status_code == 409
    problem = too_late.json()
    assert problem["type"].endswith("/cancellation-closed")
    assert problem["cancellation_until"] == "2026-04-16T18:00:00+02:00"
    assert "2026-04-16T18:00:00+02:00" in problem["detail"]

    # the director can still record it, as a late withdrawal; the next waiting person moves up
    late = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{receipts[5]['registration_id']}?reason=ill",
        headers=DIRECTOR,
    )
    assert late.status_code == 200
    assert late.json()["status"] == "withdrawn"
    assert late.json()["promoted_registration_id"] == second_waiting["registration_id"]
    records = client.get(f"/api/v1/tournaments/{tournament}/registrations", headers=DIRECTOR).json()
    withdrawn = next(r for r in records if r["registration_id"] == receipts[5]["registration_id"])
    assert (withdrawn["status"], withdrawn["withdrawal_reason"]) == ("withdrawn", "ill")


def test_a_registration_is_cancelled_only_with_its_own_token(client: Client) -> None:
    tournament = schedule(client)["id"]
    mine, theirs = register(client, tournament, 1), register(client, tournament, 2)
    path = f"/api/v1/tournaments/{tournament}/registrations/{mine['registration_id']}"
    assert client.delete(path).status_code == 401
    wrong = client.delete(path, headers={"Authorization": f"Bearer {theirs['player_token']}"})
    assert wrong.status_code == 403
    unknown = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{uuid4()}",
        headers={"Authorization": f"Bearer {mine['player_token']}"},
    )
    assert unknown.status_code == 404
    assert client.get(f"/api/v1/tournaments/{tournament}/seats").json()["taken"] == 2


@pytest.mark.parametrize(
    "header", ["Bearer tökén".encode(), "Bearer tökén".encode("latin-1"), b"Bearer \xff\xfe"]
)
def test_a_token_with_non_ascii_characters_is_401_not_500(client: Client, header: bytes) -> None:
    # API.md: 401 without a token or with one nobody holds, 403 for another registration's
    tournament = schedule(client)["id"]
    mine = register(client, tournament, 1)
    path = f"/api/v1/tournaments/{tournament}/registrations/{mine['registration_id']}"
    response = client.delete(path, headers={b"Authorization": header})
    assert response.status_code == 401, response.text
    assert client.get(f"/api/v1/tournaments/{tournament}/seats").json()["taken"] == 1


def test_check_in_and_start_release_no_shows_and_fix_the_pot(
    client: Client, clock: MovableClock
) -> None:
    # rules T-CHECKIN-1, T-CHECKIN-2, T-BUYIN-1
    tournament = schedule(client)["id"]
    receipts = [register(client, tournament, n) for n in range(1, 7)]
    paid = {"id_document_seen": True, "buy_in_paid_cents": 10000}
    path = f"/api/v1/tournaments/{tournament}/registrations/{{}}/check-in"
    early = client.post(path.format(receipts[0]["registration_id"]), json=paid, headers=DIRECTOR)
    assert early.status_code == 409
    assert early.json()["check_in_opens"] == "2026-04-18T12:30:00+02:00"

    advance_to(client, clock, CHECK_IN_OPENS)
    assert client.get(f"/api/v1/tournaments/{tournament}").json()["status"] == "check_in"
    no_id = client.post(
        path.format(receipts[0]["registration_id"]),
        json={**paid, "id_document_seen": False},
        headers=DIRECTOR,
    )
    assert no_id.status_code == 422
    assert no_id.json()["errors"][0]["field"] == "id_document_seen"
    as_player = client.post(
        path.format(receipts[0]["registration_id"]),
        json=paid,
        headers={"Authorization": f"Bearer {receipts[0]['player_token']}"},
    )
    assert as_player.status_code == 403
    for receipt in receipts[:4]:
        checked = client.post(path.format(receipt["registration_id"]), json=paid, headers=DIRECTOR)
        assert checked.status_code == 200, checked.text
    assert checked.json()["checked_in"] == 4
    assert checked.json()["pot_cents"] == 32000
    assert checked.json()["checked_in_at"] == "2026-04-18T12:30:00+02:00"

    started = client.post(f"/api/v1/tournaments/{tournament}/start", headers=DIRECTOR)
    assert started.status_code == 200, started.text
    body = started.json()
    assert (body["status"], body["players"], body["pot_cents"]) == ("running", 4, 32000)
    assert body["no_shows"] == [r["registration_id"] for r in receipts[4:]]
    seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    assert seats == {"capacity": 20, "taken": 4, "free": 16, "waitlist": 0, "checked_in": 4}
    shown = client.get(f"/api/v1/tournaments/{tournament}").json()
    assert (shown["status"], shown["pot_cents"]) == ("running", 32000)
    assert shown["started_at"] == "2026-04-18T12:30:00+02:00"
    statuses = [
        p["status"] for p in client.get(f"/api/v1/tournaments/{tournament}/participants").json()
    ]
    assert statuses == ["checked_in"] * 4  # no-shows are not listed publicly
    again = client.post(f"/api/v1/tournaments/{tournament}/start", headers=DIRECTOR)
    assert again.status_code == 409


def test_waitlisted_people_on_site_take_the_seats_of_no_shows_at_the_start(
    client: Client, clock: MovableClock
) -> None:
    # rules T-CHECKIN-2, T-REG-3, T-BUYIN-1: 4 seats; #1, #2 check in, #3, #4 do not come;
    # of the waitlist #6 and #5 check in as standbys (in that order), #7 as well, #8 stays home
    tournament = schedule(client, capacity=4)["id"]
    receipts = [register(client, tournament, n) for n in range(1, 9)]
    advance_to(client, clock, CHECK_IN_OPENS)
    paid = {"id_document_seen": True, "buy_in_paid_cents": 10000}
    path = f"/api/v1/tournaments/{tournament}/registrations/{{}}/check-in"
    for number in (1, 2, 6, 5, 7):
        response = client.post(
            path.format(receipts[number - 1]["registration_id"]), json=paid, headers=DIRECTOR
        )
        assert response.status_code == 200, response.text
    standby = response.json()
    assert (standby["status"], standby["checked_in"], standby["standbys"]) == ("standby", 2, 3)
    assert standby["pot_cents"] == 16000  # the pot counts seated players only
    seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    assert seats == {"capacity": 4, "taken": 4, "free": 0, "waitlist": 4, "checked_in": 2}

    started = client.post(f"/api/v1/tournaments/{tournament}/start", headers=DIRECTOR)
    assert started.status_code == 200, started.text
    body = started.json()
    ids = [r["registration_id"] for r in receipts]
    assert body["no_shows"] == [ids[2], ids[3]]
    assert body["promoted_standbys"] == [ids[4], ids[5]]  # waitlist order, not check-in order
    assert body["unseated_standbys"] == [{"registration_id": ids[6], "refund_cents": 10000}]
    assert (body["players"], body["pot_cents"]) == (4, 32000)
    # after the start nobody waits for a seat: the unseated standby is refunded, not waiting
    seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    assert seats == {"capacity": 4, "taken": 4, "free": 0, "waitlist": 0, "checked_in": 4}
    records = {
        r["registration_id"]: r
        for r in client.get(
            f"/api/v1/tournaments/{tournament}/registrations", headers=DIRECTOR
        ).json()
    }
    assert [records[i]["status"] for i in ids] == [
        "checked_in",
        "checked_in",
        "no_show",
        "no_show",
        "checked_in",
        "checked_in",
        "waitlisted",
        "waitlisted",
    ]
    assert records[ids[4]]["checked_in_at"] == "2026-04-18T12:30:00+02:00"
    assert (records[ids[6]]["refund_cents"], records[ids[7]]["refund_cents"]) == (10000, None)
    assert [records[i]["waitlist_position"] for i in ids[6:]] == [1, 2]


def test_a_waitlisted_person_leaves_the_waitlist_after_the_deadline(
    client: Client, clock: MovableClock
) -> None:
    # rule T-CANCEL-1: the deadline binds seats; the waitlist holds none
    tournament = schedule(client, capacity=2)["id"]
    receipts = [register(client, tournament, n) for n in range(1, 5)]
    advance_to(client, clock, CHECK_IN_OPENS)
    seated = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{receipts[0]['registration_id']}",
        headers={"Authorization": f"Bearer {receipts[0]['player_token']}"},
    )
    assert seated.status_code == 409
    waiting = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{receipts[3]['registration_id']}",
        headers={"Authorization": f"Bearer {receipts[3]['player_token']}"},
    )
    assert waiting.status_code == 200, waiting.text
    assert waiting.json() == {
        "registration_id": receipts[3]["registration_id"],
        "status": "cancelled",
        "promoted_registration_id": None,
        "refund_cents": 0,
    }
    # a standby who goes home before the start gets the buy-in back
    client.post(
        f"/api/v1/tournaments/{tournament}/registrations/{receipts[2]['registration_id']}/check-in",
        json={"id_document_seen": True, "buy_in_paid_cents": 10000},
        headers=DIRECTOR,
    )
    standby = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{receipts[2]['registration_id']}",
        headers={"Authorization": f"Bearer {receipts[2]['player_token']}"},
    )
    assert standby.status_code == 200, standby.text
    assert standby.json()["refund_cents"] == 10000
    seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    assert (seats["taken"], seats["waitlist"]) == (2, 0)


def test_the_director_withdraws_a_checked_in_player_before_the_start(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-5: someone who leaves before the start is neither in the pot nor in round 1;
    # the seat goes to the first waiting person (here a standby, checked in already)
    tournament = schedule(client, capacity=3)["id"]
    receipts = [register(client, tournament, n) for n in range(1, 5)]
    advance_to(client, clock, CHECK_IN_OPENS)
    paid = {"id_document_seen": True, "buy_in_paid_cents": 10000}
    for receipt in receipts:
        checked = client.post(
            f"/api/v1/tournaments/{tournament}/registrations/{receipt['registration_id']}/check-in",
            json=paid,
            headers=DIRECTOR,
        )
        assert checked.status_code == 200, checked.text
    assert checked.json()["status"] == "standby"
    path = f"/api/v1/tournaments/{tournament}/registrations/{receipts[1]['registration_id']}"
    by_player = client.delete(
        path, headers={"Authorization": f"Bearer {receipts[1]['player_token']}"}
    )
    assert by_player.status_code == 409
    withdrawn = client.delete(path + "?reason=unwell", headers=DIRECTOR)
    assert withdrawn.status_code == 200, withdrawn.text
    assert withdrawn.json() == {
        "registration_id": receipts[1]["registration_id"],
        "status": "withdrawn",
        "promoted_registration_id": receipts[3]["registration_id"],
        "refund_cents": 0,
    }
    seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    assert seats == {"capacity": 3, "taken": 3, "free": 0, "waitlist": 0, "checked_in": 3}
    assert client.get(f"/api/v1/tournaments/{tournament}").json()["pot_cents"] == 24000
    started = client.post(f"/api/v1/tournaments/{tournament}/start", headers=DIRECTOR).json()
    assert (started["players"], started["pot_cents"], started["no_shows"]) == (3, 24000, [])
    public = client.get(f"/api/v1/tournaments/{tournament}/participants").json()
    assert receipts[1]["player_id"] not in [p["player_id"] for p in public]


def test_registration_after_the_start_is_refused_and_nothing_stored(
    client: Client, clock: MovableClock
) -> None:
    tournament = schedule(client)["id"]
    advance_to(client, clock, datetime(2026, 4, 18, 11, 0, tzinfo=UTC))  # 13:00 in Berlin
    before = stored_events(client)
    late = client.post(f"/api/v1/tournaments/{tournament}/registrations", json=person(1))
    assert late.status_code == 409
    assert late.json()["starts_at"] == "2026-04-18T13:00:00+02:00"
    assert stored_events(client) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({k: v for k, v in person(1).items() if k != "first_name"}, "first_name"),
        ({k: v for k, v in person(1).items() if k != "email"}, "email"),
        ({k: v for k, v in person(1).items() if k != "age"}, "age"),
        (person(1, age="dreißig"), "age"),
        (person(1, age=30.5), "age"),
        (person(1, first_name=7), "first_name"),
        (person(1, age=17), "age"),  # rule T-REG-1
        (person(1, age=None, birth_date="2008-04-19"), "birth_date"),  # 17 on the play date
        (person(1, age=None, birth_date="2000-02-30"), "birth_date"),  # rule CAL-2
        (person(1, age=None, birth_date="30.02.2000"), "birth_date"),
        (person(1, age=None, birth_date="0001-01-01"), "birth_date"),  # years 1900..play date
        (person(1, age=None, birth_date="05.07.08"), "birth_date"),  # 2008: 17 on the play date
        (person(1, email="spieler at example.org"), "email"),
        (person(1, last_name="   "), "last_name"),
    ],
)
def test_bad_registrations_name_the_field_and_store_nothing(
    client: Client, body: dict[str, Any], field: str
) -> None:
    tournament = schedule(client)["id"]
    before = stored_events(client)
    response = client.post(f"/api/v1/tournaments/{tournament}/registrations", json=body)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["status"] == 422
    assert [e["field"] for e in problem["errors"]] == [field]
    assert field in problem["detail"]
    assert stored_events(client) == before
    assert client.get(f"/api/v1/tournaments/{tournament}/seats").json()["taken"] == 0


def test_a_birth_date_with_a_two_digit_year_of_the_last_century_registers(client: Client) -> None:
    # rule T-REG-1: "05.07.85" is 05.07.1985, not 2085 (which would lie in the future)
    tournament = schedule(client)["id"]
    response = register_by_mail(client, tournament, person(1, age=None, birth_date="05.07.85"))
    assert response.status_code == 201, response.text
    [record] = client.get(
        f"/api/v1/tournaments/{tournament}/registrations", headers=DIRECTOR
    ).json()
    assert record["birth_date"] == "1985-07-05"


def test_match_lengths_up_to_64_are_accepted(client: Client) -> None:
    # the Match ID's limit (gnubg's MAXSCORE): a tournament may play what a match accepts
    assert schedule(client, match_length=64)["match_length"] == 64


def test_an_unknown_tournament_is_404(client: Client) -> None:
    unknown = uuid4()
    response = client.post(f"/api/v1/tournaments/{unknown}/registrations", json=person(1))
    assert response.status_code == 404
    assert str(unknown) in response.json()["detail"]
    assert client.get(f"/api/v1/tournaments/{unknown}").status_code == 404
    assert client.get(f"/api/v1/tournaments/{unknown}/seats").status_code == 404
    assert client.get(f"/api/v1/tournaments/{unknown}/participants").status_code == 404
    assert client.get("/api/v1/tournaments/not-a-uuid").status_code == 404
    assert stored_events(client) == 0


def test_a_season_id_is_not_a_tournament_id(client: Client) -> None:
    season = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR).json()
    response = client.post(f"/api/v1/tournaments/{season['id']}/registrations", json=person(1))
    assert response.status_code == 404
    # and the other way round, also when the store still holds the tournament's state
    tournament = schedule(client)["id"]
    as_season = client.post(
        "/api/v1/tournaments", json={**SPRING, "season_id": tournament}, headers=DIRECTOR
    )
    assert as_season.status_code == 422
    assert as_season.json()["errors"][0]["field"] == "season_id"
    assert client.get(f"/api/v1/seasons/{tournament}").status_code == 404


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"date": "2026-02-30"}, "date"),
        ({"date": "2026-02-27"}, "date"),  # the start has passed
        ({"date": "0001-01-01"}, "date"),  # rule CAL-2: years 1900..2999, never a 500
        ({"date": "9999-12-31"}, "date"),
        ({"match_length": 65}, "match_length"),
        ({"capacity": "zwanzig"}, "capacity"),
        ({"capacity": 0}, "capacity"),
        ({"cancellation_time": "25:00"}, "cancellation_time"),
        ({"season_id": str(uuid4())}, "season_id"),
        ({"class": ""}, "class"),
    ],
)
def test_bad_tournaments_name_the_field_and_store_nothing(
    client: Client, changes: dict[str, Any], field: str
) -> None:
    response = client.post("/api/v1/tournaments", json={**SPRING, **changes}, headers=DIRECTOR)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["field"] == field
    assert stored_events(client) == 0


def test_only_the_director_schedules_tournaments(client: Client) -> None:
    assert client.post("/api/v1/tournaments", json=SPRING).status_code == 401
    wrong = client.post("/api/v1/tournaments", json=SPRING, headers={"Authorization": "Bearer x"})
    assert wrong.status_code == 401  # a token nobody holds
    assert client.post("/api/v1/seasons", json=CALENDAR).status_code == 401
    assert stored_events(client) == 0


def test_deadlines_are_configurable_per_tournament(client: Client) -> None:
    created = schedule(
        client,
        cancellation_weekday="friday",
        cancellation_time="20:00",
        check_in_time="10:00",
        start_time="10:30",
    )
    assert created["deadlines"] == {
        "cancellation_until": "2026-04-17T20:00:00+02:00",
        "check_in_opens": "2026-04-18T10:00:00+02:00",
        "starts_at": "2026-04-18T10:30:00+02:00",
    }


def test_the_openapi_document_lists_the_tournament_endpoints(client: Client) -> None:
    paths = client.get("/schema/openapi.json").json()["paths"]
    for path in (
        "/api/v1/seasons",
        "/api/v1/tournaments",
        "/api/v1/tournaments/{tournament_id}",
        "/api/v1/tournaments/{tournament_id}/seats",
        "/api/v1/tournaments/{tournament_id}/participants",
        "/api/v1/tournaments/{tournament_id}/start",
        "/api/v1/tournaments/{tournament_id}/registrations",
        "/api/v1/tournaments/{tournament_id}/registrations/{registration_id}",
        "/api/v1/tournaments/{tournament_id}/registrations/{registration_id}/check-in",
    ):
        assert path in paths, path


def test_response_structs_carry_no_request_markers() -> None:
    # FromPath and friends describe where a handler's parameter comes from, not a response field
    responses = [
        value
        for value in vars(tournament_api).values()
        if isinstance(value, type)
        and issubclass(value, msgspec.Struct)
        and value.__module__ == tournament_api.__name__
        and not value.__name__.endswith(("Create",))
    ]
    # (the registrations answer as the view's RegistrationRecord: projections know no litestar)
    assert {"RegistrationUnconfirmed", "Tournament"} <= {struct.__name__ for struct in responses}
    for struct in responses:
        for name, hint in get_type_hints(struct, include_extras=True).items():
            markers = getattr(hint, "__metadata__", ())
            assert not [m for m in markers if isinstance(m, (ParameterKwarg, BodyKwarg))], (
                f"{struct.__name__}.{name}"
            )


def test_the_running_service_keys_player_ids_with_its_secret(tmp_path: Path) -> None:
    # Player ids in the public list must not be computable from an e-mail address by anyone
    # who reads the source: two servers with different secrets give different ids.
    ids = []
    for secret in ("one secret", "another secret"):
        settings = Settings(
            data_dir=tmp_path / secret, dev=True, run_scheduler=False, secret_key=secret
        )
        with TestClient(create_app(settings)) as client:
            ids.append(register(client, schedule(client, date="2999-04-18")["id"], 1)["player_id"])
    assert ids[0] != ids[1]


def test_the_openapi_document_explains_two_digit_birth_years(client: Client) -> None:
    # the choice for "05.07.85" (rule T-REG-1) is documented where clients look
    schemas = client.get("/schema/openapi.json").json()["components"]["schemas"]
    description = schemas["RegistrationCreate"]["properties"]["birth_date"]["description"]
    assert "19YY when 20YY would lie after the play date" in description
    assert "1900" in description
    start = schemas["TournamentStart"]["properties"]
    assert {"promoted_standbys", "unseated_standbys"} <= set(start)


def test_an_empty_calendar_lists_no_tournaments(client: Client) -> None:
    response = client.get("/api/v1/tournaments")
    assert response.status_code == 200
    assert response.json() == []


def test_the_calendar_lists_each_tournament_with_its_own_seats(client: Client) -> None:
    # rule T-SEAT-1: "N of 20 seats free" per tournament, read in one query for the list.
    spring = schedule(client)["id"]
    autumn = schedule(client, name="Herbstturnier 2026", date="2026-10-17")["id"]
    register(client, spring, 1)
    register(client, spring, 2)
    register(client, autumn, 3)
    listed = {t["id"]: t["seats"] for t in client.get("/api/v1/tournaments").json()}
    assert listed[spring]["taken"] == 2
    assert listed[spring]["free"] == 18
    assert listed[autumn]["taken"] == 1


def test_anonymous_registrations_are_rate_limited_per_client_but_not_the_directors(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path, dev=True, run_scheduler=False, registration_rate_limit=3)
    with TestClient(create_app(settings)) as client:
        tournament = schedule(client, date="2999-04-18")["id"]
        path = f"/api/v1/tournaments/{tournament}/registrations"
        statuses = [client.post(path, json=person(n)).status_code for n in range(1, 5)]
        assert statuses == [202, 202, 202, 429]
        refused = client.post(path, json=person(5))
        assert refused.headers["content-type"].startswith("application/problem+json")
        assert client.post(path, json=person(6), headers=DIRECTOR).status_code == 201
        # following the mails' links is not a registration request: not limited
        for number in (1, 2, 3):
            token = confirmation_token(client.app, person(number)["email"])
            confirmed = client.post("/api/v1/registrations/confirm", json={"token": token})
            assert confirmed.status_code == 201, confirmed.text
        assert client.get(f"/api/v1/tournaments/{tournament}/seats").json()["taken"] == 4


def test_every_field_of_a_tournament_request_reaches_the_plan() -> None:
    # the plan is the request restated: a plan field the request does not name (a rename on one
    # side only) would silently keep the plan's default, which no value below equals
    request = tournament_api.TournamentCreate(
        name="Sommerturnier",
        date="2026-07-04",
        venue="Vereinsheim",
        capacity=12,
        min_age=16,
        buy_in_cents=5000,
        pot_share_cents=4000,
        payout_percent=[60, 40],
        waitlist=False,
        waitlist_limit=3,
        swiss_rounds=4,
        match_length=5,
        match_lengths=tournament_api.MatchLengths(semi_final=9, final=11, third_place=3),
        dice="server",
        clock="none",
        clock_overtime_seconds=60,
        class_="Einsteiger",
        format="round_robin",
        knockout_players=4,
        round_robin_cycles=2,
        seeding="ranking",
        consolation="progressive",
        consolation_match_length=3,
        consolation_pot_percent=30,
        consolation_payout_percent=[100],
        variant="tavli",
        cube=True,
        tavli_format="best_of_three",
        stage_variants={"final": "backgammon"},
    )
    plan = tournament_api.tournament_plan(request)
    defaults = {field.name: field.default for field in msgspec.structs.fields(TournamentPlan)}
    assert [name for name, default in defaults.items() if getattr(plan, name) == default] == []
    assert plan.class_name == "Einsteiger"
    assert plan.knockout_lengths == KnockoutLengths(semi_final=9, final=11, third_place=3)


def test_the_director_reads_the_registrations_as_csv_too(client: Client) -> None:
    # API.md: tables (standings, ranking, registrations) also answer Accept: text/csv
    tournament_id = schedule(client)["id"]
    first, second = register(client, tournament_id, 1), register(client, tournament_id, 2)
    url = f"/api/v1/tournaments/{tournament_id}/registrations"

    response = client.get(url, headers={**DIRECTOR, "Accept": "text/csv"})

    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert [row["registration_id"] for row in rows] == [
        first["registration_id"],
        second["registration_id"],
    ]
    assert rows[0]["email"] == "spieler1@example.org"
    as_json = client.get(url, headers=DIRECTOR).json()
    assert list(rows[0]) == list(as_json[0])  # the same columns as the JSON's fields
    assert client.get(url, headers={"Accept": "text/csv"}).status_code == 401
