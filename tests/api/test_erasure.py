"""A person's erasure over REST: after it no byte of their name or e-mail address is readable in
the event store, the views or any answer; standings and ranking are unchanged but for the name
(ARCHITECTURE.md "Events", API.md "Directors and personal data")."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from domain.people.erasure import pseudonym
from service.bootstrap import Services
from service.clock import MovableClock
from tests.api.test_ranking import create_season
from tests.api.test_tournament_day import (
    CHECK_IN_OPENS,
    Day,
    pair_next,
    play_through_api,
    report,
)
from tests.api.test_tournaments import advance_to, person, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
FIRST, LAST = "Zyxwella", "Quorvant"
EMAIL = "zyxwella.quorvant@example.org"
SECRETS = (FIRST.encode(), LAST.encode(), b"zyxwella.quorvant", b"1979-05-17")
"""What must not be readable anywhere after the erasure (the birth date too)."""


def start_with_zyxwella(client: Client, clock: MovableClock, season_id: str) -> Day:
    """Four players, one Swiss round, semi-finals and finals; Zyxwella registers first."""
    created = schedule(client, season_id=season_id, capacity=4, swiss_rounds=1)
    people = [
        {"first_name": FIRST, "last_name": LAST, "email": EMAIL, "birth_date": "1979-05-17"},
        *(person(number) for number in (2, 3, 4)),
    ]
    registrations = {}
    for body in people:
        response = client.post(
            f"/api/v1/tournaments/{created['id']}/registrations", json=body, headers=DIRECTOR
        )
        assert response.status_code == 201, response.text
        registrations[response.json()["player_id"]] = response.json()
    services: Services = client.app.state.services
    assert services.outbox.send_due() == len(people)  # their mails: .eml files (no SMTP)
    advance_to(client, clock, CHECK_IN_OPENS)
    for registration in registrations.values():
        response = client.post(
            f"/api/v1/tournaments/{created['id']}/registrations/"
            f"{registration['registration_id']}/check-in",
            json={"id_document_seen": True, "buy_in_paid_cents": 10000},
            headers=DIRECTOR,
        )
        assert response.status_code == 200, response.text
    day = Day(id=created["id"], players=registrations)
    response = client.post(day.url("/start"), headers=DIRECTOR)
    assert response.status_code == 200, response.text
    day.rounds.append(response.json()["round"])
    return day


def play_the_day(client: Client, day: Day, zyxwella: str) -> str:
    """Zyxwella's round-1 match is played on the tablet (so its .mat has games), every other
    result is reported; returns that match's id."""
    [played] = [t for t in day.rounds[0]["pairings"] if zyxwella in (t["player_a"], t["player_b"])]
    play_through_api(client, day, played, winner="a" if played["player_a"] == zyxwella else "b")
    for table in day.rounds[0]["pairings"]:
        if table is not played:
            report(client, day, table)
    for _ in ("semi-finals", "finals"):
        for table in pair_next(client, day)["pairings"]:
            report(client, day, table)
    assert client.get(day.url()).json()["status"] == "completed"
    match_id: str = played["match_id"]
    return match_id


def answers(client: Client, day: Day, season_id: str, match_id: str) -> dict[str, str]:
    """Every answer that shows the person (by path): the text of each."""
    paths = [
        day.url("/registrations"),
        day.url("/participants"),
        day.url("/standings"),
        day.url("/places"),
        day.url("/matches"),
        day.url("/board"),
        f"{day.url('/rounds')}/1",
        f"/api/v1/seasons/{season_id}/ranking",
        f"/api/v1/matches/{match_id}",
        f"/api/v1/matches/{match_id}/events",
        f"/api/v1/matches/{match_id}/export.mat",
        f"/api/v1/audit/streams/{day.id}",
        f"/api/v1/audit/streams/{match_id}",
        f"/pages/tournaments/{day.id}/print/standings",
        f"/pages/tournaments/{day.id}/print/pairings?by=name",
        f"/pages/tournaments/{day.id}/print/slips",
        f"/pages/tournaments/{day.id}",
        f"/pages/tournaments/{day.id}/standings",
        f"/pages/tournaments/{day.id}/bracket",
        f"/pages/seasons/{season_id}/ranking",
    ]
    texts = {}
    for path in paths:
        response = client.get(path, headers=DIRECTOR)
        assert response.status_code == 200, (path, response.text)
        texts[path] = response.text
    for table in (day.url("/standings"), f"/api/v1/seasons/{season_id}/ranking"):
        response = client.get(table, headers={**DIRECTOR, "Accept": "text/csv"})
        assert response.status_code == 200, (table, response.text)
        texts[f"{table} (csv)"] = response.text
    return texts


