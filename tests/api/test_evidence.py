"""Video evidence deleted after its game (C-VIDEO-1), held by an open dispute until it is
decided; disputes replayed from the history (C-DISPUTE-1); run-out clocks flagged (G-CLOCK-2)."""

from __future__ import annotations

import os
import sqlite3
import uuid
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from api.app import create_app
from domain.evidence import video
from service.clock import MovableClock
from service.settings import Settings
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from tests.api.test_matches import bearer, create, post
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def run_jobs(client: Client) -> list[Any]:
    services = client.app.state.services
    runs: list[Any] = services.jobs.run_due(services.clock.now())
    return runs


def events_of(client: Client, kind: str) -> list[Any]:
    services = client.app.state.services
    return [
        services.store.decode(n)
        for n in services.store.notifications(0, 100_000)
        if n.topic.endswith(":" + kind)
    ]


def evidence_folder(settings: Settings) -> Path:
    """The evidence folder by default (``<data-dir>/evidence``, made at the start)."""
    folder = settings.data_dir / "evidence"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def recording(settings: Settings, name: str = "table1-game1.mp4") -> Path:
    """A recording in the evidence folder."""
    path = evidence_folder(settings) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00video")
    return path


def register(client: Client, match_id: str, game: int, uri: str) -> dict[str, Any]:
    response = client.post(
        f"/api/v1/matches/{match_id}/videos", json={"game": game, "uri": uri}, headers=DIRECTOR
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def end_game_1(client: Client, created: dict[str, Any]) -> None:
    """Side a opens with 3-1 and plays; b doubles and a drops: game 1 is over."""
    assert post(client, created, "rolls", {"dice": [3, 1]}, "a").status_code == 200
    assert post(client, created, "plays", {"play": "8/5 6/5"}, "a").status_code == 200
    assert post(client, created, "cube", {"action": "double"}, "b").status_code == 200
    assert post(client, created, "cube", {"action": "drop"}, "a").json()["phase"] == "opening"


def videos(client: Client, match_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/matches/{match_id}/videos", headers=DIRECTOR)
    assert response.status_code == 200, response.text
    body: list[dict[str, Any]] = response.json()
    return body


def test_a_games_video_is_deleted_once_after_the_game_ends(
    client: Client, settings: Settings
) -> None:
    # rule C-VIDEO-1
    created = create(client)
    path = recording(settings)
    video = register(client, created["id"], 1, "table1-game1.mp4")
    assert video["deleted_at"] is None
    assert run_jobs(client) == []  # the game is being played: the recording stays
    assert path.exists()

    end_game_1(client, created)
    runs = run_jobs(client)

    assert [run.effect for run in runs] == ["VideoDeleted"]
    assert not path.exists()
    assert run_jobs(client) == []
    assert len(events_of(client, "VideoDeleted")) == 1
    assert events_of(client, "VideoDeleted")[0].actor == "scheduler"
    assert videos(client, created["id"])[0]["deleted_at"] is not None


def test_an_open_dispute_holds_the_video_until_it_is_decided(
    client: Client, settings: Settings
) -> None:
    # rules C-VIDEO-1 (default extension), C-DISPUTE-1
    created = create(client)
    path = recording(settings)
    register(client, created["id"], 1, f"file://{path}")
    end_game_1(client, created)
    opened = client.post(
        "/api/v1/disputes",
        json={"match_id": created["id"], "version": 3, "claim": "the 3-1 was cocked"},
        headers=bearer(created, "b"),
    )
    assert opened.status_code == 201, opened.text
    assert opened.json()["status"] == "open"

    assert run_jobs(client) == []
    assert path.exists()
    assert videos(client, created["id"])[0]["held_by_dispute"] is True
    held = [
        j
        for j in client.get("/api/v1/jobs", headers=DIRECTOR).json()
        if j["kind"] == "delete_video"
    ]
    assert held[0]["status"] == "held"

    decided = client.post(
        f"/api/v1/disputes/{opened.json()['id']}/decision",
        json={"ruling": "the roll stands", "reason": "the replay shows a clean 3-1"},
        headers=DIRECTOR,
    )
    assert decided.status_code == 200, decided.text
    assert decided.json()["status"] == "decided"

    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
    assert not path.exists()


def test_a_video_that_cannot_be_deleted_is_retried_and_shown_to_the_director(
    client: Client, settings: Settings, clock: MovableClock
) -> None:
    created = create(client)
    stuck = recording(settings, "stuck.mp4")
    register(client, created["id"], 1, "stuck.mp4")
    end_game_1(client, created)
    evidence = settings.data_dir / "evidence"
    unmounted = evidence.rename(settings.data_dir / "unmounted")  # a disk that is not there

    assert run_jobs(client)[0].effect.startswith("VideoDeletionFailed: the evidence folder")
    shown = videos(client, created["id"])[0]
    assert shown["deleted_at"] is None
    assert shown["failure"]["failures"] == 1
    assert shown["refused_at"] is None  # a failure passes: it is retried
    assert run_jobs(client) == []  # retried after a pause, not at every poll

    unmounted.rename(evidence)
    clock.advance(61)
    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
    assert videos(client, created["id"])[0]["deleted_at"] is not None
    assert not stuck.exists()


# --- the evidence folder: the only files the job deletes (rule C-VIDEO-1) --------------------

STORE_FILES = ("secret.key", "events.sqlite3", "views.sqlite3", "idempotency.sqlite")
"""The service's own files in the data directory (the idempotency store beside SQLite)."""


def refused(client: Client, match_id: str, uri: str) -> dict[str, Any]:
    """Registering ``uri`` is a 422 naming the field ``uri``, and nothing is registered."""
    before = videos(client, match_id)
    response = client.post(
        f"/api/v1/matches/{match_id}/videos", json={"game": 1, "uri": uri}, headers=DIRECTOR
    )
    assert response.status_code == 422, response.text
    problem: dict[str, Any] = response.json()
    assert [error["field"] for error in problem["errors"]] == ["uri"]
    assert "evidence folder" in problem["detail"]
    assert videos(client, match_id) == before
    return problem


def store_files_intact(settings: Settings) -> None:
    for name in STORE_FILES:
        assert (settings.data_dir / name).is_file(), f"{name} was deleted"
    assert (settings.data_dir / "secret.key").read_text().strip()


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the data directory, with a file the job must never delete."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "victim.mp4").write_bytes(b"not evidence")
    return folder


@pytest.mark.parametrize("name", STORE_FILES)
@pytest.mark.parametrize("form", ["absolute path", "file:// URI", "../ out of the folder"])
def test_no_way_of_naming_a_store_file_registers_it_as_a_recording(
    client: Client, settings: Settings, name: str, form: str
) -> None:
    # rule C-VIDEO-1: the service's own files lie outside the evidence folder
    store_file = (settings.data_dir / name).resolve()
    assert store_file.is_file()
    uri = {
        "absolute path": str(store_file),
        "file:// URI": store_file.as_uri(),
        "../ out of the folder": f"../{name}",
    }[form]
    created = create(client)

    refused(client, created["id"], uri)

    end_game_1(client, created)
    assert run_jobs(client) == []
    store_files_intact(settings)


def test_a_store_files_bare_name_names_a_file_in_the_evidence_folder_not_the_store_file(
    client: Client, settings: Settings
) -> None:
    # rule C-VIDEO-1: a uri is relative to the evidence folder, no longer to the data directory
    created = create(client)
    for game, name in enumerate(STORE_FILES, start=1):
        recording(settings, name)
        register(client, created["id"], game, name)
    end_game_1(client, created)

    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]  # game 1's recording
    store_files_intact(settings)
    assert not (settings.data_dir / "evidence" / STORE_FILES[0]).exists()


@pytest.mark.parametrize(
    "uri",
    [
        "evidence/../../secret.key",
        "games/../../events.sqlite3",
        "..",
        ".",
        "",
    ],
    ids=["evidence/../../", "a subfolder's ../../", "the data directory", "the folder", "empty"],
)
def test_a_path_that_climbs_out_of_the_evidence_folder_is_refused(
    client: Client, settings: Settings, uri: str
) -> None:
    created = create(client)
    response = client.post(
        f"/api/v1/matches/{created['id']}/videos", json={"game": 1, "uri": uri}, headers=DIRECTOR
    )
    assert response.status_code == 422, response.text
    assert [error["field"] for error in response.json()["errors"]] == ["uri"]
    assert videos(client, created["id"]) == []
    store_files_intact(settings)


@pytest.mark.parametrize(
    "uri",
    [
        "https://cams.example/table1.mp4",
        "smb://nas/evidence/table1.mp4",
        "ftp://nas/table1.mp4",
        "FILE://nas.example/evidence/table1.mp4",
        "file:evidence/table1.mp4",
    ],
)
def test_uris_of_other_schemes_or_hosts_are_refused(client: Client, uri: str) -> None:
    # rule C-VIDEO-1: the job can delete only a local file, so only those are recordings
    created = create(client)
    refused(client, created["id"], uri)


def test_a_file_uri_with_a_query_or_fragment_is_refused_not_cut_short(
    client: Client, settings: Settings
) -> None:
    # rule C-VIDEO-1: "clip#1.mp4" registered as "clip" would have the job delete another file
    clip = recording(settings, "clip")
    folder = evidence_folder(settings).resolve().as_uri()
    created = create(client)
    for uri in [f"{folder}/clip#1.mp4", f"{folder}/clip?take=2", f"{folder}/clip#"]:
        problem = refused(client, created["id"], uri)
        assert "%23" in problem["errors"][0]["message"]
        assert "%3F" in problem["errors"][0]["message"]
    end_game_1(client, created)
    assert run_jobs(client) == []
    assert clip.exists()


def test_a_percent_encoded_hash_in_a_file_uri_names_the_file_with_it(
    client: Client, settings: Settings
) -> None:
    clip, other = recording(settings, "clip#1.mp4"), recording(settings, "clip")
    created = create(client)
    register(
        client, created["id"], 1, f"{evidence_folder(settings).resolve().as_uri()}/clip%231.mp4"
    )
    end_game_1(client, created)

    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
    assert not clip.exists()
    assert other.exists()


@pytest.mark.parametrize("name", ["game1:2.mp4", "table1/12:30.mp4", "data:video.mp4"])
def test_a_file_name_with_a_colon_is_a_path_in_the_folder_not_a_uri(
    client: Client, settings: Settings, name: str
) -> None:
    # only file: or a scheme followed by // makes a URI; the name still stays in the folder
    path = recording(settings, name)
    created = create(client)
    assert register(client, created["id"], 1, name)["uri"] == name
    end_game_1(client, created)

    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
    assert not path.exists()
    store_files_intact(settings)


def test_a_name_with_a_colon_that_climbs_out_of_the_folder_is_refused(
    client: Client, settings: Settings
) -> None:
    created = create(client)
    refused(client, created["id"], "game1:2/../../../secret.key")
    refused(client, created["id"], "c:/../../secret.key")


def test_a_folder_or_a_non_regular_file_is_refused_at_registration(
    client: Client, settings: Settings
) -> None:
    # rule C-VIDEO-1: the job deletes files; a folder would fail every hour for ever
    evidence = evidence_folder(settings)
    (evidence / "table1").mkdir()
    os.mkfifo(evidence / "pipe.mp4")
    recording(settings, "game1.mp4")
    created = create(client)

    assert "is a folder" in refused(client, created["id"], "table1")["errors"][0]["message"]
    assert (
        "is a folder"
        in refused(client, created["id"], f"{evidence.resolve()}/table1/")["errors"][0]["message"]
    )
    problem = refused(client, created["id"], "pipe.mp4")
    assert "not a regular file" in problem["errors"][0]["message"]
    refused(client, created["id"], "game1.mp4/inside.mp4")  # a file is no folder
    assert register(client, created["id"], 1, "not-yet-written.mp4")["uri"] == (
        "not-yet-written.mp4"
    )  # the camera may write it after the registration


@pytest.mark.parametrize("swap", ["a folder", "a pipe", "a file for its folder"])
def test_a_file_swapped_for_a_folder_or_a_pipe_is_refused_once_not_retried(
    client: Client, settings: Settings, swap: str
) -> None:
    # rule C-VIDEO-1: a deletion that can never succeed is refused for good, not retried hourly
    created = create(client)
    recorded = recording(settings, "table1/game1.mp4")
    register(client, created["id"], 1, "table1/game1.mp4")
    recorded.unlink()
    if swap == "a folder":
        (recorded / "part").mkdir(parents=True)
    elif swap == "a pipe":
        os.mkfifo(recorded)
    else:
        recorded.parent.rmdir()
        recorded.parent.write_bytes(b"\x00video")
    end_game_1(client, created)

    (run,) = run_jobs(client)

    assert run.effect.startswith("VideoDeletionRefused: table1")
    assert {"a folder": "is a folder", "a pipe": "not a regular file"}.get(
        swap, "table1 in the evidence folder is not a folder"
    ) in run.effect
    assert events_of(client, "VideoDeletionFailed") == []
    assert len(events_of(client, "VideoDeletionRefused")) == 1
    assert videos(client, created["id"])[0]["refused_reason"] == run.effect.removeprefix(
        "VideoDeletionRefused: "
    )
    assert run_jobs(client) == []
    assert recorded.exists() or recorded.parent.is_file()


def test_a_file_uri_or_an_absolute_path_outside_the_folder_is_refused(
    client: Client, outside: Path
) -> None:
    created = create(client)
    for uri in [(outside / "victim.mp4").as_uri(), str(outside / "victim.mp4"), "/etc/passwd"]:
        refused(client, created["id"], uri)
    assert (outside / "victim.mp4").exists()


def test_a_file_uri_or_an_absolute_path_inside_the_folder_is_a_recording(
    client: Client, settings: Settings
) -> None:
    created = create(client)
    by_uri, by_path = recording(settings, "a.mp4"), recording(settings, "sub/b.mp4")
    register(client, created["id"], 1, by_uri.resolve().as_uri())
    register(client, created["id"], 1, str(by_path.resolve()))
    end_game_1(client, created)

    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted", "VideoDeleted"]
    assert not by_uri.exists()
    assert not by_path.exists()


def test_a_symlink_pointing_out_of_the_folder_is_refused(
    client: Client, settings: Settings, outside: Path
) -> None:
    evidence = evidence_folder(settings)
    (evidence / "key.mp4").symlink_to(settings.data_dir / "secret.key")
    (evidence / "victim.mp4").symlink_to(outside / "victim.mp4")
    (evidence / "club").symlink_to(settings.data_dir, target_is_directory=True)
    created = create(client)

    for uri in ["key.mp4", "victim.mp4", "club/events.sqlite3", (evidence / "key.mp4").as_uri()]:
        refused(client, created["id"], uri)

    store_files_intact(settings)
    assert (outside / "victim.mp4").exists()


def test_a_symlink_inside_the_folder_registers_the_file_it_resolves_to(
    client: Client, settings: Settings
) -> None:
    # only the resolved path decides: the job deletes the recording, not the link
    target = recording(settings, "raw/table1-game1.mp4")
    link = settings.data_dir / "evidence" / "table1.mp4"
    link.symlink_to(target)
    created = create(client)
    register(client, created["id"], 1, "table1.mp4")
    end_game_1(client, created)

    assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
    assert not target.exists()
    assert link.is_symlink()


def test_a_file_swapped_for_a_symlink_after_registration_is_not_deleted_nor_its_target(
    client: Client, settings: Settings, outside: Path
) -> None:
    # rule C-VIDEO-1: the job re-checks at deletion time and follows no link; it refuses
    # (deleting the link alone would record a deletion while the target lives on)
    created = create(client)
    swapped = recording(settings, "game1.mp4")
    register(client, created["id"], 1, "game1.mp4")
    swapped.unlink()
    swapped.symlink_to(settings.data_dir / "secret.key")
    end_game_1(client, created)

    runs = run_jobs(client)

    assert len(runs) == 1
    assert runs[0].effect.startswith("VideoDeletionRefused: game1.mp4 in the evidence folder ")
    assert "symbolic link" in runs[0].effect
    store_files_intact(settings)
    assert swapped.is_symlink()
    refusals = events_of(client, "VideoDeletionRefused")
    assert [(event.actor, event.reason) for event in refusals] == [
        ("scheduler", runs[0].effect[22:])
    ]
    job = next(
        j
        for j in client.get("/api/v1/jobs", headers=DIRECTOR).json()
        if j["kind"] == "delete_video"
    )
    assert (job["status"], job["effect"]) == ("done", runs[0].effect)
    assert run_jobs(client) == []  # refused for good, not retried
    assert videos(client, created["id"])[0]["deleted_at"] is None


def test_a_recording_the_job_refused_to_delete_shows_the_refusal_unlike_one_still_waiting(
    client: Client, settings: Settings
) -> None:
    # rule C-VIDEO-1: the director sees which recordings a person must delete by hand
    created = create(client)
    swapped = recording(settings, "game1.mp4")
    register(client, created["id"], 1, "game1.mp4")
    register(client, created["id"], 2, "game2.mp4")  # game 2 has not ended: still waiting
    swapped.unlink()
    swapped.symlink_to(settings.data_dir / "secret.key")
    end_game_1(client, created)
    (run,) = run_jobs(client)

    refused_one, waiting = videos(client, created["id"])

    assert refused_one["deleted_at"] is None
    assert refused_one["refused_reason"] == run.effect.removeprefix("VideoDeletionRefused: ")
    assert "symbolic link" in refused_one["refused_reason"]
    refusal = events_of(client, "VideoDeletionRefused")[0]
    assert datetime.fromisoformat(refused_one["refused_at"]) == refusal.timestamp
    assert (waiting["deleted_at"], waiting["refused_at"], waiting["refused_reason"]) == (
        None,
        None,
        None,
    )


def test_views_of_the_version_without_refusals_are_rebuilt_with_them(
    settings: Settings, clock: MovableClock
) -> None:
    # a views file written before the refusal was shown has no column for it
    with TestClient(create_app(settings, clock=clock)) as client:
        created = create(client)
        register(client, created["id"], 1, "game1.mp4")
    with sqlite3.connect(settings.data_dir / "views.sqlite3") as views:
        views.execute("ALTER TABLE videos DROP COLUMN refused_reason")
        views.execute("ALTER TABLE videos DROP COLUMN refused_at")
        views.execute("UPDATE view_positions SET version = 2 WHERE name = 'deadlines'")
    views.close()

    with TestClient(create_app(settings, clock=clock)) as restarted:
        (shown,) = videos(restarted, created["id"])
        assert (shown["uri"], shown["refused_at"], shown["refused_reason"]) == (
            "game1.mp4",
            None,
            None,
        )


def test_a_folder_swapped_for_a_symlink_after_registration_is_not_followed(
    client: Client, settings: Settings, outside: Path
) -> None:
    created = create(client)
    recording(settings, "table1/victim.mp4")
    register(client, created["id"], 1, "table1/victim.mp4")
    table1 = settings.data_dir / "evidence" / "table1"
    (table1 / "victim.mp4").unlink()
    table1.rmdir()
    table1.symlink_to(outside, target_is_directory=True)
    end_game_1(client, created)

    runs = run_jobs(client)

    assert [run.effect.split(":")[0] for run in runs] == ["VideoDeletionRefused"]
    assert "table1 in the evidence folder is a symbolic link" in runs[0].effect
    assert (outside / "victim.mp4").exists()


def test_after_the_job_ran_a_restart_shows_the_same_tournaments_and_match_events(
    settings: Settings, clock: MovableClock, outside: Path
) -> None:
    # the attack of issue 19: recordings named after the store's files, by several forms, and
    # the job run; the service comes back with its whole history and its key
    with TestClient(create_app(settings, clock=clock)) as client:
        evidence = evidence_folder(settings)
        key = (settings.data_dir / "secret.key").read_text()
        tournament = client.post(
            "/api/v1/tournaments",
            json={"name": "Frühlingsturnier", "date": "2026-04-18", "venue": "Amberg"},
            headers=DIRECTOR,
        )
        assert tournament.status_code == 201, tournament.text
        created = create(client)
        (evidence / "link.mp4").symlink_to(settings.data_dir / "events.sqlite3")
        for name in STORE_FILES:  # all of game 1, deleted when it ends
            register(client, created["id"], 1, name)  # a file in the evidence folder
            for uri in [f"../{name}", (settings.data_dir / name).resolve().as_uri(), "link.mp4"]:
                client.post(
                    f"/api/v1/matches/{created['id']}/videos",
                    json={"game": 1, "uri": uri},
                    headers=DIRECTOR,
                )  # refused (see the tests above); the attack tries them all the same
        end_game_1(client, created)
        run_jobs(client)
        tournaments = client.get("/api/v1/tournaments").json()
        events = client.get(f"/api/v1/matches/{created['id']}/events").json()

    with TestClient(create_app(settings, clock=clock)) as restarted:
        assert restarted.get("/api/v1/tournaments").json() == tournaments
        assert restarted.get(f"/api/v1/matches/{created['id']}/events").json() == events
        assert [t["name"] for t in tournaments] == ["Frühlingsturnier"]
        assert len(events) > 4
    assert (settings.data_dir / "secret.key").read_text() == key
    store_files_intact(settings)


def test_an_evidence_folder_link_turned_to_the_data_directory_after_the_start_reaches_no_store_file(
    settings: Settings, clock: MovableClock, tmp_path: Path
) -> None:
    # rule C-VIDEO-1: BGTD_EVIDENCE_DIR may be a link (a camera's "current" folder); the start
    # checked the folder it led to then, so a link turned to the data directory afterwards
    # must not make the store's files recordings that the job deletes
    cameras = tmp_path / "cameras"
    cameras.mkdir()
    link = tmp_path / "current"
    link.symlink_to(cameras, target_is_directory=True)
    linked = msgspec.structs.replace(settings, evidence_dir=link)
    with TestClient(create_app(linked, clock=clock)) as client:
        created = create(client)
        link.unlink()
        link.symlink_to(linked.data_dir, target_is_directory=True)  # turned after the start
        for game, name in enumerate(STORE_FILES, start=1):
            client.post(
                f"/api/v1/matches/{created['id']}/videos",
                json={"game": game, "uri": name},
                headers=DIRECTOR,
            )
        end_game_1(client, created)
        run_jobs(client)

    store_files_intact(linked)


# --- recordings registered before the evidence folder ---------------------------------------


def register_as_before(client: Client, match_id: str, game: int, uri: str) -> None:
    """A registration recorded by an earlier version: its path resolved against the data
    directory, nothing recorded about the evidence folder."""
    services = client.app.state.services
    commands = CommandRunner(services.store, services.clock, services.views)
    commands.create(
        video.evolve,
        lambda now: [
            video.VideoRegistered(
                originator_id=uuid.uuid4(),
                originator_version=1,
                timestamp=now,
                actor="director",
                match_id=UUID(match_id),
                game=game,
                uri=uri,
            )
        ],
        DECIDE_AGAIN,
    )


def test_a_recording_registered_before_the_rule_is_deleted_only_inside_the_evidence_folder(
    client: Client, settings: Settings
) -> None:
    # API.md: old recordings keep their resolution (relative to the data dir)
    created = create(client)
    inside = recording(settings, "old-inside.mp4")
    beside = settings.data_dir / "videos" / "old-beside.mp4"
    beside.parent.mkdir()
    beside.write_bytes(b"\x00video")
    register_as_before(client, created["id"], 1, "evidence/old-inside.mp4")
    register_as_before(client, created["id"], 1, "videos/old-beside.mp4")
    register_as_before(client, created["id"], 1, "secret.key")
    register_as_before(client, created["id"], 1, (settings.data_dir / "events.sqlite3").as_uri())
    register_as_before(client, created["id"], 1, "evidence/../secret.key")
    register_as_before(client, created["id"], 1, "https://cams.example/table1.mp4")
    end_game_1(client, created)

    effects = sorted(run.effect for run in run_jobs(client))

    assert effects[0] == "VideoDeleted"
    assert [effect.split(":")[0] for effect in effects[1:]] == ["VideoDeletionRefused"] * 5
    assert sum("registered before the evidence folder" in effect for effect in effects) == 5
    assert not inside.exists()
    assert beside.exists()
    store_files_intact(settings)
    assert run_jobs(client) == []  # the refusals are recorded once, not retried
    done = [j for j in client.get("/api/v1/jobs", headers=DIRECTOR).json() if j["status"] == "done"]
    assert sorted(j["effect"] for j in done) == effects


def test_videos_are_for_the_director_only(client: Client) -> None:
    created = create(client)
    response = client.get(f"/api/v1/matches/{created['id']}/videos", headers=bearer(created, "a"))
    assert response.status_code == 403


# --- disputes ---------------------------------------------------------------------------------


@pytest.fixture
def timed(client: Client, clock: MovableClock) -> dict[str, Any]:
    """A timed match (app clock) where each side took some seconds for each action."""
    created = create(client, clock="app")
    responses = []
    steps: list[tuple[str, dict[str, Any], str]] = [
        ("rolls", {"dice": [3, 1]}, "a"),
        ("plays", {"play": "8/5 6/5"}, "a"),
        ("rolls", {"dice": [6, 4]}, "b"),
        ("plays", {"play": "24/14"}, "b"),
        ("rolls", {"dice": [5, 2]}, "a"),
    ]
    for path, body, side in steps:
        clock.advance(7)
        response = post(client, created, path, body, side)
        assert response.status_code == 200, response.text
        responses.append(response.json())
    created["responses"] = responses
    return created


def test_a_disputed_play_is_replayed_as_the_players_saw_it(
    client: Client, timed: dict[str, Any]
) -> None:
    # rule C-DISPUTE-1: the states before and after, with clocks and dice, as sent then
    before, after = timed["responses"][2], timed["responses"][3]
    opened = client.post(
        "/api/v1/disputes",
        json={"match_id": timed["id"], "version": after["version"], "claim": "24/14 is wrong"},
        headers=bearer(timed, "a"),
    ).json()
    shown = client.get(f"/api/v1/disputes/{opened['id']}", headers=bearer(timed, "a")).json()

    assert shown["replay"]["after"].endswith(f"?version={after['version']}")
    assert shown["replay"]["before"].endswith(f"?version={after['version'] - 1}")
    assert before["version"] == after["version"] - 1
    assert client.get(shown["replay"]["before"]).json() == before
    assert client.get(shown["replay"]["after"]).json() == after
    assert before["dice"] == [6, 4]
    assert after["clocks"] == client.get(shown["replay"]["after"]).json()["clocks"]
    # rule R-RATE-7: a rated ad hoc match's sides act by their rating list player ids
    assert shown["opened_by"] == f"player:{timed['match']['player_ids']['a']}"
    assert shown["decision"] is None


def test_only_a_player_of_the_match_or_a_director_may_dispute_or_see_it(
    client: Client, timed: dict[str, Any]
) -> None:
    other = create(client, player_a="carla", player_b="dora")
    body = {"match_id": timed["id"], "version": 2, "claim": "too slow"}
    assert client.post("/api/v1/disputes", json=body).status_code == 401
    assert client.post("/api/v1/disputes", json=body, headers=bearer(other, "a")).status_code == 403
    opened = client.post("/api/v1/disputes", json=body, headers=DIRECTOR)
    assert opened.status_code == 201
    url = f"/api/v1/disputes/{opened.json()['id']}"
    assert client.get(url, headers=bearer(other, "b")).status_code == 403
    assert client.get(url, headers=bearer(timed, "b")).status_code == 200
    assert client.get(url, headers=DIRECTOR).json()["replay"]["before"].endswith("?version=1")


def test_a_dispute_is_decided_once_and_never_edits_the_matchs_history(
    client: Client, timed: dict[str, Any]
) -> None:
    events = client.get(f"/api/v1/matches/{timed['id']}/events").json()
    opened = client.post(
        "/api/v1/disputes",
        json={"match_id": timed["id"], "version": 4, "claim": "wrong play"},
        headers=DIRECTOR,
    ).json()
    url = f"/api/v1/disputes/{opened['id']}/decision"
    ruling = {"ruling": "the play stands", "reason": "legal"}
    assert client.post(url, json=ruling, headers=bearer(timed, "a")).status_code == 403
    assert client.post(url, json=ruling, headers=DIRECTOR).json()["decision"]["ruling"] == (
        "the play stands"
    )
    assert client.post(url, json=ruling, headers=DIRECTOR).status_code == 409
    assert client.get(f"/api/v1/matches/{timed['id']}/events").json() == events


def test_a_dispute_names_an_event_the_match_has(client: Client, timed: dict[str, Any]) -> None:
    body = {"match_id": timed["id"], "version": 99, "claim": "?"}
    assert client.post("/api/v1/disputes", json=body, headers=DIRECTOR).status_code == 422
    unknown = {"match_id": "00000000-0000-4000-8000-000000000000", "version": 1, "claim": "?"}
    assert client.post("/api/v1/disputes", json=unknown, headers=DIRECTOR).status_code == 404


# --- clocks -----------------------------------------------------------------------------------


def test_a_run_out_clock_is_flagged_once_and_the_opponent_claims(
    client: Client, clock: MovableClock, timed: dict[str, Any]
) -> None:
    # rule G-CLOCK-2: 11 s per move, then the reserve; the opponent must claim
    assert run_jobs(client) == []
    clock.advance(11 + 90)
    runs = run_jobs(client)
    assert [(run.kind, run.effect) for run in runs] == [("flag_clock", "ClockFlagged")]
    assert run_jobs(client) == []
    clock.advance(30)
    assert run_jobs(client) == []
    flags = events_of(client, "ClockFlagged")
    assert [(flag.flagged, flag.actor) for flag in flags] == [("a", "scheduler")]

    claimed = post(client, timed, "timeouts", {}, "b")
    assert claimed.status_code == 200, claimed.text
    jobs = client.get("/api/v1/jobs", headers=DIRECTOR).json()
    assert [j["effect"] for j in jobs if j["kind"] == "flag_clock"] == [
        "ClockFlagged: side a out of time"
    ]


def test_the_evidence_folder_is_a_setting_and_recordings_are_relative_to_it(
    tmp_path: Path, clock: MovableClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BGTD_EVIDENCE_DIR", str(tmp_path / "cameras"))
    settings = Settings.from_environment(data_dir=tmp_path / "data", dev=True, run_scheduler=False)
    assert settings.evidence_path == tmp_path / "cameras"
    with TestClient(create_app(settings, clock=clock)) as client:
        assert (tmp_path / "cameras").is_dir()  # made at the start
        footage = tmp_path / "cameras" / "table1" / "game1.mp4"
        footage.parent.mkdir()
        footage.write_bytes(b"\x00video")
        created = create(client)
        assert register(client, created["id"], 1, "table1/game1.mp4")["uri"] == "table1/game1.mp4"
        refused(client, created["id"], "../data/secret.key")
        end_game_1(client, created)

        assert [run.effect for run in run_jobs(client)] == ["VideoDeleted"]
        assert not footage.exists()
        assert footage.parent.is_dir()  # only the file


def test_the_videos_show_the_end_of_their_game_right_after_the_command_that_ended_it(
    client: Client, settings: Settings
) -> None:
    # read your writes (docs/architecture.md): a match command's response waits until its
    # events are in the views, so the game end shows without a job poll in between (C-VIDEO-1)
    created = create(client)
    recording(settings)
    register(client, created["id"], 1, "table1-game1.mp4")
    assert videos(client, created["id"])[0]["game_ended_at"] is None

    end_game_1(client, created)

    assert videos(client, created["id"])[0]["game_ended_at"] is not None
