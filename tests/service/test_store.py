"""The event store on SQLite and PostgreSQL: append, load, versions, snapshots, the log."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from uuid import UUID, uuid4

import pytest
from eventsourcing.utils import resolve_topic

from domain.events import Aggregate, DomainEvent
from domain.evidence import dispute, video
from domain.people import director, erasure
from domain.seasons import season
from service.storage.events import (
    EventStore,
    Guess,
    StaleVersionError,
    StateCache,
    UnknownAggregateError,
)
from service.storage.persistence import DurableWalConnectionPool, persistence_environment

NOW = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)


class CounterStarted(DomainEvent, frozen=True, kw_only=True):
    name: str


class CounterIncreased(DomainEvent, frozen=True, kw_only=True):
    by: int
    tags: tuple[str, ...] = ()


class Counter(Aggregate, frozen=True, kw_only=True):
    name: str
    total: int


def evolve(state: Counter | None, event: DomainEvent) -> Counter:
    match event:
        case CounterStarted(name=name):
            return Counter(
                id=event.originator_id, version=event.originator_version, name=name, total=0
            )
        case CounterIncreased(by=by) if state is not None:
            return Counter(
                id=state.id,
                version=event.originator_version,
                name=state.name,
                total=state.total + by,
            )
    raise AssertionError(f"unexpected {event!r}")


def increase(counter: Counter, by: int) -> CounterIncreased:
    return CounterIncreased(
        originator_id=counter.id,
        originator_version=counter.version + 1,
        timestamp=NOW,
        by=by,
        tags=("x",),
    )


@pytest.fixture
def store(tmp_path: Path, database_url: str | None) -> Iterator[EventStore]:
    url = database_url or f"sqlite:///{tmp_path / 'events.sqlite3'}"
    event_store = EventStore(env=persistence_environment(url))
    yield event_store
    event_store.close()


def start(store: EventStore) -> UUID:
    counter_id = uuid4()
    store.append(
        CounterStarted(originator_id=counter_id, originator_version=1, timestamp=NOW, name="c")
    )
    return counter_id


def test_events_come_back_with_their_exact_types(store: EventStore) -> None:
    counter_id = start(store)
    counter = store.load(counter_id, evolve)
    store.append(increase(counter, 5))
    events = store.stream(counter_id)
    assert [type(event) for event in events] == [CounterStarted, CounterIncreased]
    assert events[1].tags == ("x",)
    assert events[1].timestamp == NOW
    assert isinstance(events[1].originator_id, UUID)


def test_an_aggregate_loads_at_any_version(store: EventStore) -> None:
    counter_id = start(store)
    for by in (1, 2, 3):
        store.append(increase(store.load(counter_id, evolve), by))
    assert store.load(counter_id, evolve).total == 6
    assert store.load(counter_id, evolve, version=2).total == 1
    assert store.load(counter_id, evolve, version=3).total == 3


def test_a_stale_version_is_refused_and_nothing_is_stored(store: EventStore) -> None:
    counter_id = start(store)
    counter = store.load(counter_id, evolve)
    store.append(increase(counter, 1))
    with pytest.raises(StaleVersionError):
        store.append(increase(counter, 100))
    assert store.load(counter_id, evolve).total == 1
    assert len(store.stream(counter_id)) == 2


def test_an_unknown_id_is_a_not_found_error(store: EventStore) -> None:
    with pytest.raises(UnknownAggregateError):
        store.load(uuid4(), evolve)


def test_snapshots_give_the_same_state_as_a_full_replay(store: EventStore) -> None:
    counter_id = start(store)
    for _ in range(store.snapshot_interval + 5):
        counter = store.load(counter_id, evolve)
        store.append(increase(counter, 1))
        store.snapshot_if_due(store.load(counter_id, evolve), NOW)
    assert store.snapshots is not None
    assert list(store.snapshots.get(counter_id))
    fresh = EventStore(env=store.env)
    try:
        assert fresh.load(counter_id, evolve) == store.load(counter_id, evolve)
        assert fresh.load(counter_id, evolve).total == store.snapshot_interval + 5
        assert fresh.load(counter_id, evolve, version=50).total == 49
    finally:
        fresh.close()


def test_the_notification_log_lists_events_in_commit_order(store: EventStore) -> None:
    first, second = start(store), start(store)
    store.append(increase(store.load(first, evolve), 1))
    decoded = list(store.iter_decoded(0, 10))
    assert [event.originator_id if event else None for _, event in decoded] == [
        first,
        second,
        first,
    ]
    assert [nid for nid, _ in decoded] == sorted(nid for nid, _ in decoded)
    assert list(store.iter_decoded(decoded[1][0], 10)) == decoded[2:]


def test_database_urls_choose_the_persistence_module() -> None:
    assert (
        persistence_environment("sqlite:///data/events.sqlite3")["SQLITE_DBNAME"]
        == "data/events.sqlite3"
    )
    postgres = persistence_environment("postgresql://bob:secret@db.local:5433/club?schema=s1")
    assert postgres["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (postgres["POSTGRES_HOST"], postgres["POSTGRES_PORT"]) == ("db.local", "5433")
    assert (postgres["POSTGRES_USER"], postgres["POSTGRES_PASSWORD"]) == ("bob", "secret")
    assert (postgres["POSTGRES_DBNAME"], postgres["POSTGRES_SCHEMA"]) == ("club", "s1")
    with pytest.raises(ValueError, match="unsupported"):
        persistence_environment("mysql://x")


def test_after_losing_a_race_the_next_load_reads_the_winners_events(store: EventStore) -> None:
    counter_id = start(store)
    stale = store.load(counter_id, evolve)  # now cached
    other_process = EventStore(env=store.env)
    try:
        other_process.append(increase(other_process.load(counter_id, evolve), 10))
    finally:
        other_process.close()
    with pytest.raises(StaleVersionError):
        store.append(increase(stale, 1))
    assert store.load(counter_id, evolve).total == 10


def test_the_state_given_with_an_append_is_what_the_next_load_returns(store: EventStore) -> None:
    counter_id = start(store)
    counter = store.load(counter_id, evolve)
    event = increase(counter, 4)
    after = evolve(counter, event)
    store.append(event, state=after)
    assert store.load(counter_id, evolve) is after


def test_a_slow_load_cannot_put_back_a_state_an_append_superseded() -> None:
    cache = StateCache(maxsize=10)
    counter_id = uuid4()
    old = Counter(id=counter_id, version=1, name="c", total=0)
    cache.supersede(counter_id, 2)  # an append stored version 2 without giving its state
    cache.offer(old)  # a load that read version 1 before the append finishes late
    assert cache.get(counter_id) is None
    new = Counter(id=counter_id, version=2, name="c", total=5)
    cache.offer(new)
    assert cache.get(counter_id) is new


def test_a_superseded_state_stays_as_the_base_a_load_brings_forward() -> None:
    cache = StateCache(maxsize=10)
    counter = Counter(id=uuid4(), version=3, name="c", total=7)
    cache.offer(counter)
    cache.supersede(counter.id, 5)  # another process stored versions 4 and 5
    assert cache.get(counter.id) is None  # never answered as the latest
    assert cache.base(counter.id) is counter  # but read on from, not reloaded whole


def test_a_guessing_load_answers_the_cached_state_and_says_so_only_on_a_shared_store(
    store: EventStore,
) -> None:
    counter_id = start(store)
    cached = store.load(counter_id, evolve)
    with store.guessing(Guess()) as guess:
        guessed = store.load(counter_id, evolve)
    assert guessed is cached
    # an SQLite store has one writing process: its cache is what is stored, nothing is guessed
    assert guess.trusted is store.is_shared


def test_the_state_cache_keeps_the_most_recently_used_states() -> None:
    cache = StateCache(maxsize=2)
    first, second, third = (Counter(id=uuid4(), version=1, name=n, total=0) for n in "abc")
    cache.offer(first)
    cache.offer(second)
    assert cache.get(first.id) is first
    cache.offer(third)
    assert cache.get(second.id) is None
    assert cache.get(first.id) is first
    assert cache.get(third.id) is third


def test_only_the_latest_snapshot_of_an_aggregate_is_kept(store: EventStore) -> None:
    # Loads read the latest snapshot only: older ones would grow the store quadratically.
    counter_id = start(store)
    for _ in range(3 * store.snapshot_interval + 5):
        counter = store.load(counter_id, evolve)
        store.append(increase(counter, 1))
        store.snapshot_if_due(store.load(counter_id, evolve), NOW)
    assert store.snapshots is not None
    kept = [snapshot.originator_version for snapshot in store.snapshots.get(counter_id)]
    assert kept == [3 * store.snapshot_interval]
    fresh = EventStore(env=store.env)
    try:
        assert fresh.load(counter_id, evolve).total == 3 * store.snapshot_interval + 5
        assert fresh.load(counter_id, evolve, version=150).total == 149
    finally:
        fresh.close()


def test_a_snapshot_stored_under_the_old_module_name_still_loads(tmp_path: Path) -> None:
    """Snapshots name their record by module: ``service.store`` before the storage package."""
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    store = EventStore(env=persistence_environment(url))
    counter_id = start(store)
    for _ in range(store.snapshot_interval + 2):
        store.append(increase(store.load(counter_id, evolve), 1))
    store.snapshot_if_due(store.load(counter_id, evolve, version=store.snapshot_interval), NOW)
    store.close()
    with sqlite3.connect(tmp_path / "events.sqlite3") as db:
        renamed = db.execute(
            "UPDATE stored_snapshots SET topic = 'service.store:Snapshot'"
            " WHERE topic LIKE '%:Snapshot'"
        ).rowcount
    assert renamed == 1
    fresh = EventStore(env=store.env)
    try:
        assert fresh.load(counter_id, evolve).total == store.snapshot_interval + 2
    finally:
        fresh.close()


def test_a_season_stored_under_its_old_module_name_still_loads(tmp_path: Path) -> None:
    """The small aggregates lived at the domain's root (``domain.season``) before
    ``domain.seasons``: their events and snapshots keep the old topics and must still load."""
    url = f"sqlite:///{tmp_path / 'events.sqlite3'}"
    store = EventStore(env=persistence_environment(url))
    season_id = uuid4()
    store.append(
        *season.create_season(
            season_id,
            name="Summer",
            starts_on="2026-05-01",
            ends_on="2026-08-31",
            now=NOW,
            actor="director",
        )
    )
    state = store.load(season_id, season.evolve)
    for _ in range(store.snapshot_interval - 1):  # the 100th event is snapshotted
        store.append(
            *season.ban(
                state,
                player_id=uuid4(),
                reason="no show",
                revoke_points=False,
                now=NOW,
                actor="director",
            )
        )
        state = store.load(season_id, season.evolve)
    store.snapshot_if_due(state, NOW)
    store.close()
    with sqlite3.connect(tmp_path / "events.sqlite3") as db:
        events = db.execute(
            "UPDATE stored_events SET topic = replace(topic, 'domain.seasons.season:',"
            " 'domain.season:')"
        ).rowcount
        snapshots = db.execute(
            "UPDATE stored_snapshots SET state = CAST(replace(CAST(state AS TEXT),"
            " 'domain.seasons.season:', 'domain.season:') AS BLOB) WHERE topic LIKE '%:Snapshot'"
        ).rowcount
    assert (events, snapshots) == (store.snapshot_interval, 1)
    fresh = EventStore(env=store.env)
    try:
        loaded = fresh.load(season_id, season.evolve)
        assert (loaded.name, len(loaded.banned)) == ("Summer", store.snapshot_interval - 1)
        assert fresh.load(season_id, season.evolve, version=1).banned == frozenset()
    finally:
        fresh.close()


@pytest.mark.parametrize(
    ("old_module", "module"),
    [
        ("domain.people", erasure),
        ("domain.director", director),
        ("domain.dispute", dispute),
        ("domain.video", video),
        ("domain.season", season),
    ],
)
def test_every_moved_event_and_aggregate_resolves_from_its_old_topic(
    old_module: str, module: ModuleType
) -> None:
    records = [
        kind
        for kind in vars(module).values()
        if isinstance(kind, type)
        and issubclass(kind, (DomainEvent, Aggregate))
        and kind.__module__ == module.__name__
    ]
    assert records
    for kind in records:
        assert resolve_topic(f"{old_module}:{kind.__name__}") is kind


def test_the_sqlite_pool_issues_the_connection_returned_last(tmp_path: Path) -> None:
    # A connection's page cache holds only while no other connection wrote: taking two pooled
    # connections in turn made every command reread the pages the other had written.
    pool = DurableWalConnectionPool(db_name=str(tmp_path / "events.sqlite3"))
    try:
        first, second = pool.get_connection(), pool.get_connection()
        pool.put_connection(first)
        pool.put_connection(second)
        assert pool.get_connection() is second
    finally:
        pool.close()
