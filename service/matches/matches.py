"""Use cases of match play: load the match, decide, append the events, return the new state.

Server dice (rule G-DICE-1): at creation the service draws a 32-byte seed with ``secrets`` and
stores two things in ``MatchStarted``: the public commitment (SHA-256 of the seed) and the seed
sealed with the service's dice key (XOR with HMAC-SHA256(key, match id), so only a process
holding the key can read it). Every roll is ``domain.dice.roll_from_seed(seed, n)``. When the
match ends, ``DiceSeedRevealed`` with the plain seed is appended in the same transaction as
``MatchWon``; from then on anyone can recompute every roll. The API never shows the sealed seed.
"""

from __future__ import annotations

import hmac
import logging
import secrets
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, tzinfo
from typing import Any, cast
from uuid import UUID

from domain import match, tournament
from domain.dice import SEED_BYTES, roll_from_seed, seed_commitment, verify_rolls
from domain.director import is_director_actor
from domain.errors import ConflictError, ForbiddenError, InvalidInputError
from domain.events import DIRECTOR, DomainEvent
from domain.mat import format_mat
from domain.match import Match, Side
from domain.tokens import token_hash, token_matches
from domain.tournament import Tournament
from service.clock import Clock
from service.registration.tournaments import load_tournament
from service.shared.commands import CONDITIONAL, MATCH_PLAY, CommandRunner, Decision
from service.storage.events import Change, EventStore, StaleVersionError, UnknownAggregateError

_SEAL_CONTEXT = b"bgtd-seed-seal-v1"


log = logging.getLogger("bgtd.matches")


class DiceKeyMismatchError(ConflictError):
    """The service's dice key does not open a match's sealed seed: no server roll is possible
    until the key it was created with is restored."""

    type_slug = "dice-key-mismatch"


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sends a command: a player token, or the director acting for a side."""

    token: str | None = None
    director: bool = False
    actor: str = DIRECTOR
    """The director's actor when ``director`` (rule C-DIR-1: ``director`` or ``director:<id>``)."""
    side: Side | None = None
    """The side named in the body (a director acts for it; a player may only name its own)."""

    def acting_for(self, side: Side | None) -> Caller:
        """The same caller, naming ``side``."""
        return replace(self, side=side)


@dataclass(frozen=True, slots=True)
class MatchCreated:
    match: Match
    tokens: dict[str, str]
    """Each side's player token, shown once: the events keep only their hashes."""


@dataclass(frozen=True, slots=True)
class MatchTerms:
    """What a new match is played under, and who plays it."""

    player_a: str
    player_b: str
    match_length: int
    dice: str = "entered"
    clock: str = "none"
    rules_preset: str = "tournament"
    jacoby: bool = False
    beavers: bool = False
    tournament_id: str | None = None
    pairing: match.TournamentPairing | None = None
    seated: match.SeatedPlayers | None = None
    """The registered persons of an ad hoc match of a tournament (their names are sealed)."""
    token_hashes: Mapping[str, str] = field(default_factory=dict)
    """A side that plays with a token it has already (its registration's) gets no new one."""


@dataclass(frozen=True, slots=True)
class Opening:
    """A new match's first events (given the instant) and the new player tokens, shown once."""

    events: Callable[[datetime], list[DomainEvent]]
    tokens: dict[str, str]


@dataclass(frozen=True, slots=True)
class DiceProof:
    dice_mode: str
    commitment: str | None
    seed: str | None
    rolls: list[tuple[int, int, tuple[int, int]]]
    """(version, roll index, dice) of every server roll so far."""
    verified: bool | None
    """Whether the revealed seed reproduces every roll (None before the reveal)."""


def seal_seed(key: bytes, match_id: UUID, seed: bytes) -> str:
    """XOR ``seed`` with a pad only the key holder can compute; sealing twice unseals."""
    pad = hmac.digest(key, _SEAL_CONTEXT + match_id.bytes, "sha256")
    return bytes(a ^ b for a, b in zip(seed, pad, strict=True)).hex()


def unseal_seed(key: bytes, match_id: UUID, sealed: str) -> bytes:
    return bytes.fromhex(seal_seed(key, match_id, bytes.fromhex(sealed)))


