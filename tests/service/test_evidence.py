"""The evidence use cases through the service (rules C-VIDEO-1, C-DISPUTE-1): a game's recording
registered, deleted once after the game ends, held while a dispute on its match is open."""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.errors import ForbiddenError
from domain.evidence.video import VideoDeleted
from service.bootstrap import Services
from service.clock import MovableClock
from service.matches.matches import MatchCreated
from service.shared.match_play import Caller, MatchTerms
from tests.conftest import processes_of_one_store
from tests.service.conftest import checked_in_tournament

DIRECTOR = Caller(director=True)


def recording(services: Services, name: str = "table1-game1.mp4") -> Path:
    """A recording in the evidence folder (``<data-dir>/evidence`` by default)."""
    path = services.settings.data_dir / "evidence" / name
    path.write_bytes(b"\x00video")
    return path


def a_match(services: Services) -> tuple[MatchCreated, dict[str, Caller]]:
    created = services.matches.create(MatchTerms(player_a="anna", player_b="ben", match_length=5))
    return created, {side: Caller(token=token) for side, token in created.tokens.items()}


def end_game_1(services: Services, created: MatchCreated, callers: dict[str, Caller]) -> None:
    """Side a opens 3-1 and plays; b doubles and a drops: game 1 is over."""
    match_id = created.match.id
    services.matches.roll(match_id, callers["a"], [3, 1])
    services.matches.play(match_id, callers["a"], notation="8/5 6/5")
    services.matches.cube(match_id, callers["b"], "double")
    services.matches.cube(match_id, callers["a"], "drop")


def test_a_double_dropped_ends_the_game_at_the_cube_before_the_double(
    services: Services,
) -> None:
    # rule G-CUBE-1: the taker owns the cube at twice its value; a drop gives the doubler
    # the value before the double
    created, callers = a_match(services)
    match_id = created.match.id
    services.matches.roll(match_id, callers["a"], [3, 1])
    services.matches.play(match_id, callers["a"], notation="8/5 6/5")

    offered = services.matches.cube(match_id, callers["b"], "double")
    assert offered.phase == "cube"
    with pytest.raises(ForbiddenError):
        services.matches.cube(match_id, callers["b"], "drop")  # only the doubled side answers
    dropped = services.matches.cube(match_id, callers["a"], "drop")

    assert (dropped.score_a, dropped.score_b, dropped.game) == (0, 1, 2)
    assert (dropped.cube_value, dropped.cube_owner, dropped.phase) == (1, None, "opening")


def test_a_video_is_deleted_once_and_only_after_its_game_ends(services: Services) -> None:
    # rule C-VIDEO-1
    created, callers = a_match(services)
    path = recording(services)
    video = services.videos.register(created.match.id, 1, path.name, actor="director")
    assert (video.game, video.game_ended_at, video.deleted_at) == (1, None, None)

    end_game_1(services, created, callers)
    [shown] = services.videos.list_videos(created.match.id)
    assert shown.game_ended_at is not None

    assert services.videos.delete_due(video.id) == "VideoDeleted"
    assert not path.exists()
    assert services.videos.delete_due(video.id) is None  # deleted once, recorded once
    deleted = [e for e in services.store.stream(video.id) if isinstance(e, VideoDeleted)]
    assert len(deleted) == 1
    assert services.videos.list_videos(created.match.id)[0].deleted_at is not None


def test_an_open_dispute_holds_the_matchs_videos_until_a_director_decides_it(
    services: Services,
) -> None:
    # rules C-VIDEO-1 (default extension), C-DISPUTE-1
    created, callers = a_match(services)
    path = recording(services)
    video = services.videos.register(created.match.id, 1, path.name, actor="director")
    end_game_1(services, created, callers)

    dispute = services.disputes.open(created.match.id, 3, "the 3-1 was cocked", callers["b"])
    assert (dispute.status, dispute.version_disputed) == ("open", 3)
    assert dispute.opened_by == created.match.actor("b")
    assert services.videos.list_videos(created.match.id)[0].held_by_dispute is True
    assert services.videos.delete_due(video.id) is None
    assert path.exists()

    decided = services.disputes.decide(
        dispute.id, "the roll stands", "the replay shows a clean 3-1", actor="director"
    )
    assert decided.status == "decided"
    assert decided.decision is not None
    assert decided.decision.ruling == "the roll stands"
    assert services.videos.list_videos(created.match.id)[0].held_by_dispute is False
    assert services.videos.delete_due(video.id) == "VideoDeleted"
    assert not path.exists()


