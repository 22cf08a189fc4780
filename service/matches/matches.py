"""Use cases of match play: load the match, decide, append the events, return the new state.

Server dice (rule G-DICE-1): at creation the service draws a 32-byte seed with ``secrets`` and
stores two things in ``MatchStarted``: the public commitment (SHA-256 of the seed) and the seed
sealed with the service's dice key (XOR with HMAC-SHA256(key, match id), so only a process
holding the key can read it). Every roll is ``domain.dice.roll_from_seed(seed, n)``. When the
match ends, ``DiceSeedRevealed`` with the plain seed is appended in the same transaction as
``MatchWon``; from then on anyone can recompute every roll. The API never shows the sealed seed.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo
from typing import cast
from uuid import UUID

from domain import match
from domain.dice import roll_from_seed, verify_rolls
from domain.errors import ConflictError, ForbiddenError, InvalidInputError
from domain.events import DIRECTOR, DomainEvent
from domain.mat import format_mat
from domain.match import Match, Side
from domain.match.variant_plays import GivenBoard
from domain.people.director import is_director_actor
from domain.people.tokens import token_matches
from domain.ratings import club
from domain.ratings.club import Resolver
from projections.runner import Views
from service.clock import Clock
from service.shared.commands import CONDITIONAL, DECIDE_AGAIN, CommandRunner, Decision
from service.shared.match_play import Caller, MatchPlay, MatchTerms
from service.shared.rating_list import (
    load_club_ratings,
    new_player_id,
    player_directory,
    resolve_sides,
)
from service.storage.events import Change, EventStore, UnknownAggregateError


class NotExportableError(ConflictError):
    """rule V-WIN-1: a variant match cannot be written as a ``.mat`` file."""

    type_slug = "not-exportable"


@dataclass(frozen=True, slots=True)
class MatchCreated:
    match: Match
    tokens: dict[str, str]
    """Each side's player token, shown once: the events keep only their hashes."""


@dataclass(frozen=True, slots=True)
class DiceProof:
    dice_mode: str
    commitment: str | None
    seed: str | None
    rolls: list[tuple[int, int, tuple[int, int]]]
    """(version, roll index, dice) of every server roll so far."""
    verified: bool | None
    """Whether the revealed seed reproduces every roll (None before the reveal)."""
    voided: frozenset[int] = frozenset()
    """The versions of the rolls voided since (rule G-DICE-2): rolled from the seed all the
    same, so they stay in the proof."""


