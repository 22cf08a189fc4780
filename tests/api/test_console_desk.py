"""The desk's actions beyond check-in and start, over HTTP (API.md "Pages for people"): register
at the desk, the waitlist, late entries, withdrawals and exclusions, the break list, places and
prizes, finalize and reopen, the printouts. Each action is the REST use case: the REST API
agrees afterwards; a refusal comes back in words next to its field; without the CSRF token
nothing changes."""

from __future__ import annotations

import re
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_console import csrf_of, desk, signed_in
from tests.api.test_directors import appoint, audit
from tests.api.test_tournament_day import (
    Day,
    pair_next,
    play_through_api,
    report,
    run_day,
    standings,
    start_tournament,
)
from tests.api.test_tournaments import register, schedule, stored_events
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def desk_url(tournament_id: str, path: str = "") -> str:
    return f"/director/tournaments/{tournament_id}{path}"


def submit(client: Client, tournament_id: str, path: str, **form: str) -> Any:
    """Post a desk form as the page gives it: with the page's CSRF token, no redirect followed."""
    page = desk(client, tournament_id).text
    return client.post(
        desk_url(tournament_id, path),
        data={"_csrf_token": csrf_of(page), **form},
        follow_redirects=False,
    )


def registrations(client: Client, tournament_id: str) -> list[dict[str, Any]]:
    answer = client.get(f"/api/v1/tournaments/{tournament_id}/registrations", headers=DIRECTOR)
    rows: list[dict[str, Any]] = answer.json()
    return rows


def row_with(html: str, attribute: str, value: str, action: str = "") -> str:
    """The row (``tr`` or ``li``) carrying ``attribute="value"`` (and holding form ``action``)."""
    for found in re.finditer(rf'<(tr|li) {attribute}="{value}".*?</\1>', html, re.DOTALL):
        if f'data-action="{action}"' in found.group(0) or not action:
            return found.group(0)
    raise AssertionError(f"no row with {attribute}={value} {action}")


def flash_of(html: str) -> str:
    found = re.search(r'id="flash" role="status">([^<]*)<', html)
    assert found is not None, "a message after the action"
    return found.group(1)


# Register at the desk ------------------------------------------------------------------------


def test_the_desk_registers_a_person_at_once_and_the_rest_api_lists_them(
    client: Client,
) -> None:
    # rule T-REG-1: the director's registration needs no confirmation mail (the 201 path)
    tournament = schedule(client)
    named = appoint(client, "Erika Mustermann")
    signed_in(client, named["token"])
    page = desk(client, tournament["id"]).text
    assert 'data-action="register"' in page
    answer = submit(
        client,
        tournament["id"],
        "/registrations",
        first_name="Anna",
        last_name="Muster",
        email="anna@example.org",
        age="",
        birth_date="05.07.85",
    )
    assert answer.status_code == 303, answer.text
    shown = client.get(answer.headers["location"]).text
    assert flash_of(shown) == "Anna M. ist angemeldet."
    (row,) = registrations(client, tournament["id"])
    assert (row["first_name"], row["last_name"], row["email"]) == (
        "Anna",
        "Muster",
        "anna@example.org",
    )
    assert (row["status"], row["birth_date"]) == ("registered", "1985-07-05")
    assert f'data-registration-id="{row["registration_id"]}"' in shown
    registered = audit(client, tournament["id"])[-1]
    assert registered["actor"] == {"director_id": named["director_id"], "name": "Erika Mustermann"}


def test_a_refused_registration_names_its_field_and_keeps_what_was_typed(
    client: Client,
) -> None:
    tournament = schedule(client)
    signed_in(client)
    before = stored_events(client)
    form = {"first_name": "Anna", "last_name": "Muster", "birth_date": ""}
    bad_mail = submit(client, tournament["id"], "/registrations", email="anna", age="30", **form)
    assert bad_mail.status_code == 422
    assert re.search(r'id="register-email-error"[^>]*data-error[^>]*>[^<]+<', bad_mail.text)
    assert 'name="first_name" type="text" value="Anna"' in bad_mail.text
    bad_age = submit(
        client, tournament["id"], "/registrations", email="anna@example.org", age="dreißig", **form
    )
    assert bad_age.status_code == 422
    assert re.search(
        r'id="register-age-error"[^>]*>Bitte das Alter als ganze Zahl eingeben.<', bad_age.text
    )
    too_young = submit(
        client, tournament["id"], "/registrations", email="anna@example.org", age="12", **form
    )
    assert too_young.status_code == 422
    assert 'id="register-age-error"' in too_young.text
    assert stored_events(client) == before
    assert registrations(client, tournament["id"]) == []


