"""One fold of the results: on randomised tournament days the aggregate's standings and places,
the standings view's rows and the ranking view's per-tournament record all agree (rules
T-FMT-2..8, T-FMT-6 corrections, T-FMT-5 withdrawals, C-EXCL-1 exclusions, C-BREAK-2 penalties,
R-ATT-1..2, R-BYE-1)."""

from __future__ import annotations

import tempfile
from collections import Counter
from pathlib import Path
from typing import Any, Protocol, TypeVar
from uuid import UUID

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.calendar import DeadlinePolicy
from domain.match import PenaltyAwarded, Side
from domain.people.tokens import token_hash
from domain.tournament import (
    AllRoundsPairedError,
    Applicant,
    MissedRounds,
    PairedTable,
    Tournament,
    TournamentPlan,
    admit_late_entry,
    check_in,
    exclude,
    is_complete,
    pair_next_round,
    places,
    record_result,
    register,
    schedule_tournament,
    start,
    swiss_standings,
    withdraw,
)
from projections.ranking import RankingProjection, tournament_record
from projections.runner import Views
from projections.standings import StandingsProjection, list_standings
from tests.projections.test_ranking import BERLIN, DIRECTOR, IDS, SCHEDULED_AT, Club, ClubSource

T = TypeVar("T")


class Draw(Protocol):
    """Each random choice of a day, drawn by hypothesis or taken from a script."""

    def __call__(self, strategy: st.SearchStrategy[T], label: str) -> T: ...


