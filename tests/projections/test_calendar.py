"""The calendar view holds each tournament's knockout lengths (rule T-FMT-8), so that the
director's pages read them from the view instead of loading the tournament from the log."""

from __future__ import annotations

from datetime import UTC, date, datetime
from uuid import UUID

import sqlite_utils

from domain.tournament import KnockoutLengths, TournamentScheduled, TournamentStarted
from projections.calendar import CalendarProjection, get_tournament

TOURNAMENT = UUID(int=8)
SCHEDULED_AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
STARTED_AT = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)


def scheduled(knockout_lengths: KnockoutLengths | None) -> TournamentScheduled:
    return TournamentScheduled(
        originator_id=TOURNAMENT,
        originator_version=1,
        timestamp=SCHEDULED_AT,
        name="Frühlingsturnier 2026",
        play_date=date(2026, 4, 18),
        venue="Amberg",
        capacity=20,
        min_age=18,
        buy_in_cents=100_00,
        pot_share_cents=80_00,
        swiss_rounds=5,
        match_length=7,
        class_name="Champions",
        time_zone="Europe/Berlin",
        cancellation_until=datetime(2026, 4, 16, 16, 0, tzinfo=UTC),
        check_in_opens=datetime(2026, 4, 18, 10, 30, tzinfo=UTC),
        starts_at=datetime(2026, 4, 18, 11, 0, tzinfo=UTC),
        knockout_lengths=knockout_lengths,
    )


def started(knockout_lengths: KnockoutLengths | None) -> TournamentStarted:
    return TournamentStarted(
        originator_id=TOURNAMENT,
        originator_version=30,
        timestamp=STARTED_AT,
        players=16,
        pot_cents=16 * 80_00,
        match_length=7,
        knockout_lengths=knockout_lengths,
    )


def calendar_after(*events: TournamentScheduled | TournamentStarted) -> sqlite_utils.Database:
    db = sqlite_utils.Database(memory=True)
    projection = CalendarProjection()
    projection.create_tables(db)
    for event in events:
        projection.handle(event, db)
    return db


def lengths_shown(db: sqlite_utils.Database) -> KnockoutLengths | None:
    row = get_tournament(db, str(TOURNAMENT))
    assert row is not None
    return row.knockout_lengths


def test_the_calendar_holds_the_knockout_lengths_the_tournament_was_scheduled_with() -> None:
    # rule T-FMT-8
    lengths = KnockoutLengths(semi_final=9, final=11, third_place=5)

    db = calendar_after(scheduled(lengths))

    assert lengths_shown(db) == lengths


def test_the_starts_knockout_lengths_replace_the_scheduled_ones() -> None:
    # rule T-FMT-8: the start fixes the tournament's rules as they stand then
    at_start = KnockoutLengths(semi_final=11, final=13, third_place=7)

    db = calendar_after(
        scheduled(KnockoutLengths(semi_final=9, final=11, third_place=5)), started(at_start)
    )

    assert lengths_shown(db) == at_start


def test_a_start_recorded_without_lengths_keeps_the_scheduled_ones() -> None:
    # rule T-FMT-8: an older start carries no lengths; the scheduled ones still apply
    lengths = KnockoutLengths(semi_final=9, final=11, third_place=5)

    db = calendar_after(scheduled(lengths), started(None))

    assert lengths_shown(db) == lengths


def test_a_tournament_scheduled_before_stages_had_lengths_has_none_until_its_start_sets_them() -> (
    None
):
    # rule T-FMT-8: None: every stage plays ``match_length``
    at_start = KnockoutLengths(semi_final=7, final=9, third_place=7)

    assert lengths_shown(calendar_after(scheduled(None))) is None
    assert lengths_shown(calendar_after(scheduled(None), started(at_start))) == at_start
