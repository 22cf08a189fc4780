"""The limit on failed sign-ins at the service level: a few failures a minute per client
address and door, then a wait until the oldest leaves the minute (API.md "Pages for people")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service.people.sign_in_limit import LIMIT, SignInAttempts

NOW = datetime(2026, 4, 18, 10, 0, tzinfo=UTC)


def test_a_client_waits_after_five_failures_until_the_first_leaves_the_minute() -> None:
    attempts = SignInAttempts()
    for second in range(LIMIT):
        assert attempts.wait("director", "10.0.0.1", NOW + timedelta(seconds=second)) == 0
        attempts.failed("director", "10.0.0.1", NOW + timedelta(seconds=second))
    later = NOW + timedelta(seconds=10)
    assert attempts.wait("director", "10.0.0.1", later) == 51
    # another address, and the other door, are counted apart
    assert attempts.wait("director", "10.0.0.2", later) == 0
    assert attempts.wait("player", "10.0.0.1", later) == 0
    assert attempts.wait("director", "10.0.0.1", NOW + timedelta(seconds=60)) == 0


def test_two_ipv6_addresses_in_one_64_share_one_count_at_both_doors() -> None:
    # a host is given a /64 and may take any address in it: a new one per try is no new client
    attempts = SignInAttempts()
    for door in ("director", "player"):
        for number in range(LIMIT):
            attempts.failed(door, f"2001:db8:1:2::{number + 1:x}", NOW)
        assert attempts.wait(door, "2001:db8:1:2:ffff:ffff:ffff:ffff", NOW) > 0
        # the next /64 is another client
        assert attempts.wait(door, "2001:db8:1:3::1", NOW) == 0
    # IPv4 addresses stay one client each
    for _ in range(LIMIT):
        attempts.failed("player", "192.0.2.1", NOW)
    assert attempts.wait("player", "192.0.2.2", NOW) == 0
