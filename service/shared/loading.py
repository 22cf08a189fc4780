"""Loading what several use cases decide on: a tournament, a match, a season, the players' names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from domain import match as matches
from domain import tournament as tournaments
from domain.calendar import parse_date
from domain.errors import InvalidInputError, NotFoundError
from domain.events import Aggregate
from domain.match import Match, NotAMatchError
from domain.seasons import season as seasons
from domain.seasons.season import Season, SeasonNotFoundError
from domain.tournament import Tournament, TournamentNotFoundError
from projections import calendar
from projections import standings as day
from projections.runner import Views
from service.storage.events import EventStore

A = TypeVar("A", bound=Aggregate)


def load_tournament(store: EventStore, tournament_id: UUID) -> Tournament:
    """The tournament, or a 404 when the id is unknown or names another aggregate."""
    return _load(store, tournament_id, tournaments.evolve, Tournament, TournamentNotFoundError)


def load_match(
    store: EventStore, match_id: UUID, version: int | None = None, *, recorded: bool = False
) -> Match:
    """The match (as it was right after event ``version``), or a 404 when the id is unknown
    or names another aggregate; ``recorded`` tells an unknown id apart
    (``UnknownAggregateError``)."""
    return _load(store, match_id, matches.evolve, Match, NotAMatchError, version, recorded)


def load_season(store: EventStore, season_id: UUID) -> Season:
    """The season, or a 404 when the id is unknown or names another aggregate."""
    return _load(store, season_id, seasons.evolve, Season, SeasonNotFoundError)


def _load(
    store: EventStore,
    aggregate_id: UUID,
    evolve: Callable[[A | None, Any], A],
    kind: type[A],
    not_found: type[NotFoundError],
    version: int | None = None,
    recorded: bool = False,
) -> A:
    """The ``kind`` aggregate; ``not_found`` ("no match with id ...") names the kind."""
    noun = kind.__name__.lower()
    return store.load_as(
        aggregate_id,
        evolve,
        kind,
        lambda: not_found(f"no {noun} with id {aggregate_id}"),
        version,
        recorded=recorded,
    )


def season_of(
    store: EventStore, views: Views, field: str, season_id: UUID | None, play_date: str
) -> Season | None:
    """The season named by ``field`` (a 422 if there is none), or without an id the season
    whose dates include ``play_date`` (None if there is no such season)."""
    if season_id is None:
        day_of_play = parse_date("date", play_date).isoformat()
        with views.reading() as db:
            found = calendar.find_season_of(db, day_of_play)
        if found is None:
            return None
        season_id = UUID(found)
    try:
        return load_season(store, season_id)
    except SeasonNotFoundError:
        raise InvalidInputError(field, f"no season with id {season_id}") from None


def display_names(views: Views, tournament_id: UUID) -> dict[str, str]:
    """Display names ("Anna M.") of the tournament's players, by player id."""
    views.catch_up()
    with views.reading() as db:
        return day.display_names(db, str(tournament_id))
