"""What the match endpoints take and answer: the request bodies, and the match as shown (its
score, cube, clocks and legal plays, read at an instant).

``SideName`` is the domain's side ("a" or "b") as the bodies name it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, cast
from uuid import UUID

import msgspec

from api.http.schemas import (
    Die,
    LegalPlay,
    PositionId,
    legal_play,
)
from api.matches.variant_analysis import (
    VariantBoardBody,
    VariantBoardView,
    VariantLegalPlay,
    board_view,
    variant_legal_play_items,
)
from domain.backgammon.match_id import MAX_MATCH_LENGTH
from domain.clock import ClockPresetName
from domain.match import MAX_PLAY_LENGTH, DiceMode, Level, MatchVariant, RulesName, Side
from domain.match import Match as MatchRecord
from domain.match.voids import MAX_REASON_LENGTH
from domain.tournament import Stage as StageName
from domain.variants import Variant
from service.shared.day_views import Score

SideName = Side


# --- requests -------------------------------------------------------------------------------


class MatchCreate(msgspec.Struct, forbid_unknown_fields=True):
    """A match between two players; ``match_length`` 0 is a money session (G-CUBE-3)."""

    player_a: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    player_b: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]
    match_length: Annotated[int, msgspec.Meta(ge=0, le=MAX_MATCH_LENGTH)] = 7
    dice: DiceMode = "entered"
    clock: ClockPresetName = "none"
    clock_overtime_seconds: Literal[0, 60, 120] = 0
    """rule G-CLOCK-1, USBGF option (club clock): one overtime of 1 or 2 minutes after the
    first expiry; the second expiry loses."""
    rules: RulesName = "tournament"
    """``app``: bear-off without pip waste (G-OFF-2) and the app's resignations (G-RESIGN-1)."""
    jacoby: bool = False
    beavers: bool = False
    tournament_id: UUID | None = None
    rated: bool = True
    """rule R-RATE-5: ``false`` for a friendly. A rated match's sides name players of the
    rating list (rule R-RATE-7): a player id, or a display name (a new name adds a player)."""
    variant: MatchVariant = "backgammon"
    """rule V-MATCH-VARIANT-1: the board every game is played on (``tavli``: the cycle)."""
    cube: bool | None = None
    """rule V-CUBE-1: the doubling cube; by default on in backgammon only."""
    tavli_format: Literal["points", "best_of_three"] | None = None
    """rule V-TAVLI-MATCH-1, for ``tavli`` only: to ``match_length`` points (default)."""


class RollCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Entered dice: ``[a, b]`` (at the opening roll: side a's die, side b's die). Server
    dice: ``{}``."""

    dice: Annotated[list[Die], msgspec.Meta(min_length=2, max_length=2)] | None = None
    side: SideName | None = None


class PlayCreate(msgspec.Struct, forbid_unknown_fields=True):
    """The play in gnubg notation (``"24/18 13/8"``) or the Position ID after it; in a variant
    game the notation or the board after it (the opponent on roll)."""

    play: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_PLAY_LENGTH)] | None = None
    position_id: PositionId | None = None
    board: VariantBoardBody | None = None
    side: SideName | None = None


class CubeAction(msgspec.Struct, forbid_unknown_fields=True):
    action: Literal["double", "take", "drop", "beaver", "raccoon"]
    side: SideName | None = None


class ResignationCreate(msgspec.Struct, forbid_unknown_fields=True):
    """Under the app rules the level follows from the board and may be left out."""

    level: Level | None = None
    side: SideName | None = None


class RollVoid(msgspec.Struct, forbid_unknown_fields=True):
    """rule G-DICE-2: why the latest roll does not count (a die off the board, cocked, on a
    checker). A director names no side (or any); a player's token asks for its own side."""

    reason: Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_REASON_LENGTH)]
    side: SideName | None = None


class SideChoice(msgspec.Struct, forbid_unknown_fields=True):
    side: SideName | None = None


# --- responses ------------------------------------------------------------------------------


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
    overtime: bool = False
    """The side's overtime has begun (G-CLOCK-1, USBGF option): its next expiry loses."""


class Clocks(msgspec.Struct):
    preset: str
    at: datetime
    """The instant of this reading: now, or the event's timestamp for ``?version=N``."""
    running: SideName | None
    since: datetime | None
    a: ClockSide
    b: ClockSide
    overtime_seconds: int = 0
    """The USBGF overtime each side gets once (G-CLOCK-1): 0, 60 or 120."""


class VoidRequest(msgspec.Struct):
    """rule G-DICE-2: a player asked to void the latest roll; the opponent's request voids it."""

    side: SideName


