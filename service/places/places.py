"""Final places and the prize money of a tournament (rules T-FMT-4, T-FMT-8, T-BUYIN-1)."""

from __future__ import annotations

from uuid import UUID

from domain import tournament
from domain.errors import ConflictError
from domain.tournament import Tournament
from projections.runner import Views
from service.shared.day_views import Place, Prizes, prizes
from service.shared.loading import display_names, load_tournament
from service.storage.events import EventStore


class PlacesNotFinalError(ConflictError):
    """Places are fixed when the tournament is completed (rule T-FMT-8)."""

    type_slug = "places-not-final"


class PlaceService:
    """Places once the tournament is completed, and the pot's split over them."""

    def __init__(self, store: EventStore, views: Views) -> None:
        self._store = store
        self._views = views

    def list_places(self, tournament_id: UUID) -> list[Place]:
        """rule T-FMT-4: 1-4 from the knockout, 5.. from the Swiss standings, once completed."""
        places = self.list_fixed_places(tournament_id)
        if places is None:
            raise PlacesNotFinalError("places are fixed when the tournament is completed")
        return places

    def list_fixed_places(self, tournament_id: UUID) -> list[Place] | None:
        """The places of ``list_places``, or None while the tournament is not completed (a
        page shows them beside the standings once they exist)."""
        held = self._load(tournament_id)
        if held.completed_at is None:
            return None
        names = self._names(tournament_id)
        side = tournament.consolation_places(held) if held.format == "elimination" else {}
        return [
            Place(
                place=number,
                player_id=player,
                display_name=names.get(str(player), ""),
                consolation_place=side.get(player),
            )
            for number, player in enumerate(tournament.places(held), start=1)
        ]

    def get_prizes(self, tournament_id: UUID) -> Prizes:
        """rule T-BUYIN-1: the pot and its split; who gets each share once places are fixed."""
        return prizes(self._load(tournament_id))

    def _names(self, tournament_id: UUID) -> dict[str, str]:
        return display_names(self._views, tournament_id)

    def _load(self, tournament_id: UUID) -> Tournament:
        return load_tournament(self._store, tournament_id)
