"""Live updates as Server-Sent Events: a tournament's seats, pairings, results and standings, and
a match's state after every command (rule P-PUB-1). Public: display names only.

Each SSE ``id`` is the notification id of the last change the event shows, so a browser that
reconnects (``Last-Event-ID``) gets what it missed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from functools import partial
from typing import Annotated, Any, Literal
from uuid import UUID

import msgspec
from litestar import Controller, Request, get
from litestar.background_tasks import BackgroundTask
from litestar.di import NamedDependency, Provide
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import FromPath, HeaderParameter
from litestar.response import ServerSentEvent, ServerSentEventMessage

from api.http.clients import ClientAddress
from api.http.errors import PROBLEM_JSON
from api.http.schemas import ServicesDep, restate
from api.live.slots import LiveStreamSlots, StreamSlot
from api.matches.schemas import match_view
from domain.tournament import ResultRecorded, RoundPaired, RoundRepaired, RoundUnpaired
from service.bootstrap import Services
from service.live.feed import LiveChange, LiveFeed, LiveMessage

TOURNAMENT_PACKAGE = "domain.tournament"
MATCH_PACKAGE = "domain.match"
SEAT_EVENTS = frozenset(
    {
        "PlayerRegistered",
        "RegistrationWaitlisted",
        "RegistrationCancelled",
        "WaitlistPromoted",
        "LateWithdrawalRecorded",
        "PlayerCheckedIn",
        "StandbyCheckedIn",
        "StandbyNotSeated",
        "NoShowReleased",
        "TournamentStarted",
    }
)
STANDING_EVENTS = frozenset(
    {
        "TournamentStarted",
        "RoundPaired",
        "RoundRepaired",
        "RoundUnpaired",
        "ResultRecorded",
        "PlayerWithdrew",
        "PlayerExcluded",
        "LateEntryAdmitted",
    }
)
STATUS_EVENTS = frozenset({"TournamentStarted", "TournamentCompleted"})
RETRY_MS = 3000
"""How long a browser waits before it reconnects."""

LastEventId = Annotated[
    int | None,
    HeaderParameter(
        name="Last-Event-ID",
        required=False,
        description="resume after it",
        ge=0,
        le=2**63 - 1,
        # Litestar's document drops a bound of 0 (it tests the bound's truth): say it again
        schema_extra={"minimum": 0},
    ),
]


class LiveResult(msgspec.Struct):
    """A result of the tournament as a live event (``result``)."""

    match_id: UUID
    round: int
    table: int
    stage: str
    winner: UUID
    winner_name: str
    points_a: int
    points_b: int
    corrects: UUID | None


class LiveStatus(msgspec.Struct):
    status: Literal["running", "completed"]


def _topic_name(change: LiveChange) -> str:
    return change.topic.rpartition(":")[2]


def _is_of(topic: str, package: str) -> bool:
    """Whether an event topic (``domain.match.events:X`` or ``domain.match:X``) is of it."""
    module = topic.partition(":")[0]
    return module == package or module.startswith(package + ".")


def render_changes(
    services: Services, stream: UUID, changes: Sequence[LiveChange]
) -> list[LiveMessage]:
    """What a batch of one stream's changes looks like to its listeners (once for them all)."""
    if _is_of(changes[0].topic, MATCH_PACKAGE):
        # rule P-PUB-1: the match state after every command (one per batch: a command's events
        # are stored together)
        state = services.matches.get(stream)
        data = msgspec.json.encode(match_view(state, services.clock.now())).decode()
        return [LiveMessage(changes[-1].position, "state", data)]
    return _tournament_messages(services, stream, changes)


def _tournament_messages(
    services: Services, tournament_id: UUID, changes: Sequence[LiveChange]
) -> list[LiveMessage]:
    services.views.catch_up()
    messages: list[LiveMessage] = []

    def last_of(names: frozenset[str]) -> int | None:
        return max((c.position for c in changes if _topic_name(c) in names), default=None)

    def add(position: int, event: str, data: Any) -> None:
        messages.append(LiveMessage(position, event, msgspec.json.encode(data).decode()))

    seats_at = last_of(SEAT_EVENTS)
    if seats_at is not None:
        add(seats_at, "seats", services.tournaments.get_seats(tournament_id))
    matches = None
    names: dict[UUID, str] = {}
    for change in changes:
        event = change.event
        if isinstance(event, RoundPaired | RoundRepaired | RoundUnpaired):
            # the round as it stands now: an override or an unpairing may have followed
            current = services.rounds.latest_round(tournament_id)
            if current is not None:
                add(change.position, "pairings", current)
        elif isinstance(event, ResultRecorded):
            if matches is None:
                matches = {m.match_id: m for m in services.rounds.list_matches(tournament_id)}
                names = {
                    s.player_id: s.display_name
                    for s in services.rounds.list_standings(tournament_id)
                }
            decided = matches[event.match_id]
            # the event's result, where it was played and the winner's display name
            where = {"round": decided.round, "table": decided.table, "stage": decided.stage}
            winner_name = names.get(event.winner, "")
            result = restate(
                {**msgspec.structs.asdict(event), **where, "winner_name": winner_name}, LiveResult
            )
            add(change.position, "result", result)
    standings_at = last_of(STANDING_EVENTS)
    if standings_at is not None:
        rows = services.rounds.list_standings(tournament_id)
        add(standings_at, "standings", rows)
    for change in changes:
        name = _topic_name(change)
        if name in STATUS_EVENTS:
            completed = name == "TournamentCompleted"
            add(change.position, "status", LiveStatus("completed" if completed else "running"))
    return sorted(messages, key=lambda message: message.id)


