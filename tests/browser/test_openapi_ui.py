"""The OpenAPI UI at /schema in headless Chromium: it renders the service's OpenAPI 3.1
document (Swagger UI 4 showed "Unable to render this definition") from the service's own files."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_pages import wait_until

pytestmark = pytest.mark.browser


def test_the_openapi_ui_renders_the_operations_of_the_3_1_document(
    live_server: LiveServer, browser: Any
) -> None:
    from selenium.webdriver.common.by import By

    assert live_server.http.get("/schema/openapi.json").json()["openapi"].startswith("3.1")
    browser.get(f"{live_server.url}/schema")
    wait_until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".opblock"))
    screenshot(browser, "openapi-ui")
    page = browser.find_element(By.TAG_NAME, "body").text
    assert "Unable to render" not in page
    assert "bgtd — backgammon tournament director" in page
    paths = {
        element.text for element in browser.find_elements(By.CSS_SELECTOR, ".opblock-summary-path")
    }
    assert "/api/v1/tournaments" in {path.replace("\u200b", "") for path in paths}
    # every script and style came from the service itself
    sources = browser.execute_script(
        "return performance.getEntriesByType('resource').map(entry => entry.name)"
    )
    assert sources
    assert all(source.startswith(live_server.url) for source in sources), sources
    assert browser.execute_script("return window.versions.swaggerUI.version").startswith("5.")
