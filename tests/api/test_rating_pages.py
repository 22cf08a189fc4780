"""The public pages of the rating list: the list linked from the season ranking, a player's
page with every number and an SVG chart drawn by the service, German by default, English with
?lang=en, and the CSV download with formula cells neutralised (rule R-RATE-1, API.md
"Ratings")."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from tests.api.test_ranking import create_season
from tests.api.test_ratings import imported

Client = TestClient[Any]


def test_the_list_page_rounds_for_display_in_german_by_default(client: Client) -> None:
    imported(client, ("2025-01-01", "Anna", "Bert", 5), ("2025-01-02", "Anna", "Bert", 5))
    page = client.get("/pages/ratings")
    assert page.status_code == 200
    assert "Vereinswertung" in page.text
    # 1800 + 4.472 + 4.421 = 1808.89: rounded, with the German thousands separator
    assert ">1.809<" in page.text
    assert ">+4,4<" in page.text  # the last change, one decimal
    english = client.get("/pages/ratings?lang=en").text
    assert "Club rating list" in english
    assert ">1,809<" in english


def test_the_player_page_shows_each_line_and_a_chart_without_script(client: Client) -> None:
    imported(client, ("2025-01-01", "Anna", "Bert", 5), ("2025-01-02", "Bert", "Anna", 3))
    anna = next(r for r in client.get("/api/v1/ratings").json() if r["display_name"] == "Anna")
    page = client.get(f"/pages/players/{anna['player_id']}?lang=en").text
    assert "<svg" in page
    assert "<script" not in page
    (points,) = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(points.split()) == 3  # the start and after each of the two matches
    assert page.count('<tr><td class="num">') == 2
    assert ">1800.00<" in page  # the rating before the first match, to the hundredth
    assert ">0.5000<" in page  # p of the first match (equal ratings)


def test_a_player_without_a_rated_match_has_no_page(client: Client) -> None:
    assert client.get("/pages/players/6a3c4c5e-0000-4000-8000-000000000000").status_code == 404


def test_the_csv_download_neutralises_formula_cells(client: Client) -> None:
    imported(client, ("2025-01-01", "@SUM(A1)", "Bert", 1))
    answer = client.get("/pages/ratings.csv")
    assert answer.headers["content-type"].startswith("text/csv")
    assert "'@SUM(A1)" in answer.text


def test_the_season_ranking_page_links_the_rating_list(client: Client) -> None:
    season_id = create_season(client)
    page = client.get(f"/pages/seasons/{season_id}/ranking?lang=en").text
    assert 'href="/pages/ratings?lang=en"' in page
