"""The tournament day: Swiss rounds, the knockout, results and corrections, withdrawals."""

# Rules T-FMT-1..8 (DOMAIN.md section 3).

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError
from domain.events import EventBatch
from domain.pairing import Entrant, pair_swiss_round_ahead
from domain.standings import PotSplit, Standing, split_pot
from domain.text import one_line
from domain.tournament.defaults import KNOCKOUT_PLAYERS, MAX_REASON_LENGTH, ResultSource
from domain.tournament.elimination import elimination_over, elimination_tables
from domain.tournament.errors import (
    AllRoundsPairedError,
    MatchNotInTournamentError,
    PlayerNotInTournamentError,
    ResultConflictError,
    ResultsMissingError,
    TournamentFinalError,
    TournamentStateError,
)
from domain.tournament.events import (
    PairedTable,
    PlayerExcluded,
    PlayerWithdrew,
    ResultRecorded,
    RoundPaired,
    TournamentCompleted,
    TournamentEvent,
)
from domain.tournament.formats import round_robin_rounds, round_robin_tables
from domain.tournament.outcomes import TournamentOutcomes, fold_results, result_facts
from domain.tournament.state import Registration, Round, Tournament, evolve

MAX_MATCH_POINTS = 999
"""A bound on reported points: a gammon on a high cube can pass the match length by far."""


class MatchScore:
    """How far an unfinished match got: the points each side has won so far."""

    __slots__ = ("points_a", "points_b")

    def __init__(self, points_a: int, points_b: int) -> None:
        self.points_a = points_a
        self.points_b = points_b


def playable_swiss_rounds(configured: int, players: int) -> int:
    """rule T-FMT-1: no rematch in the Swiss phase, so a small field plays fewer rounds.

    n players can meet n - 1 different opponents, and an odd field n (one of them sitting out
    with the bye each round).
    """
    most = players - 1 if players % 2 == 0 else players
    return max(1, min(configured, most))


def has_knockout(state: Tournament) -> bool:
    """rule T-FMT-4: the best four play the knockout; fewer than four still in play do not.
    rule T-FMT-10: a tournament with ``knockout_players`` 0 has none."""
    if state.knockout_players < KNOCKOUT_PLAYERS:
        return False
    return any(paired.stage == "knockout" for paired in state.rounds) or (
        len(state.active_players()) >= KNOCKOUT_PLAYERS
    )


def group_rounds(state: Tournament) -> int:
    """The rounds before the knockout: the Swiss rounds (T-FMT-1) or the round robin's
    cycles of Berger rounds (T-FMT-11)."""
    if state.format == "round_robin":
        return round_robin_rounds(state)
    return state.swiss_rounds


def outcomes(state: Tournament) -> TournamentOutcomes:
    """The tournament's outcomes from the results that count now, by the one fold of results."""
    return fold_results(result_facts(state))


def swiss_standings(state: Tournament) -> list[Standing]:
    """rule T-FMT-3: the Swiss standings from the results that count now."""
    return list(outcomes(state).standings)


def places(state: Tournament) -> list[UUID]:
    """rule T-FMT-4: places 1-4 from the final and the match for 3rd place, 5.. from the Swiss
    standings; without a knockout, the Swiss standings; in an elimination, the brackets' places
    (rule T-FMT-14). All by ``fold_results``."""
    return list(outcomes(state).places)


def prizes(state: Tournament) -> PotSplit:
    """rule T-BUYIN-1: the pot split by the tournament's shares over the places."""
    return split_pot(state.pot_cents, state.payout_percent, places(state))


def is_complete(state: Tournament) -> bool:
    """rule T-FMT-8: complete when the last round is decided: the final and the match for 3rd
    place, or, without a knockout, the last Swiss round."""
    if state.format == "elimination":
        return elimination_over(state)  # rule T-FMT-14
    if not state.rounds or state.open_tables(state.rounds[-1]):
        return False
    knockout = sum(1 for paired in state.rounds if paired.stage == "knockout")
    group = len(state.rounds) - knockout
    return group >= group_rounds(state) and (knockout == 2 or not has_knockout(state))


