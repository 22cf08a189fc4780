"""One fold of a tournament's results: from its tables and what decided them, each player's
outcome (rules T-FMT-2..7, C-BREAK-2, R-BYE-1).

``fold_results`` is the only place where results become standings and places. The aggregate's
decisions (pairing, the knockout's seeds, places and prizes), the standings view and the season
ranking view each keep the facts they need their own way (the aggregate in its state, the views
in their tables) and hand them to it as ``ResultFacts``: what was paired, the result that counts
for each match (a correction replaces the one it corrects, rule T-FMT-6), who left, late
entries and penalties. A new format or tiebreak grows here, once.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import cast
from uuid import UUID

import msgspec

from domain.bracket import BracketStage, PlacingMatch
from domain.bracket import places as bracket_places
from domain.events import copied
from domain.standings import (
    KnockoutResult,
    Outcome,
    Standing,
    compute_standings,
    final_places,
    lot_draw,
    round_robin_standings,
)
from domain.tournament.defaults import GROUP_STAGES, Stage
from domain.tournament.events import Seating
from domain.tournament.state import LateEntry, Tournament


class Decided(msgspec.Struct, frozen=True, kw_only=True):
    """The result that counts for a match: the latest recorded, corrections included."""

    winner: UUID
    points_a: int = 0
    points_b: int = 0
    played: bool = True
    """False: an unplayed forfeit (T-FMT-5, T-FMT-7), a win with 0 points."""


class TableFact(Seating, frozen=True, kw_only=True):
    """One table of a paired round, with its result once decided."""

    round: int
    result: Decided | None = None
    """None while the match is open (and always for a bye)."""


LateFact = LateEntry
"""A late entry is the same fact to the aggregate and to the views that fold results."""


class PenaltyFact(msgspec.Struct, frozen=True, kw_only=True):
    """Penalty points standing against a player in one of the tournament's matches (C-BREAK-2)."""

    player_id: UUID
    points: int


class ResultFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What a tournament's outcomes follow from, as the events left it."""

    field: tuple[UUID, ...]
    """The players seated, in seat order (late entries last)."""
    lot_seed: int
    tables: tuple[TableFact, ...] = ()
    left: frozenset[UUID] = frozenset()
    """Players who withdrew or were excluded (T-FMT-5, C-EXCL-1)."""
    late_entries: tuple[LateFact, ...] = ()
    penalties: tuple[PenaltyFact, ...] = ()


class DecidedMatch(msgspec.Struct, frozen=True, kw_only=True):
    """A decided table, Swiss or knockout, a bye included."""

    round: int
    table: int
    stage: Stage
    match_id: UUID | None
    """None for a bye: the table had no match."""
    winner: UUID
    loser: UUID | None
    match_length: int
    played: bool
    """False: a bye or an unplayed forfeit (R-BYE-1); a match decided early is played."""


class PlayerOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """One player's outcome of the tournament so far."""

    player_id: UUID
    place: int
    """1..N as the places stand now; final once the tournament is completed (T-FMT-4, T-FMT-8)."""
    rank: int
    """The Swiss standings' rank (T-FMT-3)."""
    wins: int
    """Swiss wins, byes and forfeits included."""
    points: int
    """Points won in played Swiss matches."""
    opponents: tuple[UUID, ...]
    """Everyone the player was paired against in the Swiss rounds, in round order."""
    byes: int
    """Byes in the Swiss rounds, a late entry's missed rounds counted as byes included."""
    penalty_points: int
    left: bool
    """Withdrew or was excluded: not paired again (T-FMT-5, C-EXCL-1)."""


