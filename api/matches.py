"""Matches: creation, rolls, plays, cube, resignations, time claims, replay, export, dice proof.

Every command answers with the match state after it. A player token acts for its own side; the
director token acts for either side with ``"side"`` in the body. ``If-Match: <version>`` makes a
command conditional: any other version is a 409, also one another command made while it ran.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Annotated, Any, Literal, TypeVar
from uuid import UUID

import anyio
import msgspec
from litestar import Controller, MediaType, Request, Response, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath, HeaderParameter, JSONBody

from api.auth import (
    MATCH_PLAYER,
    any_director,
    director_only,
    guarded_post,
    in_thread,
    refuse_unknown_token_in_thread,
    require_token,
)
from api.schemas import (
    MAX_VERSION,
    ActingDirectorDep,
    Die,
    LegalPlay,
    PositionId,
    ServicesDep,
    StreamEvent,
    UntilVersion,
    legal_play,
    stream_events,
    version_query,
)
from domain.backgammon.match_id import MAX_MATCH_LENGTH
from domain.clock import ClockPresetName
from domain.errors import ForbiddenError, InvalidInputError
from domain.match import MAX_PLAY_LENGTH, DiceMode, Level, RulesName, Side
from domain.match import Match as MatchRecord
from service.bootstrap import Services
from service.matches import Caller, MatchService

T = TypeVar("T")
SideName = Side
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


# --- requests -------------------------------------------------------------------------------


class MatchCreate(msgspec.Struct, forbid_unknown_fields=True):
    """A match between two players; ``match_length`` 0 is a money session (G-CUBE-3)."""

    player_a: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    player_b: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    match_length: Annotated[int, msgspec.Meta(ge=0, le=MAX_MATCH_LENGTH)] = 7
    dice: DiceMode = "entered"
    clock: ClockPresetName = "none"
    rules: RulesName = "tournament"
    """``app``: bear-off without pip waste (G-OFF-2) and the app's resignations (G-RESIGN-1)."""
    jacoby: bool = False
    beavers: bool = False
    tournament_id: UUID | None = None


class RollCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Entered dice: ``[a, b]`` (at the opening roll: side a's die, side b's die). Server
    dice: ``{}``."""

    dice: Annotated[list[Die], msgspec.Meta(min_length=2, max_length=2)] | None = None
    side: SideName | None = None


class PlayCreate(msgspec.Struct, forbid_unknown_fields=True):
    """The play in gnubg notation (``"24/18 13/8"``) or the Position ID after it."""

    play: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_PLAY_LENGTH)] | None = None
    position_id: PositionId | None = None
    side: SideName | None = None


class CubeAction(msgspec.Struct, forbid_unknown_fields=True):
    action: Literal["double", "take", "drop", "beaver", "raccoon"]
    side: SideName | None = None


class ResignationCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Under the app rules the level follows from the board and may be left out."""

    level: Level | None = None
    side: SideName | None = None


class SideChoice(msgspec.Struct, forbid_unknown_fields=True):
    side: SideName | None = None


# --- responses ------------------------------------------------------------------------------


class Score(msgspec.Struct):
    a: int
    b: int


class Cube(msgspec.Struct):
    value: int
    owner: SideName | None
    offered: int | None = None
    """While a double awaits an answer: the value it would take the cube to."""


class Players(msgspec.Struct):
    a: str
    b: str


class OpeningRoll(msgspec.Struct):
    a: int
    b: int


class Resignation(msgspec.Struct):
    side: SideName
    level: str


class ClockSide(msgspec.Struct):
    reserve_seconds: float
    delay_seconds: float
    """Per-move time left in the current move."""
    running: bool
    expired: bool


class Clocks(msgspec.Struct):
    preset: str
    at: datetime
    """The instant of this reading: now, or the event's timestamp for ``?version=N``."""
    running: SideName | None
    since: datetime | None
    a: ClockSide
    b: ClockSide


class Match(msgspec.Struct):
    id: UUID
    version: int
    status: Literal["playing", "finished"]
    match_length: int
    score: Score
    crawford: bool
    post_crawford: bool
    game: int
    turn: Annotated[
        SideName | None,
        msgspec.Meta(
            description="The side whose action is due: to roll or double, to play, to answer a "
            "double or a resignation. null while the opening roll is due (both sides roll one "
            "die) and once the match is over."
        ),
    ]
    on_roll: SideName | None
    phase: str
    dice: list[int] | None
    cube: Cube
    position_id: str
    """GNU Backgammon's Position ID, from the side on roll (side a before the opening roll)."""
    match_id: str
    legal_plays: list[LegalPlay]
    clocks: Clocks | None
    players: Players
    dice_mode: str
    clock: str
    rules: str
    opening_roll: OpeningRoll | None
    resignation: Resignation | None
    winner: SideName | None
    seed_commitment: str | None
    updated_at: datetime
    tournament_id: UUID | None = None
    round: int | None = None
    """The tournament round whose pairing started the match."""
    table: int | None = None
    stage: Literal["swiss", "semi_final", "final", "third_place"] | None = None
    player_ids: PlayerIds | None = None
    """The seated players of a tournament's match: a pairing's (their registrations' tokens
    play the sides) or an ad hoc one's."""
    penalties: list[PenaltyPoints] = msgspec.field(default_factory=list)
    """Penalty points against each side, included in the opponent's score (rule C-BREAK-2)."""


