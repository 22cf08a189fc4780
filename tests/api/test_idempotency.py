"""Idempotency-Key: a retried POST answers the first response and stores nothing twice."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import anyio
import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.http.idempotency import IdempotencyMiddleware
from service.bootstrap import Services
from service.clock import MovableClock
from service.settings import Settings
from service.storage.answers import (
    LIFETIME,
    PENDING_TIMEOUT,
    TABLE,
    AnswerSeal,
    Claim,
    IdempotencyAnswerErasedError,
    IdempotencyKeyInUseError,
    IdempotencyKeyReusedError,
    IdempotencyStore,
    PostgresIdempotencyStore,
    StoredAnswer,
)
from service.storage.events import EventStore
from service.storage.persistence import persistence_environment
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


def test_a_kept_answer_shows_no_token_in_the_keys_file(client: Client) -> None:
    # the event store keeps only a token's hash; the kept answer holds the token itself
    tournament = schedule(client)["id"]
    url = f"/api/v1/tournaments/{tournament}/registrations"
    headers = {**DIRECTOR, "Idempotency-Key": "club-1"}
    seated = client.post(url, json=person(1), headers=headers)
    assert seated.status_code == 201, seated.text
    token = seated.json()["player_token"].encode()
    kept = stored_bytes(client.app.state.services)
    assert kept["idempotency.sqlite"] or kept["idempotency.sqlite-wal"]
    assert [name for name, blob in kept.items() if token in blob] == []
    assert client.post(url, json=person(1), headers=headers).json() == seated.json()


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


def test_an_answer_that_could_not_be_kept_still_reaches_the_client_and_runs_nothing_twice(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def failing_finish(*_: object, **__: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(IdempotencyStore, "finish", failing_finish)
    created = create(client)
    url = f"/api/v1/matches/{created['id']}/rolls"
    headers = {**bearer(created, "a"), "Idempotency-Key": "roll-1"}
    first = client.post(url, json={"dice": [3, 1]}, headers=headers)
    version = version_of(client, created)
    retried = client.post(url, json={"dice": [3, 1]}, headers=headers)
    assert first.status_code == 200, first.text
    assert first.json()["version"] == version
    assert retried.status_code == 409  # the key stays pending: the retry waits, runs nothing
    assert retried.json()["type"].endswith("/idempotency-key-in-use")
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
SEAL = AnswerSeal(b"k" * 32)


def claimed(outcome: Claim | StoredAnswer) -> Claim:
    """The claim ``begin`` answered (not a kept answer)."""
    assert isinstance(outcome, Claim), outcome
    return outcome


@pytest.fixture
def store(tmp_path: Path) -> IdempotencyStore:
    return IdempotencyStore(tmp_path / "idempotency.sqlite", SEAL)


def test_a_concurrent_duplicate_finds_the_key_in_use(store: IdempotencyStore) -> None:
    claimed(store.begin(SCOPE, "body", NOW))
    with pytest.raises(IdempotencyKeyInUseError):
        store.begin(SCOPE, "body", NOW)


def test_an_answer_below_500_is_kept_and_a_server_error_dropped(store: IdempotencyStore) -> None:
    store_claim = claimed(store.begin(SCOPE, "body", NOW))
    store.finish(store_claim, CREATED, erasures=store.erasures)
    assert store.begin(SCOPE, "body", NOW) == CREATED
    other = ("other", *SCOPE[1:])
    store_claim = claimed(store.begin(other, "body", NOW))
    store.finish(store_claim, StoredAnswer(503, [], b""), erasures=store.erasures)
    store_claim = claimed(store.begin(other, "body", NOW))  # the retry runs again


def test_a_file_of_an_earlier_version_keeps_no_unsealed_answer(tmp_path: Path) -> None:
    # an earlier version kept answers as they were, an empty 204 body too
    path = tmp_path / "idempotency.sqlite"
    IdempotencyStore(path, SEAL).close()
    with sqlite3.connect(path) as earlier:
        earlier.execute("PRAGMA user_version = 0")
        earlier.execute(
            f"INSERT INTO {TABLE} VALUES (?, ?, ?, ?, 'body', ?, 204, '[]', ?)",
            (*SCOPE, NOW.isoformat(), b""),
        )
        earlier.execute(
            f"INSERT INTO {TABLE} VALUES ('other', ?, ?, ?, 'body', ?, 201, '[]', ?)",
            (*SCOPE[1:], NOW.isoformat(), b'{"player_token": "plain"}'),
        )
    store = IdempotencyStore(path, SEAL)
    for scope in (SCOPE, ("other", *SCOPE[1:])):
        with pytest.raises(IdempotencyAnswerErasedError):  # carried out: nothing runs twice
            store.begin(scope, "body", NOW)
    store.close()
    assert b"plain" not in path.read_bytes()


def test_only_a_sealed_answer_opens() -> None:
    sealed = SEAL.seal(SCOPE, b"{}")
    assert SEAL.open(SCOPE, sealed) == b"{}"
    assert SEAL.open(("other", *SCOPE[1:]), sealed) is None  # bound to its key
    for unsealed in (b"", b"{}", b'{"player_token": "an earlier answer"}'):
        assert SEAL.open(SCOPE, unsealed) is None


def test_keys_expire_after_24_hours(store: IdempotencyStore) -> None:
    store_claim = claimed(store.begin(SCOPE, "body", NOW))
    store.finish(store_claim, CREATED, erasures=store.erasures)
    assert store.begin(SCOPE, "body", NOW + LIFETIME - timedelta(seconds=1)) == CREATED
    store_claim = claimed(store.begin(SCOPE, "body", NOW + LIFETIME + timedelta(seconds=1)))


def test_the_store_file_is_private(store: IdempotencyStore, tmp_path: Path) -> None:
    assert (tmp_path / "idempotency.sqlite").stat().st_mode & 0o077 == 0


def test_an_answer_computed_across_an_erasure_is_not_kept(store: IdempotencyStore) -> None:
    began = store.erasures
    store_claim = claimed(store.begin(SCOPE, "body", NOW))
    store.forget_answers()  # the person was erased while the request ran
    store.finish(store_claim, CREATED, erasures=began)
    with pytest.raises(IdempotencyAnswerErasedError):
        store.begin(SCOPE, "body", NOW)


def zyxwella_rolls(client: Client, clock: MovableClock) -> tuple[str, str, dict[str, str], Any]:
    """Zyxwella rolls at her table with an Idempotency-Key, and the answer shows her name: her
    player id, the roll's URL and headers, and the answer."""
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
    return zyxwella, url, headers, first


