"""The places slice at the service level: final places and the pot's split (T-FMT-4,
T-BUYIN-1)."""

from __future__ import annotations

import pytest

from service.bootstrap import Services
from service.clock import MovableClock
from service.places.places import PlacesNotFinalError
from tests.service.conftest import checked_in_tournament, played_to_the_end


def test_places_are_fixed_only_once_the_tournament_is_completed(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-4: places exist once the final and the 3rd-place match are decided
    day = checked_in_tournament(services, clock, 4)
    services.rounds.start(day.tournament_id)
    assert services.places.list_fixed_places(day.tournament_id) is None
    with pytest.raises(PlacesNotFinalError):
        services.places.list_places(day.tournament_id)


def test_the_knockout_gives_places_one_to_four_and_the_pot_is_split_over_them(
    services: Services, clock: MovableClock
) -> None:
    # rule T-FMT-4: 1-2 from the final, 3-4 from the match for 3rd place;
    # rule T-BUYIN-1: the pot (80 EUR a player) is paid 50/30/20 to places 1-3
    day = played_to_the_end(services, clock)
    last = services.rounds.get_round(day.tournament_id, 4)
    final = next(t for t in last.pairings if t.stage == "final")
    third = next(t for t in last.pairings if t.stage == "third_place")
    places = services.places.list_places(day.tournament_id)
    assert [p.place for p in places] == [1, 2, 3, 4]
    # every table's first player won (tests.service.conftest.report_every_table)
    assert [p.player_id for p in places] == [
        final.player_a,
        final.player_b,
        third.player_a,
        third.player_b,
    ]
    assert places[0].display_name == final.player_a_name
    assert services.places.list_fixed_places(day.tournament_id) == places

    prizes = services.places.get_prizes(day.tournament_id)
    assert prizes.pot_cents == 320_00
    assert [(p.place, p.player_id, p.amount_cents) for p in prizes.payouts] == [
        (1, final.player_a, 160_00),
        (2, final.player_b, 96_00),
        (3, third.player_a, 64_00),
    ]
    assert prizes.unpaid_cents == 0


def test_before_the_places_the_prizes_show_the_split_without_names(
    services: Services, clock: MovableClock
) -> None:
    # rule T-BUYIN-1: the pot is fixed at the start; who gets a share is not known yet
    day = checked_in_tournament(services, clock, 4)
    services.rounds.start(day.tournament_id)
    prizes = services.places.get_prizes(day.tournament_id)
    assert [(p.place, p.player_id, p.amount_cents) for p in prizes.payouts] == [
        (1, None, 160_00),
        (2, None, 96_00),
        (3, None, 64_00),
    ]
