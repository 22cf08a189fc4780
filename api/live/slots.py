"""Caps on the live streams (SSE) a process holds open: per client address and in total.

An idle listener costs the process's one poller nothing, but it holds a socket, and a process
may hold only so many open files (``RLIMIT_NOFILE``): about a thousand idle listeners took them
all, and the service could accept no other request, not even ``/health``. So each stream takes
a slot before it starts and gives it back when it ends, however it ends (the client went, the
feed dropped it, the service stops). Beyond the cap a client is told when to try again:
429 when its own address holds too many (a venue's phones may share one address behind the
router, so the default allows a few dozen), 503 when the process holds as many as it may.
"""

from __future__ import annotations

import logging
import resource
import threading
from collections import Counter

from litestar.exceptions import ServiceUnavailableException, TooManyRequestsException

RETRY_AFTER_SECONDS = 30
"""When a refused listener should try again: streams end as people put their phones away."""
FILE_SHARE = 2
"""Live streams may use at most 1/``FILE_SHARE`` of the open-file limit: the rest stays for
ordinary requests, the databases' files and connections, mail and the analysis subprocesses."""
log = logging.getLogger("bgtd.api")


class TooManyClientStreamsError(TooManyRequestsException):
    """A client address already holds as many live streams as one may (429)."""

    type_slug = "too-many-live-streams"


class LiveStreamsFullError(ServiceUnavailableException):
    """The process already holds as many live streams as it may (503)."""

    type_slug = "live-streams-full"


class LiveStreamSlots:
    """The open live streams of the process, counted per client address; thread-safe (a
    stream's handler takes a slot in a worker thread, its end gives it back in the loop)."""

    def __init__(self, *, per_client: int, total: int) -> None:
        self.per_client = per_client
        self.total = total
        self._lock = threading.Lock()
        self._open: Counter[str] = Counter()
        self._count = 0

    @property
    def open(self) -> int:
        return self._count

    def open_of(self, client: str) -> int:
        return self._open[client]

    def take(self, client: str) -> StreamSlot:
        """A slot for one more stream of ``client``, or the refusal to send."""
        retry = {"Retry-After": str(RETRY_AFTER_SECONDS)}
        with self._lock:
            if self._open[client] >= self.per_client:
                raise TooManyClientStreamsError(
                    detail=f"this address holds {self.per_client} live streams already, the "
                    "most one client may hold: close one, or try again later",
                    headers=retry,
                )
            if self._count >= self.total:
                raise LiveStreamsFullError(
                    detail=f"the service holds {self.total} live streams, the most it can: "
                    "try again later",
                    headers=retry,
                )
            self._open[client] += 1
            self._count += 1
        return StreamSlot(self, client)

    def _give_back(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]
            self._count -= 1


class StreamSlot:
    """One open stream's place; giving it back twice gives it back once."""

    def __init__(self, slots: LiveStreamSlots, client: str) -> None:
        self._slots = slots
        self._client = client
        self._held = True
        self._lock = threading.Lock()

    def release(self) -> None:
        with self._lock:
            if not self._held:
                return
            self._held = False
        self._slots._give_back(self._client)

    async def aclose(self) -> None:
        """``release`` as a coroutine: Litestar runs a plain function of a response's
        background task in a worker thread, a hand-off for a counter."""
        self.release()


def raise_open_file_limit() -> int | None:
    """Raise the soft limit of open files to the hard one (a process may, unprivileged), so
    that the streams' cap need not be low; the limit now, or None for no limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # a sandbox may refuse: the soft limit stays
            return soft
        return hard
    return None if soft == resource.RLIM_INFINITY else soft


def stream_cap(wanted: int) -> int:
    """The process's cap on live streams: ``wanted``, lowered to its share of the open-file
    limit (with a warning, so that an operator knows to raise the limit)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    room = max(1, soft // FILE_SHARE)
    if wanted > room:
        log.warning(
            "live streams capped at %d, not %d: the process may open %d files (ulimit -n) "
            "and streams may use half of them",
            room,
            wanted,
            soft,
        )
        return room
    return wanted
