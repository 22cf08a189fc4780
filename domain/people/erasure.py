"""A person's erasure: their personal data becomes unreadable, their results stay.

A person is known by their player id (the service derives it from the e-mail address). The
events that hold their data (registrations, the matches a pairing started) declare it
(``DomainEvent.personal``); the store keeps it sealed under the person's own key. Erasing
records ``PersonErased`` in the person's own stream (its id is the player id) and the service
then deletes the key: history is never rewritten, but from then on every record shows the
pseudonym instead of the name, and nothing instead of the e-mail address, age or birth date.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from uuid import UUID

from domain.errors import NotFoundError
from domain.events import Aggregate, DomainEvent, EventBatch, open_state


class PersonNotFoundError(NotFoundError):
    """No registration names this player id."""


def pseudonym(player_id: UUID) -> str:
    """The name an erased person's results stand under: derived from the player id alone
    (public already), so it holds no personal data and is the same in every process, view
    and rebuild."""
    return f"Player {hashlib.sha256(player_id.bytes).hexdigest()[:6]}"


class PersonErased(DomainEvent, frozen=True, kw_only=True):
    """A director erased the person's personal data on their request (their key is deleted)."""

    pseudonym: str
    key_fingerprint: str | None = None
    """SHA-256 fingerprint of the data key this erasure deletes (None: the person held no
    key, or the event was recorded before it existed). Every process that reads the event
    deletes that key if it is still stored (the erasing process may have died before), and
    never a key drawn after the erasure (the person registered again)."""


PersonEvent = PersonErased


class Person(Aggregate, frozen=True, kw_only=True):
    """An erased person (the stream exists only once they are erased)."""

    pseudonym: str
    erased_at: datetime


def evolve(state: Person | None, event: PersonEvent) -> Person:
    """The one place where a person's events apply."""
    if isinstance(event, PersonErased):
        # A repeated erasure (the person registered again) keeps the first one's date.
        erased_at = state.erased_at if state is not None else event.timestamp
        return open_state(event, Person, erased_at=erased_at)
    raise TypeError(f"not an event of a person: {type(event).__name__}")


def erase(
    state: Person | None,
    player_id: UUID,
    now: datetime,
    *,
    actor: str,
    key_fingerprint: str | None,
) -> list[PersonEvent]:
    """Record the erasure, unless the person is erased already and nothing of theirs became
    readable since (``key_fingerprint``: of the key the service holds for them, e.g. they
    registered again after an erasure): a repeated request then records nothing."""
    if state is not None and key_fingerprint is None:
        return []
    batch = EventBatch[PersonEvent](player_id, state.version if state else 0, now, actor)
    batch.add(PersonErased, pseudonym=pseudonym(player_id), key_fingerprint=key_fingerprint)
    return batch.events