_EITHER_LEGAL_PLAY = msgspec.Meta(
    extra_json_schema={
        # Litestar copies "extra" onto the field's schema. msgspec cannot type an untagged union
        # of two Structs, so the field is typed by backgammon's item and its items are declared
        # here as one of the two shapes the analysis endpoint answers (API.md "Variants").
        "extra": {
            "items": {
                "oneOf": [
                    {"$ref": f"#/components/schemas/{LegalPlay.__name__}"},
                    {"$ref": f"#/components/schemas/{VariantLegalPlay.__name__}"},
                ]
            }
        }
    }
)


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
    cube: Cube | None
    """null while the cube is off (V-CUBE-1)."""
    position_id: str | None
    """GNU Backgammon's Position ID, from the side on roll (side a before the opening roll);
    null in plakoto, fevga and nardi games."""
    match_id: str | None
    legal_plays: Annotated[list[LegalPlay], _EITHER_LEGAL_PLAY]
    """Backgammon's plays, or in a variant game the items of the variant analysis
    (``VariantLegalPlay``; the encoder writes either, the document declares both)."""
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
    stage: StageName | None = None
    player_ids: PlayerIds | None = None
    """The seated players of a tournament's match: a pairing's (their registrations' tokens
    play the sides) or an ad hoc one's; for a rated ad hoc match, the players of the rating
    list its sides named (rule R-RATE-7)."""
    penalties: list[PenaltyPoints] = msgspec.field(default_factory=list)
    """Penalty points against each side, included in the opponent's score (rule C-BREAK-2)."""
    void_request: VoidRequest | None = None
    """A player's request to void the latest roll, waiting for the opponent's (G-DICE-2)."""
    variant: str = "backgammon"
    """rule V-MATCH-VARIANT-1."""
    game_variant: str = "backgammon"
    """The variant of the game in progress."""
    cube_enabled: bool = True
    board: VariantBoardView | None = None
    """A variant game's board seen from the side on roll (the analysis encoding); null in
    backgammon."""
    games: list[FinishedGameView] = msgspec.field(default_factory=list)
    """The finished games."""


class FinishedGameView(msgspec.Struct):
    game: int
    variant: str
    winner: SideName | None
    result: Literal["single", "gammon", "backgammon", "mother", "draw"]
    points: int


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
    voided: bool = False
    """The roll was voided and rolled again (rule G-DICE-2); the seed reproduces it all the
    same."""


class DiceProofView(msgspec.Struct):
    dice: str
    seed_commitment: str | None
    """SHA-256 (hex) of the seed, published when the match started."""
    seed: str | None
    """The seed (hex), revealed when the match has ended; null before."""
    verified: bool | None
    algorithm: str
    rolls: list[ProofRoll]


def match_view(state: MatchRecord, at: datetime) -> Match:
    """The match state; ``at`` is the instant its clocks are read at."""
    dice = state.dice
    pairing = state.pairing
    view = Match(
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
        phase=state.phase,
        dice=list(dice) if dice else None,
        cube=_cube(state),
        position_id=state.position.position_id,
        match_id=state.match_id,
        legal_plays=list(map(legal_play, state.plays(), state.play_notations())),
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
        void_request=_void_request(state),
    )
    if state.variant == "backgammon":
        return view
    return msgspec.structs.replace(view, **_variant_fields(state))


def _variant_fields(state: MatchRecord) -> dict[str, Any]:
    """API.md "Matches and tournaments: variants": what a match shows beyond backgammon's."""
    board = state.variant_board
    variant = state.game_variant
    fields: dict[str, Any] = {
        "variant": state.variant,
        "game_variant": variant.value if variant else "backgammon",
        "cube_enabled": state.cube_enabled,
        "cube": None if not state.cube_enabled else _cube(state),
        "games": [
            FinishedGameView(g.game, g.variant, g.winner, g.result or "draw", g.points)
            for g in state.games
        ],
    }
    if board is None:
        return fields
    fields["board"] = board_view(board)
    if variant not in (Variant.PORTES, Variant.TAVLA):
        fields["position_id"] = fields["match_id"] = None
    fields["legal_plays"] = (
        cast(list[VariantLegalPlay], list(variant_legal_play_items(board, state.dice)))
        if state.phase == "move" and state.dice
        else []
    )
    return fields


def _cube(state: MatchRecord) -> Cube:
    return Cube(
        value=state.cube_value,
        owner=state.cube_owner,
        offered=state.offered_value if state.phase == "cube" else None,
    )


def _void_request(state: MatchRecord) -> VoidRequest | None:
    latest = state.latest_roll
    if latest is None or latest.void_asked_by is None:
        return None
    return VoidRequest(side=latest.void_asked_by)


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
            overtime=reading.overtime,
        )
    return Clocks(
        preset=preset.name,
        at=at,
        running=clock.running,
        since=clock.since,
        a=sides["a"],
        b=sides["b"],
        overtime_seconds=preset.overtime_ms // 1000,
    )