def test_a_retry_after_an_erasure_replays_no_personal_data_and_runs_nothing_twice(
    client: Client, clock: MovableClock
) -> None:
    # ARCHITECTURE.md "Events": after an erasure no answer shows the person's data, also not
    # a stored idempotent answer (its body is gone from the file as well)
    zyxwella, url, headers, first = zyxwella_rolls(client, clock)
    version = first.json()["version"]
    erased = client.post(f"/api/v1/people/{zyxwella}/erasure", headers=DIRECTOR)
    assert erased.status_code == 200, erased.text

    retried = client.post(url, json={"dice": [6, 5]}, headers=headers)

    assert retried.status_code == 409, retried.text
    assert retried.json()["type"].endswith("/idempotency-answer-erased")
    assert FIRST not in retried.text
    assert client.get(url.removesuffix("/rolls")).json()["version"] == version
    services = client.app.state.services
    files = readable(stored_bytes(services))
    assert not [name for name in files if name.startswith("idempotency")]


# --- several processes on one PostgreSQL store ----------------------------------------------


def shared_settings(data_dir: Path, database_url: str) -> Settings:
    return Settings(
        data_dir=data_dir,
        dev=True,
        run_scheduler=False,
        database_url=database_url,
        secret_key="shared-secret-of-both-processes",
    )


@pytest.fixture
def two_processes(
    tmp_path: Path, clock: MovableClock, postgres_schema_url: str
) -> Iterator[tuple[Client, Client]]:
    with (
        TestClient(
            create_app(shared_settings(tmp_path / "one", postgres_schema_url), clock=clock)
        ) as one,
        TestClient(
            create_app(shared_settings(tmp_path / "two", postgres_schema_url), clock=clock)
        ) as two,
    ):
        yield one, two


def services_of(client: Client) -> Services:
    services: Services = client.app.state.services
    return services


def kept_bodies(services: Services) -> list[bytes | None]:
    """The bodies of every answer the store's table keeps."""
    datastore: Any = services.store.recorder.datastore  # type: ignore[attr-defined]
    with datastore.get_connection() as connection:
        rows = connection.execute(f"SELECT body FROM {datastore.schema}.{TABLE}").fetchall()
    return [None if row["body"] is None else bytes(row["body"]) for row in rows]


