"""The season ranking: points per player over a season's tournaments, each one explained."""

# Rules R-ATT-1, R-ATT-2, R-MATCH-1, R-BYE-1, R-CLASS-1, R-TIE-1 (DOMAIN.md section 6).

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Literal
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError, NotFoundError
from domain.tournament import DEFAULT_CLASS

ATTENDANCE_POINTS = 7  # rule R-ATT-1: for each tournament a player was present at

EntryKind = Literal[
    "attendance",
    "attendance_revoked",
    "match_won",
    "match_unplayed",
    "tournament_won",
    "season_revoked",
]


class PlayerNotRankedError(NotFoundError):
    """The player has no row in the season's ranking (never attended a ranked tournament)."""


class WonMatch(msgspec.Struct, frozen=True, kw_only=True):
    """A decided match of a tournament, Swiss or knockout, seen from its winner."""

    match_id: UUID | None = None
    """None for a bye: the table had no match (rule T-FMT-2)."""
    round: int
    stage: str
    """``swiss``, ``semi_final``, ``final`` or ``third_place``: shown, not interpreted."""
    winner: UUID
    match_length: int
    played: bool = True
    """False: a bye or an unplayed forfeit (R-BYE-1). A match decided early (T-FMT-7) is played."""


class TournamentRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What one tournament contributes to the season ranking."""

    tournament_id: UUID
    name: str
    class_name: str
    attended: frozenset[UUID]
    """Checked in and seated (rule R-ATT-1); no-shows are not in it."""
    left_early: frozenset[UUID] = frozenset()
    """Players whose attendance points the director revoked for leaving early (rule R-ATT-2)."""
    winner: UUID | None = None
    """Place 1, once the tournament is completed."""
    won_matches: tuple[WonMatch, ...] = ()


class RankingEntry(msgspec.Struct, frozen=True, kw_only=True):
    """One line of a player's explanation: what happened, where, and the points it gave."""

    kind: EntryKind
    points: int
    """Signed: a revocation takes points back."""
    rule: str
    tournament_id: UUID | None = None
    """None for the season revocation, which concerns no single tournament."""
    tournament_name: str = ""
    match_id: UUID | None = None
    round: int | None = None
    stage: str | None = None


class RankingRow(msgspec.Struct, frozen=True, kw_only=True):
    """One player's place in the season ranking with the entries that add up to the points."""

    rank: int
    """Shared by full ties (1, 2, 2, 4)."""
    player_id: UUID
    points: int
    """``attendance_points + match_points``, or 0 when the season points are revoked."""
    attendance_points: int
    """Earned and not revoked for leaving early (shown even when the season is revoked)."""
    match_points: int
    tournament_wins: int
    tournaments_played: int
    """Tournaments of the ranked class the player attended."""
    season_revoked: bool = False
    explanation: tuple[RankingEntry, ...]
    """Every entry, tournament by tournament; their points add up to ``points``."""


def compute_ranking(
    records: Sequence[TournamentRecord],
    *,
    revoked_season: frozenset[UUID] = frozenset(),
    attendance_points: int = ATTENDANCE_POINTS,
    ranked_class: str = DEFAULT_CLASS,
) -> list[RankingRow]:
    """The season ranking of everyone who attended a tournament of the ranked class.

    Per tournament of ``ranked_class`` (R-CLASS-1; other classes are ignored): attendance
    points (R-ATT-1), taken back for leaving early (R-ATT-2), and the match length of every
    won match that was played (R-MATCH-1), knockout included; byes and unplayed forfeits give 0
    (R-BYE-1). A player in ``revoked_season`` (R-ATT-2, C-EXCL-1) stays listed with 0 points,
    after every other player, and the revocation is the last entry of the explanation.

    Order (R-TIE-1): more points, more tournament wins, fewer tournaments played. Players equal
    on all three share a rank (1, 2, 2, 4); among them the order is by player id only.
    """
    if attendance_points < 0:
        raise InvalidInputError("attendance_points", "must not be negative")
    entries: defaultdict[UUID, list[RankingEntry]] = defaultdict(list)
    attendance: Counter[UUID] = Counter()
    match_points: Counter[UUID] = Counter()
    wins: Counter[UUID] = Counter()
    played: Counter[UUID] = Counter()
    seen: set[UUID] = set()
    for record in records:
        if record.tournament_id in seen:
            raise InvalidInputError("records", f"tournament {record.name!r} appears twice")
        seen.add(record.tournament_id)
        if record.class_name != ranked_class:
            continue  # rule R-CLASS-1
        _check_record(record)
        for player in sorted(record.attended):
            played[player] += 1
            attendance[player] += attendance_points
            entries[player].append(_entry(record, "attendance", attendance_points, "R-ATT-1"))
            if player in record.left_early:
                attendance[player] -= attendance_points
                entries[player].append(
                    _entry(record, "attendance_revoked", -attendance_points, "R-ATT-2")
                )
        for match in record.won_matches:
            if match.played:
                match_points[match.winner] += match.match_length
                won = _entry(record, "match_won", match.match_length, "R-MATCH-1", match)
            else:
                won = _entry(record, "match_unplayed", 0, "R-BYE-1", match)
            entries[match.winner].append(won)
        if record.winner is not None:
            wins[record.winner] += 1
            entries[record.winner].append(_entry(record, "tournament_won", 0, "R-TIE-1"))

    rows: list[RankingRow] = []
    for player, explanation in entries.items():
        earned = attendance[player] + match_points[player]
        revoked = player in revoked_season
        if revoked:
            explanation.append(RankingEntry(kind="season_revoked", points=-earned, rule="R-ATT-2"))
        rows.append(
            RankingRow(
                rank=0,
                player_id=player,
                points=0 if revoked else earned,
                attendance_points=attendance[player],
                match_points=match_points[player],
                tournament_wins=wins[player],
                tournaments_played=played[player],
                season_revoked=revoked,
                explanation=tuple(explanation),
            )
        )
    rows.sort(key=lambda row: (*_order(row), row.player_id))
    ranked: list[RankingRow] = []
    for position, row in enumerate(rows, start=1):
        tied = bool(ranked) and _order(ranked[-1]) == _order(row)
        ranked.append(msgspec.structs.replace(row, rank=ranked[-1].rank if tied else position))
    return ranked


def _order(row: RankingRow) -> tuple[bool, int, int, int]:
    # rule R-TIE-1; a revoked season (R-ATT-2) ranks after everyone else
    return row.season_revoked, -row.points, -row.tournament_wins, row.tournaments_played


def _entry(
    record: TournamentRecord,
    kind: EntryKind,
    points: int,
    rule: str,
    match: WonMatch | None = None,
) -> RankingEntry:
    entry = RankingEntry(
        kind=kind,
        points=points,
        rule=rule,
        tournament_id=record.tournament_id,
        tournament_name=record.name,
    )
    if match is None:
        return entry
    return msgspec.structs.replace(
        entry, match_id=match.match_id, round=match.round, stage=match.stage
    )


def _check_record(record: TournamentRecord) -> None:
    if not record.left_early <= record.attended:
        raise InvalidInputError("left_early", f"{record.name!r}: only a present player can leave")
    if record.winner is not None and record.winner not in record.attended:
        raise InvalidInputError("winner", f"{record.name!r}: the winner did not attend")
    for match in record.won_matches:
        if match.winner not in record.attended:
            raise InvalidInputError("won_matches", f"{record.name!r}: a winner did not attend")
        if match.match_length < 1:
            raise InvalidInputError("won_matches", f"{record.name!r}: match length below 1")
