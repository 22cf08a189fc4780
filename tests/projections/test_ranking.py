"""The season ranking view: given tournaments played in the domain, then rows that an independent
count agrees with (rules R-ATT-1..2, R-MATCH-1, R-BYE-1, R-CLASS-1, R-TIE-1, T-FMT-6)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from itertools import count
from pathlib import Path
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

import pytest
from eventsourcing.utils import get_topic

from domain.calendar import DeadlinePolicy
from domain.events import DomainEvent, fold
from domain.people.tokens import token_hash
from domain.seasons.season import Season, create_season
from domain.seasons.season import evolve as evolve_season
from domain.tournament import (
    Applicant,
    KnockoutLengths,
    PairedTable,
    PlayerWithdrew,
    Tournament,
    TournamentEvent,
    TournamentPlan,
    check_in,
    display_name,
    evolve,
    register,
    schedule_tournament,
    start,
)
from domain.tournament.rounds import pair_next_round, places, record_result, withdraw
from projections.ranking import RankingProjection, get_player_ranking, list_ranking
from projections.runner import EventSource, Views, Wanted

BERLIN = ZoneInfo("Europe/Berlin")
SCHEDULED_AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
DIRECTOR = "director"
IDS = (UUID(int=5_000_000 + n) for n in count(1))


def person(number: int) -> UUID:
    return UUID(int=1_000_000 + number)


def name_of(number: int) -> str:
    return display_name(f"Vorname{number}", f"Nachname{number}")


class Club:
    """One season's tournaments played through the domain's commands; every event in order."""

    def __init__(self) -> None:
        self.events: list[DomainEvent] = []
        season_events = create_season(
            next(IDS),
            name="Saison 2026",
            starts_on="2026-03-01",
            ends_on="2027-02-28",
            now=SCHEDULED_AT,
            actor=DIRECTOR,
        )
        season = fold(evolve_season, None, season_events)
        assert isinstance(season, Season)
        self.season = season
        self.events.extend(season_events)
        self.days: list[Day] = []

    def tournament(
        self,
        date: str,
        people: Sequence[int],
        *,
        class_name: str = "Champions",
        swiss_rounds: int = 1,
        match_length: int = 7,
        knockout_lengths: KnockoutLengths | None = None,
        no_shows: Sequence[int] = (),
        in_season: bool = True,
    ) -> Day:
        """Scheduled, everyone in ``people`` registered, all but ``no_shows`` checked in, started,
        round 1 paired."""
        plan = TournamentPlan(
            name=f"Turnier {date}",
            date=date,
            venue="Amberg",
            swiss_rounds=swiss_rounds,
            match_length=match_length,
            class_name=class_name,
            knockout_lengths=knockout_lengths,
        )
        day = Day(self, class_name)
        day.apply(
            schedule_tournament(
                next(IDS),
                plan,
                season=self.season if in_season else None,
                policy=DeadlinePolicy(),
                zone=BERLIN,
                now=SCHEDULED_AT,
                actor=DIRECTOR,
            )
        )
        registrations = {}
        for number in people:
            registrations[number] = next(IDS)
            day.apply(
                register(
                    day.state,
                    registration_id=registrations[number],
                    player_id=person(number),
                    applicant=Applicant(
                        first_name=f"Vorname{number}",
                        last_name=f"Nachname{number}",
                        email=f"spieler{number}@example.org",
                        age=30,
                    ),
                    token_hash=token_hash(f"token-{number}"),
                    now=SCHEDULED_AT,
                )
            )
        for number in people:
            if number not in no_shows:
                day.apply(
                    check_in(
                        day.state,
                        registrations[number],
                        id_document_seen=True,
                        buy_in_paid_cents=10000,
                        now=day.state.check_in_opens,
                        actor=DIRECTOR,
                    )
                )
        day.apply(start(day.state, lot_seed=7, now=day.state.starts_at, actor=DIRECTOR))
        day.pair()
        self.days.append(day)
        return day


class Day:
    """A tournament of the club as the test drives it."""

    def __init__(self, club: Club, class_name: str) -> None:
        self.club = club
        self.class_name = class_name
        self._state: Tournament | None = None

    @property
    def state(self) -> Tournament:
        assert self._state is not None
        return self._state

    @property
    def now(self) -> datetime:
        return self.state.starts_at

    def apply(self, events: Sequence[TournamentEvent]) -> None:
        self._state = fold(evolve, self._state, events)
        self.club.events.extend(events)

    def pair(self) -> tuple[PairedTable, ...]:
        self.apply(
            pair_next_round(
                self.state,
                seed=3,
                new_match_id=lambda: next(IDS),
                now=self.now,
                actor=DIRECTOR,
            )
        )
        return self.state.rounds[-1].tables

    def table(self, number: int) -> PairedTable:
        """The table of the latest round that ``number`` plays at."""
        player = person(number)
        return next(
            table
            for table in self.state.rounds[-1].tables
            if player in (table.player_a, table.player_b)
        )

    def win(self, number: int, *, corrects: UUID | None = None) -> UUID:
        """``number`` wins the match at their table of the latest round, the loser scoring 2."""
        table = self.table(number)
        assert table.match_id is not None
        winner = person(number)
        length = table.match_length
        points = (length, 2) if winner == table.player_a else (2, length)
        result_id = next(IDS)
        self.apply(
            record_result(
                self.state,
                result_id=result_id,
                match_id=table.match_id,
                winner=winner,
                points_a=points[0],
                points_b=points[1],
                source="director",
                corrects=corrects,
                now=self.now,
                actor=DIRECTOR,
            )
        )
        return result_id

    def seeds(self) -> list[int]:
        """The people of the latest round's tables in seeding order: table 1 a, b, table 2 a, b."""
        return [
            player.int - 1_000_000
            for table in self.state.rounds[-1].tables
            for player in (table.player_a, table.player_b)
            if player is not None
        ]

    def withdraw(self, number: int, *, left_early: bool = True) -> None:
        self.apply(
            withdraw(
                self.state,
                player_id=person(number),
                reason="left",
                left_early=left_early,
                unfinished={},
                new_result_id=lambda: next(IDS),
                now=self.now,
                actor=DIRECTOR,
            )
        )


