"""Live streams are capped per client address and in total, and every ending frees its slot.

About a thousand idle listeners once took every file the process could open; now a client
beyond its share hears 429, anyone beyond the process's cap 503, both with ``Retry-After``,
and ``/health`` answers all the while. Served by a real uvicorn: streams stay open there.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.app import create_app
from api.cli import proxy_options
from api.live import slots as live_slots
from api.live.slots import LiveStreamSlots, stream_cap
from service.clock import MovableClock
from service.settings import Settings
from tests.api.test_tournaments import SPRING
from tests.conftest import DIRECTOR
from tests.uvicorn_server import serving

PER_CLIENT = 3
TOTAL = 5


@dataclass
class Service:
    http: httpx.Client
    slots: LiveStreamSlots
    tournament: str
    match: str

    def live(self, client: str, path: str | None = None) -> Any:
        """Open a live stream as ``client`` (behind the trusted proxy): a context manager of
        the response, whose first line has come when it is 200."""
        return _live(self.http, path or f"/api/v1/tournaments/{self.tournament}/live", client)


@contextmanager
def _live(http: httpx.Client, path: str, client: str) -> Iterator[httpx.Response]:
    with http.stream("GET", path, headers={"X-Forwarded-For": client}) as response:
        if response.status_code == 200:
            # kept while the stream is: a dropped line iterator closes the connection
            lines = response.iter_lines()
            assert next(lines) == ": live"
        else:
            response.read()
        yield response


@pytest.fixture
def service(tmp_path: Path, clock: MovableClock) -> Iterator[Service]:
    settings = Settings(
        data_dir=tmp_path,
        dev=True,
        run_scheduler=False,
        trusted_proxies=("127.0.0.1",),
        live_streams_per_client=PER_CLIENT,
        live_streams_total=TOTAL,
    )
    app = create_app(settings, clock=clock)
    limits = httpx.Limits(max_connections=50)
    with (
        serving(app, **proxy_options(settings)) as url,
        httpx.Client(base_url=url, limits=limits, timeout=10) as http,
    ):
        tournament = http.post("/api/v1/tournaments", json=SPRING, headers=DIRECTOR)
        match = http.post(
            "/api/v1/matches",
            json={"player_a": "Anna", "player_b": "Ben", "match_length": 3},
            headers=DIRECTOR,
        )
        assert tournament.status_code == match.status_code == 201, match.text
        yield Service(http, app.state.live_slots, tournament.json()["id"], match.json()["id"])


def assert_refused(response: httpx.Response, status: int, slug: str) -> None:
    assert response.status_code == status
    assert response.headers["retry-after"] == str(live_slots.RETRY_AFTER_SECONDS)
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["status"] == status
    assert problem["type"].endswith("/" + slug)
    assert "try again later" in problem["detail"]


def wait_until(condition: Any, seconds: float = 5.0) -> None:
    # a real wait: the server thread hears a closed connection on its own time, no clock decides it
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "it did not happen in time"
        time.sleep(0.02)


def test_a_client_beyond_its_share_of_live_streams_hears_429_and_when_to_retry(
    service: Service,
) -> None:
    # a venue's phones behind one router are one client: its share counts both kinds of stream
    match_live = f"/api/v1/matches/{service.match}/live"
    with ExitStack() as open_streams:
        for path in (None, None, match_live):
            stream = open_streams.enter_context(service.live("203.0.113.1", path))
            assert stream.status_code == 200
        with service.live("203.0.113.1") as refused:
            assert_refused(refused, 429, "too-many-live-streams")
        with service.live("203.0.113.1", match_live) as refused:
            assert_refused(refused, 429, "too-many-live-streams")
        # another address still has its share
        with service.live("203.0.113.2", match_live) as other:
            assert other.status_code == 200
        assert service.slots.open_of("203.0.113.1") == PER_CLIENT


def test_beyond_the_process_cap_anyone_hears_503_and_health_answers_at_once(
    service: Service,
) -> None:
    with ExitStack() as open_streams:
        for number in range(TOTAL):
            client = f"203.0.113.{number % 2 + 1}"
            stream = open_streams.enter_context(service.live(client))
            assert stream.status_code == 200
        for number in range(20):
            with service.live(f"198.51.100.{number}") as refused:
                assert_refused(refused, 503, "live-streams-full")
        started = time.monotonic()
        health = service.http.get("/health")
        assert health.status_code == 200
        assert health.json()["status"] == "ok"
        assert time.monotonic() - started < 1.0
        assert service.slots.open == TOTAL


def test_a_stream_that_ends_frees_its_slot(service: Service) -> None:
    with ExitStack() as open_streams:
        for _ in range(PER_CLIENT):
            open_streams.enter_context(service.live("203.0.113.1"))
        assert service.slots.open_of("203.0.113.1") == PER_CLIENT
    # the client went (its connections closed): the server hears it and gives the slots back
    wait_until(lambda: service.slots.open == 0)
    with service.live("203.0.113.1") as again:
        assert again.status_code == 200


def test_an_unknown_stream_takes_no_slot(service: Service) -> None:
    unknown = "/api/v1/matches/00000000-0000-4000-8000-000000000000/live"
    for _ in range(PER_CLIENT + 1):
        with service.live("203.0.113.1", unknown) as missing:
            assert missing.status_code == 404
    assert service.slots.open == 0


def test_a_head_request_of_a_stream_frees_its_slot(service: Service) -> None:
    for _ in range(PER_CLIENT + 1):
        response = service.http.head(
            f"/api/v1/tournaments/{service.tournament}/live",
            headers={"X-Forwarded-For": "203.0.113.1"},
        )
        assert response.status_code == 200
        wait_until(lambda: service.slots.open == 0)


def test_the_cap_leaves_half_the_open_files_to_everything_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(resource, "getrlimit", lambda _: (1024, 4096))
    assert stream_cap(1000) == 512
    assert stream_cap(300) == 300


def test_serving_raises_the_open_file_limit_to_what_the_system_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = {"soft": 1024, "hard": 65536}
    monkeypatch.setattr(resource, "getrlimit", lambda _: (limits["soft"], limits["hard"]))

    def setrlimit(_: int, values: tuple[int, int]) -> None:
        limits["soft"], limits["hard"] = values

    monkeypatch.setattr(resource, "setrlimit", setrlimit)
    assert live_slots.raise_open_file_limit() == 65536
    assert limits == {"soft": 65536, "hard": 65536}


def test_the_served_document_names_both_refusals_of_a_live_stream(client: Any) -> None:
    paths = client.get("/schema/openapi.json").json()["paths"]
    for path in ("/api/v1/tournaments/{tournament_id}/live", "/api/v1/matches/{match_id}/live"):
        responses = paths[path]["get"]["responses"]
        for status, setting in (("429", "PER_CLIENT"), ("503", "TOTAL")):
            refusal = responses[status]
            assert f"BGTD_LIVE_STREAMS_{setting}" in refusal["description"]
            assert refusal["headers"]["Retry-After"]["schema"]["type"] == "integer"
            problem = refusal["content"]["application/problem+json"]["schema"]
            assert problem == {"$ref": "#/components/schemas/Problem"}
