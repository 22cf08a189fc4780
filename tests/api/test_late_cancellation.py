"""DELETE .../registrations/{rid} after the start: a registration made after the start that
was never admitted to the field is cancelled (rule T-CANCEL-1), by its player while it is not
checked in, by the director also once checked in, the buy-in handed back (rules T-CHECKIN-1,
T-BUYIN-1); a registration of the field is withdrawn instead, as before."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import start_tournament
from tests.api.test_tournaments import person
from tests.conftest import DIRECTOR

Client = TestClient[Any]
CHECK_IN = {"id_document_seen": True, "buy_in_paid_cents": 10000}


def test_a_late_registration_never_admitted_is_cancelled_over_rest(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    absent, arrived = (
        client.post(day.url("/registrations"), json=person(n), headers=DIRECTOR).json()
        for n in (5, 6)
    )
    client.post(
        day.url(f"/registrations/{arrived['registration_id']}/check-in"),
        json=CHECK_IN,
        headers=DIRECTOR,
    ).raise_for_status()

    # rule T-CANCEL-1: the late registrant who never comes cancels with their token
    mine = client.delete(
        day.url(f"/registrations/{absent['registration_id']}"),
        headers={"Authorization": f"Bearer {absent['player_token']}"},
    )
    assert mine.status_code == 200, mine.text
    assert mine.json() == {
        "registration_id": absent["registration_id"],
        "status": "cancelled",
        "promoted_registration_id": None,
        "refund_cents": 0,
    }

    # rule T-CHECKIN-1: checked in, the buy-in is paid: the player asks the director
    paid = day.url(f"/registrations/{arrived['registration_id']}")
    refused = client.delete(paid, headers={"Authorization": f"Bearer {arrived['player_token']}"})
    assert refused.status_code == 409
    problem = refused.json()
    assert problem["type"].endswith("/cancellation-closed")
    assert problem["detail"] == (
        "the buy-in is paid, the registration checked in: ask the tournament director"
    )
    assert problem["registration_status"] == "checked_in"

    # rule T-BUYIN-1: the director cancels it and hands the buy-in back; the pot is unchanged
    by_director = client.delete(paid, headers=DIRECTOR)
    assert by_director.status_code == 200, by_director.text
    assert by_director.json() == {
        "registration_id": arrived["registration_id"],
        "status": "cancelled",
        "promoted_registration_id": None,
        "refund_cents": 10000,
    }
    records = {
        r["registration_id"]: r
        for r in client.get(day.url("/registrations"), headers=DIRECTOR).json()
    }
    assert [
        (records[r["registration_id"]]["status"], records[r["registration_id"]]["refund_cents"])
        for r in (absent, arrived)
    ] == [("cancelled", None), ("cancelled", 10000)]
    seats = client.get(day.url("/seats")).json()
    assert (seats["taken"], seats["checked_in"], seats["waitlist"]) == (4, 4, 0)
    assert client.get(day.url("/prizes")).json()["pot_cents"] == 4 * 8000
    public = client.get(day.url("/participants")).json()
    assert {p["player_id"] for p in public} == set(day.players)

    # a registration of the field keeps its answer: a withdrawal, not a cancellation
    field = next(iter(day.players.values()))
    withdraw = client.delete(
        day.url(f"/registrations/{field['registration_id']}"), headers=DIRECTOR
    )
    assert withdraw.status_code == 409
    assert withdraw.json()["type"].endswith("/tournament-state")
    assert withdraw.json()["detail"] == (
        "the tournament is running: record a withdrawal instead of a cancellation"
    )
