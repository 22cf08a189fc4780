"""HEAD is answered wherever GET is (RFC 9110, 9.3.2): the GET's status and headers, no body;
and the OpenAPI document gains no HEAD operations for it."""

from __future__ import annotations

import re
from typing import Any

import httpx
from litestar.testing import TestClient

from bench.server import running_service
from tests.api.test_calendar_feed import season
from tests.api.test_tournaments import CALENDAR, SPRING, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def test_head_answers_the_gets_status_and_headers_without_a_body(client: Client) -> None:
    season_id = season(client)
    tournament = schedule(client, season_id=season_id)["id"]
    for path in (
        "/health",
        "/api/v1/tournaments",
        f"/api/v1/tournaments/{tournament}",
        f"/pages/seasons/{season_id}",
        f"/pages/tournaments/{tournament}/print/standings",
        f"/seasons/{season_id}/calendar.ics",
    ):
        got = client.get(path)
        head = client.head(path)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b"", path
        assert head.headers["content-type"] == got.headers["content-type"], path
        # the length of the body a GET would get, as HTTP allows a HEAD answer to say
        assert head.headers["content-length"] == str(len(got.content)), path


def test_head_keeps_the_gets_refusals(client: Client) -> None:
    unknown = "00000000-0000-4000-8000-000000000000"
    missing = client.head(f"/api/v1/tournaments/{unknown}")
    assert missing.status_code == 404
    assert missing.content == b""
    # no GET on this path, so no HEAD either
    assert client.head("/api/v1/analysis/legal-plays").status_code == 405
    assert client.head("/api/v1/jobs").status_code == 401
    assert client.head("/api/v1/jobs", headers=DIRECTOR).status_code == 200


def test_head_of_the_live_feed_answers_its_headers_and_ends(client: Client) -> None:
    # a GET of the feed streams until the client goes; a HEAD is done once its headers are out
    tournament = schedule(client)["id"]
    head = client.head(f"/api/v1/tournaments/{tournament}/live")
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("text/event-stream")
    assert head.content == b""


def test_the_openapi_document_has_no_head_operations(client: Client) -> None:
    document = client.get("/schema/openapi.json").json()
    methods = {method for operations in document["paths"].values() for method in operations}
    assert "head" not in methods
    assert "get" in methods


def test_a_405_names_head_beside_get(client: Client) -> None:
    # the Allow header lists what the path answers: HEAD wherever GET is, not where it is not
    tournament = schedule(client)["id"]
    refused = client.delete(f"/api/v1/tournaments/{tournament}/standings")
    assert refused.status_code == 405
    assert {m.strip() for m in refused.headers["allow"].split(",")} >= {"GET", "HEAD"}
    post_only = client.get("/api/v1/analysis/legal-plays")
    assert post_only.status_code == 405
    assert "HEAD" not in post_only.headers["allow"]


def test_options_names_head_beside_get(client: Client) -> None:
    tournament = schedule(client)["id"]
    options = client.options(f"/api/v1/tournaments/{tournament}/standings")
    assert options.status_code == 204
    assert {m.strip() for m in options.headers["allow"].split(",")} == {"GET", "HEAD", "OPTIONS"}


def test_the_served_service_answers_head_wherever_it_answers_get() -> None:
    # through `bgtd serve` (what `make run` starts): uvicorn, the pages, /schema and its assets
    with (
        running_service("--start-time", "2026-03-01T10:00:00+01:00") as base_url,
        httpx.Client(base_url=base_url, headers=DIRECTOR, timeout=10) as http,
    ):
        season_id = http.post("/api/v1/seasons", json=CALENDAR).json()["id"]
        tournament = http.post("/api/v1/tournaments", json={**SPRING, "season_id": season_id})
        tournament_id = tournament.json()["id"]
        # the renderer's own script, served from local assets
        asset = re.findall(r'src="(/[^"]+[.]js)"', http.get("/schema").text)[0]
        paths = [
            "/health",
            "/schema",
            "/schema/openapi.json",
            asset,
            "/api/v1/tournaments",
            f"/api/v1/tournaments/{tournament_id}/seats",
            f"/pages/tournaments/{tournament_id}",
            f"/pages/seasons/{season_id}",
            f"/seasons/{season_id}/calendar.ics",
        ]
        for path in paths:
            got, head = http.get(path), http.head(path)
            assert (head.status_code, got.status_code) == (200, 200), path
            assert head.content == b"", path
            assert head.headers["content-type"] == got.headers["content-type"], path
        post_only = http.head("/api/v1/analysis/legal-plays")
    assert post_only.status_code == 405
    assert "HEAD" not in post_only.headers["allow"]


def test_options_names_every_method_of_a_path_its_handlers_serve(client: Client) -> None:
    # found by schemathesis (allow_header_conformance): Litestar named only the first
    # handler's methods, "OPTIONS, POST", for the seasons, whose GET another handler serves
    options = client.options("/api/v1/seasons")
    assert options.status_code == 204
    assert {m.strip() for m in options.headers["allow"].split(",")} == {
        "GET",
        "HEAD",
        "OPTIONS",
        "POST",
    }
    season = client.options("/api/v1/seasons/6a3c4c5e-0000-4000-8000-000000000000")
    assert {m.strip() for m in season.headers["allow"].split(",")} == {"GET", "HEAD", "OPTIONS"}
    # a path with parameters: the videos of a match, listed (GET) and registered (POST)
    videos = client.options(
        "/api/v1/matches/6a3c4c5e-0000-4000-8000-000000000000/videos", headers=DIRECTOR
    )
    assert {m.strip() for m in videos.headers["allow"].split(",")} == {
        "GET",
        "HEAD",
        "OPTIONS",
        "POST",
    }
