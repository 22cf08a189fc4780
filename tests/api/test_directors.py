"""Named directors over REST (rule C-DIR-1): the bootstrap token appoints the first, directors
appoint more for the club, a season or one tournament and revoke them; a director acts only
inside their scope; every director action's event names its director."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from api.app import create_app
from service.bootstrap import Services
from service.clock import MovableClock
from service.settings import Settings
from tests.api.test_tournaments import CHECK_IN_OPENS, advance_to, person, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]
PROBLEMS = "https://bgtd.example/problems/"
CHECK_IN = {"id_document_seen": True, "buy_in_paid_cents": 10000}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def appoint(
    client: Client, name: str, by: dict[str, str] = DIRECTOR, **scope: str
) -> dict[str, Any]:
    response = client.post("/api/v1/directors", json={"name": name, **scope}, headers=by)
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def services_of(client: Client) -> Services:
    services: Services = client.app.state.services
    return services


def audit(client: Client, stream_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/audit/streams/{stream_id}", headers=DIRECTOR)
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()
    return events


def create_season(client: Client, headers: dict[str, str], **changes: Any) -> Any:
    body = {"name": "Saison 2026", "starts_on": "2026-03-01", "ends_on": "2027-02-28", **changes}
    return client.post("/api/v1/seasons", json=body, headers=headers)


def open_tournament(client: Client, name: str, first: int, players: int) -> dict[str, Any]:
    """A scheduled tournament with ``players`` registrations (people ``first``, ``first``+1...)."""
    created = schedule(client, name=name, capacity=max(players, 2))
    created["registrations"] = []
    for number in range(first, first + players):
        # the club registers them (confirmed at once, rule P-MAIL-1)
        response = client.post(
            f"/api/v1/tournaments/{created['id']}/registrations",
            json=person(number),
            headers=DIRECTOR,
        )
        assert response.status_code == 201, response.text
        created["registrations"].append(response.json())
    return created


def check_in_url(tournament: dict[str, Any], index: int) -> str:
    registration = tournament["registrations"][index]["registration_id"]
    return f"/api/v1/tournaments/{tournament['id']}/registrations/{registration}/check-in"


def check_in_everyone(client: Client, tournament: dict[str, Any], headers: dict[str, str]) -> None:
    for index in range(len(tournament["registrations"])):
        response = client.post(check_in_url(tournament, index), json=CHECK_IN, headers=headers)
        assert response.status_code == 200, response.text


def test_the_bootstrap_token_appoints_a_director_whose_token_works_at_once(
    client: Client,
) -> None:
    # rule C-DIR-1: the club's bootstrap token appoints the first named director
    appointed = appoint(client, "Anna Schmidt")
    assert appointed["scope"] == "club"
    assert appointed["token"].startswith("bgtd-director-")

    created = create_season(client, bearer(appointed["token"]))
    assert created.status_code == 201, created.text


def test_an_action_by_a_named_director_is_stored_and_audited_with_their_id_and_name(
    client: Client,
) -> None:
    # rule C-DIR-1: every director action records which director took it
    appointed = appoint(client, "Anna Schmidt")
    season_id = create_season(client, bearer(appointed["token"])).json()["id"]
    by_bootstrap = schedule(client)

    stored = services_of(client).store.stream(UUID(season_id))
    assert {event.actor for event in stored} == {f"director:{appointed['director_id']}"}
    season_events = audit(client, season_id)
    assert season_events[0]["actor"] == {
        "director_id": appointed["director_id"],
        "name": "Anna Schmidt",
    }
    assert audit(client, by_bootstrap["id"])[0]["actor"] == "director"


def test_the_list_of_directors_never_shows_a_token(client: Client) -> None:
    first = appoint(client, "Anna Schmidt")
    second = appoint(client, "Bernd Weber", by=bearer(first["token"]))
    response = client.get("/api/v1/directors", headers=bearer(second["token"]))
    assert response.status_code == 200, response.text
    listed = response.json()
    assert [(d["name"], d["scope"], d["active"]) for d in listed] == [
        ("Anna Schmidt", "club", True),
        ("Bernd Weber", "club", True),
    ]
    assert first["token"] not in response.text
    assert second["token"] not in response.text
    assert "token" not in response.text


def test_a_revoked_director_token_is_refused_as_unknown(client: Client) -> None:
    appointed = appoint(client, "Anna Schmidt")
    assert create_season(client, bearer(appointed["token"])).status_code == 201

    revoked = client.delete(f"/api/v1/directors/{appointed['director_id']}", headers=DIRECTOR)
    assert revoked.status_code == 200, revoked.text
    assert revoked.json()["active"] is False

    refused = create_season(client, bearer(appointed["token"]), name="Saison 2027")
    assert refused.status_code == 401
    again = client.delete(f"/api/v1/directors/{appointed['director_id']}", headers=DIRECTOR)
    assert again.status_code == 409
    assert again.json()["type"] == PROBLEMS + "director-revoked"
    listed = client.get("/api/v1/directors", headers=DIRECTOR).json()
    assert [d["active"] for d in listed] == [False]


def test_a_director_does_not_revoke_their_own_token(client: Client) -> None:
    appointed = appoint(client, "Anna Schmidt")
    response = client.delete(
        f"/api/v1/directors/{appointed['director_id']}", headers=bearer(appointed["token"])
    )
    assert response.status_code == 409
    assert response.json()["type"] == PROBLEMS + "self-revocation"


def test_unknown_directors_and_bad_appointments_are_problems(client: Client) -> None:
    unknown = client.delete(f"/api/v1/directors/{UUID(int=7)}", headers=DIRECTOR)
    assert unknown.status_code == 404
    assert unknown.json()["type"] == PROBLEMS + "director-not-found"

    line_break = client.post("/api/v1/directors", json={"name": "Anna\nSchmidt"}, headers=DIRECTOR)
    assert line_break.status_code == 422
    no_tournament = client.post(
        "/api/v1/directors",
        json={"name": "Anna", "tournament_id": str(UUID(int=8))},
        headers=DIRECTOR,
    )
    assert no_tournament.status_code == 404
    season_id = create_season(client, DIRECTOR).json()["id"]
    tournament_id = schedule(client)["id"]
    both = client.post(
        "/api/v1/directors",
        json={"name": "Anna", "season_id": season_id, "tournament_id": tournament_id},
        headers=DIRECTOR,
    )
    assert both.status_code == 422


def test_a_player_token_is_no_director_token(client: Client) -> None:
    tournament = open_tournament(client, "Frühlingsturnier 2026", 1, 1)
    player = bearer(tournament["registrations"][0]["player_token"])
    assert client.get("/api/v1/directors", headers=player).status_code == 403
    assert client.post("/api/v1/directors", json={"name": "Me"}, headers=player).status_code == 403
    assert client.get("/api/v1/directors").status_code == 401


def test_a_tournament_director_acts_in_their_tournament_only(
    client: Client, clock: MovableClock
) -> None:
    # rule C-DIR-1: "more can be appointed for a single tournament"
    first = open_tournament(client, "Frühlingsturnier A", 1, 2)
    second = open_tournament(client, "Frühlingsturnier B", 11, 2)
    appointed = appoint(client, "Carla Fischer", tournament_id=first["id"])
    assert appointed["scope"] == "tournament"
    carla = bearer(appointed["token"])
    advance_to(client, clock, CHECK_IN_OPENS)

    elsewhere = client.post(check_in_url(second, 0), json=CHECK_IN, headers=carla)
    assert elsewhere.status_code == 403
    assert elsewhere.json()["type"] == PROBLEMS + "out-of-scope"
    check_in_everyone(client, first, carla)
    check_in_everyone(client, second, DIRECTOR)

    started = client.post(f"/api/v1/tournaments/{first['id']}/start", headers=carla)
    assert started.status_code == 200, started.text
    assert (
        client.post(f"/api/v1/tournaments/{second['id']}/start", headers=carla).status_code == 403
    )
    other = client.post(f"/api/v1/tournaments/{second['id']}/start", headers=DIRECTOR)
    assert other.status_code == 200, other.text
    (own_table,) = started.json()["round"]["pairings"]
    (other_table,) = other.json()["round"]["pairings"]

    # a match command for a side, a penalty and a result: in the own tournament only
    other_match = f"/api/v1/matches/{other_table['match_id']}"
    assert (
        client.post(
            f"{other_match}/rolls", json={"side": "a", "dice": [6, 5]}, headers=carla
        ).status_code
        == 403
    )
    own_roll = client.post(
        f"/api/v1/matches/{own_table['match_id']}/rolls",
        json={"side": "a", "dice": [6, 5]},
        headers=carla,
    )
    assert own_roll.status_code == 200, own_roll.text
    penalty = {
        "player_id": other_table["player_a"],
        "match_id": other_table["match_id"],
        "points": 1,
        "reason": "late",
    }
    penalised = client.post(
        f"/api/v1/tournaments/{second['id']}/penalties", json=penalty, headers=carla
    )
    assert penalised.status_code == 403
    result = {
        "match_id": other_table["match_id"],
        "winner": other_table["player_a"],
        "points_a": 7,
        "points_b": 0,
    }
    assert (
        client.post(
            f"/api/v1/tournaments/{second['id']}/results", json=result, headers=carla
        ).status_code
        == 403
    )
    own_result = {
        "match_id": own_table["match_id"],
        "winner": own_table["player_a"],
        "points_a": 7,
        "points_b": 0,
    }
    recorded = client.post(
        f"/api/v1/tournaments/{first['id']}/results", json=own_result, headers=carla
    )
    assert recorded.status_code == 201, recorded.text

    # the audit streams of the own tournament and its matches; the club's things stay closed
    assert client.get(f"/api/v1/audit/streams/{first['id']}", headers=carla).status_code == 200
    assert client.get(f"{other_match}/videos", headers=carla).status_code == 403
    assert (
        client.get(f"/api/v1/audit/streams/{other_table['match_id']}", headers=carla).status_code
        == 403
    )
    assert create_season(client, carla).status_code == 403
    assert client.get("/api/v1/jobs", headers=carla).status_code == 403
    assert (
        client.post(
            "/api/v1/directors", json={"name": "X", "tournament_id": second["id"]}, headers=carla
        ).status_code
        == 403
    )
    free_match = {"player_a": "A", "player_b": "B", "match_length": 3}
    assert client.post("/api/v1/matches", json=free_match, headers=carla).status_code == 403
    own_videos = client.get(f"/api/v1/matches/{own_table['match_id']}/videos", headers=carla)
    assert own_videos.status_code == 200, own_videos.text
    claim = {"version": 1, "claim": "the dice were cocked"}
    other_dispute = {"match_id": other_table["match_id"], **claim}
    assert client.post("/api/v1/disputes", json=other_dispute, headers=carla).status_code == 403
    own_dispute = {"match_id": own_table["match_id"], **claim}
    opened = client.post("/api/v1/disputes", json=own_dispute, headers=carla)
    assert opened.status_code == 201, opened.text
    assert opened.json()["opened_by"] == {
        "director_id": appointed["director_id"],
        "name": "Carla Fischer",
    }
    deputy = appoint(client, "Dora Klein", by=carla, tournament_id=first["id"])
    assert deputy["scope"] == "tournament"

    roll_events = audit(client, own_table["match_id"])
    named = {"director_id": appointed["director_id"], "name": "Carla Fischer"}
    assert named in [event["actor"] for event in roll_events]


def test_a_season_director_acts_in_their_season_and_its_tournaments(client: Client) -> None:
    season_id = create_season(client, DIRECTOR).json()["id"]
    later = create_season(
        client, DIRECTOR, name="Saison 2027", starts_on="2027-03-01", ends_on="2028-02-29"
    ).json()["id"]
    appointed = appoint(client, "Erik Braun", season_id=season_id)
    erik = bearer(appointed["token"])

    spring = {"name": "Frühlingsturnier 2026", "date": "2026-04-18", "venue": "Amberg"}
    own = client.post("/api/v1/tournaments", json=spring, headers=erik)
    assert own.status_code == 201, own.text
    next_year = {**spring, "date": "2027-04-17", "name": "Frühlingsturnier 2027"}
    assert client.post("/api/v1/tournaments", json=next_year, headers=erik).status_code == 403
    elsewhere = client.post(
        "/api/v1/tournaments", json={**next_year, "season_id": later}, headers=DIRECTOR
    ).json()

    period = {
        "name": "Sommerpause",
        "kind": "break",
        "starts_on": "2026-06-01",
        "ends_on": "2026-08-31",
    }
    assert (
        client.post(f"/api/v1/seasons/{season_id}/periods", json=period, headers=erik).status_code
        == 201
    )
    assert (
        client.post(f"/api/v1/seasons/{later}/periods", json=period, headers=erik).status_code
        == 403
    )

    # appointing: for the own season's tournaments, never for another season or the club
    deputy = appoint(client, "Frida Vogel", by=erik, tournament_id=own.json()["id"])
    assert deputy["scope"] == "tournament"
    for scope in ({"tournament_id": elsewhere["id"]}, {"season_id": later}, {}):
        refused = client.post("/api/v1/directors", json={"name": "X", **scope}, headers=erik)
        assert refused.status_code == 403, scope
    # the season director lists and revokes the directors of the season, not the club's
    club = appoint(client, "Gerd Club")
    listed = client.get("/api/v1/directors", headers=erik).json()
    assert [d["name"] for d in listed] == ["Erik Braun", "Frida Vogel"]
    assert (
        client.delete(f"/api/v1/directors/{club['director_id']}", headers=erik).status_code == 403
    )
    revoked = client.delete(f"/api/v1/directors/{deputy['director_id']}", headers=erik)
    assert revoked.status_code == 200, revoked.text


@pytest.fixture
def two_processes(
    tmp_path: Path, clock: MovableClock, postgres_schema_url: str
) -> Iterator[tuple[Client, Client]]:
    def settings(name: str) -> Settings:
        return Settings(
            data_dir=tmp_path / name,
            dev=True,
            run_scheduler=False,
            database_url=postgres_schema_url,
            secret_key="shared-secret-of-both-processes",
        )

    with (
        TestClient(create_app(settings("one"), clock=clock)) as one,
        TestClient(create_app(settings("two"), clock=clock)) as two,
    ):
        yield one, two


@pytest.mark.postgres
def test_a_director_appointed_in_one_process_acts_in_another_until_revoked_there(
    two_processes: tuple[Client, Client],
) -> None:
    # rule C-DIR-1 on one PostgreSQL store shared by two processes
    one, two = two_processes
    appointed = appoint(one, "Anna Schmidt")
    anna = bearer(appointed["token"])
    season = create_season(two, anna)
    assert season.status_code == 201, season.text
    stream = two.get(f"/api/v1/audit/streams/{season.json()['id']}", headers=DIRECTOR).json()
    assert stream[0]["actor"] == {"director_id": appointed["director_id"], "name": "Anna Schmidt"}

    revoked = two.delete(f"/api/v1/directors/{appointed['director_id']}", headers=DIRECTOR)
    assert revoked.status_code == 200, revoked.text
    # the first process's views still hold her as active: the store decides
    assert create_season(one, anna, name="Saison 2027").status_code == 401


def test_a_named_director_registers_a_late_entry_as_the_bootstrap_token_does(
    client: Client, clock: MovableClock
) -> None:
    # rules C-DIR-1 and T-REG-1: after the start only a director registers (a late entry)
    tournament = open_tournament(client, "Frühlingsturnier", 1, 2)
    carla = bearer(appoint(client, "Carla Fischer", tournament_id=tournament["id"])["token"])
    advance_to(client, clock, CHECK_IN_OPENS)
    check_in_everyone(client, tournament, carla)
    started = client.post(f"/api/v1/tournaments/{tournament['id']}/start", headers=carla)
    assert started.status_code == 200, started.text
    url = f"/api/v1/tournaments/{tournament['id']}/registrations"

    assert client.post(url, json=person(30)).status_code == 409  # the public: closed
    late = client.post(url, json=person(31), headers=carla)

    assert late.status_code == 201, late.text
    stream = client.get(f"/api/v1/audit/streams/{tournament['id']}", headers=DIRECTOR).json()
    [entry] = [
        e for e in stream if e["data"].get("registration_id") == late.json()["registration_id"]
    ]
    assert entry["actor"]["name"] == "Carla Fischer"
