"""Creating a match: its terms checked, recorded in ``MatchStarted`` with its first game."""

from __future__ import annotations

from datetime import datetime
from typing import cast
from uuid import UUID

from domain.backgammon.match_id import MAX_MATCH_LENGTH
from domain.clock import OVERTIME_SECONDS, PRESETS, ClockPresetName
from domain.errors import InvalidInputError
from domain.events import DomainEvent, EventBatch
from domain.match.events import (
    DiceMode,
    GameStarted,
    MatchStarted,
    MatchVariant,
    RulesName,
    SeatedPlayers,
    TavliFormat,
    TournamentPairing,
)
from domain.text import visible_name

VARIANTS: tuple[MatchVariant, ...] = (
    "backgammon",
    "portes",
    "plakoto",
    "fevga",
    "tavla",
    "nardi",
    "tavli",
)


def start_match(
    match_id: UUID,
    now: datetime,
    *,
    player_a: str,
    player_b: str,
    match_length: int,
    dice_mode: str,
    clock: str,
    clock_overtime_seconds: int = 0,
    token_hash_a: str,
    token_hash_b: str,
    rules: str = "tournament",
    jacoby: bool = False,
    beavers: bool = False,
    seed_commitment: str | None = None,
    sealed_seed: str | None = None,
    tournament_id: str | None = None,
    pairing: TournamentPairing | None = None,
    seated: SeatedPlayers | None = None,
    rated: bool = True,
    variant: str = "backgammon",
    cube: bool | None = None,
    tavli_format: str | None = None,
    actor: str | None = None,
) -> list[DomainEvent]:
    """Create a match and its first game (rules G-CUBE-2, G-CUBE-3, G-CLOCK-1, G-DICE-1,
    V-MATCH-VARIANT-1, V-CUBE-1)."""
    if not player_a.strip():
        raise InvalidInputError("player_a", "a player needs a name or id")
    if not player_b.strip():
        raise InvalidInputError("player_b", "a player needs a name or id")
    persons = pairing or seated
    if (
        persons.player_a_id == persons.player_b_id
        if persons is not None  # two registered players may share a display name
        else player_a.strip() == player_b.strip()
    ):
        # rule R-RATE-6: nobody plays against themself
        raise InvalidInputError("player_b", "both sides name the same player")
    player_a = visible_name("player_a", player_a)
    player_b = visible_name("player_b", player_b)
    if not 0 <= match_length <= MAX_MATCH_LENGTH:
        raise InvalidInputError(
            "match_length", f"is 1 to {MAX_MATCH_LENGTH} points, or 0 for a money session"
        )
    if dice_mode not in ("entered", "server"):
        raise InvalidInputError("dice", "is 'entered' or 'server'")
    if clock not in PRESETS:
        raise InvalidInputError("clock", f"is one of {', '.join(PRESETS)}")
    _check_overtime(clock, clock_overtime_seconds)
    if rules not in ("tournament", "app"):
        raise InvalidInputError("rules", "is 'tournament' or 'app'")
    if match_length and (jacoby or beavers):
        field = "jacoby" if jacoby else "beavers"
        raise InvalidInputError(field, "is a money-play option (G-CUBE-3), not for match play")
    if not match_length and PRESETS[clock].reserve_ms_per_point:
        raise InvalidInputError(
            "clock", "the club clock gives time per match point; a money session has no length"
        )
    cube_enabled = _check_variant(variant, cube, tavli_format, match_length)
    if dice_mode == "server" and not (seed_commitment and sealed_seed):
        raise InvalidInputError("dice", "server dice need a committed seed")
    batch = EventBatch[DomainEvent](match_id, 0, now, actor)
    batch.add(
        MatchStarted,
        player_a=player_a,
        player_b=player_b,
        match_length=match_length,
        dice_mode=cast(DiceMode, dice_mode),
        clock=cast(ClockPresetName, clock),
        clock_overtime_seconds=clock_overtime_seconds,
        rules=cast(RulesName, rules),
        jacoby=jacoby,
        beavers=beavers,
        token_hash_a=token_hash_a,
        token_hash_b=token_hash_b,
        seed_commitment=seed_commitment if dice_mode == "server" else None,
        sealed_seed=sealed_seed if dice_mode == "server" else None,
        tournament_id=tournament_id,
        pairing=pairing,
        seated=seated,
        rated=rated,
        variant=cast(MatchVariant, variant),
        cube=cube_enabled,
        tavli_format=cast(TavliFormat, tavli_format or "points"),
    )
    batch.add(GameStarted, game=1, crawford=False, score_a=0, score_b=0)
    return batch.events


def _check_overtime(clock: str, overtime_seconds: int) -> None:
    """rule G-CLOCK-1 (USBGF option): one overtime of 1 or 2 minutes, on the club clock."""
    if overtime_seconds not in OVERTIME_SECONDS:
        raise InvalidInputError(
            "clock_overtime_seconds", "is 0 (no overtime), 60 or 120 (G-CLOCK-1, USBGF option)"
        )
    if overtime_seconds and clock != "club":
        raise InvalidInputError(
            "clock_overtime_seconds",
            "the USBGF overtime is an option of the club clock (G-CLOCK-1), not of this one",
        )


def _check_variant(
    variant: str, cube: bool | None, tavli_format: str | None, match_length: int
) -> bool:
    """rule V-MATCH-VARIANT-1 and V-CUBE-1: the variant, and whether the cube is in play (by
    default in backgammon only)."""
    if variant not in VARIANTS:
        raise InvalidInputError("variant", f"is one of {', '.join(VARIANTS)}")
    if tavli_format not in (None, "points", "best_of_three"):
        raise InvalidInputError("tavli_format", "is 'points' or 'best_of_three'")
    if tavli_format is not None and variant != "tavli":
        raise InvalidInputError("tavli_format", "is an option of a 'tavli' match only")
    if variant == "backgammon":
        if cube is False:
            raise InvalidInputError(
                "cube", "backgammon is played with the doubling cube (G-CUBE-1)"
            )
        return True
    if not match_length:
        raise InvalidInputError(
            "match_length", f"a {variant} match is played to a length: no money sessions"
        )
    return bool(cube)
