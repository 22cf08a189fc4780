"""Registration by e-mail confirmation over REST (API.md "Registration by e-mail confirmation").

An anonymous registration answers 202 and takes a seat only when the link in its mail is
followed; the director's registration counts at once (201).
"""

# rules P-MAIL-1, T-REG-2, T-REG-3, T-SEAT-1

from __future__ import annotations

from typing import Any
from uuid import UUID, uuid4

import pytest
from litestar.testing import TestClient

from service.clock import MovableClock
from tests.api.test_tournaments import person, schedule
from tests.conftest import DIRECTOR
from tests.mailbox import (
    body_of,
    confirmation_token,
    links_in,
    mails_to,
    register_by_mail,
    services_of,
)

Client = TestClient[Any]
CONFIRM = "/api/v1/registrations/confirm"


def ask(client: Client, tournament: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/tournaments/{tournament}/registrations", json=body)


def seats(client: Client, tournament: str) -> dict[str, int]:
    answer: dict[str, int] = client.get(f"/api/v1/tournaments/{tournament}/seats").json()
    return answer


def test_an_anonymous_registration_takes_a_seat_only_after_its_link_is_followed(
    client: Client,
) -> None:
    tournament = schedule(client)["id"]
    asked = ask(client, tournament, person(1))
    assert asked.status_code == 202, asked.text
    assert asked.json() == {
        "status": "unconfirmed",
        "tournament_id": tournament,
        "confirm_by": "2026-03-02T10:00:00+01:00",  # 24 hours after 2026-03-01 09:00 UTC
    }
    assert seats(client, tournament)["taken"] == 0
    assert client.get(f"/api/v1/tournaments/{tournament}/participants").json() == []

    token = confirmation_token(client.app, "spieler1@example.org")
    confirmed = client.post(CONFIRM, json={"token": token})
    assert confirmed.status_code == 201, confirmed.text
    body = confirmed.json()
    assert body["status"] == "registered"
    assert {"registration_id", "player_id", "status", "player_token"} <= set(body)
    assert seats(client, tournament)["taken"] == 1
    # the player token of the answer cancels the registration (self-service)
    cancelled = client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{body['registration_id']}",
        headers={"Authorization": f"Bearer {body['player_token']}"},
    )
    assert cancelled.status_code == 200, cancelled.text
    assert seats(client, tournament)["taken"] == 0


def test_an_expired_confirmation_never_takes_a_seat(client: Client, clock: MovableClock) -> None:
    tournament = schedule(client)["id"]
    ask(client, tournament, person(1))
    token = confirmation_token(client.app, "spieler1@example.org")
    clock.advance(24 * 3600 + 1)
    stream = services_of(client.app).store.stream(UUID(tournament))
    late = client.post(CONFIRM, json={"token": token})
    assert late.status_code == 409
    assert late.json()["type"].endswith("/confirmation-expired")
    assert seats(client, tournament)["taken"] == 0
    assert services_of(client.app).store.stream(UUID(tournament)) == stream


def test_a_confirmation_just_in_time_counts(client: Client, clock: MovableClock) -> None:
    tournament = schedule(client)["id"]
    ask(client, tournament, person(1))
    token = confirmation_token(client.app, "spieler1@example.org")
    clock.advance(24 * 3600)  # at confirm_by itself
    assert client.post(CONFIRM, json={"token": token}).status_code == 201


def test_a_duplicates_answer_equals_a_fresh_ones(client: Client) -> None:
    # rule T-REG-2 without telling a stranger who is registered
    tournament = schedule(client)["id"]
    seated = client.post(
        f"/api/v1/tournaments/{tournament}/registrations",
        json=person(1),
        headers=DIRECTOR,
    )
    assert seated.status_code == 201
    duplicate = ask(client, tournament, person(1, email="SPIELER1@example.org"))
    fresh = ask(client, tournament, person(2))
    assert duplicate.status_code == fresh.status_code == 202
    assert duplicate.json() == fresh.json()
    assert duplicate.headers["content-type"] == fresh.headers["content-type"]
    assert "spieler1" not in duplicate.text.lower()
    # the mail to the address tells: already registered, and no link to follow
    [note] = mails_to(client.app, "SPIELER1@example.org", "already_registered")
    assert "bereits angemeldet" in body_of(note)
    assert links_in(note) == []
    assert mails_to(client.app, "SPIELER1@example.org", "confirmation_link") == []
    assert mails_to(client.app, "spieler2@example.org", "confirmation_link") != []