class TournamentOutcomes(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament's outcomes: the standings, the places, each player's line, each decision."""

    standings: tuple[Standing, ...]
    """The Swiss standings, best first, every tiebreak shown (T-FMT-3)."""
    places: tuple[UUID, ...]
    """Places 1..N: the knockout for the top four, then the Swiss order (T-FMT-4); in an
    elimination, the brackets' places (T-FMT-14), provisional until they are decided."""
    players: tuple[PlayerOutcome, ...]
    """In place order."""
    decided: tuple[DecidedMatch, ...]
    """Every decided table in round and table order."""
    final: KnockoutResult | None = None
    third_place: KnockoutResult | None = None
    consolation_places: dict[UUID, int] = {}
    """rule T-FMT-13: an elimination's consolation winner (1) and finalist (2), once decided."""

    def of(self, player_id: UUID) -> PlayerOutcome:
        for outcome in self.players:
            if outcome.player_id == player_id:
                return outcome
        raise KeyError(player_id)


def fold_results(facts: ResultFacts) -> TournamentOutcomes:
    """Each player's outcome from the tournament's tables, results, leavers, late entries and
    penalties.

    Swiss standings (T-FMT-3): a bye and an unplayed forfeit are wins with 0 points (T-FMT-2,
    T-FMT-5, T-FMT-7); a late entry's missed rounds are 0-point byes where the director chose
    so, and as losses add nothing (no opponent for anyone's Buchholz). Places (T-FMT-4): the
    knockout's four are those it was seeded with, whatever a later correction or withdrawal did
    to the Swiss order; of the others, players who left follow those who stayed.
    """
    tables = sorted(facts.tables, key=lambda t: (t.round, t.table))
    # rule T-FMT-12: an elimination's first round is already a bracket round
    elimination = bool(tables) and tables[0].stage not in GROUP_STAGES
    swiss = tables if elimination else [t for t in tables if t.stage in GROUP_STAGES]
    # rule T-FMT-11: a round robin ranks by wins, points, head-to-head and lot, rests worth nothing
    # (so does an elimination's table of wins: a bye is no win, R-BYE-1)
    plain = elimination or any(t.stage == "round_robin" for t in swiss)
    rank = round_robin_standings if plain else compute_standings
    standings = rank(
        facts.field, _swiss_outcomes(swiss, facts.late_entries), lot_seed=facts.lot_seed
    )
    decided = tuple(_decided(tables))
    knockout = {match.stage: match for match in decided if match.stage not in GROUP_STAGES}
    final, third_place = (_knockout_result(knockout.get(s)) for s in ("final", "third_place"))
    knockout_tables = [t for t in tables if t.stage not in GROUP_STAGES]
    consolation_places: dict[UUID, int] = {}
    if elimination:
        places, consolation_places = _elimination_places(facts, tables)
    else:
        places = _places(facts, standings, knockout_tables, final, third_place)

    opponents: defaultdict[UUID, list[UUID]] = defaultdict(list)
    for table in swiss:
        if table.player_b is not None:
            opponents[table.player_a].append(table.player_b)
            opponents[table.player_b].append(table.player_a)
    penalty_points: defaultdict[UUID, int] = defaultdict(int)
    for penalty in facts.penalties:
        penalty_points[penalty.player_id] += penalty.points
    standing_of = {standing.player_id: standing for standing in standings}
    players = tuple(
        PlayerOutcome(
            player_id=player,
            place=place,
            rank=standing_of[player].rank,
            wins=standing_of[player].wins,
            points=standing_of[player].points,
            opponents=tuple(opponents[player]),
            byes=standing_of[player].byes,
            penalty_points=penalty_points[player],
            left=player in facts.left,
        )
        for place, player in enumerate(places, start=1)
    )
    return TournamentOutcomes(
        standings=tuple(standings),
        places=tuple(places),
        players=players,
        decided=decided,
        final=final,
        third_place=third_place,
        consolation_places=consolation_places,
    )


def result_facts(state: Tournament) -> ResultFacts:
    """The aggregate's facts for ``fold_results`` (it keeps no penalties: they live in matches,
    and none of its decisions depends on them)."""
    results = {result.match_id: result for result in state.results}
    tables = []
    for paired in state.rounds:
        for table in paired.tables:
            result = results.get(table.match_id) if table.match_id is not None else None
            decided = None if result is None else copied(result, Decided)
            tables.append(copied(table, TableFact, round=paired.number, result=decided))
    active = set(state.active_players())
    return ResultFacts(
        field=state.field,
        lot_seed=state.lot_seed,
        tables=tuple(tables),
        left=frozenset(player for player in state.field if player not in active),
        late_entries=state.late_entries,
    )


def _swiss_outcomes(swiss: Iterable[TableFact], late: Iterable[LateFact]) -> list[Outcome]:
    outcomes = []
    for table in swiss:
        if table.player_b is None:
            outcomes.append(_bye(table.round, table.player_a))
        elif table.result is not None:
            outcomes.append(
                Outcome(
                    round=table.round,
                    player_a=table.player_a,
                    player_b=table.player_b,
                    winner=table.result.winner,
                    points_a=table.result.points_a,
                    points_b=table.result.points_b,
                    played=table.result.played,
                )
            )
    for entry in late:
        if entry.missed == "byes":
            outcomes.extend(_bye(number, entry.player_id) for number in range(1, entry.from_round))
    return outcomes


def _bye(number: int, player: UUID) -> Outcome:
    return Outcome(round=number, player_a=player, player_b=None, winner=player, played=False)


def _decided(tables: Iterable[TableFact]) -> Iterable[DecidedMatch]:
    for table in tables:
        if table.player_b is None:
            winner, loser, played = table.player_a, None, False  # rule R-BYE-1
        elif table.result is not None:
            winner = table.result.winner
            loser = table.player_b if winner == table.player_a else table.player_a
            played = table.result.played
        else:
            continue
        yield copied(table, DecidedMatch, winner=winner, loser=loser, played=played)


def _knockout_result(match: DecidedMatch | None) -> KnockoutResult | None:
    if match is None or match.loser is None:
        return None
    return KnockoutResult(winner=match.winner, loser=match.loser)


def _places(
    facts: ResultFacts,
    standings: Iterable[Standing],
    knockout: list[TableFact],
    final: KnockoutResult | None,
    third_place: KnockoutResult | None,
) -> list[UUID]:
    first = [t for t in knockout if t.round == knockout[0].round] if knockout else []
    seeded = [p for t in first for p in (t.player_a, t.player_b) if p is not None]
    rest = [s.player_id for s in standings if s.player_id not in seeded]
    stayed = [p for p in rest if p not in facts.left]
    # the places stand provisionally while the knockout is played: the finalists first once the
    # final is decided, a match for 3rd place counts with the final only
    finalists = [final.winner, final.loser] if final is not None else []
    order = finalists + [p for p in seeded if p not in finalists]
    order += stayed + [p for p in rest if p in facts.left]
    return final_places(order, final=final, third_place=third_place if final else None)


def _elimination_places(
    facts: ResultFacts, tables: list[TableFact]
) -> tuple[list[UUID], dict[UUID, int]]:
    """rule T-FMT-14: the places and the consolation places by ``domain.bracket.places``, the
    one computation of them; the players are numbered in seat order for it."""
    number_of = {player: number for number, player in enumerate(facts.field, start=1)}
    matches = []
    for table in tables:
        side = table.stage == "consolation"
        winner = table.result.winner if table.result is not None else None
        loser_points = 0
        if table.result is not None:
            won_a = winner == table.player_a
            loser_points = table.result.points_b if won_a else table.result.points_a
        matches.append(
            PlacingMatch(
                bracket="consolation" if side else "main",
                # rule T-FMT-13: consolation round c is played in tournament round c + 1
                bracket_round=table.round - 1 if side else table.round,
                stage=cast("BracketStage", table.stage),  # an elimination table's stage
                seed_a=number_of[table.player_a],
                seed_b=None if table.player_b is None else number_of[table.player_b],
                winner=None if winner is None or table.player_b is None else number_of[winner],
                loser_points=loser_points,
            )
        )
    drawn = lot_draw(facts.field, facts.lot_seed)
    lot = sorted(number_of.values(), key=lambda number: drawn[facts.field[number - 1]])
    placed = bracket_places(len(facts.field), matches, lot)
    order = [facts.field[p.seed - 1] for p in placed]
    side_places = {
        facts.field[p.seed - 1]: p.consolation_place for p in placed if p.consolation_place
    }
    return order, side_places
