"""Use cases of seasons and the club's calendar periods (rules CAL-1, CAL-2)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from uuid import UUID

import msgspec

from domain.events import DIRECTOR, copied
from domain.seasons import season as seasons
from domain.seasons.options import season_options
from domain.seasons.ranking import PlayerNotRankedError
from domain.seasons.season import PeriodInput, Season, SeasonNotFoundError
from projections import calendar, ranking
from projections.calendar import SeasonRow
from projections.ranking import PlayerRanking, SeasonRankingRow
from projections.runner import Views
from service.clock import Clock
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.loading import load_season, season_of
from service.storage.events import EventStore


class BanDecision(msgspec.Struct, frozen=True, kw_only=True):
    """A repeat offender banned from the season's further tournaments (rule C-EXCL-1): the
    command ``ban`` takes; ``revoke_points`` takes all their season points (rule R-ATT-2)."""

    player_id: UUID
    reason: str
    revoke_points: bool = True


class SeasonBan(BanDecision, frozen=True, kw_only=True):
    """A ban as the director's season page lists it (rule C-EXCL-1): the decision, when and
    by whom."""

    banned_at: datetime
    actor: str | None
    """Who banned: ``director`` or ``director:<id>`` (C-DIR-1)."""


class SeasonService:
    """Seasons with their calendar periods; the season a tournament's date falls in."""

    def __init__(
        self,
        store: EventStore,
        views: Views,
        clock: Clock,
        *,
        commands: CommandRunner | None = None,
    ) -> None:
        self._store = store
        self._views = views
        self._commands = commands or CommandRunner(store, clock, views)

    def create_season(
        self,
        *,
        name: str,
        starts_on: str,
        ends_on: str,
        periods: Sequence[PeriodInput] = (),
        drop_worst: int | None = None,
        events_tiebreak: str = "fewer",
        best_place_tiebreak: bool = False,
        actor: str = DIRECTOR,
    ) -> SeasonRow:
        """A new season; its ranking options (rule R-OPT-1) are fixed here for good."""
        season_id = uuid.uuid4()
        options = season_options(
            drop_worst=drop_worst,
            events_tiebreak=events_tiebreak,
            best_place_tiebreak=best_place_tiebreak,
        )

        self._commands.create(
            seasons.evolve,
            lambda now: seasons.create_season(
                season_id,
                name=name,
                starts_on=starts_on,
                ends_on=ends_on,
                periods=periods,
                options=options,
                now=now,
                actor=actor,
            ),
            DECIDE_AGAIN,
        )
        return self.get_season(season_id)

    def add_period(
        self, season_id: UUID, period: PeriodInput, *, actor: str = DIRECTOR
    ) -> SeasonRow:
        self._commands.update(
            lambda: load_season(self._store, season_id),
            seasons.evolve,
            lambda state, now: seasons.add_period(state, period, now=now, actor=actor),
            DECIDE_AGAIN,
        )
        return self.get_season(season_id)

    def ban(self, season_id: UUID, decision: BanDecision, *, actor: str) -> Season:
        """rule C-EXCL-1, R-ATT-2: a repeat offender banned from the season's further
        tournaments; with ``revoke_points`` all their season points are taken."""
        player_id, reason = decision.player_id, decision.reason
        revoke_points = decision.revoke_points
        return self._commands.update(
            lambda: load_season(self._store, season_id),
            seasons.evolve,
            lambda state, now: seasons.ban(
                state,
                player_id=player_id,
                reason=reason,
                revoke_points=revoke_points,
                now=now,
                actor=actor,
            ),
            DECIDE_AGAIN,
        ).state

    def list_bans(self, season_id: UUID) -> list[SeasonBan]:
        """rule C-EXCL-1: the season's bans in the order they were decided, each with its
        reason, read from the season's own events (a few per season, no view needed)."""
        load_season(self._store, season_id)  # a 404 for an unknown season
        return [
            copied(event, SeasonBan, banned_at=event.timestamp)
            for event in self._store.stream(season_id)
            if isinstance(event, seasons.PlayerBanned)
        ]

    def get_season(self, season_id: UUID) -> SeasonRow:
        season = self._views.find(lambda db: calendar.get_season(db, str(season_id)))
        if season is None:
            raise SeasonNotFoundError(f"no season with id {season_id}")
        return season

    def list_seasons(self) -> list[SeasonRow]:
        with self._views.reading() as db:
            return calendar.list_seasons(db)

    def get_ranking(self, season_id: UUID) -> list[SeasonRankingRow]:
        """The season ranking in rank order (rules R-ATT-1..2, R-MATCH-1, R-BYE-1, R-TIE-1)."""
        self.get_season(season_id)
        with self._views.reading() as db:
            return ranking.list_ranking(db, str(season_id))

    def get_player_ranking(self, season_id: UUID, player_id: UUID) -> PlayerRanking:
        """One player's ranking row with every entry that gave or took points."""
        self.get_season(season_id)
        found = self._views.find(
            lambda db: ranking.get_player_ranking(db, str(season_id), str(player_id))
        )
        if found is None:
            raise PlayerNotRankedError(
                f"player {player_id} has no row in the ranking of season {season_id}"
            )
        return found

    def season_of(self, field: str, season_id: UUID | None, play_date: str) -> Season | None:
        """The season named by ``field`` (a 422 if there is none), or without an id the season
        whose dates include ``play_date`` (None if there is no such season)."""
        return season_of(self._store, self._views, field, season_id, play_date)
