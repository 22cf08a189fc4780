"""The director's season page over HTTP (API.md "Pages for people": ``/director/seasons/{id}``):
the season's tournaments, ranking, bans and directors. Each form is the REST use case: the REST
API agrees afterwards; a refusal comes back in words next to its form; without the CSRF token
nothing changes; the scope of a named director holds as over REST (rule C-DIR-1). Directors are
appointed over REST only: no season page shows a token (API.md "Sessions")."""

from __future__ import annotations

import re
from typing import Any

from litestar.testing import TestClient

from service.clock import MovableClock
from service.people.directors import DIRECTOR_TOKEN_PREFIX
from service.settings import DEV_DIRECTOR_TOKEN
from tests.api.test_console import csrf_of, sign_in, signed_in
from tests.api.test_directors import appoint, audit
from tests.api.test_tournament_day import run_day
from tests.api.test_tournaments import (
    CALENDAR,
    SPRING,
    person,
    register,
    schedule,
    stored_events,
)
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def create_season(client: Client) -> dict[str, Any]:
    answer = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR)
    assert answer.status_code == 201, answer.text
    season: dict[str, Any] = answer.json()
    return season


def season_url(season_id: str, path: str = "") -> str:
    return f"/director/seasons/{season_id}{path}"


def season_page(client: Client, season_id: str, query: str = "") -> str:
    answer = client.get(season_url(season_id) + query)
    assert answer.status_code == 200, answer.text
    return answer.text


def submit(client: Client, season_id: str, path: str, **form: str) -> Any:
    """Post a season page form as the page gives it: with its CSRF token, no redirect followed."""
    page = season_page(client, season_id)
    return client.post(
        season_url(season_id, path),
        data={"_csrf_token": csrf_of(page), **form},
        follow_redirects=False,
    )


def section(html: str, element_id: str) -> str:
    found = re.search(rf'<table id="{element_id}".*?</table>', html, re.DOTALL)
    assert found is not None, f"a table {element_id}"
    return found.group(0)


def test_the_season_page_shows_its_tournaments_and_the_ranking_the_rest_api_has(
    client: Client, clock: MovableClock
) -> None:
    season = create_season(client)
    day = run_day(client, clock, 4)
    signed_in(client)
    home = client.get("/director").text
    assert f'href="/director/seasons/{season["id"]}"' in home  # linked from the console
    page = season_page(client, season["id"])
    assert "Saison Saison 2026" in page
    tournaments = section(page, "tournaments")
    assert f'href="/director/tournaments/{day.id}"' in tournaments  # each links to its desk
    ranking = client.get(f"/api/v1/seasons/{season['id']}/ranking").json()
    assert len(ranking) == 4
    shown = re.findall(r'<tr data-player-id="([^"]+)"', section(page, "ranking"))
    assert shown == [row["player_id"] for row in ranking]
    english = season_page(client, season["id"], "?lang=en")
    assert "Ranking" in english
    assert "Nobody is banned." in english


