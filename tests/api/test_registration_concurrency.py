"""Real concurrency: simultaneous registrations and cancellations against a running server."""

# rule P-MAIL-1: anonymous registrations ask first; the confirmations race for the seats.

# rules T-SEAT-1, T-REG-3: exactly 20 seats, 30 on the waitlist, whatever the interleaving; the
# seat count is decided in the aggregate and the event store refuses a second write on a version.

from __future__ import annotations

import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
import uvicorn

from api.app import create_app
from service.clock import MovableClock
from service.settings import Settings
from tests.conftest import DIRECTOR
from tests.mailbox import confirmation_token

PEOPLE = 50
SEATS = 20


@dataclass
class Server:
    url: str
    app: Any


@pytest.fixture
def server(tmp_path: Path, database_url: str | None) -> Iterator[Server]:
    """uvicorn serving ``create_app`` on a free localhost port, in a background thread."""
    settings = Settings(
        data_dir=tmp_path,
        database_url=database_url,
        dev=True,
        run_scheduler=False,
        registration_rate_limit=10_000,
    )
    app = create_app(settings, clock=MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC)))
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    config = uvicorn.Config(app, log_level="warning", lifespan="on", backlog=2 * PEOPLE)
    uvicorn_server = uvicorn.Server(config)
    thread = threading.Thread(target=uvicorn_server.run, kwargs={"sockets": [listener]})
    thread.start()
    # a real wait: the server thread starts on its own time, no clock of the service decides it
    deadline = time.monotonic() + 20
    while not uvicorn_server.started:
        assert time.monotonic() < deadline, "the server did not start"
        assert thread.is_alive(), "the server thread died"
        time.sleep(0.02)
    try:
        yield Server(url=f"http://127.0.0.1:{port}", app=app)
    finally:
        uvicorn_server.should_exit = True
        thread.join(timeout=20)
        listener.close()


Request = Callable[[httpx.Client], httpx.Response]


def all_at_once(server: Server, requests: list[Request]) -> list[httpx.Response]:
    """Send each request from its own thread and connection, all released by one barrier."""
    barrier = threading.Barrier(len(requests))
    responses: list[httpx.Response | BaseException] = [RuntimeError("not sent")] * len(requests)

    def send(index: int) -> None:
        with httpx.Client(base_url=server.url, timeout=60) as own:
            barrier.wait()
            try:
                responses[index] = requests[index](own)
            except BaseException as error:  # reported below, with the others
                responses[index] = error

    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    failures = [r for r in responses if not isinstance(r, httpx.Response) or r.status_code >= 400]
    assert failures == [], [r.text if isinstance(r, httpx.Response) else r for r in failures]
    return [r for r in responses if isinstance(r, httpx.Response)]


def schedule(server: Server) -> str:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        created = client.post(
            "/api/v1/tournaments",
            json={"name": "Frühlingsturnier 2026", "date": "2026-04-18"},
            headers=DIRECTOR,
        )
    assert created.status_code == 201, created.text
    tournament: str = created.json()["id"]
    return tournament


def sign_up(tournament: str, number: int) -> Request:
    body = {
        "first_name": f"Vorname{number}",
        "last_name": f"Nachname{number}",
        "age": 30,
        "email": f"spieler{number}@example.org",
    }
    return lambda client: client.post(f"/api/v1/tournaments/{tournament}/registrations", json=body)


def confirm(token: str) -> Request:
    return lambda client: client.post("/api/v1/registrations/confirm", json={"token": token})


def signed_up(server: Server, tournament: str, numbers: range) -> list[Request]:
    """rule P-MAIL-1: everyone asks at once (202), then each link from the mails is ready to be
    followed; the seat is decided by the confirmations."""
    asked = all_at_once(server, [sign_up(tournament, n) for n in numbers])
    assert {r.status_code for r in asked} == {202}
    return [confirm(confirmation_token(server.app, f"spieler{n}@example.org")) for n in numbers]


def cancel(tournament: str, receipt: dict[str, Any]) -> Request:
    path = f"/api/v1/tournaments/{tournament}/registrations/{receipt['registration_id']}"
    token = {"Authorization": f"Bearer {receipt['player_token']}"}
    return lambda client: client.delete(path, headers=token)


def views_of(server: Server, tournament: str) -> tuple[dict[str, int], list[dict[str, Any]]]:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        seats = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
        records = client.get(
            f"/api/v1/tournaments/{tournament}/registrations", headers=DIRECTOR
        ).json()
    return seats, records


def test_fifty_simultaneous_registrations_take_exactly_twenty_seats(server: Server) -> None:
    tournament = schedule(server)
    responses = all_at_once(server, signed_up(server, tournament, range(PEOPLE)))

    assert {r.status_code for r in responses} == {201}
    receipts = [r.json() for r in responses]
    assert Counter(r["status"] for r in receipts) == {
        "registered": SEATS,
        "waitlisted": PEOPLE - SEATS,
    }
    # the waitlist order is unique and complete: positions 1..30, once each
    assert sorted(r["waitlist_position"] for r in receipts if r["status"] == "waitlisted") == list(
        range(1, PEOPLE - SEATS + 1)
    )
    assert len({r["registration_id"] for r in receipts}) == PEOPLE
    assert len({r["player_token"] for r in receipts}) == PEOPLE

    seats, records = views_of(server, tournament)
    assert seats == {
        "capacity": SEATS,
        "taken": SEATS,
        "free": 0,
        "waitlist": PEOPLE - SEATS,
        "checked_in": 0,
    }
    assert {r["registration_id"]: r["status"] for r in records} == {
        r["registration_id"]: r["status"] for r in receipts
    }
    # the stream has one event per registration, versions without gaps or duplicates: every
    # lost version race was decided again on the newer state, none was stored twice
    stream = server.app.state.services.store.stream(UUID(tournament))
    assert [event.originator_version for event in stream] == list(range(1, PEOPLE + 2))


def test_cancellations_racing_registrations_never_overbook(server: Server) -> None:
    # rule T-REG-3: a freed seat goes to the waitlist in the same write, so a newcomer can
    # never slip into it; 25 sign up (20 seats, 5 waiting), then 10 cancel while 15 more sign up
    tournament = schedule(server)
    first = [r.json() for r in all_at_once(server, signed_up(server, tournament, range(25)))]
    seated = [r for r in first if r["status"] == "registered"]
    racing = [cancel(tournament, r) for r in seated[:10]] + signed_up(
        server, tournament, range(100, 115)
    )
    responses = all_at_once(server, racing)

    assert [r.status_code for r in responses] == [200] * 10 + [201] * 15
    assert {r.json()["status"] for r in responses[:10]} == {"cancelled"}
    seats, records = views_of(server, tournament)
    assert seats == {"capacity": SEATS, "taken": SEATS, "free": 0, "waitlist": 10, "checked_in": 0}
    statuses = Counter(r["status"] for r in records)
    assert statuses == {"registered": 20, "waitlisted": 10, "cancelled": 10}
    assert [r["waitlist_position"] for r in records if r["status"] == "waitlisted"] == list(
        range(1, 11)
    )
    # whoever waited longest moved up first: the waitlist keeps arrival order
    promoted = {r.json()["promoted_registration_id"] for r in responses[:10]} - {None}
    waiting_first = [r["registration_id"] for r in first if r["status"] == "waitlisted"]
    assert set(waiting_first) <= promoted
