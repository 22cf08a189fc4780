"""What the rating list's use cases share: its aggregate and the players a name can name."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from uuid import UUID

from domain.errors import InvalidInputError
from domain.ratings import club
from domain.ratings.club import ClubRatings, PlayerDirectory, Resolver
from projections import ratings
from projections.runner import Views
from service.storage.events import EventStore, UnknownAggregateError


def load_club_ratings(store: EventStore) -> ClubRatings | None:
    """The rating list's settings and version (None before its first event)."""
    try:
        return store.load_as(
            club.CLUB_RATINGS_ID,
            club.evolve,
            ClubRatings,
            lambda: UnknownAggregateError("the rating list's stream holds another aggregate"),
        )
    except UnknownAggregateError:
        return None


def player_directory(views: Views) -> PlayerDirectory:
    """rule R-RATE-7: every player, registered or rating-only, by id with display name."""
    views.catch_up()
    with views.reading() as db:
        return ratings.directory(db)


def resolve_sides(resolver: Resolver, player_a: str, player_b: str) -> tuple[UUID, UUID]:
    """rules R-RATE-6, R-RATE-7: the two players an ad hoc match's sides name."""
    ids = []
    for field, text in (("player_a", player_a), ("player_b", player_b)):
        try:
            ids.append(resolver.resolve(club.check_name(field, text)))
        except InvalidInputError as error:
            raise InvalidInputError(field, error.message) from None
    if ids[0] == ids[1]:
        raise InvalidInputError("player_b", "both sides name the same player")
    return ids[0], ids[1]


new_player_id: Callable[[], UUID] = uuid.uuid4
"""A rating-only player's id: random, like a registration's player id is secret-derived."""
