"""A banned person cannot come back under another spelling of the same mailbox (C-EXCL-1,
T-REG-2): ``"spieler1"@example.org`` is ``spieler1@example.org`` to every mail server (a
quoted local part of plain letters equals the unquoted one, RFC 5321 4.1.2), but it made a new
player id, and the director's registration of a banned player under it was taken (201)."""

from __future__ import annotations

from email.utils import getaddresses
from typing import Any

from litestar.testing import TestClient

from tests.api.test_tournaments import CALENDAR, person, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def test_a_banned_player_writing_the_address_in_quotes_is_refused_and_nothing_is_stored(
    client: Client,
) -> None:
    # rules C-EXCL-1, T-REG-2, T-REG-5
    season = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR).json()
    first = schedule(client, season_id=season["id"], date="2026-04-18")
    registered = client.post(
        f"/api/v1/tournaments/{first['id']}/registrations", json=person(1), headers=DIRECTOR
    ).json()
    banned = client.post(
        f"/api/v1/seasons/{season['id']}/bans",
        json={"player_id": registered["player_id"], "reason": "third exclusion"},
        headers=DIRECTOR,
    )
    assert banned.status_code == 201, banned.text
    second = schedule(client, season_id=season["id"], date="2026-10-10", name="Herbstturnier")
    url = f"/api/v1/tournaments/{second['id']}/registrations"

    for spelling in ['"spieler1"@example.org', "spieler1(again)@example.org"]:
        refused = client.post(url, json=person(1, email=spelling), headers=DIRECTOR)
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert [error["field"] for error in problem["errors"]] == ["email"]
        assert "spieler1" not in problem["detail"]
        assert "quotes" in problem["detail"]
        anonymous = client.post(url, json=person(1, email=spelling))
        assert anonymous.status_code == 422, anonymous.text

    assert client.get(url, headers=DIRECTOR).json() == []


def test_a_banned_player_writing_a_comment_after_the_at_is_refused_and_nothing_is_stored(
    client: Client,
) -> None:
    # rules C-EXCL-1, T-REG-2, T-REG-5: a comment may stand around the domain as well (RFC 5322
    # 3.4.1, CFWS): ``spieler1@example.org(again)`` is spieler1@example.org's mailbox, the
    # service's own mailer sends it there (``send_message`` reads the To header without the
    # comment), yet it made another player id and the banned player was registered (201)
    season = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR).json()
    first = schedule(client, season_id=season["id"], date="2026-04-18")
    registered = client.post(
        f"/api/v1/tournaments/{first['id']}/registrations", json=person(1), headers=DIRECTOR
    ).json()
    banned = client.post(
        f"/api/v1/seasons/{season['id']}/bans",
        json={"player_id": registered["player_id"], "reason": "third exclusion"},
        headers=DIRECTOR,
    )
    assert banned.status_code == 201, banned.text
    second = schedule(client, season_id=season["id"], date="2026-10-10", name="Herbstturnier")
    url = f"/api/v1/tournaments/{second['id']}/registrations"

    for spelling in ["spieler1@example.org(again)", "spieler1@(again)example.org"]:
        assert getaddresses([spelling])[0][1] == "spieler1@example.org"  # where a mail goes
        refused = client.post(url, json=person(1, email=spelling), headers=DIRECTOR)
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert [error["field"] for error in problem["errors"]] == ["email"]
        assert "spieler1" not in problem["detail"]
        assert "comments" in problem["detail"]
        anonymous = client.post(url, json=person(1, email=spelling))
        assert anonymous.status_code == 422, anonymous.text

    assert client.get(url, headers=DIRECTOR).json() == []
