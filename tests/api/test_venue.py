"""The tournament day at the venue over REST: players report their results, the director
overrides or takes back a pairing, admits a late entry, fixes tables, and finalizes; the tables'
pages, QR codes, the wallboard."""

from __future__ import annotations

import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournament_day import (
    Day,
    pair_next,
    play_through_api,
    report,
    run_day,
    standings,
    start_tournament,
)
from tests.api.test_tournaments import person
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def token_of(day: Day, player_id: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {day.players[player_id]['player_token']}"}


def player_report(
    client: Client, day: Day, player_id: str, table: dict[str, Any], winner: str, loser_points: int
) -> Any:
    length = table["match_length"]
    a_wins = winner == table["player_a"]
    body = {
        "match_id": table["match_id"],
        "winner": winner,
        "points_a": length if a_wins else loser_points,
        "points_b": loser_points if a_wins else length,
    }
    return client.post(day.url("/reports"), json=body, headers=token_of(day, player_id))


def tables_of(day: Day, number: int) -> list[dict[str, Any]]:
    return [t for t in day.rounds[number - 1]["pairings"] if t["player_b"]]


def stream(client: Client, day: Day) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = client.get(
        f"/api/v1/audit/streams/{day.id}", headers=DIRECTOR
    ).json()
    return events


def test_results_come_from_the_players_own_reports(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 7)
    agreed, disputed, played = tables_of(day, 1)
    # one player's report waits for the opponent's
    first = player_report(client, day, agreed["player_a"], agreed, agreed["player_a"], 3)
    assert (first.status_code, first.json()["status"]) == (202, "awaiting_confirmation")
    # a player of another match may not report this one
    stranger = player_report(client, day, played["player_a"], agreed, agreed["player_a"], 3)
    assert stranger.status_code == 403
    anonymous = {"match_id": agreed["match_id"], "winner": agreed["player_a"], "points_a": 0}
    assert client.post(day.url("/reports"), json={**anonymous, "points_b": 0}).status_code == 401
    # the opponent's equal report records the result
    second = player_report(client, day, agreed["player_b"], agreed, agreed["player_a"], 3)
    assert (second.status_code, second.json()["status"]) == (202, "confirmed")
    recorded = [e["data"] for e in stream(client, day) if e["type"] == "ResultRecorded"]
    assert [(d["match_id"], d["source"]) for d in recorded] == [(agreed["match_id"], "players")]
    # different reports dispute the match: the director sees it and decides
    player_report(client, day, disputed["player_a"], disputed, disputed["player_a"], 2)
    clash = player_report(client, day, disputed["player_b"], disputed, disputed["player_b"], 2)
    assert (clash.status_code, clash.json()) == (202, {"status": "disputed", "result_id": None})
    matches = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    assert matches[disputed["match_id"]]["status"] == "disputed"
    assert matches[agreed["match_id"]]["status"] == "decided"
    shown = client.get(day.url("/rounds/1")).json()["pairings"]
    assert [t["table"] for t in shown if t["disputed"]] == [disputed["table"]]
    # a match played through the API needs no report
    play_through_api(client, day, played, winner="a")
    refused = client.post(day.url("/rounds"), headers=DIRECTOR)
    assert refused.status_code == 409
    assert refused.json()["type"].endswith("results-missing")
    assert refused.json()["tables"] == [disputed["table"]]
    decided = client.post(
        day.url("/results"),
        json={
            "match_id": disputed["match_id"],
            "winner": disputed["player_a"],
            "points_a": disputed["match_length"],
            "points_b": 2,
            "reason": "score sheet",
        },
        headers=DIRECTOR,
    )
    assert decided.status_code == 201, decided.text
    assert pair_next(client, day)["round"] == 2


def test_a_report_after_the_result_or_about_a_stranger_match_is_refused(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    table = day.rounds[0]["pairings"][0]
    report(client, day, table)
    late = player_report(client, day, table["player_a"], table, table["player_a"], 0)
    assert late.status_code == 409
    unknown = client.post(
        day.url("/reports"),
        json={
            "match_id": table["match_id"],
            "winner": table["player_a"],
            "points_a": 7,
            "points_b": 0,
        },
        headers={"Authorization": "Bearer not-a-token"},
    )
    assert unknown.status_code == 401  # a token nobody holds


def test_an_override_that_forces_a_rematch_is_warned_about_and_then_played(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-1, T-FMT-2: a rematch the director forces is warned about
    day = start_tournament(client, clock, 7)
    for table in tables_of(day, 1):
        report(client, day, table)
    computed = pair_next(client, day)
    met = tables_of(day, 1)[0]
    rest = [
        p
        for t in computed["pairings"]
        for p in (t["player_a"], t["player_b"])
        if p and p not in (met["player_a"], met["player_b"])
    ]
    pairings = [{"player_a": met["player_a"], "player_b": met["player_b"]}]
    pairings += [{"player_a": rest[i], "player_b": rest[i + 1]} for i in (0, 2)]
    pairings.append({"player_a": rest[4], "player_b": None})
    response = client.put(
        day.url("/rounds/2/pairings"),
        json={"pairings": pairings, "reason": "two friends asked to play again"},
        headers=DIRECTOR,
    )
    assert response.status_code == 200, response.text
    repaired = response.json()
    rematches = [w for w in repaired["warnings"] if w["kind"] == "rematch"]
    assert [(w["table"], set(w["players"])) for w in rematches] == [
        (1, {met["player_a"], met["player_b"]})
    ]
    assert repaired["replaced"], "the difference from the computed pairing"
    assert [(t["player_a"], t["player_b"]) for t in repaired["pairings"]] == [
        (p["player_a"], p["player_b"]) for p in pairings
    ]
    # the replaced tables' matches are closed, never deleted; the new tables have new matches
    new_ids = {t["match_id"] for t in repaired["pairings"] if t["match_id"]}
    for old in computed["pairings"]:
        if old["match_id"] and old["match_id"] not in new_ids:
            voided = client.get(f"/api/v1/matches/{old['match_id']}")
            assert voided.status_code == 200
            assert voided.json()["phase"] == "match_over"
    events = stream(client, day)
    assert [e["data"]["reason"] for e in events if e["type"] == "RoundRepaired"] == [
        "two friends asked to play again"
    ]
    day.rounds[-1] = client.get(day.url("/rounds/2")).json()
    for table in tables_of(day, 2):
        report(client, day, table)
    assert {m["status"] for m in client.get(day.url("/matches")).json()} == {"decided"}
    assert pair_next(client, day)["round"] == 3


def test_an_override_needs_every_active_player_once(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    first, second = day.rounds[0]["pairings"]
    short = {
        "pairings": [{"player_a": first["player_a"], "player_b": first["player_b"]}],
        "reason": "x",
    }
    response = client.put(day.url("/rounds/1/pairings"), json=short, headers=DIRECTOR)
    assert response.status_code == 422
    report(client, day, first)
    swapped = {
        "pairings": [
            {"player_a": first["player_a"], "player_b": second["player_a"]},
            {"player_a": first["player_b"], "player_b": second["player_b"]},
        ],
        "reason": "too late",
    }
    locked = client.put(day.url("/rounds/1/pairings"), json=swapped, headers=DIRECTOR)
    assert locked.status_code == 409


def test_an_unpaired_round_leaves_no_trace_but_its_events(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 7)
    for table in tables_of(day, 1):
        report(client, day, table)
    before = standings(client, day)
    matches_before = client.get(day.url("/matches")).json()
    paired = pair_next(client, day)
    response = client.delete(day.url("/rounds/2?reason=wrong%20results"), headers=DIRECTOR)
    assert response.status_code == 200, response.text
    voided = response.json()["voided"]
    assert sorted(voided) == sorted(t["match_id"] for t in paired["pairings"] if t["match_id"])
    assert client.get(day.url("/rounds/2")).status_code == 404
    assert client.get(day.url("/matches")).json() == matches_before
    assert standings(client, day) == before
    for match_id in voided:
        assert client.get(f"/api/v1/matches/{match_id}").json()["phase"] == "match_over"
    types = [e["type"] for e in stream(client, day)]
    assert types.count("RoundPaired") == 2
    assert types[-1] == "RoundUnpaired"
    again = pair_next(client, day)
    assert again["round"] == 2
    assert not {t["match_id"] for t in again["pairings"]} & set(voided)
    # a round with a result stays
    report(client, day, tables_of(day, 3)[0])
    assert client.delete(day.url("/rounds/2"), headers=DIRECTOR).status_code == 409
    assert client.delete(day.url("/rounds/1"), headers=DIRECTOR).status_code == 409


def test_an_unpairing_whose_reason_is_too_long_is_refused_and_the_round_stays(
    client: Client, clock: MovableClock
) -> None:
    # A reason is kept in the stream as given, so one longer than every other reason's limit
    # (500 characters, as the cancellation's) is refused rather than cut.
    day = start_tournament(client, clock, 4)
    refused = client.delete(day.url(f"/rounds/1?reason={'x' * 501}"), headers=DIRECTOR)
    assert refused.status_code == 422, refused.text
    assert [error["field"] for error in refused.json()["errors"]] == ["reason"]
    assert client.get(day.url("/rounds/1")).json()["pairings"] == day.rounds[0]["pairings"]
    assert "RoundUnpaired" not in [e["type"] for e in stream(client, day)]
    kept = client.delete(day.url(f"/rounds/1?reason={'y' * 500}"), headers=DIRECTOR)
    assert kept.status_code == 200, kept.text
    unpaired = [e for e in stream(client, day) if e["type"] == "RoundUnpaired"]
    assert unpaired[-1]["data"]["reason"] == "y" * 500


def test_a_late_entry_is_paired_from_the_next_round_with_no_wins_for_the_missed_one(
    client: Client, clock: MovableClock
) -> None:
    # rule T-BUYIN-1: the late entry's seat joins the pot
    day = start_tournament(client, clock, 6)
    for table in tables_of(day, 1):
        report(client, day, table)
    public = client.post(day.url("/registrations"), json=person(40))
    assert public.status_code == 409
    registered = client.post(day.url("/registrations"), json=person(41), headers=DIRECTOR)
    assert registered.status_code == 201, registered.text
    late = registered.json()
    response = client.post(
        day.url("/late-entries"),
        json={"registration_id": late["registration_id"]},
        headers=DIRECTOR,
    )
    assert response.status_code == 201, response.text
    entered = response.json()
    assert (entered["from_round"], entered["players"], entered["pot_cents"]) == (2, 7, 7 * 8000)
    rows = {r["player_id"]: r for r in standings(client, day)}
    assert (rows[late["player_id"]]["wins"], rows[late["player_id"]]["points"]) == (0, 0)
    second = pair_next(client, day)
    seated = {p for t in second["pairings"] for p in (t["player_a"], t["player_b"]) if p}
    assert late["player_id"] in seated
    assert len(seated) == 7
    assert client.get(day.url("/prizes")).json()["pot_cents"] == 7 * 8000
    again = client.post(
        day.url("/late-entries"),
        json={"registration_id": late["registration_id"]},
        headers=DIRECTOR,
    )
    assert again.status_code == 409


def test_an_override_of_the_round_being_played_leaves_a_late_entry_out(
    client: Client, clock: MovableClock
) -> None:
    # a late entry admitted during round 2 plays from round 3: round 2's override neither
    # needs nor takes them
    day = start_tournament(client, clock, 6)
    for table in tables_of(day, 1):
        report(client, day, table)
    second = pair_next(client, day)
    late = client.post(day.url("/registrations"), json=person(42), headers=DIRECTOR).json()
    admitted = client.post(
        day.url("/late-entries"),
        json={"registration_id": late["registration_id"], "missed": "byes"},
        headers=DIRECTOR,
    )
    assert admitted.status_code == 201, admitted.text
    assert admitted.json()["from_round"] == 3
    tables = [{"player_a": t["player_a"], "player_b": t["player_b"]} for t in second["pairings"]]
    url = day.url("/rounds/2/pairings")
    body = {"pairings": list(reversed(tables)), "reason": "a table was swapped"}
    assert client.put(url, json=body, headers=DIRECTOR).status_code == 200
    with_late = {**body, "pairings": [*tables, {"player_a": late["player_id"], "player_b": None}]}
    refused = client.put(url, json=with_late, headers=DIRECTOR)
    assert refused.status_code == 422
    assert "not in this round's field" in refused.json()["detail"]


def qr_modules(svg: str) -> list[list[bool]]:
    """The dark modules of a segno SVG: its path draws each row's runs as ``h`` lines."""
    size = int(re.search(r'width="(\d+)"', svg).group(1))  # type: ignore[union-attr]
    scale = int(re.search(r"scale\((\d+)\)", svg).group(1))  # type: ignore[union-attr]
    path = re.search(r' d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    modules = size // scale
    grid = [[False] * modules for _ in range(modules)]
    x = y = 0.0
    for command, first, second in re.findall(r"([MmHh])(-?[\d.]+)(?:\s(-?[\d.]+))?", path):
        if command == "M":
            x, y = float(first), float(second)
        elif command == "m":
            x, y = x + float(first), y + float(second)
        else:
            for column in range(int(x), int(x + float(first))):
                grid[int(y)][column] = True
            x += float(first)
    return grid


def decode(grid: list[list[bool]]) -> str | None:
    """The QR code's text by zbar, or None where zbar is not installed."""
    try:
        from pyzbar import pyzbar
    except (ImportError, OSError):
        return None
    pixel = 4
    rows = [
        bytes(0 if dark else 255 for dark in row for _ in range(pixel))
        for row in grid
        for _ in range(pixel)
    ]
    width = len(grid) * pixel
    found = pyzbar.decode((b"".join(rows), width, width))
    return found[0].data.decode() if found else ""


def test_each_table_has_its_page_and_a_qr_code_of_it(client: Client, clock: MovableClock) -> None:
    import segno

    day = start_tournament(client, clock, 7)
    first = day.rounds[0]["pairings"][0]
    table = client.get(day.url("/tables/1"))
    assert table.status_code == 200, table.text
    shown = table.json()
    assert (shown["match_id"], shown["player_a"], shown["player_b"], shown["round"]) == (
        first["match_id"],
        first["player_a"],
        first["player_b"],
        1,
    )
    assert (shown["score"], shown["phase"], shown["status"]) == (
        {"a": 0, "b": 0},
        "opening",
        "pending",
    )
    assert client.get(day.url("/tables/99")).status_code == 404
    response = client.get(day.url("/tables/1/qr.svg"))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    # the code opens the table page for people, not the JSON (API.md "Pages for people")
    url = f"http://localhost:8000/pages/tournaments/{day.id}/tables/1"
    grid = qr_modules(response.text)
    expected = [[bool(m) for m in row] for row in segno.make(url, error="m").matrix_iter(border=4)]
    assert grid == expected
    decoded = decode(grid)
    assert decoded in (url, None)  # None: no zbar here, the matrix comparison above stands


def test_a_player_with_a_fixed_table_plays_there(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 8)
    mobile = day.rounds[0]["pairings"][0]["player_a"]
    response = client.post(
        day.url("/fixed-tables"), json={"player_id": mobile, "table": 3}, headers=DIRECTOR
    )
    assert response.status_code == 201, response.text
    for table in tables_of(day, 1):
        report(client, day, table)
    second = pair_next(client, day)
    assert [t["table"] for t in second["pairings"]] == [1, 2, 3, 4]
    at_three = next(t for t in second["pairings"] if t["table"] == 3)
    assert mobile in (at_three["player_a"], at_three["player_b"])
    assert client.get(day.url("/tables/3")).json()["match_id"] == at_three["match_id"]


def test_the_wallboard_shows_the_round_in_one_call(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 7)
    played = tables_of(day, 1)[0]
    report(client, day, played)
    clock.advance(600)
    board = client.get(day.url("/board"))
    assert board.status_code == 200, board.text
    shown = board.json()
    assert shown["round"]["round"] == 1
    assert shown["timer"]["elapsed_seconds"] == 600
    assert [t["table"] for t in shown["tables"]] == [t["table"] for t in day.rounds[0]["pairings"]]
    assert shown["to_report"] == [t["table"] for t in tables_of(day, 1)[1:]]
    assert len(shown["standings"]) == 7
    decided = next(t for t in shown["tables"] if t["table"] == played["table"])
    assert decided["status"] == "decided"


def test_after_finalize_a_correction_is_refused_until_reopened(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-6, T-FMT-8: places are fixed until a correction
    day = run_day(client, clock, 4)
    final = day.rounds[-1]["pairings"][0]
    response = client.post(day.url("/finalize"), headers=DIRECTOR)
    assert response.status_code == 200, response.text
    assert response.json()["status"] == "final"
    assert response.json()["prizes"]["pot_cents"] == 4 * 8000
    result = next(
        e["data"]
        for e in reversed(stream(client, day))
        if e["type"] == "ResultRecorded" and e["data"]["match_id"] == final["match_id"]
    )
    loser = final["player_b"] if result["winner"] == final["player_a"] else final["player_a"]
    correction = {
        "match_id": final["match_id"],
        "winner": loser,
        "points_a": final["match_length"] if loser == final["player_a"] else 0,
        "points_b": final["match_length"] if loser == final["player_b"] else 0,
        "corrects": result["result_id"],
        "reason": "wrong winner noted",
    }
    refused = client.post(day.url("/results"), json=correction, headers=DIRECTOR)
    assert refused.status_code == 409
    assert refused.json()["type"].endswith("tournament-final")
    assert client.post(day.url("/finalize"), headers=DIRECTOR).status_code == 409
    no_reason = client.post(day.url("/reopen"), json={"reason": " "}, headers=DIRECTOR)
    assert no_reason.status_code == 422
    reopened = client.post(
        day.url("/reopen"), json={"reason": "final misreported"}, headers=DIRECTOR
    )
    assert reopened.status_code == 200, reopened.text
    assert reopened.json()["status"] == "completed"
    corrected = client.post(day.url("/results"), json=correction, headers=DIRECTOR)
    assert corrected.status_code == 201, corrected.text
    assert client.get(day.url("/places")).json()[0]["player_id"] == loser


def test_the_start_event_carries_the_tournaments_rules(client: Client, clock: MovableClock) -> None:
    # rule T-FMT-3, T-BUYIN-1: the tiebreaks and shares of the start stay
    day = start_tournament(client, clock, 4)
    started = next(e["data"] for e in stream(client, day) if e["type"] == "TournamentStarted")
    assert started["payout_percent"] == [50, 30, 20]
    assert started["match_length"] == day.rounds[0]["pairings"][0]["match_length"]
    assert started["tiebreaks"] == ["wins", "points", "buchholz", "head_to_head", "lot"]


def test_the_printable_pages_render_in_german_with_print_css(
    client: Client, clock: MovableClock, tmp_path: Path
) -> None:
    day = start_tournament(client, clock, 7)
    base = f"/pages/tournaments/{day.id}/print"
    pages = {
        name: client.get(base + path)
        for name, path in (
            ("by_table", "/pairings?by=table"),
            ("by_name", "/pairings?by=name"),
            ("slips", "/slips"),
            ("standings", "/standings"),
        )
    }
    for response in pages.values():
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/html")
        assert '<html lang="de">' in response.text
        assert "@media print" in response.text
    assert "Paarungen Runde 1" in pages["by_table"].text
    assert "Freilos" in pages["by_table"].text
    names = [row["display_name"] for row in standings(client, day)]
    listed = re.findall(r"<tr><td>([^<]+)</td><td>\d+</td>", pages["by_name"].text)
    assert listed == sorted(names, key=str.casefold)
    assert pages["slips"].text.count('class="slip"') == 3
    assert "Unterschrift" in pages["slips"].text
    assert "Tabelle" in pages["standings"].text
    assert client.get(base + "/pairings?by=seat").status_code == 422
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return  # the bonus: a PDF where headless Chromium is installed
    source = tmp_path / "slips.html"
    source.write_text(pages["slips"].text, encoding="utf-8")
    pdf = tmp_path / "slips.pdf"
    subprocess.run(
        [
            chromium,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--print-to-pdf={pdf}",
            source.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    assert pdf.read_bytes().startswith(b"%PDF")


def test_a_late_entry_checks_in_on_arrival_and_counts_as_present(
    client: Client, clock: MovableClock
) -> None:
    # rules T-CHECKIN-1, T-BUYIN-1: the late entry's ID is seen and buy-in paid too (R-ATT-1)
    day = start_tournament(client, clock, 6)
    paid = {"id_document_seen": True, "buy_in_paid_cents": 10000}
    late = client.post(day.url("/registrations"), json=person(41), headers=DIRECTOR).json()

    arrived = client.post(
        day.url(f"/registrations/{late['registration_id']}/check-in"), json=paid, headers=DIRECTOR
    )

    assert arrived.status_code == 200, arrived.text
    assert arrived.json()["status"] == "checked_in"
    assert client.get(day.url("/seats")).json()["checked_in"] == 7
    admitted = client.post(
        day.url("/late-entries"),
        json={"registration_id": late["registration_id"]},
        headers=DIRECTOR,
    )
    assert admitted.status_code == 201, admitted.text
    assert admitted.json()["players"] == 7
    # a registration of the start's field checks in no second time after it
    [(_, first)] = list(day.players.items())[:1]
    again = client.post(
        day.url(f"/registrations/{first['registration_id']}/check-in"), json=paid, headers=DIRECTOR
    )
    assert again.status_code == 409


def test_a_finalized_tournament_is_final_and_says_when_until_it_is_reopened(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-8: finalize fixes places and prizes; GET says what the finalize answered
    # (API.md: `final` after finalize, `reopen` returns it to `completed`)
    day = run_day(client, clock, 4)
    assert client.get(day.url()).json()["status"] == "completed"
    assert client.get(day.url()).json()["finalized_at"] is None
    finalized = client.post(day.url("/finalize"), headers=DIRECTOR)
    assert finalized.json()["status"] == "final"
    shown = client.get(day.url()).json()
    assert shown["status"] == "final"
    at = datetime.fromisoformat(finalized.json()["finalized_at"])
    assert datetime.fromisoformat(shown["finalized_at"]) == at
    assert shown["finalized_at"].endswith("+02:00")  # in the club's time zone (CEST)
    listed = client.get("/api/v1/tournaments").json()
    assert [(t["status"], t["finalized_at"]) for t in listed if t["id"] == day.id] == [
        ("final", shown["finalized_at"])
    ]
    reopened = client.post(day.url("/reopen"), json={"reason": "a typo"}, headers=DIRECTOR)
    assert reopened.json()["status"] == "completed"
    shown = client.get(day.url()).json()
    assert (shown["status"], shown["finalized_at"]) == ("completed", None)


def test_the_result_id_a_correction_names_is_shown_with_the_match_and_the_report(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-6: a correction names the result it replaces, so the id is shown where the
    # result is: the confirming report's answer, the match list and the round's pairing
    day = start_tournament(client, clock, 4)
    table, other = tables_of(day, 1)
    first = player_report(client, day, table["player_a"], table, table["player_a"], 3)
    assert first.json() == {"status": "awaiting_confirmation", "result_id": None}
    listed = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    assert listed[table["match_id"]]["result_id"] is None

    confirmed = player_report(client, day, table["player_b"], table, table["player_a"], 3)

    result_id = confirmed.json()["result_id"]
    assert confirmed.json() == {"status": "confirmed", "result_id": result_id}
    stream_ids = [
        e["data"]["result_id"] for e in stream(client, day) if e["type"] == "ResultRecorded"
    ]
    assert stream_ids == [result_id]
    listed = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    assert (listed[table["match_id"]]["result_id"], listed[other["match_id"]]["result_id"]) == (
        result_id,
        None,
    )
    shown = {p["match_id"]: p for p in client.get(day.url("/rounds/1")).json()["pairings"]}
    assert (shown[table["match_id"]]["result_id"], shown[other["match_id"]]["result_id"]) == (
        result_id,
        None,
    )
    # the id shown is the one a correction names; the correction's own id then takes its place
    corrected = client.post(
        day.url("/results"),
        json={
            "match_id": table["match_id"],
            "winner": table["player_b"],
            "points_a": 3,
            "points_b": table["match_length"],
            "corrects": result_id,
            "reason": "the players swapped the names on the sheet",
        },
        headers=DIRECTOR,
    )
    assert corrected.status_code == 201, corrected.text
    assert corrected.json()["corrects"] == result_id
    listed = {m["match_id"]: m for m in client.get(day.url("/matches")).json()}
    assert listed[table["match_id"]]["result_id"] == corrected.json()["result_id"] != result_id
