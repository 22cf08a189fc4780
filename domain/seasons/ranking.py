"""The season ranking: points per player over a season's tournaments, each one explained."""

# Rules R-ATT-1, R-ATT-2, R-MATCH-1, R-BYE-1, R-CLASS-1, R-TIE-1, R-OPT-1 (DOMAIN.md section 6).

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Literal
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError, NotFoundError
from domain.seasons.options import DEFAULT_OPTIONS, SeasonOptions
from domain.tournament import DEFAULT_CLASS

ATTENDANCE_POINTS = 7  # rule R-ATT-1: for each tournament a player was present at

EntryKind = Literal[
    "attendance",
    "attendance_revoked",
    "match_won",
    "match_unplayed",
    "tournament_won",
    "result_dropped",
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
    places: tuple[UUID, ...] = ()
    """Places 1..N once the tournament is completed, else empty (the best place, R-OPT-1)."""


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
    best_place: int | None = None
    """The player's best place in a completed tournament (None: none yet; R-OPT-1)."""
    season_revoked: bool = False
    explanation: tuple[RankingEntry, ...]
    """Every entry, tournament by tournament; their points add up to ``points``."""


def compute_ranking(
    records: Sequence[TournamentRecord],
    *,
    revoked_season: frozenset[UUID] = frozenset(),
    attendance_points: int = ATTENDANCE_POINTS,
    ranked_class: str = DEFAULT_CLASS,
    options: SeasonOptions = DEFAULT_OPTIONS,
) -> list[RankingRow]:
    """The season ranking of everyone who attended a tournament of the ranked class.

    Per tournament of ``ranked_class`` (R-CLASS-1; other classes are ignored): attendance
    points (R-ATT-1), taken back for leaving early (R-ATT-2), and the match length of every
    won match that was played (R-MATCH-1), knockout included; byes and unplayed forfeits give 0
    (R-BYE-1). A player in ``revoked_season`` (R-ATT-2, C-EXCL-1) stays listed with 0 points,
    after every other player, and the revocation is the last entry of the explanation.

    With ``options.drop_worst`` N (R-OPT-1) only a player's best N tournament results count:
    each other result is taken back by a ``result_dropped`` entry after that tournament's
    entries (of equal results the earlier ones count). Tournament wins, tournaments played and
    the best place count every tournament attended.

    Order (R-TIE-1, R-OPT-1): more points, more tournament wins, fewer tournaments played (or
    more with ``events_tiebreak="more"``), with ``best_place_tiebreak`` the better best place;
    players equal on all of these share a rank (1, 2, 2, 4); among them the order is by
    player id only.
    """
    if attendance_points < 0:
        raise InvalidInputError("attendance_points", "must not be negative")
    results: defaultdict[UUID, dict[int, _Result]] = defaultdict(dict)
    wins: Counter[UUID] = Counter()
    best_place: dict[UUID, int] = {}
    seen: set[UUID] = set()
    for index, record in enumerate(records):
        if record.tournament_id in seen:
            raise InvalidInputError("records", f"tournament {record.name!r} appears twice")
        seen.add(record.tournament_id)
        if record.class_name != ranked_class:
            continue  # rule R-CLASS-1
        _check_record(record)
        for player in sorted(record.attended):
            result = results[player].setdefault(index, _Result())
            result.attendance += attendance_points
            result.entries.append(_entry(record, "attendance", attendance_points, "R-ATT-1"))
            if player in record.left_early:
                result.attendance -= attendance_points
                result.entries.append(
                    _entry(record, "attendance_revoked", -attendance_points, "R-ATT-2")
                )
        for match in record.won_matches:
            result = results[match.winner][index]
            if match.played:
                result.match_points += match.match_length
                won = _entry(record, "match_won", match.match_length, "R-MATCH-1", match)
            else:
                won = _entry(record, "match_unplayed", 0, "R-BYE-1", match)
            result.entries.append(won)
        if record.winner is not None:
            wins[record.winner] += 1
            results[record.winner][index].entries.append(
                _entry(record, "tournament_won", 0, "R-TIE-1")
            )
        for place, player in enumerate(record.places, start=1):
            best_place[player] = min(place, best_place.get(player, place))

    rows = [
        _row(
            player,
            by_tournament,
            records,
            options,
            revoked=player in revoked_season,
            wins=wins[player],
            best_place=best_place.get(player),
        )
        for player, by_tournament in results.items()
    ]
    rows.sort(key=lambda row: (*_order(row, options), row.player_id))
    ranked: list[RankingRow] = []
    for position, row in enumerate(rows, start=1):
        tied = bool(ranked) and _order(ranked[-1], options) == _order(row, options)
        ranked.append(msgspec.structs.replace(row, rank=ranked[-1].rank if tied else position))
    return ranked


class _Result(msgspec.Struct, kw_only=True):
    """One player's result of one tournament, while it is counted up."""

    attendance: int = 0
    match_points: int = 0
    entries: list[RankingEntry] = msgspec.field(default_factory=list)

    @property
    def points(self) -> int:
        return self.attendance + self.match_points


def _row(
    player: UUID,
    by_tournament: dict[int, _Result],
    records: Sequence[TournamentRecord],
    options: SeasonOptions,
    *,
    revoked: bool,
    wins: int,
    best_place: int | None,
) -> RankingRow:
    """One player's row: the counted results (R-OPT-1), the entries tournament by tournament."""
    best_first = sorted(by_tournament, key=lambda index: (-by_tournament[index].points, index))
    counted = set(best_first[: options.drop_worst])  # None: every result
    explanation: list[RankingEntry] = []
    attendance = match_points = 0
    for index, result in sorted(by_tournament.items()):
        explanation.extend(result.entries)
        if index in counted:
            attendance += result.attendance
            match_points += result.match_points
        else:
            explanation.append(_entry(records[index], "result_dropped", -result.points, "R-OPT-1"))
    earned = attendance + match_points
    if revoked:
        explanation.append(RankingEntry(kind="season_revoked", points=-earned, rule="R-ATT-2"))
    return RankingRow(
        rank=0,
        player_id=player,
        points=0 if revoked else earned,
        attendance_points=attendance,
        match_points=match_points,
        tournament_wins=wins,
        tournaments_played=len(by_tournament),
        best_place=best_place,
        season_revoked=revoked,
        explanation=tuple(explanation),
    )


def _order(row: RankingRow, options: SeasonOptions) -> tuple[bool, int, int, int, int]:
    # rule R-TIE-1 with the season's options (R-OPT-1); a revoked season (R-ATT-2) ranks last
    events = (
        -row.tournaments_played if options.events_tiebreak == "more" else row.tournaments_played
    )
    place = 0
    if options.best_place_tiebreak:
        place = row.best_place if row.best_place is not None else _NO_PLACE
    return row.season_revoked, -row.points, -row.tournament_wins, events, place


_NO_PLACE = 1_000_000
"""Ranks after every place: the player has no place of a completed tournament yet."""


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
    if not set(record.places) <= record.attended:
        raise InvalidInputError("places", f"{record.name!r}: a placed player did not attend")
