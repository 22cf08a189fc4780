"""The rating list over REST: imports as JSON and CSV, the list and a player's history, the
settings, and the two additions to ad hoc matches (API.md "Ratings", rules R-RATE-*)."""

from __future__ import annotations

import csv
import io
from typing import Any

from litestar.testing import TestClient

from tests.conftest import DIRECTOR

Client = TestClient[Any]


def imported(client: Client, *rows: tuple[str, str, str, int]) -> Any:
    body = {"matches": [{"date": d, "winner": w, "loser": x, "length": n} for d, w, x, n in rows]}
    answer = client.post("/api/v1/ratings/imports", json=body, headers=DIRECTOR)
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_an_import_fills_the_list_highest_rating_first(client: Client) -> None:
    receipt = imported(client, ("2025-01-01", "Anna", "Bert", 5), ("2025-01-02", "Anna", "Carl", 1))
    assert (receipt["matches"], receipt["new_players"], receipt["matched_players"]) == (2, 3, 0)
    rows = client.get("/api/v1/ratings").json()
    assert [(r["rank"], r["display_name"], r["matches"]) for r in rows] == [
        (1, "Anna", 2),
        (2, "Carl", 1),
        (3, "Bert", 1),
    ]
    assert rows[2]["rating"] == 1800 - 2 * 5**0.5  # unrounded (rule R-RATE-2)
    assert rows[2]["last_change"] == -(2 * 5**0.5)


def test_a_player_s_history_shows_every_number_that_went_into_a_line(client: Client) -> None:
    imported(client, ("2025-01-01", "Anna", "Bert", 4))
    anna = client.get("/api/v1/ratings").json()[0]
    history = client.get(f"/api/v1/ratings/{anna['player_id']}").json()
    (line,) = history["matches"]
    assert {k: line[k] for k in ("seq", "date", "source", "opponent", "length", "won")} == {
        "seq": 1,
        "date": "2025-01-01",
        "source": "import",
        "opponent": "Bert",
        "length": 4,
        "won": True,
    }
    assert (line["rating_before"], line["opponent_rating_before"], line["p"], line["k"]) == (
        1800,
        1800,
        0.5,
        1,
    )
    assert (line["change"], line["rating_after"], line["experience_after"]) == (4, 1804, 4)
    assert line["import_id"] is not None
    assert line["match_id"] is None


def test_a_player_without_a_rated_match_is_404(client: Client) -> None:
    answer = client.get("/api/v1/ratings/6a3c4c5e-0000-4000-8000-000000000000")
    assert answer.status_code == 404


def test_a_csv_import_names_bad_rows_by_their_index_and_stores_nothing(client: Client) -> None:
    # rule R-RATE-8: row i is line i + 2 of the file
    text = (
        "date,winner,loser,length\n"
        "2025-01-01,Anna,Bert,3\n"
        "2025-02-30,Anna,Bert,3\n"
        "2025-03-01,Anna,Anna,3\n"
        "2025-03-02,Anna,Bert,0\n"
    )
    answer = client.post(
        "/api/v1/ratings/imports",
        content=text.encode(),
        headers={**DIRECTOR, "Content-Type": "text/csv"},
    )
    assert answer.status_code == 422, answer.text
    assert [e["field"] for e in answer.json()["errors"]] == [
        "matches[1].date",
        "matches[2]",
        "matches[3].length",
    ]
    assert client.get("/api/v1/ratings").json() == []


def test_a_csv_import_with_a_blank_line_names_the_bad_rows_by_their_lines(client: Client) -> None:
    # rule R-RATE-8: the 422 names every bad row; row i is line i + 2 of the file, also past a
    # blank line (which holds no match), whichever check refuses the row
    text = (
        "date,winner,loser,length\n"
        "2025-01-01,Anna,Bert,3\n"
        "\n"
        "2025-02-30,Anna,Bert,3\n"
        "2025-03-01,Anna,Bert\n"
    )
    answer = client.post(
        "/api/v1/ratings/imports",
        content=text.encode(),
        headers={**DIRECTOR, "Content-Type": "text/csv"},
    )
    assert answer.status_code == 422, answer.text
    assert [e["field"] for e in answer.json()["errors"]] == ["matches[3]"]  # its cells first
    fixed = text.replace("Anna,Bert\n", "Anna,Bert,3\n")
    answer = client.post(
        "/api/v1/ratings/imports",
        content=fixed.encode(),
        headers={**DIRECTOR, "Content-Type": "text/csv"},
    )
    assert answer.status_code == 422, answer.text
    assert [e["field"] for e in answer.json()["errors"]] == ["matches[2].date"]  # line 4
    assert answer.json()["detail"].startswith("matches[2].date: ")
    assert client.get("/api/v1/ratings").json() == []