def test_the_seat_is_decided_when_the_link_is_followed(client: Client) -> None:
    # rules T-REG-3, T-SEAT-1: asked first, confirmed 21st: the waitlist
    tournament = schedule(client)["id"]
    ask(client, tournament, person(21))
    for number in range(1, 21):
        registered = client.post(
            f"/api/v1/tournaments/{tournament}/registrations",
            json=person(number),
            headers=DIRECTOR,
        )
        assert registered.json()["status"] == "registered"
    token = confirmation_token(client.app, "spieler21@example.org")
    confirmed = client.post(CONFIRM, json={"token": token})
    assert confirmed.status_code == 201
    assert (confirmed.json()["status"], confirmed.json()["waitlist_position"]) == ("waitlisted", 1)
    assert seats(client, tournament) == {
        "capacity": 20,
        "taken": 20,
        "free": 0,
        "waitlist": 1,
        "checked_in": 0,
    }


def test_the_rules_of_a_registration_apply_at_confirmation(client: Client) -> None:
    # rule T-REG-2: two requests of one person: the second link finds the person registered
    tournament = schedule(client)["id"]
    ask(client, tournament, person(1))
    ask(client, tournament, person(1))
    tokens = [
        link.split("token=")[1].split("&")[0]
        for mail in mails_to(client.app, "spieler1@example.org", "confirmation_link")
        for link in links_in(mail)
    ]
    assert len(tokens) == 2
    assert client.post(CONFIRM, json={"token": tokens[0]}).status_code == 201
    second = client.post(CONFIRM, json={"token": tokens[1]})
    assert second.status_code == 409
    assert second.json()["type"].endswith("/duplicate-registration")
    assert seats(client, tournament)["taken"] == 1


def test_confirming_twice_answers_the_same_registration_until_it_is_cancelled(
    client: Client,
) -> None:
    tournament = schedule(client)["id"]
    first = register_by_mail(client, tournament, person(1))
    token = confirmation_token(client.app, "spieler1@example.org")
    again = client.post(CONFIRM, json={"token": token})
    assert again.status_code == 201
    assert again.json() == first.json()
    assert seats(client, tournament)["taken"] == 1
    client.delete(
        f"/api/v1/tournaments/{tournament}/registrations/{first.json()['registration_id']}",
        headers=DIRECTOR,
    )
    after = client.post(CONFIRM, json={"token": token})
    assert after.status_code == 409
    assert seats(client, tournament)["taken"] == 0


def test_unknown_malformed_and_wrong_tokens_get_one_answer(client: Client) -> None:
    tournament = schedule(client)["id"]
    ask(client, tournament, person(1))
    real = confirmation_token(client.app, "spieler1@example.org")
    request_id = real.split(".")[0]
    answers = [
        client.post(CONFIRM, json={"token": token})
        for token in (
            "x",
            f"{uuid4().hex}.{real.split('.')[1]}",  # no such request
            f"{request_id}.{'A' * 43}",  # the request, a wrong key
            request_id,  # no key at all
            f"{tournament.replace('-', '')}.abc",  # another aggregate's id
        )
    ]
    assert {a.status_code for a in answers} == {404}
    assert len({(a.json()["type"], a.json()["detail"]) for a in answers}) == 1
    assert seats(client, tournament)["taken"] == 0


@pytest.mark.parametrize("body", [{}, {"token": ""}, {"token": 7}, {"token": "x" * 201}])
def test_a_confirmation_without_a_usable_token_is_a_422(
    client: Client, body: dict[str, Any]
) -> None:
    answer = client.post(CONFIRM, json=body)
    assert answer.status_code in (400, 422)
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_bad_data_is_refused_when_asked_not_when_confirmed(client: Client) -> None:
    # rule T-REG-1: a typo is a 422 at once and mails nothing
    tournament = schedule(client)["id"]
    answer = ask(client, tournament, person(1, age=17))
    assert answer.status_code == 422
    unknown_language = ask(client, tournament, person(2, language="fr"))
    assert unknown_language.status_code in (400, 422)
    assert "language" in unknown_language.text
    assert mails_to(client.app, "spieler1@example.org") == []


