"""Pages for people: the server's time to render the director's round page and the wallboard of
a 64-player tournament in its fourth round (issue 21: p99 below 100 ms on SQLite).

The day is recorded through the services (64 players checked in, three Swiss rounds decided,
round 4 paired with half its results in), then each page is asked for over and over through
the app in this process (ASGI, no network): the time of each answer, from the request to its
last byte, is the server's time for that page; the process's CPU time per answer (server and
the in-process client together) follows the machine's load less than the wall time.
``BENCH_PAGES_REQUESTS`` sets how many of each (default 300).
"""

from __future__ import annotations

import logging
import os
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID

from litestar.testing import TestClient

from api.app import create_app
from api.console.console import COOKIES
from domain.tournament import Applicant, TournamentPlan
from service.bootstrap import Services
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.rounds.rounds import ReportedResult
from service.settings import DEV_DIRECTOR_TOKEN, Settings
from service.shared.day_views import Round

PLAYERS = 64
DECIDED_ROUNDS = 3
REQUESTS = int(os.environ.get("BENCH_PAGES_REQUESTS", "300"))
WARM_UP = 20
CHECK_IN_OPENS = datetime(2026, 4, 18, 10, 30, tzinfo=UTC)
TARGET_P99_MS = 100.0


def record(services: Services, paired: Round, tournament_id: UUID, *, share: float = 1.0) -> None:
    """The director's results of ``share`` of the round's tables."""
    tables = [t for t in paired.pairings if t.match_id is not None and t.player_b is not None]
    for table in tables[: int(len(tables) * share)]:
        assert table.match_id is not None
        assert table.player_b is not None
        a_wins = (table.table + paired.round) % 2 == 0
        services.rounds.record_result(
            tournament_id,
            ReportedResult(
                match_id=table.match_id,
                winner=table.player_a if a_wins else table.player_b,
                points_a=7 if a_wins else table.table % 7,
                points_b=table.table % 7 if a_wins else 7,
            ),
        )


def a_day_in_its_fourth_round(services: Services, clock: MovableClock) -> UUID:
    plan = TournamentPlan(
        name="Großes Turnier", date="2026-04-18", venue="Amberg", capacity=PLAYERS
    )
    tournament_id = services.tournaments.schedule_tournament(plan).id
    registrations = [
        services.tournaments.register(
            tournament_id,
            Applicant(
                first_name=f"Spieler{n}",
                last_name="Muster",
                email=f"spieler{n}@example.org",
                age=40,
            ),
        )
        for n in range(PLAYERS)
    ]
    clock.advance((CHECK_IN_OPENS - clock.now()).total_seconds())
    for registration in registrations:
        services.tournaments.check_in(
            tournament_id,
            registration.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=10000),
        )
    paired = services.rounds.start(tournament_id).round
    for _ in range(DECIDED_ROUNDS):
        record(services, paired, tournament_id)
        paired = services.rounds.pair_round(tournament_id)
    record(services, paired, tournament_id, share=0.5)
    return tournament_id


def timings(client: TestClient[Any], path: str) -> tuple[list[float], float]:
    """Milliseconds per answer of ``path``, after a warm-up, and the process's CPU time per
    answer (ms): the wall time follows the machine's load, the CPU time much less."""
    for _ in range(WARM_UP):
        assert client.get(path).status_code == 200
    found = []
    cpu = time.process_time()
    for _ in range(REQUESTS):
        started = time.perf_counter()
        response = client.get(path)
        found.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.text
    return found, (time.process_time() - cpu) * 1000 / REQUESTS


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def run() -> dict[str, float]:
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
        settings = Settings(data_dir=Path(folder), dev=True, run_scheduler=False)
        app = create_app(settings, clock=clock)
        with TestClient(app) as client:
            logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request
            services: Services = app.state.services
            tournament_id = a_day_in_its_fourth_round(services, clock)
            client.cookies.set(COOKIES.session, services.sessions.open(DEV_DIRECTOR_TOKEN).cookie)
            pages = {
                "round page": f"/director/tournaments/{tournament_id}/rounds/{DECIDED_ROUNDS + 1}",
                "wallboard": f"/pages/tournaments/{tournament_id}/wallboard",
            }
            for name, path in pages.items():
                found, cpu = timings(client, path)
                p50, p99 = statistics.median(found), percentile(found, 0.99)
                key = name.replace(" ", "_")
                results[f"{key}_p50_ms"], results[f"{key}_p99_ms"] = p50, p99
                results[f"{key}_cpu_ms"] = cpu
                size = len(client.get(path).content)
                verdict = "met" if p99 < TARGET_P99_MS else "MISSED"
                print(
                    f"pages: the {name} of a {PLAYERS}-player tournament in round "
                    f"{DECIDED_ROUNDS + 1} ({size:,} bytes), {REQUESTS} requests: p50 "
                    f"{p50:.1f} ms, p99 {p99:.1f} ms, max {max(found):.1f} ms, CPU {cpu:.1f} ms "
                    f"per page (target p99 < {TARGET_P99_MS:.0f} ms on SQLite: {verdict}; load "
                    f"average {os.getloadavg()[0]:.1f})"
                )
    return results


if __name__ == "__main__":
    run()
