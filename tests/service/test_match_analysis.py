"""The match analysis use cases (rules A-ANALYSIS-1..4): the job's run records one result per
due run, whichever process gets there first; a director's request makes one more due."""

from __future__ import annotations

import random
from pathlib import Path
from uuid import UUID

import msgspec
import pytest

from domain.backgammon.cache import cached_format_play
from domain.match_analysis import (
    GnubgStatistics,
    MatchAnalysed,
    MatchAnalysisRequested,
    PlayerFigures,
    analysis_id,
)
from service.analysis.analysis import AnalysisService
from service.analysis.gnubg import Gnubg
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.settings import Settings
from service.shared.commands import CommandRunner
from service.shared.match_play import Caller, MatchPlay, MatchTerms
from tests.conftest import processes_of_one_store
from tests.service.conftest import checked_in_tournament
from tests.service.test_conduct import won_through_the_service

FIGURES = PlayerFigures(
    unforced_moves=10,
    cube_decisions=2,
    error_total_emg=1.2,
    error_rate_memg=100.0,
    chequer_error_rate_memg=90.0,
    cube_error_rate_memg=150.0,
)
STATISTICS = GnubgStatistics(engine="GNU Backgammon 1.07.001", a=FIGURES, b=FIGURES)


def played_match(services: Services) -> UUID:
    """A 1-point match with server dice and random legal plays, played to its end."""
    created = services.matches.create(
        MatchTerms(player_a="Anna", player_b="Ben", match_length=1, dice="server")
    )
    callers = {side: Caller(token=token) for side, token in created.tokens.items()}
    rng = random.Random(5)
    state = created.match
    while not state.is_over:
        side = state.turn or "a"
        if state.phase == "move":
            choice = cached_format_play(rng.choice(state.plays()))
            state = services.matches.play(state.id, callers[side], notation=choice)
        else:
            state = services.matches.roll(state.id, callers[side], None)
    return state.id


class SecondProcessFirst:
    """A gnubg whose run takes so long that ``other`` (another process's run of the same job)
    records its answer first."""

    program = Path("/usr/games/gnubg")

    def __init__(self, match_id: UUID | None = None, other: AnalysisService | None = None) -> None:
        self.match_id = match_id
        self.other = other

    def analyse(self, mat: str) -> GnubgStatistics | str:
        if self.other is not None and self.match_id is not None:
            other, self.other = self.other, None
            assert other.analyse_due(self.match_id) is not None
        return STATISTICS


def analyses_with(services: Services, clock: MovableClock, gnubg: object) -> AnalysisService:
    commands = CommandRunner(services.store, clock)
    play = MatchPlay(services.store, commands, b"")
    return AnalysisService(services.store, play, commands, gnubg, services.zone)  # type: ignore[arg-type]


