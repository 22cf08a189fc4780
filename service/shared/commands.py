"""The one shape of a command: load, decide, save atomically, retry as the use case says.

A use case hands ``CommandRunner.run`` an ``attempt(now)`` that loads what it needs and
returns its decision: one ``Change`` (events and states of one aggregate), or a ``Decision``
holding the changes of several aggregates, saved in one transaction. ``run`` saves it and, when
another command took a version first, runs the attempt again on the newer states if the use
case's ``Policy`` allows, else lets the ``StaleVersionError`` (409) through.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, TypeVar
from uuid import UUID

from domain.errors import DomainError
from domain.events import Aggregate, DomainEvent
from projections.runner import Views
from service.clock import Clock
from service.storage.events import Change, EventStore, Guess, StaleVersionError


class Decided(Protocol):
    """What an attempt returns: the changes to save together (a ``Change`` is one)."""

    @property
    def changes(self) -> tuple[Change[Any], ...]: ...


D = TypeVar("D", bound=Decided)
S = TypeVar("S", bound=Aggregate)


@dataclass(frozen=True, slots=True)
class Decision:
    """The changes of several aggregates, saved in one transaction or not at all."""

    changes: tuple[Change[Any], ...]

    @classmethod
    def of(cls, *changes: Change[Any]) -> Decision:
        return cls(changes)


@dataclass(frozen=True, slots=True)
class Policy:
    """How a use case meets a lost version race, and whether it waits for the read models."""

    attempts: int = 1
    """1: the loser gets the 409 (it decided on a state that is gone); more: decide again."""
    backoff_seconds: float = 0.004
    max_backoff_seconds: float = 0.25
    catch_up_views: bool = False
    """Read your writes: the views hold the command's events before it returns."""
    only_events_a_view_shows: bool = False
    """With ``catch_up_views``: catch up only when a view handles one of the command's events
    (a roll or a play, which no view shows, returns without reading the log)."""


CONDITIONAL = Policy()
"""A command decided on a state another command changed first is a 409 (the loser decided on
a state that is gone: the client reloads)."""
MATCH_PLAY = Policy(
    attempts=5, backoff_seconds=0.0, catch_up_views=True, only_events_a_view_shows=True
)
"""Match play: a race lost on the match, or on the tournament its result goes to, is decided
again on the winner's state, where the rules refuse what no longer fits (a second roll, a play
out of turn). A client that sends ``If-Match`` gets a 409 for any change since its version.
Decided again at once: the winner's events are stored, and match commands run on the event
loop, which a pause would stop for every request of the process. Read your writes: a game or
match won (the videos, the standings, the wallboard) is in the views when the command returns."""
DECIDE_AGAIN = Policy(attempts=40, catch_up_views=True)
"""Registration and the calendar: concurrent commands serialise through the store; the loser
decides again on the latest version (e.g. whether a seat is still free)."""


def _written(decision: Decided) -> set[UUID]:
    """The aggregates the decision writes events to: its save checks their versions."""
    return {change.state.id for change in decision.changes if change.events}


class CommandRunner:
    """Runs every command of the service: attempt, save, retry by the use case's ``Policy``."""

    def __init__(self, store: EventStore, clock: Clock, views: Views | None = None) -> None:
        self._store = store
        self._clock = clock
        self._views = views
        self._jitter = random.Random()

    def run(self, attempt: Callable[[datetime], D], policy: Policy = CONDITIONAL) -> D:
        """Decide with ``attempt(now)`` and save its changes atomically; returns the decision.

        An attempt raising an error stores nothing; an attempt deciding no events stores
        nothing either and is returned as it is.

        The first attempt decides on the states this process holds, without asking a shared
        store for newer events (``EventStore.guessing``). A save checks the version of every
        aggregate it writes, so a guess is confirmed only where the decision writes the
        aggregate it read. Where the attempt read one it does not write, or refused the
        command, or lost its save, another process may have moved that aggregate on: the
        attempt is made again at once on what the store holds, and that is the command's
        first real attempt.
        """
        # an SQLite store's loads always answer what this process holds: nothing to guess
        guess: Guess | None = Guess() if self._store.is_shared else None
        tried = 0
        while True:
            read_at = self._store.erasures_forgotten  # a state read before an erasure is not kept
            try:
                with self._store.guessing(guess) if guess is not None else contextlib.nullcontext():
                    decision = attempt(self._clock.now())
            except DomainError:
                if guess is None or not guess.trusted:
                    raise
                guess = None
                continue
            guessed, guess = guess, None
            if guessed is not None and not guessed.ids <= _written(decision):
                continue
            try:
                self._store.save_changes(decision.changes, read_at=read_at)
            except StaleVersionError:
                if guessed is not None and guessed.trusted:
                    continue
                tried += 1
                if tried == policy.attempts:
                    raise
                ceiling = min(policy.max_backoff_seconds, policy.backoff_seconds * 2 ** (tried - 1))
                time.sleep(self._jitter.uniform(0, ceiling))
                continue
            if policy.catch_up_views and self._views is not None:
                self._catch_up(self._views, decision, policy)
            return decision

    @staticmethod
    def _catch_up(views: Views, decision: Decided, policy: Policy) -> None:
        if policy.only_events_a_view_shows and not any(
            views.shows(event) for change in decision.changes for event in change.events
        ):
            return
        views.catch_up()

    def create(
        self,
        evolve: Callable[[S | None, Any], S],
        decide: Callable[[datetime], Iterable[DomainEvent]],
        policy: Policy = CONDITIONAL,
    ) -> S:
        """A new aggregate from the events ``decide(now)`` starts it with."""
        return self.run(lambda now: Change.of(evolve, None, decide(now)), policy).state

    def update(
        self,
        load: Callable[[], S],
        evolve: Callable[[S | None, Any], S],
        decide: Callable[[S, datetime], Iterable[DomainEvent]],
        policy: Policy = CONDITIONAL,
    ) -> Change[S]:
        """One aggregate's command: ``load()`` the latest state and ``decide`` on it."""

        def attempt(now: datetime) -> Change[S]:
            state = load()
            return Change.of(evolve, state, decide(state, now))

        return self.run(attempt, policy)
