"""Use cases of the club's rating list (rules R-RATE-1..8): the list, a player's history, an
import of past results, the settings."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID
from zoneinfo import ZoneInfo

from domain.errors import NotFoundError
from domain.events import DIRECTOR
from domain.ratings import club
from domain.ratings.club import ClubRatings, ImportRow, ResultsImported
from projections import head_to_head, ratings
from projections.head_to_head import PlayerHeadToHead
from projections.ratings import PlayerRatings, RatingRow
from projections.runner import Views
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.rating_list import load_club_ratings, new_player_id, player_directory
from service.storage.events import Change, EventStore


class PlayerNotRatedError(NotFoundError):
    """The player has no rated match."""


class UnknownPlayerError(NotFoundError):
    """Nobody registered, waitlisted or rated has this id."""


@dataclass(frozen=True, slots=True)
class ImportReceipt:
    """What an import stored: its id, its matches, the players it added and the ones it found."""

    id: UUID
    matches: int
    new_players: int
    matched_players: int


@dataclass(frozen=True, slots=True)
class RatingSettings:
    start_rating: float
    newcomer_boost: bool
    changed_at: datetime | None


class RatingService:
    """The rating list (a projection) and the commands of its own stream."""

    def __init__(
        self, store: EventStore, views: Views, zone: ZoneInfo, commands: CommandRunner
    ) -> None:
        self._store = store
        self._views = views
        self._zone = zone
        self._commands = commands

    def list_ratings(self) -> list[RatingRow]:
        """rule R-RATE-1: every player with a rated match, highest rating first."""
        self._views.catch_up()
        with self._views.reading() as db:
            return ratings.list_ratings(db)

    def player_ratings(self, player_id: UUID) -> PlayerRatings:
        """A player's rating and every rated match with its numbers; 404 without one."""
        found = self._views.find(lambda db: ratings.player_ratings(db, str(player_id), self._zone))
        if found is None:
            raise PlayerNotRatedError(f"player {player_id} has no rated match")
        return found

    def head_to_head(self, player_id: UUID) -> PlayerHeadToHead:
        """The player's record against each opponent over every tournament and rated ad hoc
        match, a corrected result counted once with its corrected figures (rule T-FMT-6); no
        byes, no unplayed forfeits (R-BYE-1, T-FMT-7). 404 for an unknown player."""

        self._views.catch_up()
        with self._views.reading() as db:
            found = head_to_head.head_to_head(db, str(player_id))
        if found is None:
            raise UnknownPlayerError(f"no player has the id {player_id}")
        return found

    def import_results(self, rows: Sequence[ImportRow], *, actor: str = DIRECTOR) -> ImportReceipt:
        """rules R-RATE-4, R-RATE-7, R-RATE-8: past results, all or nothing, rated at the import
        in list order; names nobody has become rating-only players."""
        import_id = uuid.uuid4()

        def attempt(now: datetime) -> Change[ClubRatings]:
            held = load_club_ratings(self._store)
            events = club.import_results(
                held,
                rows,
                player_directory(self._views),
                import_id=import_id,
                today=now.astimezone(self._zone).date(),
                now=now,
                new_id=new_player_id,
                actor=actor,
            )
            return Change.of(club.evolve, held, events)

        change = self._commands.run(attempt, DECIDE_AGAIN)
        imported = change.events[-1]
        assert isinstance(imported, ResultsImported)
        return ImportReceipt(
            id=import_id,
            matches=len(imported.matches),
            new_players=imported.new_players,
            matched_players=imported.matched_players,
        )

    def rating_settings(self) -> RatingSettings:
        held = load_club_ratings(self._store) or ClubRatings(id=club.CLUB_RATINGS_ID, version=0)
        return RatingSettings(
            start_rating=held.start_rating,
            newcomer_boost=held.newcomer_boost,
            changed_at=held.changed_at,
        )

    def change_rating_settings(
        self,
        *,
        start_rating: float | None,
        newcomer_boost: bool | None,
        actor: str = DIRECTOR,
    ) -> RatingSettings:
        """rule R-RATE-3: the new settings apply from the next rated match on; ``None`` keeps a
        setting as it is."""

        def attempt(now: datetime) -> Change[ClubRatings]:
            held = load_club_ratings(self._store)
            events = club.change_settings(
                held,
                start_rating=start_rating,
                newcomer_boost=newcomer_boost,
                now=now,
                actor=actor,
            )
            return Change.of(club.evolve, held, events)

        state = self._commands.run(attempt, DECIDE_AGAIN).state
        return RatingSettings(
            start_rating=state.start_rating,
            newcomer_boost=state.newcomer_boost,
            changed_at=state.changed_at,
        )
