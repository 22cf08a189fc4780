"""Service settings: command-line options over environment variables over defaults."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

import msgspec

DEV_DIRECTOR_TOKEN = "dev-director-token"
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

LOCAL_HOSTS = frozenset({"127.0.0.1", "::1", "localhost", "0.0.0.0", "::", ""})
"""Hosts whose public address is ``localhost``: the loopback, and every interface (whose
address on the venue's network the service cannot know: set ``BGTD_PUBLIC_URL``)."""


class Settings(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the composition root needs to build a running service."""

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("data")
    evidence_dir: Path | None = None
    """Where recordings live, the only files the service deletes (rule C-VIDEO-1); ``None``
    means ``data_dir/evidence``."""
    database_url: str | None = None
    """Event store URL; ``None`` means SQLite in ``data_dir`` (``postgresql://...`` to scale)."""
    dev: bool = False
    """Movable clock and a default director token, for demonstrations and tests."""
    start_time: datetime | None = None
    """With ``dev``: the instant the clock starts at (default: the real time at start)."""
    director_token: str | None = None
    timezone: str = "Europe/Berlin"
    """rule CAL-3: deadlines are wall-clock times of the club's time zone."""
    run_scheduler: bool = True
    registration_rate_limit: int = 10
    """Anonymous registrations a client may send per minute (0: no limit); the director's
    token is exempt."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks (CIDR) of the reverse proxies in front: only their
    ``X-Forwarded-For`` names the client (for the rate limit and the live caps). None by
    default: the connection's peer is the client, whatever a request claims."""
    live_streams_per_client: Annotated[int, msgspec.Meta(ge=1)] = 50
    """Live streams (SSE) one client address may hold open: a venue's phones often share one
    address behind its router, so a few dozen."""
    live_streams_total: Annotated[int, msgspec.Meta(ge=1)] = 1000
    """Live streams the process holds open at most; the service lowers it to half its limit of
    open files (each stream holds a socket)."""
    secret_key: str | None = None
    """Seals server dice seeds and keys player ids; default a key file in ``data_dir``.
    Processes sharing one PostgreSQL store must share it (``BGTD_SECRET_KEY``)."""
    public_url: str | None = None
    """Where players' phones reach the service: the base of the tables' QR codes and of the
    links in mails; by default the host and port served (``effective_public_url``)."""
    smtp_url: str | None = None
    """``smtp://host:port``, ``smtp+starttls://user:password@host:587`` or
    ``smtps://user:password@host:465``; without it mails go to ``data_dir/outbox/*.eml``."""
    mail_from: str = "bgtd <bgtd@localhost>"
    """The sender of the outbox's mails (rule P-MAIL-1)."""
    analysis: bool = True
    """rule A-ANALYSIS-1: GNU Backgammon analyses each ended match (``BGTD_ANALYSIS=off`` turns
    it off, for tests and small machines)."""
    gnubg: str | None = None
    """The gnubg program (``BGTD_GNUBG``); by default ``gnubg`` on PATH, then
    ``/usr/games/gnubg``, where the Debian package puts it."""
    analysis_timeout_seconds: Annotated[float, msgspec.Meta(gt=0)] = 300.0
    """How long one analysis may run before it is recorded as failed."""
    access_log: bool = False
    """uvicorn's line per request: off by default, since the reverse proxy in front usually
    logs requests and the line costs a command about 4 % of its CPU (every change is an event
    anyway, with who made it, in the audit stream)."""

    def __post_init__(self) -> None:
        trusted_networks(self.trusted_proxies)  # a mistyped proxy refuses to start

    @classmethod
    def from_environment(cls, **overrides: object) -> Settings:
        """Read ``BGTD_*`` variables, then apply explicit ``overrides`` (None means unset)."""
        values: dict[str, object] = {}
        environment: dict[str, tuple[str, Callable[[str], object]]] = {
            "data_dir": ("BGTD_DATA_DIR", Path),
            "evidence_dir": ("BGTD_EVIDENCE_DIR", Path),
            "database_url": ("BGTD_DATABASE_URL", str),
            "director_token": ("BGTD_DIRECTOR_TOKEN", str),
            "timezone": ("BGTD_TIMEZONE", str),
            "secret_key": ("BGTD_SECRET_KEY", str),
            "registration_rate_limit": ("BGTD_REGISTRATION_RATE_LIMIT", int),
            "trusted_proxies": ("BGTD_TRUSTED_PROXIES", _items),
            "live_streams_per_client": ("BGTD_LIVE_STREAMS_PER_CLIENT", int),
            "live_streams_total": ("BGTD_LIVE_STREAMS_TOTAL", int),
            "public_url": ("BGTD_PUBLIC_URL", str),
            "smtp_url": ("BGTD_SMTP_URL", str),
            "mail_from": ("BGTD_MAIL_FROM", str),
            "access_log": ("BGTD_ACCESS_LOG", _yes),
            "analysis": ("BGTD_ANALYSIS", _not_off),
            "gnubg": ("BGTD_GNUBG", str),
        }
        for field, (variable, convert) in environment.items():
            if os.environ.get(variable):
                values[field] = convert(os.environ[variable])
        values.update({key: value for key, value in overrides.items() if value is not None})
        return msgspec.convert(values, cls, strict=False)

    @property
    def event_store_url(self) -> str:
        return self.database_url or f"sqlite:///{quote(str(self.data_dir / 'events.sqlite3'))}"

    @property
    def views_path(self) -> Path:
        """Read models live beside the service, rebuilt from the event store when missing."""
        return self.data_dir / "views.sqlite3"

    @property
    def ended_sessions_path(self) -> Path:
        """The console's and the table page's sessions ended by a sign-out, beside an SQLite
        store."""
        return self.data_dir / "ended_sessions.sqlite"

    @property
    def idempotency_path(self) -> Path:
        """The kept answers to idempotent requests, beside an SQLite store."""
        return self.data_dir / "idempotency.sqlite"

    @property
    def evidence_path(self) -> Path:
        return self.evidence_dir or self.data_dir / "evidence"

    @property
    def effective_public_url(self) -> str:
        """``public_url``, else the address served: ``--port 8080`` links to port 8080."""
        if self.public_url:
            return self.public_url
        host = "localhost" if self.host in LOCAL_HOSTS else self.host
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}"

    @property
    def effective_director_token(self) -> str | None:
        if self.director_token:
            return self.director_token
        return DEV_DIRECTOR_TOKEN if self.dev else None


MIN_TRUSTED_PREFIX = {4: 8, 6: 32}
"""The widest network ``BGTD_TRUSTED_PROXIES`` accepts, per IP version. A proxy's network is
a site's (``10.0.0.0/8`` at most, an IPv6 site gets a /48): a wider one, down to ``0.0.0.0/0``
or ``::/0``, would trust any peer's ``X-Forwarded-For`` and give every client a fresh limit
with each request. An IPv4-mapped IPv6 network (``::ffff:0:0/96``) counts as the IPv4 one."""


def trusted_networks(entries: Iterable[str]) -> tuple[IPNetwork, ...]:
    """The networks of ``BGTD_TRUSTED_PROXIES`` entries (``10.0.0.5``, ``10.0.0.0/24``,
    ``::1``); a ``ValueError`` names an entry that is neither an address nor a network, or a
    network wider than ``MIN_TRUSTED_PREFIX`` (no wildcard: trusting everyone is trusting any
    client's claim)."""
    networks = []
    for entry in entries:
        try:
            network = ipaddress.ip_network(entry.strip(), strict=False)
        except ValueError:
            raise ValueError(
                f"BGTD_TRUSTED_PROXIES: {entry!r} is neither an IP address nor a network "
                "(CIDR, e.g. 10.0.0.0/24)"
            ) from None
        version, prefix = _prefix(network)
        if prefix < MIN_TRUSTED_PREFIX[version]:
            raise ValueError(
                f"BGTD_TRUSTED_PROXIES: {entry!r} is too wide a network (IPv{version} at least "
                f"/{MIN_TRUSTED_PREFIX[version]}): it would believe any client's "
                "X-Forwarded-For; name the reverse proxies' own addresses or network"
            )
        networks.append(network)
    return tuple(networks)


_IPV4_MAPPED = ipaddress.IPv6Network("::ffff:0:0/96")


def _prefix(network: IPNetwork) -> tuple[int, int]:
    """The IP version and prefix length that decide: an IPv4-mapped network's IPv4 ones
    (peers on a dual-stack socket are compared unmapped)."""
    if isinstance(network, ipaddress.IPv6Network) and network.subnet_of(_IPV4_MAPPED):
        return 4, network.prefixlen - 96
    return network.version, network.prefixlen


def _items(value: str) -> tuple[str, ...]:
    """A comma-separated list: ``10.0.0.5, 10.1.0.0/16``."""
    return tuple(item.strip() for item in value.split(",") if item.strip())


def _yes(value: str) -> bool:
    """An environment variable's truth: 1, true, yes or on (any case)."""
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _not_off(value: str) -> bool:
    """A switch that is on unless set to 0, false, no or off (any case)."""
    return value.strip().lower() not in {"0", "false", "no", "off"}