class ClubSource(EventSource):
    name = "club"

    def __init__(self, club: Club) -> None:
        self.club = club

    def read(
        self, after: int, limit: int, wanted: Wanted
    ) -> Sequence[tuple[int, DomainEvent | None]]:
        events = self.club.events[after : after + limit]
        return [
            (number, event if wanted(get_topic(type(event))) else None)
            for number, event in enumerate(events, start=after + 1)
        ]

    def latest(self) -> int:
        return len(self.club.events)


@pytest.fixture
def club() -> Club:
    return Club()


@pytest.fixture
def views(club: Club, tmp_path: Path) -> Iterator[Views]:
    built = Views(tmp_path / "views.sqlite3", ClubSource(club), [RankingProjection()])
    yield built
    built.close()


Line = tuple[int, UUID, int, int, int, int, int]
"""rank, player, points, attendance points, match points, tournament wins, tournaments played"""


def shown(views: Views, club: Club) -> list[Line]:
    views.catch_up()
    with views.reading() as db:
        rows = list_ranking(db, str(club.season.id))
    return [
        (
            row.rank,
            row.player_id,
            row.points,
            row.attendance_points,
            row.match_points,
            row.tournament_wins,
            row.tournaments_played,
        )
        for row in rows
    ]


def counted(club: Club) -> list[Line]:
    """The ranking counted straight from the tournaments' states, not by the view's function."""
    totals: dict[UUID, list[int]] = {}
    for day in club.days:
        state = day.state
        if day.class_name != "Champions":
            continue
        left = {
            e.player_id
            for e in club.events
            if isinstance(e, PlayerWithdrew) and e.originator_id == state.id and e.left_early
        }
        for player in state.field:
            line = totals.setdefault(player, [0, 0, 0, 0])  # attendance, matches, wins, played
            line[0] += 0 if player in left else 7
            line[3] += 1
        for paired in state.rounds:
            for table in paired.tables:
                result = state.result_of(table.match_id) if table.match_id else None
                if result is not None and result.played:
                    totals[result.winner][1] += table.match_length
        if state.completed_at is not None:
            totals[places(state)[0]][2] += 1
    order = sorted(
        totals.items(),
        key=lambda item: (-(item[1][0] + item[1][1]), -item[1][2], item[1][3], item[0]),
    )
    lines: list[Line] = []
    for position, (player, (attendance, matches, wins, played)) in enumerate(order, start=1):
        key = (attendance + matches, wins, played)
        tied = lines and (lines[-1][2], lines[-1][5], lines[-1][6]) == key
        rank = lines[-1][0] if tied else position
        lines.append((rank, player, attendance + matches, attendance, matches, wins, played))
    return lines


def tables(views: Views) -> dict[str, list[tuple[Any, ...]]]:
    with views.reading() as db:
        return {
            table: sorted(db.execute(f"SELECT * FROM [{table}]").fetchall(), key=repr)
            for table in RankingProjection.tables
        }


# Tests --------------------------------------------------------------------------------------