class MatchService:
    """Match play: creation, rolls, plays, cube, resignations, time claims, audit, export."""

    def __init__(
        self,
        store: EventStore,
        clock: Clock,
        dice_key: bytes,
        *,
        commands: CommandRunner | None = None,
    ) -> None:
        self._store = store
        self._clock = clock
        self._dice_key = dice_key
        self._commands = commands or CommandRunner(store, clock)

    # Creation and queries --------------------------------------------------------------------

    def create(
        self,
        *,
        player_a: str,
        player_b: str,
        match_length: int,
        dice: str = "entered",
        clock: str = "none",
        rules_preset: str = "tournament",
        jacoby: bool = False,
        beavers: bool = False,
        tournament_id: str | None = None,
        seated: match.SeatedPlayers | None = None,
        token_hashes: dict[str, str] | None = None,
        actor: str = DIRECTOR,
    ) -> MatchCreated:
        """A new match. ``token_hashes`` lets a side play with a token it already has (the
        player token of its registration); the other sides get a new token, returned once."""
        opening = self.opening(
            uuid.uuid4(),
            MatchTerms(
                player_a=player_a,
                player_b=player_b,
                match_length=match_length,
                dice=dice,
                clock=clock,
                rules_preset=rules_preset,
                jacoby=jacoby,
                beavers=beavers,
                tournament_id=tournament_id,
                seated=seated,
                token_hashes=token_hashes or {},
            ),
            actor=actor,
        )
        state = self._commands.create(match.evolve, opening.events, CONDITIONAL)
        return MatchCreated(match=state, tokens=opening.tokens)

    def opening(self, match_id: UUID, terms: MatchTerms, *, actor: str) -> Opening:
        """The events that start a match, to be saved by the caller (a pairing saves its
        matches with its round): server dice get their sealed seed here (rule G-DICE-1)."""
        known = terms.token_hashes
        tokens: dict[str, str] = {
            side: secrets.token_urlsafe(24) for side in match.SIDES if side not in known
        }
        hashes = {side: token_hash(token) for side, token in tokens.items()} | dict(known)
        commitment = sealed = None
        if terms.dice == "server":
            seed = secrets.token_bytes(SEED_BYTES)
            commitment, sealed = seed_commitment(seed), seal_seed(self._dice_key, match_id, seed)

        def events(now: datetime) -> list[DomainEvent]:
            return match.start_match(
                match_id,
                now,
                player_a=terms.player_a,
                player_b=terms.player_b,
                match_length=terms.match_length,
                dice_mode=terms.dice,
                clock=terms.clock,
                rules=terms.rules_preset,
                jacoby=terms.jacoby,
                beavers=terms.beavers,
                token_hash_a=hashes["a"],
                token_hash_b=hashes["b"],
                seed_commitment=commitment,
                sealed_seed=sealed,
                tournament_id=terms.tournament_id,
                pairing=terms.pairing,
                seated=terms.seated,
                actor=actor,
            )

        return Opening(events=events, tokens=tokens)

    def get(self, match_id: UUID, version: int | None = None) -> Match:
        """The match now, or as it was right after event ``version`` (audit replay)."""
        if version is not None and version < 1:
            raise InvalidInputError("version", "event versions count from 1")
        state = self._load(match_id, version)
        if version is not None and state.version < version:
            raise UnknownAggregateError(
                f"match {match_id} has {state.version} events, no version {version}"
            )
        return state

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
        """The match as a ``.mat`` file, dated in the club's time zone ``zone`` (rule CAL-3)."""
        return format_mat(self.events(match_id), zone)

    def dice_proof(self, match_id: UUID) -> DiceProof:
        state = self.get(match_id)
        if state.dice_mode != "server":
            return DiceProof("entered", None, None, [], None)
        rolls: list[tuple[int, int, tuple[int, int]]] = []
        for event in self._store.stream(match_id):
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
        return DiceProof("server", state.seed_commitment, state.revealed_seed, rolls, verified)

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
                seed = self._seed(state)
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

    def play(
        self,
        match_id: UUID,
        caller: Caller,
        *,
        notation: str | None = None,
        position_id: str | None = None,
        expected_version: int | None = None,
    ) -> Match:
        return self._execute(
            match_id,
            caller,
            expected_version,
            lambda state, side, actor, now: match.play(
                state, side, now, notation=notation, position_id=position_id, actor=actor
            ),
        )

    def cube(
        self, match_id: UUID, caller: Caller, action: str, expected_version: int | None = None
    ) -> Match:
        command = _CUBE_COMMANDS.get(action)
        if command is None:
            raise InvalidInputError("action", f"is one of {', '.join(_CUBE_COMMANDS)}")
        return self._execute(
            match_id,
            caller,
            expected_version,
            lambda state, side, actor, now: command(state, side, now, actor=actor),
        )

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
        return self._execute(
            match_id,
            caller,
            expected_version,
            lambda state, side, actor, now: command(state, side, now, actor=actor),
        )

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

    def conclusions(
        self, decided: Tournament, events: Iterable[DomainEvent], now: datetime, actor: str
    ) -> list[Change[Any]]:
        """Each match whose result ``events`` recorded in the tournament from the board ends
        with it, in the same transaction: its clock stops and it takes no more plays."""
        ended = []
        for event in events:
            if not isinstance(event, tournament.ResultRecorded) or event.source == "match":
                continue
            located = decided.table_of(event.match_id)
            state = self._load(event.match_id)
            if located is None or state.is_over:
                continue
            side: Side = "a" if event.winner == located[1].player_a else "b"
            change = Change.of(
                match.evolve,
                state,
                match.conclude(state, side, event.points_a, event.points_b, now, actor=actor),
            )
            ended.append(self._revealed(change, now, actor))
        return ended

    def award_penalty(
        self, match_id: UUID, *, penalty_id: UUID, side: Side, points: int, reason: str, actor: str
    ) -> Match:
        """rule C-BREAK-2: the director's penalty; a match it decides records its result."""
        return self._execute(
            match_id,
            Caller(director=True),
            None,
            lambda state, _side, _actor, now: match.award_penalty(
                state,
                penalty_id=penalty_id,
                side=side,
                points=points,
                reason=reason,
                now=now,
                actor=actor,
            ),
            side_optional=True,
        )

    def change_penalty(
        self, match_id: UUID, *, penalty_id: UUID, points: int, reason: str, actor: str
    ) -> Match:
        """A penalty adjusted, or waived with 0 points."""
        return self._execute(
            match_id,
            Caller(director=True),
            None,
            lambda state, _side, _actor, now: match.change_penalty(
                state, penalty_id=penalty_id, points=points, reason=reason, now=now, actor=actor
            ),
            side_optional=True,
        )

    # The one shape of a use case -------------------------------------------------------------

    def _execute(
        self,
        match_id: UUID,
        caller: Caller,
        expected_version: int | None,
        decide: Callable[[Match, Side | None, str, datetime], list[DomainEvent]],
        *,
        side_optional: bool = False,
    ) -> Match:
        """Load, check the caller and the version, decide, append atomically, return.

        A command that lost a race is decided again on the winner's state (``MATCH_PLAY``);
        with ``expected_version`` (If-Match) any other version is a ``StaleVersionError``.
        """

        def attempt(now: datetime) -> Decision:
            state = self._load(match_id)
            if expected_version is not None and expected_version != state.version:
                raise StaleVersionError(
                    f"the match is at version {state.version}, not {expected_version} (If-Match)"
                )
            side, actor = self._authorise(state, caller, side_optional)
            change = Change.of(match.evolve, state, decide(state, side, actor, now))
            change = self._revealed(change, now, actor)
            new = change.state
            if new.is_over and not state.is_over and new.pairing is not None:
                return Decision.of(change, *self._tournament_result(new, now, actor))
            return Decision.of(change)

        decision = self._commands.run(attempt, MATCH_PLAY)
        return cast(Match, decision.changes[0].state)

    def _revealed(self, change: Change[Match], now: datetime, actor: str) -> Change[Match]:
        """rule G-DICE-1: a match of server dice that ended reveals its seed with its end."""
        new = change.state
        if new.is_over and new.dice_mode == "server" and new.revealed_seed is None:
            reveal = match.reveal_seed(new, self._seed(new), now, actor=actor)
            return change.then(match.evolve, reveal)
        return change

    def _tournament_result(self, state: Match, now: datetime, actor: str) -> list[Change[Any]]:
        """The result of a pairing's match, recorded in its tournament in the same transaction:
        exactly once, never lost (a result the tournament has already records nothing)."""
        assert state.pairing is not None
        assert state.tournament_id is not None
        held = load_tournament(self._store, UUID(state.tournament_id))
        pairing = state.pairing
        events = tournament.record_result(
            held,
            result_id=uuid.uuid4(),
            match_id=state.id,
            winner=pairing.player_a_id if state.winner == "a" else pairing.player_b_id,
            points_a=state.score_a,
            points_b=state.score_b,
            source="match",
            now=now,
            actor=actor,
        )
        return [Change.of(tournament.evolve, held, events)] if events else []

    def _load(self, match_id: UUID, version: int | None = None) -> Match:
        """The match, or a 404 when the id is unknown or names another aggregate."""
        return self._store.load_recorded_as(
            match_id,
            match.evolve,
            Match,
            lambda: match.NotAMatchError(f"no match with id {match_id}"),
            version,
        )

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

    def _seed(self, state: Match) -> bytes:
        """The match's server dice seed, checked against the commitment published at its start
        (rule G-DICE-1): with another dice key the unsealed bytes are no seed of this match."""
        if state.sealed_seed is None or state.seed_commitment is None:
            raise ConflictError("this match uses entered dice: there is no seed")
        seed = unseal_seed(self._dice_key, state.id, state.sealed_seed)
        if not hmac.compare_digest(seed_commitment(seed), state.seed_commitment):
            log.error("dice key mismatch: the sealed seed of match %s does not open", state.id)
            raise DiceKeyMismatchError(
                "the server dice of this match cannot be rolled: the service's dice key "
                "(BGTD_SECRET_KEY, or secret.key in the data directory) is not the key this match "
                "was created with, so its sealed seed does not match the published commitment "
                "(G-DICE-1); nothing was recorded"
            )
        return seed


_CUBE_COMMANDS: dict[str, Callable[..., list[DomainEvent]]] = {
    "double": match.double,
    "take": match.take,
    "drop": match.drop,
    "beaver": match.beaver,
    "raccoon": match.raccoon,
}
