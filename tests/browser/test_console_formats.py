"""A round robin day and an elimination day on the director's pages in headless Chromium
(issue 22, "Everything else follows the format"), as tests/browser/test_console_day.py runs a
Swiss day: the director checks everyone in at the desk and starts; every round's results are
entered on its round page and the next round paired there, to the end; the places are
finalized at the desk. What the director sees follows the format: Berger numbers or bracket
seeds beside the names, the consolation's tables in the same rounds, the reasons in German,
no Swiss wording; the wallboard shows the round and, at the end, the places.
Small fields keep it quick: five players in the round robin, eight in the elimination.
Screenshots go to tests/artefacts/ (``formats-*.png``)."""

from __future__ import annotations

import re
from typing import Any, cast

import pytest

from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, register, schedule
from tests.browser.conftest import LiveServer, screenshot
from tests.browser.test_console import check_in_row
from tests.browser.test_console_day import (
    Desk,
    enter_open_results,
    pair_next_round,
    sign_in,
)
from tests.browser.test_pages import text_of, to_the_next_page, wait_until, wait_until_live
from tests.conftest import DIRECTOR

pytestmark = pytest.mark.browser
SWISS_WORDS = re.compile(r"Schweizer|Swiss|swiss_rounds|Buchholz")
"""Words of the Swiss format that a round robin's or an elimination's pages never show."""


