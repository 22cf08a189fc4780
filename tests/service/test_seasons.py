"""The seasons slice at the service level: seasons and their periods (CAL-1, CAL-2), the
tournaments they hold, bans (C-EXCL-1) and the ranking (R-ATT-1..2, R-MATCH-1) with the
season's options (R-OPT-1)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from uuid import uuid4

import pytest

from domain.errors import InvalidInputError
from domain.seasons.options import SeasonOptions
from domain.seasons.ranking import ATTENDANCE_POINTS, PlayerNotRankedError
from domain.seasons.season import PeriodInput, SeasonNotFoundError
from domain.tournament import BannedError
from service.bootstrap import Services
from service.clock import MovableClock
from service.registration.tournaments import CheckInProof
from service.rounds.rounds import WithdrawalNotice
from service.seasons.seasons import BanDecision
from tests.service.conftest import (
    applicant,
    checked_in_tournament,
    plan,
    played_to_the_end,
    registered_tournament,
    report_every_table,
)

SPRING = PeriodInput(
    name="Frühlingsturniere", kind="tournament", starts_on="2026-03-01", ends_on="2026-05-31"
)


def test_a_season_is_created_with_its_periods_and_a_period_added_later(
    services: Services,
) -> None:
    # rule CAL-1: a season holds tournaments; the calendar has named periods
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    assert (season.name, season.starts_on, season.ends_on) == (
        "Saison 2026",
        date(2026, 1, 1),
        date(2026, 12, 31),
    )
    assert [p.name for p in season.periods] == ["Frühlingsturniere"]
    autumn = PeriodInput(
        name="Herbstturniere", kind="tournament", starts_on="2026-09-01", ends_on="2026-11-30"
    )
    grown = services.seasons.add_period(season.id, autumn)
    assert [p.name for p in grown.periods] == ["Frühlingsturniere", "Herbstturniere"]
    assert services.seasons.get_season(season.id) == grown
    assert services.seasons.list_seasons() == [grown]
    with pytest.raises(SeasonNotFoundError):
        services.seasons.get_season(uuid4())


def test_a_tournament_joins_the_season_of_its_date(services: Services) -> None:
    # rule CAL-1: without a season named, the one whose dates include the play date
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    found = services.seasons.season_of("season_id", None, "2026-04-18")
    assert found is not None
    assert found.id == season.id
    assert services.seasons.season_of("season_id", None, "2027-04-17") is None
    tournament = services.tournaments.schedule_tournament(plan())
    assert [t.id for t in services.tournaments.list_tournaments(season.id)] == [tournament.id]
    assert [t.id for t in services.tournaments.list_tournaments()] == [tournament.id]


def test_the_ranking_of_a_season_adds_up_the_tournaments_and_explains_each_row(
    services: Services, clock: MovableClock
) -> None:
    # rule R-ATT-1, R-MATCH-1: points for attendance and matches, each row explained
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    day = played_to_the_end(services, clock)
    services.views.catch_up()
    ranking = services.seasons.get_ranking(season.id)
    assert sorted(row.player_id for row in ranking) == sorted(
        r.player_id for r in day.registrations
    )
    assert [row.rank for row in ranking] == sorted(row.rank for row in ranking)
    assert all(row.tournaments_played == 1 for row in ranking)
    leader = ranking[0]
    explained = services.seasons.get_player_ranking(season.id, leader.player_id)
    assert explained.row == leader
    assert sum(entry.points for entry in explained.entries) == leader.points
    with pytest.raises(PlayerNotRankedError):
        services.seasons.get_player_ranking(season.id, season.id)


def test_a_banned_player_cannot_register_for_the_seasons_further_tournaments(
    services: Services,
) -> None:
    # rule C-EXCL-1: a repeat offender banned from the season's further tournaments
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    tournament_id = services.tournaments.schedule_tournament(plan()).id
    offender = services.tournaments.player_id_for(applicant(9).email)
    banned = services.seasons.ban(
        season.id,
        BanDecision(player_id=offender, reason="repeated insults", revoke_points=False),
        actor="director",
    )
    assert offender in banned.banned
    with pytest.raises(BannedError):
        services.tournaments.register(tournament_id, applicant(9))
    services.tournaments.register(tournament_id, applicant(1))
    assert [p.display_name for p in services.tournaments.list_participants(tournament_id)] == [
        "Spieler1 M."
    ]
    # the director's season page lists the ban with its reason and who decided it
    [listed] = services.seasons.list_bans(season.id)
    assert (listed.player_id, listed.reason, listed.revoke_points, listed.actor) == (
        offender,
        "repeated insults",
        False,
        "director",
    )


def test_a_ban_that_revokes_the_points_leaves_the_offender_none_for_the_season(
    services: Services, clock: MovableClock
) -> None:
    # rule R-ATT-2: a repeat offender loses all season points (and is banned, C-EXCL-1)
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    played_to_the_end(services, clock)
    services.views.catch_up()
    offender, *others = services.seasons.get_ranking(season.id)
    assert offender.points > 0

    services.seasons.ban(
        season.id,
        BanDecision(player_id=offender.player_id, reason="third exclusion", revoke_points=True),
        actor="director",
    )
    services.views.catch_up()
    ranking = {row.player_id: row for row in services.seasons.get_ranking(season.id)}
    revoked = ranking[offender.player_id]
    assert (revoked.points, revoked.season_revoked) == (0, True)
    explained = services.seasons.get_player_ranking(season.id, offender.player_id)
    [taken] = [entry for entry in explained.entries if entry.kind == "season_revoked"]
    assert (taken.points, taken.rule, taken.tournament_id) == (-offender.points, "R-ATT-2", None)
    assert sum(entry.points for entry in explained.entries) == 0
    assert [ranking[row.player_id].points for row in others] == [row.points for row in others]


def test_a_player_who_left_early_loses_that_tournaments_attendance_points_only(
    services: Services, clock: MovableClock
) -> None:
    # rule R-ATT-2: attendance points revoked for leaving early; R-ATT-1: 7 for being there
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    day = checked_in_tournament(services, clock, 4)
    pairings = services.rounds.start(day.tournament_id).round.pairings
    leaving, staying = pairings[0].player_a, pairings[1].player_a
    for player_id, left_early in ((leaving, True), (staying, False)):
        services.rounds.withdraw(
            day.tournament_id,
            WithdrawalNotice(player_id=player_id, reason="called away", left_early=left_early),
            actor="director",
        )
    services.views.catch_up()

    ranking = {row.player_id: row for row in services.seasons.get_ranking(season.id)}
    assert ranking[leaving].attendance_points == 0
    assert ranking[staying].attendance_points == ATTENDANCE_POINTS  # withdrawn, not early
    explained = services.seasons.get_player_ranking(season.id, leaving)
    assert [(e.kind, e.points, e.rule) for e in explained.entries if e.points] == [
        ("attendance", ATTENDANCE_POINTS, "R-ATT-1"),
        ("attendance_revoked", -ATTENDANCE_POINTS, "R-ATT-2"),
    ]


def test_a_season_keeps_the_ranking_options_it_was_created_with(services: Services) -> None:
    # rule R-OPT-1: fixed at creation, the defaults are R-TIE-1's; a wrong one creates nothing
    chosen = services.seasons.create_season(
        name="Saison 2026",
        starts_on="2026-01-01",
        ends_on="2026-12-31",
        drop_worst=4,
        events_tiebreak="more",
        best_place_tiebreak=True,
    )
    assert services.seasons.get_season(chosen.id).options == SeasonOptions(
        drop_worst=4, events_tiebreak="more", best_place_tiebreak=True
    )
    plain = services.seasons.create_season(
        name="Saison 2027", starts_on="2027-01-01", ends_on="2027-12-31"
    )
    assert services.seasons.get_season(plain.id).options == SeasonOptions(
        drop_worst=None, events_tiebreak="fewer", best_place_tiebreak=False
    )
    for wrong, field in (
        ({"drop_worst": 0}, "drop_worst"),
        ({"events_tiebreak": "most"}, "events_tiebreak"),
    ):
        with pytest.raises(InvalidInputError) as refused:
            services.seasons.create_season(
                name="Saison 2028", starts_on="2028-01-01", ends_on="2028-12-31", **wrong
            )
        assert refused.value.field == field
    assert [season.name for season in services.seasons.list_seasons()] == [
        "Saison 2026",
        "Saison 2027",
    ]


def test_with_drop_worst_one_only_a_players_better_tournament_counts(
    services: Services, clock: MovableClock
) -> None:
    # rule R-OPT-1: the other result stays in the explanation, taken back by result_dropped
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", drop_worst=1
    )
    played_to_the_end(services, clock)
    may = registered_tournament(services, 4, date="2026-05-16", name="Maiturnier 2026")
    clock.advance((datetime(2026, 5, 16, 10, 30, tzinfo=UTC) - clock.now()).total_seconds())
    for receipt in may.registrations:
        services.tournaments.check_in(
            may.tournament_id,
            receipt.registration_id,
            CheckInProof(id_document_seen=True, buy_in_paid_cents=100_00),
        )
    report_every_table(services, may, services.rounds.start(may.tournament_id).round)
    for _ in range(3):  # round 2, the semi-finals, the final with the 3rd-place match
        report_every_table(services, may, services.rounds.pair_round(may.tournament_id))
    services.views.catch_up()

    ranking = services.seasons.get_ranking(season.id)
    assert len(ranking) == 4
    for row in ranking:
        assert row.tournaments_played == 2
        entries = services.seasons.get_player_ranking(season.id, row.player_id).entries
        dropped = [entry for entry in entries if entry.kind == "result_dropped"]
        assert [entry.rule for entry in dropped] == ["R-OPT-1"]
        by_tournament: dict[object, int] = {}
        for entry in entries:
            if entry.kind != "result_dropped":
                by_tournament[entry.tournament_id] = by_tournament.get(entry.tournament_id, 0)
                by_tournament[entry.tournament_id] += entry.points
        assert len(by_tournament) == 2
        assert row.points == max(by_tournament.values()) == sum(e.points for e in entries)


def test_a_tournament_of_another_class_counts_for_no_season_ranking(
    services: Services, clock: MovableClock
) -> None:
    # rule R-CLASS-1: the ranking is kept only for the class "Champions"; R-ATT-1 counts once
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[SPRING]
    )
    champions = checked_in_tournament(services, clock, 4)
    beginners = checked_in_tournament(
        services, clock, 4, name="Einsteigerturnier 2026", class_name="Einsteiger"
    )
    for day in (champions, beginners):
        report_every_table(services, day, services.rounds.start(day.tournament_id).round)
    services.views.catch_up()

    ranking = services.seasons.get_ranking(season.id)
    assert sorted(row.player_id for row in ranking) == sorted(
        r.player_id for r in champions.registrations
    )
    assert {(row.tournaments_played, row.attendance_points) for row in ranking} == {
        (1, ATTENDANCE_POINTS)
    }
    for row in ranking:
        explained = services.seasons.get_player_ranking(season.id, row.player_id)
        assert {entry.tournament_id for entry in explained.entries} == {champions.tournament_id}
