"""Every match played through bgtd is analysed by GNU Backgammon once it has ended, with the
figures gnubg itself prints for the exported match; without gnubg, nothing but "unavailable"."""

from __future__ import annotations

import os
import random
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.backgammon.cache import cached_format_play
from service.bootstrap import Services
from service.clock import MovableClock
from service.settings import Settings
from service.shared.match_play import Caller
from tests.api.match_script import DIRECTOR, play_seven_point_match
from tests.api.test_tournament_day import start_tournament

Client = TestClient[Any]
ANALYSIS_EVENTS = ("MatchAnalysisRequested", "MatchAnalysed", "MatchAnalysisFailed")


def service_with(settings: Settings, clock: MovableClock, **changes: Any) -> Iterator[Client]:
    with TestClient(
        create_app(msgspec.structs.replace(settings, **changes), clock=clock)
    ) as client:
        yield client


@pytest.fixture
def without_gnubg(settings: Settings, clock: MovableClock, tmp_path: Path) -> Iterator[Client]:
    yield from service_with(settings, clock, gnubg=str(tmp_path / "no-such-gnubg"))


def services_of(client: Client) -> Services:
    services: Services = client.app.state.services
    return services


def recorded(client: Client) -> Counter[str]:
    """How often each analysis event is in the store."""
    store = services_of(client).store
    names = [n.topic.rpartition(":")[2] for n in store.notifications(0, 100_000)]
    return Counter(name for name in names if name in ANALYSIS_EVENTS)


def analysis_jobs(client: Client) -> list[tuple[str, str | None]]:
    jobs = client.get("/api/v1/jobs", headers=DIRECTOR).json()
    return [(job["status"], job["effect"]) for job in jobs if job["kind"] == "analyse_match"]


def short_match(client: Client, clock: MovableClock, *, moves: bool = True) -> str:
    """A 3-point match on the club clock: side a opens (and plays 8/5 6/5 with ``moves``),
    then a flag falls and the other side claims the match (rule G-CLOCK-1)."""
    body = {"player_a": "anna", "player_b": "ben", "match_length": 3, "clock": "club"}
    created = client.post("/api/v1/matches", json=body, headers=DIRECTOR).json()
    path = f"/api/v1/matches/{created['id']}"
    tokens = {
        side: {"Authorization": f"Bearer {t}"} for side, t in created["player_tokens"].items()
    }
    assert client.post(f"{path}/rolls", json={"dice": [3, 1]}, headers=tokens["a"]).is_success
    if moves:
        played = client.post(f"{path}/plays", json={"play": "8/5 6/5"}, headers=tokens["a"])
        assert played.is_success, played.text
    clock.advance(6 * 60 + 1)
    claimant = tokens["a"] if moves else tokens["b"]
    claimed = client.post(f"{path}/timeouts", json={}, headers=claimant)
    assert claimed.status_code == 200, claimed.text
    return str(created["id"])


# With GNU Backgammon --------------------------------------------------------------------------

GNUBG_COMMANDS = """set analysis chequerplay evaluation plies 0
set analysis cubedecision evaluation plies 0
import mat {mat}
analyse match
show statistics match
"""