def test_a_registration_beyond_the_seats_goes_to_the_waitlist_shown_on_the_desk(
    client: Client,
) -> None:
    # rule T-SEAT-1
    tournament = schedule(client, capacity=2)
    register(client, tournament["id"], 1)
    register(client, tournament["id"], 2)
    signed_in(client)
    answer = submit(
        client,
        tournament["id"],
        "/registrations",
        first_name="Anna",
        last_name="Muster",
        email="anna@example.org",
        age="40",
    )
    assert answer.status_code == 303
    shown = client.get(answer.headers["location"]).text
    assert flash_of(shown) == "Anna M. steht auf der Warteliste."
    waitlisted = next(
        r for r in registrations(client, tournament["id"]) if r["status"] == "waitlisted"
    )
    waitlist = re.search(r'<ol id="waitlist">.*?</ol>', shown, re.DOTALL)
    assert waitlist is not None
    assert f'data-registration-id="{waitlisted["registration_id"]}"' in waitlist.group(0)


# No CSRF, no change ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/registrations",
        "/withdrawals",
        "/exclusions",
        "/penalties",
        "/breaks/present",
        "/finalize",
        "/reopen",
    ],
)
def test_a_desk_form_without_its_csrf_token_is_forbidden_and_changes_nothing(
    client: Client, clock: MovableClock, path: str
) -> None:
    day = run_day(client, clock, 4)
    player = next(iter(day.players))
    match_id = day.rounds[-1]["pairings"][0]["match_id"]
    signed_in(client)
    before = stored_events(client)
    form = {
        "first_name": "Anna",
        "last_name": "Muster",
        "email": "anna@example.org",
        "age": "40",
        "player_id": player,
        "match_id": match_id,
        "points": "1",
        "reason": "test",
    }
    for csrf in ({}, {"_csrf_token": "0" * 64}):
        answer = client.post(desk_url(day.id, path), data={**form, **csrf})
        assert answer.status_code == 403
        assert "Formular ist abgelaufen" in answer.text
    assert stored_events(client) == before
    assert client.get(day.url()).json()["status"] == "completed"


# Withdrawals and exclusions ------------------------------------------------------------------


def test_a_player_withdraws_at_the_desk_and_is_not_paired_again(
    client: Client, clock: MovableClock
) -> None:
    # rule T-FMT-5
    day = start_tournament(client, clock, 6)
    signed_in(client)
    leaving = day.rounds[0]["pairings"][0]["player_a"]
    page = desk(client, day.id).text
    assert 'data-action="withdraw"' in row_with(page, "data-player-id", leaving, "withdraw")
    answer = submit(
        client, day.id, "/withdrawals", player_id=leaving, reason="feels unwell", left_early="yes"
    )
    assert answer.status_code == 303, answer.text
    shown = client.get(answer.headers["location"]).text
    assert "ist zurückgezogen." in flash_of(shown)
    row = next(r for r in registrations(client, day.id) if r["player_id"] == leaving)
    assert (row["status"], row["withdrawal_reason"]) == ("withdrawn", "feels unwell")
    for table in day.rounds[0]["pairings"]:
        if leaving not in (table["player_a"], table["player_b"]):
            report(client, day, table)
    seated = {p for t in pair_next(client, day)["pairings"] for p in (t["player_a"], t["player_b"])}
    assert leaving not in seated


def test_an_exclusion_at_the_desk_agrees_with_the_rest_api_and_a_second_one_is_refused(
    client: Client, clock: MovableClock
) -> None:
    # rule C-EXCL-1
    day = start_tournament(client, clock, 4)
    signed_in(client)
    excluded = day.rounds[0]["pairings"][1]["player_b"]
    answer = submit(
        client, day.id, "/exclusions", player_id=excluded, reason="insulted the opponent"
    )
    assert answer.status_code == 303, answer.text
    assert "ist ausgeschlossen." in flash_of(client.get(answer.headers["location"]).text)
    row = next(r for r in registrations(client, day.id) if r["player_id"] == excluded)
    assert row["status"] == "excluded"
    again = submit(client, day.id, "/exclusions", player_id=excluded, reason="twice")
    assert again.status_code == 409
    assert re.search(r'id="error" data-error role="alert">[^<]+<', again.text)
    too_long = submit(client, day.id, "/withdrawals", player_id=excluded, reason="x" * 501)
    assert too_long.status_code == 422
    assert "Der Grund ist zu lang" in too_long.text
    # the browser stops there already: every reason field of the desk takes 500 characters
    reasons = re.findall(r'<input name="reason"[^>]*>', too_long.text)
    assert reasons
    assert all('maxlength="500"' in field for field in reasons)


