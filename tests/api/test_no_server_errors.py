"""Whatever JSON a client sends to any command, the answer is never a 500 (hypothesis fuzzes)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from api.app import create_app
from service.clock import MovableClock
from service.settings import Settings
from tests.api.test_tournaments import person, schedule
from tests.conftest import DIRECTOR

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        "dice",
        "play",
        "position_id",
        "side",
        "action",
        "level",
        "seconds",
        "first_name",
        "last_name",
        "age",
        "birth_date",
        "email",
        "date",
        "name",
        "id_document_seen",
        "buy_in_paid_cents",
        "match_length",
        "player_a",
        "player_b",
        "clock",
        "starts_on",
    ]
)
bodies = json_values | st.dictionaries(FIELDS, json_values, max_size=5)


@pytest.fixture(scope="module")
def service(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[TestClient[Any], list[str]]]:
    data_dir: Path = tmp_path_factory.mktemp("fuzz")
    settings = Settings(
        data_dir=data_dir, dev=True, run_scheduler=False, registration_rate_limit=10_000
    )
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    with TestClient(create_app(settings, clock=clock)) as client:
        tournament = schedule(client)["id"]
        registration = client.post(
            f"/api/v1/tournaments/{tournament}/registrations", json=person(1), headers=DIRECTOR
        ).json()["registration_id"]
        match = client.post(
            "/api/v1/matches",
            json={"player_a": "a", "player_b": "b", "match_length": 3},
            headers=DIRECTOR,
        ).json()["id"]
        paths = [
            "/api/v1/analysis/legal-plays",
            "/api/v1/seasons",
            "/api/v1/tournaments",
            f"/api/v1/tournaments/{tournament}/registrations",
            f"/api/v1/tournaments/{tournament}/registrations/{registration}/check-in",
            f"/api/v1/tournaments/{tournament}/start",
            "/api/v1/matches",
            *(
                f"/api/v1/matches/{match}/{command}"
                for command in (
                    "rolls",
                    "rolls/void",
                    "plays",
                    "cube",
                    "resignations",
                    "resignations/accept",
                    "resignations/reject",
                    "timeouts",
                )
            ),
        ]
        yield client, paths


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(index=st.integers(min_value=0), body=bodies, as_director=st.booleans())
def test_no_body_sent_to_a_command_is_a_server_error(
    service: tuple[TestClient[Any], list[str]], index: int, body: Any, as_director: bool
) -> None:
    client, paths = service
    path = paths[index % len(paths)]
    response = client.post(path, json=body, headers=DIRECTOR if as_director else {})
    assert response.status_code < 500, f"{path} {body!r}: {response.text}"
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/problem+json")
