"""The rules core's fast play search, checked two ways on thousands of positions of seeded
random games: its resulting positions against the independent slow generator of
``tests/domain/variants/slow_rules.py`` (Portes moves exactly like backgammon, V-PORTES-1),
and its whole output (plays, their order, moves, hits, Position IDs, results) against a
digest of what the search before its speed-ups returned."""

from __future__ import annotations

import hashlib

from bench.positions import mixed_positions
from domain.backgammon import APP_RULES, TOURNAMENT_RULES, Play, legal_plays
from tests.domain.variants.slow_rules import slow_plays


def portes_array(side: tuple[int, ...]) -> tuple[int, ...]:
    """A side as the slow generator writes it: the bar first, then points 1..24."""
    return (side[24], *side[:24])


def test_legal_plays_lead_to_exactly_the_positions_the_slow_generator_finds() -> None:
    # rules G-MOVE-1, G-MOVE-2, G-BAR-1, G-MAX-1, G-OFF-1, V-PORTES-1
    disagreements = []
    for position, (die_1, die_2) in mixed_positions(1_500, seed=20):
        for dice in {(die_1, die_2), (die_2, die_1)}:
            fast = [
                (portes_array(play.position.on_roll), portes_array(play.position.opponent))
                for play in legal_plays(position, dice)
            ]
            slow = {
                (after[0], after[1])
                for after in slow_plays(
                    "portes", portes_array(position.on_roll), portes_array(position.opponent), dice
                )
            }
            if len(fast) != len(set(fast)) or set(fast) != slow:
                disagreements.append(f"{position.position_id} {dice}")
    assert not disagreements[:5]


def output_line(play: Play) -> str:
    moves = " ".join(f"{move.source}/{move.destination}{'*' * move.hit}" for move in play.moves)
    result = play.game_result.value if play.game_result else "-"
    return f"{moves} {play.position_id} {result}"


# sha256 of every play of 3,000 cases (both dice orders, both rule sets), recorded with the
# search as it was before its speed-ups (main at a41c007).
BEFORE_THE_SPEED_UPS = "3b3708253cf136ea442360d348d052a435df47f574b2cb6946d2d9c5e0f742ea"


def test_legal_plays_return_what_they_returned_before_the_speed_ups() -> None:
    # rules G-MOVE-1, G-MAX-1, G-OFF-1, G-OFF-2, G-WIN-1: same plays, same order, same moves
    digest = hashlib.sha256()
    for position, (die_1, die_2) in mixed_positions(3_000, seed=2026):
        for dice in ((die_1, die_2), (die_2, die_1)):
            for options in (TOURNAMENT_RULES, APP_RULES):
                lines = [output_line(play) for play in legal_plays(position, dice, options)]
                digest.update(("|".join(lines) + "\n").encode())
    assert digest.hexdigest() == BEFORE_THE_SPEED_UPS
