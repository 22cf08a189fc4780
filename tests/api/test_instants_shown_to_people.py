"""Instants shown to people read to the second: event timestamps carry microseconds, which the
JSON API keeps but a message to a person never shows (issue 19, item 15)."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, person, register, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def test_a_late_registrant_is_told_the_start_to_the_second(
    client: Client, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: the director starts early, at 12:30:00.25 as the event records it
    tournament_id = schedule(client)["id"]
    receipts = [register(client, tournament_id, number) for number in (1, 2)]
    advance_to(client, clock, CHECK_IN_OPENS)
    moved = client.post("/api/v1/dev/clock/advance", json={"seconds": 0.25}, headers=DIRECTOR)
    assert moved.status_code == 200, moved.text
    for receipt in receipts:
        checked = client.post(
            f"/api/v1/tournaments/{tournament_id}/registrations/"
            f"{receipt['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        )
        assert checked.status_code == 200, checked.text
    started = client.post(f"/api/v1/tournaments/{tournament_id}/start", headers=DIRECTOR)
    assert started.status_code == 200, started.text

    late = client.post(f"/api/v1/tournaments/{tournament_id}/registrations", json=person(9))

    assert late.status_code == 409, late.text
    assert late.json()["detail"] == (
        "registration closed when the tournament started (2026-04-18T12:30:00+02:00)"
    )
    assert late.json()["started_at"] == "2026-04-18T12:30:00+02:00"
    # the JSON API keeps the instant as recorded
    shown = client.get(f"/api/v1/tournaments/{tournament_id}").json()
    assert shown["started_at"] == "2026-04-18T12:30:00.250000+02:00"
