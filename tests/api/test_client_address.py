"""Who the client is: the connection's peer, unless a configured proxy forwarded the request.

A client that sends a new ``X-Forwarded-For`` with each request must not become a new client
each time: the anonymous rate limit (and the caps on live streams) would never apply to it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import uvicorn
from litestar import Request
from litestar.types import HTTPScope

from api.app import create_app
from api.cli import main, proxy_options
from api.clients import ClientAddress
from service.settings import Settings
from tests.api.test_tournaments import SPRING, person
from tests.conftest import DIRECTOR
from tests.uvicorn_server import serving

PROXY = "10.0.0.2"


def schedule(http: httpx.Client) -> str:
    response = http.post(
        "/api/v1/tournaments", json={**SPRING, "date": "2999-04-18"}, headers=DIRECTOR
    )
    assert response.status_code == 201, response.text
    tournament_id: str = response.json()["id"]
    return tournament_id


def register_as(http: httpx.Client, tournament: str, number: int, forwarded_for: str) -> int:
    """An anonymous registration claiming to come from ``forwarded_for``: its status."""
    response = http.post(
        f"/api/v1/tournaments/{tournament}/registrations",
        json=person(number),
        headers={"X-Forwarded-For": forwarded_for},
    )
    assert response.status_code in (202, 429), response.text
    if response.status_code == 429:
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["status"] == 429
    return response.status_code


def test_bgtd_serve_counts_a_client_with_a_new_forwarded_address_per_request_as_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # uvicorn by default believes X-Forwarded-For from 127.0.0.1: each made-up address was a
    # new client with a fresh limit. Served as `bgtd serve` serves it, without trusted proxies:
    monkeypatch.setenv("BGTD_REGISTRATION_RATE_LIMIT", "3")
    monkeypatch.delenv("BGTD_TRUSTED_PROXIES", raising=False)
    started: dict[str, Any] = {}
    monkeypatch.setattr(
        uvicorn, "run", lambda app, **options: started.update(app=app, options=options)
    )
    assert main(["serve", "--dev", "--data-dir", str(tmp_path)]) == 0
    ours = {"host", "port", "log_level", "access_log"}  # the test server picks these
    options = {key: value for key, value in started["options"].items() if key not in ours}

    with serving(started["app"], **options) as url, httpx.Client(base_url=url) as http:
        tournament = schedule(http)
        statuses = [
            register_as(http, tournament, number, forwarded_for=f"203.0.113.{number}")
            for number in range(1, 6)
        ]

    assert statuses == [202, 202, 202, 429, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        dev=True,
        run_scheduler=False,
        registration_rate_limit=2,
        trusted_proxies=("127.0.0.1",),
    )
    app = create_app(settings)
    with serving(app, **proxy_options(settings)) as url, httpx.Client(base_url=url) as http:
        tournament = schedule(http)
        anna = [register_as(http, tournament, n, "203.0.113.1") for n in (1, 2, 3)]
        # what a client wrote itself stands left of what the proxy appended: not believed
        spoofed = register_as(http, tournament, 4, "198.51.100.9, 203.0.113.1")
        ben = register_as(http, tournament, 5, "203.0.113.2")

    assert anna == [202, 202, 429]
    assert spoofed == 429
    assert ben == 202


def request_from(peer: str | None, *forwarded_for: str) -> Request[Any, Any, Any]:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded_for]
    client = (peer, 4711) if peer is not None else None
    return Request(cast(HTTPScope, {"type": "http", "client": client, "headers": headers}))


@pytest.mark.parametrize(
    ("trusted", "peer", "forwarded_for", "client"),
    [
        # no trusted proxy: the peer, whatever the request claims
        ((), "127.0.0.1", ("203.0.113.7",), "127.0.0.1"),
        ((), "192.0.2.1", ("203.0.113.7",), "192.0.2.1"),
        # a peer that is not the proxy: its claim is not believed either
        ((PROXY,), "192.0.2.1", ("203.0.113.7",), "192.0.2.1"),
        # the proxy: the address it appended, not what the client wrote before it
        ((PROXY,), PROXY, ("198.51.100.9, 203.0.113.7",), "203.0.113.7"),
        ((PROXY,), PROXY, ("198.51.100.9", "203.0.113.7"), "203.0.113.7"),
        # a chain of trusted proxies: the nearest address that is not one of them
        (("10.0.0.0/8",), PROXY, ("203.0.113.7, 10.1.2.3",), "203.0.113.7"),
        (("10.0.0.0/8",), PROXY, ("10.9.9.9, 10.1.2.3",), "10.9.9.9"),
        # the proxy without the header: the proxy
        ((PROXY,), PROXY, (), PROXY),
        # ports, brackets and IPv4-mapped IPv6: one spelling per address
        ((PROXY,), PROXY, ("203.0.113.7:51234",), "203.0.113.7"),
        ((PROXY,), PROXY, ("[2001:db8::1]:443",), "2001:db8::1"),
        (("::ffff:10.0.0.2",), "::ffff:10.0.0.2", ("203.0.113.7",), "203.0.113.7"),
        ((), "::ffff:192.0.2.1", (), "192.0.2.1"),
        # a Unix socket's connection has no peer address
        ((), None, ("203.0.113.7",), "unknown"),
    ],
)
def test_the_client_is_the_peer_unless_a_trusted_proxy_forwarded_the_request(
    trusted: tuple[str, ...], peer: str | None, forwarded_for: tuple[str, ...], client: str
) -> None:
    assert ClientAddress(trusted)(request_from(peer, *forwarded_for)) == client


def test_a_trusted_proxy_is_an_address_or_a_network_never_a_wildcard() -> None:
    assert Settings(trusted_proxies=("10.0.0.2", "10.1.0.0/16", "::1")).trusted_proxies
    for entry in ("*", "proxy.example.org", "10.0.0.0/33"):
        with pytest.raises(ValueError, match="BGTD_TRUSTED_PROXIES"):
            Settings(trusted_proxies=(entry,))


@pytest.mark.parametrize(
    "entry",
    ["0.0.0.0/0", "::/0", "0.0.0.0/1", "10.0.0.0/7", "2001::/31", "::ffff:0.0.0.0/96"],
)
def test_a_trusted_proxy_network_as_wide_as_everyone_is_refused(entry: str) -> None:
    # every peer inside would be believed: any client would escape the rate limit again
    with pytest.raises(ValueError, match=r"BGTD_TRUSTED_PROXIES: .* too wide a network"):
        Settings(trusted_proxies=(entry,))


def test_a_trusted_proxy_network_as_wide_as_a_site_is_accepted() -> None:
    entries = (
        "10.0.0.0/8",
        "172.16.0.0/12",
        "fd00::/32",
        "fd12:3456:789a::/48",
        "::ffff:10.0.0.0/104",
    )
    assert Settings(trusted_proxies=entries).trusted_proxies == entries
