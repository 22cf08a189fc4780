"""A tournament in a variant through the service: each pairing opens its match in its stage's
variant, with the tournament's cube and Tavli format (rule V-MATCH-VARIANT-1)."""

from __future__ import annotations

from service.bootstrap import Services
from service.clock import MovableClock
from tests.service.conftest import checked_in_tournament, report_every_table


def test_each_pairing_opens_its_match_in_its_stages_variant(
    services: Services, clock: MovableClock
) -> None:
    # a Tavli Swiss with a backgammon final and Portes for 3rd place
    day = checked_in_tournament(
        services,
        clock,
        4,
        variant="tavli",
        tavli_format="best_of_three",
        stage_variants={"final": "backgammon", "third_place": "portes"},
    )
    rounds = [services.rounds.start(day.tournament_id).round]
    for _ in range(3):  # round 2, the semi-finals, the final with the 3rd-place match
        report_every_table(services, day, rounds[-1])
        rounds.append(services.rounds.pair_round(day.tournament_id))

    opened = {
        table.stage: services.matches.get(table.match_id)
        for paired in rounds
        for table in paired.pairings
        if table.match_id is not None
    }
    assert set(opened) == {"swiss", "semi_final", "final", "third_place"}
    shown = {stage: (m.variant, m.cube_enabled, m.tavli_format) for stage, m in opened.items()}
    assert shown == {
        "swiss": ("tavli", False, "best_of_three"),
        "semi_final": ("tavli", False, "best_of_three"),
        "final": ("backgammon", True, "points"),
        "third_place": ("portes", False, "points"),
    }
