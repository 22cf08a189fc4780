"""Views that follow each registration's status (the public list, the director's list, the
seat counters): one set of handlers for every event that changes a status, so that a new one
cannot reach one view and miss another. ``status_after`` says which status each event leaves.
"""

from __future__ import annotations

import sqlite_utils

from domain.tournament import (
    LateEntryAdmitted,
    LateWithdrawalRecorded,
    NoShowReleased,
    PlayerCheckedIn,
    PlayerExcluded,
    PlayerRegistered,
    PlayerWithdrew,
    RegistrationCancelled,
    RegistrationChange,
    RegistrationWaitlisted,
    StandbyCheckedIn,
    StandbyNotSeated,
    WaitlistPromoted,
)
from projections.runner import Projection


class FollowsRegistrations(Projection):
    """Calls ``_added`` for a new registration and ``_moved`` for each change of its status."""

    def _added(
        self, event: PlayerRegistered | RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        raise NotImplementedError

    def _moved(self, event: RegistrationChange, db: sqlite_utils.Database) -> None:
        raise NotImplementedError

    def player_registered(self, event: PlayerRegistered, db: sqlite_utils.Database) -> None:
        self._added(event, db)

    def registration_waitlisted(
        self, event: RegistrationWaitlisted, db: sqlite_utils.Database
    ) -> None:
        self._added(event, db)

    def registration_cancelled(
        self, event: RegistrationCancelled, db: sqlite_utils.Database
    ) -> None:
        self._moved(event, db)

    def waitlist_promoted(self, event: WaitlistPromoted, db: sqlite_utils.Database) -> None:
        self._moved(event, db)

    def late_withdrawal_recorded(
        self, event: LateWithdrawalRecorded, db: sqlite_utils.Database
    ) -> None:
        self._moved(event, db)

    def player_excluded(self, event: PlayerExcluded, db: sqlite_utils.Database) -> None:
        self._moved(event, db)

    def player_withdrew(self, event: PlayerWithdrew, db: sqlite_utils.Database) -> None:
        # rule T-FMT-5: a player who leaves the running tournament frees the seat
        self._moved(event, db)

    def player_checked_in(self, event: PlayerCheckedIn, db: sqlite_utils.Database) -> None:
        self._moved(event, db)

    def standby_checked_in(self, event: StandbyCheckedIn, db: sqlite_utils.Database) -> None:
        self._moved(event, db)

    def standby_not_seated(self, event: StandbyNotSeated, db: sqlite_utils.Database) -> None:
        self._moved(event, db)

    def no_show_released(self, event: NoShowReleased, db: sqlite_utils.Database) -> None:
        # rule T-CHECKIN-2: a no-show's seat is released at the start
        self._moved(event, db)

    def late_entry_admitted(self, event: LateEntryAdmitted, db: sqlite_utils.Database) -> None:
        # the admission seats a registration made after the start in the field
        self._moved(event, db)