class Played:
    """One tournament day driven through the domain's commands, every event kept in order."""

    def __init__(self, club: Club, draw: Draw) -> None:
        self.club = club
        self.draw = draw
        self.state: Tournament | None = None
        self.penalties: Counter[UUID] = Counter()
        self.left_early: set[UUID] = set()
        self.people = 0

    @property
    def now(self) -> Any:
        assert self.state is not None
        return self.state.starts_at

    def apply(self, events: list[Any]) -> None:
        from domain.events import fold
        from domain.tournament import evolve

        self.state = fold(evolve, self.state, events)
        self.club.events.extend(events)

    def tournament(self) -> Tournament:
        assert self.state is not None
        return self.state

    def register(self) -> UUID:
        self.people += 1
        registration_id = next(IDS)
        self.apply(
            register(
                self.tournament(),
                registration_id=registration_id,
                player_id=UUID(int=2_000_000 + self.people),
                applicant=Applicant(
                    first_name=f"Vorname{self.people}",
                    last_name="Nachname",
                    email=f"spieler{self.people}@example.org",
                    age=30,
                ),
                token_hash=token_hash(f"token-{self.people}"),
                now=SCHEDULED_AT if self.tournament().started_at is None else self.now,
                actor=DIRECTOR,
            )
        )
        return registration_id

    def check_in(self, registration_id: UUID) -> None:
        self.apply(
            check_in(
                self.tournament(),
                registration_id,
                id_document_seen=True,
                buy_in_paid_cents=10000,
                now=self.tournament().check_in_opens,
                actor=DIRECTOR,
            )
        )

    def open(self, players: int, swiss_rounds: int, match_length: int) -> None:
        plan = TournamentPlan(
            name=f"Turnier {len(self.club.days)}",
            date="2026-04-18",
            venue="Amberg",
            swiss_rounds=swiss_rounds,
            match_length=match_length,
        )
        self.apply(
            schedule_tournament(
                next(IDS),
                plan,
                season=self.club.season,
                policy=DeadlinePolicy(),
                zone=BERLIN,
                now=SCHEDULED_AT,
                actor=DIRECTOR,
            )
        )
        for registration_id in [self.register() for _ in range(players)]:
            self.check_in(registration_id)
        lot_seed = self.draw(st.integers(0, 10_000), label="lot seed")
        self.apply(start(self.tournament(), lot_seed=lot_seed, now=self.now, actor=DIRECTOR))

    def pair(self) -> bool:
        try:
            self.apply(
                pair_next_round(
                    self.tournament(),
                    seed=self.draw(st.integers(0, 1000), label="round seed"),
                    new_match_id=lambda: next(IDS),
                    now=self.now,
                    actor=DIRECTOR,
                )
            )
        except AllRoundsPairedError:
            return False
        return True

    def open_tables(self) -> list[PairedTable]:
        state = self.tournament()
        return state.open_tables(state.rounds[-1])

    def decide(self, table: PairedTable, *, corrects: UUID | None = None) -> None:
        assert table.match_id is not None
        assert table.player_b is not None
        a_wins = self.draw(st.booleans(), label="a wins")
        played = self.draw(st.integers(0, 9), label="played") > 0
        length = table.match_length
        loser = self.draw(st.integers(0, length - 1), label="loser's points") if played else 0
        won = length if played else 0
        self.apply(
            record_result(
                self.tournament(),
                result_id=next(IDS),
                match_id=table.match_id,
                winner=table.player_a if a_wins else table.player_b,
                points_a=won if a_wins else loser,
                points_b=loser if a_wins else won,
                source="director",
                played=played,
                corrects=corrects,
                reason="corrected" if corrects else "",
                now=self.now,
                actor=DIRECTOR,
            )
        )

    def penalise(self, table: PairedTable) -> None:
        """rule C-BREAK-2: the match's own event, as the match aggregate records it."""
        assert table.match_id is not None
        side: Side = self.draw(st.sampled_from(["a", "b"]), label="penalised side")
        points = self.draw(st.integers(1, 2), label="penalty points")
        self.club.events.append(
            PenaltyAwarded(
                originator_id=table.match_id,
                originator_version=1,
                timestamp=self.now,
                actor=DIRECTOR,
                penalty_id=next(IDS),
                side=side,
                points=points,
                reason="late back from the break",
            )
        )
        player = table.player_a if side == "a" else table.player_b
        assert player is not None
        self.penalties[player] += points

    def leave(self) -> None:
        """A random active player withdraws (early or not) or is excluded."""
        state = self.tournament()
        active = state.active_players()
        if len(active) <= 2:
            return
        player = self.draw(st.sampled_from(active), label="leaving")
        how = self.draw(st.sampled_from(["early", "stays", "excluded"]), label="how")
        if how == "excluded":
            events = exclude(
                state,
                player_id=player,
                reason="conduct",
                unfinished={},
                new_result_id=lambda: next(IDS),
                now=self.now,
                actor=DIRECTOR,
            )
        else:
            events = withdraw(
                state,
                player_id=player,
                reason="ill",
                left_early=how == "early",
                unfinished={},
                new_result_id=lambda: next(IDS),
                now=self.now,
                actor=DIRECTOR,
            )
        if how != "stays":
            self.left_early.add(player)
        self.apply(events)

    def late_entry(self) -> None:
        missed: MissedRounds = self.draw(st.sampled_from(["losses", "byes"]), label="missed")
        registration_id = self.register()
        self.apply(
            admit_late_entry(
                self.tournament(),
                registration_id=registration_id,
                missed=missed,
                now=self.now,
                actor=DIRECTOR,
            )
        )

    def play_round(self) -> None:
        """Each open table decided, perhaps a penalty, a withdrawal, a correction on the way."""
        state = self.tournament()
        if state.completed_at is None and self.draw(st.integers(0, 5), label="leave") == 0:
            self.leave()
        for table in self.open_tables():
            if self.draw(st.integers(0, 4), label="penalty") == 0:
                self.penalise(table)
            self.decide(table)
        decided = [
            t for t in self.tournament().rounds[-1].tables if t.match_id and t.player_b is not None
        ]
        if decided and self.draw(st.integers(0, 2), label="correct") == 0:
            table = decided[self.draw(st.integers(0, len(decided) - 1), label="corrected table")]
            assert table.match_id is not None
            result = self.tournament().result_of(table.match_id)
            assert result is not None
            self.decide(table, corrects=result.id)


