"""Domain events and aggregate state: immutable msgspec records, folded by pure functions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, Generic, Self, TypeVar
from uuid import UUID

import msgspec


class DomainEvent(msgspec.Struct, frozen=True, kw_only=True):
    """A fact about one aggregate, named in the past tense.

    Versioning: a field added later gets a default, so that stored events still decode; a
    change of meaning is a new event type.
    """

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str | None = None
    """Who caused it: ``DIRECTOR``, ``player:<id or name>`` or ``public``."""


DIRECTOR = "director"
"""The actor of a director's command (the director token carries no name yet, rule C-DIR-1)."""
SCHEDULER = "scheduler"
"""The actor of what a deadline caused (a scheduled job's command)."""


class Aggregate(msgspec.Struct, frozen=True, kw_only=True):
    """State of one aggregate as of its latest event: rebuilt by folding its events."""

    id: UUID
    version: int


A = TypeVar("A", bound=Aggregate)
E = TypeVar("E", bound=DomainEvent)


class EventBatch(Generic[E]):
    """The new events of one command, numbered on from the version they follow."""

    # Every event repeats its stream, its place in it, the time and the actor. One place fills
    # them in, so that a command's versions run on without a gap or a repeat: the store refuses
    # a version it holds already, and a replay applies the events in version order.

    def __init__(self, originator_id: UUID, version: int, now: datetime, actor: str | None) -> None:
        self.originator_id = originator_id
        self.version = version
        self.now = now
        self.actor = actor
        self.events: list[E] = []

    @classmethod
    def after(cls, state: Aggregate, now: datetime, actor: str | None) -> Self:
        """A batch for a command on ``state``: its first event gets the next version."""
        return cls(state.id, state.version, now, actor)

    def add(self, kind: type[E], /, **fields: Any) -> E:
        """Append an event of ``kind`` with ``fields``, numbered after the last one."""
        self.version += 1
        event = kind(
            originator_id=self.originator_id,
            originator_version=self.version,
            timestamp=self.now,
            actor=self.actor,
            **fields,
        )
        self.events.append(event)
        return event


def fold(evolve: Callable[[A | None, E], A], state: A | None, events: Iterable[E]) -> A | None:
    """Apply ``events`` in order to ``state`` (None before the first event)."""
    for event in events:
        state = evolve(state, event)
    return state


def evolve_each(
    evolve: Callable[[A | None, E], A], state: A | None, events: Iterable[E]
) -> list[A]:
    """The state after each of ``events`` (for snapshots at their exact versions)."""
    states = []
    for event in events:
        state = evolve(state, event)
        states.append(state)
    return states
