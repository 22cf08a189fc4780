"""A real server (uvicorn in a thread on a free localhost port) and headless Chromium.

The browser tests skip where Chromium or chromedriver is missing, and fail instead where CI
requires them (``BGTD_REQUIRE_BROWSER=1``, set by ``.ci/run``).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from api.app import create_app
from service.clock import MovableClock
from service.settings import Settings

REQUIRE_BROWSER = os.environ.get("BGTD_REQUIRE_BROWSER") == "1"
ARTEFACTS = Path(__file__).resolve().parents[1] / "artefacts"
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--window-size=1280,1000",
)


@dataclass
class LiveServer:
    url: str
    clock: MovableClock
    http: httpx.Client
    app: Any
    """The served app: its outbox writes the mails a test reads (tests/mailbox.py)."""


def _chromium() -> tuple[str, str] | None:
    browser = next(
        (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))),
        None,
    )
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="session")
def chromium() -> tuple[str, str]:
    found = _chromium()
    if found is None:
        if REQUIRE_BROWSER:
            pytest.fail("BGTD_REQUIRE_BROWSER=1 but chromium or chromedriver is not installed")
        pytest.skip("chromium and chromedriver are not installed here")
    return found


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
    settings = Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=False)
    app = create_app(settings, clock=clock)
    config = uvicorn.Config(
        app, log_level="warning", access_log=False, timeout_graceful_shutdown=1, lifespan="on"
    )
    server = uvicorn.Server(config)
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    # a real wait: the server thread starts on its own time, no clock of the service decides it
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    url = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=url, timeout=30) as http:
        yield LiveServer(url, clock, http, app)
    server.should_exit = True
    thread.join(timeout=15)
    listening.close()


@pytest.fixture
def browser(chromium: tuple[str, str], tmp_path: Path) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    binary, driver = chromium
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    # a browser of the club's region: the pages follow its Accept-Language
    options.add_argument("--lang=de-DE")
    options.add_experimental_option("prefs", {"intl.accept_languages": "de-DE,de"})
    session = webdriver.Chrome(options=options, service=Service(driver))
    session.set_page_load_timeout(30)
    try:
        yield session
    finally:
        session.quit()


def screenshot(browser: Any, name: str) -> None:
    """Keep what the page looked like as a test artefact (tests/artefacts/, not committed)."""
    ARTEFACTS.mkdir(exist_ok=True)
    browser.save_screenshot(str(ARTEFACTS / f"{name}.png"))
