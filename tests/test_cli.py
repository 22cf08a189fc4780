"""``bgtd serve`` starts a service that answers /health within seconds."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest

from api.cli import main, parser
from bench.server import running_service
from service.persistence import persistence_environment
from service.settings import Settings


def test_bgtd_serve_answers_health_on_its_port() -> None:
    with running_service() as base_url:
        response = httpx.get(base_url + "/health", timeout=5)
        schema = httpx.get(base_url + "/schema/openapi.json", timeout=5)
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response.json()["dev"] is True
    assert "/api/v1/analysis/legal-plays" in schema.json()["paths"]


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
