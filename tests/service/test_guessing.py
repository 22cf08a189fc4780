"""Two processes on one PostgreSQL store, each deciding first on the match it has cached.

A command's first attempt trusts the state this process holds without asking the database for
newer events (``EventStore.guessing``); where another process moved the match on meanwhile, the
attempt is made again on the latest state. These tests play one table's commands through two
processes in turn, as a load balancer would deal them, so that every other command finds its
process's cache behind.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from domain import match as rules
from domain.backgammon.cache import cached_format_play
from domain.events import fold
from domain.match.errors import WrongPhaseError
from service.clock import MovableClock
from service.matches.matches import MatchCreated, MatchService
from service.shared.commands import CommandRunner
from service.shared.match_play import Caller, MatchTerms
from service.storage.events import Change, EventStore, StaleVersionError
from service.storage.persistence import persistence_environment
from tests.service.test_store import Counter, evolve, increase, start

pytestmark = pytest.mark.postgres
KEY = b"k" * 32


@pytest.fixture
def processes(postgres_schema_url: str) -> Iterator[tuple[MatchService, MatchService]]:
    """Two match services, each with its own store (connections and cache) on one schema."""
    clock = MovableClock(datetime(2026, 4, 18, 13, 0, tzinfo=UTC), ticking=False)
    stores = [EventStore(env=persistence_environment(postgres_schema_url)) for _ in range(2)]
    yield MatchService(stores[0], clock, KEY), MatchService(stores[1], clock, KEY)
    for store in stores:
        store.close()


def next_command(state: rules.Match, rng: random.Random) -> tuple[str, dict[str, object]]:
    if state.phase == "move":
        return "play", {"notation": cached_format_play(rng.choice(state.plays()))}
    return "roll", {"dice": (rng.randint(1, 6), rng.randint(1, 6))}


def opened_here_played_there(
    processes: tuple[MatchService, MatchService],
) -> tuple[MatchCreated, rules.Match, rules.Match]:
    """The first process creates a match and rolls a's opening 3-1, so it holds the match at
    that version; the second plays a's 8/5 6/5 (now b is to roll): the created match, the
    state the first holds and the state the second stored."""
    first, second = processes
    created = first.create(MatchTerms(player_a="a", player_b="b", match_length=5, dice="entered"))
    side_a = Caller(token=created.tokens["a"])
    opened = first.roll(created.match.id, side_a, (3, 1))
    played = second.play(created.match.id, side_a, notation="8/5 6/5")
    return created, opened, played


def test_a_table_whose_commands_alternate_between_two_processes_plays_without_a_conflict(
    processes: tuple[MatchService, MatchService],
) -> None:
    created = processes[0].create(
        MatchTerms(player_a="a", player_b="b", match_length=5, dice="entered")
    )
    callers = {side: Caller(token=token) for side, token in created.tokens.items()}
    rng = random.Random(5)
    state = created.match
    for number in range(120):
        if state.is_over:
            break
        service = processes[number % 2]  # the other process's cache is a command behind
        name, arguments = next_command(state, rng)
        state = getattr(service, name)(state.id, callers[state.turn or "a"], **arguments)

    for service in processes:
        stored = service.events(state.id)
        assert [event.originator_version for event in stored] == list(range(1, state.version + 1))
        assert fold(rules.evolve, None, stored) == state


def test_a_command_legal_only_on_the_stale_cache_is_refused_on_the_latest_state(
    processes: tuple[MatchService, MatchService],
) -> None:
    first, _ = processes
    created, cached, played = opened_here_played_there(processes)
    side_a = Caller(token=created.tokens["a"])

    # legal on first's stale cache; the refusal is the latest state's, not a lost race (409)
    with pytest.raises(WrongPhaseError, match="side b is to double or roll"):
        first.play(cached.id, side_a, notation="13/10 24/23")
    assert first.get(cached.id) == played  # nothing was stored


def test_if_match_names_the_version_another_process_answered(
    processes: tuple[MatchService, MatchService],
) -> None:
    first, _ = processes
    created, _, played = opened_here_played_there(processes)
    side_b = Caller(token=created.tokens["b"])

    # the tablet saw second's answer and sends its version; first's cache is a version behind
    rolled = first.roll(created.match.id, side_b, (6, 5), expected_version=played.version)
    assert rolled.version == played.version + 1
    assert rolled.dice == (6, 5)


def test_a_query_reads_what_the_other_process_stored(
    processes: tuple[MatchService, MatchService],
) -> None:
    first, _ = processes
    created, _, played = opened_here_played_there(processes)
    # only a command's first attempt guesses: a query asks the store for newer events
    assert first.get(created.match.id) == played


def test_a_guess_that_decides_nothing_is_decided_again_on_the_stored_state(
    postgres_schema_url: str,
) -> None:
    stores = [EventStore(env=persistence_environment(postgres_schema_url)) for _ in range(2)]
    first, second = stores
    try:
        counter_id = start(first)
        first.load(counter_id, evolve)  # first caches the counter at 0
        second.append(increase(second.load(counter_id, evolve), 10))
        clock = MovableClock(datetime(2026, 4, 18, 13, 0, tzinfo=UTC), ticking=False)

        def double_when_ten_or_more(now: datetime) -> Change[Counter]:
            # like a scheduled job: nothing to do on first's cached state, something on the latest
            counter = first.load(counter_id, evolve)
            events = [increase(counter, counter.total)] if counter.total >= 10 else []
            return Change.of(evolve, counter, events)

        decided = CommandRunner(first, clock).run(double_when_ten_or_more)

        assert decided.state.total == 20
        assert second.load(counter_id, evolve).total == 20
    finally:
        for store in stores:
            store.close()


def test_if_match_with_a_version_another_process_moved_past_is_a_conflict(
    processes: tuple[MatchService, MatchService],
) -> None:
    first, _ = processes
    created, opened, _ = opened_here_played_there(processes)
    side_b = Caller(token=created.tokens["b"])

    # first's cache still agrees with the tablet's version: the insert finds it taken
    with pytest.raises(StaleVersionError, match="If-Match"):
        first.roll(created.match.id, side_b, (6, 5), expected_version=opened.version)


def test_a_command_on_a_match_this_process_holds_reads_nothing_from_the_database(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = EventStore(env=persistence_environment(postgres_schema_url))
    clock = MovableClock(datetime(2026, 4, 18, 13, 0, tzinfo=UTC), ticking=False)
    service = MatchService(store, clock, KEY)
    try:
        created = service.create(
            MatchTerms(player_a="a", player_b="b", match_length=5, dice="entered")
        )
        side_a = Caller(token=created.tokens["a"])
        opened = service.roll(created.match.id, side_a, (3, 1))
        reads: list[object] = []

        def watched(read: Callable[..., Any]) -> Callable[..., Any]:
            def counted(*arguments: Any, **keywords: Any) -> Any:
                reads.append(arguments)
                return read(*arguments, **keywords)

            return counted

        for reader in (store.events, store.repository):
            monkeypatch.setattr(reader, "get", watched(reader.get))

        played = service.play(created.match.id, side_a, notation="8/5 6/5")

        assert played.version == opened.version + 1
        assert reads == []  # the insert alone: no question for newer events before it
        assert service.get(created.match.id) == played  # a query does ask (and agrees)
        assert len(reads) == 1
    finally:
        store.close()


def test_a_state_read_but_not_written_is_confirmed_before_the_decision_counts(
    postgres_schema_url: str,
) -> None:
    stores = [EventStore(env=persistence_environment(postgres_schema_url)) for _ in range(2)]
    first, second = stores
    try:
        limit_id, counter_id = start(first), start(first)
        first.load(limit_id, evolve)  # first caches the limit at 0
        second.append(increase(second.load(limit_id, evolve), 3))
        clock = MovableClock(datetime(2026, 4, 18, 13, 0, tzinfo=UTC), ticking=False)

        def add_the_limit(now: datetime) -> Change[Counter]:
            # reads one aggregate (like a season's bans) and writes another: no save checks
            # the version of the one it only read
            limit = first.load(limit_id, evolve)
            counter = first.load(counter_id, evolve)
            return Change.of(evolve, counter, [increase(counter, limit.total)])

        decided = CommandRunner(first, clock).run(add_the_limit)

        assert decided.state.total == 3
    finally:
        for store in stores:
            store.close()
