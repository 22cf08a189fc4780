"""Named directors (rule C-DIR-1): appoint, list, revoke; find the director behind a token and
what an action touches, so that every director acts only in their scope.

A named director's token is drawn here (``secrets``) with a fixed prefix, so that a player's
token never costs a lookup: only a token with the prefix is searched among the directors.
"""

from __future__ import annotations

import hmac
import secrets
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from uuid import UUID

from domain.errors import InvalidInputError, UnauthenticatedError
from domain.events import DomainEvent
from domain.evidence.dispute import DisputeOpened
from domain.evidence.video import VideoRegistered
from domain.match import MatchStarted
from domain.people import director
from domain.people.director import (
    BOOTSTRAP,
    CLUB,
    CLUB_WIDE,
    ActingDirector,
    Director,
    DirectorAppointed,
    DirectorNotFoundError,
    Scope,
    Target,
)
from domain.people.tokens import token_hash
from domain.seasons.season import SeasonCreated
from domain.tournament import TournamentScheduled
from projections import directors as directors_view
from projections.directors import DirectorRow
from projections.runner import Views
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.loading import load_match, load_season, load_tournament
from service.storage.events import EventStore

DIRECTOR_TOKEN_PREFIX = "bgtd-director-"
"""Every named director's token starts so (the bootstrap token is whatever the club set)."""


@dataclass(frozen=True, slots=True)
class Appointed:
    director: Director
    token: str
    """The new director's token, shown once: the events keep only its SHA-256."""


