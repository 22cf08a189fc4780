"""Match play that several use cases share: a match's opening, its commands' one shape, the
end a result from the board gives it, and the server dice's sealed seed (rule G-DICE-1).

Match play itself (``service/matches``), the rounds that open a match at each table
(``service/rounds``), the venue's reports (``service/venue``), the director's penalties
(``service/conduct``) and disputes (``service/evidence``) all go through one ``MatchPlay``,
built once at start-up.

``TournamentDay`` is the base of the day's use cases (rounds, conduct, venue): it lives here,
beside the match play they all hold, so that it stays on the match play's floor of the service
(tests/test_architecture.py).
"""

from __future__ import annotations

import hmac
import logging
import secrets
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache
from typing import Any, cast
from uuid import UUID
from zoneinfo import ZoneInfo

from domain import match, tournament
from domain.dice import SEED_BYTES, seed_commitment
from domain.errors import ConflictError, InvalidInputError
from domain.events import DIRECTOR, DomainEvent
from domain.match import Match, Side, TournamentPairing
from domain.people.tokens import token_hash
from domain.tournament import PairedTable, Tournament
from projections.runner import Views
from service.shared.commands import DECIDE_AGAIN, MATCH_PLAY, CommandRunner, Decision
from service.shared.loading import display_names, load_match, load_tournament
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
class MatchTerms:
    """What a new match is played under, and who plays it: the command ``MatchService.create``
    takes (the API restates its request body as this; ``rules`` and the rest share its names)."""

    player_a: str
    player_b: str
    match_length: int
    dice: str = "entered"
    clock: str = "none"
    clock_overtime_seconds: int = 0
    """rule G-CLOCK-1, USBGF option: one overtime of 60 or 120 s after the first expiry."""
    rules: str = "tournament"
    jacoby: bool = False
    beavers: bool = False
    tournament_id: UUID | None = None
    pairing: match.TournamentPairing | None = None
    seated: match.SeatedPlayers | None = None
    """The persons of an ad hoc match: of a tournament, or of the rating list (sealed names)."""
    rated: bool = True
    """rule R-RATE-5: False for a friendly."""
    variant: str = "backgammon"
    """rule V-MATCH-VARIANT-1."""
    cube: bool | None = None
    """rule V-CUBE-1: None gives the variant's default (on in backgammon only)."""
    tavli_format: str | None = None
    token_hashes: Mapping[str, str] = field(default_factory=dict)
    """A side that plays with a token it has already (its registration's) gets no new one."""


@dataclass(frozen=True, slots=True)
class Opening:
    """A new match's first events (given the instant) and the new player tokens, shown once."""

    events: Callable[[datetime], list[DomainEvent]]
    tokens: dict[str, str]


def seal_seed(key: bytes, match_id: UUID, seed: bytes) -> str:
    """XOR ``seed`` with a pad only the key holder can compute; sealing twice unseals."""
    pad = hmac.digest(key, _SEAL_CONTEXT + match_id.bytes, "sha256")
    return bytes(a ^ b for a, b in zip(seed, pad, strict=True)).hex()


def unseal_seed(key: bytes, match_id: UUID, sealed: str) -> bytes:
    return bytes.fromhex(seal_seed(key, match_id, bytes.fromhex(sealed)))


@lru_cache(maxsize=4096)
def _opened_seed(key: bytes, match_id: UUID, sealed: str, commitment: str) -> bytes | None:
    """The seed ``sealed`` holds if it matches ``commitment``, else None: remembered, since
    every server roll of a match opens the same seed (an HMAC and a SHA-256 per roll)."""
    seed = unseal_seed(key, match_id, sealed)
    return seed if hmac.compare_digest(seed_commitment(seed), commitment) else None


