"""The read-model runner: every event once, rows and position together, rebuild from zero."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from uuid import uuid4

import pytest
import sqlite_utils
from eventsourcing.utils import get_topic

from domain.events import DomainEvent
from projections.runner import EventSource, Projection, Views, Wanted

NOW = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)


class VisitorCounted(DomainEvent, frozen=True, kw_only=True):
    room: str


class NoiseMade(DomainEvent, frozen=True, kw_only=True):
    """An event no projection handles."""


class ListSource(EventSource):
    name = "list"

    def __init__(self) -> None:
        self.events: list[DomainEvent] = []
        self.decoded_topics: list[str] = []

    def add_noise(self) -> None:
        self.events.append(NoiseMade(originator_id=uuid4(), originator_version=1, timestamp=NOW))

    def add(self, room: str) -> None:
        self.events.append(
            VisitorCounted(originator_id=uuid4(), originator_version=1, timestamp=NOW, room=room)
        )

    def read(
        self, after: int, limit: int, wanted: Wanted
    ) -> Sequence[tuple[int, DomainEvent | None]]:
        batch: list[tuple[int, DomainEvent | None]] = []
        for number, event in enumerate(self.events[after : after + limit], start=after + 1):
            topic = get_topic(type(event))
            if wanted(topic):
                self.decoded_topics.append(topic)
            batch.append((number, event if wanted(topic) else None))
        return batch

    def latest(self) -> int:
        return len(self.events)


class Visitors(Projection):
    name = "visitors"
    tables = ("visitors",)

    def __init__(self, fail_on: str | None = None) -> None:
        self.fail_on = fail_on

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute("CREATE TABLE IF NOT EXISTS visitors (room TEXT PRIMARY KEY, count INTEGER)")

    def visitor_counted(self, event: VisitorCounted, db: sqlite_utils.Database) -> None:
        if event.room == self.fail_on:
            raise RuntimeError("projection bug")
        db.execute(
            "INSERT INTO visitors VALUES (?, 1) ON CONFLICT (room) DO UPDATE SET count = count + 1",
            [event.room],
        )


def counts(views: Views) -> dict[str, int]:
    with views.reading() as db:
        return {row["room"]: row["count"] for row in db["visitors"].rows}


def test_each_event_is_applied_once_however_often_views_catch_up(tmp_path: Path) -> None:
    source = ListSource()
    views = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    for room in ("a", "b", "a"):
        source.add(room)
    assert views.catch_up() == 3
    assert views.catch_up() == 0
    assert counts(views) == {"a": 2, "b": 1}
    assert views.positions()["visitors"] == 3


def test_a_restarted_service_resumes_where_it_stopped(tmp_path: Path) -> None:
    source = ListSource()
    source.add("a")
    Views(tmp_path / "views.sqlite3", source, [Visitors()]).catch_up()
    source.add("a")
    restarted = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    assert restarted.catch_up() == 1
    assert counts(restarted) == {"a": 2}


def test_a_failing_handler_leaves_rows_and_position_unchanged(tmp_path: Path) -> None:
    source = ListSource()
    views = Views(tmp_path / "views.sqlite3", source, [Visitors(fail_on="boom")])
    source.add("a")
    views.catch_up()
    source.add("b")
    source.add("boom")
    with pytest.raises(RuntimeError):
        views.catch_up()
    assert counts(views) == {"a": 1}
    assert views.positions()["visitors"] == 1


def test_a_rebuild_from_zero_equals_the_live_view(tmp_path: Path) -> None:
    source = ListSource()
    views = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    for room in "abcabca":
        source.add(room)
        views.catch_up()
    live = counts(views)
    views.rebuild("visitors")
    assert counts(views) == live == {"a": 3, "b": 2, "c": 2}


def test_events_no_view_handles_move_the_position_without_being_decoded(tmp_path: Path) -> None:
    source = ListSource()
    views = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    source.add("a")
    source.add_noise()
    source.add("b")
    assert views.catch_up() == 3
    assert views.positions()["visitors"] == 3
    assert counts(views) == {"a": 1, "b": 1}
    assert all(topic.endswith(":VisitorCounted") for topic in source.decoded_topics)
    assert len(source.decoded_topics) == 2


def test_views_of_another_event_store_are_rebuilt_from_this_one(tmp_path: Path) -> None:
    first = ListSource()
    first.add("a")
    Views(tmp_path / "views.sqlite3", first, [Visitors()]).catch_up()
    other = ListSource()
    other.name = "another store"
    other.add("b")
    other.add("b")
    views = Views(tmp_path / "views.sqlite3", other, [Visitors()])
    views.catch_up()
    assert counts(views) == {"b": 2}


def test_views_ahead_of_the_log_are_rebuilt(tmp_path: Path) -> None:
    source = ListSource()
    for room in "aaa":
        source.add(room)
    Views(tmp_path / "views.sqlite3", source, [Visitors()]).catch_up()
    replaced = ListSource()  # same name, but a new and shorter log
    replaced.add("b")
    views = Views(tmp_path / "views.sqlite3", replaced, [Visitors()])
    views.catch_up()
    assert counts(views) == {"b": 1}


def test_a_projection_whose_version_changed_is_rebuilt(tmp_path: Path) -> None:
    source = ListSource()
    source.add("a")
    Views(tmp_path / "views.sqlite3", source, [Visitors()]).catch_up()

    class VisitorsV2(Visitors):
        version = 2

        def visitor_counted(self, event: VisitorCounted, db: sqlite_utils.Database) -> None:
            super().visitor_counted(event, db)
            super().visitor_counted(event, db)

    views = Views(tmp_path / "views.sqlite3", source, [VisitorsV2()])
    views.catch_up()
    assert counts(views) == {"a": 2}


def test_two_processes_sharing_a_views_file_apply_each_event_once(tmp_path: Path) -> None:
    source = ListSource()
    for room in "ab" * 300:
        source.add(room)
    first = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    second = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    threads = [threading.Thread(target=views.catch_up) for views in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts(first) == {"a": 300, "b": 300}


class Tables(DomainEvent, frozen=True, kw_only=True):
    """An event whose handler name is an attribute of every projection."""


def test_an_event_named_like_a_projection_attribute_is_not_dispatched(tmp_path: Path) -> None:
    source = ListSource()
    source.events.append(Tables(originator_id=uuid4(), originator_version=1, timestamp=NOW))
    source.add("a")
    views = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    assert views.catch_up() == 2
    assert counts(views) == {"a": 1}


class Totals(Projection):
    """Defers a total to the end of each batch, as the standings defer a tournament's."""

    name = "totals"
    tables = ("totals",)

    def __init__(self) -> None:
        self.rooms: set[str] = set()
        self.computed = 0

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute("CREATE TABLE IF NOT EXISTS totals (room TEXT PRIMARY KEY, total INTEGER)")

    def visitor_counted(self, event: VisitorCounted, db: sqlite_utils.Database) -> None:
        self.rooms.add(event.room)

    def end_batch(self, db: sqlite_utils.Database) -> None:
        for room in self.rooms:
            self.computed += 1
            db.execute(
                "INSERT OR REPLACE INTO totals VALUES (?, (SELECT count FROM visitors "
                "WHERE room = ?))",
                [room, room],
            )
        self.rooms.clear()


