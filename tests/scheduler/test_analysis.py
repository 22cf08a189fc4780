"""The running scheduler analyses an ended match by itself, once (rule A-ANALYSIS-1)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.bootstrap import Services
from service.clock import MovableClock
from service.settings import Settings
from tests.api.test_match_analysis import recorded, short_match
from tests.scheduler.test_jobs import after_the_next_poll


@pytest.mark.gnubg
def test_the_scheduler_analyses_an_ended_match_by_itself_once(
    gnubg: str, tmp_path: Path, clock: MovableClock
) -> None:
    running = Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=True)
    with TestClient(create_app(running, clock=clock)) as client:
        match_id = short_match(client, clock)
        url = f"/api/v1/matches/{match_id}/analysis"
        # what is waited on is the scheduler's own thread (a real interval) and gnubg's run
        deadline = time.monotonic() + 60
        while client.get(url).json()["status"] == "pending" and time.monotonic() < deadline:
            time.sleep(0.2)
        assert client.get(url).json()["status"] == "done", "the scheduler never analysed it"
        services: Services = client.app.state.services
        assert after_the_next_poll(services, poll="run_slow") == []  # nothing left to do
        assert recorded(client) == {"MatchAnalysed": 1}
