"""The director's console follows the tournament's format and variants over HTTP: the desk and
the round page say what the tables play (format, match length, variants stage by stage, cube,
Tavli format), each table of a variant says its variant, and the desk's register text speaks of
late entries only where the format takes them (rules T-FMT-10..13, V-MATCH-VARIANT-1,
V-CUBE-1, V-TAVLI-MATCH-1; API.md "Formats", "Matches and tournaments: variants", "Pages for
people")."""

from __future__ import annotations

import html
import re
from typing import Any, NoReturn
from uuid import UUID

import pytest
from litestar.testing import TestClient

from service.bootstrap import Services
from service.clock import MovableClock
from tests.api.test_bracket_page import drawn_matches, part
from tests.api.test_console import desk, signed_in
from tests.api.test_console_rounds import round_page, row_of
from tests.api.test_tournament_day import pair_next, report, start_tournament
from tests.api.test_tournaments import schedule

Client = TestClient[Any]


def terms_of(page: str) -> dict[str, str]:
    """The page's format settings, by ``data-term``, as the director reads them."""
    found = re.search(r'<p id="format-terms"[^>]*>(.*?)</p>', page, re.DOTALL)
    assert found is not None, "the format settings"
    spans = re.findall(r'<span data-term="([a-z_]+)">([^<]*)</span>', found.group(1))
    return {key: html.unescape(text) for key, text in spans}


def register_lead(page: str) -> str:
    found = re.search(r'<p class="muted" id="register-lead">([^<]*)</p>', page)
    assert found is not None, "the register form's lead"
    return found.group(1)


def test_the_desk_says_a_plakoto_swiss_plays_its_final_in_backgammon(client: Client) -> None:
    # rules V-MATCH-VARIANT-1, V-CUBE-1: the final's own variant; the cube unset is on in the
    # backgammon final only
    created = schedule(client, variant="plakoto", stage_variants={"final": "backgammon"})
    signed_in(client)
    german = terms_of(desk(client, created["id"]).text)
    assert german == {
        "format": "Modus: Schweizer System, 6 Runden, danach K.-o.-Runde der besten 4",
        "match_length": "Matchlänge: 7 Punkte",
        "variant": "Spielart: Plakoto; Finale: Backgammon",
        "cube": "Doppelwürfel: mit Doppelwürfel nur im Backgammon",
    }
    english = terms_of(desk(client, created["id"], "?lang=en").text)
    assert english["format"] == "Format: Swiss, 6 rounds, then a knockout of the top 4"
    assert english["variant"] == "Variant: Plakoto; Final: Backgammon"
    assert english["cube"] == "Cube: doubling cube in backgammon only"


def test_the_desk_of_a_backgammon_tournament_says_backgammon_with_the_cube(
    client: Client,
) -> None:
    # rule V-CUBE-1: today's tournament, unchanged
    created = schedule(client)
    signed_in(client)
    terms = terms_of(desk(client, created["id"]).text)
    assert terms["variant"] == "Spielart: Backgammon"
    assert terms["cube"] == "Doppelwürfel: mit Doppelwürfel"
    assert "tavli" not in terms


@pytest.mark.parametrize(
    ("changes", "german", "english"),
    [
        (
            {"variant": "tavli", "match_length": 5},
            "Tavli: nach Punkten, auf 5 Punkte",
            "Tavli: in points, to 5 points",
        ),
        (
            {"variant": "tavli", "tavli_format": "best_of_three"},
            "Tavli: best of three (wer zuerst zwei Spiele gewinnt)",
            "Tavli: best of three (the first to win two games)",
        ),
    ],
)
def test_the_desk_says_how_tavli_is_played(
    client: Client, changes: dict[str, Any], german: str, english: str
) -> None:
    # rule V-TAVLI-MATCH-1: a Tavli match in points to the match length, or best of three games
    created = schedule(client, **changes)
    signed_in(client)
    terms = terms_of(desk(client, created["id"]).text)
    assert terms["tavli"] == german
    assert terms["cube"] == "Doppelwürfel: ohne Doppelwürfel"
    assert terms_of(desk(client, created["id"], "?lang=en").text)["tavli"] == english


