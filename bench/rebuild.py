"""Rebuild at scale: a store of a million events, every view rebuilt from zero.

The store is a season of tournament days played through the services (registrations,
check-ins, rounds, results: every projection has work), and each tournament match played out
move by move: a few matches are played with the domain's own commands (random dice, a random
legal play each turn) and their events appended to every tournament match in big batches,
re-identified as that match's, followed by the director's result of the same score. Most of
the log is then match play that no view shows, as in a real club. The build does not count;
the rebuild prints events, seconds and events/s, with plain progress on stderr.

``BENCH_REBUILD_EVENTS`` sets the store's size (default 1,000,000).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from uuid import UUID, uuid4

import msgspec

from bench.standings import PLAYERS, PlayRound, play_day
from domain.backgammon.cache import cached_format_play
from domain.events import DomainEvent
from domain.match import Match, MatchWon, evolve, play, roll, start_match
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.rounds.rounds import ReportedResult
from service.settings import Settings
from service.shared.day_views import Round

EVENTS = int(os.environ.get("BENCH_REBUILD_EVENTS", "1000000"))
TARGET_EVENTS_PER_SECOND = 50_000
TEMPLATES = 8
MATCH_LENGTH = 7


def played_match(rng: random.Random, now: datetime) -> list[DomainEvent]:
    """A 7-point match played out with the domain's commands: random dice and plays."""
    state: Match | None = None
    events: list[DomainEvent] = []

    def add(new: list[DomainEvent]) -> Match:
        nonlocal state
        for event in new:
            state = evolve(state, event)
        events.extend(new)
        assert state is not None
        return state

    current = add(
        start_match(
            uuid4(),
            now,
            player_a="a",
            player_b="b",
            match_length=MATCH_LENGTH,
            dice_mode="entered",
            clock="none",
            token_hash_a="",
            token_hash_b="",
        )
    )
    while not current.is_over:
        if current.phase == "move":
            chosen = rng.choice(current.plays())
            current = add(play(current, None, now, notation=cached_format_play(chosen)))
        else:
            current = add(roll(current, None, (rng.randint(1, 6), rng.randint(1, 6)), now))
    return events


def moves_of(template: list[DomainEvent], match_id: UUID, now: datetime) -> list[DomainEvent]:
    """The template's play (after its start, whose two events every match has) as the match's."""
    return [
        msgspec.structs.replace(event, originator_id=match_id, timestamp=now)
        for event in template[2:]
    ]


def play_out(
    services: Services, clock: MovableClock, number: int, templates: list[list[DomainEvent]]
) -> PlayRound:
    """Each match of a round played out move by move (a template's plays), then its result
    recorded as the match ended."""

    def play_round(tournament_id: UUID, paired: Round) -> None:
        matches = [
            (t.match_id, t.player_a, t.player_b, templates[(number + t.table) % len(templates)])
            for t in paired.pairings
            if t.match_id is not None and t.player_b is not None
        ]
        services.store.append(
            *(
                event
                for match_id, _, _, template in matches
                for event in moves_of(template, match_id, clock.now())
            )
        )
        for match_id, player_a, player_b, template in matches:
            won = template[-1]
            assert isinstance(won, MatchWon)
            services.rounds.record_result(
                tournament_id,
                ReportedResult(
                    match_id=match_id,
                    winner=player_a if won.winner == "a" else player_b,
                    points_a=won.score_a,
                    points_b=won.score_b,
                ),
            )

    return play_round


def build(services: Services, clock: MovableClock, events: int) -> int:
    """Tournament days until the log holds ``events``; returns the number of days."""
    rng = random.Random(20260418)
    templates = [played_match(rng, clock.now()) for _ in range(TEMPLATES)]
    services.seasons.create_season(name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31")
    days = 0
    while services.store.latest_notification_id() < events:
        play_day(services, clock, days, play_out(services, clock, days, templates))
        days += 1
        print(
            f"\rrebuild: building the store, {services.store.latest_notification_id():,} events",
            end="",
            file=sys.stderr,
            flush=True,
        )
    print(file=sys.stderr)
    return days


def progress(done: int, total: int) -> None:
    print(f"\rrebuild: {done:,} of {total:,} events", end="", file=sys.stderr, flush=True)


def run() -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="bgtd-bench-rebuild-") as folder:
        clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
        settings = Settings(data_dir=Path(folder), dev=True, run_scheduler=False)
        services = bootstrap(settings, clock)
        try:
            days = build(services, clock, EVENTS)
            events = services.store.latest_notification_id()
            started = time.perf_counter()
            services.views.rebuild(progress=progress)
            print(file=sys.stderr)
            rebuilt = time.perf_counter() - started
        finally:
            services.close()
    rate = events / rebuilt
    verdict = "meets" if rate >= TARGET_EVENTS_PER_SECOND else "MISSES"
    print(
        f"rebuild: {events:,} events ({days} tournament days of {PLAYERS} players, every "
        f"match played out), every view rebuilt from zero in {rebuilt:.1f} s: {rate:,.0f} "
        f"events/s ({verdict} the target of {TARGET_EVENTS_PER_SECOND:,}/s)"
    )
    return {"events": float(events), "events_per_second": rate}


if __name__ == "__main__":
    run()