# Places, prizes, finalize and reopen ---------------------------------------------------------


def test_the_desk_shows_places_and_prizes_finalizes_and_reopens_with_a_reason(
    client: Client, clock: MovableClock
) -> None:
    # rules T-FMT-4, T-FMT-8, T-BUYIN-1
    day = run_day(client, clock, 4)
    signed_in(client)
    page = desk(client, day.id).text
    places = client.get(day.url("/places")).json()
    prizes = {
        p["place"]: p["amount_cents"] for p in client.get(day.url("/prizes")).json()["payouts"]
    }
    for place in places:
        row = row_with(page, "data-place", str(place["place"]))
        assert f'data-player-id="{place["player_id"]}"' in row
        if prizes.get(place["place"]):
            cents = prizes[place["place"]]
            assert f"{cents // 100},{cents % 100:02d}" in row
    assert 'data-action="finalize"' in page
    assert 'data-action="reopen"' not in page
    final = submit(client, day.id, "/finalize")
    assert final.status_code == 303, final.text
    shown = client.get(final.headers["location"]).text
    assert flash_of(shown) == "Plätze und Preise sind festgeschrieben."
    assert client.get(day.url()).json()["status"] == "final"
    assert 'data-action="reopen"' in shown
    no_reason = submit(client, day.id, "/reopen", reason=" ")
    assert no_reason.status_code == 422
    assert re.search(r'id="reopen-reason-error"[^>]*>Bitte einen Grund angeben.<', no_reason.text)
    assert client.get(day.url()).json()["status"] == "final"
    reopened = submit(client, day.id, "/reopen", reason="final misreported")
    assert reopened.status_code == 303
    assert client.get(day.url()).json()["status"] == "completed"
    assert 'data-action="finalize"' in client.get(reopened.headers["location"]).text


def test_finalizing_before_the_knockout_is_refused_in_words(
    client: Client, clock: MovableClock
) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    answer = submit(client, day.id, "/finalize")
    assert answer.status_code == 409
    assert re.search(r'id="error" data-error role="alert">[^<]+<', answer.text)
    assert client.get(day.url()).json()["status"] == "running"


def test_a_played_out_tournament_is_no_longer_called_running_on_the_desk(
    client: Client, clock: MovableClock
) -> None:
    # API.md "Pages for people": the desk links the current round; once the knockout is
    # played (status completed, then final) there is none running, and the desk says so
    day = run_day(client, clock, 4)
    signed_in(client)
    for status in ("completed", "final"):
        assert client.get(day.url()).json()["status"] == status
        page = desk(client, day.id).text
        assert "läuft seit" not in page
        assert "Zur laufenden Runde" not in page
        assert re.search(r"<p>Das Turnier begann [^<]+ und ist zu Ende gespielt\.</p>", page)
        assert re.search(r'id="current-round">Zur letzten Runde</a>', page)
        english = desk(client, day.id, "?lang=en").text
        assert "has been running" not in english
        assert re.search(r"<p>The tournament began [^<]+ and has been played out\.</p>", english)
        assert re.search(r'id="current-round">To the last round</a>', english)
        if status == "completed":
            assert submit(client, day.id, "/finalize").status_code == 303
    started = start_tournament(client, clock, 4)
    running = desk(client, started.id).text
    assert re.search(r"<p>Das Turnier läuft seit [^<]+\.</p>", running)
    assert re.search(r'id="current-round">Zur laufenden Runde</a>', running)


# The break list --------------------------------------------------------------------------------


