"""A limit on failed sign-ins: the console's (a director token) and the personal link's (a
player token), per client address.

Tokens are long and random, so guessing one is hopeless; the limit keeps it so, and keeps a
script from filling the log and the machine with tries. After ``LIMIT`` failures within
``WINDOW`` a client is refused (429) until its oldest failure leaves the window. At the
director's door even a right token is refused then (a guesser learns nothing from the answer;
a self-chosen bootstrap token may be weak and relies on it). At the player's door a right
token always signs in: player tokens are long random values, and the players of a venue share
one address (its Wi-Fi's), so a few wrong tries must not lock them all out. An IPv6 client is
its /64 (one host's share of a network: rotating addresses within it makes no new client).
The count is per process, in memory: a restart forgets it, which costs a guesser nothing they
could use. The clock is an argument.
"""

from __future__ import annotations

import ipaddress
import threading
from collections import deque
from datetime import datetime, timedelta
from typing import Literal

LIMIT = 5
WINDOW = timedelta(minutes=1)
MAX_CLIENTS = 10_000
"""Clients remembered at most: beyond, the oldest record goes (a flood of addresses cannot
fill the memory)."""
Door = Literal["director", "player"]
IPV6_CLIENT_PREFIX = 64
"""An IPv6 client is counted by its network of this length: a host is usually given a /64 and
may take any address in it."""


def _counted_as(client: str) -> str:
    """The key ``client`` is counted under: an IPv6 address its /64, anything else itself."""
    try:
        address = ipaddress.ip_address(client)
    except ValueError:
        return client
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((address, IPV6_CLIENT_PREFIX), strict=False))
    return client


class SignInAttempts:
    """The failed sign-ins of the last minute, per door and client address."""

    def __init__(self, limit: int = LIMIT, window: timedelta = WINDOW) -> None:
        self._limit = limit
        self._window = window
        self._failures: dict[tuple[Door, str], deque[datetime]] = {}
        self._lock = threading.Lock()

    def wait(self, door: Door, client: str, now: datetime) -> int:
        """Seconds ``client`` must wait before the next try at ``door`` (0: try now)."""
        with self._lock:
            failures = self._recent((door, _counted_as(client)), now)
            if len(failures) < self._limit:
                return 0
            return max(1, int((failures[0] + self._window - now).total_seconds()) + 1)

    def failed(self, door: Door, client: str, now: datetime) -> None:
        """Record a failed sign-in of ``client`` at ``door``."""
        with self._lock:
            key = (door, _counted_as(client))
            failures = self._recent(key, now)
            failures.append(now)
            self._failures[key] = failures
            if len(self._failures) > MAX_CLIENTS:
                del self._failures[next(iter(self._failures))]

    def _recent(self, key: tuple[Door, str], now: datetime) -> deque[datetime]:
        failures = self._failures.pop(key, deque())
        while failures and failures[0] <= now - self._window:
            failures.popleft()
        if failures:
            self._failures[key] = failures  # again the newest entry
        return failures