def gnubg_statistics(program: str, mat: str, folder: Path) -> dict[str, list[str]]:
    """gnubg's own ``show statistics match`` of ``mat`` at 0 ply: the printed figures of the
    lines the analysis reads, section by section (``overall: Error rate mEMG``: [a, b])."""
    (folder / "exported.mat").write_text(mat)
    (folder / "commands").write_text(GNUBG_COMMANDS.format(mat=folder / "exported.mat"))
    printed = subprocess.run(
        [program, "-t", "-q", "-r", "-c", str(folder / "commands")],
        env={**os.environ, "LC_ALL": "C"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    ).stdout
    figures: dict[str, list[str]] = {}
    section = ""
    for line in printed.splitlines():
        if line.endswith("statistics"):
            section = line.split()[0].lower()
        for label in ("Unforced moves", "Close or actual cube decisions"):
            if line.startswith(label):
                figures[f"{section}: {label}"] = line[len(label) :].split()
        for label in ("Error total EMG", "Error rate mEMG"):
            if line.startswith(label):
                figures[f"{section}: {label}"] = re.findall(r"(-?\d+\.\d+)\s+\(", line)
    return figures


@pytest.mark.gnubg
def test_a_match_played_through_the_api_is_analysed_once_with_gnubgs_own_figures(
    gnubg: str, client: Client, clock: MovableClock, tmp_path: Path
) -> None:
    # rules A-ANALYSIS-1, A-ANALYSIS-2, A-ANALYSIS-3
    played = play_seven_point_match(client, clock)
    url = f"/api/v1/matches/{played.id}/analysis"
    assert client.get(url).json()["status"] == "pending"
    services = services_of(client)

    match_events = client.get(f"/api/v1/matches/{played.id}/events").json()

    assert services.jobs.run_due(clock.now()) == []  # the deadlines of play never wait for it
    [run] = services.jobs.run_slow(clock.now())
    # rule A-ANALYSIS-4: information only, the match's own record stays as it was
    assert client.get(f"/api/v1/matches/{played.id}/events").json() == match_events
    assert str(run.effect).startswith("MatchAnalysed")
    assert services.jobs.run_slow(clock.now()) == []  # exactly once
    assert recorded(client) == {"MatchAnalysed": 1}

    answer = client.get(url)
    assert answer.status_code == 200, answer.text
    analysis = answer.json()
    assert (analysis["status"], analysis["plies"], analysis["reason"]) == ("done", 0, None)
    assert analysis["engine"].startswith("GNU Backgammon 1.")
    own = gnubg_statistics(
        gnubg, client.get(f"/api/v1/matches/{played.id}/export.mat").text, tmp_path
    )
    for index, side in enumerate(("a", "b")):
        served = analysis["players"][side]
        assert served["name"] == ("Anna Maier", "Ben")[index]
        assert str(served["unforced_moves"]) == own["chequerplay: Unforced moves"][index]
        decisions = own["cube: Close or actual cube decisions"][index]
        assert str(served["cube_decisions"]) == decisions
        total = own["overall: Error total EMG"][index]
        assert f"-{served['error_total_emg']:.3f}" == total
        for key, section in (
            ("error_rate_memg", "overall"),
            ("chequer_error_rate_memg", "chequerplay"),
            ("cube_error_rate_memg", "cube"),
        ):
            assert f"-{served[key]:.1f}" == own[f"{section}: Error rate mEMG"][index], key
        assert served["pr"] == pytest.approx(served["error_rate_memg"] / 2)
    assert analysis_jobs(client) == [
        ("done", "MatchAnalysed by " + analysis["engine"] + " at 0 ply")
    ]


@pytest.mark.gnubg
def test_a_director_asks_again_and_the_match_is_analysed_once_more(
    gnubg: str, client: Client, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-1: a director may ask again; a second request while one is due adds none
    match_id = short_match(client, clock)
    services = services_of(client)
    services.jobs.run_slow(clock.now())
    url = f"/api/v1/matches/{match_id}/analysis"
    first = client.get(url).json()
    assert first["status"] == "done"
    assert client.post(url).status_code == 401

    for _ in range(2):
        asked = client.post(url, headers=DIRECTOR)
        assert (asked.status_code, asked.json()) == (202, {"status": "pending"})
    assert client.get(url).json()["status"] == "pending"
    assert [run.effect is not None for run in services.jobs.run_slow(clock.now())] == [True]

    again = client.get(url).json()
    assert again["status"] == "done"
    assert again["players"] == first["players"]  # 0 ply, noiseless: the same figures
    assert recorded(client) == {"MatchAnalysed": 2, "MatchAnalysisRequested": 1}


@pytest.mark.gnubg
def test_gnubg_installed_while_the_service_runs_analyses_the_held_matches(
    gnubg: str, without_gnubg: Client, clock: MovableClock, tmp_path: Path
) -> None:
    # API.md: a director asks again "e.g. after gnubg was installed"; the held job runs too
    match_id = short_match(without_gnubg, clock)
    url = f"/api/v1/matches/{match_id}/analysis"
    assert without_gnubg.get(url).json()["status"] == "unavailable"

    (tmp_path / "no-such-gnubg").symlink_to(gnubg)  # the configured program appears

    assert without_gnubg.get(url).json()["status"] == "pending"
    assert analysis_jobs(without_gnubg) == [("pending", None)]
    [run] = services_of(without_gnubg).jobs.run_slow(clock.now())
    assert str(run.effect).startswith("MatchAnalysed")
    assert without_gnubg.get(url).json()["status"] == "done"


# Without GNU Backgammon -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"gnubg": "/nowhere/gnubg"}, "GNU Backgammon is not installed"),
        ({"analysis": False}, "analysis is turned off (BGTD_ANALYSIS=off)"),
    ],
)
def test_without_gnubg_the_analysis_is_unavailable_and_nothing_is_recorded(
    settings: Settings, clock: MovableClock, changes: dict[str, Any], reason: str
) -> None:
    # rule A-ANALYSIS-1: where gnubg is missing (or analysis is off) nothing runs or is recorded
    for client in service_with(settings, clock, **changes):
        match_id = short_match(client, clock)
        url = f"/api/v1/matches/{match_id}/analysis"
        log_before = services_of(client).store.latest_notification_id()

        assert services_of(client).jobs.run_slow(clock.now()) == []
        asked = client.post(url, headers=DIRECTOR)

        assert asked.status_code == 409, asked.text
        assert asked.json()["detail"] == f"the match cannot be analysed: {reason}"
        assert client.get(url).json() == {
            "status": "unavailable",
            "engine": None,
            "plies": 0,
            "analysed_at": None,
            "reason": reason,
            "players": None,
        }
        assert analysis_jobs(client) == [("held", None)]
        assert services_of(client).store.latest_notification_id() == log_before


