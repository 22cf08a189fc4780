"""The break list's agreed return time, over HTTP (rule C-BREAK-3, API.md "Pages for people"):
a player who leaves the venue agrees with the director on a time to be back, typed at the desk
as a time of day in the club's time zone (rule CAL-3). The agreed time moves the row's allowed
break and its lateness as the REST endpoint's would; a time already past is refused next to
the field and nothing is recorded; without the CSRF token nothing changes. The break list shows
its times in the club's time zone, not in UTC."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import csrf_of, desk, signed_in
from tests.api.test_console_desk import desk_url, flash_of, late_after_round_one, row_with, submit
from tests.api.test_directors import audit
from tests.api.test_tournaments import stored_events
from tests.conftest import DIRECTOR

Client = TestClient[Any]
BERLIN = ZoneInfo("Europe/Berlin")
"""The club's time zone (``BGTD_TIMEZONE``'s default): 2 hours ahead of UTC in April."""


def local(instant: datetime) -> str:
    """An instant as the desk shows it: its wall-clock time in the club's time zone."""
    return instant.astimezone(BERLIN).strftime("%H:%M")


def break_of(client: Client, tournament_id: str, player_id: str) -> dict[str, Any]:
    rows = client.get(f"/api/v1/tournaments/{tournament_id}/breaks", headers=DIRECTOR).json()
    return next(row for row in rows if row["player_id"] == player_id)


def shown_until(row: str) -> str:
    found = re.search(r'<td class="until">([^<]*)<', row)
    assert found is not None, "the row shows until when the break is allowed"
    return found.group(1)


def late_minutes(row: str) -> int:
    found = re.search(r'<td class="num">(\d+)</td>', row)
    assert found is not None, "the row shows how late the player is"
    return int(found.group(1))


def test_the_break_list_shows_its_times_in_the_club_s_time_zone(
    client: Client, clock: MovableClock
) -> None:
    # rule CAL-3: the desk reads 12:.. in April in Berlin, never the UTC instant's 10:..
    day, late, _ = late_after_round_one(client, clock)
    allowed = datetime.fromisoformat(break_of(client, day.id, late)["allowed_until"])
    signed_in(client)
    row = row_with(desk(client, day.id).text, "data-player-id", late)
    assert shown_until(row) == local(allowed)
    assert local(allowed) != allowed.astimezone(ZoneInfo("UTC")).strftime("%H:%M")


