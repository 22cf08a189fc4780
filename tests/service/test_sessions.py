"""The director's console sessions at the service level: a session acts as its token would,
and ends with its expiry, its director's revocation or a forged signature (issue 21, item 1;
rule C-DIR-1 for who may act)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.errors import UnauthenticatedError
from domain.people.director import BOOTSTRAP
from domain.people.tokens import token_hash
from service.bootstrap import Services
from service.clock import MovableClock
from service.people.sessions import SESSION_LIFETIME
from service.settings import DEV_DIRECTOR_TOKEN
from tests.service.conftest import registered_tournament


def test_a_session_opened_with_the_club_token_acts_for_the_club_until_it_expires(
    services: Services, clock: MovableClock
) -> None:
    assert services.directors.bootstrap_token_hash() == token_hash(DEV_DIRECTOR_TOKEN)
    opened = services.sessions.open(DEV_DIRECTOR_TOKEN)
    checked = services.sessions.check(opened.cookie)
    assert checked is not None
    assert checked.acting == BOOTSTRAP
    assert checked.nonce == opened.session.nonce
    assert DEV_DIRECTOR_TOKEN not in opened.cookie  # the cookie holds no token
    clock.advance((SESSION_LIFETIME - timedelta(seconds=1)).total_seconds())
    assert services.sessions.check(opened.cookie) is not None
    clock.advance(1)
    assert services.sessions.check(opened.cookie) is None


def test_a_forged_or_altered_cookie_is_no_session(services: Services) -> None:
    cookie = services.sessions.open(DEV_DIRECTOR_TOKEN).cookie
    body, signature = cookie.split(".")
    assert services.sessions.check(f"{body}.{signature[:-2]}AA") is None
    assert services.sessions.check(f"{body[:-2]}AA.{signature}") is None
    assert services.sessions.check("not-a-cookie") is None
    assert services.sessions.check(None) is None


def test_a_revoked_directors_session_stops_at_once_and_a_player_opens_none(
    services: Services,
) -> None:
    day = registered_tournament(services, 1)
    club = services.directors.acting(DEV_DIRECTOR_TOKEN)
    assert club is not None
    appointed = services.directors.appoint(club, "Hanna Leiter", tournament_id=day.tournament_id)
    cookie = services.sessions.open(appointed.token).cookie
    session = services.sessions.check(cookie)
    assert session is not None
    assert session.acting.director_id == appointed.director.id
    services.directors.revoke(club, appointed.director.id)
    assert services.sessions.check(cookie) is None
    with pytest.raises(UnauthenticatedError):
        services.sessions.open(day.registrations[0].player_token)


def test_a_forms_csrf_token_belongs_to_its_session_only(services: Services) -> None:
    first = services.sessions.open(DEV_DIRECTOR_TOKEN).session
    second = services.sessions.open(DEV_DIRECTOR_TOKEN).session
    token = services.sessions.csrf_token(first.nonce)
    assert services.sessions.is_csrf_token(first.nonce, token)
    assert not services.sessions.is_csrf_token(second.nonce, token)
    assert not services.sessions.is_csrf_token(first.nonce, None)
    assert not services.sessions.is_csrf_token(None, token)


def test_a_signed_out_session_ends_for_every_copy_of_its_cookie_but_no_other_session(
    services: Services,
) -> None:
    # API.md "Sessions": sign-out ends the session on the server, not only in one browser
    signed_out = services.sessions.open(DEV_DIRECTOR_TOKEN).cookie
    other = services.sessions.open(DEV_DIRECTOR_TOKEN).cookie
    services.sessions.end(signed_out)
    assert services.sessions.check(signed_out) is None
    assert services.sessions.check(other) is not None
    services.sessions.end("forged.cookie")  # ends nothing, refuses nothing
    assert services.sessions.check(other) is not None