def test_a_match_without_moves_has_no_analysis(without_gnubg: Client, clock: MovableClock) -> None:
    # rule A-ANALYSIS-1: a match decided before anyone moved has nothing to analyse
    match_id = short_match(without_gnubg, clock, moves=False)
    answer = without_gnubg.get(f"/api/v1/matches/{match_id}/analysis").json()
    assert (answer["status"], answer["reason"]) == ("unavailable", "no recorded moves")


def test_a_match_being_played_has_no_analysis_yet(without_gnubg: Client) -> None:
    body = {"player_a": "anna", "player_b": "ben", "match_length": 3}
    created = without_gnubg.post("/api/v1/matches", json=body, headers=DIRECTOR).json()
    url = f"/api/v1/matches/{created['id']}/analysis"

    for answer in (without_gnubg.get(url), without_gnubg.post(url, headers=DIRECTOR)):
        assert answer.status_code == 409, answer.text
        assert "is being played" in answer.json()["detail"]
    missing = without_gnubg.get("/api/v1/matches/6a3c4c5e-0000-4000-8000-000000000000/analysis")
    assert missing.status_code == 404


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("echo 'gnubg: cannot read the match'", "no match statistics in gnubg's output"),
        ("exec sleep 30", "GNU Backgammon did not finish within 0.5 seconds"),
    ],
)
def test_a_run_that_gives_no_figures_is_recorded_as_failed_with_its_reason(
    settings: Settings, clock: MovableClock, tmp_path: Path, program: str, reason: str
) -> None:
    # rule A-ANALYSIS-1: a crashed or hanging gnubg is a recorded failure, never a 500
    fake = tmp_path / "gnubg"
    fake.write_text(f"#!/bin/sh\n{program}\n")
    fake.chmod(0o755)
    for client in service_with(settings, clock, gnubg=str(fake), analysis_timeout_seconds=0.5):
        match_id = short_match(client, clock)
        [run] = services_of(client).jobs.run_slow(clock.now())

        answer = client.get(f"/api/v1/matches/{match_id}/analysis")
        assert answer.status_code == 200
        assert answer.json()["status"] == "failed"
        assert answer.json()["reason"].startswith(reason)
        assert run.effect == f"MatchAnalysisFailed: {answer.json()['reason']}"
        assert recorded(client) == {"MatchAnalysisFailed": 1}
        assert services_of(client).jobs.run_slow(clock.now()) == []  # until a director asks


