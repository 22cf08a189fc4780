"""What a tournament command can refuse, each with its problem type."""

from __future__ import annotations

from domain.errors import ConflictError, ForbiddenError, InvalidInputError, NotFoundError


class TournamentNotFoundError(NotFoundError):
    """No tournament has this id."""


class RegistrationNotFoundError(NotFoundError):
    """The tournament has no registration with this id."""


class UnderAgeError(InvalidInputError):
    """Younger than the tournament's minimum age on the play date (rule T-REG-1)."""

    type_slug = "under-age"


class DuplicateRegistrationError(ConflictError):
    """The same person is already registered or waitlisted (rule T-REG-2)."""

    type_slug = "duplicate-registration"


class TournamentFullError(ConflictError):
    """All seats are taken and the tournament keeps no waitlist (rule T-REG-3)."""

    type_slug = "tournament-full"


class WaitlistFullError(ConflictError):
    """All seats and every waitlist place are taken."""

    type_slug = "waitlist-full"


class RegistrationClosedError(ConflictError):
    """The tournament has started (or its start time has passed): no more registrations."""

    type_slug = "registration-closed"


class CancellationClosedError(ConflictError):
    """The cancellation deadline has passed (rule T-CANCEL-1)."""

    type_slug = "cancellation-closed"


class CheckInClosedError(ConflictError):
    """Check-in is possible only from its opening on the play date until the start."""

    type_slug = "check-in-closed"


class TournamentStateError(ConflictError):
    """A command the tournament's or the registration's current state does not allow."""

    type_slug = "tournament-state"


class NotYourRegistrationError(ForbiddenError):
    """The player token does not belong to this registration."""


class RoundNotFoundError(NotFoundError):
    """The tournament has no round with this number."""


class MatchNotInTournamentError(NotFoundError):
    """No pairing of this tournament started this match."""


class PlayerNotInTournamentError(NotFoundError):
    """The player is not in this tournament's field."""


class ResultsMissingError(ConflictError):
    """The next round can be paired only when every table of the last one has its result."""

    type_slug = "results-missing"


class AllRoundsPairedError(ConflictError):
    """The tournament's last round is paired: no further round (rule T-FMT-4)."""

    type_slug = "all-rounds-paired"


class ResultConflictError(ConflictError):
    """The match has a result already; a correction names it in ``corrects`` (rule T-FMT-6)."""

    type_slug = "result-recorded"


class BannedError(ForbiddenError):
    """The person is banned from the season's tournaments (rule C-EXCL-1)."""

    type_slug = "banned"


class NotInMatchError(ForbiddenError):
    """Only the two players of a match report its result."""


class TournamentFinalError(ConflictError):
    """Places and prizes are final: a correction needs the tournament reopened first."""

    type_slug = "tournament-final"


class RoundLockedError(ConflictError):
    """A round's pairing can change only before its first result, and only the latest round."""

    type_slug = "round-locked"


class FormatFixedScheduleError(ConflictError):
    """A round robin's schedule is fixed at the start: no pairing overrides, no late entries."""

    type_slug = "format-fixed-schedule"
