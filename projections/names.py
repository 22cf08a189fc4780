"""The players' names that several views show beside their figures (standings, season ranking,
rating list, head-to-head): one way of keeping them, so that they cannot disagree.

A registration (or a place on the waitlist) names the player by display name ("Anna M.");
the latest one wins. An erasure replaces the name with the pseudonym and leaves
no old bytes of it in the file; the figures stay.
"""

from __future__ import annotations

from typing import ClassVar
from uuid import UUID

import sqlite_utils

from domain.people.erasure import PersonErased
from domain.ratings.club import RatingPlayerAdded
from domain.tournament import PlayerRegistered, RegistrationWaitlisted, display_name
from projections.runner import Projection


class KeepsNames(Projection):
    """A view with a table of names (``player_id``, ``display_name``): registrations write it,
    an erasure writes the pseudonym over it."""

    names_table: ClassVar[str]
    """The table that holds the names, keyed by ``player_id`` (among other columns)."""

    def player_registered(self, event: PlayerRegistered, db: sqlite_utils.Database) -> None:
        self._registered(event, db)

    def registration_waitlisted(
        self, event: RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        self._registered(event, db)

    def person_erased(self, event: PersonErased, db: sqlite_utils.Database) -> None:
        """The erased person's results stay; their name shows as the pseudonym."""
        self.compaction_due = True  # no old bytes of the name stay in the file
        db.execute(
            f"UPDATE {self.names_table} SET display_name = ? WHERE player_id = ?",
            [event.pseudonym, str(event.originator_id)],
        )

    def _registered(
        self, event: PlayerRegistered | RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        """The name a registration gives (a view keyed by more than the player overrides)."""
        name = display_name(event.first_name, event.last_name)
        name_player(db, self.names_table, event.player_id, name)


class KeepsClubNames(KeepsNames):
    """A view of the club's players, not only a tournament's (the rating list, the
    head-to-head records), in a table of names alone: one id per person across tournaments,
    and a player the rating list adds is named too (rule R-RATE-7: a rating-only player's name
    is personal data; an erased person's figures stay under the pseudonym)."""

    def _create_names_table(self, db: sqlite_utils.Database) -> None:
        db.execute(
            f"CREATE TABLE IF NOT EXISTS {self.names_table} (player_id TEXT PRIMARY KEY, "
            "display_name TEXT NOT NULL)"
        )

    def rating_player_added(self, event: RatingPlayerAdded, db: sqlite_utils.Database) -> None:
        name_player(db, self.names_table, event.player_id, event.display_name)


def name_player(db: sqlite_utils.Database, table: str, player_id: UUID, name: str) -> None:
    """The player's name in ``table`` (``player_id``, ``display_name``), the latest winning."""
    db.execute(
        f"INSERT INTO {table} (player_id, display_name) VALUES (?, ?) "
        "ON CONFLICT (player_id) DO UPDATE SET display_name = excluded.display_name",
        [str(player_id), name],
    )
