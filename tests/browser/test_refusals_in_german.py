"""A refusal of the desk's register form in headless Chromium (a German browser): the age of a
person too young for the tournament (rule T-REG-1) is refused in German beside its field, and
the English desk says it in English. Screenshot kept as a test artefact."""

from __future__ import annotations

from typing import Any, cast

import pytest

from tests.api.test_tournaments import schedule
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import text_of, to_the_next_page
from tests.browser.test_pages_words_and_scores import director_signs_in

pytestmark = pytest.mark.browser


def register(browser: Any, age: str) -> None:
    from selenium.webdriver.common.by import By

    form = browser.find_element(By.CSS_SELECTOR, 'form[data-action="register"]')
    for name, typed in (("first_name", "Lea"), ("last_name", "Jung"), ("email", "lea@example.org")):
        form.find_element(By.NAME, name).clear()
        form.find_element(By.NAME, name).send_keys(typed)
    form.find_element(By.NAME, "age").clear()
    form.find_element(By.NAME, "age").send_keys(age)
    to_the_next_page(browser, form.find_element(By.CSS_SELECTOR, "button[type=submit]").click)


def test_the_desk_refuses_a_too_young_registration_in_german_beside_the_age(
    live_server: LiveServer, browser: Any
) -> None:
    client = cast(Any, live_server.http)
    tournament = schedule(client)  # 18.04.2026, from 18 (rule T-REG-1)
    desk = f"{live_server.url}/director/tournaments/{tournament['id']}"
    director_signs_in(browser, desk)
    register(browser, "12")
    assert text_of(browser, "#register-age-error") == (
        "Teilnehmen kann nur, wer am 18.04.2026 mindestens 18 Jahre alt ist (Regel T-REG-1). "
        "Wer es bis dahin wird: bitte das Geburtsdatum angeben."
    )
    screenshot(browser, "desk-register-under-age-in-german")
    browser.get(f"{desk}?lang=en")
    register(browser, "12")
    assert text_of(browser, "#register-age-error") == (
        "participants must be at least 18 on 2026-04-18; if you turn 18 by then, give "
        "birth_date instead"
    )
