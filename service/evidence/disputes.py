"""Disputes (rule C-DISPUTE-1): a player of the match or a director disputes one of its events;
a director decides after replaying the match before and after it. History is never edited."""

from __future__ import annotations

import uuid
from uuid import UUID

from domain import match
from domain.errors import ForbiddenError
from domain.evidence import dispute
from domain.evidence.dispute import Dispute
from domain.match import Match
from domain.people.tokens import token_matches
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.match_play import Caller, MatchPlay
from service.storage.events import EventStore


class DisputeService:
    """Open, decide and show disputes; an open dispute holds the match's videos (C-VIDEO-1)."""

    def __init__(self, store: EventStore, play: MatchPlay, commands: CommandRunner) -> None:
        self._store = store
        self._play = play
        self._commands = commands

    def open(self, match_id: UUID, version: int, claim: str, caller: Caller) -> Dispute:
        state = self._play.get(match_id)
        actor = _actor(state, caller)
        return self._commands.create(
            dispute.evolve,
            lambda now: dispute.open_dispute(
                uuid.uuid4(),
                match_id,
                version,
                claim,
                match_version=state.version,
                now=now,
                actor=actor,
            ),
            DECIDE_AGAIN,
        )

    def decide(self, dispute_id: UUID, ruling: str, reason: str, *, actor: str) -> Dispute:
        """The director's ruling; the views catch up, so the videos it held are due at once."""
        change = self._commands.update(
            lambda: self.load(dispute_id),
            dispute.evolve,
            lambda state, now: dispute.decide_dispute(state, ruling, reason, now, actor=actor),
            DECIDE_AGAIN,
        )
        return change.state

    def get(self, dispute_id: UUID, caller: Caller) -> Dispute:
        """The dispute, for a player of its match or a director."""
        state = self.load(dispute_id)
        _actor(self._play.get(state.match_id), caller)
        return state

    def load(self, dispute_id: UUID) -> Dispute:
        return self._store.load_as(
            dispute_id,
            dispute.evolve,
            Dispute,
            lambda: dispute.DisputeNotFoundError(f"no dispute with id {dispute_id}"),
        )


def _actor(state: Match, caller: Caller) -> str:
    """A director, or a player of the match by its token (the actor recorded in events)."""
    if caller.director:
        return caller.actor
    for side in match.SIDES:
        if caller.token is not None and token_matches(caller.token, state.token_hash(side)):
            return state.actor(side)
    raise ForbiddenError("only a player of this match (its token) or a director may do this")
