"""What the use cases of the tournament day hold, and the one way they change a tournament."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from uuid import UUID

from domain import tournament
from domain.events import DomainEvent
from domain.tournament import Tournament
from projections.runner import Views
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.loading import display_names, load_tournament
from service.storage.events import Change, EventStore


class TournamentDay:
    """The base of the day's use cases (rounds, conduct, venue): the store, the views and the
    command runner they all hold."""

    def __init__(self, store: EventStore, views: Views, commands: CommandRunner) -> None:
        self._store = store
        self._views = views
        self._commands = commands

    def load(self, tournament_id: UUID) -> Tournament:
        """The tournament, or a 404."""
        return load_tournament(self._store, tournament_id)

    def _update(
        self,
        tournament_id: UUID,
        decide: Callable[[Tournament, datetime], Iterable[DomainEvent]],
    ) -> Change[Tournament]:
        """Decide on the latest tournament; a command that loses a race is decided again."""
        return self._commands.update(
            lambda: self.load(tournament_id), tournament.evolve, decide, DECIDE_AGAIN
        )

    def _names(self, tournament_id: UUID) -> dict[str, str]:
        return display_names(self._views, tournament_id)
