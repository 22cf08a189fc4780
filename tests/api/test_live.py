"""Live updates follow the notification log: one message per change, resumable after the last
notification id a listener saw, one poller for every listener (rule P-PUB-1)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast
from uuid import UUID

import pytest

from api.live.streams import live_feed, render_changes
from domain.tournament import Applicant, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.live.feed import LiveFeed, LiveMessage
from service.settings import Settings
from service.shared.match_play import Caller, MatchTerms
from service.storage.events import EventStore

SPRING = TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    settings = Settings(data_dir=tmp_path / "data", dev=True, run_scheduler=False)
    built = bootstrap(settings, MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False))
    yield built
    built.close()


def register(services: Services, tournament_id: UUID, number: int) -> None:
    services.tournaments.register(
        tournament_id,
        Applicant(
            first_name=f"Vorname{number}",
            last_name=f"Nachname{number}",
            email=f"spieler{number}@example.org",
            age=30,
        ),
    )


async def collect(
    feed: LiveFeed,
    stream: UUID,
    count: int,
    after: int | None = None,
    messages: list[LiveMessage] | None = None,
) -> list[LiveMessage]:
    """``count`` messages, each appended to ``messages`` (if given) as it comes."""
    messages = [] if messages is None else messages
    async for message in feed.listen(stream, after=after, heartbeat=5):
        assert message is not None, "no message within the heartbeat"
        messages.append(message)
        if len(messages) == count:
            break
    return messages


async def until(condition: Callable[[], bool], seconds: float = 10) -> None:
    """A real wait: the poller runs on its own interval, which no clock of the service drives."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "it did not happen in time"
        await asyncio.sleep(0.01)


async def listening(
    feed: LiveFeed, stream: UUID, count: int, messages: list[LiveMessage] | None = None
) -> asyncio.Task[list[LiveMessage]]:
    """A listener collecting ``count`` messages, once the feed counts it (or it has ended)."""
    task = asyncio.create_task(collect(feed, stream, count, messages=messages))
    while feed.listeners == 0 and not task.done():
        await asyncio.sleep(0.01)
    return task


def test_each_registration_reaches_a_listener_as_the_seats_without_personal_data(
    services: Services,
) -> None:
    tournament_id = services.tournaments.schedule_tournament(SPRING).id
    feed = live_feed(services)

    async def scenario() -> list[LiveMessage]:
        received: list[LiveMessage] = []
        listener = await listening(feed, tournament_id, 2, received)
        await until(lambda: feed.is_following)  # the poller stands at the log's end
        await asyncio.to_thread(register, services, tournament_id, 1)
        # the second registration only once the first one's message came: a poll of the log
        # that found both (a poller late by 50 ms on a busy machine) makes one message of them
        while not received and not listener.done():
            await asyncio.sleep(0.01)
        await asyncio.to_thread(register, services, tournament_id, 2)
        return await asyncio.wait_for(listener, 10)

    messages = asyncio.run(scenario())
    assert [m.event for m in messages] == ["seats", "seats"]
    assert [json.loads(m.data)["free"] for m in messages] == [19, 18]
    assert messages[0].id < messages[1].id
    assert all("Nachname" not in m.data and "@" not in m.data for m in messages)
    assert feed.listeners == 0


def test_a_new_listener_gets_no_change_from_before_it_came(services: Services) -> None:
    tournament_id = services.tournaments.schedule_tournament(SPRING).id
    feed = live_feed(services)

    async def scenario() -> list[LiveMessage]:
        first = await listening(feed, tournament_id, 1)
        await until(lambda: feed.is_following)  # the poller stands at the log's end
        await asyncio.to_thread(register, services, tournament_id, 1)
        await asyncio.wait_for(first, 10)  # the last listener leaves: the poller stops
        await until(lambda: not feed.is_following)
        await asyncio.to_thread(register, services, tournament_id, 2)  # nobody listens
        later = await listening(feed, tournament_id, 1)
        # the poller came back at the log's end; a page drawn now shows 18 free seats
        await until(lambda: feed.is_following)
        await asyncio.to_thread(register, services, tournament_id, 3)
        return await asyncio.wait_for(later, 10)

    messages = asyncio.run(scenario())
    # only the change after it came, not the registration nobody listened to
    assert [(m.event, json.loads(m.data)["free"]) for m in messages] == [("seats", 17)]


def test_a_listener_resumes_after_the_last_id_it_saw(services: Services) -> None:
    tournament_id = services.tournaments.schedule_tournament(SPRING).id
    register(services, tournament_id, 1)
    seen = services.store.latest_notification_id()
    register(services, tournament_id, 2)
    register(services, tournament_id, 3)
    feed = live_feed(services)
    messages = asyncio.run(collect(feed, tournament_id, 1, after=seen))
    # what was missed comes as one message: the seats after both registrations
    assert [(m.event, json.loads(m.data)["free"]) for m in messages] == [("seats", 17)]
    assert messages[0].id == services.store.latest_notification_id()


def test_a_listener_of_a_match_gets_its_state_after_every_command(services: Services) -> None:
    created = services.matches.create(
        MatchTerms(player_a="Anna", player_b="Ben", match_length=3)
    ).match
    feed = live_feed(services)
    seen = services.store.latest_notification_id()
    services.matches.roll(created.id, Caller(director=True), dice=(6, 5))
    messages = asyncio.run(collect(feed, created.id, 1, after=seen))
    state = json.loads(messages[0].data)
    assert messages[0].event == "state"
    assert state["id"] == str(created.id)
    assert state["phase"] == "move"


class ReadsOfTheLog:
    """The store as the feed sees it, noting where each read of the log starts."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.starts: list[int] = []

    def notifications(self, after: int, limit: int) -> Any:
        self.starts.append(after)
        return self.store.notifications(after, limit)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def test_a_listener_resuming_from_the_logs_start_reads_only_its_recent_part(
    services: Services,
) -> None:
    # a Last-Event-ID of 0 must not make anyone's reconnect read the whole log; the messages
    # show states (here the match's), so the newest part tells the listener what it needs
    created = services.matches.create(
        MatchTerms(player_a="Anna", player_b="Ben", match_length=3)
    ).match
    services.matches.roll(created.id, Caller(director=True), dice=(6, 5))
    latest = services.store.latest_notification_id()
    reads = ReadsOfTheLog(services.store)
    feed = LiveFeed(
        cast(EventStore, reads),
        lambda stream, changes: render_changes(services, stream, changes),
        backlog_limit=1,
    )

    [message] = asyncio.run(collect(feed, created.id, 1, after=0))

    assert reads.starts[0] == latest - 1
    assert message.id == latest
    assert json.loads(message.data)["phase"] == "move"
