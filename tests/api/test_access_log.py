"""The access log (``--access-log``) names no token: the personal link, the confirmation link
and the cancellation link carry a token in their query (API.md "Sessions": a token goes into
no URL the service builds except these links), and uvicorn's line per request wrote it out
whole, so whoever reads the log could sign in as that player or cancel their registration."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from api.app import create_app
from api.http.access_log import redacted_path
from service.settings import Settings
from tests.uvicorn_server import serving

PLAYER_TOKEN = "bgtd-player-0123456789abcdefSECRET"
CONFIRMATION = "06e72abe0d694704.KuBoNeOXaRM2aiLaSECRET"


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@contextmanager
def access_log_lines() -> Iterator[list[str]]:
    """The access log's lines as uvicorn writes them (after its own logging set-up)."""
    handler = _Lines()
    access = logging.getLogger("uvicorn.access")
    access.addHandler(handler)
    try:
        yield handler.lines
    finally:
        access.removeHandler(handler)


def test_the_access_log_shows_the_personal_and_mail_links_without_their_tokens(
    tmp_path: Path,
) -> None:
    settings = Settings(data_dir=tmp_path, dev=True, run_scheduler=False, access_log=True)
    app = create_app(settings)
    links = [
        f"/pages/players/sign-in?token={PLAYER_TOKEN}",
        f"/pages/players/sign-in?lang=en&token={PLAYER_TOKEN}",
        f"/pages/registrations/confirm?token={CONFIRMATION}",
        f"/pages/registrations/cancel?registration=r1&token={PLAYER_TOKEN}&tournament=t1",
        # a query name written with a percent escape is still the token's
        f"/pages/players/sign-in?tok%65n={PLAYER_TOKEN}",
    ]
    with (
        serving(app, log_level="info", access_log=True) as url,
        httpx.Client(base_url=url) as http,
        access_log_lines() as lines,
    ):
        for link in links:
            http.get(link)

    assert len(lines) == len(links), lines
    assert not [line for line in lines if "SECRET" in line], lines
    assert '"GET /pages/players/sign-in?token=[redacted] HTTP/1.1" 404' in lines[0]
    assert "/pages/players/sign-in?lang=en&token=[redacted] " in lines[1]
    assert "/pages/registrations/confirm?token=[redacted] " in lines[2]
    assert "/pages/registrations/cancel?registration=r1&token=[redacted]&tournament=t1 " in lines[3]
    assert "/pages/players/sign-in?tok%65n=[redacted] " in lines[4]


def test_a_path_without_a_token_in_its_query_is_logged_as_it_came() -> None:
    assert redacted_path("/api/v1/tournaments?season_id=s1") == "/api/v1/tournaments?season_id=s1"
    assert redacted_path("/pages/ratings") == "/pages/ratings"
    assert redacted_path("/pages/x?csrf_token=abc&a") == "/pages/x?csrf_token=[redacted]&a"