def numbers(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows without their names: what must not change."""
    return [{k: v for k, v in row.items() if k != "display_name"} for row in rows]


def stored_bytes(services: Services) -> dict[str, bytes]:
    """Every file of the data directory (event store, views, their logs, idempotency keys, the
    mails written to ``outbox/``)."""
    directory = Path(services.settings.data_dir)
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in directory.rglob("*")
        if path.is_file()
    }


def readable(blobs: dict[str, bytes]) -> dict[str, list[bytes]]:
    found = {name: [s for s in SECRETS if s in blob] for name, blob in blobs.items()}
    return {name: hits for name, hits in found.items() if hits}


def test_after_an_erasure_nothing_shows_the_persons_data_and_results_stay_under_a_pseudonym(
    client: Client, clock: MovableClock
) -> None:
    services: Services = client.app.state.services
    season_id = create_season(client)
    day = start_with_zyxwella(client, clock, season_id)
    zyxwella = next(iter(day.players))  # the first registration
    match_id = play_the_day(client, day, zyxwella)
    before = answers(client, day, season_id, match_id)
    standings_before = client.get(day.url("/standings")).json()
    ranking_before = client.get(f"/api/v1/seasons/{season_id}/ranking").json()
    places_before = client.get(day.url("/places")).json()
    # every answer but the matches list showed her name (the finished tournament's page its places)
    showed = {path for path, text in before.items() if FIRST in text}
    assert set(before) - showed == {day.url("/matches")}
    files = readable(stored_bytes(services))
    # the views and her mails hold her name until the erasure; the event store never held it
    # in plain text
    views_file = services.settings.views_path.name
    assert [name for name in files if name.startswith(views_file)]
    assert [name for name in files if name.startswith("outbox/")]
    assert not [name for name in files if name.startswith("events")]
    assert EMAIL in client.get("/api/v1/outbox", headers=DIRECTOR).text

    response = client.post(f"/api/v1/people/{zyxwella}/erasure", headers=DIRECTOR)

    assert response.status_code == 200, response.text
    alias = response.json()["pseudonym"]
    assert alias == pseudonym(UUID(zyxwella))
    assert FIRST not in alias
    after = answers(client, day, season_id, match_id)
    for path, text in after.items():
        assert not [s for s in SECRETS if s.decode() in text], path
    assert readable(stored_bytes(services)) == {}
    mails = client.get("/api/v1/outbox", headers=DIRECTOR).json()
    assert mails
    assert not [s for s in SECRETS if s.decode() in str(mails)]
    standings_after = client.get(day.url("/standings")).json()
    ranking_after = client.get(f"/api/v1/seasons/{season_id}/ranking").json()
    assert numbers(standings_after) == numbers(standings_before)
    assert numbers(ranking_after) == numbers(ranking_before)
    assert [r["display_name"] for r in standings_after if r["player_id"] == zyxwella] == [alias]
    assert [r["display_name"] for r in ranking_after if r["player_id"] == zyxwella] == [alias]
    places_after = client.get(day.url("/places")).json()
    assert numbers(places_after) == numbers(places_before)
    [record] = [
        r
        for r in client.get(day.url("/registrations"), headers=DIRECTOR).json()
        if r["player_id"] == zyxwella
    ]
    assert (record["first_name"], record["last_name"], record["display_name"]) == (alias, "", alias)
    assert (record["email"], record["age"], record["birth_date"]) == ("", None, None)
    state = client.get(f"/api/v1/matches/{match_id}").json()
    assert alias in state["players"].values()
    mat = client.get(f"/api/v1/matches/{match_id}/export.mat").text
    assert alias in mat
    # her plays name her by player id, never by name
    stream = client.get(f"/api/v1/audit/streams/{match_id}", headers=DIRECTOR).json()
    assert f"player:{zyxwella}" in {event["actor"] for event in stream}

    # a rebuild from zero reads the events as erased: the same pseudonym, the same numbers
    services.views.rebuild()
    assert after == answers(client, day, season_id, match_id)
    assert readable(stored_bytes(services)) == {}


def test_erasing_twice_answers_the_same_pseudonym(client: Client, clock: MovableClock) -> None:
    day = start_with_zyxwella(client, clock, create_season(client))
    zyxwella = next(iter(day.players))
    first = client.post(f"/api/v1/people/{zyxwella}/erasure", headers=DIRECTOR)
    second = client.post(f"/api/v1/people/{zyxwella}/erasure", headers=DIRECTOR)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    stream = client.get(f"/api/v1/audit/streams/{zyxwella}", headers=DIRECTOR).json()
    assert [event["type"] for event in stream] == ["PersonErased"]
    assert stream[0]["data"]["pseudonym"] == first.json()["pseudonym"]


@pytest.mark.parametrize(
    ("headers", "status"),
    [({}, 401), ({"Authorization": "Bearer not-the-director"}, 401)],
)
def test_only_a_director_erases(
    client: Client, clock: MovableClock, headers: dict[str, str], status: int
) -> None:
    day = start_with_zyxwella(client, clock, create_season(client))
    zyxwella = next(iter(day.players))
    response = client.post(f"/api/v1/people/{zyxwella}/erasure", headers=headers)
    assert response.status_code == status
    registrations = client.get(day.url("/registrations"), headers=DIRECTOR).text
    assert FIRST in registrations


def test_erasing_an_unknown_person_is_404(client: Client) -> None:
    response = client.post(
        "/api/v1/people/00000000-0000-4000-8000-000000000000/erasure", headers=DIRECTOR
    )
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"].endswith("/not-found")


def test_a_person_who_never_confirmed_their_registration_is_erased_too(client: Client) -> None:
    # rule P-MAIL-1: an anonymous registration waits for its link; its data is sealed as well
    services: Services = client.app.state.services
    created = schedule(client)
    body = {"first_name": FIRST, "last_name": LAST, "email": EMAIL, "birth_date": "1979-05-17"}
    asked = client.post(f"/api/v1/tournaments/{created['id']}/registrations", json=body)
    assert asked.status_code == 202, asked.text
    [mail] = client.get("/api/v1/outbox", headers=DIRECTOR).json()
    assert (mail["kind"], mail["recipient"]) == ("confirmation_link", EMAIL)
    assert services.outbox.send_due() == 1
    assert not [name for name in readable(stored_bytes(services)) if name.startswith("events")]

    response = client.post(f"/api/v1/people/{mail['player_id']}/erasure", headers=DIRECTOR)

    assert response.status_code == 200, response.text
    [mail] = client.get("/api/v1/outbox", headers=DIRECTOR).json()
    assert mail["recipient"] == ""
    assert readable(stored_bytes(services)) == {}


def test_an_erased_persons_unsent_mails_are_given_up(client: Client) -> None:
    services: Services = client.app.state.services
    created = schedule(client)
    body = {"first_name": FIRST, "last_name": LAST, "email": EMAIL, "age": 40}
    registered = client.post(
        f"/api/v1/tournaments/{created['id']}/registrations", json=body, headers=DIRECTOR
    ).json()

    client.post(f"/api/v1/people/{registered['player_id']}/erasure", headers=DIRECTOR)

    [mail] = client.get("/api/v1/outbox", headers=DIRECTOR).json()
    assert (mail["status"], mail["recipient"], mail["last_error"]) == (
        "failed",
        "",
        "the person was erased",
    )
    assert services.outbox.send_due() == 0


def test_an_ad_hoc_match_of_a_tournament_shows_the_pseudonym_after_its_players_erasure(
    client: Client, clock: MovableClock
) -> None:
    # ARCHITECTURE.md "Events": a seated player's name in a match is sealed under their key,
    # also in a match a director started ad hoc between two of the tournament's players
    services: Services = client.app.state.services
    day = start_with_zyxwella(client, clock, create_season(client))
    zyxwella, other = list(day.players)[:2]
    created = client.post(
        "/api/v1/matches",
        json={"player_a": zyxwella, "player_b": other, "match_length": 3, "tournament_id": day.id},
        headers=DIRECTOR,
    )
    assert created.status_code == 201, created.text
    match_id = created.json()["id"]
    assert FIRST in created.json()["match"]["players"]["a"]
    assert created.json()["match"]["player_ids"] == {"a": zyxwella, "b": other}
    assert not [name for name in readable(stored_bytes(services)) if name.startswith("events")]

    response = client.post(f"/api/v1/people/{zyxwella}/erasure", headers=DIRECTOR)

    assert response.status_code == 200, response.text
    alias = response.json()["pseudonym"]
    services.store.states.clear()  # read from the stored events, not this process's memory
    state = client.get(f"/api/v1/matches/{match_id}").json()
    assert state["players"]["a"] == alias
    assert FIRST not in state["players"]["b"]
    assert state["players"]["b"] == created.json()["match"]["players"]["b"]
    for path in ("/events", "/export.mat"):
        text = client.get(f"/api/v1/matches/{match_id}{path}", headers=DIRECTOR).text
        assert FIRST not in text, path
    assert readable(stored_bytes(services)) == {}