class MatchPlay:
    """The match mechanics every use case that touches a match shares (one per process)."""

    def __init__(self, store: EventStore, commands: CommandRunner, dice_key: bytes) -> None:
        self._store = store
        self._commands = commands
        self._dice_key = dice_key

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
                clock_overtime_seconds=terms.clock_overtime_seconds,
                rules=terms.rules,
                jacoby=terms.jacoby,
                beavers=terms.beavers,
                token_hash_a=hashes["a"],
                token_hash_b=hashes["b"],
                seed_commitment=commitment,
                sealed_seed=sealed,
                tournament_id=str(terms.tournament_id) if terms.tournament_id else None,
                pairing=terms.pairing,
                seated=terms.seated,
                rated=terms.rated,
                variant=terms.variant,
                cube=terms.cube,
                tavli_format=terms.tavli_format,
                actor=actor,
            )

        return Opening(events=events, tokens=tokens)

    def get(self, match_id: UUID, version: int | None = None) -> Match:
        """The match now, or as it was right after event ``version`` (audit replay)."""
        if version is not None and version < 1:
            raise InvalidInputError("version", "event versions count from 1")
        state = self.load(match_id, version)
        if version is not None and state.version < version:
            raise UnknownAggregateError(
                f"match {match_id} has {state.version} events, no version {version}"
            )
        return state

    def load(self, match_id: UUID, version: int | None = None) -> Match:
        """The match, or a 404 when the id is unknown or names another aggregate."""
        return load_match(self._store, match_id, version, recorded=True)

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
            state = self.load(event.match_id)
            if located is None or state.is_over:
                continue
            side: Side = "a" if event.winner == located[1].player_a else "b"
            change = Change.of(
                match.evolve,
                state,
                match.conclude(state, side, event.points_a, event.points_b, now, actor=actor),
            )
            ended.append(self.revealed(change, now, actor))
        return ended

    def run(
        self,
        match_id: UUID,
        expected_version: int | None,
        act: Callable[[Match, datetime], tuple[str, list[DomainEvent]]],
    ) -> Match:
        """Load, check the version, act (the actor and the events it decides), append
        atomically with what follows (a revealed seed, the result in the tournament), return.

        A command that lost a race is decided again on the winner's state (``MATCH_PLAY``);
        with ``expected_version`` (If-Match) any other version is a ``StaleVersionError``.
        """

        def attempt(now: datetime) -> Decision:
            state = self.load(match_id)
            if expected_version is not None and expected_version != state.version:
                raise StaleVersionError(
                    f"the match is at version {state.version}, not {expected_version} (If-Match)"
                )
            actor, events = act(state, now)
            change = self.revealed(Change.of(match.evolve, state, events), now, actor)
            new = change.state
            if new.is_over and not state.is_over and new.pairing is not None:
                return Decision.of(change, *self._tournament_result(new, now, actor))
            return Decision.of(change)

        decision = self._commands.run(attempt, MATCH_PLAY)
        return cast(Match, decision.changes[0].state)

    def revealed(self, change: Change[Match], now: datetime, actor: str) -> Change[Match]:
        """rule G-DICE-1: a match of server dice that ended reveals its seed with its end."""
        new = change.state
        if new.is_over and new.dice_mode == "server" and new.revealed_seed is None:
            reveal = match.reveal_seed(new, self.seed(new), now, actor=actor)
            return change.then(match.evolve, reveal)
        return change

    def _tournament_result(self, state: Match, now: datetime, actor: str) -> list[Change[Any]]:
        """The result of a pairing's match, recorded in its tournament in the same transaction:
        exactly once, never lost (a result the tournament has already records nothing)."""
        assert state.pairing is not None
        assert state.tournament_id is not None
        held = load_tournament(self._store, UUID(state.tournament_id))
        pairing = state.pairing
        # the match's score as it stands: in a best-of-three Tavli match these are game points,
        # which the standings count (V-TAVLI-MATCH-1, V-MATCH-VARIANT-1)
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

    def seed(self, state: Match) -> bytes:
        """The match's server dice seed, checked against the commitment published at its start
        (rule G-DICE-1): with another dice key the unsealed bytes are no seed of this match."""
        if state.sealed_seed is None or state.seed_commitment is None:
            raise ConflictError("this match uses entered dice: there is no seed")
        seed = _opened_seed(self._dice_key, state.id, state.sealed_seed, state.seed_commitment)
        if seed is None:
            log.error("dice key mismatch: the sealed seed of match %s does not open", state.id)
            raise DiceKeyMismatchError(
                "the server dice of this match cannot be rolled: the service's dice key "
                "(BGTD_SECRET_KEY, or secret.key in the data directory) is not the key this match "
                "was created with, so its sealed seed does not match the published commitment "
                "(G-DICE-1); nothing was recorded"
            )
        return seed

    def open_tables(
        self,
        state: Tournament,
        tables: tuple[PairedTable, ...],
        names: Mapping[str, str],
        now: datetime,
        actor: str,
    ) -> list[Change[Any]]:
        """A match started at each of ``tables`` (of the tournament's latest round), its
        players shown by ``names``: a pairing saves them with its round."""
        paired = state.rounds[-1]
        # a player's latest registration (one who left since still has the table's side)
        registrations = {r.player_id: r for r in state.registrations}
        openings: list[Change[Any]] = []
        for table in tables:
            if table.match_id is None or table.player_b is None:
                continue
            # rule V-MATCH-VARIANT-1: the match plays its stage's variant
            variant, cube, tavli_format = state.variants.match_options(table.stage)
            terms = MatchTerms(
                player_a=names[str(table.player_a)],
                player_b=names[str(table.player_b)],
                match_length=table.match_length,
                dice=state.dice,
                clock=state.clock,
                clock_overtime_seconds=state.clock_overtime_seconds,
                variant=variant,
                cube=cube,
                tavli_format=tavli_format,
                tournament_id=state.id,
                pairing=TournamentPairing(
                    round=paired.number,
                    table=table.table,
                    stage=table.stage,
                    player_a_id=table.player_a,
                    player_b_id=table.player_b,
                ),
                # the registration's player token plays the player's side (and nothing else)
                token_hashes={
                    "a": registrations[table.player_a].token_hash,
                    "b": registrations[table.player_b].token_hash,
                },
            )
            opening = self.opening(table.match_id, terms, actor=actor)
            started = Change.of(match.evolve, None, opening.events(now))
            result = state.result_of(table.match_id)
            if result is not None:  # decided at the pairing: the opponent had left (T-FMT-5)
                side: match.Side = "a" if result.winner == table.player_a else "b"
                started = started.then(
                    match.evolve, match.forfeit(started.state, side, now, actor=actor)
                )
            openings.append(started)
        return openings


