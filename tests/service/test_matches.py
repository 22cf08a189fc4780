"""The match use cases on SQLite and PostgreSQL: races, snapshots, sealed server dice."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID, uuid4

import pytest

from domain import match as rules
from domain.backgammon.cache import cached_format_play
from domain.dice import seed_commitment
from domain.errors import ConflictError
from domain.events import Aggregate, DomainEvent, fold
from domain.people.tokens import token_hash
from service.clock import MovableClock
from service.matches.matches import MatchService
from service.shared.match_play import (
    Caller,
    DiceKeyMismatchError,
    MatchTerms,
    seal_seed,
    unseal_seed,
)
from service.storage.events import EventStore, StaleVersionError
from service.storage.persistence import persistence_environment

KEY = b"k" * 32


@pytest.fixture
def url(tmp_path: Path, database_url: str | None) -> str:
    return database_url or f"sqlite:///{tmp_path / 'events.sqlite3'}"


@pytest.fixture
def store(url: str) -> Iterator[EventStore]:
    event_store = EventStore(env=persistence_environment(url))
    yield event_store
    event_store.close()


@pytest.fixture
def service(store: EventStore) -> MatchService:
    clock = MovableClock(datetime(2026, 4, 18, 13, 0, tzinfo=UTC), ticking=False)
    return MatchService(store, clock=clock, dice_key=KEY)


def play_randomly(
    service: MatchService, match: rules.Match, tokens: dict[str, str], until: int
) -> rules.Match:
    """Server dice and random legal plays until the match has ``until`` events."""
    rng = random.Random(11)
    callers = {side: Caller(token=token) for side, token in tokens.items()}
    state = match
    while state.version < until and not state.is_over:
        side = state.turn or "a"
        if state.phase == "move":
            choice = cached_format_play(rng.choice(state.plays()))
            state = service.play(state.id, callers[side], notation=choice)
        else:
            state = service.roll(state.id, callers[side], None)
    return state


def test_two_commands_decided_on_the_same_version_store_one_and_refuse_the_other(
    service: MatchService, store: EventStore
) -> None:
    created = service.create(MatchTerms(player_a="a", player_b="b", match_length=3, dice="server"))
    opened = service.roll(created.match.id, Caller(token=created.tokens["a"]), None)
    while opened.phase == "opening":  # rule G-OPEN-1: a tie is rolled again
        opened = service.roll(created.match.id, Caller(token=created.tokens["a"]), None)
    now = datetime(2026, 4, 18, 13, 1, tzinfo=UTC)
    first, second = opened.plays()[:2]

    winner = rules.play(opened, None, now, position_id=first.position_id)
    loser = rules.play(opened, None, now, position_id=second.position_id)
    store.append(*winner)

    with pytest.raises(StaleVersionError):
        store.append(*loser)
    stored = store.load(opened.id, rules.evolve)
    assert stored.version == opened.version + 1
    assert stored.position.position_id == first.position_id


def test_a_300_event_match_loads_from_its_snapshots_like_a_full_replay(
    service: MatchService, store: EventStore, url: str
) -> None:
    created = service.create(MatchTerms(player_a="a", player_b="b", match_length=64, dice="server"))
    played = play_randomly(service, created.match, created.tokens, until=300)
    assert played.version >= 300

    snapshots = list(store.snapshots.get(played.id)) if store.snapshots else []
    assert [s.originator_version for s in snapshots] == [300]  # only the latest is kept
    cold = EventStore(env=persistence_environment(url))
    try:
        assert cold.load(played.id, rules.evolve) == played
        assert cold.load(played.id, rules.evolve, 250) == fold(
            rules.evolve, None, store.stream(played.id, 250)
        )
    finally:
        cold.close()


def test_a_sealed_seed_opens_only_with_the_key() -> None:
    match_id = UUID(int=5)
    seed = bytes(range(32))

    sealed = seal_seed(KEY, match_id, seed)

    assert bytes.fromhex(sealed) != seed
    assert unseal_seed(KEY, match_id, sealed) == seed
    assert unseal_seed(b"x" * 32, match_id, sealed) != seed
    assert unseal_seed(KEY, UUID(int=6), sealed) != seed


def test_a_changed_dice_key_refuses_server_rolls_before_anything_is_recorded(
    service: MatchService, store: EventStore
) -> None:
    created = service.create(MatchTerms(player_a="a", player_b="b", match_length=1, dice="server"))
    restarted = MatchService(
        store,
        clock=MovableClock(datetime(2026, 4, 18, 13, 0, tzinfo=UTC), ticking=False),
        dice_key=b"another key" * 3,
    )

    with pytest.raises(DiceKeyMismatchError, match="dice key") as refused:
        restarted.roll(created.match.id, Caller(token=created.tokens["a"]), None)

    assert isinstance(refused.value, ConflictError)
    assert store.stream(created.match.id) == service.events(created.match.id)
    assert len(store.stream(created.match.id)) == created.match.version


def test_the_seed_is_revealed_in_the_same_commit_as_the_match_result(
    service: MatchService, store: EventStore
) -> None:
    created = service.create(MatchTerms(player_a="a", player_b="b", match_length=1, dice="server"))
    match_id = created.match.id
    a, b = Caller(token=created.tokens["a"]), Caller(token=created.tokens["b"])
    assert created.match.sealed_seed is not None
    assert created.match.revealed_seed is None
    state = service.roll(match_id, a, None)
    while state.phase == "opening":  # rule G-OPEN-1: a tie is rolled again
        state = service.roll(match_id, a, None)
    loser = b if state.turn == "a" else a

    state = service.resign(match_id, loser, "single")
    state = service.answer_resignation(match_id, a if loser is b else b, accept=True)

    events = store.stream(match_id)
    assert [type(event).__name__ for event in events[-3:]] == [
        "GameWon",
        "MatchWon",
        "DiceSeedRevealed",
    ]
    assert events[-1].actor == events[-2].actor  # revealed by the command that ended the match
    assert events[-1].actor is not None
    assert events[-1].actor.startswith("player:")
    assert state.revealed_seed is not None
    assert seed_commitment(bytes.fromhex(state.revealed_seed)) == state.seed_commitment
    assert service.dice_proof(match_id).verified is True


def test_a_pairing_can_create_a_match_played_with_the_registration_tokens(
    service: MatchService,
) -> None:
    created = service.create(
        MatchTerms(
            player_a="p1",
            player_b="p2",
            match_length=5,
            token_hashes={"a": token_hash("registration-a")},
        )
    )

    assert set(created.tokens) == {"b"}
    state = service.roll(created.match.id, Caller(token="registration-a"), [3, 1])
    assert state.opening_roll == (3, 1)
    events = service.events(created.match.id)
    assert events[-1].actor == "player:p1"


class Elsewhere(Aggregate, frozen=True, kw_only=True):
    """Another aggregate's state, as the store may cache it under any id."""


class ElsewhereHappened(DomainEvent, frozen=True, kw_only=True):
    """Another aggregate's event."""


def test_the_id_of_another_aggregate_names_no_match_also_from_the_stores_cache(
    service: MatchService, store: EventStore, url: str
) -> None:
    other_id = uuid4()
    at = datetime(2026, 4, 18, 12, 0, tzinfo=UTC)
    first = ElsewhereHappened(originator_id=other_id, originator_version=1, timestamp=at)
    store.append(first, state=Elsewhere(id=other_id, version=1))

    with pytest.raises(rules.NotAMatchError):
        service.get(other_id)
    with pytest.raises(rules.NotAMatchError):
        service.get(other_id, 1)
    other_process = EventStore(env=persistence_environment(url))
    try:
        other_process.append(
            ElsewhereHappened(originator_id=other_id, originator_version=2, timestamp=at)
        )
    finally:
        other_process.close()
    with pytest.raises(rules.NotAMatchError):  # PostgreSQL: the cached state meets newer events
        service.roll(other_id, Caller(director=True, side="a"), [3, 1])
