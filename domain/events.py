"""Domain events and aggregate state: immutable msgspec records, folded by pure functions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, ClassVar, TypeVar
from uuid import UUID

import msgspec


class DomainEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A fact about one aggregate, named in the past tense; new fields get defaults."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str | None = None
    """Who caused it: ``director:<name>``, ``player:<id>``, ``public`` or ``scheduler``."""

    class_version: ClassVar[int] = 1


class Aggregate(msgspec.Struct, frozen=True, kw_only=True):
    """State of one aggregate as of its latest event: rebuilt by folding its events."""

    id: UUID
    version: int


class Snapshot(DomainEvent, frozen=True, kw_only=True):
    """An aggregate's state at a version, so that long streams load without a full replay."""

    topic: str
    state: bytes


A = TypeVar("A", bound=Aggregate)
E = TypeVar("E", bound=DomainEvent)

Evolve = Callable[[Any, Any], Any]
"""``evolve(state | None, event) -> state``: the one place where an aggregate's events apply."""


def fold(evolve: Callable[[A | None, E], A], state: A | None, events: Iterable[E]) -> A | None:
    """Apply ``events`` in order to ``state`` (None before the first event)."""
    for event in events:
        state = evolve(state, event)
    return state
