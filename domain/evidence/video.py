"""A game's video recording, kept as evidence until its deletion (rule C-VIDEO-1).

Its own small aggregate, so that registering or deleting a recording never changes the
version of the match the players are playing. The file is deleted by the service (an effect
after the log); the aggregate records the deletion, each failed attempt, or the refusal to
delete (a file that is no longer safely inside the evidence folder), once.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError, NotFoundError
from domain.events import Aggregate, DomainEvent, EventBatch, open_state

MAX_URI_LENGTH = 2000
FIRST_RETRY = timedelta(minutes=1)
LAST_RETRY = timedelta(hours=1)


class VideoNotFoundError(NotFoundError):
    """No recording with this id."""


class VideoRegistered(DomainEvent, frozen=True, kw_only=True):
    """A game's recording exists: where it is, and which game of which match it shows."""

    match_id: UUID
    game: int
    uri: str
    path: str | None = None
    """The file as resolved at registration: a relative path inside the evidence folder, the
    only file the deletion job may delete. None: registered before the evidence folder, when
    ``uri`` was resolved against the data directory."""


class VideoDeletionFailed(DomainEvent, frozen=True, kw_only=True):
    """An attempt to delete the recording failed; it is retried (never silently forgotten)."""

    error: str


class VideoDeleted(DomainEvent, frozen=True, kw_only=True):
    """rule C-VIDEO-1: the recording is gone."""


class VideoDeletionRefused(DomainEvent, frozen=True, kw_only=True):
    """The job did not delete the recording and will not try again: its file lies outside the
    evidence folder, or is a symbolic link now (the job follows no link), or a folder or
    another non-regular file (a retry would fail for ever). Deleting it is left to a person."""

    reason: str


VideoEvent = VideoRegistered | VideoDeletionFailed | VideoDeleted | VideoDeletionRefused


class Video(Aggregate, frozen=True, kw_only=True):
    """A recording as of its latest event."""

    match_id: UUID
    game: int
    uri: str
    registered_at: datetime
    path: str | None = None
    """See ``VideoRegistered.path``."""
    deleted_at: datetime | None = None
    refused: str | None = None
    """Why the job will not delete the recording (``VideoDeletionRefused``)."""
    failures: int = 0
    last_error: str | None = None
    last_failed_at: datetime | None = None


def retry_at(failed_at: datetime, failures: int) -> datetime:
    """A failed deletion is tried again after a pause that doubles, up to an hour."""
    pause: timedelta = min(LAST_RETRY, FIRST_RETRY * 2 ** max(0, failures - 1))
    return failed_at + pause


def evolve(state: Video | None, event: VideoEvent) -> Video:
    """The one place where a recording's events apply."""
    if isinstance(event, VideoRegistered):
        return open_state(event, Video, registered_at=event.timestamp)
    if not isinstance(state, Video):
        raise VideoNotFoundError(f"no video with id {event.originator_id}")
    version = event.originator_version
    match event:
        case VideoDeletionFailed():
            return msgspec.structs.replace(
                state,
                version=version,
                failures=state.failures + 1,
                last_error=event.error,
                last_failed_at=event.timestamp,
            )
        case VideoDeleted():
            return msgspec.structs.replace(state, version=version, deleted_at=event.timestamp)
        case VideoDeletionRefused():
            return msgspec.structs.replace(state, version=version, refused=event.reason)
    raise TypeError(f"not a video event: {type(event).__name__}")


def register_video(
    video_id: UUID,
    match_id: UUID,
    game: int,
    uri: str,
    path: str | None,
    now: datetime,
    *,
    actor: str,
) -> list[VideoEvent]:
    """``path``: the file ``uri`` names, resolved by the service inside the evidence folder."""
    if game < 1:
        raise InvalidInputError("game", "games are numbered from 1")
    if not uri.strip() or len(uri) > MAX_URI_LENGTH:
        raise InvalidInputError("uri", f"give the recording's path or URI (1-{MAX_URI_LENGTH})")
    batch = EventBatch[VideoEvent](video_id, 0, now, actor)
    batch.add(VideoRegistered, match_id=match_id, game=game, uri=uri, path=path)
    return batch.events


def is_settled(state: Video) -> bool:
    """Deleted, or refused for good: the job has nothing more to do."""
    return state.deleted_at is not None or state.refused is not None


def record_deletion(
    state: Video, error: str | None, now: datetime, *, actor: str
) -> list[VideoEvent]:
    """The outcome of a deletion attempt: deleted (once), or the failure to retry."""
    if is_settled(state):
        return []
    batch = EventBatch[VideoEvent].after(state, now, actor)
    if error is None:
        batch.add(VideoDeleted)
    else:
        batch.add(VideoDeletionFailed, error=error)
    return batch.events


def refuse_deletion(state: Video, reason: str, now: datetime, *, actor: str) -> list[VideoEvent]:
    """The job leaves the recording alone for good, and says why (once)."""
    if is_settled(state):
        return []
    batch = EventBatch[VideoEvent].after(state, now, actor)
    batch.add(VideoDeletionRefused, reason=reason)
    return batch.events