def test_a_ban_on_the_season_page_refuses_the_players_registrations_as_the_rest_api_would(
    client: Client,
) -> None:
    # rule C-EXCL-1: a repeat offender banned from the season's further tournaments
    season = create_season(client)
    spring = schedule(client)
    offender = register(client, spring["id"], 3)
    autumn = schedule(client, name="Herbstturnier 2026", date="2026-09-19")
    signed_in(client)
    page = season_page(client, season["id"])
    assert f'<option value="{offender["player_id"]}">' in page
    no_reason = submit(client, season["id"], "/bans", player_id=offender["player_id"], reason=" ")
    assert no_reason.status_code == 422
    assert re.search(r'id="ban-reason-error"[^>]*data-error[^>]*>Bitte einen Grund', no_reason.text)
    answer = submit(
        client,
        season["id"],
        "/bans",
        player_id=offender["player_id"],
        reason="wiederholte Beleidigungen",
        revoke_points="yes",
    )
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"] == f"/director/seasons/{season['id']}?done=ban"
    shown = client.get(answer.headers["location"]).text
    assert "Die Sperre ist eingetragen." in shown
    bans = section(shown, "bans")
    assert f'data-player-id="{offender["player_id"]}"' in bans
    assert "wiederholte Beleidigungen" in bans
    refused = client.post(
        f"/api/v1/tournaments/{autumn['id']}/registrations", json=person(3), headers=DIRECTOR
    )
    assert refused.status_code == 403
    assert refused.json()["type"].endswith("/banned")
    [banned] = [e for e in audit(client, season["id"]) if e["type"] == "PlayerBanned"]
    assert banned["actor"] == "director"
    again = submit(client, season["id"], "/bans", player_id=offender["player_id"], reason="again")
    assert again.status_code == 409
    assert "data-error" in again.text
    # a common refusal in German on a German page, the problem's own words in English
    assert "Der Spieler ist für diese Saison bereits gesperrt." in again.text
    page = client.get(season_url(season["id"]) + "?lang=en").text
    english = client.post(
        season_url(season["id"], "/bans") + "?lang=en",
        data={"_csrf_token": csrf_of(page), "player_id": offender["player_id"], "reason": "x"},
    )
    assert english.status_code == 409
    assert "banned from this season already" in english.text


def test_a_season_form_without_its_csrf_token_is_forbidden_and_changes_nothing(
    client: Client,
) -> None:
    season = create_season(client)
    spring = schedule(client)
    offender = register(client, spring["id"], 3)
    named = appoint(client, "Erika Mustermann", season_id=season["id"])
    signed_in(client)
    before = stored_events(client)
    for path, form in (
        ("/bans", {"player_id": offender["player_id"], "reason": "insults"}),
        (f"/directors/{named['director_id']}/revoke", {}),
    ):
        answer = client.post(season_url(season["id"], path), data=form)
        assert answer.status_code == 403
        assert "Formular ist abgelaufen" in answer.text
    assert stored_events(client) == before


def test_the_season_page_appoints_nobody_and_sends_to_the_rest_api_in_words(
    client: Client,
) -> None:
    # API.md "Sessions": a new director's token would have to go onto the page; it may not
    season = create_season(client)
    signed_in(client)
    page = season_page(client, season["id"])
    assert 'data-action="appoint-director"' not in page
    assert f'action="/director/seasons/{season["id"]}/directors' not in page
    assert "über die REST-Schnittstelle ernannt (POST /api/v1/directors)" in page
    english = season_page(client, season["id"], "?lang=en")
    assert "appointed over the REST API (POST /api/v1/directors)" in english
    before = stored_events(client)
    old_form = submit(client, season["id"], "/directors", name="Erika Mustermann", scope="season")
    assert old_form.status_code in (404, 405)
    assert stored_events(client) == before


def test_a_director_appointed_over_rest_is_listed_on_the_season_page_and_revoked_there(
    client: Client,
) -> None:
    # rule C-DIR-1: more directors can be appointed; a revoked one acts no more
    season = create_season(client)
    spring = schedule(client)
    erika = appoint(client, "Erika Mustermann", tournament_id=spring["id"])
    token = {"Authorization": f"Bearer {erika['token']}"}
    works = client.get(f"/api/v1/tournaments/{spring['id']}/registrations", headers=token)
    assert works.status_code == 200
    signed_in(client)
    page = season_page(client, season["id"])
    row = re.search(rf'<tr data-director-id="{erika["director_id"]}".*?</tr>', page, re.DOTALL)
    assert row is not None
    assert "Erika Mustermann" in row.group(0)
    assert f"Turnier {SPRING['name']}" in row.group(0)
    assert 'data-action="revoke-director"' in row.group(0)
    revoked = submit(client, season["id"], f"/directors/{erika['director_id']}/revoke")
    assert revoked.status_code == 303, revoked.text
    assert "Erika Mustermann ist widerrufen" in client.get(revoked.headers["location"]).text
    gone = client.get(f"/api/v1/tournaments/{spring['id']}/registrations", headers=token)
    assert gone.status_code == 401
    twice = submit(client, season["id"], f"/directors/{erika['director_id']}/revoke")
    assert twice.status_code == 409
    assert "data-error" in twice.text


