"""Idempotency-Key: a retried POST answers the first response and stores nothing twice."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.idempotency import (
    LIFETIME,
    IdempotencyAnswerErasedError,
    IdempotencyKeyInUseError,
    IdempotencyStore,
    StoredAnswer,
)
from service.clock import MovableClock
from tests.api.test_erasure import FIRST, readable, start_with_zyxwella, stored_bytes
from tests.api.test_matches import bearer, create, version_of
from tests.api.test_ranking import create_season
from tests.api.test_tournaments import person, schedule
from tests.conftest import DIRECTOR
from tests.mailbox import confirmation_token, links_in, mails_to, token_in

Client = TestClient[Any]


def registrations(client: Client, tournament_id: str) -> list[dict[str, Any]]:
    listed = client.get(f"/api/v1/tournaments/{tournament_id}/registrations", headers=DIRECTOR)
    assert listed.status_code == 200, listed.text
    items: list[dict[str, Any]] = listed.json()
    return items


def confirmation_mails(client: Client, address: str) -> int:
    """How many registration requests of ``address`` were stored: each mails one link."""
    return len(mails_to(client.app, address, "confirmation_link"))


def test_a_registration_retried_with_the_same_key_answers_the_first_registration(
    client: Client,
) -> None:
    tournament = schedule(client)["id"]
    url = f"/api/v1/tournaments/{tournament}/registrations"
    key = {"Idempotency-Key": "phone-1-attempt"}
    first = client.post(url, json=person(1), headers=key)
    retried = client.post(url, json=person(1), headers=key)
    assert first.status_code == retried.status_code == 202  # rule P-MAIL-1: unconfirmed
    assert retried.json() == first.json()
    assert retried.headers["content-type"] == first.headers["content-type"]
    assert retried.headers["idempotent-replayed"] == "true"
    assert confirmation_mails(client, "spieler1@example.org") == 1  # one request stored
    # the director's registration, retried, answers the same ids and the same player token
    director = {**DIRECTOR, "Idempotency-Key": "club-1"}
    seated = client.post(url, json=person(2), headers=director)
    again = client.post(url, json=person(2), headers=director)
    assert seated.status_code == again.status_code == 201
    assert again.json() == seated.json()
    assert len(registrations(client, tournament)) == 1


def test_a_registration_with_another_key_is_a_new_request(client: Client) -> None:
    tournament = schedule(client)["id"]
    url = f"/api/v1/tournaments/{tournament}/registrations"
    assert client.post(url, json=person(1), headers={"Idempotency-Key": "a"}).status_code == 202
    assert client.post(url, json=person(1), headers={"Idempotency-Key": "b"}).status_code == 202
    assert client.post(url, json=person(2), headers={"Idempotency-Key": "c"}).status_code == 202
    assert confirmation_mails(client, "spieler1@example.org") == 2
    links = [
        token_in(link)
        for mail in mails_to(client.app, "spieler1@example.org", "confirmation_link")
        for link in links_in(mail)
    ]
    confirm = "/api/v1/registrations/confirm"
    assert client.post(confirm, json={"token": links[0]}).status_code == 201
    again = client.post(confirm, json={"token": links[1]})
    assert again.status_code == 409  # the same person: the duplicate rule answers
    assert again.json()["type"].endswith("/duplicate-registration")
    token = confirmation_token(client.app, "spieler2@example.org")
    assert client.post(confirm, json={"token": token}).status_code == 201
    assert len(registrations(client, tournament)) == 2


def test_a_key_used_for_another_body_is_refused(client: Client) -> None:
    tournament = schedule(client)["id"]
    url = f"/api/v1/tournaments/{tournament}/registrations"
    key = {"Idempotency-Key": "same"}
    assert client.post(url, json=person(1), headers=key).status_code == 202
    other = client.post(url, json=person(2), headers=key)
    assert other.status_code == 422
    assert other.json()["type"].endswith("/idempotency-key-reused")
    assert confirmation_mails(client, "spieler1@example.org") == 1
    assert confirmation_mails(client, "spieler2@example.org") == 0


def test_a_match_command_retried_with_the_same_key_is_applied_once(client: Client) -> None:
    created = create(client)
    url = f"/api/v1/matches/{created['id']}/rolls"
    headers = {**bearer(created, "a"), "Idempotency-Key": "roll-1"}
    first = client.post(url, json={"dice": [3, 1]}, headers=headers)
    version = version_of(client, created)
    retried = client.post(url, json={"dice": [3, 1]}, headers=headers)
    assert first.status_code == retried.status_code == 200
    assert retried.json() == first.json()
    assert version_of(client, created) == version


def test_keys_are_scoped_by_the_callers_token(client: Client) -> None:
    created = create(client)
    url = f"/api/v1/matches/{created['id']}/rolls"
    first = client.post(
        url, json={"dice": [3, 1]}, headers={**bearer(created, "a"), "Idempotency-Key": "k"}
    )
    assert first.status_code == 200
    # the opponent's request with the same key is not the player's: it runs (and is refused)
    other = client.post(
        url, json={"dice": [3, 1]}, headers={**bearer(created, "b"), "Idempotency-Key": "k"}
    )
    assert "idempotent-replayed" not in other.headers


def test_a_key_longer_than_255_characters_is_invalid_input(client: Client) -> None:
    tournament = schedule(client)["id"]
    answer = client.post(
        f"/api/v1/tournaments/{tournament}/registrations",
        json=person(1),
        headers={"Idempotency-Key": "k" * 256},
    )
    assert answer.status_code == 422
    assert answer.json()["errors"][0]["field"] == "Idempotency-Key"
    assert confirmation_mails(client, "spieler1@example.org") == 0
    assert registrations(client, tournament) == []


# --- the store ------------------------------------------------------------------------------

NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
SCOPE = ("key", "POST", "/api/v1/x", "caller")
CREATED = StoredAnswer(201, [("content-type", "application/json")], b"{}")


@pytest.fixture
def store(tmp_path: Path) -> IdempotencyStore:
    return IdempotencyStore(tmp_path / "idempotency.sqlite")


def test_a_concurrent_duplicate_finds_the_key_in_use(store: IdempotencyStore) -> None:
    assert store.begin(SCOPE, "body", NOW) is None
    with pytest.raises(IdempotencyKeyInUseError):
        store.begin(SCOPE, "body", NOW)


def test_an_answer_below_500_is_kept_and_a_server_error_dropped(store: IdempotencyStore) -> None:
    assert store.begin(SCOPE, "body", NOW) is None
    store.finish(SCOPE, CREATED, erasures=store.erasures)
    assert store.begin(SCOPE, "body", NOW) == CREATED
    other = ("other", *SCOPE[1:])
    assert store.begin(other, "body", NOW) is None
    store.finish(other, StoredAnswer(503, [], b""), erasures=store.erasures)
    assert store.begin(other, "body", NOW) is None  # the retry runs again


def test_keys_expire_after_24_hours(store: IdempotencyStore) -> None:
    assert store.begin(SCOPE, "body", NOW) is None
    store.finish(SCOPE, CREATED, erasures=store.erasures)
    assert store.begin(SCOPE, "body", NOW + LIFETIME - timedelta(seconds=1)) == CREATED
    assert store.begin(SCOPE, "body", NOW + LIFETIME + timedelta(seconds=1)) is None


def test_the_store_file_is_private(store: IdempotencyStore, tmp_path: Path) -> None:
    assert (tmp_path / "idempotency.sqlite").stat().st_mode & 0o077 == 0


def test_an_answer_computed_across_an_erasure_is_not_kept(store: IdempotencyStore) -> None:
    began = store.erasures
    assert store.begin(SCOPE, "body", NOW) is None
    store.forget_answers()  # the person was erased while the request ran
    store.finish(SCOPE, CREATED, erasures=began)
    with pytest.raises(IdempotencyAnswerErasedError):
        store.begin(SCOPE, "body", NOW)


def test_a_retry_after_an_erasure_replays_no_personal_data_and_runs_nothing_twice(
    client: Client, clock: MovableClock
) -> None:
    # ARCHITECTURE.md "Events": after an erasure no answer shows the person's data, also not
    # a stored idempotent answer (its body is gone from the file as well)
    day = start_with_zyxwella(client, clock, create_season(client))
    zyxwella = next(iter(day.players))
    [table] = [t for t in day.rounds[0]["pairings"] if zyxwella in (t["player_a"], t["player_b"])]
    headers = {
        "Authorization": f"Bearer {day.players[zyxwella]['player_token']}",
        "Idempotency-Key": "roll-1",
    }
    url = f"/api/v1/matches/{table['match_id']}/rolls"
    first = client.post(url, json={"dice": [6, 5]}, headers=headers)
    assert first.status_code == 200, first.text
    assert FIRST in first.text
    version = first.json()["version"]
    erased = client.post(f"/api/v1/people/{zyxwella}/erasure", headers=DIRECTOR)
    assert erased.status_code == 200, erased.text

    retried = client.post(url, json={"dice": [6, 5]}, headers=headers)

    assert retried.status_code == 409, retried.text
    assert retried.json()["type"].endswith("/idempotency-answer-erased")
    assert FIRST not in retried.text
    assert client.get(f"/api/v1/matches/{table['match_id']}").json()["version"] == version
    services = client.app.state.services
    files = readable(stored_bytes(services))
    assert not [name for name in files if name.startswith("idempotency")]