def live_feed(services: Services) -> LiveFeed:
    """The process's one feed; tournament events are decoded (few), match events never."""
    return LiveFeed(
        services.store,
        lambda stream, changes: render_changes(services, stream, changes),
        decoded=lambda topic: _is_of(topic, TOURNAMENT_PACKAGE),
    )


class Listener:
    """One client's subscription: the process's feed, where the client resumes, and the
    slots its stream must find room in."""

    def __init__(
        self, feed: LiveFeed, after: int | None, slots: LiveStreamSlots, client: str
    ) -> None:
        self.feed = feed
        self.after = after
        self.slots = slots
        self.client = client

    def stream(self, of: UUID) -> ServerSentEvent:
        """The stream of ``of``, once it has a slot (else a 429 or 503 with ``Retry-After``)."""
        slot = self.slots.take(self.client)
        # the generator gives the slot back when it ends (the client went, the feed dropped it,
        # an error); the background task when the answer is done, also for a body that was
        # never asked for (a HEAD, a client gone before the first message)
        return ServerSentEvent(self._messages(of, slot), background=BackgroundTask(slot.aclose))

    async def _messages(self, of: UUID, slot: StreamSlot) -> AsyncIterator[ServerSentEventMessage]:
        try:
            yield ServerSentEventMessage(comment="live", retry=RETRY_MS)
            async for message in self.feed.listen(of, after=self.after):
                if message is None:
                    yield ServerSentEventMessage(comment="keep-alive")
                else:
                    yield ServerSentEventMessage(
                        data=message.data, event=message.event, id=message.id
                    )
        finally:
            slot.release()


def provide_listener(
    request: Request[Any, Any, Any],
    live: NamedDependency[LiveFeed],
    live_slots: NamedDependency[LiveStreamSlots],
    client_address: NamedDependency[ClientAddress],
    last_event_id: LastEventId = None,
) -> Listener:
    return Listener(live, last_event_id, live_slots, client_address(request))


ListenerDep = NamedDependency[Listener]


REFUSALS = {
    429: ResponseSpec(
        None,
        description="this client address holds its share of live streams already "
        "(`BGTD_LIVE_STREAMS_PER_CLIENT`): try again after `Retry-After` seconds",
        media_type=PROBLEM_JSON,
    ),
    503: ResponseSpec(
        None,
        description="the service holds as many live streams as it may "
        "(`BGTD_LIVE_STREAMS_TOTAL`): try again after `Retry-After` seconds",
        media_type=PROBLEM_JSON,
    ),
}
sse_route = partial(get, sync_to_thread=True, media_type="text/event-stream", responses=REFUSALS)
"""A live stream's route: its handler checks that the stream exists (a 404), in a thread,
and takes a slot for it (or refuses with one of the ``REFUSALS``). The media type is the
document's (Litestar would say JSON); the stream sends its own."""


class LiveController(Controller):
    path = "/api/v1"
    tags = ["live"]  # noqa: RUF012
    dependencies = {"listener": Provide(provide_listener, sync_to_thread=False)}  # noqa: RUF012

    @sse_route(
        "/tournaments/{tournament_id:uuid}/live",
        summary="Server-Sent Events: seats, pairings, results, standings (no personal data)",
    )
    def tournament(
        self, tournament_id: FromPath[UUID], services: ServicesDep, listener: ListenerDep
    ) -> ServerSentEvent:
        """Events `seats`, `pairings`, `result`, `standings`, `status`; each `id` is a
        notification id: send it back as `Last-Event-ID` to resume."""
        services.tournaments.get_seats(tournament_id)  # a 404 for an unknown tournament
        return listener.stream(tournament_id)

    @sse_route(
        "/matches/{match_id:uuid}/live",
        summary="Server-Sent Events: the match state after every command",
    )
    def match(
        self, match_id: FromPath[UUID], services: ServicesDep, listener: ListenerDep
    ) -> ServerSentEvent:
        """Event `state` with the body of `GET /api/v1/matches/{id}` after every command.

        Each `id` is a notification id: send it back as `Last-Event-ID` to resume.
        """
        services.matches.get(match_id)  # a 404 for an unknown match
        return listener.stream(match_id)