# Commands ----------------------------------------------------------------------------------


def pair_next_round(
    state: Tournament,
    *,
    seed: int,
    new_match_id: Callable[[], UUID],
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """Pair the next round once every table of the last one has its result.

    The Swiss rounds first (rule T-FMT-2), then the semi-finals and then the final with the
    match for 3rd place (rule T-FMT-4). ``seed`` draws this round's lot and is recorded, so
    the same round can be computed again; ``new_match_id`` names each table's match.
    """
    _require_started(state)
    if state.completed_at is not None:
        raise AllRoundsPairedError("the tournament is completed: every round is paired")
    if state.rounds and (open_tables := state.open_tables(state.rounds[-1])):
        numbers = [table.table for table in open_tables]
        raise ResultsMissingError(
            f"round {state.rounds[-1].number} still needs the results of table(s) "
            + ", ".join(map(str, numbers))
            + _both_left(state, open_tables),
            round=state.rounds[-1].number,
            tables=numbers,
        )
    group_paired = sum(1 for paired in state.rounds if paired.stage != "knockout")
    completable: bool | None = None
    stage: str = state.format
    if state.format == "elimination":
        tables = elimination_tables(state, new_match_id)  # rules T-FMT-12, T-FMT-13
    elif group_paired < group_rounds(state) and state.format == "round_robin":
        tables = round_robin_tables(state, new_match_id)  # rule T-FMT-11
    elif group_paired < group_rounds(state):
        rounds_left = state.swiss_rounds - group_paired
        tables, completable = _swiss_tables(state, seed, new_match_id, rounds_left)
    else:
        tables = _knockout_tables(state, new_match_id)
        stage = "knockout"
    tables = seat_fixed_tables(state, tables)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    paired = batch.add(
        RoundPaired,
        round=len(state.rounds) + 1,
        stage=stage,
        seed=seed,
        tables=tuple(tables),
        completable=completable,
    )
    _forfeit_for_the_absent(evolve(state, paired), batch, tables, new_result_id=new_match_id)
    return batch.events


def _both_left(state: Tournament, open_tables: Sequence[PairedTable]) -> str:
    """The open tables whose two players have both left: nobody plays them and no rule says
    who goes through (a ruling is needed, docs/api.md), so the director must record it."""
    active = set(state.active_players())
    deserted = [
        str(t.table)
        for t in open_tables
        if t.player_a not in active and t.player_b is not None and t.player_b not in active
    ]
    if not deserted:
        return ""
    return (
        f"; both players of table(s) {', '.join(deserted)} have left the tournament: "
        "no rule says who goes through, so the director records that result "
        "(POST .../results)"
    )


def _forfeit_for_the_absent(
    state: Tournament,
    batch: EventBatch[TournamentEvent],
    tables: Sequence[PairedTable],
    *,
    new_result_id: Callable[[], UUID],
) -> None:
    """rule T-FMT-5: a knockout player who left before the final or the match for 3rd place is
    not paired to play: the match goes unplayed to the opponent (rule T-FMT-7)."""
    active = set(state.active_players())
    after = state
    for table in tables:
        if table.match_id is None or table.player_b is None:
            continue
        absent = [p for p in (table.player_a, table.player_b) if p not in active]
        if len(absent) != 1:
            continue
        winner = table.player_b if absent[0] == table.player_a else table.player_a
        recorded = batch.add(
            ResultRecorded,
            result_id=new_result_id(),
            match_id=table.match_id,
            winner=winner,
            points_a=0,
            points_b=0,
            played=False,
            source="withdrawal",
            reason="the opponent left the tournament",
        )
        after = evolve(after, recorded)
    # a round robin's last round can be decided by its pairing alone (rests and forfeits)
    if is_complete(after):
        batch.add(TournamentCompleted)


def record_result(
    state: Tournament,
    *,
    result_id: UUID,
    match_id: UUID,
    winner: UUID,
    points_a: int,
    points_b: int,
    source: ResultSource,
    played: bool = True,
    corrects: UUID | None = None,
    reason: str = "",
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """Record a match's result, or correct the one that counts (rule T-FMT-6).

    A won match gives the winner at least the match length; a match decided before it was
    played out gives exactly that, the loser keeping their points (rule T-FMT-7). A
    best-of-three Tavli match played through the service (``source`` "match") records its game
    points as they are: its winner won two games, with any points (V-TAVLI-MATCH-1). A result
    from the match itself is recorded once: a second arrival records nothing. The tournament
    completes with its last result (rule T-FMT-8).
    """
    _require_started(state)
    located = state.table_of(match_id)
    if located is None:
        raise MatchNotInTournamentError(f"no pairing of this tournament started match {match_id}")
    paired_round, table = located
    existing = state.result_of(match_id)
    if source == "match" and existing is not None:
        return []
    require_not_final(state)
    if winner not in (table.player_a, table.player_b):
        raise InvalidInputError("winner", f"{winner} does not play match {match_id}")
    by_games = source == "match" and state.variants.wins_by_games(table.stage)
    _check_points(table, winner, points_a, points_b, played=played, by_games=by_games)
    if corrects is None and existing is not None:
        raise ResultConflictError(
            f"match {match_id} has its result ({existing.id}); "
            "to correct it, name that result in corrects",
            result_id=str(existing.id),
        )
    if corrects is not None and (existing is None or existing.id != corrects):
        raise ResultConflictError(
            f"{corrects} is not the result that counts for match {match_id}",
            result_id=str(existing.id) if existing else None,
        )
    later_paired = paired_round.number < len(state.rounds)
    if corrects is not None and state.format == "elimination" and later_paired:
        # API.md "Formats": the next bracket round was paired from this result
        raise ResultConflictError(
            f"round {paired_round.number + 1} was paired from this result: "
            "unpair the later round first",
            result_id=str(corrects),
        )
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    recorded = batch.add(
        ResultRecorded,
        result_id=result_id,
        match_id=match_id,
        winner=winner,
        points_a=points_a,
        points_b=points_b,
        played=played,
        source=source,
        corrects=corrects,
        reason=reason,
    )
    if state.completed_at is None and is_complete(evolve(state, recorded)):
        batch.add(TournamentCompleted)
    return batch.events


def withdraw(
    state: Tournament,
    *,
    player_id: UUID,
    reason: str,
    left_early: bool,
    unfinished: Mapping[UUID, MatchScore | None],
    new_result_id: Callable[[], UUID],
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """rule T-FMT-5: a player who leaves is not paired again; their open match is forfeited.

    ``unfinished`` gives, for each of the player's matches without a result, the score reached
    so far, or None where no game was played: such a match is unplayed, a win with 0 points
    for the opponent; a begun one is decided at the match length (rule T-FMT-7).
    """
    registration = _leaving(state, player_id)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        PlayerWithdrew,
        registration_id=registration.id,
        player_id=player_id,
        reason=reason,
        left_early=left_early,
    )
    return _forfeit_open_matches(
        state, batch, player_id, unfinished, new_result_id, "withdrawal", reason
    )


def exclude(
    state: Tournament,
    *,
    player_id: UUID,
    reason: str,
    unfinished: Mapping[UUID, MatchScore | None],
    new_result_id: Callable[[], UUID],
    now: datetime,
    actor: str,
) -> list[TournamentEvent]:
    """rule C-EXCL-1: the director excludes a player: not paired again, no refund (R-EXCL-1);
    an open match of theirs is decided at the match length for the opponent (rule T-FMT-7)."""
    registration = _leaving(state, player_id)
    batch = EventBatch[TournamentEvent].after(state, now, actor)
    batch.add(
        PlayerExcluded,
        registration_id=registration.id,
        player_id=player_id,
        reason=one_line("reason", reason, MAX_REASON_LENGTH),
    )
    decided = {match_id: score or MatchScore(0, 0) for match_id, score in unfinished.items()}
    return _forfeit_open_matches(
        state, batch, player_id, decided, new_result_id, "exclusion", reason
    )


def _leaving(state: Tournament, player_id: UUID) -> Registration:
    require_running(state)
    return require_active(state, player_id)


def require_active(state: Tournament, player_id: UUID) -> Registration:
    registration = state.registration_of(player_id)
    if registration is None or player_id not in state.field:
        raise PlayerNotInTournamentError(f"player {player_id} does not play in this tournament")
    if registration.status in ("withdrawn", "excluded"):
        raise TournamentStateError(f"the player is {registration.status} already")
    return registration


def _forfeit_open_matches(
    state: Tournament,
    batch: EventBatch[TournamentEvent],
    player_id: UUID,
    unfinished: Mapping[UUID, MatchScore | None],
    new_result_id: Callable[[], UUID],
    source: ResultSource,
    reason: str,
) -> list[TournamentEvent]:
    """Each open match of the leaving player goes to the opponent; the tournament completes
    if that was its last result."""
    after = state
    for paired in state.rounds:
        for table in _open_tables_of(state, paired, player_id):
            assert table.match_id is not None
            assert table.player_b is not None
            opponent = table.player_b if table.player_a == player_id else table.player_a
            score = unfinished.get(table.match_id)
            points = _forfeit_points(table, opponent, score)
            recorded = batch.add(
                ResultRecorded,
                result_id=new_result_id(),
                match_id=table.match_id,
                winner=opponent,
                points_a=points[0],
                points_b=points[1],
                played=score is not None,
                source=source,
                reason=reason,
            )
            after = evolve(after, recorded)
    if len(batch.events) > 1 and is_complete(after) and state.completed_at is None:
        batch.add(TournamentCompleted)
    return batch.events


# Pairing -----------------------------------------------------------------------------------


def _swiss_tables(
    state: Tournament, seed: int, new_match_id: Callable[[], UUID], rounds_left: int
) -> tuple[list[PairedTable], bool | None]:
    """rule T-FMT-2: the active players in the order of the standings, paired by score group;
    rule T-FMT-9: looking ahead to the ``rounds_left`` Swiss rounds (this one included), and
    whether they can still be completed without a rematch after it."""
    folded = {outcome.player_id: outcome for outcome in outcomes(state).players}
    entrants = [
        Entrant(
            player_id=standing.player_id,
            wins=standing.wins,
            opponents=frozenset(folded[standing.player_id].opponents),
            had_bye=standing.byes > 0,
        )
        for standing in swiss_standings(state)
        if not folded[standing.player_id].left
    ]
    length = state.stage_length("swiss")
    paired = pair_swiss_round_ahead(entrants, seed=seed, rounds_left=rounds_left)
    tables = [
        PairedTable(
            table=table.table,
            stage="swiss",
            player_a=table.player_a,
            player_b=table.player_b,
            match_id=new_match_id() if table.player_b is not None else None,
            match_length=length if table.player_b is not None else 0,
            reason=table.reason,
            explanation=table.explanation,
        )
        for table in paired.tables
    ]
    return tables, paired.completable


def _knockout_tables(state: Tournament, new_match_id: Callable[[], UUID]) -> list[PairedTable]:
    """rule T-FMT-4: semi-finals 1 v 4 and 2 v 3, then the final and the match for 3rd place."""
    knockout = [paired for paired in state.rounds if paired.stage == "knockout"]
    if not has_knockout(state) or len(knockout) >= 2:
        raise AllRoundsPairedError("every round of this tournament is paired")
    if not knockout:
        active = set(state.active_players())
        best = [s.player_id for s in swiss_standings(state) if s.player_id in active]
        if len(best) < KNOCKOUT_PLAYERS:
            raise AllRoundsPairedError("fewer than four players remain for the knockout")
        pairs = [
            ("semi_final", best[0], best[3], f"semi-final: 1st v 4th of the {_of(state)}"),
            ("semi_final", best[1], best[2], f"semi-final: 2nd v 3rd of the {_of(state)}"),
        ]
    else:
        winners, losers = _semi_final_outcome(state, knockout[0])
        pairs = [
            ("final", winners[0], winners[1], "final: the winners of the semi-finals"),
            ("third_place", losers[0], losers[1], "3rd place: the losers of the semi-finals"),
        ]
    return [
        PairedTable(
            table=number,
            stage=stage,  # type: ignore[arg-type]
            player_a=player_a,
            player_b=player_b,
            match_id=new_match_id(),
            match_length=state.stage_length(stage),  # type: ignore[arg-type]
            reason="seeding",
            explanation=explanation,
        )
        for number, (stage, player_a, player_b, explanation) in enumerate(pairs, start=1)
    ]


def _of(state: Tournament) -> str:
    return "round robin standings" if state.format == "round_robin" else "Swiss standings"


def _semi_final_outcome(state: Tournament, semis: Round) -> tuple[list[UUID], list[UUID]]:
    winners, losers = [], []
    for table in semis.tables:
        result = state.result_of(table.match_id) if table.match_id else None
        assert result is not None
        assert table.player_b is not None
        winners.append(result.winner)
        losers.append(table.player_b if result.winner == table.player_a else table.player_a)
    return winners, losers


def seat_fixed_tables(state: Tournament, tables: list[PairedTable]) -> list[PairedTable]:
    """Mobility: a player with a fixed table plays there; the other tables keep their order and
    take the numbers left over, from 1."""
    wanted: dict[int, int] = {}
    for index, table in enumerate(tables):
        for player in (table.player_a, table.player_b):
            number = state.fixed_table_of(player) if player is not None else None
            if number is not None and number not in wanted.values() and index not in wanted:
                wanted[index] = number
    if not wanted:
        return tables
    free = (n for n in range(1, len(tables) + len(wanted) + 1) if n not in wanted.values())
    seated = [
        msgspec.structs.replace(table, table=wanted[index] if index in wanted else next(free))
        for index, table in enumerate(tables)
    ]
    return sorted(seated, key=lambda table: table.table)


# Checks ------------------------------------------------------------------------------------


def require_not_final(state: Tournament) -> None:
    if state.finalized_at is not None:
        raise TournamentFinalError(
            "places and prizes are final: reopen the tournament (with a reason) to correct it"
        )


def _require_started(state: Tournament) -> None:
    if state.started_at is None:
        raise TournamentStateError("the tournament has not started")


def require_running(state: Tournament) -> None:
    _require_started(state)
    if state.completed_at is not None:
        raise TournamentStateError("the tournament is completed")


def _open_tables_of(state: Tournament, paired: Round, player_id: UUID) -> list[PairedTable]:
    return [
        table
        for table in state.open_tables(paired)
        if player_id in (table.player_a, table.player_b)
    ]


def _forfeit_points(table: PairedTable, winner: UUID, score: MatchScore | None) -> tuple[int, int]:
    """rule T-FMT-7: an unplayed match gives 0 points; a begun one the match length to the
    winner, the loser keeping what they had."""
    if score is None:
        return 0, 0
    if winner == table.player_a:
        return table.match_length, score.points_b
    return score.points_a, table.match_length


def _check_points(
    table: PairedTable,
    winner: UUID,
    points_a: int,
    points_b: int,
    *,
    played: bool,
    by_games: bool = False,
) -> None:
    """``by_games``: the game points of a best-of-three Tavli match, whose winner is who won
    two games (V-TAVLI-MATCH-1), so that no side's points are held against the length."""
    for field, points in (("points_a", points_a), ("points_b", points_b)):
        if not 0 <= points <= MAX_MATCH_POINTS:
            raise InvalidInputError(field, f"must be between 0 and {MAX_MATCH_POINTS}")
    if not played:
        if points_a or points_b:
            raise InvalidInputError("points_a", "an unplayed match scores 0 points (T-FMT-7)")
        return
    if by_games:
        return
    won, lost = (points_a, points_b) if winner == table.player_a else (points_b, points_a)
    won_field = "points_a" if winner == table.player_a else "points_b"
    lost_field = "points_b" if winner == table.player_a else "points_a"
    # rule T-FMT-7: the winner reaches the match length; the loser stays below it
    if won < table.match_length:
        raise InvalidInputError(
            won_field, f"the winner of a {table.match_length}-point match has at least that"
        )
    if lost >= table.match_length:
        raise InvalidInputError(
            lost_field, f"the loser of a {table.match_length}-point match has less than that"
        )