# On the table page ------------------------------------------------------------------------------


def play_to_the_end(services: Services, match_id: UUID) -> None:
    """The director plays the match for both sides: random dice, random legal plays."""
    rng = random.Random(3)
    state = services.matches.get(match_id)
    while not state.is_over:
        caller = Caller(director=True, side=state.turn)
        if state.phase == "move":
            choice = cached_format_play(rng.choice(state.plays()))
            state = services.matches.play(match_id, caller, notation=choice)
        else:
            dice = None if state.dice_mode == "server" else [rng.randint(1, 6) for _ in "ab"]
            state = services.matches.roll(match_id, caller, dice)


@pytest.mark.gnubg
def test_the_table_page_shows_the_figures_and_the_mat_under_the_finished_match(
    gnubg: str, client: Client, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-1: the players see their figures at the table, and may take the .mat home
    day = start_tournament(client, clock, 2, match_length=1)
    match_id = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)["match_id"]
    services = services_of(client)
    play_to_the_end(services, UUID(match_id))
    page = f"/pages/tournaments/{day.id}/tables/1"
    assert 'data-analysis="pending"' in client.get(page).text

    services.jobs.run_slow(clock.now())

    analysis = client.get(f"/api/v1/matches/{match_id}/analysis").json()
    rate = analysis["players"]["a"]["error_rate_memg"]
    german, english = client.get(page).text, client.get(page, params={"lang": "en"}).text
    assert 'data-analysis="done"' in german
    assert "Fehlerrate (mEMG)" in german
    assert f"{rate:.1f}".replace(".", ",") in german
    assert "Error rate (mEMG)" in english
    assert f">{rate:.1f}<" in english
    assert f'href="/api/v1/matches/{match_id}/export.mat"' in german


@pytest.mark.gnubg
def test_the_players_page_lists_their_analysed_matches_with_their_own_figures_and_the_mat(
    gnubg: str, client: Client, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-1 (API.md "More hooks"): a player's page lists the analysed matches
    day = start_tournament(client, clock, 2, match_length=1)
    table = next(t for t in day.rounds[0]["pairings"] if t["table"] == 1)
    services = services_of(client)
    play_to_the_end(services, UUID(table["match_id"]))
    page_of = {side: f"/pages/players/{table['player_' + side]}" for side in "ab"}
    assert 'id="analysed"' not in client.get(page_of["a"]).text  # not analysed yet

    services.jobs.run_slow(clock.now())

    figures = client.get(f"/api/v1/matches/{table['match_id']}/analysis").json()["players"]
    for side, other in (("a", "b"), ("b", "a")):
        english = client.get(page_of[side], params={"lang": "en"}).text
        row = re.search(rf'<tr data-match-id="{table["match_id"]}">.*?</tr>', english, re.DOTALL)
        assert row is not None, english
        rates = re.findall(r'<td class="num">([^<]*)</td>', row.group(0))
        own, theirs = figures[side], figures[other]
        assert rates == [
            f"{own['error_rate_memg']:.1f} ({own['pr']:.2f})",
            f"{theirs['error_rate_memg']:.1f} ({theirs['pr']:.2f})",
        ]
        assert f'href="/api/v1/matches/{table["match_id"]}/export.mat"' in row.group(0)
    assert "Analysierte Partien" in client.get(page_of["a"]).text
