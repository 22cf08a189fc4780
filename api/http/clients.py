"""Who a request comes from: the peer's address, or the address a trusted proxy forwarded.

The anonymous rate limit and the caps on live streams count per client with this one function.
``X-Forwarded-For`` is a claim anyone can send; only a configured reverse proxy's claim is
believed (``BGTD_TRUSTED_PROXIES``, none by default), else a client would escape every limit
by sending a new address with each request.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from litestar.connection import ASGIConnection

from service.settings import IPNetwork, trusted_networks

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_IPV4_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")
UNKNOWN = "unknown"
"""The client of a connection without a peer address (a Unix socket): they count as one."""


def _address(host: str) -> IPAddress | None:
    """``host`` as an IP address (an IPv4-mapped IPv6 address as IPv4), or None."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _unmapped(network: IPNetwork) -> IPNetwork:
    """An IPv4-mapped IPv6 network as the IPv4 one: addresses are compared unmapped."""
    if isinstance(network, ipaddress.IPv6Network) and network.subnet_of(_IPV4_MAPPED):
        mapped = int(network.network_address) & 0xFFFF_FFFF
        return ipaddress.IPv4Network((mapped, network.prefixlen - 96))
    return network


def _host(entry: str) -> str:
    """An ``X-Forwarded-For`` entry without a port: ``1.2.3.4:80`` and ``[::1]:80`` occur."""
    entry = entry.strip()
    if entry.startswith("[") and "]" in entry:
        return entry[1 : entry.index("]")]
    if entry.count(":") == 1:
        return entry.partition(":")[0]
    return entry


class ClientAddress:
    """The client's address of a request, believing ``X-Forwarded-For`` only from a proxy of
    ``trusted`` (as uvicorn's proxy headers do, so both agree on who the client is)."""

    def __init__(self, trusted: Iterable[str]) -> None:
        self._trusted = tuple(_unmapped(network) for network in trusted_networks(trusted))

    def is_trusted(self, host: str) -> bool:
        address = _address(host)
        return address is not None and any(address in network for network in self._trusted)

    def __call__(self, connection: ASGIConnection[Any, Any, Any, Any]) -> str:
        peer = connection.scope.get("client")
        host = str(peer[0]) if peer else UNKNOWN
        if not self._trusted or not self.is_trusted(host):
            return self._normal(host)
        forwarded = [
            _host(entry)
            for name, value in connection.scope["headers"]
            if name.lower() == b"x-forwarded-for"
            for entry in value.decode("latin-1").split(",")
        ]
        forwarded = [entry for entry in forwarded if entry]
        # each proxy appends the address it heard from: the nearest untrusted one is the client
        # (what lies left of it, that client wrote itself)
        for entry in reversed(forwarded):
            if not self.is_trusted(entry):
                return self._normal(entry)
        # a chain of trusted proxies only: the first one is the client
        return self._normal(forwarded[0]) if forwarded else self._normal(host)

    @staticmethod
    def _normal(host: str) -> str:
        """One spelling per address (``::ffff:10.0.0.1`` is ``10.0.0.1``), one key per client."""
        address = _address(host)
        return str(address) if address is not None else host