class MatchService:
    """Match play: creation, rolls, plays, cube, resignations, time claims, audit, export."""

    def __init__(
        self,
        store: EventStore,
        clock: Clock,
        dice_key: bytes,
        *,
        commands: CommandRunner | None = None,
        play: MatchPlay | None = None,
        views: Views | None = None,
    ) -> None:
        """``views``: to find the players a rated ad hoc match names (rule R-RATE-7); without
        them every ad hoc match is between typed-in names."""
        self._views = views
        self._store = store
        self._clock = clock
        self._commands = commands or CommandRunner(store, clock)
        self._play = play or MatchPlay(store, self._commands, dice_key)

    # Creation and queries --------------------------------------------------------------------

    def get(self, match_id: UUID, version: int | None = None) -> Match:
        """The match now, or as it was right after event ``version`` (audit replay)."""
        return self._play.get(match_id, version)

    def create(self, terms: MatchTerms, *, actor: str = DIRECTOR) -> MatchCreated:
        """A new match. ``terms.token_hashes`` lets a side play with a token it already has (the
        player token of its registration); the other sides get a new token, returned once.

        rule R-RATE-7: the sides of a rated ad hoc match (outside a tournament, with a length)
        name players of the rating list, by id or display name; a new name adds a rating-only
        player in the same transaction. A friendly (``rated`` False) keeps free names."""
        match_id = uuid.uuid4()
        on_the_rating_list = terms.rated and terms.match_length >= 1 and terms.seated is None
        if not on_the_rating_list or self._views is None:
            opening = self._play.opening(match_id, terms, actor=actor)
            state = self._commands.create(match.evolve, opening.events, CONDITIONAL)
            return MatchCreated(match=state, tokens=opening.tokens)
        views = self._views
        tokens: dict[str, str] = {}

        def attempt(now: datetime) -> Decision:
            held = load_club_ratings(self._store)
            directory = player_directory(views)
            resolver = Resolver(directory, new_player_id)
            a_id, b_id = resolve_sides(resolver, terms.player_a, terms.player_b)
            named = {v: k for k, v in resolver.new.items()} | dict(directory.names)
            opening = self._play.opening(
                match_id,
                replace(
                    terms,
                    player_a=named[a_id],
                    player_b=named[b_id],
                    seated=match.SeatedPlayers(player_a_id=a_id, player_b_id=b_id),
                ),
                actor=actor,
            )
            tokens.clear()
            tokens.update(opening.tokens)
            started = Change.of(match.evolve, None, opening.events(now))
            added = club.add_players(held, resolver, now, actor=actor)
            if not added:
                return Decision.of(started)
            return Decision.of(started, Change.of(club.evolve, held, added))

        # two new names at once race for the rating list's stream: the loser decides again
        decision = self._commands.run(attempt, DECIDE_AGAIN)
        return MatchCreated(match=cast(Match, decision.changes[0].state), tokens=tokens)

    def events(self, match_id: UUID, until_version: int | None = None) -> list[DomainEvent]:
        """The match's events up to ``until_version``: a 404 for an unknown match or version."""
        if until_version is not None and until_version < 1:
            raise InvalidInputError("version", "event versions count from 1")
        events: list[DomainEvent] = self._store.stream(match_id, until_version)
        if not events:
            raise UnknownAggregateError(f"no record with id {match_id}")
        match.evolve(None, events[0])  # NotAMatchError unless the stream starts a match
        last = events[-1].originator_version
        if until_version is not None and last < until_version:
            raise UnknownAggregateError(
                f"match {match_id} has {last} events, no version {until_version}"
            )
        return events

    def export_mat(self, match_id: UUID, zone: tzinfo) -> str:
        """The match as a ``.mat`` file, dated in the club's time zone ``zone`` (rule CAL-3).
        Backgammon only: a variant match answers 409 with the reason."""
        events = self.events(match_id)
        variant = match.evolve(None, events[0]).variant
        if variant != "backgammon":
            raise NotExportableError(
                f"a {variant} match has no .mat export: GNU Backgammon cannot import Plakoto, "
                "Fevga or Nardi games, and it would score a Portes or Tavla gammon that it "
                "sees as a backgammon as 3 points, where these variants score it as 2 (V-WIN-1)"
            )
        return format_mat(events, zone)

    def dice_proof(self, match_id: UUID) -> DiceProof:
        state = self.get(match_id)
        if state.dice_mode != "server":
            return DiceProof("entered", None, None, [], None)
        rolls: list[tuple[int, int, tuple[int, int]]] = []
        voided: set[int] = set()
        for event in self._store.stream(match_id):
            if isinstance(event, match.RollVoided):
                voided.add(event.roll_version)
            if isinstance(event, match.OpeningRollMade) and event.roll_index is not None:
                rolls.append(
                    (event.originator_version, event.roll_index, (event.die_a, event.die_b))
                )
            elif isinstance(event, match.DiceRolled) and event.roll_index is not None:
                rolls.append((event.originator_version, event.roll_index, event.dice))
        verified = None
        if state.revealed_seed is not None and state.seed_commitment is not None:
            seed = bytes.fromhex(state.revealed_seed)
            verified = verify_rolls(
                seed, state.seed_commitment, [(index, dice) for _, index, dice in rolls]
            )
        return DiceProof(
            "server", state.seed_commitment, state.revealed_seed, rolls, verified, frozenset(voided)
        )

    # Commands --------------------------------------------------------------------------------

    def roll(
        self,
        match_id: UUID,
        caller: Caller,
        dice: Sequence[int] | None,
        expected_version: int | None = None,
    ) -> Match:
        """Entered dice come in ``dice``; server dice are derived from the sealed seed."""

        def decide(state: Match, side: Side | None, actor: str, now: datetime) -> list[DomainEvent]:
            if state.dice_mode == "server":
                if dice is not None:
                    raise InvalidInputError(
                        "dice", "this match rolls server dice: send {} and the service rolls"
                    )
                seed = self._play.seed(state)
                index = state.server_rolls
                return match.roll(
                    state, side, roll_from_seed(seed, index), now, actor=actor, roll_index=index
                )
            if dice is None:
                raise InvalidInputError("dice", "this match uses entered dice: send the two dice")
            entered_by = (
                None if is_director_actor(actor) else side
            )  # a player's token names its side
            return match.roll(state, side, dice, now, actor=actor, entered_by=entered_by)

        return self._execute(match_id, caller, expected_version, decide, side_optional=True)

    def void_roll(
        self,
        match_id: UUID,
        caller: Caller,
        reason: str,
        expected_version: int | None = None,
    ) -> Match:
        """rule G-DICE-2: a director voids the latest roll at once; a player asks, and the
        roll is voided when the opponent asks too. The roller then rolls again."""
        return self._execute(
            match_id,
            caller,
            expected_version,
            lambda state, side, actor, now: match.void_roll(
                state, side, reason, now, director=caller.director, actor=actor
            ),
            side_optional=True,
        )

    def play(
        self,
        match_id: UUID,
        caller: Caller,
        *,
        notation: str | None = None,
        position_id: str | None = None,
        board: GivenBoard | None = None,
        expected_version: int | None = None,
    ) -> Match:
        """A play by notation or Position ID; in a variant game also by the board after it."""
        return self._execute(
            match_id,
            caller,
            expected_version,
            lambda state, side, actor, now: match.play(
                state,
                side,
                now,
                notation=notation,
                position_id=position_id,
                board=board,
                actor=actor,
            ),
        )

    def cube(
        self, match_id: UUID, caller: Caller, action: str, expected_version: int | None = None
    ) -> Match:
        command = _CUBE_COMMANDS.get(action)
        if command is None:
            raise InvalidInputError("action", f"is one of {', '.join(_CUBE_COMMANDS)}")
        return self._by_side(match_id, caller, expected_version, command)

    def resign(
        self,
        match_id: UUID,
        caller: Caller,
        level: str | None,
        expected_version: int | None = None,
    ) -> Match:
        def decide(state: Match, side: Side | None, actor: str, now: datetime) -> list[DomainEvent]:
            if side is None:
                raise InvalidInputError("side", "name the side that resigns ('a' or 'b')")
            return match.offer_resignation(state, side, level, now, actor=actor)

        return self._execute(match_id, caller, expected_version, decide, side_optional=True)

    def answer_resignation(
        self, match_id: UUID, caller: Caller, accept: bool, expected_version: int | None = None
    ) -> Match:
        command = match.accept_resignation if accept else match.reject_resignation
        return self._by_side(match_id, caller, expected_version, command)

    def claim_timeout(
        self, match_id: UUID, caller: Caller, expected_version: int | None = None
    ) -> Match:
        def decide(state: Match, side: Side | None, actor: str, now: datetime) -> list[DomainEvent]:
            running = state.clock.running
            claimant = side or (match.other(running) if running else None)
            if claimant is None:
                raise ConflictError("no clock is running: there is nothing to claim")
            return match.claim_timeout(state, claimant, now, actor=actor)

        return self._execute(match_id, caller, expected_version, decide, side_optional=True)

    def close_session(
        self, match_id: UUID, caller: Caller, expected_version: int | None = None
    ) -> Match:
        if not caller.director:
            raise ForbiddenError("only a director closes a money session")
        return self._execute(
            match_id,
            caller,
            expected_version,
            lambda state, side, actor, now: match.close_session(state, now, actor=actor),
            side_optional=True,
        )

    # The one shape of a use case -------------------------------------------------------------

    def _by_side(
        self,
        match_id: UUID,
        caller: Caller,
        expected_version: int | None,
        command: Callable[..., list[DomainEvent]],
    ) -> Match:
        """A match command that needs only the caller's side (a cube action, an answer to a
        resignation): ``command(state, side, now, actor=...)``."""
        return self._execute(
            match_id,
            caller,
            expected_version,
            lambda state, side, actor, now: command(state, side, now, actor=actor),
        )

    def _execute(
        self,
        match_id: UUID,
        caller: Caller,
        expected_version: int | None,
        decide: Callable[[Match, Side | None, str, datetime], list[DomainEvent]],
        *,
        side_optional: bool = False,
    ) -> Match:
        """The caller's command on the match (``MatchPlay.run``): the caller's side decides."""

        def act(state: Match, now: datetime) -> tuple[str, list[DomainEvent]]:
            side, actor = self._authorise(state, caller, side_optional)
            return actor, decide(state, side, actor, now)

        return self._play.run(match_id, expected_version, act)

    def _authorise(
        self, state: Match, caller: Caller, side_optional: bool
    ) -> tuple[Side | None, str]:
        """The side the caller acts for, and the actor recorded in the events."""
        if caller.director:
            side = caller.side
            if side is None and not side_optional:
                side = state.turn
            return side, caller.actor
        for side in match.SIDES:
            if caller.token is not None and token_matches(caller.token, state.token_hash(side)):
                if caller.side is not None and caller.side != side:
                    raise ForbiddenError(f"this token plays side {side}, not side {caller.side}")
                return side, state.actor(side)
        raise ForbiddenError("this token is not a player token of this match")


_CUBE_COMMANDS: dict[str, Callable[..., list[DomainEvent]]] = {
    "double": match.double,
    "take": match.take,
    "drop": match.drop,
    "beaver": match.beaver,
    "raccoon": match.raccoon,
}
