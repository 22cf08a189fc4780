"""``bgtd serve`` starts a service that answers /health within seconds."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
import pytest

from api.cli import main, parser
from bench.server import running_service
from service.settings import Settings
from service.storage.persistence import persistence_environment
from service.storage.views import projections


def test_bgtd_serve_answers_health_on_its_port() -> None:
    with running_service() as base_url:
        response = httpx.get(base_url + "/health", timeout=5)
        schema = httpx.get(base_url + "/schema/openapi.json", timeout=5)
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.json()["dev"] is True
    assert "/api/v1/analysis/legal-plays" in schema.json()["paths"]


def test_bgtd_serve_stops_on_sigterm_while_a_wallboard_listens() -> None:
    # a restart (systemd's SIGTERM) must not wait for the live streams the wallboard and the
    # table pages hold open all day: until they end, the old process would keep serving them
    # its old state beside the new one (docs/api.md "Live updates": browsers reconnect)
    director = {"Authorization": "Bearer dev-director-token"}
    with httpx.Client(timeout=10) as http:
        listening = None
        started = time.monotonic()
        with running_service() as base_url:
            season = http.post(
                f"{base_url}/api/v1/seasons",
                json={"name": "Saison", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
                headers=director,
            ).json()
            tournament = http.post(
                f"{base_url}/api/v1/tournaments",
                json={"season_id": season["id"], "name": "Turnier", "date": "2026-12-18"},
                headers=director,
            ).json()
            live = http.build_request(
                "GET", f"{base_url}/api/v1/tournaments/{tournament['id']}/live"
            )
            listening = http.send(live, stream=True)
            assert listening.status_code == 200
            started = time.monotonic()
        # running_service has sent SIGTERM and waited for the process (at most 10 s)
        assert time.monotonic() - started < 10
        listening.close()


def test_start_time_needs_an_offset() -> None:
    with pytest.raises(SystemExit):
        parser().parse_args(["serve", "--dev", "--start-time", "2026-04-16T17:59:00"])
    arguments = parser().parse_args(["serve", "--dev", "--start-time", "2026-04-16T17:59:00+02:00"])
    assert arguments.start_time.utcoffset().total_seconds() == 7200


def test_a_data_dir_with_url_characters_keeps_its_name(tmp_path: Path) -> None:
    data_dir = tmp_path / "club#2 ?a%25"
    settings = Settings(data_dir=data_dir)
    environment = persistence_environment(settings.event_store_url)
    assert environment["SQLITE_DBNAME"] == str(data_dir / "events.sqlite3")


def a_played_match(data_dir: Path) -> str:
    """A match with an opening roll and one play, stored in ``data_dir``."""
    from datetime import UTC, datetime

    from litestar.testing import TestClient

    from api.app import create_app
    from service.clock import MovableClock
    from tests.api.test_matches import create, post

    settings = Settings(data_dir=data_dir, dev=True, run_scheduler=False)
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    with TestClient(create_app(settings, clock=clock)) as client:
        created = create(client, clock="app")
        assert post(client, created, "rolls", {"dice": [3, 1]}, "a").status_code == 200
        assert post(client, created, "plays", {"play": "8/5 6/5"}, "a").status_code == 200
        match_id: str = created["id"]
    return match_id


def test_bgtd_replay_prints_the_story_and_the_board_at_a_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # rule C-DISPUTE-1: the state of a game at any event, with the clocks and the dice
    match_id = a_played_match(tmp_path / "data")

    assert main(["replay", match_id, "--at", "3", "--data-dir", str(tmp_path / "data")]) == 0

    out = capsys.readouterr().out
    assert "OpeningRollMade" in out
    assert "CheckersPlayed" not in out
    assert "dice 3-1" in out
    assert "clock app:" in out
    assert "Position ID: 4HPwATDgc/ABMA" in out
    assert " +13-14-15-16-17-18-----19-20-21-22-23-24-+" in out


def test_bgtd_replay_of_the_whole_match_shows_the_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    match_id = a_played_match(tmp_path / "data")
    assert main(["replay", match_id, "--data-dir", str(tmp_path / "data")]) == 0
    out = capsys.readouterr().out
    assert "play=8/5 6/5" in out
    assert "(on roll)" in out


def test_bgtd_replay_names_a_tournament_matchs_players_as_the_match_shows_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the events name a tournament's player by id (a name is personal data, kept sealed); the
    # story tells who moved by the name the match shows, and by the pseudonym after an erasure
    from datetime import UTC, datetime

    from litestar.testing import TestClient

    from api.app import create_app
    from service.clock import MovableClock
    from tests.api.test_tournament_day import start_tournament
    from tests.conftest import DIRECTOR

    data_dir = tmp_path / "data"
    settings = Settings(data_dir=data_dir, dev=True, run_scheduler=False)
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    with TestClient(create_app(settings, clock=clock)) as client:
        day = start_tournament(client, clock, 2)
        [table] = day.rounds[0]["pairings"]
        side_a = {"Authorization": f"Bearer {day.players[table['player_a']]['player_token']}"}
        url = f"/api/v1/matches/{table['match_id']}"
        assert client.post(f"{url}/rolls", json={"dice": [3, 1]}, headers=side_a).is_success
        assert client.post(f"{url}/plays", json={"play": "8/5 6/5"}, headers=side_a).is_success
        names = {
            r["player_id"]: r["display_name"] for r in client.get(day.url("/standings")).json()
        }

    assert main(["replay", table["match_id"], "--data-dir", str(data_dir)]) == 0

    told = capsys.readouterr().out
    [played] = [line for line in told.splitlines() if "CheckersPlayed" in line]
    assert names[table["player_a"]] in played
    assert "player:" not in told
    with TestClient(create_app(settings, clock=clock)) as client:
        erased = client.post(f"/api/v1/people/{table['player_a']}/erasure", headers=DIRECTOR)
        assert erased.status_code == 200, erased.text
        pseudonym = client.get(url).json()["players"]["a"]
    assert pseudonym != names[table["player_a"]]
    assert main(["replay", table["match_id"], "--data-dir", str(data_dir)]) == 0
    told = capsys.readouterr().out
    [played] = [line for line in told.splitlines() if "CheckersPlayed" in line]
    assert pseudonym in played
    assert names[table["player_a"]] not in told


def test_bgtd_replay_of_an_unknown_match_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    assert main(["replay", unknown, "--data-dir", str(tmp_path / "data")]) == 1
    assert "no record" in capsys.readouterr().err


def test_bgtd_rebuild_projections_rebuilds_every_view_with_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_played_match(tmp_path / "data")
    assert main(["rebuild-projections", "--data-dir", str(tmp_path / "data")]) == 0
    lines = capsys.readouterr().out.splitlines()
    names = [projection.name for projection in projections()]
    # the match's 4 events, and the rating list's 2 that add its sides as rating-only players
    # (rule R-RATE-7: an ad hoc match is rated)
    assert lines[0] == f"rebuilding {len(names)} views from 6 events"
    assert [line.rpartition(" ")[2] for line in lines[1:]] == names
    assert lines[-1].startswith("[" + "#" * 30 + f"] {len(names)}/{len(names)}")


def test_bgtd_jobs_lists_the_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_played_match(tmp_path / "data")
    assert main(["jobs", "--data-dir", str(tmp_path / "data")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split()[:3] == ["deadline", "kind", "status"]
    assert "flag_clock" in out


def test_bgtd_jobs_shows_deadlines_to_the_second(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from datetime import UTC, datetime

    from litestar.testing import TestClient

    from api.app import create_app
    from service.clock import MovableClock
    from tests.api.test_matches import create, post

    # the clock stands at 10:00:00.5 in Berlin: the flag-fall job's deadline has the half second
    settings = Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=False)
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, 0, 500000, tzinfo=UTC), ticking=False)
    with TestClient(create_app(settings, clock=clock)) as client:
        created = create(client, clock="app")
        assert post(client, created, "rolls", {"dice": [3, 1]}, "a").status_code == 200

    assert main(["jobs", "--data-dir", str(tmp_path / "data")]) == 0

    [job] = [line for line in capsys.readouterr().out.splitlines() if "flag_clock" in line]
    assert job.split()[0] == "2026-03-01T10:01:41+01:00"  # recorded as 10:01:41.5


def test_a_postgresql_url_without_the_driver_ends_with_one_line_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ImportError
    url = "postgresql://postgres@127.0.0.1:5432/test"
    status = main(["serve", "--data-dir", str(tmp_path), "--database-url", url])
    assert status == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "bgtd[postgres]" in error


@pytest.mark.parametrize(
    ("arguments", "environment", "logged"),
    [
        ([], None, False),
        (["--access-log"], None, True),
        ([], "yes", True),
        (["--no-access-log"], "1", False),
    ],
)
def test_the_access_log_is_off_unless_asked_for(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    arguments: list[str],
    environment: str | None,
    logged: bool,
) -> None:
    import uvicorn

    if environment is not None:
        monkeypatch.setenv("BGTD_ACCESS_LOG", environment)
    served: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(options))
    assert main(["serve", "--dev", "--data-dir", str(tmp_path), *arguments]) == 0
    assert served["access_log"] is logged


@pytest.mark.parametrize(
    ("arguments", "public_url", "base"),
    [
        (["--port", "8123"], None, "http://localhost:8123"),
        (["--host", "0.0.0.0", "--port", "8124"], None, "http://localhost:8124"),
        (["--host", "192.168.1.20", "--port", "8080"], None, "http://192.168.1.20:8080"),
        (["--host", "fd00::20", "--port", "8080"], None, "http://[fd00::20]:8080"),
        (["--port", "8123"], "https://bgtd.example.org", "https://bgtd.example.org"),
    ],
)
def test_the_tables_and_mails_link_to_the_address_served_unless_bgtd_public_url_says(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    arguments: list[str],
    public_url: str | None,
    base: str,
) -> None:
    import uuid

    import uvicorn

    monkeypatch.delenv("BGTD_PUBLIC_URL", raising=False)
    if public_url is not None:
        monkeypatch.setenv("BGTD_PUBLIC_URL", public_url)
    served: dict[str, object] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(app=app))
    assert main(["serve", "--dev", "--data-dir", str(tmp_path), *arguments]) == 0
    services = served["app"].state.services  # type: ignore[attr-defined]
    tournament = uuid.uuid4()
    try:
        assert services.venue.table_url(tournament, 3) == (
            f"{base}/pages/tournaments/{tournament}/tables/3"
        )
        assert services.settings.effective_public_url == base  # the mails' links too
    finally:
        services.close()
