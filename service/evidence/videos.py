"""Video evidence (rule C-VIDEO-1): recordings registered per game, deleted after the game ends
unless a dispute on the match holds them; a failed deletion is retried and shown."""

from __future__ import annotations

import uuid
from datetime import datetime
from uuid import UUID

import msgspec
import sqlite_utils

from domain.events import SCHEDULER
from domain.evidence import video
from domain.match import Match
from projections.runner import Views
from service.evidence.folder import Deleted, EvidenceFolder, Failed, Outcome, Refused
from service.shared.commands import DECIDE_AGAIN, CommandRunner
from service.shared.loading import load_match
from service.storage.events import EventStore


class DeletionFailure(msgspec.Struct, frozen=True, kw_only=True):
    """The last failed deletion; it is retried."""

    error: str
    failed_at: datetime
    failures: int


class Video(msgspec.Struct, frozen=True, kw_only=True):
    """A registered recording and where its deletion stands."""

    id: UUID
    match_id: UUID
    game: int
    uri: str
    registered_at: datetime
    game_ended_at: datetime | None
    """When the game ended: its deletion is due from then (None: still playing)."""
    deleted_at: datetime | None
    held_by_dispute: bool
    """An open dispute on the match holds the deletion until it is decided."""
    failure: DeletionFailure | None
    refused_at: datetime | None
    """When the deletion job refused to delete the file, for good (it left the evidence
    folder, or is a symbolic link, a folder or another non-regular file by then): a person
    deletes it. None: deleted, or still waiting for its deletion."""
    refused_reason: str | None


class VideoService:
    """Registers recordings and deletes them when due (the file first, then the event)."""

    def __init__(
        self, store: EventStore, views: Views, commands: CommandRunner, evidence: EvidenceFolder
    ) -> None:
        self._store = store
        self._views = views
        self._commands = commands
        self._evidence = evidence

    def register(self, match_id: UUID, game: int, uri: str, *, actor: str) -> Video:
        """The director registers game ``game``'s recording: a file in the evidence folder
        (the scheduler deletes nothing else); anything else is refused on field ``uri``."""
        self._load_match(match_id)
        path = self._evidence.locate(uri)
        state = self._commands.create(
            video.evolve,
            lambda now: video.register_video(
                uuid.uuid4(), match_id, game, uri, path, now, actor=actor
            ),
            DECIDE_AGAIN,
        )
        return self.list_videos(match_id, only=state.id)[0]

    def list_videos(self, match_id: UUID, only: UUID | None = None) -> list[Video]:
        self._load_match(match_id)
        with self._views.reading() as db:
            rows = db.execute(
                "SELECT v.video_id, v.match_id, v.game, v.uri, v.registered_at, "
                "v.game_ended_at, v.deleted_at, "
                "EXISTS (SELECT 1 FROM open_disputes d WHERE d.match_id = v.match_id), "
                "v.failures, v.last_error, v.last_failed_at, v.refused_at, v.refused_reason "
                "FROM videos v "
                "WHERE v.match_id = ? ORDER BY v.game, v.registered_at",
                [str(match_id)],
            ).fetchall()
        views = [_video_view(row) for row in rows]
        return [v for v in views if only is None or v.id == only]

    def delete_due(self, video_id: UUID) -> str | None:
        """Delete the recording (an effect after the log), then record it once; a failure is
        recorded to be retried, a refusal (outside the folder, a link now) for good. Nothing
        while a dispute holds it or once it is settled."""
        state = self._load(video_id)
        with self._views.reading() as db:
            held = _is_held(db, state.match_id) or _kept_for_another(db, state)
        if video.is_settled(state) or held:
            return None
        outcome = self._delete(state)
        change = self._commands.update(
            lambda: self._load(video_id),
            video.evolve,
            lambda latest, now: _record(latest, outcome, now),
            DECIDE_AGAIN,
        )
        if not change.events:
            return None
        match outcome:
            case Deleted():
                return "VideoDeleted"
            case Failed(error):
                return f"VideoDeletionFailed: {error}"
            case Refused(reason):
                return f"VideoDeletionRefused: {reason}"

    def _delete(self, state: video.Video) -> Outcome:
        """The file as resolved at registration; a recording registered before the evidence
        folder is resolved as it was then, and deleted only if it lies in the folder."""
        path = state.path
        if path is None:
            path_or_refusal = self._evidence.locate_legacy(state.uri)
            if isinstance(path_or_refusal, Refused):
                return path_or_refusal
            path = path_or_refusal
        return self._evidence.delete(path)

    def _load(self, video_id: UUID) -> video.Video:
        return self._store.load_as(
            video_id,
            video.evolve,
            video.Video,
            lambda: video.VideoNotFoundError(f"no video with id {video_id}"),
        )

    def _load_match(self, match_id: UUID) -> Match:
        return load_match(self._store, match_id)


def _record(state: video.Video, outcome: Outcome, now: datetime) -> list[video.VideoEvent]:
    match outcome:
        case Deleted():
            return video.record_deletion(state, None, now, actor=SCHEDULER)
        case Failed(error):
            return video.record_deletion(state, error, now, actor=SCHEDULER)
        case Refused(reason):
            return video.refuse_deletion(state, reason, now, actor=SCHEDULER)


def _is_held(db: sqlite_utils.Database, match_id: UUID) -> bool:
    row = db.execute(
        "SELECT 1 FROM open_disputes WHERE match_id = ? LIMIT 1", [str(match_id)]
    ).fetchone()
    return row is not None


def _kept_for_another(db: sqlite_utils.Database, state: video.Video) -> bool:
    """The same file is registered for another game still being played, or held by an open
    dispute on its match: it stays until that one is due too."""
    if state.path is None:
        return False
    row = db.execute(
        "SELECT 1 FROM videos v WHERE v.path = ? AND v.video_id != ? "
        "AND v.deleted_at IS NULL AND v.refused_at IS NULL AND (v.game_ended_at IS NULL "
        "OR EXISTS (SELECT 1 FROM open_disputes d WHERE d.match_id = v.match_id)) LIMIT 1",
        [state.path, str(state.id)],
    ).fetchone()
    return row is not None


def _instant(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _video_view(row: tuple[object, ...]) -> Video:
    (video_id, match_id, game, uri, registered, ended, deleted, held) = row[:8]
    (failures, error, failed, refused, reason) = row[8:]
    registered_at = _instant(str(registered))
    assert registered_at is not None
    deleted_at = _instant(deleted if isinstance(deleted, str) else None)
    refused_at = _instant(refused if isinstance(refused, str) else None)
    failed_at = _instant(failed if isinstance(failed, str) else None)
    failure = (
        DeletionFailure(error=error, failed_at=failed_at, failures=int(str(failures)))
        if isinstance(error, str) and failed_at is not None
        else None
    )
    return Video(
        id=UUID(str(video_id)),
        match_id=UUID(str(match_id)),
        game=int(str(game)),
        uri=str(uri),
        registered_at=registered_at,
        game_ended_at=_instant(ended if isinstance(ended, str) else None),
        deleted_at=deleted_at,
        # a deleted or refused recording is no longer held: there is nothing left to delete
        held_by_dispute=bool(held) and deleted_at is None and refused_at is None,
        failure=failure,
        refused_at=refused_at,
        refused_reason=reason if isinstance(reason, str) else None,
    )