@pytest.mark.postgres
def test_a_retry_that_reaches_another_process_answers_the_first_answer(
    two_processes: tuple[Client, Client],
) -> None:
    one, two = two_processes
    tournament = schedule(one)["id"]
    url = f"/api/v1/tournaments/{tournament}/registrations"
    headers = {**DIRECTOR, "Idempotency-Key": "club-1"}
    first = one.post(url, json=person(1), headers=headers)

    retried = two.post(url, json=person(1), headers=headers)

    assert first.status_code == retried.status_code == 201, retried.text
    assert retried.json() == first.json()  # the same registration and player token
    assert retried.headers["idempotent-replayed"] == "true"
    other = two.post(url, json=person(2), headers=headers)
    assert other.status_code == 422, other.text
    assert other.json()["type"].endswith("/idempotency-key-reused")
    services_of(two).views.catch_up()
    assert len(registrations(two, tournament)) == 1


@pytest.mark.postgres
def test_a_roll_retried_on_another_process_is_applied_once(
    two_processes: tuple[Client, Client],
) -> None:
    one, two = two_processes
    created = create(one)
    url = f"/api/v1/matches/{created['id']}/rolls"
    headers = {**bearer(created, "a"), "Idempotency-Key": "roll-1"}
    first = one.post(url, json={"dice": [3, 1]}, headers=headers)
    version = version_of(one, created)

    retried = two.post(url, json={"dice": [3, 1]}, headers=headers)

    assert first.status_code == retried.status_code == 200, retried.text
    assert retried.json() == first.json()
    assert version_of(two, created) == version


@pytest.mark.postgres
def test_an_erasure_learnt_by_both_processes_discards_the_answer_of_either(
    two_processes: tuple[Client, Client], clock: MovableClock
) -> None:
    one, two = two_processes
    zyxwella, url, headers, first = zyxwella_rolls(one, clock)
    version = first.json()["version"]

    erased = two.post(f"/api/v1/people/{zyxwella}/erasure", headers=DIRECTOR)
    assert erased.status_code == 200, erased.text
    services_of(one).views.catch_up()  # the first process reads the erasure from the log

    for process in (one, two):
        retried = process.post(url, json={"dice": [6, 5]}, headers=headers)
        assert retried.status_code == 409, retried.text
        assert retried.json()["type"].endswith("/idempotency-answer-erased")
        assert FIRST not in retried.text
    assert one.get(url.removesuffix("/rolls")).json()["version"] == version
    assert kept_bodies(services_of(one)) == [None]


@pytest.mark.postgres
def test_a_process_on_postgres_keeps_no_keys_in_its_data_directory(
    tmp_path: Path, clock: MovableClock, postgres_schema_url: str
) -> None:
    data_dir = tmp_path / "data"
    IdempotencyStore(data_dir / "idempotency.sqlite", SEAL).close()  # an earlier version's answers
    with TestClient(
        create_app(shared_settings(data_dir, postgres_schema_url), clock=clock)
    ) as client:
        tournament = schedule(client)["id"]
        url = f"/api/v1/tournaments/{tournament}/registrations"
        headers = {**DIRECTOR, "Idempotency-Key": "club-1"}
        assert client.post(url, json=person(1), headers=headers).status_code == 201
        assert len(kept_bodies(services_of(client))) == 1
    assert not list(data_dir.glob("idempotency*"))


@pytest.fixture
def shared_stores(
    postgres_schema_url: str,
) -> Iterator[tuple[PostgresIdempotencyStore, PostgresIdempotencyStore]]:
    """The keys of two processes, each with its own event store (and pool) on one schema."""
    stores = [EventStore(env=persistence_environment(postgres_schema_url)) for _ in range(2)]
    first, second = (
        PostgresIdempotencyStore(store.recorder.datastore, SEAL)  # type: ignore[attr-defined]
        for store in stores
    )
    yield first, second
    for store in stores:
        store.close()


