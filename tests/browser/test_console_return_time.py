"""A player leaves the venue and agrees a time to be back, at the desk in headless Chromium
(rule C-BREAK-3): the break list's row takes a time of day (a time input, today in the club's
time zone, rule CAL-3), refuses one already past beside the field, and with a time ahead shows
it as the row's allowed break, the player no longer late. Screenshots go to tests/artefacts/
(``return-time-*.png``)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, cast

import pytest

from tests.api.test_console_desk import late_after_round_one
from tests.api.test_console_return_time import local
from tests.browser.conftest import LiveServer
from tests.browser.test_console_day import sign_in
from tests.browser.test_pages import text_of
from tests.conftest import DIRECTOR

pytestmark = pytest.mark.browser


def type_time(field: Any, hh_mm: str) -> None:
    """Type the time of day ``hh_mm`` into a time input as a person does: ``1430`` on a
    24-hour clock; a browser without the German locale shows a 12-hour one, which wants
    ``0230PM``. Either way the input then holds ``14:30``, which the form sends."""
    field.clear()
    field.send_keys(hh_mm.replace(":", ""))
    if field.get_attribute("value") != hh_mm:
        hour, minute = (int(part) for part in hh_mm.split(":"))
        field.clear()
        field.send_keys(f"{(hour - 1) % 12 + 1:02d}{minute:02d}{'PM' if hour >= 12 else 'AM'}")
    assert field.get_attribute("value") == hh_mm


def test_an_agreed_return_time_typed_at_the_desk_becomes_the_row_s_allowed_break(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    client = cast(Any, live_server.http)
    clock = live_server.clock
    # round 2 paired, one player 11 minutes over the break: 2 penalty points proposed
    day, late, _ = late_after_round_one(client, clock)
    name = client.get(day.url()).json()["name"]
    desk = sign_in(live_server, browser, name)
    row = f'#breaks tr[data-player-id="{late}"]'

    def agree_by(typed: str) -> None:
        form = desk.row_form(row, "agree-return")
        field = form.find_element(By.NAME, "until")
        assert field.get_attribute("type") == "time"
        type_time(field, typed)
        desk.send(form)

    def rest_row() -> dict[str, Any]:
        rows = client.get(day.url("/breaks"), headers=DIRECTOR).json()
        return next(r for r in rows if r["player_id"] == late)

    assert text_of(browser, f"{row} td.num") == "11"
    desk.screenshot("return-time-late", "breaks-section")

    # a time already past is refused beside the field; nothing recorded
    agree_by(local(clock.now() - timedelta(minutes=5)))
    assert "Die vereinbarte Rückkehrzeit ist schon vorbei." in text_of(browser, row)
    assert desk.find(f'{row} input[name="until"]').get_attribute("aria-invalid") == "true"
    desk.screenshot("return-time-refused", "breaks-section")
    assert rest_row()["late_minutes"] == 11

    # half an hour ahead: the row's break ends then, the player no longer late
    back_by = local(clock.now() + timedelta(minutes=30))
    agree_by(back_by)
    assert text_of(browser, "#flash").startswith("Rückkehr vereinbart: ")
    assert text_of(browser, f"{row} td.until") == back_by
    assert text_of(browser, f"{row} td.num") == "0"
    assert not desk.finds(f'{row} form[data-action="approve-penalty"]')
    desk.screenshot("return-time-agreed", "breaks-section")
    assert (rest_row()["late_minutes"], rest_row()["proposed_penalty"]) == (0, 0)