def test_deferred_work_is_done_once_per_batch_and_a_rebuild_equals_the_live_view(
    tmp_path: Path,
) -> None:
    source = ListSource()
    totals = Totals()
    views = Views(tmp_path / "views.sqlite3", source, [Visitors(), totals])
    for room in "abcabca":
        source.add(room)
        views.catch_up()
    with views.reading() as db:
        live = dict(db.execute("SELECT room, total FROM totals").fetchall())
    totals.computed = 0
    views.rebuild()
    with views.reading() as db:
        assert dict(db.execute("SELECT room, total FROM totals").fetchall()) == live
    assert live == {"a": 3, "b": 2, "c": 2}
    assert totals.computed == 3  # one batch: each room once, not once per event


def test_a_rebuild_reports_its_progress(tmp_path: Path) -> None:
    source = ListSource()
    for room in "ab" * 300:
        source.add(room)
    views = Views(tmp_path / "views.sqlite3", source, [Visitors()])
    views.catch_up()
    reported: list[tuple[int, int]] = []
    views.rebuild("visitors", progress=lambda done, total: reported.append((done, total)))
    assert reported[-1] == (600, 600)
    assert counts(views) == {"a": 300, "b": 300}


class Arrivals(Projection):
    """Where in the log each visitor came (a projection that reads the notification id)."""

    name = "arrivals"
    tables = ("arrivals",)
    wants_notification_id = True

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute("CREATE TABLE IF NOT EXISTS arrivals (room TEXT, position INTEGER)")

    def visitor_counted(self, event: VisitorCounted, db: sqlite_utils.Database) -> None:
        db.execute("INSERT INTO arrivals VALUES (?, ?)", [event.room, self.notification_id])


def arrivals(views: Views) -> list[tuple[str, int]]:
    with views.reading() as db:
        return [(row["room"], row["position"]) for row in db["arrivals"].rows]


def test_a_projection_that_wants_it_sees_each_events_position_in_the_log(
    tmp_path: Path,
) -> None:
    source = ListSource()
    views = Views(tmp_path / "views.sqlite3", source, [Visitors(), Arrivals()])
    source.add("a")
    source.add_noise()
    source.add("b")
    views.catch_up()
    assert arrivals(views) == [("a", 1), ("b", 3)]
    source.add("c")
    views.rebuild("arrivals")  # replayed while the other view is ahead: the same positions
    assert arrivals(views) == [("a", 1), ("b", 3), ("c", 4)]