@pytest.mark.postgres
def test_a_key_pending_in_one_process_is_in_use_in_another(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    one_claim = claimed(one.begin(SCOPE, "body", NOW))
    with pytest.raises(IdempotencyKeyInUseError):
        two.begin(SCOPE, "body", NOW)
    with pytest.raises(IdempotencyKeyReusedError):
        two.begin(SCOPE, "another body", NOW)
    one.finish(one_claim, CREATED, erasures=one.erasures)
    assert two.begin(SCOPE, "body", NOW) == CREATED


@pytest.mark.postgres
def test_a_server_error_in_one_process_lets_another_run_the_retry(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    one_claim = claimed(one.begin(SCOPE, "body", NOW))
    one.finish(one_claim, StoredAnswer(503, [], b""), erasures=one.erasures)
    two_claim = claimed(two.begin(SCOPE, "body", NOW))
    two.abandon(two_claim)  # the retry failed too (an exception): the next one runs again
    one_claim = claimed(one.begin(SCOPE, "body", NOW))


def age(store: PostgresIdempotencyStore, by: timedelta) -> None:
    """Every key of the table claimed ``by`` earlier (the table's ages are the database's)."""
    datastore: Any = store._datastore
    with datastore.get_connection() as connection:
        connection.execute(
            f"UPDATE {datastore.schema}.{TABLE} SET created_at = created_at - %s", (by,)
        )


@pytest.mark.postgres
def test_shared_keys_expire_after_24_hours(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    one_claim = claimed(one.begin(SCOPE, "body", NOW))
    one.finish(one_claim, CREATED, erasures=one.erasures)
    age(one, LIFETIME - timedelta(seconds=1))
    assert two.begin(SCOPE, "body", NOW) == CREATED
    age(one, timedelta(seconds=2))
    claimed(two.begin(SCOPE, "body", NOW))


@pytest.mark.postgres
def test_a_key_left_pending_by_a_process_that_died_is_claimed_again_after_the_timeout(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    one_claim = claimed(one.begin(SCOPE, "body", NOW))  # and the process dies
    age(one, PENDING_TIMEOUT - timedelta(seconds=1))
    with pytest.raises(IdempotencyKeyInUseError):
        two.begin(SCOPE, "body", NOW)
    age(one, timedelta(seconds=2))
    two_claim = claimed(two.begin(SCOPE, "body", NOW))
    # a first request that was only slow finds its claim taken over: its answer is not kept
    one.finish(one_claim, StoredAnswer(200, [], b"late"), erasures=one.erasures)
    with pytest.raises(IdempotencyKeyInUseError):
        one.begin(SCOPE, "body", NOW)
    two.finish(two_claim, CREATED, erasures=two.erasures)
    assert one.begin(SCOPE, "body", NOW) == CREATED


@pytest.mark.postgres
def test_each_process_forgets_the_answers_when_it_learns_of_an_erasure(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    other = ("other", *SCOPE[1:])
    one_claim = claimed(one.begin(SCOPE, "body", NOW))
    one.finish(one_claim, CREATED, erasures=one.erasures)
    began = two.erasures
    two_claim = claimed(two.begin(other, "body", NOW))

    one.forget_answers()  # the first process erased the person; the second has not read it yet

    for process in (one, two):
        with pytest.raises(IdempotencyAnswerErasedError):
            process.begin(SCOPE, "body", NOW)
    two.finish(two_claim, CREATED, erasures=began)  # it may show the person: kept until...
    assert one.begin(other, "body", NOW) == CREATED
    two.forget_answers()  # ...the second process reads the erasure
    with pytest.raises(IdempotencyAnswerErasedError):
        one.begin(other, "body", NOW)
    one.forget_answers()  # learning of it again changes nothing
    with pytest.raises(IdempotencyAnswerErasedError):
        two.begin(SCOPE, "body", NOW)


@pytest.mark.postgres
def test_a_process_whose_clock_is_ahead_takes_over_no_running_request(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    one_claim = claimed(one.begin(SCOPE, "body", NOW))
    ahead = NOW + LIFETIME + timedelta(hours=1)  # a dev clock moved on in the other process
    claimed(two.begin(("other", *SCOPE[1:]), "body", ahead))
    with pytest.raises(IdempotencyKeyInUseError):
        two.begin(SCOPE, "body", ahead)
    one.finish(one_claim, CREATED, erasures=one.erasures)
    assert two.begin(SCOPE, "body", ahead) == CREATED


@pytest.mark.postgres
def test_a_slow_request_is_not_taken_over_by_a_retry_in_its_own_process(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    one_claim = claimed(one.begin(SCOPE, "body", NOW))
    age(one, PENDING_TIMEOUT + timedelta(seconds=1))
    with pytest.raises(IdempotencyKeyReusedError):
        one.begin(SCOPE, "another body", NOW)  # the same process: its request still runs
    with pytest.raises(IdempotencyKeyInUseError):
        one.begin(SCOPE, "body", NOW)
    one.finish(one_claim, StoredAnswer(201, [], b"first"), erasures=one.erasures)
    assert two.begin(SCOPE, "body", NOW) == StoredAnswer(201, [], b"first")


@pytest.mark.postgres
def test_a_process_restarted_after_an_erasure_it_had_not_read_discards_its_answers(
    tmp_path: Path, clock: MovableClock, postgres_schema_url: str
) -> None:
    with TestClient(
        create_app(shared_settings(tmp_path / "one", postgres_schema_url), clock=clock)
    ) as one:
        tournament = schedule(one)["id"]
        url = f"/api/v1/tournaments/{tournament}/registrations"
        player_id = one.post(url, json=person(1), headers=DIRECTOR).json()["player_id"]
        with TestClient(
            create_app(shared_settings(tmp_path / "two", postgres_schema_url), clock=clock)
        ) as two:
            created = create(two)
            match = f"/api/v1/matches/{created['id']}"
            rolled = two.post(f"{match}/rolls", json={"dice": [3, 1]}, headers=bearer(created, "a"))
            assert rolled.status_code == 200, rolled.text
            erased = one.post(f"/api/v1/people/{player_id}/erasure", headers=DIRECTOR)
            assert erased.status_code == 200, erased.text
            # the second process keeps an answer: it has not read the erasure yet (a play is
            # shown by no view, so its command does not catch the views up)
            headers = {**bearer(created, "a"), "Idempotency-Key": "play-1"}
            played = two.post(f"{match}/plays", json={"play": "8/5 6/5"}, headers=headers)
            assert played.status_code == 200, played.text
            assert [body is not None for body in kept_bodies(services_of(two))] == [True]
        # it stops before reading the erasure, and reads it while starting again
        with TestClient(
            create_app(shared_settings(tmp_path / "two", postgres_schema_url), clock=clock)
        ) as two:
            assert kept_bodies(services_of(two)) == [None]


def test_a_body_cut_off_by_a_lost_network_runs_nothing_and_claims_nothing(
    store: IdempotencyStore,
) -> None:
    ran: list[bytes] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        ran.append((await receive())["body"])
        await send({"type": "http.response.start", "status": 201, "headers": []})
        await send({"type": "http.response.body", "body": b"{}", "more_body": False})

    middleware = IdempotencyMiddleware(app, store, MovableClock(NOW))
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/x",
        "headers": [(b"idempotency-key", b"k")],
        "client": ("127.0.0.1", 1),
    }

    def request(body: bytes, *, complete: bool) -> list[dict[str, Any]]:
        """What the client is sent for ``body``, after which it goes."""
        messages = [{"type": "http.request", "body": body, "more_body": not complete}]
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        anyio.run(cast(Any, middleware), scope, receive, send)
        return sent

    assert request(b'{"a"', complete=False) == []
    assert ran == []
    assert request(b'{"a": 1}', complete=True)[0]["status"] == 201
    assert ran == [b'{"a": 1}']  # the whole body ran once, under the key


@pytest.mark.postgres
def test_a_request_whose_claim_was_taken_over_touches_no_later_claim_of_its_key(
    shared_stores: tuple[PostgresIdempotencyStore, PostgresIdempotencyStore],
) -> None:
    one, two = shared_stores
    first = claimed(one.begin(SCOPE, "body", NOW))
    age(one, PENDING_TIMEOUT + timedelta(seconds=1))
    two.abandon(claimed(two.begin(SCOPE, "body", NOW)))  # taken over, and that retry failed
    third = claimed(one.begin(SCOPE, "body", NOW))  # a retry in the first one's process
    one.finish(first, StoredAnswer(200, [], b"late"), erasures=one.erasures)  # at last
    with pytest.raises(IdempotencyKeyInUseError):
        two.begin(SCOPE, "body", NOW)  # the third still runs: the late answer is not its
    one.finish(third, CREATED, erasures=one.erasures)
    assert two.begin(SCOPE, "body", NOW) == CREATED
