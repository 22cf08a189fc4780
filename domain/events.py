"""Domain events and aggregate state: immutable msgspec records, folded by pure functions."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from functools import cache
from typing import Any, ClassVar, Generic, NamedTuple, Self, TypeVar
from uuid import UUID

import msgspec


class Pseudonym:
    """Marks the field that shows a person's pseudonym once their data is erased."""

    def __repr__(self) -> str:
        return "PSEUDONYM"


PSEUDONYM = Pseudonym()


class Personal(NamedTuple):
    """Fields of a record (an event, or an aggregate's state) that hold one person's data.

    The store keeps them sealed under that person's own key, which erasure deletes (the
    record itself is never rewritten). ``subject`` is the dotted path to the person's id
    (``"player_id"``, ``"pairing.player_a_id"``); a path that ends in None names nobody (an ad
    hoc match between typed-in names) and leaves the record as it is. ``erased`` gives each
    personal field's value once the person is erased: ``PSEUDONYM`` for the field that shows
    their pseudonym, an empty value for the others.
    """

    subject: str
    erased: Mapping[str, object]


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

    personal: ClassVar[tuple[Personal, ...]] = ()
    """The personal data this kind of event holds (none by default)."""


DIRECTOR = "director"
"""The actor of a director's command (the director token carries no name yet, rule C-DIR-1)."""
SCHEDULER = "scheduler"
"""The actor of what a deadline caused (a scheduled job's command)."""


class Aggregate(msgspec.Struct, frozen=True, kw_only=True):
    """State of one aggregate as of its latest event: rebuilt by folding its events."""

    id: UUID
    version: int

    personal: ClassVar[tuple[Personal, ...]] = ()
    """The personal data this kind of state holds: its snapshots are sealed like events."""


A = TypeVar("A", bound=Aggregate)
E = TypeVar("E", bound=DomainEvent)
S = TypeVar("S", bound=msgspec.Struct)


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


def open_state(event: DomainEvent, state_type: type[A], /, **fields: Any) -> A:
    """The state an aggregate's opening event starts: the event's stream and version, each
    field that the event and the state both name, and ``fields`` (what the state names or
    shapes otherwise, e.g. ``opened_at=event.timestamp``; these win over a copied field)."""
    copied = {name: getattr(event, name) for name in _shared_fields(type(event), state_type)}
    return state_type(id=event.originator_id, version=event.originator_version, **(copied | fields))


@cache
def _shared_fields(event_type: type[DomainEvent], state_type: type[Aggregate]) -> tuple[str, ...]:
    # The envelope is not copied by name: an event's own ``version`` field (a dispute's
    # disputed version) is not the state's version, which is the event's ``originator_version``.
    envelope = {field.name for field in msgspec.structs.fields(DomainEvent)}
    envelope |= {field.name for field in msgspec.structs.fields(Aggregate)}
    state_names = {field.name for field in msgspec.structs.fields(state_type)}
    return tuple(
        field.name
        for field in msgspec.structs.fields(event_type)
        if field.name in state_names and field.name not in envelope
    )


def copied(source: msgspec.Struct, target_type: type[S], /, **fields: Any) -> S:
    """A ``target_type`` of each field that ``source`` names too, and ``fields`` (what the
    target names or shapes otherwise, e.g. ``id=event.result_id``; these win over a copied
    field): a record built from another record's same-named fields."""
    return target_type(**(same_named(source, target_type) | fields))


def same_named(source: msgspec.Struct, target_type: type[msgspec.Struct]) -> dict[str, Any]:
    """The fields of ``source`` that ``target_type`` names too, by name."""
    return {name: getattr(source, name) for name in _common_fields(type(source), target_type)}


@cache
def _common_fields(
    source_type: type[msgspec.Struct], target_type: type[msgspec.Struct]
) -> tuple[str, ...]:
    target_names = {field.name for field in msgspec.structs.fields(target_type)}
    return tuple(
        field.name for field in msgspec.structs.fields(source_type) if field.name in target_names
    )


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