def test_a_good_csv_import_is_rated(client: Client) -> None:
    text = "date,winner,loser,length\r\n2025-01-01,Anna,Bert,3\r\n"
    answer = client.post(
        "/api/v1/ratings/imports",
        content=text.encode(),
        headers={**DIRECTOR, "Content-Type": "text/csv; charset=utf-8"},
    )
    assert answer.status_code == 201, answer.text
    assert len(client.get("/api/v1/ratings").json()) == 2


def test_only_a_director_imports(client: Client) -> None:
    answer = client.post("/api/v1/ratings/imports", json={"matches": []})
    assert answer.status_code == 401


def test_the_list_as_csv_neutralises_formula_cells(client: Client) -> None:
    imported(client, ("2025-01-01", "=HYPERLINK(1)", "Bert", 1))
    answer = client.get("/api/v1/ratings", headers={"Accept": "text/csv"})
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0][:3] == ["rank", "player_id", "display_name"]
    assert rows[1][2] == "'=HYPERLINK(1)"


def test_the_settings_change_from_the_next_match_on(client: Client) -> None:
    assert client.get("/api/v1/ratings/settings").json()["newcomer_boost"] is False
    answer = client.put(
        "/api/v1/ratings/settings",
        json={"start_rating": 1500, "newcomer_boost": True},
        headers=DIRECTOR,
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["changed_at"] is not None
    imported(client, ("2025-01-01", "Anna", "Bert", 1))
    assert client.get("/api/v1/ratings").json()[0]["rating"] == 1510  # 1500 + 5·4·1·0.5


def test_an_ad_hoc_match_of_two_equal_sides_is_422_naming_player_b(client: Client) -> None:
    # rule R-RATE-6
    answer = client.post(
        "/api/v1/matches",
        json={"player_a": "Anna", "player_b": "Anna ", "match_length": 3},
        headers=DIRECTOR,
    )
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["field"] == "player_b"


def test_a_friendly_keeps_free_names_and_adds_no_player(client: Client) -> None:
    # rule R-RATE-5: "rated": false
    answer = client.post(
        "/api/v1/matches",
        json={"player_a": "Anna", "player_b": "Bert", "match_length": 3, "rated": False},
        headers=DIRECTOR,
    )
    assert answer.status_code == 201, answer.text
    imported(client, ("2025-01-01", "Anna", "Carl", 1))
    assert imported(client, ("2025-01-01", "Bert", "Carl", 1))["new_players"] == 1


def test_a_mistyped_json_row_is_422_naming_its_place(client: Client) -> None:
    body = {"matches": [{"date": "2025-01-01", "winner": "A", "loser": "B", "length": [3]}]}
    answer = client.post("/api/v1/ratings/imports", json=body, headers=DIRECTOR)
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["field"] == "matches[0].length"


def test_a_length_written_with_a_digit_that_is_no_number_is_422_naming_its_place(
    client: Client,
) -> None:
    # rule R-RATE-8: length 1-64; "²" is a digit to Python but no number (was a 500)
    body = "date,winner,loser,length\n2025-01-01,A,B,3\n2025-01-02,A,B,²\n"
    answer = client.post(
        "/api/v1/ratings/imports",
        content=body.encode(),
        headers={**DIRECTOR, "Content-Type": "text/csv"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["field"] == "matches[1].length"
    assert client.get("/api/v1/ratings").json() == []


def test_a_length_of_thousands_of_digits_is_422_naming_its_place(client: Client) -> None:
    # rule R-RATE-8: length 1-64; a number longer than int() reads (4300 digits) was a 500
    body = f"date,winner,loser,length\n2025-01-01,A,B,3\n2025-01-02,A,B,{'9' * 5000}\n"
    answer = client.post(
        "/api/v1/ratings/imports",
        content=body.encode(),
        headers={**DIRECTOR, "Content-Type": "text/csv"},
    )
    assert answer.status_code == 422, answer.text
    (error,) = answer.json()["errors"]
    assert error["field"] == "matches[1].length"
    assert error["message"].startswith("a rated match has 1 to 64 points")
    assert len(error["message"]) < 200
    assert client.get("/api/v1/ratings").json() == []


def test_an_imported_name_with_a_control_or_invisible_character_is_422(client: Client) -> None:
    # rules R-RATE-7, R-RATE-8 (T-REG-5): a new name becomes a player's public display name,
    # so it is held to what a registration's name is; nothing is stored
    for name in ("Anna\nMeier", "Anna\x00", "\u202eAnna"):
        body = {"matches": [{"date": "2025-01-01", "winner": name, "loser": "B", "length": 3}]}
        answer = client.post("/api/v1/ratings/imports", json=body, headers=DIRECTOR)
        assert answer.status_code == 422, (name, answer.text)
        assert answer.json()["errors"][0]["field"] == "matches[0].winner"
    assert client.get("/api/v1/ratings").json() == []


def test_a_csv_whose_stray_quote_swallows_the_file_is_422_not_a_500(client: Client) -> None:
    # rule R-RATE-8: a bad import stores nothing and says why; an opening quote never closed
    # makes the rest of a long file one cell, longer than the csv module reads (was a 500)
    rows = "".join(f"2025-01-01,Player {n},Other {n},3\n" for n in range(5000))
    body = f'date,winner,loser,length\n2025-01-01,"Anna,Bert,3\n{rows}'
    answer = client.post(
        "/api/v1/ratings/imports",
        content=body.encode(),
        headers={**DIRECTOR, "Content-Type": "text/csv"},
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["field"] == "body"
    assert client.get("/api/v1/ratings").json() == []


def test_a_settings_change_keeps_a_field_the_body_leaves_out(client: Client) -> None:
    # rule R-RATE-3; API.md "Ratings" is silent on partial bodies: docs/api.md says they keep
    client.put(
        "/api/v1/ratings/settings",
        json={"start_rating": 1500, "newcomer_boost": True},
        headers=DIRECTOR,
    )
    answer = client.put("/api/v1/ratings/settings", json={"start_rating": 1600}, headers=DIRECTOR)
    assert answer.status_code == 200, answer.text
    assert (answer.json()["start_rating"], answer.json()["newcomer_boost"]) == (1600, True)
    answer = client.put(
        "/api/v1/ratings/settings", json={"newcomer_boost": False}, headers=DIRECTOR
    )
    assert (answer.json()["start_rating"], answer.json()["newcomer_boost"]) == (1600, False)


def test_a_settings_field_sent_as_null_is_refused_naming_it(client: Client) -> None:
    # left out keeps the value; null is no value at all
    answer = client.put("/api/v1/ratings/settings", json={"start_rating": None}, headers=DIRECTOR)
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["field"] == "start_rating"


def test_an_import_naming_a_player_id_nobody_has_is_422_naming_the_row(client: Client) -> None:
    # rule R-RATE-7: a side is a player id or a display name; a new *name* adds a rating-only
    # player, an id that names nobody is a mistake (a typo, another club's id), not a name
    unknown = "6a3c4c5e-0000-4000-8000-000000000000"
    body = {
        "matches": [
            {"date": "2025-01-01", "winner": "Anna", "loser": "Bert", "length": 3},
            {"date": "2025-01-02", "winner": "Anna", "loser": unknown, "length": 3},
        ]
    }
    answer = client.post("/api/v1/ratings/imports", json=body, headers=DIRECTOR)
    assert answer.status_code == 422, answer.text
    (error,) = answer.json()["errors"]
    assert error["field"] == "matches[1].loser"
    assert unknown in error["message"]
    assert client.get("/api/v1/ratings").json() == []  # rule R-RATE-8: nothing stored


def test_a_rated_ad_hoc_side_naming_a_player_id_nobody_has_is_422(client: Client) -> None:
    # rule R-RATE-7
    answer = client.post(
        "/api/v1/matches",
        json={
            "player_a": "6a3c4c5e-0000-4000-8000-000000000000",
            "player_b": "Bert",
            "match_length": 3,
        },
        headers=DIRECTOR,
    )
    assert answer.status_code == 422, answer.text
    assert answer.json()["errors"][0]["field"] == "player_a"