class PenaltyPoints(msgspec.Struct):
    penalty_id: UUID
    side: SideName
    """The penalised side: the points count for the other."""
    points: int
    """Now counting: 0 once waived."""


class PlayerIds(msgspec.Struct):
    a: UUID
    b: UUID


class PlayerTokens(msgspec.Struct):
    a: str
    b: str


class MatchCreated(msgspec.Struct):
    id: UUID
    player_tokens: PlayerTokens
    """Shown once; the service keeps only their hashes."""
    match: Match


class ProofRoll(msgspec.Struct):
    version: int
    index: int
    dice: list[int]


class DiceProofView(msgspec.Struct):
    dice: str
    seed_commitment: str | None
    """SHA-256 (hex) of the seed, published when the match started."""
    seed: str | None
    """The seed (hex), revealed when the match has ended; null before."""
    verified: bool | None
    algorithm: str
    rolls: list[ProofRoll]


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
        player_a, player_b = data.player_a, data.player_b
        seated = None
        # rule C-DIR-1: a match outside any tournament is the club's
        await in_thread(
            services,
            partial(services.directors.authorize_tournament, acting_director, data.tournament_id),
        )
        if data.tournament_id is not None:
            # a match of a running tournament between two of its seated players, by their ids
            player_a, player_b, seated = await _run(
                services,
                partial(services.rounds.check_seated, data.tournament_id, player_a, player_b),
            )
        created = await _run(
            services,
            partial(
                services.matches.create,
                player_a=player_a,
                player_b=player_b,
                match_length=data.match_length,
                dice=data.dice,
                clock=data.clock,
                rules_preset=data.rules,
                jacoby=data.jacoby,
                beavers=data.beavers,
                tournament_id=str(data.tournament_id) if data.tournament_id else None,
                seated=seated,
                actor=acting_director.actor,
            ),
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

    @guarded_post("/{match_id:uuid}/plays", guards=[MATCH_PLAYER], status_code=200, summary="Play")
    async def play(
        self, command: NamedDependency[MatchCommand], data: JSONBody[PlayCreate]
    ) -> Match:
        return await command.run(
            data.side, command.matches.play, notation=data.play, position_id=data.position_id
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
                ProofRoll(version=version, index=index, dice=list(dice))
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


def match_view(state: MatchRecord, at: datetime) -> Match:
    """The match state; ``at`` is the instant its clocks are read at."""
    phase = state.phase
    dice = state.dice
    pairing = state.pairing
    return Match(
        id=state.id,
        version=state.version,
        status="finished" if state.is_over else "playing",
        match_length=state.match_length,
        score=Score(a=state.score_a, b=state.score_b),
        crawford=state.crawford,
        post_crawford=state.post_crawford,
        game=state.game,
        turn=state.turn,
        on_roll=state.on_roll,
        phase=phase,
        dice=list(dice) if dice else None,
        cube=Cube(
            value=state.cube_value,
            owner=state.cube_owner,
            offered=state.offered_value if phase == "cube" else None,
        ),
        position_id=state.position.position_id,
        match_id=state.match_id,
        legal_plays=[legal_play(play) for play in state.plays()],
        clocks=_clocks(state, at),
        players=Players(a=state.player_a, b=state.player_b),
        dice_mode=state.dice_mode,
        clock=state.clock_preset,
        rules=state.rules,
        opening_roll=OpeningRoll(*state.opening_roll) if state.opening_roll else None,
        resignation=(
            Resignation(side=state.resigner, level=state.resignation)
            if state.resigner and state.resignation
            else None
        ),
        winner=state.winner,
        seed_commitment=state.seed_commitment,
        updated_at=state.updated_at,
        tournament_id=UUID(state.tournament_id) if state.tournament_id else None,
        round=pairing.round if pairing else None,
        table=pairing.table if pairing else None,
        stage=pairing.stage if pairing else None,  # type: ignore[arg-type]
        player_ids=PlayerIds(*state.player_ids) if state.player_ids else None,
        penalties=[PenaltyPoints(p.id, p.side, p.points) for p in state.penalties],
    )


def _clocks(state: MatchRecord, at: datetime) -> Clocks | None:
    preset = state.preset
    if not preset.is_timed:
        return None
    clock = state.clock
    sides = {}
    for side in ("a", "b"):
        reading = clock.read(preset, side, at)
        sides[side] = ClockSide(
            reserve_seconds=reading.reserve_ms / 1000,
            delay_seconds=reading.delay_ms / 1000,
            running=reading.running,
            expired=reading.expired,
        )
    return Clocks(
        preset=preset.name,
        at=at,
        running=clock.running,
        since=clock.since,
        a=sides["a"],
        b=sides["b"],
    )