def checks_in_and_starts(server: LiveServer, browser: Any, players: int, **terms: Any) -> Desk:
    """The club registered ``players`` people; on the day the director checks the first in at
    the desk (the others at the entrance, over REST: the Swiss day checks everyone in at the
    desk) and starts there."""
    client = cast(Any, server.http)
    tournament = schedule(client, capacity=players, **terms)
    registrations = [register(client, tournament["id"], n) for n in range(1, players + 1)]
    advance_to(client, server.clock, CHECK_IN_OPENS)
    desk = sign_in(server, browser, tournament["name"])
    check_in_row(browser, registrations[0]["registration_id"])
    for registration in registrations[1:]:
        client.post(
            f"/api/v1/tournaments/{desk.id}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        ).raise_for_status()
    browser.get(desk.url)
    to_the_next_page(browser, desk.find('form[data-action="start"] button').click)
    assert "Das Turnier ist gestartet" in text_of(browser, "#flash")
    assert desk.api("/seats")["checked_in"] == players
    no_swiss_words(desk)
    return desk


def no_swiss_words(desk: Desk) -> None:
    shown = desk.find("body").text
    assert not SWISS_WORDS.search(shown), SWISS_WORDS.findall(shown)


TABLES_AS_SHOWN = """
return [...document.querySelectorAll("#tables tr[data-table]")].map((row) => {
  const label = row.querySelector(".stage");
  return {
    table: Number(row.dataset.table),
    stage: label ? label.innerText.trim() : "",
    bracket: label ? label.dataset.bracket : "",
    seeds: [...row.querySelectorAll(".seed")].map((seed) => Number(seed.dataset.seed)),
    why: row.querySelector(".why").innerText.trim(),
    variant: row.querySelector(".variant")?.dataset.variant ?? "",
  };
});
"""


def the_tables_as_shown(desk: Desk) -> list[dict[str, Any]]:
    """Each table of the round page: its stage label, seeds and the reason, as displayed
    (read in one script: one round trip to the browser)."""
    shown: list[dict[str, Any]] = desk.browser.execute_script(TABLES_AS_SHOWN)
    return shown


def plays_every_round(desk: Desk, check_round: Any) -> int:
    """Results on each round page, the next round paired there, until the tournament is
    completed; ``check_round(number, paired)`` looks at each round page first. The rounds."""
    number = 1
    to_the_next_page(desk.browser, desk.find("#current-round").click)
    assert desk.browser.current_url == desk.round_page(1)
    while True:
        paired = desk.api(f"/rounds/{number}")
        check_round(number, paired)
        no_swiss_words(desk)
        assert not desk.finds("#override")  # API.md "Formats": the schedule is fixed
        enter_open_results(desk, number)
        if desk.api()["status"] == "completed":
            return number
        number += 1
        pair_next_round(desk, number)


def finalizes(desk: Desk) -> list[dict[str, str]]:
    """The desk's places fixed; each row as shown: place, player, prize, consolation."""
    desk.browser.get(desk.url)
    no_swiss_words(desk)
    to_the_next_page(desk.browser, desk.find('form[data-action="finalize"] button').click)
    assert text_of(desk.browser, "#flash") == "Plätze und Preise sind festgeschrieben."
    assert desk.api()["status"] == "final"
    rows = []
    for row in desk.finds("#places tr[data-place]"):
        cells = row.find_elements("css selector", "td")
        rows.append(
            {
                "place": row.get_attribute("data-place"),
                "player_id": row.get_attribute("data-player-id"),
                "prize": cells[2].text,
                "consolation": cells[3].text if len(cells) > 3 else "",
            }
        )
    return rows


def money(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d}"


BOARD_AS_SHOWN = """
const board = document.getElementById("board");
return {
  text: board.innerText,
  tables: [...board.querySelectorAll("#tables tbody tr")].map((row) => row.dataset.table),
  places: [...board.querySelectorAll("#standings tr[data-place]")].map(
    (row) => row.dataset.playerId),
};
"""


def the_wallboard_shows(desk: Desk, label: str) -> None:
    """The public wallboard of the day: the latest round's tables under the format's name and,
    once the places are fixed, the places, without Buchholz. The board redraws itself when its
    feed connects, so it is read in one script, until it shows all that."""
    browser = desk.browser
    browser.get(f"{desk.server.url}/pages/tournaments/{desk.id}/wallboard")
    wait_until_live(browser)
    latest = desk.api(f"/rounds/{max(m['round'] for m in desk.api('/matches'))}")
    expected = {
        "tables": [str(t["table"]) for t in latest["pairings"]],
        "places": [p["player_id"] for p in desk.api("/places")],
    }

    def shown() -> dict[str, Any]:
        board: dict[str, Any] = browser.execute_script(BOARD_AS_SHOWN)
        return board

    wait_until(
        browser,
        lambda: (
            (board := shown())["tables"] == expected["tables"]
            and board["places"] == expected["places"]
            and label in board["text"]
        ),
    )
    assert not SWISS_WORDS.search(shown()["text"])


def test_a_round_robin_day_runs_on_the_directors_pages(
    live_server: LiveServer, browser: Any
) -> None:
    # rule T-FMT-11: five players, Berger numbers 1..5 and a rest each round, five rounds
    desk = checks_in_and_starts(live_server, browser, 5, format="round_robin")

    def check_round(number: int, paired: dict[str, Any]) -> None:
        shown = the_tables_as_shown(desk)
        assert [t["table"] for t in shown] == [t["table"] for t in paired["pairings"]]
        for table, row in zip(paired["pairings"], shown, strict=True):
            assert row["stage"] == "Jeder gegen jeden"
            assert row["seeds"] == [s for s in (table["seed_a"], table["seed_b"]) if s]
            if table["player_b"] is None:
                assert row["why"] == (
                    f"Berger-Nummer {table['seed_a']} hat diese Runde spielfrei "
                    "(kein Sieg, keine Punkte)"
                )
            else:
                assert row["why"] == (
                    f"Berger-Tabelle, Durchgang 1: Nummer {table['seed_a']} "
                    f"gegen Nummer {table['seed_b']}"
                )
        assert "Spieler (Berger-Nummer)" in text_of(desk.browser, "#tables thead")
        if number == 1:
            desk.screenshot("formats-round-robin-round-1", "tables")

    assert plays_every_round(desk, check_round) == 5
    rests = [
        t["player_a"]
        for n in range(1, 6)
        for t in desk.api(f"/rounds/{n}")["pairings"]
        if t["player_b"] is None
    ]
    assert sorted(rests) == sorted(p["player_id"] for p in desk.api("/places"))
    shown = finalizes(desk)
    desk.screenshot("formats-round-robin-final", "places-section")
    places = desk.api("/places")
    assert [(r["place"], r["player_id"]) for r in shown] == [
        (str(p["place"]), p["player_id"]) for p in places
    ]
    paid = {p["place"]: p["amount_cents"] for p in desk.api("/prizes")["payouts"]}
    assert [r["prize"] for r in shown] == [
        money(paid[p["place"]]) if paid.get(p["place"]) else "" for p in places
    ]
    the_wallboard_shows(desk, "Jeder gegen jeden")
    screenshot(desk.browser, "formats-round-robin-wallboard")


def test_an_elimination_day_with_a_consolation_runs_on_the_directors_pages(
    live_server: LiveServer, browser: Any
) -> None:
    # rules T-FMT-12, T-FMT-13: eight players, seeds 1..8, no bye; the four round-1 losers
    # play the consolation in rounds 2 and 3, beside the semi-finals and the finals; rule
    # V-MATCH-VARIANT-1: every stage plays Plakoto but the final, which is backgammon
    desk = checks_in_and_starts(
        live_server,
        browser,
        8,
        format="elimination",
        variant="plakoto",
        stage_variants={"final": "backgammon"},
    )
    terms = text_of(browser, "#format-terms")
    assert "Plakoto" in terms, terms
    assert "Finale: Backgammon" in terms, terms
    expected_stages = {
        1: ["Hauptfeld, Runde 1"] * 4,
        2: ["Halbfinale", "Halbfinale", "Trostrunde, Runde 1", "Trostrunde, Runde 1"],
        3: ["Finale", "Spiel um Platz 3", "Trostrunde, Runde 2"],
    }

    def check_round(number: int, paired: dict[str, Any]) -> None:
        shown = the_tables_as_shown(desk)
        assert [t["stage"] for t in shown] == expected_stages[number]
        for table, row in zip(paired["pairings"], shown, strict=True):
            assert row["bracket"] == table["bracket"]
            assert row["seeds"] == [table["seed_a"], table["seed_b"]]
            assert row["why"].endswith(
                f"Setzplatz {table['seed_a']} gegen Setzplatz {table['seed_b']}"
            )
        assert "Spieler (Setzplatz)" in text_of(desk.browser, "#tables thead")
        # each table whose stage plays Plakoto says so; the final (backgammon) says nothing
        assert [row["variant"] for row in shown] == [
            "" if stage == "Finale" else "plakoto" for stage in expected_stages[number]
        ]
        if number == 1:
            assert [row["seeds"] for row in shown] == [[1, 8], [4, 5], [2, 7], [3, 6]]
        if number == 3:
            # both brackets as the public bracket page draws them: main round 1, the
            # semi-finals, the final and 3rd place; the consolation's two rounds
            assert len(desk.finds("#main-bracket .match")) == 8
            assert len(desk.finds("#consolation-bracket .match")) == 3
        desk.screenshot(f"formats-elimination-round-{number}", "tables")

    assert plays_every_round(desk, check_round) == 3
    shown = finalizes(desk)
    desk.screenshot("formats-elimination-final", "places-section")
    places = desk.api("/places")
    assert [(r["place"], r["player_id"]) for r in shown] == [
        (str(p["place"]), p["player_id"]) for p in places
    ]
    # rule T-FMT-14: the main pot by place, the consolation pot by consolation place
    prizes = desk.api("/prizes")
    main = {p["place"]: p["amount_cents"] for p in prizes["payouts"] if p["bracket"] == "main"}
    consolation = {
        p["place"]: p["amount_cents"] for p in prizes["payouts"] if p["bracket"] == "consolation"
    }
    for row, place in zip(shown, places, strict=True):
        assert row["prize"] == (money(main[place["place"]]) if place["place"] in main else "")
        won = place["consolation_place"]
        assert row["consolation"] == (f"{won}.: {money(consolation[won])}" if won else "")
    assert sorted(r["consolation"][:2] for r in shown if r["consolation"]) == ["1.", "2."]
    the_wallboard_shows(desk, "K.-o.-Runde")
    screenshot(desk.browser, "formats-elimination-wallboard")
