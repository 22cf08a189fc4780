"""Live updates: one poller per process follows the notification log and fans out to listeners.

A listener follows one stream (a tournament or a match, by the aggregate's id). The poller reads
the log once per interval for all of them, and only while anyone listens: hundreds of idle
listeners cost one cheap query per interval, never a query each, and commands never wait for
them. What a change looks like to a listener (its messages) is decided once per batch by a
``Render`` function, so a hundred listeners of one tournament share one rendering.

Messages carry the notification id of the last change they show, so that a reconnecting
listener resumes after the last message it saw (SSE ``Last-Event-ID``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import cast
from uuid import UUID

from domain.events import DomainEvent
from service.storage.events import EventStore

POLL_INTERVAL_SECONDS = 0.25
BATCH_SIZE = 500
QUEUE_SIZE = 256
"""Messages a listener may fall behind by; a slower one is dropped (and may resume)."""
BACKLOG_LIMIT = 20_000
"""How far back in the log a resuming listener is served (notifications). Further back is
never read: a ``Last-Event-ID`` of 0 would otherwise make anyone's reconnect scan the whole log.
The messages show states (the seats, the round, the standings, the match), so the newest of
them tell a listener that missed more what it needs."""


@dataclass(frozen=True, slots=True)
class LiveChange:
    """One stored event of a followed stream; ``event`` is decoded when ``decoded`` wants it."""

    position: int
    """The event's notification id."""
    stream: UUID
    topic: str
    event: DomainEvent | None


@dataclass(frozen=True, slots=True)
class LiveMessage:
    id: int
    """The notification id of the last change the message shows."""
    event: str
    data: str
    """JSON."""


Render = Callable[[UUID, Sequence[LiveChange]], list[LiveMessage]]
"""What one stream's new changes of one batch look like to its listeners (runs in a thread)."""


class _Listener:
    def __init__(self) -> None:
        self.queue: asyncio.Queue[LiveMessage | None] = asyncio.Queue(QUEUE_SIZE)

    def offer(self, message: LiveMessage) -> bool:
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            return False
        return True


class LiveFeed:
    """Follows the notification log for every listener of this process (one poller)."""

    def __init__(
        self,
        store: EventStore,
        render: Render,
        *,
        decoded: Callable[[str], bool] = lambda _: False,
        interval: float = POLL_INTERVAL_SECONDS,
        backlog_limit: int = BACKLOG_LIMIT,
    ) -> None:
        self._store = store
        self._render = render
        self._decoded = decoded
        self._interval = interval
        self._backlog_limit = backlog_limit
        self._listeners: dict[UUID, set[_Listener]] = defaultdict(set)
        self._position: int | None = None
        self._poller: asyncio.Task[None] | None = None

    @property
    def listeners(self) -> int:
        return sum(len(each) for each in self._listeners.values())

    @property
    def is_following(self) -> bool:
        """Whether a poller runs and knows where in the log it stands: what is stored from now
        on reaches the listeners (the feed's own interval, not the service's clock)."""
        return self._position is not None

    async def listen(
        self, stream: UUID, *, after: int | None = None, heartbeat: float = 15.0
    ) -> AsyncIterator[LiveMessage | None]:
        """The messages of ``stream`` from now on (after notification id ``after`` if given);
        ``None`` after ``heartbeat`` seconds without one."""
        listener = _Listener()
        self._listeners[stream].add(listener)
        try:
            self._ensure_poller()
            # what the backlog showed (up to the log's end as it read it) the queue skips;
            # without ``after``, what the log held when the listener came (the poller may
            # still deliver it: it runs behind by an interval, or restarts where it stopped)
            if after is None:
                shown_until = await asyncio.to_thread(self._store.latest_notification_id)
            else:
                backlog, shown_until = await asyncio.to_thread(self._backlog, stream, after)
                for missed in backlog:
                    yield missed
            while True:
                try:
                    message = await asyncio.wait_for(listener.queue.get(), heartbeat)
                except TimeoutError:
                    yield None
                    continue
                if message is None:  # fell behind and was dropped: it may resume
                    return
                if message.id > shown_until:
                    yield message
        finally:
            self._listeners[stream].discard(listener)
            if not self._listeners[stream]:
                del self._listeners[stream]

    def _ensure_poller(self) -> None:
        loop = asyncio.get_running_loop()
        poller = self._poller
        if poller is None or poller.done() or poller.get_loop() is not loop:
            self._poller = loop.create_task(self._poll(), name="live-feed-poller")

    async def _poll(self) -> None:
        if self._position is None:
            self._position = await asyncio.to_thread(self._store.latest_notification_id)
        while self._listeners:
            position = self._position
            streams = set(self._listeners)
            changes, last = await asyncio.to_thread(self._read, position, None, streams)
            self._position = last
            if changes:
                messages = await asyncio.to_thread(self._render_all, changes)
                self._deliver(messages)
            if last - position < BATCH_SIZE:
                await asyncio.sleep(self._interval)
        self._position = None  # the next poller starts at the log's end then, not here

    def _deliver(self, messages: dict[UUID, list[LiveMessage]]) -> None:
        for stream, stream_messages in messages.items():
            for listener in list(self._listeners.get(stream, ())):
                for message in stream_messages:
                    if not listener.offer(message):
                        # too slow: make room for the end-of-stream mark and drop it
                        with contextlib.suppress(asyncio.QueueEmpty):
                            listener.queue.get_nowait()
                        listener.queue.put_nowait(None)
                        self._listeners[stream].discard(listener)
                        break

    def _read(
        self, after: int, until: int | None, streams: set[UUID]
    ) -> tuple[dict[UUID, list[LiveChange]], int]:
        """The changes of ``streams`` in one batch after ``after``, and the batch's last id."""
        changes: dict[UUID, list[LiveChange]] = defaultdict(list)
        notifications = self._store.notifications(after, BATCH_SIZE)
        last = after
        for notification in notifications:
            if until is not None and notification.id > until:
                break
            last = notification.id
            stream = cast(UUID, notification.originator_id)
            if stream not in streams:
                continue
            event = self._store.decode(notification) if self._decoded(notification.topic) else None
            changes[stream].append(LiveChange(notification.id, stream, notification.topic, event))
        return changes, last

    def _render_all(self, changes: dict[UUID, list[LiveChange]]) -> dict[UUID, list[LiveMessage]]:
        return {stream: self._render(stream, each) for stream, each in changes.items()}

    def _backlog(self, stream: UUID, after: int) -> tuple[list[LiveMessage], int]:
        """The messages a listener missed after ``after`` (at most ``backlog_limit``
        notifications back), up to the log's end as of now (the notification id returned with
        them)."""
        until = self._store.latest_notification_id()
        after = max(after, until - self._backlog_limit)
        messages: list[LiveMessage] = []
        while after < until:
            changes, last = self._read(after, until, {stream})
            if last == after:
                break
            after = last
            if changes:
                messages += self._render(stream, changes[stream])
        return messages, until