@dataclass(frozen=True, slots=True)
class DayParts:
    """What each of the day's use cases is built from, put together once at start-up."""

    store: EventStore
    views: Views
    zone: ZoneInfo
    """The club's: the day's instants are shown in it."""
    play: MatchPlay
    commands: CommandRunner


class TournamentDay:
    """The base of the day's use cases (rounds, conduct, venue): the parts they all hold, and
    the one way they change a tournament."""

    def __init__(self, parts: DayParts) -> None:
        self._store = parts.store
        self._views = parts.views
        self._zone = parts.zone
        self._play = parts.play
        self._commands = parts.commands

    def load(self, tournament_id: UUID) -> Tournament:
        """The tournament, or a 404."""
        return load_tournament(self._store, tournament_id)

    def _update(
        self,
        tournament_id: UUID,
        decide: Callable[[Tournament, datetime], Iterable[DomainEvent]],
    ) -> Change[Tournament]:
        """Decide on the latest tournament; a command that loses a race is decided again."""
        return self._commands.update(
            lambda: self.load(tournament_id), tournament.evolve, decide, DECIDE_AGAIN
        )

    def _record(
        self,
        tournament_id: UUID,
        decide: Callable[[Tournament, datetime], Iterable[DomainEvent]],
        actor: str,
    ) -> Change[Tournament]:
        """Decide a result on the latest tournament, as ``_update``: each match whose result
        it records from the board ends with it, in the same transaction (its clock stops and
        it takes no more plays)."""

        def attempt(now: datetime) -> Decision:
            held = self.load(tournament_id)
            recorded = Change.of(tournament.evolve, held, decide(held, now))
            ended = self._play.conclusions(recorded.state, recorded.events, now, actor)
            return Decision.of(recorded, *ended)

        change: Change[Tournament] = self._commands.run(attempt, DECIDE_AGAIN).changes[0]
        return change

    def _names(self, tournament_id: UUID) -> dict[str, str]:
        return display_names(self._views, tournament_id)
