"""Domain events and aggregate state: immutable msgspec records, folded by pure functions."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TypeVar
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


class Aggregate(msgspec.Struct, frozen=True, kw_only=True):
    """State of one aggregate as of its latest event: rebuilt by folding its events."""

    id: UUID
    version: int


A = TypeVar("A", bound=Aggregate)
E = TypeVar("E", bound=DomainEvent)


def fold(evolve: Callable[[A | None, E], A], state: A | None, events: Iterable[E]) -> A | None:
    """Apply ``events`` in order to ``state`` (None before the first event)."""
    for event in events:
        state = evolve(state, event)
    return state