def late_after_round_one(client: Client, clock: MovableClock) -> tuple[Day, str, str]:
    """Round 2 paired, the winner of table 1 away for 21 minutes: 2 penalty points proposed."""
    day = start_tournament(client, clock, 4)
    first, second = day.rounds[0]["pairings"]
    play_through_api(client, day, first, winner="a")
    report(client, day, second)
    paired = pair_next(client, day)
    late = first["player_a"]
    table = next(t for t in paired["pairings"] if late in (t["player_a"], t["player_b"]))
    clock.advance(21 * 60)
    return day, late, table["match_id"]


def test_the_break_list_approves_the_proposed_penalty_as_the_rest_api_would(
    client: Client, clock: MovableClock
) -> None:
    # rules C-BREAK-1, C-BREAK-2: 11 minutes late, 2 points proposed
    day, late, match_id = late_after_round_one(client, clock)
    signed_in(client)
    page = desk(client, day.id).text
    row = row_with(page, "data-player-id", late, "approve-penalty")
    assert 'name="points" inputmode="numeric" size="3" value="2"' in row
    assert 'data-action="waive-penalty"' in row
    refused = submit(
        client, day.id, "/penalties", player_id=late, match_id=match_id, points="0", reason="late"
    )
    assert refused.status_code == 422
    assert "Bitte Strafpunkte von 1 bis 64 eingeben." in row_with(
        refused.text, "data-player-id", late, "approve-penalty"
    )
    # "²" is a digit to Python, yet no number: refused in words, not a 500
    superscript = submit(
        client, day.id, "/penalties", player_id=late, match_id=match_id, points="²", reason="late"
    )
    assert superscript.status_code == 422
    assert "Bitte Strafpunkte von 1 bis 64 eingeben." in superscript.text
    answer = submit(
        client, day.id, "/penalties", player_id=late, match_id=match_id, points="2", reason="late"
    )
    assert answer.status_code == 303, answer.text
    matches = client.get(day.url("/matches")).json()
    penalised = next(m for m in matches if m["match_id"] == match_id)
    side = "a" if penalised["player_a"] == late else "b"
    other = "b" if side == "a" else "a"
    score = client.get(f"/api/v1/matches/{match_id}").json()["score"]
    # rule C-BREAK-2: the penalty points go to the opponent's score
    assert (score[other], score[side]) == (2, 0)
    # the same proposal approved again (a second click, a reload) is refused, nothing recorded
    before = stored_events(client)
    again = submit(
        client, day.id, "/penalties", player_id=late, match_id=match_id, points="2", reason="late"
    )
    assert again.status_code == 409
    assert "data-error" in row_with(again.text, "data-player-id", late, "approve-penalty")
    assert stored_events(client) == before
    assert client.get(f"/api/v1/matches/{match_id}").json()["score"] == score


def test_a_refused_penalty_keeps_the_points_and_the_reason_typed(
    client: Client, clock: MovableClock
) -> None:
    # the brief's "a form that loses what was typed on an error": the director raised the
    # proposal to 3 points; refused for another field, the row must not fall back to the
    # proposal of 2, which a second click would then award unnoticed
    day, late, match_id = late_after_round_one(client, clock)
    signed_in(client)
    no_reason = submit(
        client, day.id, "/penalties", player_id=late, match_id=match_id, points="3", reason=" "
    )
    assert no_reason.status_code == 422
    row = row_with(no_reason.text, "data-player-id", late, "approve-penalty")
    assert 'name="points" inputmode="numeric" size="3" value="3"' in row
    too_many = submit(
        client, day.id, "/penalties", player_id=late, match_id=match_id, points="99", reason="spät"
    )
    assert too_many.status_code == 422
    row = row_with(too_many.text, "data-player-id", late, "approve-penalty")
    assert 'value="99"' in row
    assert re.search(r'name="reason"[^>]* value="spät"', row)
    # the other rows keep their own proposals and empty reasons
    assert client.get(f"/api/v1/matches/{match_id}").json()["score"] == {"a": 0, "b": 0}


def test_the_break_list_waives_by_marking_the_player_present_and_everyone_at_once(
    client: Client, clock: MovableClock
) -> None:
    day, late, _ = late_after_round_one(client, clock)
    signed_in(client)
    answer = submit(client, day.id, "/breaks/present", player_id=late, reason="traffic")
    assert answer.status_code == 303, answer.text
    assert "die Strafe ist erlassen" in flash_of(client.get(answer.headers["location"]).text)
    row = next(
        b for b in client.get(day.url("/breaks"), headers=DIRECTOR).json() if b["player_id"] == late
    )
    assert row["ended_at"] is not None
    # the reason of the waiver is recorded with the marking, as a REST waiver's is
    [marked] = [e for e in audit(client, day.id) if e["type"] == "PlayerMarkedPresent"]
    assert (marked["data"]["player_id"], marked["data"]["reason"]) == (late, "traffic")
    everyone = submit(client, day.id, "/breaks/present")
    assert everyone.status_code == 303, everyone.text
    breaks = client.get(day.url("/breaks"), headers=DIRECTOR).json()
    assert all(b["ended_at"] is not None for b in breaks)