def test_a_due_analysis_is_recorded_once_when_two_runs_meet(
    services: Services, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-1: exactly once, whichever run records first
    match_id = played_match(services)
    other = analyses_with(services, clock, SecondProcessFirst())
    first = analyses_with(services, clock, SecondProcessFirst(match_id, other))

    assert first.analyse_due(match_id) is None  # the other run recorded its answer first
    assert first.analyse_due(match_id) is None  # and nothing is due any more

    stream = services.store.stream(analysis_id(match_id))
    assert [type(event) for event in stream] == [MatchAnalysed]
    assert first.analysis(match_id).status == "done"


def test_a_director_request_makes_one_more_run_due(services: Services, clock: MovableClock) -> None:
    match_id = played_match(services)
    analyses = analyses_with(services, clock, SecondProcessFirst())
    assert analyses.analysis(match_id).status == "pending"
    assert analyses.request(match_id, actor="director").status == "pending"
    assert services.store.stream(analysis_id(match_id)) == []  # due anyway: nothing recorded

    assert analyses.analyse_due(match_id) == "MatchAnalysed: error rates 100.0 / 100.0 mEMG"
    assert analyses.request(match_id, actor="director").status == "pending"
    assert analyses.request(match_id, actor="director").status == "pending"
    assert analyses.analyse_due(match_id) is not None
    assert analyses.analyse_due(match_id) is None

    stream = services.store.stream(analysis_id(match_id))
    assert [type(event) for event in stream] == [
        MatchAnalysed,
        MatchAnalysisRequested,
        MatchAnalysed,
    ]
    done = analyses.analysis(match_id)
    assert done.figures == STATISTICS
    assert done.names == ("Anna", "Ben")


def test_an_analysis_changes_no_result_standing_ranking_or_rating(
    services: Services, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-4: information only; the tournament's matches played on the phones
    season = services.seasons.create_season(
        name="Saison 2026", starts_on="2026-01-01", ends_on="2026-12-31", periods=[]
    )
    day = checked_in_tournament(services, clock, 4, match_length=3)
    tables = services.rounds.start(day.tournament_id).round.pairings
    match_ids = [table.match_id for table in tables if table.match_id is not None]
    for match_id in match_ids:
        won_through_the_service(services, match_id)

    def what_counts() -> tuple[object, ...]:
        services.views.catch_up()
        return (
            services.rounds.list_standings(day.tournament_id),
            services.rounds.list_matches(day.tournament_id),
            services.seasons.get_ranking(season.id),
            services.ratings.list_ratings(),
            [services.store.stream(match_id) for match_id in match_ids],
            services.store.stream(day.tournament_id),
        )

    before = what_counts()
    assert all(before)  # ranked and rated already: a change would show
    analyses = analyses_with(services, clock, SecondProcessFirst())
    for match_id in match_ids:
        assert analyses.analyse_due(match_id) == "MatchAnalysed: error rates 100.0 / 100.0 mEMG"
        assert analyses.analysis(match_id).status == "done"

    assert what_counts() == before


@pytest.mark.gnubg
def test_the_job_runs_gnubg_on_the_ended_match(
    gnubg: str, services: Services, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-2, A-ANALYSIS-3: at 0 ply, figures non-negative, PR-style half the rate
    match_id = played_match(services)
    assert services.analyses.unavailable_reason() is None
    [run] = services.jobs.run_slow(clock.now())
    assert run.target == match_id
    figures = services.analyses.analysis(match_id).figures
    assert figures is not None
    for side in (figures.a, figures.b):
        assert side.unforced_moves + side.cube_decisions > 0
        assert side.error_total_emg >= 0
        if side.error_rate_memg is not None:
            assert side.pr == side.error_rate_memg / 2


def test_without_gnubg_the_job_waits_and_records_nothing(
    settings: Settings, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-1: unavailable, nothing recorded; a director's request is refused
    services = bootstrap(msgspec.structs.replace(settings, gnubg="/nowhere/gnubg"), clock)
    try:
        match_id = played_match(services)
        assert services.analyses.unavailable_reason() == "GNU Backgammon is not installed"
        assert services.analyses.analyse_due(match_id) is None
        assert services.jobs.run_slow(clock.now()) == []
        assert services.analyses.analysis(match_id).status == "unavailable"
        assert services.store.stream(analysis_id(match_id)) == []
    finally:
        services.close()


def test_a_missing_program_is_an_answer_in_words(tmp_path: Path) -> None:
    assert Gnubg(str(tmp_path / "gnubg"), 10).analyse("") == "GNU Backgammon is not installed"


def test_a_program_that_cannot_run_is_an_answer_in_words(tmp_path: Path) -> None:
    # rule A-ANALYSIS-1: failures are recorded, the job never raises at every poll
    not_a_program = tmp_path / "gnubg"
    not_a_program.write_bytes(b"\x00\x01 not an executable format")
    not_a_program.chmod(0o755)
    answer = Gnubg(str(not_a_program), 10).analyse(" 1 point match\n")
    assert answer == "GNU Backgammon could not be run: Exec format error"


@pytest.mark.postgres
def test_two_processes_on_one_postgresql_store_record_one_analysis(
    tmp_path: Path, postgres_schema_url: str, clock: MovableClock
) -> None:
    # rule A-ANALYSIS-1: exactly once, also where two processes run the job at the same time
    first, second = processes_of_one_store(tmp_path, postgres_schema_url, clock)
    try:
        match_id = played_match(first)
        other = analyses_with(second, clock, SecondProcessFirst())
        late = analyses_with(first, clock, SecondProcessFirst(match_id, other))

        assert late.analyse_due(match_id) is None
        assert [type(e) for e in first.store.stream(analysis_id(match_id))] == [MatchAnalysed]
        assert second.analyses.analysis(match_id).status == "done"
    finally:
        first.close()
        second.close()