def the_three_agree(day: Played, views: Views) -> None:
    state = day.tournament()
    views.catch_up()
    with views.reading() as db:
        rows = list_standings(db, str(state.id))
        record = tournament_record(db, str(state.id))
    # the aggregate's standings and the standings view: every tiebreak value, in rank order
    columns = ["rank", "player_id", "wins", "points", "buchholz", "head_to_head", "lot"]
    columns += ["matches", "byes"]
    expected = [
        tuple(
            str(value) if name == "player_id" else value
            for name, value in zip(columns, (getattr(s, name) for name in columns), strict=True)
        )
        for s in swiss_standings(state)
    ]
    assert [tuple(row[name] for name in columns) for row in rows] == expected
    left = set(state.field) - set(state.active_players())
    assert {r["player_id"] for r in rows if r["withdrawn"]} == {str(p) for p in left}
    assert {r["player_id"]: r["penalty_points"] for r in rows if r["penalty_points"]} == {
        str(player): points for player, points in day.penalties.items()
    }
    # the aggregate and the ranking view's record of the tournament: attendance, each decided
    # table seen from its winner, and place 1 once the tournament is completed
    assert record is not None
    assert record.attended == frozenset(state.field)
    assert record.left_early == frozenset(day.left_early)
    won: list[tuple[int, str, UUID | None, UUID, bool]] = []
    for paired in state.rounds:
        for table in paired.tables:
            result = state.result_of(table.match_id) if table.match_id else None
            if table.player_b is None:  # rule R-BYE-1: a bye, unplayed
                won.append((paired.number, table.stage, None, table.player_a, False))
            elif result is not None:
                played = result.played
                won.append((paired.number, table.stage, table.match_id, result.winner, played))
    assert [(m.round, m.stage, m.match_id, m.winner, m.played) for m in record.won_matches] == won
    completed = state.completed_at is not None
    assert completed == is_complete(state)
    assert record.winner == (places(state)[0] if completed else None)
    if completed:
        assert sorted(places(state)) == sorted(state.field)


def play_day(
    draw: Draw, players: int, swiss_rounds: int, match_length: int, late_entries: bool = True
) -> None:
    """A whole day, the three folds compared after every pairing and every round."""
    club = Club()
    day = Played(club, draw)
    with tempfile.TemporaryDirectory() as folder:
        views = Views(
            Path(folder) / "views.sqlite3",
            ClubSource(club),
            [StandingsProjection(), RankingProjection()],
        )
        try:
            day.open(players, swiss_rounds, match_length)
            paired = day.pair()
            while paired:
                the_three_agree(day, views)
                day.play_round()
                the_three_agree(day, views)
                state = day.tournament()
                if state.completed_at is not None:
                    break
                swiss = sum(1 for r in state.rounds if r.stage == "swiss")
                if swiss < state.swiss_rounds and draw(st.integers(0, 3), label="late") == 0:
                    day.late_entry()
                paired = day.pair()
            the_three_agree(day, views)
        finally:
            views.close()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    players=st.integers(3, 9),
    swiss_rounds=st.integers(1, 3),
    match_length=st.sampled_from([1, 3, 5]),
    data=st.data(),
)
def test_the_aggregate_and_both_views_fold_the_results_alike(
    players: int, swiss_rounds: int, match_length: int, data: st.DataObject
) -> None:
    play_day(data.draw, players, swiss_rounds, match_length)


def test_a_late_entrys_byes_decide_the_season_winner_as_they_decide_place_1() -> None:
    """Found by the property above (when the ranking view left late entries out): three players,
    two leave early, a late entry whose missed round is a bye tops the field without a knockout;
    the season ranking's winner is place 1, as the aggregate decides it (rules T-FMT-4, R-TIE-1)."""
    script: list[object] = [
        0,  # lot seed
        0,  # round 1 seed
        0,  # someone leaves
        UUID(int=2_000_002),
        "early",
        0,  # a correction
        0,  # of table 1
        False,  # player b wins
        0,  # unplayed
        0,  # a late entry
        "byes",
        0,  # round 2 seed
        0,  # someone leaves
        UUID(int=2_000_003),
        "early",
        1,  # no correction
    ]

    def scripted(strategy: st.SearchStrategy[T], label: str) -> T:
        return script.pop(0)  # type: ignore[return-value]

    play_day(scripted, players=3, swiss_rounds=2, match_length=1)
    assert not script
