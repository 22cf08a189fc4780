"""An elimination tournament's rounds, places and prizes from its state (rules T-FMT-12..14).

The brackets themselves are pure numbers in ``domain.bracket``; this module maps the
tournament's recorded tables and results to seeds and back: the bracket seeds drawn at the
start (``Tournament.bracket_seeds``, seed 1 first) name the players.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import cast
from uuid import UUID

import msgspec

from domain.bracket import BracketMatch, BracketStage, MatchKey, next_round, pot_split
from domain.standings import PotSplit, split_pot
from domain.tournament.events import PairedTable
from domain.tournament.outcomes import fold_results, result_facts
from domain.tournament.state import Tournament


def played_matches(state: Tournament) -> tuple[list[BracketMatch], dict[MatchKey, int]]:
    """Every elimination table recorded so far as a bracket match, and the winners by seed."""
    seed_of = {player: seed for seed, player in enumerate(state.bracket_seeds, start=1)}
    matches: list[BracketMatch] = []
    winners: dict[MatchKey, int] = {}
    for paired in state.rounds:
        for table in paired.tables:
            if table.bracket not in ("main", "consolation"):
                continue
            match = BracketMatch(
                bracket="main" if table.bracket == "main" else "consolation",
                bracket_round=table.bracket_round or 0,
                position=table.bracket_position or 0,
                stage=cast("BracketStage", table.stage),  # an elimination table's stage
                seed_a=seed_of[table.player_a],
                seed_b=None if table.player_b is None else seed_of[table.player_b],
            )
            matches.append(match)
            result = state.result_of(table.match_id) if table.match_id is not None else None
            if result is not None:
                winners[match.key] = seed_of[result.winner]
    return matches, winners


def elimination_tables(state: Tournament, new_match_id: Callable[[], UUID]) -> list[PairedTable]:
    """rule T-FMT-12, T-FMT-13: the next round of both brackets. Tables: main matches in
    bracket order, then consolation matches, then the byes (API.md "Formats"). A player who
    left leaves an empty consolation slot; in the main bracket they forfeit at the pairing."""
    matches, winners = played_matches(state)
    active = set(state.active_players())
    withdrawn = {
        seed for seed, player in enumerate(state.bracket_seeds, start=1) if player not in active
    }
    upcoming = next_round(
        len(state.bracket_seeds), state.consolation_played, matches, winners, withdrawn
    )
    ordered = [m for m in upcoming if not m.is_bye] + [m for m in upcoming if m.is_bye]
    tables = [_table(state, number, match, new_match_id) for number, match in enumerate(ordered, 1)]
    return [_deserted(table, active) for table in tables]


def _deserted(table: PairedTable, active: Collection[UUID]) -> PairedTable:
    """A match of two players who both left stays open: neither can forfeit to the other, and
    no rule says who goes through (a ruling is needed); the director records its result."""
    if table.player_b is None or table.player_a in active or table.player_b in active:
        return table
    note = "; both players have left the tournament: the director records who goes through"
    return msgspec.structs.replace(table, explanation=table.explanation + note)


def elimination_over(state: Tournament) -> bool:
    """rule T-FMT-14: complete when the main final, the match for 3rd place and the
    consolation final (those played) are decided: no round follows."""
    if not state.rounds or state.open_tables(state.rounds[-1]):
        return False
    matches, winners = played_matches(state)
    return not next_round(len(state.bracket_seeds), state.consolation_played, matches, winners)


def elimination_places(state: Tournament) -> list[UUID]:
    """rule T-FMT-14: places 1..N once the brackets are decided; before that, players still in
    the main bracket first, then by the main round they reached (``domain.bracket.places``, by
    the one fold of the results)."""
    return list(fold_results(result_facts(state)).places)


def consolation_places(state: Tournament) -> dict[UUID, int]:
    """rule T-FMT-13: the consolation's winner (1) and finalist (2), once decided."""
    return dict(fold_results(result_facts(state)).consolation_places)


def elimination_pots(state: Tournament) -> tuple[int, int]:
    """rule T-FMT-14: (main pot, consolation pot). From the start, by the consolation played;
    before it, by the consolation asked (the field, and so whether one is played, is not yet
    known: docs/api.md)."""
    consolation = state.consolation_played if state.started_at else state.consolation
    return pot_split(state.pot_cents, consolation, state.consolation_pot_percent)


def elimination_prizes(state: Tournament) -> tuple[PotSplit, PotSplit]:
    """rule T-FMT-14: the main pot over places 1, 2, 3, ... and the consolation pot over
    consolation places 1, 2, each split as T-BUYIN-1."""
    main_pot, side_pot = elimination_pots(state)
    main = split_pot(main_pot, state.payout_percent, elimination_places(state))
    side_places = consolation_places(state)
    ranked = sorted(side_places, key=lambda player: side_places[player])
    side = split_pot(side_pot, state.consolation_payout_percent if ranked else (), ranked)
    return main, side


def _table(
    state: Tournament, number: int, match: BracketMatch, new_match_id: Callable[[], UUID]
) -> PairedTable:
    seeds = state.bracket_seeds
    where = f"{match.bracket} bracket, round {match.bracket_round}, match {match.position}"
    if match.seed_b is None:
        return PairedTable(
            table=number,
            stage=match.stage,
            player_a=seeds[match.seed_a - 1],
            reason="bye",
            explanation=f"seed {match.seed_a} advances with a bye ({where}; no win, no points)",
            bracket=match.bracket,
            bracket_round=match.bracket_round,
            bracket_position=match.position,
            seed_a=match.seed_a,
        )
    return PairedTable(
        table=number,
        stage=match.stage,
        player_a=seeds[match.seed_a - 1],
        player_b=seeds[match.seed_b - 1],
        match_id=new_match_id(),
        match_length=state.stage_length(match.stage),
        reason="bracket",
        explanation=f"{where}: seed {match.seed_a} v seed {match.seed_b}",
        bracket=match.bracket,
        bracket_round=match.bracket_round,
        bracket_position=match.position,
        seed_a=match.seed_a,
        seed_b=match.seed_b,
    )