def test_an_agreed_return_time_moves_the_row_s_allowed_time_and_its_lateness(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-3: 11 minutes over the break, the player agrees to be back in 30 minutes
    day, late, _ = late_after_round_one(client, clock)
    signed_in(client)
    row = row_with(desk(client, day.id).text, "data-player-id", late, "agree-return")
    assert late_minutes(row) == 11
    assert 'data-action="approve-penalty"' in row
    assert re.search(r'<input name="until" type="time"[^>]* required', row)
    back_at = (clock.now() + timedelta(minutes=30)).replace(second=0, microsecond=0)

    answer = submit(client, day.id, "/breaks/return-time", player_id=late, until=local(back_at))

    assert answer.status_code == 303, answer.text
    page = client.get(answer.headers["location"]).text
    assert (
        flash_of(page) == f"Rückkehr vereinbart: {break_of(client, day.id, late)['display_name']}."
    )
    row = row_with(page, "data-player-id", late, "agree-return")
    assert (shown_until(row), late_minutes(row)) == (local(back_at), 0)
    assert 'data-action="approve-penalty"' not in row  # not late: no penalty proposed
    # the REST API agrees: the agreed time is the end of the allowed break, as an instant
    rest = break_of(client, day.id, late)
    assert datetime.fromisoformat(rest["allowed_until"]) == back_at
    assert rest["allowed_until"].endswith("+02:00")
    [agreed] = [e for e in audit(client, day.id) if e["type"] == "ReturnTimeAgreed"]
    assert agreed["data"]["player_id"] == late
    assert datetime.fromisoformat(agreed["data"]["until"]) == back_at
    # missing the agreed time counts as lateness (rule C-BREAK-2): 6 minutes, no point yet
    clock.advance(36 * 60)
    row = row_with(desk(client, day.id).text, "data-player-id", late, "agree-return")
    assert (shown_until(row), late_minutes(row)) == (local(back_at), 6)
    assert (rest := break_of(client, day.id, late))["late_minutes"] == 6
    assert rest["proposed_penalty"] == 1


def test_a_return_time_already_past_is_refused_by_the_field_and_nothing_is_recorded(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-3: a time to be back lies ahead; the domain refuses one past today
    day, late, _ = late_after_round_one(client, clock)
    signed_in(client)
    before = stored_events(client)
    past = local(clock.now() - timedelta(minutes=5))

    refused = submit(client, day.id, "/breaks/return-time", player_id=late, until=past)

    assert refused.status_code == 422
    row = row_with(refused.text, "data-player-id", late, "agree-return")
    error = re.search(rf'id="agree-return:{late}-until-error"[^>]*data-error[^>]*>([^<]*)<', row)
    assert error is not None, row
    assert error.group(1) == "Die vereinbarte Rückkehrzeit ist schon vorbei."
    assert re.search(rf'name="until" type="time" value="{past}"[^>]* aria-invalid="true"', row)
    # no time of day at all: refused by the field before the domain is asked
    for typed in ("", "25:00", "halb drei"):
        garbled = submit(client, day.id, "/breaks/return-time", player_id=late, until=typed)
        assert garbled.status_code == 422
        row = row_with(garbled.text, "data-player-id", late, "agree-return")
        assert "Bitte eine Uhrzeit wie 14:30 eingeben." in row
    assert stored_events(client) == before
    assert break_of(client, day.id, late)["late_minutes"] == 11


def test_an_agreed_return_time_without_the_csrf_token_is_forbidden_and_records_nothing(
    client: Client, clock: MovableClock
) -> None:
    day, late, _ = late_after_round_one(client, clock)
    signed_in(client)
    before = stored_events(client)
    until = local(clock.now() + timedelta(minutes=30))
    for csrf in ({}, {"_csrf_token": "0" * 64}):
        answer = client.post(
            desk_url(day.id, "/breaks/return-time"),
            data={"player_id": late, "until": until, **csrf},
        )
        assert answer.status_code == 403
        assert "Formular ist abgelaufen" in answer.text
    assert stored_events(client) == before
    assert break_of(client, day.id, late)["late_minutes"] == 11


def test_the_return_time_form_speaks_english_on_the_english_desk(
    client: Client, clock: MovableClock
) -> None:
    day, late, _ = late_after_round_one(client, clock)
    signed_in(client)
    page = desk(client, day.id, "?lang=en").text
    row = row_with(page, "data-player-id", late, "agree-return")
    assert re.search(r"Back by <input", row)
    assert "Agree the return time</button>" in row
    form = {"_csrf_token": csrf_of(page), "player_id": late}
    url = desk_url(day.id, "/breaks/return-time?lang=en")
    past = local(clock.now() - timedelta(minutes=1))
    refused = client.post(url, data={**form, "until": past}, follow_redirects=False)
    assert refused.status_code == 422
    assert "The agreed return time has already passed." in row_with(
        refused.text, "data-player-id", late, "agree-return"
    )
    until = local(clock.now() + timedelta(minutes=20))
    answer = client.post(url, data={**form, "until": until}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"].endswith("lang=en")
    shown = client.get(answer.headers["location"]).text
    assert (
        flash_of(shown) == f"Return time agreed: {break_of(client, day.id, late)['display_name']}."
    )
    assert shown_until(row_with(shown, "data-player-id", late)) == until


def test_a_return_time_after_midnight_agreed_late_in_the_evening_is_the_next_day_s(
    client: Client, clock: MovableClock
) -> None:
    # rule C-BREAK-3 (CAL-3): at 23:50 a player agrees to be back at 00:10, twenty minutes
    # ahead on the club's clock; the desk read it as today's 00:10 and refused it as past
    day, late, _ = late_after_round_one(client, clock)
    signed_in(client)
    now = clock.now().astimezone(BERLIN)
    evening = now.replace(hour=23, minute=50, second=0, microsecond=0)
    clock.advance((evening - now).total_seconds())
    before = stored_events(client)

    answer = submit(client, day.id, "/breaks/return-time", player_id=late, until="00:10")

    assert answer.status_code == 303, answer.text
    back_at = evening + timedelta(minutes=20)
    assert datetime.fromisoformat(break_of(client, day.id, late)["allowed_until"]) == back_at
    [agreed] = [e for e in audit(client, day.id) if e["type"] == "ReturnTimeAgreed"]
    assert datetime.fromisoformat(agreed["data"]["until"]) == back_at
    # a time of day just gone is still refused as past, not read as tomorrow's
    refused = submit(client, day.id, "/breaks/return-time", player_id=late, until="23:40")
    assert refused.status_code == 422
    assert "Die vereinbarte Rückkehrzeit ist schon vorbei." in row_with(
        refused.text, "data-player-id", late, "agree-return"
    )
    assert stored_events(client) == before + 1
