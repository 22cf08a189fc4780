"""Video evidence of a match's games (rule C-VIDEO-1): registered by a director, deleted by the
scheduler after the game ends unless a dispute holds it."""

from __future__ import annotations

from typing import Annotated
from uuid import UUID

import msgspec
from litestar import Controller
from litestar.params import FromPath, JSONBody

from api.http.auth import director_only
from api.http.routes import get_route, post_route
from api.http.schemas import ActorDep, ServicesDep
from domain.evidence.video import MAX_URI_LENGTH
from service.evidence.videos import Video


class VideoCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Game ``game``'s recording: a file in the evidence folder (``BGTD_EVIDENCE_DIR``): a
    path relative to it, or a ``file://`` URI inside it (``#`` and ``?`` percent-encoded).
    Anything that resolves outside it, or an existing folder, is refused (422 on ``uri``)."""

    game: Annotated[int, msgspec.Meta(ge=1, le=10_000)]
    uri: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_URI_LENGTH)]


class VideoController(Controller):
    path = "/api/v1/matches/{match_id:uuid}/videos"
    tags = ["evidence"]  # noqa: RUF012
    guards = [director_only]  # noqa: RUF012

    @post_route("/", summary="Register a game's recording (director)")
    def register(
        self,
        match_id: FromPath[UUID],
        data: JSONBody[VideoCreate],
        services: ServicesDep,
        actor: ActorDep,
    ) -> Video:
        return services.videos.register(match_id, data.game, data.uri, actor=actor)

    @get_route("/", summary="The match's recordings with deleted_at (director)")
    def list_videos(self, match_id: FromPath[UUID], services: ServicesDep) -> list[Video]:
        return services.videos.list_videos(match_id)
