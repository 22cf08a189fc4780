"""Matches: creation, rolls, plays, cube, resignations, time claims, replay, export, dice proof.

Every command answers with the match state after it. A player token acts for its own side; the
director token acts for either side with ``"side"`` in the body. ``If-Match: <version>`` makes a
command conditional: any other version is a 409, also one another command made while it ran.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Annotated, Any, TypeVar
from uuid import UUID

import anyio
from litestar import Controller, MediaType, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, HeaderParameter, JSONBody

from api.http.auth import (
    MATCH_PLAYER,
    any_director,
    director_only,
    guarded_post,
    in_thread,
    refuse_unknown_token_in_thread,
    require_token,
)
from api.http.schemas import (
    MAX_VERSION,
    ActingDirectorDep,
    AsCommand,
    ServicesDep,
    StreamEvent,
    UntilVersion,
    stream_events,
    version_query,
)
from api.matches.schemas import (
    CubeAction,
    DiceProofView,
    Match,
    MatchCreate,
    MatchCreated,
    PlayCreate,
    PlayerTokens,
    ProofRoll,
    ResignationCreate,
    RollCreate,
    RollVoid,
    SideChoice,
    SideName,
    match_view,
)
from domain.errors import ForbiddenError, InvalidInputError
from domain.match import Match as MatchRecord
from domain.match.variant_plays import GivenBoard
from service.bootstrap import Services
from service.matches.matches import MatchService
from service.shared.match_play import Caller, MatchTerms

T = TypeVar("T")
MATCH_TERMS = AsCommand(
    MatchCreate,
    MatchTerms,
    # API.md "Seasons and tournaments": a tournament's pairing, its seated players and their
    # registrations' tokens are the service's to set, never a client's
    set_by_server=("pairing", "seated", "token_hashes"),
)
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        required=False,
        description="the version the command expects",
        # documented only (schemathesis sent "null"): _expected_version checks it, naming the
        # header as the client wrote it. A string, not string-or-null: the text "null" is
        # refused like any other non-version (Litestar would document ``str | None`` so)
        schema_extra={"pattern": r'^\s*(W/)?"?[0-9]{1,10}"?\s*$', "one_of": None, "type": "string"},
    ),
]


ALGORITHM = (
    "sha256(seed) == seed_commitment; roll n (0-based, an opening roll counts as one: side a's "
    "die first) = the first two bytes b < 252 of HMAC-SHA256(seed, 'bgtd-dice-v1' || u64be(n) "
    "|| u32be(k)) for k = 0, 1, ..., each mapped to b % 6 + 1 (see domain/dice.py)"
)


# --- dependencies of the commands ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchCommand:
    """What every match command takes from its request: the match, who sends the command
    (its bearer token) and the version ``If-Match`` makes it conditional on."""

    services: Services
    match_id: UUID
    caller: Caller
    expected_version: int | None

    @property
    def matches(self) -> MatchService:
        return self.services.matches

    async def run(
        self, side: SideName | None, use_case: Callable[..., MatchRecord], *args: Any, **kw: Any
    ) -> Match:
        """Run ``use_case(match_id, caller acting for side, *args, **kw, expected_version)``;
        the answer is the state after it, clocks read at its instant.

        On the event loop, on either store. A command is a few hundred microseconds of CPU,
        which holds the interpreter lock wherever it runs, and one short write: a local commit
        on SQLite; on PostgreSQL one statement that waits for no other client's lock, the
        match coming from this process's cache (``CommandRunner.run``). Handing it to a worker
        thread cost more than the loop loses while it waits: on PostgreSQL with two processes,
        a fifth more CPU per command (thread hand-offs, and the command threads queueing for
        the interpreter lock), measured with ``bench/postgres.py``.
        """
        caller = self.caller.acting_for(side)
        try:
            state = use_case(
                self.match_id, caller, *args, expected_version=self.expected_version, **kw
            )
        except ForbiddenError:
            if caller.token is not None:  # a token nobody holds is a 401
                await refuse_unknown_token_in_thread(self.services, caller.token)
            raise
        return match_view(state, state.updated_at)


async def provide_match_command(
    request: Request[Any, Any, Any],
    services: ServicesDep,
    match_id: FromPath[UUID],
    if_match: IfMatch = None,
) -> MatchCommand:
    token = require_token(request, MATCH_PLAYER.whose)
    caller = Caller(token=token)
    if services.directors.may_be_director(token):  # a player's token costs no lookup
        acting = await in_thread(
            services, partial(services.directors.acting_on_match, token, match_id)
        )
        if acting is not None:
            caller = Caller(token=token, director=True, actor=acting.actor)
    return MatchCommand(services, match_id, caller, _expected_version(if_match))


def _expected_version(if_match: str | None) -> int | None:
    if if_match is None:
        return None
    text = if_match.strip().removeprefix("W/").strip('"')
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_VERSION))):
        raise InvalidInputError("If-Match", "give the match version the command expects")
    return int(text)


def _side(choice: SideChoice | None) -> SideName | None:
    return choice.side if choice else None


# --- the controller -------------------------------------------------------------------------


class MatchController(Controller):
    """Match handlers are coroutines that hand the use case to ``_run``: on the event loop for
    SQLite, in the thread pool for PostgreSQL."""

    path = "/api/v1/matches"
    tags = ["matches"]  # noqa: RUF012
    dependencies = {"command": Provide(provide_match_command)}  # noqa: RUF012

    @post("/", guards=[any_director], summary="Create a match (director)")
    async def create(
        self, data: JSONBody[MatchCreate], services: ServicesDep, acting_director: ActingDirectorDep
    ) -> MatchCreated:
        # rule C-DIR-1: a match outside any tournament is the club's
        await in_thread(
            services,
            partial(services.directors.authorize_tournament, acting_director, data.tournament_id),
        )
        terms = MATCH_TERMS(data)
        if data.tournament_id is not None:
            # a match of a running tournament between two of its seated players, by their ids
            player_a, player_b, seated = await _run(
                services,
                partial(
                    services.rounds.check_seated, data.tournament_id, data.player_a, data.player_b
                ),
            )
            terms = replace(terms, player_a=player_a, player_b=player_b, seated=seated)
        created = await _run(
            services, partial(services.matches.create, terms, actor=acting_director.actor)
        )
        state = created.match
        return MatchCreated(
            id=state.id,
            player_tokens=PlayerTokens(**created.tokens),
            match=match_view(state, services.clock.now()),
        )

    @get("/{match_id:uuid}", summary="The match now, or as of event N")
    async def show(
        self,
        match_id: FromPath[UUID],
        services: ServicesDep,
        version: Annotated[
            int | None, version_query("version", "the state right after this event")
        ] = None,
    ) -> Match:
        state = await _run(services, partial(services.matches.get, match_id, version))
        at = state.updated_at if version is not None else services.clock.now()
        return match_view(state, at)

    @guarded_post("/{match_id:uuid}/rolls", guards=[MATCH_PLAYER], status_code=200, summary="Roll")
    async def roll(
        self, command: NamedDependency[MatchCommand], data: JSONBody[RollCreate | None] = None
    ) -> Match:
        body = data or RollCreate()
        return await command.run(body.side, command.matches.roll, body.dice)

    @guarded_post(
        "/{match_id:uuid}/rolls/void",
        guards=[MATCH_PLAYER],
        status_code=200,
        summary="Void the latest roll (G-DICE-2): a director at once, or both players asking",
    )
    async def void_roll(
        self, command: NamedDependency[MatchCommand], data: JSONBody[RollVoid]
    ) -> Match:
        """rule G-DICE-2: a roll that does not count (a die off the board, cocked, on a
        checker) is voided and rolled again; it stays in the stream as voided. A director's
        request voids the latest roll at once; a player's waits for the opponent's (the state
        shows it as ``void_request``). 409 once a play was made from the roll."""
        return await command.run(data.side, command.matches.void_roll, data.reason)

    @guarded_post("/{match_id:uuid}/plays", guards=[MATCH_PLAYER], status_code=200, summary="Play")
    async def play(
        self, command: NamedDependency[MatchCommand], data: JSONBody[PlayCreate]
    ) -> Match:
        board = data.board
        given = (
            GivenBoard(
                tuple(board.on_roll),
                tuple(board.opponent),
                (tuple(board.pinned.on_roll), tuple(board.pinned.opponent))
                if board.pinned is not None
                else None,
            )
            if board is not None
            else None
        )
        return await command.run(
            data.side,
            command.matches.play,
            notation=data.play,
            position_id=data.position_id,
            board=given,
        )

    @guarded_post(
        "/{match_id:uuid}/cube",
        guards=[MATCH_PLAYER],
        status_code=200,
        summary="Double, take or drop (beaver and raccoon in money sessions)",
    )
    async def cube(
        self, command: NamedDependency[MatchCommand], data: JSONBody[CubeAction]
    ) -> Match:
        return await command.run(data.side, command.matches.cube, data.action)

    @guarded_post(
        "/{match_id:uuid}/resignations",
        guards=[MATCH_PLAYER],
        status_code=200,
        summary="Offer a resignation",
    )
    async def resign(
        self,
        command: NamedDependency[MatchCommand],
        data: JSONBody[ResignationCreate | None] = None,
    ) -> Match:
        body = data or ResignationCreate()
        return await command.run(body.side, command.matches.resign, body.level)

    @guarded_post(
        "/{match_id:uuid}/resignations/accept",
        guards=[MATCH_PLAYER],
        status_code=200,
        summary="Accept the resignation offered",
    )
    async def accept_resignation(
        self, command: NamedDependency[MatchCommand], data: JSONBody[SideChoice | None] = None
    ) -> Match:
        return await command.run(_side(data), command.matches.answer_resignation, True)

    @guarded_post(
        "/{match_id:uuid}/resignations/reject",
        guards=[MATCH_PLAYER],
        status_code=200,
        summary="Reject the resignation offered",
    )
    async def reject_resignation(
        self, command: NamedDependency[MatchCommand], data: JSONBody[SideChoice | None] = None
    ) -> Match:
        return await command.run(_side(data), command.matches.answer_resignation, False)

    @guarded_post(
        "/{match_id:uuid}/timeouts",
        guards=[MATCH_PLAYER],
        status_code=200,
        summary="Claim a win on time (checked against the clock)",
    )
    async def claim_timeout(
        self, command: NamedDependency[MatchCommand], data: JSONBody[SideChoice | None] = None
    ) -> Match:
        return await command.run(_side(data), command.matches.claim_timeout)

    @post(
        "/{match_id:uuid}/close",
        guards=[director_only],
        status_code=200,
        summary="Close a money session (director)",
    )
    async def close(self, command: NamedDependency[MatchCommand]) -> Match:
        return await command.run(None, command.matches.close_session)

    @get("/{match_id:uuid}/events", summary="The event stream")
    async def events(
        self, match_id: FromPath[UUID], services: ServicesDep, until_version: UntilVersion = None
    ) -> list[StreamEvent]:
        events = await _run(services, partial(services.matches.events, match_id, until_version))
        names = await _run(services, partial(services.directors.names, [e.actor for e in events]))
        return stream_events(events, names)

    @get(
        "/{match_id:uuid}/export.mat",
        summary="The match as a .mat file for GNU Backgammon",
        media_type=MediaType.TEXT,
    )
    async def export_mat(self, match_id: FromPath[UUID], services: ServicesDep) -> Response[str]:
        text = await _run(services, partial(services.matches.export_mat, match_id, services.zone))
        return Response(
            text,
            media_type=MediaType.TEXT,  # Litestar adds "; charset=utf-8"
            headers={"Content-Disposition": f'attachment; filename="match-{match_id}.mat"'},
        )

    @get(
        "/{match_id:uuid}/dice-proof",
        summary="Server dice: the seed commitment, and the seed once the match has ended",
    )
    async def dice_proof(self, match_id: FromPath[UUID], services: ServicesDep) -> DiceProofView:
        proof = await _run(services, partial(services.matches.dice_proof, match_id))
        return DiceProofView(
            dice=proof.dice_mode,
            seed_commitment=proof.commitment,
            seed=proof.seed,
            verified=proof.verified,
            algorithm=ALGORITHM if proof.dice_mode == "server" else "",
            rolls=[
                ProofRoll(
                    version=version, index=index, dice=list(dice), voided=version in proof.voided
                )
                for version, index, dice in proof.rolls
            ],
        )


async def _run(services: Services, use_case: Callable[[], T]) -> T:
    """Run a match query or the creation of a match where it is quickest for the store.

    SQLite (the default): on the event loop, a local read. PostgreSQL: in the thread pool,
    since a whole stream or a replay to a version may take several round trips, during which
    the loop goes on serving other requests.
    """
    if services.store.is_shared:
        return await anyio.to_thread.run_sync(use_case)
    return use_case()


# --- the state as the API shows it ----------------------------------------------------------
