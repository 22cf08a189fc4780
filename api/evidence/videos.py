"""Video evidence of a match's games (rule C-VIDEO-1): registered by a director, deleted by the
scheduler after the game ends unless a dispute holds it."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller, get, post
from litestar.params import FromPath, JSONBody

from api.http.auth import director_only
from api.http.schemas import ActorDep, ServicesDep
from domain.evidence.video import MAX_URI_LENGTH
from service.evidence.videos import VideoView


class VideoCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Game ``game``'s recording: a file in the evidence folder (``BGTD_EVIDENCE_DIR``): a
    path relative to it, or a ``file://`` URI inside it (``#`` and ``?`` percent-encoded).
    Anything that resolves outside it, or an existing folder, is refused (422 on ``uri``)."""

    game: Annotated[int, msgspec.Meta(ge=1, le=10_000)]
    uri: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_URI_LENGTH)]


class DeletionFailure(msgspec.Struct):
    """The last failed deletion; it is retried."""

    error: str
    failed_at: datetime
    failures: int


class Video(msgspec.Struct):
    id: UUID
    match_id: UUID
    game: int
    uri: str
    registered_at: datetime
    game_ended_at: datetime | None
    deleted_at: datetime | None
    held_by_dispute: bool
    failure: DeletionFailure | None
    refused_at: datetime | None
    """When the deletion job refused to delete the file, for good (it left the evidence
    folder, or is a symbolic link, a folder or another non-regular file by then): a person
    deletes it. None: deleted, or still waiting for its deletion."""
    refused_reason: str | None


def video_view(video: VideoView) -> Video:
    failure = None
    if video.last_error is not None and video.last_failed_at is not None:
        failure = DeletionFailure(
            error=video.last_error, failed_at=video.last_failed_at, failures=video.failures
        )
    return Video(
        id=video.id,
        match_id=video.match_id,
        game=video.game,
        uri=video.uri,
        registered_at=video.registered_at,
        game_ended_at=video.game_ended_at,
        deleted_at=video.deleted_at,
        held_by_dispute=video.held and video.deleted_at is None and video.refused_at is None,
        failure=failure,
        refused_at=video.refused_at,
        refused_reason=video.refused_reason,
    )


class VideoController(Controller):
    path = "/api/v1/matches/{match_id:uuid}/videos"
    tags = ["evidence"]  # noqa: RUF012
    guards = [director_only]  # noqa: RUF012

    @post("/", sync_to_thread=True, summary="Register a game's recording (director)")
    def register(
        self,
        match_id: FromPath[UUID],
        data: JSONBody[VideoCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Video:
        video = services.videos.register(match_id, data.game, data.uri, actor=actor)
        return video_view(video)

    @get("/", sync_to_thread=True, summary="The match's recordings with deleted_at (director)")
    def list_videos(self, match_id: FromPath[UUID], services: ServicesDep) -> list[Video]:
        return [video_view(video) for video in services.videos.list_videos(match_id)]