def test_the_desk_says_an_eliminations_seeding_and_consolation(client: Client) -> None:
    # rules T-FMT-12, T-FMT-13: the consolation's length, pot share and split as scheduled
    created = schedule(
        client,
        format="elimination",
        seeding="ranking",
        consolation_match_length=5,
        consolation_pot_percent=30,
    )
    signed_in(client)
    assert terms_of(desk(client, created["id"]).text)["format"] == (
        "Modus: K.-o.-System, Setzung nach Rangliste, Trostrunde der Verlierer der ersten "
        "Runde auf 5 Punkte, 30 % des Topfs (60/40)"
    )
    english = terms_of(desk(client, created["id"], "?lang=en").text)["format"]
    assert english == (
        "Format: Elimination, seeded by ranking, consolation for the first round's losers "
        "to 5 points, 30 % of the pot (60/40)"
    )


def test_the_desk_and_the_round_page_say_the_knockouts_own_match_lengths(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-8 (API.md "Formats", ``match_lengths``): the semi-finals, final and match for
    # 3rd place play their own lengths; the format line says each one that differs from the
    # Swiss rounds' length, as the variants are said stage by stage
    lengths = {"semi_final": 9, "final": 11, "third_place": 5}
    created = schedule(client, match_lengths=lengths)
    signed_in(client)
    german = terms_of(desk(client, created["id"]).text)["match_length"]
    assert german == (
        "Matchlänge: 7 Punkte; Halbfinale: 9 Punkte; Finale: 11 Punkte; Spiel um Platz 3: 5 Punkte"
    )
    english = terms_of(desk(client, created["id"], "?lang=en").text)["match_length"]
    assert english == (
        "Match length: 7 points; Semi-final: 9 points; Final: 11 points; Third place: 5 points"
    )
    final_only = schedule(client, match_lengths={"semi_final": 7, "final": 11, "third_place": 7})
    assert terms_of(desk(client, final_only["id"]).text)["match_length"] == (
        "Matchlänge: 7 Punkte; Finale: 11 Punkte"
    )
    # without a knockout its lengths are never played: not said
    no_knockout = schedule(client, knockout_players=0, match_lengths=lengths)
    assert terms_of(desk(client, no_knockout["id"]).text)["match_length"] == "Matchlänge: 7 Punkte"
    # the round page includes the same line
    day = start_tournament(client, clock, 4, match_lengths=lengths)
    signed_in(client)  # the clock moved on to the play date
    assert terms_of(round_page(client, day, 1))["match_length"] == german


def test_the_desk_reads_the_knockouts_lengths_from_the_calendar_not_from_the_log(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # rule T-FMT-8; ARCHITECTURE.md: pages read views, the desk loads no tournament to render
    created = schedule(client, match_lengths={"semi_final": 9, "final": 11, "third_place": 5})
    signed_in(client)
    services: Services = client.app.state.services

    def no_load(tournament_id: UUID) -> NoReturn:
        raise AssertionError(f"the desk loaded tournament {tournament_id} from the log")

    monkeypatch.setattr(services.venue, "load", no_load)
    shown = terms_of(desk(client, created["id"]).text)["match_length"]
    assert shown == (
        "Matchlänge: 7 Punkte; Halbfinale: 9 Punkte; Finale: 11 Punkte; Spiel um Platz 3: 5 Punkte"
    )


@pytest.mark.parametrize("format_name", ["round_robin", "elimination"])
def test_the_register_text_promises_no_late_entry_where_the_schedule_is_fixed(
    client: Client, format_name: str
) -> None:
    # rules T-FMT-11, T-FMT-12, API.md "Formats": late entries are format-fixed-schedule
    created = schedule(client, format=format_name, capacity=8)
    signed_in(client)
    german = register_lead(desk(client, created["id"]).text)
    assert "Nachzügler" not in german
    assert "wer sich nach dem Start anmeldet, spielt nicht mit" in german
    english = register_lead(desk(client, created["id"], "?lang=en").text)
    assert "late entry" not in english
    assert "whoever registers after the start does not play" in english


def test_the_register_text_of_a_swiss_speaks_of_a_late_entry(client: Client) -> None:
    # rule T-FMT-10: the Swiss format takes late entries
    created = schedule(client)
    signed_in(client)
    assert "ein Nachzügler" in register_lead(desk(client, created["id"]).text)
    assert "a late entry" in register_lead(desk(client, created["id"], "?lang=en").text)


def test_each_table_of_the_round_page_says_its_variant_where_it_is_not_backgammon(
    client: Client, clock: MovableClock
) -> None:
    # rule V-MATCH-VARIANT-1: four players of a Fevga elimination with a backgammon final:
    # round 1 holds the semi-finals in Fevga, round 2 the backgammon final and the match for
    # 3rd place in Fevga
    day = start_tournament(
        client,
        clock,
        4,
        format="elimination",
        variant="fevga",
        stage_variants={"final": "backgammon"},
    )
    signed_in(client)
    first = round_page(client, day, 1)
    assert terms_of(first)["variant"] == "Spielart: Fevga; Finale: Backgammon"
    for table in day.rounds[0]["pairings"]:
        assert '<span class="variant" data-variant="fevga">Fevga</span>' in row_of(
            first, table["match_id"]
        )
        report(client, day, table)
    second = pair_next(client, day)
    page = round_page(client, day, 2)
    for table in second["pairings"]:
        row = row_of(page, table["match_id"])
        if table["stage"] == "final":
            assert "data-variant" not in row
        else:
            assert '<span class="variant" data-variant="fevga">Fevga</span>' in row
    english = round_page(client, day, 2, "?lang=en")
    assert terms_of(english)["variant"] == "Variant: Fevga; Final: Backgammon"


def test_a_best_of_three_tavli_table_says_so(client: Client, clock: MovableClock) -> None:
    # rule V-TAVLI-MATCH-1: the table's variant with its format
    day = start_tournament(client, clock, 4, variant="tavli", tavli_format="best_of_three")
    signed_in(client)
    page = round_page(client, day, 1)
    for table in day.rounds[0]["pairings"]:
        assert "Tavli, best of three</span>" in row_of(page, table["match_id"])


def test_the_round_page_draws_both_brackets_as_the_public_bracket_page_does(
    client: Client, clock: MovableClock
) -> None:
    # rules T-FMT-12, T-FMT-13: eight players; round 2 holds the semi-finals and consolation
    # round 1 of the four round-1 losers, drawn on the director's page as on the public one
    day = start_tournament(client, clock, 8, format="elimination")
    for table in day.rounds[0]["pairings"]:
        report(client, day, table)
    second = pair_next(client, day)
    signed_in(client)
    console = round_page(client, day, 2)
    public = client.get(f"/pages/tournaments/{day.id}/bracket").text
    for bracket in ("main-bracket", "consolation-bracket"):
        assert drawn_matches(part(console, bracket)) == drawn_matches(part(public, bracket))
    consolation = drawn_matches(part(console, "consolation-bracket"))
    assert consolation == [
        f"{t['seed_a']} {t['player_a_name']} 0 {t['seed_b']} {t['player_b_name']} 0"
        for t in second["pairings"]
        if t["bracket"] == "consolation"
    ]
    assert ">Hauptrunde</h3>" in console
    assert ">Trostrunde</h3>" in console
    english = round_page(client, day, 2, "?lang=en")
    assert ">Main bracket</h3>" in english
    assert ">Consolation</h3>" in english
