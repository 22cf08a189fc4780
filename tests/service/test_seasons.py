"""The seasons slice at the service level: seasons and their periods (CAL-1, CAL-2), the
tournaments they hold, bans (C-EXCL-1) and the ranking (R-ATT-1, R-MATCH-1)."""

from __future__ import annotations

from datetime import date
from uuid import uuid4

import pytest

from domain.seasons.ranking import PlayerNotRankedError
from domain.seasons.season import PeriodInput, SeasonNotFoundError
from domain.tournament import BannedError
from service.bootstrap import Services
from service.clock import MovableClock
from service.seasons.seasons import BanDecision
from tests.service.conftest import applicant, plan, played_to_the_end

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