def test_the_director_reads_the_outbox_and_nobody_else(client: Client) -> None:
    tournament = schedule(client)["id"]
    ask(client, tournament, person(1, language="en"))
    assert client.get("/api/v1/outbox").status_code == 401
    listed = client.get("/api/v1/outbox", headers=DIRECTOR)
    assert listed.status_code == 200
    [mail] = listed.json()
    assert (mail["kind"], mail["recipient"], mail["language"]) == (
        "confirmation_link",
        "spieler1@example.org",
        "en",
    )
    assert mail["status"] == "pending"
    assert "token" not in str(mail)
    services_of(client.app).outbox.send_due()
    sent = client.get("/api/v1/outbox", params={"status": "sent"}, headers=DIRECTOR).json()
    assert [m["id"] for m in sent] == [mail["id"]]
    assert sent[0]["attempts"] == 1


def test_the_links_pages_act_only_by_their_button_in_german_or_english(client: Client) -> None:
    # rule P-MAIL-1: opening a link (a mail scanner does) confirms and cancels nothing
    tournament = schedule(client)["id"]
    ask(client, tournament, person(1))
    token = confirmation_token(client.app, "spieler1@example.org")
    german = client.get("/pages/registrations/confirm", params={"token": token})
    assert german.status_code == 200
    assert "Anmeldung bestätigen" in german.text
    assert '"/api/v1/registrations/confirm"' in german.text
    english = client.get("/pages/registrations/confirm", params={"token": token, "lang": "en"})
    assert "Confirm registration" in english.text
    cancel = client.get("/pages/registrations/cancel", params={"lang": "en"})
    assert "Cancel registration" in cancel.text
    assert 'method: "DELETE"' in cancel.text
    assert seats(client, tournament)["taken"] == 0


def test_the_tournament_pages_form_says_to_check_the_mail(client: Client) -> None:
    tournament = schedule(client)["id"]
    html = client.get(f"/pages/tournaments/{tournament}", params={"lang": "en"}).text
    assert "response.status === 202" in html
    assert "we have sent you an e-mail" in html
    assert '<input type="hidden" name="language" value="en">' in html


def test_a_link_followed_after_its_persons_erasure_is_a_409_and_registers_nobody(
    client: Client,
) -> None:
    # rule P-MAIL-1 and ARCHITECTURE.md "Events": an erased person's request registers nobody
    tournament = schedule(client)["id"]
    assert ask(client, tournament, person(7)).status_code == 202
    token = confirmation_token(client.app, "spieler7@example.org")
    services = services_of(client.app)
    player_id = services.tournaments.player_id_for("spieler7@example.org")
    erased = client.post(f"/api/v1/people/{player_id}/erasure", headers=DIRECTOR)
    assert erased.status_code == 200, erased.text

    response = client.post(CONFIRM, json={"token": token})

    assert response.status_code == 409, response.text
    assert response.json()["type"].endswith("/person-erased")
    registrations = client.get(f"/api/v1/tournaments/{tournament}/registrations", headers=DIRECTOR)
    assert registrations.json() == []
    assert services.store.keys.key_of(player_id) is None
    # asking again after the erasure is new data: a new key, and the new link registers
    assert ask(client, tournament, person(7)).status_code == 202
    again = confirmation_token(client.app, "spieler7@example.org")
    assert again != token
    assert client.post(CONFIRM, json={"token": again}).status_code == 201
    [row] = client.get(f"/api/v1/tournaments/{tournament}/registrations", headers=DIRECTOR).json()
    assert row["email"] == "spieler7@example.org"


@pytest.mark.parametrize("page", ["confirm", "cancel"])
def test_the_links_pages_send_their_token_to_no_other_address_and_are_kept_by_no_cache(
    client: Client, page: str
) -> None:
    # API.md "Sessions": the mails' links carry a token (the cancellation link the player
    # token itself); as on the personal link's page, the page's own requests (its button's
    # fetch, the other language's link) name no Referer with it, and no cache keeps the page
    answer = client.get(
        f"/pages/registrations/{page}",
        params={"token": "a-token", "registration": "r", "tournament": "t"},
    )
    assert answer.status_code == 200
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["content-language"] == "de"