def test_a_dispute_is_shown_to_the_players_of_its_match_and_directors_only(
    services: Services,
) -> None:
    # rule C-DISPUTE-1: a player of the match or a director
    created, callers = a_match(services)
    other, other_callers = a_match(services)
    dispute = services.disputes.open(created.match.id, 1, "the clock ran", callers["a"])

    assert services.disputes.get(dispute.id, callers["b"]).claim == "the clock ran"
    assert services.disputes.get(dispute.id, DIRECTOR).id == dispute.id
    with pytest.raises(ForbiddenError):
        services.disputes.get(dispute.id, other_callers["a"])
    with pytest.raises(ForbiddenError):
        services.disputes.open(created.match.id, 1, "not my match", other_callers["b"])
    assert other.match.id != created.match.id


def test_a_file_registered_for_two_games_stays_while_the_other_game_is_still_played(
    services: Services,
) -> None:
    # rule C-VIDEO-1: a recording is deleted after its game ends; one table camera's file
    # registered for the games of two matches at that table stays while either is played
    first, first_callers = a_match(services)
    second, _ = a_match(services)
    path = recording(services, "table1.mp4")
    video = services.videos.register(first.match.id, 1, "table1.mp4", actor="director")
    services.videos.register(second.match.id, 1, path.as_uri(), actor="director")
    end_game_1(services, first, first_callers)

    assert services.videos.delete_due(video.id) is None  # the second match's game goes on

    assert path.read_bytes() == b"\x00video"
    [shown] = services.videos.list_videos(first.match.id)
    assert (shown.deleted_at, shown.refused_at) == (None, None)


def test_the_recording_of_a_match_voided_by_an_unpaired_round_is_deleted(
    services: Services, clock: MovableClock
) -> None:
    # rule C-VIDEO-1: a match voided (its round unpaired) is played no more: its game is over,
    # so its recording is due for deletion, as after a game won
    day = checked_in_tournament(services, clock, 4)
    table = services.rounds.start(day.tournament_id).round.pairings[0]
    assert table.match_id is not None
    path = recording(services)
    video = services.videos.register(table.match_id, 1, path.name, actor="director")
    services.venue.unpair(day.tournament_id, 1, reason="a late arrival")

    runs = services.jobs.run_due(clock.now())

    assert [run.effect for run in runs if run.target == video.id] == ["VideoDeleted"]
    assert not path.exists()
    [shown] = services.videos.list_videos(table.match_id)
    assert shown.game_ended_at is not None
    assert shown.deleted_at is not None


@pytest.mark.postgres
@pytest.mark.xfail(
    strict=True,
    reason="a recording's path is recorded relative to the registering process's evidence "
    "folder; the process running the deletion resolves it against its own",
)
def test_a_process_with_another_evidence_folder_deletes_only_the_recording_registered(
    tmp_path: Path, postgres_schema_url: str, clock: MovableClock
) -> None:
    # rule C-VIDEO-1: the recording registered is the one deleted after its game. Two
    # processes of one PostgreSQL store, each with the evidence folder of its own data
    # directory: the one that runs the jobs must not delete its own file of the same name (a
    # recording not registered yet) and record the other one's recording as deleted while it
    # still exists.
    first, second = processes_of_one_store(tmp_path, postgres_schema_url, clock)
    try:
        created, callers = a_match(first)
        registered_first = recording(first)
        video = first.videos.register(created.match.id, 1, registered_first.name, actor="director")
        written_second = recording(second)  # a camera's file there, not registered yet
        end_game_1(first, created, callers)

        effect = second.videos.delete_due(video.id)

        assert written_second.read_bytes() == b"\x00video"
        assert effect != "VideoDeleted" or not registered_first.exists()
    finally:
        first.close()
        second.close()