class DirectorService:
    """The club's directors: the bootstrap token from the settings and the named ones."""

    def __init__(
        self,
        store: EventStore,
        views: Views,
        commands: CommandRunner,
        bootstrap_token: str | None,
    ) -> None:
        self._store = store
        self._views = views
        self._commands = commands
        self._bootstrap_token = bootstrap_token

    # Who is acting -------------------------------------------------------------------------

    def is_bootstrap(self, token: str) -> bool:
        expected = self._bootstrap_token
        return bool(expected and hmac.compare_digest(token.encode(), expected.encode()))

    def bootstrap_token_hash(self) -> str | None:
        """The hash of the club's bootstrap token (None without one): a console session
        opened with it ends when the club sets another."""
        return token_hash(self._bootstrap_token) if self._bootstrap_token else None

    def may_be_director(self, token: str) -> bool:
        """Whether ``token`` could be a director's at all (no lookup: a player's never is)."""
        return token.startswith(DIRECTOR_TOKEN_PREFIX) or self.is_bootstrap(token)

    def acting(self, token: str | None) -> ActingDirector | None:
        """The director whose token this is; None for a token that is no director's.

        A named director's token that is unknown or revoked is refused (401): it names
        nobody who may act, whatever endpoint it is sent to.
        """
        if token is None:
            return None
        if self.is_bootstrap(token):
            return BOOTSTRAP
        if not token.startswith(DIRECTOR_TOKEN_PREFIX):
            return None
        hashed = token_hash(token)
        director_id = self._views.find(
            lambda db: directors_view.director_id_by_token_hash(db, hashed)
        )
        if director_id is None:
            raise UnauthenticatedError("unknown or revoked director token")
        # the views may lag behind a revocation made by another process: the store may not
        state = self.load(director_id)
        if not state.is_active or not hmac.compare_digest(state.token_hash, hashed):
            raise UnauthenticatedError("unknown or revoked director token")
        return state.acting()

    def acting_on_match(self, token: str, match_id: UUID) -> ActingDirector | None:
        """The director sending a match command, if any: only inside their scope (C-DIR-1)."""
        acting = self.acting(token)
        if acting is not None and acting.scope.kind != "club":
            acting.authorize(self.match_target(match_id))
        return acting

    def authorize_tournament(self, by: ActingDirector, tournament_id: UUID | None) -> None:
        """403 unless ``by`` may act in the tournament (without one: the club's)."""
        if by.scope.kind != "club":
            by.authorize(self.tournament_target(tournament_id) if tournament_id else CLUB_WIDE)

    def is_known_token(self, token: str | None) -> bool:
        """Quick and local (the views only): whether ``token`` is a director's, e.g. to spare
        it the rate limit of anonymous registrations."""
        if token is None:
            return False
        if self.is_bootstrap(token):
            return True
        if not token.startswith(DIRECTOR_TOKEN_PREFIX):
            return False
        hashed = token_hash(token)
        with self._views.reading() as db:
            return directors_view.director_id_by_token_hash(db, hashed) is not None

    # What an action touches ----------------------------------------------------------------

    def tournament_target(self, tournament_id: UUID) -> Target:
        """A tournament and its season (404 for an unknown tournament)."""
        state = load_tournament(self._store, tournament_id)
        return Target(season_id=state.season_id, tournament_id=tournament_id)

    def season_target(self, season_id: UUID) -> Target:
        load_season(self._store, season_id)
        return Target(season_id=season_id)

    def match_target(self, match_id: UUID) -> Target:
        """A match's tournament (404 for an unknown match); the club for a free match."""
        state = load_match(self._store, match_id)
        if state.tournament_id is None:
            return CLUB_WIDE
        return self.tournament_target(UUID(state.tournament_id))

    def stream_target(self, first: DomainEvent) -> Target:
        """What an aggregate's stream belongs to, from its first event (the audit stream)."""
        stream_id = first.originator_id
        if isinstance(first, SeasonCreated):
            return Target(season_id=stream_id)
        if isinstance(first, TournamentScheduled):
            return Target(season_id=first.season_id, tournament_id=stream_id)
        if isinstance(first, MatchStarted):
            if first.tournament_id is None:
                return CLUB_WIDE
            return self.tournament_target(UUID(first.tournament_id))
        if isinstance(first, VideoRegistered | DisputeOpened):
            return self.match_target(first.match_id)
        if isinstance(first, DirectorAppointed):
            return self.load(stream_id).scope.target
        return CLUB_WIDE

    # Appoint, list, revoke -----------------------------------------------------------------

    def appoint(
        self,
        by: ActingDirector,
        name: str,
        *,
        season_id: UUID | None = None,
        tournament_id: UUID | None = None,
    ) -> Appointed:
        """rule C-DIR-1: a new director for the club, a season or one tournament. The views
        catch up before the answer, so the new token works at once."""
        scope = self._scope(season_id, tournament_id)
        token = DIRECTOR_TOKEN_PREFIX + secrets.token_urlsafe(32)
        hashed = token_hash(token)
        state = self._commands.create(
            director.evolve,
            lambda now: director.appoint_director(uuid.uuid4(), name, scope, hashed, now, by=by),
            DECIDE_AGAIN,
        )
        return Appointed(director=state, token=token)

    def list_directors(self, by: ActingDirector) -> list[DirectorRow]:
        """The named directors inside ``by``'s scope (a club director sees every one)."""
        with self._views.reading() as db:
            rows = directors_view.list_directors(db)
        return [row for row in rows if by.scope.covers(_scope_of(row).target)]

    def revoke(self, by: ActingDirector, director_id: UUID) -> Director:
        """The director's token stops working at once, in every process (checked against the
        store); the events they recorded keep their name."""
        change = self._commands.update(
            lambda: self.load(director_id),
            director.evolve,
            lambda state, now: director.revoke_director(state, now, by=by),
            DECIDE_AGAIN,
        )
        return change.state

    def load(self, director_id: UUID) -> Director:
        return self._store.load_as(
            director_id,
            director.evolve,
            Director,
            lambda: DirectorNotFoundError(f"no director with id {director_id}"),
        )

    def names(self, actors: Iterable[str | None]) -> dict[UUID, str]:
        """The names of the named directors among ``actors`` (for the audit stream)."""
        wanted = {i for i in map(director.named_director_id, actors) if i is not None}
        if not wanted:
            return {}
        with self._views.reading() as db:
            found = directors_view.director_names(db, wanted)
        if len(found) < len(wanted):  # appointed in another process: catch up once
            self._views.catch_up()
            with self._views.reading() as db:
                found = directors_view.director_names(db, wanted)
        return found

    def _scope(self, season_id: UUID | None, tournament_id: UUID | None) -> Scope:
        if season_id is not None and tournament_id is not None:
            raise InvalidInputError(
                "tournament_id", "give season_id or tournament_id, or neither for the whole club"
            )
        if tournament_id is not None:
            target = self.tournament_target(tournament_id)
            return Scope(kind="tournament", season_id=target.season_id, tournament_id=tournament_id)
        if season_id is not None:
            load_season(self._store, season_id)
            return Scope(kind="season", season_id=season_id)
        return CLUB


def _scope_of(row: DirectorRow) -> Scope:
    return Scope(kind=row.scope, season_id=row.season_id, tournament_id=row.tournament_id)
