"""Errors of match commands: each maps to an HTTP status in one place (``api/http/errors.py``)."""

from __future__ import annotations

from domain.errors import ConflictError, ForbiddenError, NotFoundError


class NotAMatchError(NotFoundError):
    """An id whose events are another aggregate's (a tournament, a season): no such match."""


class NotYourTurnError(ForbiddenError):
    """A side acting when the other side's action is due."""

    type_slug = "not-your-turn"


class WrongPhaseError(ConflictError):
    """A command the match's phase does not allow (a play before the roll, a take with no
    double offered...)."""

    type_slug = "wrong-phase"


class MatchOverError(ConflictError):
    """A command after the match has ended."""

    type_slug = "match-over"


class IllegalPlayRejectedError(ConflictError):
    """rule G-LEGAL-1: an illegal play is never recorded; ``detail`` gives the reason."""

    type_slug = "illegal-play"


class CubeNotAvailableError(ConflictError):
    """A cube action the rules forbid now (Crawford game, cube owned by the opponent...)."""

    type_slug = "cube-not-available"


class CubeDisabledError(CubeNotAvailableError):
    """rule V-CUBE-1: the match is played without the doubling cube."""

    type_slug = "cube-disabled"


class ClockNotExpiredError(ConflictError):
    """A timeout claim while the opponent's clock still has time."""

    type_slug = "clock-not-expired"


class PenaltyAwardedAlreadyError(ConflictError):
    """A penalty with this id is awarded already: the same proposal approved twice."""

    type_slug = "penalty-awarded-already"


class PenaltyNotFoundError(NotFoundError):
    """The match has no penalty with this id."""


class RollNotVoidableError(ConflictError):
    """rule G-DICE-2: no roll to void: none was made, or a play (or a cube action) came after
    it."""

    type_slug = "roll-not-voidable"