def test_a_season_of_tournaments_is_ranked_as_counted_from_the_tournaments(
    club: Club, views: Views
) -> None:
    # A knockout of five (a bye each Swiss round), a Swiss-only field of three, and a
    # tournament of another class with the same people (rule R-CLASS-1).
    spring = club.tournament("2026-04-18", [1, 2, 3, 4, 5], swiss_rounds=2)
    for _ in range(2):
        for table in spring.state.rounds[-1].tables:
            if table.player_b is not None:
                spring.win(table.player_b.int - 1_000_000)
        spring.pair()
    for round_ in range(2):
        for table in spring.state.rounds[-1].tables:
            spring.win(table.player_a.int - 1_000_000)
        if round_ == 0:
            spring.pair()
    assert spring.state.completed_at is not None
    autumn = club.tournament("2026-09-19", [1, 6, 7], swiss_rounds=1, match_length=5)
    [match] = [t for t in autumn.state.rounds[-1].tables if t.player_b is not None]
    assert match.player_b is not None
    autumn.win(match.player_b.int - 1_000_000)
    assert autumn.state.completed_at is not None
    beginners = club.tournament("2026-10-17", [1, 2, 8], class_name="Einsteiger")
    [match] = [t for t in beginners.state.rounds[-1].tables if t.player_b is not None]
    beginners.win(match.player_a.int - 1_000_000)

    lines = shown(views, club)
    assert lines == counted(club)
    assert person(8) not in {line[1] for line in lines}  # only played another class
    assert sum(line[5] for line in lines) == 2
    with views.reading() as db:
        for line in lines:
            explained = get_player_ranking(db, str(club.season.id), str(line[1]))
            assert explained is not None
            assert sum(entry.points for entry in explained.entries) == line[2]
            assert {entry.tournament_id for entry in explained.entries} <= {
                spring.state.id,
                autumn.state.id,
            }


def test_the_rows_show_display_names_and_the_entries_add_up(club: Club, views: Views) -> None:
    day = club.tournament("2026-04-18", [1, 2])
    day.win(1)
    views.catch_up()
    with views.reading() as db:
        [first, second] = list_ranking(db, str(club.season.id))
        explained = get_player_ranking(db, str(club.season.id), str(person(1)))
        nobody = get_player_ranking(db, str(club.season.id), str(person(9)))
    assert (first.display_name, second.display_name) == (name_of(1), name_of(2))
    assert explained is not None
    assert nobody is None
    assert sum(entry.points for entry in explained.entries) == explained.row.points == 14
    assert [(e.kind, e.points, e.rule) for e in explained.entries] == [
        ("attendance", 7, "R-ATT-1"),
        ("match_won", 7, "R-MATCH-1"),
        ("tournament_won", 0, "R-TIE-1"),
    ]


def test_a_correction_changes_the_ranking(club: Club, views: Views) -> None:
    # rule T-FMT-6: the latest result of a match counts, also after the tournament completed
    day = club.tournament("2026-04-18", [1, 2])
    first = day.win(1)
    assert [line[1:] for line in shown(views, club)] == [
        (person(1), 14, 7, 7, 1, 1),
        (person(2), 7, 7, 0, 0, 1),
    ]
    day.win(2, corrects=first)
    assert [line[1:] for line in shown(views, club)] == [
        (person(2), 14, 7, 7, 1, 1),
        (person(1), 7, 7, 0, 0, 1),
    ]
    assert shown(views, club) == counted(club)


def test_leaving_early_takes_the_attendance_points_and_the_forfeit_scores_nothing(
    club: Club, views: Views
) -> None:
    # rules R-ATT-2 and R-BYE-1: the opponent of one who left wins an unplayed match
    day = club.tournament("2026-04-18", [1, 2, 3, 4], swiss_rounds=1)
    opponent = next(n for n in day.seeds() if day.table(n) == day.table(1) and n != 1)
    day.withdraw(1, left_early=True)
    lines = {line[1]: line for line in shown(views, club)}
    assert lines[person(1)][2:5] == (0, 0, 0)
    assert lines[person(opponent)][2:5] == (7, 7, 0)
    assert list(lines.values()) == counted(club)
    with views.reading() as db:
        left = get_player_ranking(db, str(club.season.id), str(person(1)))
        won = get_player_ranking(db, str(club.season.id), str(person(opponent)))
    assert left is not None
    assert won is not None
    assert [(e.kind, e.points) for e in left.entries] == [
        ("attendance", 7),
        ("attendance_revoked", -7),
    ]
    assert [(e.kind, e.points, e.stage) for e in won.entries][1:] == [
        ("match_unplayed", 0, "swiss")
    ]


