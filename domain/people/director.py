"""Named directors (rule C-DIR-1): people with their own tokens, for the club, a season or one
tournament; every director action records which director took it.

One small aggregate per director. The service draws the token; the events keep only its
SHA-256 (as for player tokens). The club's bootstrap token (``BGTD_DIRECTOR_TOKEN``) is no
aggregate: it acts for the whole club as the actor ``director``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

from domain.errors import ConflictError, ForbiddenError, NotFoundError
from domain.events import DIRECTOR, Aggregate, DomainEvent, EventBatch, open_state
from domain.text import visible_name

ScopeKind = Literal["club", "season", "tournament"]

NAMED_DIRECTOR_PREFIX = "director:"
"""A named director's actor is ``director:<director id>``; the bootstrap token's is ``director``."""


class DirectorNotFoundError(NotFoundError):
    """No director with this id."""

    type_slug = "director-not-found"


class DirectorRevokedError(ConflictError):
    """The director's token is revoked already."""

    type_slug = "director-revoked"


class SelfRevocationError(ConflictError):
    """A director's own token is revoked by another director (or the club's bootstrap token)."""

    type_slug = "self-revocation"


class OutOfScopeError(ForbiddenError):
    """The acting director's scope does not cover the season or tournament acted on."""

    type_slug = "out-of-scope"


class Target(msgspec.Struct, frozen=True, kw_only=True):
    """What an action touches: a tournament (with its season), a season, or the club (neither)."""

    season_id: UUID | None = None
    tournament_id: UUID | None = None


CLUB_WIDE = Target()
"""Club-level actions (a new season, the jobs, a match outside any tournament): club only."""


class Scope(msgspec.Struct, frozen=True, kw_only=True):
    """Where a director may act: the whole club, one season (and its tournaments), or one
    tournament (and its matches). A tournament's scope keeps its season, to list it there."""

    kind: ScopeKind = "club"
    season_id: UUID | None = None
    tournament_id: UUID | None = None

    def covers(self, target: Target) -> bool:
        if self.kind == "club":
            return True
        if self.kind == "season":
            return target.season_id is not None and target.season_id == self.season_id
        return target.tournament_id is not None and target.tournament_id == self.tournament_id

    @property
    def target(self) -> Target:
        """The scope as something acted on: who may appoint or revoke a director of it."""
        if self.kind == "club":
            return CLUB_WIDE
        if self.kind == "season":
            return Target(season_id=self.season_id)
        return Target(season_id=self.season_id, tournament_id=self.tournament_id)


CLUB = Scope()


class ActingDirector(msgspec.Struct, frozen=True, kw_only=True):
    """Who sends a director's command: the club's bootstrap token or a named director."""

    actor: str
    """Recorded in every event of the command: ``director`` or ``director:<id>``."""
    scope: Scope = CLUB
    director_id: UUID | None = None
    name: str = "director"

    def authorize(self, target: Target) -> None:
        """rule C-DIR-1: a director acts only inside their scope (403 elsewhere)."""
        if not self.scope.covers(target):
            where = (
                f"tournament {target.tournament_id}"
                if target.tournament_id
                else f"season {target.season_id}"
                if target.season_id
                else "the whole club"
            )
            raise OutOfScopeError(
                f"director {self.name} acts for the {self.scope.kind} only, not for {where}",
                scope=self.scope.kind,
            )


BOOTSTRAP = ActingDirector(actor=DIRECTOR)
"""The club's bootstrap token (``BGTD_DIRECTOR_TOKEN``): the whole club, actor ``director``."""


def director_actor(director_id: UUID) -> str:
    return f"{NAMED_DIRECTOR_PREFIX}{director_id}"


def named_director_id(actor: str | None) -> UUID | None:
    """The director id of a named director's actor (None for any other actor)."""
    if actor is None or not actor.startswith(NAMED_DIRECTOR_PREFIX):
        return None
    try:
        return UUID(actor.removeprefix(NAMED_DIRECTOR_PREFIX))
    except ValueError:
        return None


def is_director_actor(actor: str | None) -> bool:
    """Whether ``actor`` is a director: the bootstrap token's or a named director's."""
    return actor == DIRECTOR or named_director_id(actor) is not None


class DirectorAppointed(DomainEvent, frozen=True, kw_only=True):
    """rule C-DIR-1: a named person became a director for the club, a season or a tournament."""

    name: str
    scope: ScopeKind = "club"
    season_id: UUID | None = None
    tournament_id: UUID | None = None
    token_hash: str
    """SHA-256 of the director's token (shown once at the appointment, never stored)."""


class DirectorRevoked(DomainEvent, frozen=True, kw_only=True):
    """The director's token no longer works."""


DirectorEvent = DirectorAppointed | DirectorRevoked


class Director(Aggregate, frozen=True, kw_only=True):
    """A named director as of their latest event."""

    name: str
    scope: Scope
    token_hash: str
    appointed_at: datetime
    appointed_by: str | None = None
    revoked_at: datetime | None = None
    revoked_by: str | None = None

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def acting(self) -> ActingDirector:
        return ActingDirector(
            actor=director_actor(self.id), scope=self.scope, director_id=self.id, name=self.name
        )


def evolve(state: Director | None, event: DirectorEvent) -> Director:
    """The one place where a director's events apply."""
    if isinstance(event, DirectorAppointed):
        scope = Scope(
            kind=event.scope, season_id=event.season_id, tournament_id=event.tournament_id
        )
        return open_state(
            event, Director, scope=scope, appointed_at=event.timestamp, appointed_by=event.actor
        )
    if not isinstance(state, Director):
        raise DirectorNotFoundError(f"no director with id {event.originator_id}")
    if isinstance(event, DirectorRevoked):
        return msgspec.structs.replace(
            state,
            version=event.originator_version,
            revoked_at=event.timestamp,
            revoked_by=event.actor,
        )
    raise TypeError(f"not a director event: {type(event).__name__}")


def appoint_director(
    director_id: UUID,
    name: str,
    scope: Scope,
    token_hash: str,
    now: datetime,
    *,
    by: ActingDirector,
) -> list[DirectorEvent]:
    """rule C-DIR-1: the club (or a club director) appoints for any scope; a season director
    for their season or its tournaments; a tournament director for their tournament only."""
    by.authorize(scope.target)
    batch = EventBatch[DirectorEvent](director_id, 0, now, by.actor)
    batch.add(
        DirectorAppointed,
        name=visible_name("name", name),
        scope=scope.kind,
        season_id=scope.season_id,
        tournament_id=scope.tournament_id,
        token_hash=token_hash,
    )
    return batch.events


def revoke_director(state: Director, now: datetime, *, by: ActingDirector) -> list[DirectorEvent]:
    """The token stops working at once; the director's past events keep their name."""
    by.authorize(state.scope.target)
    if by.director_id == state.id:
        raise SelfRevocationError("a director's own token is revoked by another director")
    if not state.is_active:
        raise DirectorRevokedError(f"director {state.name} is revoked already")
    batch = EventBatch[DirectorEvent].after(state, now, by.actor)
    batch.add(DirectorRevoked)
    return batch.events
