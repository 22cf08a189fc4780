"""The composition root: builds the event store, the read models and the use cases once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from domain.events import DomainEvent
from projections.runner import EventSource, Projection, Views
from service.clock import Clock, MovableClock, SystemClock
from service.settings import Settings
from service.store import EventStore, persistence_environment


class StoreEventSource(EventSource):
    """Reads the event store's notification log for the projections."""

    def __init__(self, store: EventStore) -> None:
        self._store = store

    def read(self, after: int, limit: int) -> Sequence[tuple[int, DomainEvent]]:
        return list(self._store.iter_decoded(after, limit))


@dataclass
class Services:
    """Everything a request or a scheduled job needs, built from one ``Settings``."""

    settings: Settings
    clock: Clock
    store: EventStore
    views: Views
    extras: dict[str, object] = field(default_factory=dict)

    def close(self) -> None:
        self.views.close()
        self.store.close()


def build_clock(settings: Settings) -> Clock:
    return MovableClock(settings.start_time) if settings.dev else SystemClock()


def projections() -> list[Projection]:
    """Every read model the service keeps (one module each in ``projections/``)."""
    return []


def bootstrap(settings: Settings, clock: Clock | None = None) -> Services:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    store = EventStore(env=persistence_environment(settings.event_store_url))
    views = Views(settings.views_path, StoreEventSource(store), projections())
    views.catch_up()
    return Services(
        settings=settings, clock=clock or build_clock(settings), store=store, views=views
    )