def test_a_withdrawal_without_leaving_early_keeps_the_attendance_points(
    club: Club, views: Views
) -> None:
    day = club.tournament("2026-04-18", [1, 2, 3, 4], swiss_rounds=1)
    day.withdraw(1, left_early=False)
    lines = {line[1]: line for line in shown(views, club)}
    assert lines[person(1)][2:5] == (7, 7, 0)


def test_a_bye_scores_nothing_and_is_shown_without_a_match(club: Club, views: Views) -> None:
    # rule R-BYE-1
    day = club.tournament("2026-04-18", [1, 2, 3], swiss_rounds=1)
    [bye] = [table for table in day.state.rounds[-1].tables if table.player_b is None]
    lines = {line[1]: line for line in shown(views, club)}
    assert lines[bye.player_a][2:5] == (7, 7, 0)
    with views.reading() as db:
        explained = get_player_ranking(db, str(club.season.id), str(bye.player_a))
    assert explained is not None
    assert [(e.kind, e.points, e.match_id, e.round) for e in explained.entries] == [
        ("attendance", 7, None, None),
        ("match_unplayed", 0, None, 1),
    ]


def test_no_shows_get_no_attendance_points(club: Club, views: Views) -> None:
    # rule R-ATT-1: the points are for presence (check-in)
    club.tournament("2026-04-18", [1, 2, 3], no_shows=[3])
    assert {line[1] for line in shown(views, club)} == {person(1), person(2)}


def test_ties_go_to_more_tournament_wins_then_to_fewer_tournaments_played(
    club: Club, views: Views
) -> None:
    # rule R-TIE-1
    knockout = club.tournament("2026-04-18", [1, 2, 3, 4], swiss_rounds=1)
    for table in knockout.state.rounds[-1].tables:
        knockout.win(table.player_a.int - 1_000_000)  # the Swiss: both players a win
    semi_one, semi_two = knockout.pair()  # 1st v 4th, 2nd v 3rd
    assert semi_one.player_b is not None
    assert semi_two.player_b is not None
    first, fourth = semi_one.player_a.int - 1_000_000, semi_one.player_b.int - 1_000_000
    second, third = semi_two.player_a.int - 1_000_000, semi_two.player_b.int - 1_000_000
    knockout.win(fourth)
    knockout.win(second)
    knockout.pair()
    knockout.win(fourth)  # the final: 7 + 7 + 7 = 21 and the tournament
    knockout.win(third)  # 3rd place: 7 + 7 = 14, as the 1st of the Swiss
    # person 5 plays two tournaments and loses every match: 14 points in two, no win
    for date in ("2026-05-16", "2026-06-20"):
        day = club.tournament(date, [5, 6])
        day.win(6)

    lines = shown(views, club)
    assert lines == counted(club)
    assert [(line[0], line[1], line[2], line[5], line[6]) for line in lines] == [
        (1, person(6), 28, 2, 2),
        (2, person(fourth), 21, 1, 1),  # 21 points, and the tournament won
        (3, person(second), 21, 0, 1),
        (4, min(person(first), person(third)), 14, 0, 1),  # a full tie shares the rank
        (4, max(person(first), person(third)), 14, 0, 1),
        (6, person(5), 14, 0, 2),  # 14 points too, in more tournaments
    ]


def test_tournaments_without_a_season_are_not_ranked(tmp_path: Path) -> None:
    club = Club()
    day = club.tournament("2026-04-18", [1, 2], in_season=False)
    day.win(1)
    views = Views(tmp_path / "views.sqlite3", ClubSource(club), [RankingProjection()])
    views.catch_up()
    with views.reading() as db:
        assert db.execute("SELECT COUNT(*) FROM ranking_rows").fetchone() == (0,)
    views.close()


def test_a_rebuild_from_zero_equals_the_live_view(club: Club, views: Views, tmp_path: Path) -> None:
    day = club.tournament("2026-04-18", [1, 2, 3, 4, 5], swiss_rounds=1)
    views.catch_up()  # live: the view follows the day event by event, as it happens
    matches = [t for t in day.state.rounds[-1].tables if t.player_b is not None]
    for table in matches:
        result = day.win(table.player_a.int - 1_000_000)
        views.catch_up()
    assert matches[-1].player_b is not None
    day.win(matches[-1].player_b.int - 1_000_000, corrects=result)
    views.catch_up()
    day.pair()
    day.withdraw(day.seeds()[0])
    views.catch_up()
    other = club.tournament("2026-05-16", [1, 6])
    other.win(6)
    views.catch_up()
    live = tables(views)
    assert live["ranking_rows"]
    views.rebuild("ranking")
    assert tables(views) == live
    fresh = Views(tmp_path / "fresh.sqlite3", ClubSource(club), [RankingProjection()])
    fresh.catch_up()
    assert tables(fresh) == live
    fresh.close()
