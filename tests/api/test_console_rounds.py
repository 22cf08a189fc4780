"""The director's round page over HTTP: tables and pairings with their reasons, results entered
and corrected, disputed reports, the next round paired, the latest one unpaired, the knockout
bracket (API.md "Pages for people"). Every form is the REST use case: the REST API agrees.
Browser check: tests/browser/test_console_rounds.py."""

from __future__ import annotations

import html as html_escape
import re
from typing import Any

import pytest
from litestar.testing import TestClient

from api.console.round_texts import explanation_in
from domain.pairing import LOOKAHEAD_NOTE
from service.clock import MovableClock
from tests.api.test_console import csrf_of, signed_in
from tests.api.test_tournament_day import Day, run_day, start_tournament
from tests.api.test_venue import player_report
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def round_url(day: Day, number: int) -> str:
    return f"/director/tournaments/{day.id}/rounds/{number}"


def round_page(client: Client, day: Day, number: int, query: str = "") -> str:
    answer = client.get(round_url(day, number) + query)
    assert answer.status_code == 200, answer.text
    return str(answer.text)


def row_of(html: str, match_id: str) -> str:
    found = re.search(rf'<tr data-match-id="{match_id}".*?</tr>', html, re.DOTALL)
    assert found is not None, f"a row for match {match_id}"
    return found.group(0)


def matches_of(client: Client, day: Day) -> dict[str, dict[str, Any]]:
    rows = client.get(day.url("/matches")).json()
    return {row["match_id"]: row for row in rows}


def tables(day: Day, number: int) -> list[dict[str, Any]]:
    return [t for t in day.rounds[number - 1]["pairings"] if t["player_b"]]


def result_form(page: str, table: dict[str, Any], side: str, **changes: str) -> dict[str, str]:
    """The row's `result` form as the director fills it in: ``side`` "a" or "b" wins the
    match by its length, the loser scoring 1 point."""
    length = str(table["match_length"])
    a_wins = side == "a"
    return {
        "_csrf_token": csrf_of(page),
        "match_id": table["match_id"],
        "winner": table["player_a"] if a_wins else table["player_b"],
        "points_a": length if a_wins else "1",
        "points_b": "1" if a_wins else length,
        **changes,
    }


def enter(client: Client, day: Day, number: int, table: dict[str, Any], winner: str) -> Any:
    page = round_page(client, day, number)
    return client.post(
        f"{round_url(day, number)}/results",
        data=result_form(page, table, winner),
        follow_redirects=False,
    )


# Sessions, CSRF, no GET acts -------------------------------------------------------------