# Late entries and printouts ----------------------------------------------------------------------


def register_lena_after_the_start(client: Client, day: Day) -> tuple[dict[str, Any], str]:
    """Lena registers at the desk after the start: her registration and the desk's next page."""
    answer = submit(
        client,
        day.id,
        "/registrations",
        first_name="Lena",
        last_name="Spät",
        email="lena@example.org",
        age="33",
    )
    assert answer.status_code == 303, answer.text
    late = next(r for r in registrations(client, day.id) if r["email"] == "lena@example.org")
    return late, client.get(answer.headers["location"]).text


ARRIVED = {"id_document_seen": "yes", "buy_in_paid": "100,00"}
"""The late entry's form as sent on arrival: ID document seen, the buy-in paid."""


def events_of(client: Client, day: Day) -> list[str]:
    store = client.app.state.services.store
    return [type(event).__name__ for event in store.stream(UUID(day.id))]


def test_a_late_entry_is_checked_in_and_admitted_at_the_desk_in_one_form(
    client: Client, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: the late entry's ID document is seen and the buy-in paid on arrival,
    # recorded with the admission; rule T-BUYIN-1: the seat's share joins the pot once
    day = start_tournament(client, clock, 6)
    signed_in(client)
    late, page = register_lena_after_the_start(client, day)
    form = row_with(page, "data-registration-id", late["registration_id"], "late-entry")
    assert re.search(r'<input type="checkbox" name="id_document_seen" value="yes">', form)
    assert "Ausweis gesehen" in form
    assert re.search(r'name="buy_in_paid" inputmode="decimal" value="100,00"', form)
    assert "bei der Ankunft mit gesehenem Ausweis und bezahltem Startgeld" in page
    english = desk(client, day.id, "?lang=en").text
    form = row_with(english, "data-registration-id", late["registration_id"], "late-entry")
    assert "ID document seen" in form
    assert 'value="100.00"' in form
    assert "checked in on arrival with the ID document seen and the buy-in paid" in english
    url = f"/registrations/{late['registration_id']}/late-entry"
    before = events_of(client, day)
    # without the ID document seen: refused next to the checkbox, the sum typed kept
    unseen = submit(client, day.id, url, buy_in_paid="100")
    assert unseen.status_code == 422, unseen.text
    row = row_with(unseen.text, "data-registration-id", late["registration_id"], "late-entry")
    assert re.search(r'data-error role="alert">Bitte den Ausweis ansehen: ohne gültigen ', row)
    assert 'name="buy_in_paid" inputmode="decimal" value="100"' in row
    assert events_of(client, day) == before
    assert late["player_id"] not in {row["player_id"] for row in standings(client, day)}
    # a sum that is no sum: refused in words, the box ticked kept
    garbled = submit(client, day.id, url, id_document_seen="yes", buy_in_paid="hundert")
    assert garbled.status_code == 422, garbled.text
    row = row_with(garbled.text, "data-registration-id", late["registration_id"], "late-entry")
    assert "Bitte einen Betrag in Euro wie 20 oder 20,00 eingeben." in row
    assert 'name="id_document_seen" value="yes" checked' in row
    assert events_of(client, day) == before
    admitted = submit(client, day.id, url, **ARRIVED)
    assert admitted.status_code == 303, admitted.text
    assert "spielt ab der nächsten Runde mit." in flash_of(
        client.get(admitted.headers["location"]).text
    )
    assert events_of(client, day)[len(before) :] == ["PlayerCheckedIn", "LateEntryAdmitted"]
    listed = next(r for r in registrations(client, day.id) if r["email"] == "lena@example.org")
    assert (listed["status"], listed["buy_in_paid_cents"]) == ("checked_in", 10000)
    assert listed["checked_in_at"] is not None
    assert late["player_id"] in {row["player_id"] for row in standings(client, day)}
    assert client.get(day.url("/prizes")).json()["pot_cents"] == 7 * 8000
    for table in day.rounds[0]["pairings"]:
        if table["player_b"]:
            report(client, day, table)
    second = pair_next(client, day)
    assert late["player_id"] in {
        player for t in second["pairings"] for player in (t["player_a"], t["player_b"])
    }
    again = submit(client, day.id, url, **ARRIVED)
    assert again.status_code == 409
    assert "data-error" in again.text
    assert client.get(day.url("/prizes")).json()["pot_cents"] == 7 * 8000


def test_an_admitted_late_entry_joins_the_players_on_the_desk_and_in_the_registrations(
    client: Client, clock: MovableClock
) -> None:
    # API.md "Pages for people": withdraw and exclude on the desk's player rows; the admission
    # seats the late entry in the field (the aggregate's status checked_in), so the desk and
    # GET .../registrations show them there, not as a late entry still to admit
    day = start_tournament(client, clock, 6)
    signed_in(client)
    late, _ = register_lena_after_the_start(client, day)
    url = f"/registrations/{late['registration_id']}/late-entry"
    admitted = submit(client, day.id, url, **ARRIVED)
    assert admitted.status_code == 303, admitted.text
    page = client.get(admitted.headers["location"]).text
    assert 'data-action="late-entry"' not in page
    assert 'data-action="withdraw"' in row_with(
        page, "data-player-id", late["player_id"], "withdraw"
    )
    listed = next(r for r in registrations(client, day.id) if r["email"] == "lena@example.org")
    assert listed["status"] == "checked_in"
    assert client.get(day.url("/seats")).json()["checked_in"] == 7
    public = {p["display_name"]: p["status"] for p in client.get(day.url("/participants")).json()}
    assert public["Lena S."] == "checked_in"
    withdrawn = submit(
        client,
        day.id,
        "/withdrawals",
        player_id=late["player_id"],
        reason="krank",
        left_early="yes",
    )
    assert withdrawn.status_code == 303, withdrawn.text
    gone = next(r for r in registrations(client, day.id) if r["email"] == "lena@example.org")
    assert gone["status"] == "withdrawn"


def test_the_desk_links_every_printout(client: Client, clock: MovableClock) -> None:
    day = start_tournament(client, clock, 4)
    signed_in(client)
    page = desk(client, day.id).text
    for printout in ("pairings?by=table", "pairings?by=name", "slips", "standings"):
        href = f'href="/pages/tournaments/{day.id}/print/{printout}"'
        assert href in page
        assert client.get(f"/pages/tournaments/{day.id}/print/{printout}").status_code == 200


def test_a_late_entry_checked_in_over_rest_but_not_admitted_is_still_a_late_entry_on_the_desk(
    client: Client, clock: MovableClock
) -> None:
    # rule T-CHECKIN-1: a registration made after the start may check in on arrival (POST
    # .../check-in) before the director admits it; until then it plays no round, so the desk
    # lists it among the late entries to admit (its proof recorded already), not among the
    # players in the field to withdraw or exclude
    day = start_tournament(client, clock, 6)
    signed_in(client)
    late, _ = register_lena_after_the_start(client, day)
    checked_in = client.post(
        f"/api/v1/tournaments/{day.id}/registrations/{late['registration_id']}/check-in",
        json={"id_document_seen": True, "buy_in_paid_cents": 10000},
        headers=DIRECTOR,
    )
    assert checked_in.status_code == 200, checked_in.text
    assert late["player_id"] not in {row["player_id"] for row in standings(client, day)}

    page = desk(client, day.id).text

    form = row_with(page, "data-registration-id", late["registration_id"], "late-entry")
    assert 'name="id_document_seen"' not in form  # checked in already: admitted only
    with pytest.raises(AssertionError, match="no row"):  # not among the players in the field
        row_with(page, "data-player-id", late["player_id"], "withdraw")
    admitted = submit(client, day.id, f"/registrations/{late['registration_id']}/late-entry")
    assert admitted.status_code == 303, admitted.text
    assert events_of(client, day)[-1] == "LateEntryAdmitted"
    assert late["player_id"] in {row["player_id"] for row in standings(client, day)}
    page = client.get(admitted.headers["location"]).text
    assert 'data-action="late-entry"' not in page
    row_with(page, "data-player-id", late["player_id"], "withdraw")