def test_no_season_page_shows_a_director_token_not_even_the_bootstrap_one(
    client: Client,
) -> None:
    # API.md "Sessions": a token goes into no rendered page, no URL the service builds
    season = create_season(client)
    spring = schedule(client)
    offender = register(client, spring["id"], 3)
    sven = appoint(client, "Sven Berger", season_id=season["id"])
    erika = appoint(client, "Erika Mustermann", tournament_id=spring["id"])
    tokens = [DEV_DIRECTOR_TOKEN, sven["token"], erika["token"]]
    answers = []
    for who in (sven["token"], DEV_DIRECTOR_TOKEN):  # the season's director, then the club
        signed_in(client, who)
        answers += [client.get(season_url(season["id"]) + q) for q in ("", "?lang=en")]
        answers.append(submit(client, season["id"], "/bans", player_id=offender["player_id"]))
        answers.append(submit(client, season["id"], "/directors", name="Dora", scope="season"))
        # Sven may not revoke himself (409); the club may (303)
        answers.append(submit(client, season["id"], f"/directors/{sven['director_id']}/revoke"))
    answers.append(client.get(answers[-1].headers["location"]))
    assert {answer.status_code for answer in answers} >= {200, 303, 409, 422}
    for answer in answers:
        shown = answer.text + answer.headers.get("location", "")
        assert DIRECTOR_TOKEN_PREFIX not in shown, answer.url
        for token in tokens:
            assert token not in shown, answer.url


def test_a_season_director_works_on_their_season_only_and_never_revokes_themselves(
    client: Client,
) -> None:
    # rule C-DIR-1: as over REST, a season's director acts inside the season only
    season = create_season(client)
    other = client.post(
        "/api/v1/seasons",
        json={"name": "Saison 2028", "starts_on": "2028-01-01", "ends_on": "2028-12-31"},
        headers=DIRECTOR,
    ).json()
    named = appoint(client, "Sven Berger", season_id=season["id"])
    signed_in(client, named["token"])
    home = client.get("/director").text
    assert f'href="/director/seasons/{season["id"]}"' in home
    assert f"/director/seasons/{other['id']}" not in home
    page = season_page(client, season["id"])
    own = re.search(rf'<tr data-director-id="{named["director_id"]}".*?</tr>', page, re.DOTALL)
    assert own is not None
    assert 'data-action="revoke-director"' not in own.group(0)
    itself = submit(client, season["id"], f"/directors/{named['director_id']}/revoke")
    assert itself.status_code == 409
    assert client.get(season_url(other["id"])).status_code == 403


def test_a_tournament_director_is_refused_the_season_page(client: Client) -> None:
    season = create_season(client)
    spring = schedule(client)
    named = appoint(client, "Carla Fischer", tournament_id=spring["id"])
    signed_in(client, named["token"])
    assert f"/director/seasons/{season['id']}" not in client.get("/director").text
    refused = client.get(season_url(season["id"]))
    assert refused.status_code == 403
    assert "außerhalb deines Bereichs" in refused.text
    assert "data-error" in refused.text
    unknown = client.get(season_url("00000000-0000-4000-8000-000000000000"))
    assert unknown.status_code == 404


def test_the_season_page_without_a_session_redirects_to_the_sign_in(client: Client) -> None:
    season = create_season(client)
    answer = client.get(season_url(season["id"]), follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"].startswith("/director/sign-in?next=%2Fdirector%2Fseasons")
    assert sign_in(client, next=season_url(season["id"])).headers["location"] == season_url(
        season["id"]
    )