def test_the_round_page_without_a_session_redirects_to_the_sign_in(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    answer = client.get(round_url(day, 1), follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == (
        f"/director/sign-in?next=%2Fdirector%2Ftournaments%2F{day.id}%2Frounds%2F1"
    )
    table = tables(day, 1)[0]
    posted = client.post(
        f"{round_url(day, 1)}/results",
        data={"match_id": table["match_id"], "winner": table["player_a"], "points_a": "5"},
        follow_redirects=False,
    )
    assert posted.status_code == 303
    assert matches_of(client, day)[table["match_id"]]["status"] == "pending"


def test_a_result_without_its_csrf_token_is_forbidden_and_changes_nothing(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    page = round_page(client, day, 1)
    table = tables(day, 1)[0]
    form = result_form(page, table, "a")
    for csrf in ({}, {"_csrf_token": "0" * 64}):
        answer = client.post(
            f"{round_url(day, 1)}/results",
            data={**{k: v for k, v in form.items() if k != "_csrf_token"}, **csrf},
            follow_redirects=False,
        )
        assert answer.status_code == 403
        assert "Dieses Formular ist abgelaufen" in answer.text
    pair = client.post(f"/director/tournaments/{day.id}/rounds", data={}, follow_redirects=False)
    assert pair.status_code == 403
    assert matches_of(client, day)[table["match_id"]]["status"] == "pending"
    assert client.get(day.url("/rounds/2")).status_code == 404


def test_a_get_on_the_forms_urls_changes_nothing(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    for table in tables(day, 1):
        assert enter(client, day, 1, table, "a").status_code == 303
    for path in ("/rounds", "/rounds/1/results", "/rounds/1/unpair"):
        answer = client.get(f"/director/tournaments/{day.id}{path}", follow_redirects=False)
        assert answer.status_code in (404, 405), path
    assert client.get(day.url("/rounds/2")).status_code == 404
    assert client.get(day.url("/rounds/1")).status_code == 200


# The round's tables -----------------------------------------------------------------------


def test_the_page_shows_each_table_with_its_players_and_the_pairings_reason(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 5)  # odd: one player has the bye
    signed_in(client)
    page = round_page(client, day, 1)
    rows = re.findall(r'<tr data-match-id="([^"]*)" data-table="(\d+)"', page)
    assert rows == [(t["match_id"] or "", str(t["table"])) for t in day.rounds[0]["pairings"]]
    for table in day.rounds[0]["pairings"]:
        row = re.search(
            rf'<tr data-match-id="[^"]*" data-table="{table["table"]}".*?</tr>', page, re.DOTALL
        )
        assert row is not None
        assert html_escape.escape(table["player_a_name"]) in row.group(0)
        assert html_escape.escape(explanation_in("de", table["explanation"])) in row.group(0)
        if table["player_b"] is None:
            assert "Freilos" in row.group(0)
            assert 'data-action="result"' not in row.group(0)
        else:
            assert row.group(0).count('data-action="result"') == 1
            assert '<p class="status">' in row.group(0)
            assert "offen" in row.group(0)
    english = round_page(client, day, 1, "?lang=en")
    assert "Round 1" in english
    assert "Enter the result" in english
    for table in day.rounds[0]["pairings"]:
        assert html_escape.escape(table["explanation"]) in english


ENGLISH_WORDS = re.compile(
    r"\b(rank|wins?|both|bye|floats|down|v|semi-final|final|place|the|seed|match|round|number|"
    r"rests|cycle|advances|no|points|main|consolation|table)\b"
)


@pytest.mark.parametrize(
    "explanation",
    [
        "both 0 wins",
        "both 1 win",
        "rank 2 (2 wins) floats down to rank 3 (1 win)",
        "rematch, no pairing avoids it: rank 1 (3 wins) v rank 2 (3 wins)",
        f"rank 4 (1 win) floats down to rank 5 (0 wins); {LOOKAHEAD_NOTE}",
        "bye: the lowest-ranked player without a bye (rank 7)",
        "bye: everyone has had one: the lowest-ranked player (rank 7)",
        "bye: the lowest-ranked player without a bye who leaves the fewest rematches (rank 6)",
        f"bye: the lowest-ranked player without a bye ({LOOKAHEAD_NOTE}) (rank 5)",
        "semi-final: 1st v 4th of the Swiss standings",
        "semi-final: 2nd v 3rd of the Swiss standings",
        "final: the winners of the semi-finals",
        "3rd place: the losers of the semi-finals",
        "director",
        "semi-final: 1st v 4th of the round robin standings",
        "semi-final: 2nd v 3rd of the round robin standings",
        "Berger table, cycle 2: number 3 v number 10",
        "Berger number 6 rests this round (no win, no points)",
        "main bracket, round 1, match 3: seed 2 v seed 15",
        "seed 1 advances with a bye (main bracket, round 1, match 1; no win, no points)",
        "consolation bracket, round 2, match 1: seed 9 v seed 5",
        "seed 12 advances with a bye (consolation bracket, round 1, match 2; no win, no points)",
    ],
)
def test_the_german_round_page_says_every_pairing_reason_in_german(explanation: str) -> None:
    # The round's event keeps the explanation as the pairing wrote it; the page translates it.
    german = explanation_in("de", explanation)
    assert not ENGLISH_WORDS.search(german), german
    assert re.findall(r"\d+", german) == re.findall(r"\d+", explanation)
    assert explanation_in("en", explanation) == explanation


def test_a_directors_reason_for_an_override_is_quoted_as_written() -> None:
    assert explanation_in("de", "paired by the director: rank 1 v the bye") == (
        "vom Turnierleiter gepaart: rank 1 v the bye"
    )


def test_an_unknown_round_is_a_404_page_with_its_reason(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    answer = client.get(round_url(day, 7))
    assert answer.status_code == 404
    assert "data-error" in answer.text
    assert "has no round 7" in answer.text


# Results ----------------------------------------------------------------------------------


def test_a_result_entered_and_corrected_on_the_page_agrees_with_the_rest_api(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-6: a correction names the result it replaces
    day = start_tournament(client, clock, 4)
    signed_in(client)
    table = tables(day, 1)[0]
    answer = enter(client, day, 1, table, "a")
    assert answer.status_code == 303
    assert answer.headers["location"] == f"{round_url(day, 1)}?done=result&table={table['table']}"
    entered = matches_of(client, day)[table["match_id"]]
    assert entered["status"] == "decided"
    assert entered["winner"] == table["player_a"]
    assert entered["score"] == {"a": table["match_length"], "b": 1}

    page = round_page(client, day, 1, "?done=result&table=" + str(table["table"]))
    assert f"Das Ergebnis an Tisch {table['table']} ist eingetragen." in page
    row = row_of(page, table["match_id"])
    assert entered["result_id"] in row  # shown where a correction needs it
    assert f'name="corrects" value="{entered["result_id"]}"' in row
    assert "Ergebnis korrigieren" in row

    corrected = client.post(
        f"{round_url(day, 1)}/results",
        data=result_form(
            page, table, "b", corrects=entered["result_id"], reason="Zettel vertauscht"
        ),
        follow_redirects=False,
    )
    assert corrected.status_code == 303
    assert "done=correction" in corrected.headers["location"]
    now = matches_of(client, day)[table["match_id"]]
    assert now["winner"] == table["player_b"]
    assert now["score"] == {"a": 1, "b": table["match_length"]}
    assert now["result_id"] not in (None, entered["result_id"])
    assert now["result_id"] in row_of(round_page(client, day, 1), table["match_id"])


def test_a_refused_result_is_shown_next_to_its_field(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    table = tables(day, 1)[0]
    page = round_page(client, day, 1)
    url = f"{round_url(day, 1)}/results"
    no_winner = client.post(url, data=result_form(page, table, "a", winner=""))
    assert no_winner.status_code == 422
    assert re.search(r"data-error[^>]*>Bitte wähle den Sieger\.", no_winner.text)
    bad_points = client.post(url, data=result_form(page, table, "a", points_b="viele"))
    assert bad_points.status_code == 422
    assert f'id="result:{table["match_id"]}-points_b-error"' in bad_points.text
    # "²" is a digit to Python, yet no number: refused next to the field, not a 500
    superscript = client.post(url, data=result_form(page, table, "a", points_b="²"))
    assert superscript.status_code == 422
    assert f'id="result:{table["match_id"]}-points_b-error"' in superscript.text
    # the winner's points must reach the match length: the use case says so, in its words
    short = client.post(url, data=result_form(page, table, "a", points_a="1"))
    assert short.status_code == 422
    assert "data-error" in row_of(short.text, table["match_id"])
    assert matches_of(client, day)[table["match_id"]]["status"] == "pending"


def test_disputed_reports_are_shown_side_by_side_and_the_director_decides(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    table = tables(day, 1)[0]
    a, b = table["player_a"], table["player_b"]
    assert player_report(client, day, a, table, winner=a, loser_points=2).status_code == 202
    assert player_report(client, day, b, table, winner=b, loser_points=0).status_code == 202
    row = row_of(round_page(client, day, 1), table["match_id"])
    assert 'data-status="disputed"' in row
    reports = re.findall(
        r'<div class="report" data-reported-by="([^"]+)">(.*?)</div>', row, re.DOTALL
    )
    assert [who for who, _ in reports] == [a, b]
    length = table["match_length"]
    assert f"gewinnt {length}:2" in reports[0][1]
    assert f"gewinnt {length}:0" in reports[1][1]  # the winner's points first

    page = round_page(client, day, 1)
    decided = client.post(
        f"{round_url(day, 1)}/results", data=result_form(page, table, "b"), follow_redirects=False
    )
    assert decided.status_code == 303
    assert matches_of(client, day)[table["match_id"]]["winner"] == b
    assert 'class="report"' not in row_of(round_page(client, day, 1), table["match_id"])


# Pairing and unpairing --------------------------------------------------------------------


def test_pairing_the_next_round_on_the_page_agrees_with_the_rest_api(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 6)
    signed_in(client)
    for table in tables(day, 1):
        assert enter(client, day, 1, table, "a").status_code == 303
    page = round_page(client, day, 1)
    answer = client.post(
        f"/director/tournaments/{day.id}/rounds",
        data={"_csrf_token": csrf_of(page)},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"{round_url(day, 2)}?done=pair"
    paired = client.get(day.url("/rounds/2")).json()
    second = round_page(client, day, 2, "?done=pair")
    assert "Runde 2 ist ausgelost." in second
    shown = re.findall(r'<tr data-match-id="([^"]*)" data-table="(\d+)"', second)
    assert shown == [(t["match_id"] or "", str(t["table"])) for t in paired["pairings"]]
    current = client.get(f"/director/tournaments/{day.id}/rounds/current", follow_redirects=False)
    assert current.headers["location"] == round_url(day, 2)


def test_pairing_while_results_are_missing_is_refused_in_words(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 6)
    signed_in(client)
    assert enter(client, day, 1, tables(day, 1)[0], "a").status_code == 303
    page = round_page(client, day, 1)
    answer = client.post(
        f"/director/tournaments/{day.id}/rounds", data={"_csrf_token": csrf_of(page)}
    )
    assert answer.status_code == 409
    problem = client.post(day.url("/rounds"), headers=DIRECTOR).json()
    error = re.search(r'data-error role="alert">([^<]+)<', answer.text)
    assert error is not None
    # the German page says the REST API's English detail in German
    assert problem["detail"] == "round 1 still needs the results of table(s) 2, 3"
    assert html_escape.unescape(error.group(1)) == (
        "Runde 1 braucht noch die Ergebnisse von Tisch 2, 3."
    )
    assert client.get(day.url("/rounds/2")).status_code == 404


def test_the_latest_round_is_unpaired_on_the_page(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    for table in tables(day, 1):
        assert enter(client, day, 1, table, "a").status_code == 303
    assert client.post(day.url("/rounds"), headers=DIRECTOR).status_code == 201
    page = round_page(client, day, 2)
    answer = client.post(
        f"{round_url(day, 2)}/unpair",
        data={"_csrf_token": csrf_of(page), "reason": "falsch ausgelost"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"{round_url(day, 1)}?done=unpair&table=2"
    assert client.get(day.url("/rounds/2")).status_code == 404
    assert "Runde 2 ist zurückgenommen." in round_page(client, day, 1, "?done=unpair&table=2")
    # a round with a result is not unpaired: the refusal in words
    refused = client.post(f"{round_url(day, 1)}/unpair", data={"_csrf_token": csrf_of(page)})
    assert refused.status_code == 409
    assert "data-error" in refused.text
    assert client.get(day.url("/rounds/1")).status_code == 200


# The knockout -----------------------------------------------------------------------------


def test_the_knockout_round_shows_the_bracket(client: Client, clock: MovableClock) -> None:
    day = run_day(client, clock, 4)
    signed_in(client)
    last = len(day.rounds)
    page = round_page(client, day, last)
    assert "K.-o.-Runde" in page
    # the knockout as the public bracket page draws it (api/pages/templates/bracket_drawing.html)
    bracket = re.search(r'<div class="bracket" id="bracket">.*?</section>\n</div>', page, re.DOTALL)
    assert bracket is not None
    stages = re.findall(r'<section class="(semi_final|final|third_place)"', bracket.group(0))
    assert stages == ["semi_final", "semi_final", "final", "third_place"]
    for stage in ("Halbfinale", "Finale", "Spiel um Platz 3"):
        assert stage in bracket.group(0)
    assert 'data-action="pair-next-round"' not in page  # the tournament is completed


# The override -------------------------------------------------------------------------------


def override_form(page: str, pairings: list[tuple[str, str]], reason: str) -> dict[str, str]:
    form = {"_csrf_token": csrf_of(page), "reason": reason}
    for number, (player_a, player_b) in enumerate(pairings, start=1):
        form[f"a_{number}"] = player_a
        form[f"b_{number}"] = player_b
    return form


def test_the_override_form_offers_every_player_at_each_table_and_starts_from_the_pairing(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 5)
    signed_in(client)
    page = round_page(client, day, 1)
    form = re.search(r'<form[^>]*id="override-form".*?</form>', page, re.DOTALL)
    assert form is not None
    players = sorted(day.players)
    for number, table in enumerate(day.rounds[0]["pairings"], start=1):
        for side in ("a", "b"):
            select = re.search(
                rf'<select name="{side}_{number}">(.*?)</select>', form.group(0), re.DOTALL
            )
            assert select is not None
            offered = re.findall(r'<option value="([^"]*)"', select.group(1))
            chosen = re.findall(r'<option value="([^"]*)" selected>', select.group(1))
            # every player of the round, and for b the bye ("")
            assert sorted(o for o in offered if o) == players
            assert ("" in offered) == (side == "b")
            assert chosen == ([table[f"player_{side}"]] if table[f"player_{side}"] else [])


def test_an_override_without_warnings_is_saved_at_once(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    (one, two) = tables(day, 1)
    swapped = [(one["player_a"], two["player_b"]), (two["player_a"], one["player_b"])]
    page = round_page(client, day, 1)
    assert 'data-action="override-pairings"' in page
    answer = client.post(
        f"{round_url(day, 1)}/pairings",
        data=override_form(page, swapped, "Tischwunsch"),
        follow_redirects=False,
    )
    assert answer.status_code == 303
    assert answer.headers["location"] == f"{round_url(day, 1)}?done=override"
    paired = client.get(day.url("/rounds/1")).json()["pairings"]
    assert [(t["player_a"], t["player_b"]) for t in paired] == swapped
    assert {t["explanation"] for t in paired} == {"paired by the director: Tischwunsch"}


def test_an_overrides_warnings_are_shown_before_it_is_saved(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-1: a rematch the computed pairing avoids is warned about
    day = start_tournament(client, clock, 4)
    signed_in(client)
    for table in tables(day, 1):
        assert enter(client, day, 1, table, "a").status_code == 303
    assert client.post(day.url("/rounds"), headers=DIRECTOR).status_code == 201
    before = client.get(day.url("/rounds/2")).json()
    rematches = [(t["player_a"], t["player_b"]) for t in tables(day, 1)]
    page = round_page(client, day, 2)
    preview = client.post(
        f"{round_url(day, 2)}/pairings", data=override_form(page, rematches, "Wunsch")
    )
    assert preview.status_code == 200
    warnings = re.findall(r'<li data-warning="([a-z_]+)">', preview.text)
    assert warnings.count("rematch") == 2
    assert "schon in einer früheren Runde" in preview.text  # rule T-FMT-1, said in German
    assert client.get(day.url("/rounds/2")).json() == before  # nothing saved yet

    confirmation = re.search(r'<form[^>]*id="override-confirm".*?</form>', preview.text, re.DOTALL)
    assert confirmation is not None
    hidden = dict(
        re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', confirmation.group(0))
    )
    assert hidden["confirmed"] == "yes"
    saved = client.post(f"{round_url(day, 2)}/pairings", data=hidden, follow_redirects=False)
    assert saved.status_code == 303
    after = client.get(day.url("/rounds/2")).json()["pairings"]
    assert [(t["player_a"], t["player_b"]) for t in after] == rematches


def test_moving_round_ones_bye_warns_of_no_score_gap_as_everyone_has_zero_wins(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-2: the score groups are those before the round; the bye of the very round
    # being changed is no win yet, so its player is no score group above the others
    day = start_tournament(client, clock, 5)
    signed_in(client)
    played = tables(day, 1)
    bye = next(t["player_a"] for t in day.rounds[0]["pairings"] if t["player_b"] is None)
    (one, two) = played
    # the bye's player takes table 1's b seat; that seat's player sits out instead
    moved = [(one["player_a"], bye), (two["player_a"], two["player_b"]), (one["player_b"], "")]
    page = round_page(client, day, 1)
    answer = client.post(
        f"{round_url(day, 1)}/pairings",
        data=override_form(page, moved, "kommt später"),
        follow_redirects=False,
    )
    assert 'data-warning="score_gap"' not in answer.text
    assert "verschiedene Siegzahlen" not in answer.text
    assert answer.status_code == 303, answer.text
    paired = client.get(day.url("/rounds/1")).json()["pairings"]
    assert [(t["player_a"], t["player_b"] or "") for t in paired] == moved


def test_an_override_that_leaves_a_player_out_is_refused_in_words(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    (one, _) = tables(day, 1)
    page = round_page(client, day, 1)
    answer = client.post(
        f"{round_url(day, 1)}/pairings",
        data=override_form(page, [(one["player_a"], one["player_b"])], "nur einer"),
    )
    assert answer.status_code == 422
    assert re.search(r'data-error role="alert">[^<]+<', answer.text)
    assert client.get(day.url("/rounds/1")).json()["pairings"] == day.rounds[0]["pairings"]


# Reasons --------------------------------------------------------------------------------------


def test_a_reason_over_500_characters_is_refused_next_to_its_field_as_on_the_desk(
    client: Client, clock: MovableClock
) -> None:
    # API.md "Pages for people", Forms: a refused form comes back with its 4xx and the words
    # next to it. A reason is at most 500 characters (REST's ``reason``; the desk's
    # ``reason_refused``): the round page refuses a longer one as the desk does, with 422 and
    # "Der Grund ist zu lang" next to the field, and stores nothing (never a cut reason).
    day = start_tournament(client, clock, 4)
    signed_in(client)
    too_long = "x" * 501
    (one, two) = tables(day, 1)
    page = round_page(client, day, 1)
    swapped = [(one["player_a"], two["player_b"]), (two["player_a"], one["player_b"])]
    override = client.post(
        f"{round_url(day, 1)}/pairings", data=override_form(page, swapped, too_long)
    )
    assert override.status_code == 422
    assert re.search(
        r'id="override-pairings-reason-error"[^>]*>Der Grund ist zu lang', override.text
    )
    assert client.get(day.url("/rounds/1")).json()["pairings"] == day.rounds[0]["pairings"]

    for table in (one, two):
        assert enter(client, day, 1, table, "a").status_code == 303
    entered = matches_of(client, day)[one["match_id"]]
    correction = client.post(
        f"{round_url(day, 1)}/results",
        data=result_form(page, one, "b", corrects=entered["result_id"], reason=too_long),
    )
    assert correction.status_code == 422
    assert re.search(
        rf'id="result:{one["match_id"]}-reason-error"[^>]*>Der Grund ist zu lang', correction.text
    )
    assert matches_of(client, day)[one["match_id"]] == entered

    assert client.post(day.url("/rounds"), headers=DIRECTOR).status_code == 201
    unpair = client.post(
        f"{round_url(day, 2)}/unpair", data={"_csrf_token": csrf_of(page), "reason": too_long}
    )
    assert unpair.status_code == 422
    assert re.search(r'id="unpair-round-reason-error"[^>]*>Der Grund ist zu lang', unpair.text)
    assert client.get(day.url("/rounds/2")).status_code == 200
