"""Use case: erase a person's personal data on their request (crypto-shredding).

The order is: record ``PersonErased`` (the audit trail, and what every view and process
follows), then delete the person's key, then update and compact the views. If the process
dies between the event and the key's deletion, every other process deletes the key when its
views read the event (it names the key by its fingerprint), the next start completes it
(``complete_erasures``), and a repeated request deletes the key again in any case.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from uuid import UUID

from domain.people import erasure as people
from domain.people.erasure import Person, PersonNotFoundError
from projections import participants
from projections.runner import Views
from service.clock import Clock
from service.shared.commands import CommandRunner, Policy
from service.storage.events import Change, EventStore, UnknownAggregateError
from service.storage.personal import key_fingerprint

ERASURE = Policy(attempts=5, catch_up_views=True)
"""Two requests at once: the loser decides again and finds the person erased."""


class PeopleService:
    def __init__(
        self,
        store: EventStore,
        views: Views,
        clock: Clock,
        commands: CommandRunner,
        forget_erased_mails: Callable[[], object],
    ) -> None:
        """``forget_erased_mails``: the outbox's, so that mails written to files lose the
        erased address (composed at start-up, ``service/bootstrap.py``)."""
        self._store = store
        self._views = views
        self._clock = clock
        self._commands = commands
        self._forget_erased_mails = forget_erased_mails

    def erase(self, player_id: UUID, *, actor: str) -> str:
        """Erase the person everywhere; returns their pseudonym (the same on every request).

        Their registrations, matches and standings keep their results under the pseudonym.
        """
        if not self._is_known(player_id):
            raise PersonNotFoundError(f"no registration names player {player_id}")

        def attempt(now: datetime) -> Change[Person]:
            before = self._load(player_id)
            key = self._store.keys.key_of(player_id)
            fingerprint = key_fingerprint(key) if key is not None else None
            events = people.erase(before, player_id, now, actor=actor, key_fingerprint=fingerprint)
            return Change.of(people.evolve, before, events)

        decision = self._commands.run(attempt, ERASURE)
        self._store.keys.shred([player_id], self._clock.now())
        self._store.forget_person(player_id)
        self._views.catch_up()  # the views show the pseudonym and are compacted
        self._forget_erased_mails()  # and the mails written to files lose their address
        return decision.state.pseudonym

    def complete_erasures(self) -> list[UUID]:
        """At the start: delete the keys of erased persons that a process dying between the
        event and the deletion left behind; returns their ids."""
        with self._views.reading() as db:
            erased = [UUID(player_id) for player_id in participants.erased_people(db)]
        return self._store.keys.shred(erased, self._clock.now(), unfinished_only=True)

    def _is_known(self, player_id: UUID) -> bool:
        self._views.catch_up()
        with self._views.reading() as db:
            registered = participants.is_registered(db, str(player_id))
        return registered or self._store.keys.known(player_id)

    def _load(self, player_id: UUID) -> Person | None:
        try:
            return self._store.load_as(
                player_id,
                people.evolve,
                Person,
                lambda: PersonNotFoundError(f"{player_id} is not a player id"),
                recorded=True,
            )
        except UnknownAggregateError:
            return None
