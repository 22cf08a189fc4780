"""Commands of a match: pure functions ``(state, primitives, now) -> events``."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from domain.backgammon import (
    GameResult,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
    Play,
    Position,
    validate_dice,
)
from domain.backgammon.cache import cached_format_play, cached_legal_plays
from domain.backgammon.match_id import (
    MAX_CUBE_VALUE,
)
from domain.backgammon.notation import NotationError, format_dice, parse_play
from domain.backgammon.position import CHECKERS_PER_SIDE
from domain.dice import seed_commitment
from domain.errors import ConflictError, InvalidInputError
from domain.events import DomainEvent, EventBatch
from domain.match.early import decide_early
from domain.match.errors import (
    ClockNotExpiredError,
    CubeDisabledError,
    CubeNotAvailableError,
    IllegalPlayRejectedError,
    MatchOverError,
    NotYourTurnError,
    WrongPhaseError,
)
from domain.match.events import (
    LEVELS,
    MAX_PLAY_LENGTH,
    CheckersPlayed,
    CubeBeavered,
    CubeDropped,
    CubeOffered,
    CubeRaccooned,
    CubeTaken,
    DiceRolled,
    DiceSeedRevealed,
    GameDrawn,
    GameResultName,
    GameStarted,
    GameWon,
    Level,
    MatchVoided,
    MatchWon,
    OpeningRollMade,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    SessionClosed,
    Side,
    TimeoutClaimed,
    TurnPassed,
    VariantCheckersPlayed,
    WinReason,
    other,
)
from domain.match.state import Match
from domain.match.variant_plays import GivenBoard, chosen_variant_play
from domain.variants import VariantResult, cached_variant_legal_plays


def roll(
    state: Match,
    side: Side | None,
    dice: Iterable[int],
    now: datetime,
    *,
    actor: str | None = None,
    roll_index: int | None = None,
    entered_by: Side | None = None,
) -> list[DomainEvent]:
    """Record a roll: the opening roll (one die each, G-OPEN-1) or the side on roll's dice.

    A roll that cannot be played passes the turn at once (G-MAX-1). Entered dice record
    ``entered_by``, the side whose token entered them: at a physical board either side may
    enter both dice, also the opponent's opening die.
    """
    _require_playing(state)
    try:
        die_1, die_2 = validate_dice(dice)
    except InvalidDiceError as error:
        raise InvalidInputError("dice", str(error)) from None
    if state.dice_mode == "server" and roll_index != state.server_rolls:
        raise ConflictError("server dice come from the match's seed, in order")
    index = roll_index if state.dice_mode == "server" else None
    batch = EventBatch[DomainEvent].after(state, now, actor)
    if state.phase == "opening":
        starter: Side | None = None if die_1 == die_2 else ("a" if die_1 > die_2 else "b")
        batch.add(
            OpeningRollMade,
            die_a=die_1,
            die_b=die_2,
            starter=starter,
            roll_index=index,
            entered_by=entered_by,
        )
        return batch.events
    if state.phase != "roll":
        raise WrongPhaseError(_phase_problem(state, "roll"))
    mover = _acting(state, side)
    batch.add(DiceRolled, side=mover, dice=(die_1, die_2), roll_index=index, entered_by=entered_by)
    if state.game_variant is not None:
        board = state.variant_board
        assert board is not None
        can_play = bool(cached_variant_legal_plays(board, (die_1, die_2)))
    else:
        can_play = bool(cached_legal_plays(state.position, (die_1, die_2), state.options))
    if not can_play:
        batch.add(TurnPassed, side=mover, dice=(die_1, die_2))
    return batch.events


def play(
    state: Match,
    side: Side | None,
    now: datetime,
    *,
    notation: str | None = None,
    position_id: str | None = None,
    board: GivenBoard | None = None,
    actor: str | None = None,
) -> list[DomainEvent]:
    """Record a legal play given in gnubg notation or as the Position ID after it (in a
    variant game: the notation, or the board after it).

    rule G-LEGAL-1: an illegal play is rejected with the reason and nothing is stored.
    """
    _require_playing(state)
    if state.phase != "move" or state.dice is None:
        raise WrongPhaseError(_phase_problem(state, "move"))
    mover = _acting(state, side)
    if state.game_variant is not None:
        return _variant_play(state, mover, now, notation, position_id, board, actor)
    if board is not None:
        raise InvalidInputError("board", "a backgammon play is given as notation or position_id")
    chosen, chosen_notation = _chosen_play(state, notation, position_id)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(
        CheckersPlayed,
        side=mover,
        dice=state.dice,
        play=chosen_notation,
        moves=tuple((move.source, move.destination, move.hit) for move in chosen.moves),
        position_id=chosen.position_id,
    )
    if chosen.game_result is not None:
        result: Level = chosen.game_result.value
        _end_game(state, batch, mover, result, "bear_off", _points(state, chosen.game_result))
    return batch.events


def _variant_play(
    state: Match,
    mover: Side,
    now: datetime,
    notation: str | None,
    position_id: str | None,
    board: GivenBoard | None,
    actor: str | None,
) -> list[DomainEvent]:
    """rules V-MAX-1, V-WIN-1, V-PLAKOTO-7/8: a variant play and the game's end it brings."""
    assert state.dice is not None
    chosen = chosen_variant_play(state, notation, position_id, board)
    after = chosen.board
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(
        VariantCheckersPlayed,
        side=mover,
        dice=state.dice,
        play=chosen.notation,
        moves=tuple((step.source, step.destination, step.hit) for step in chosen.steps),
        on_roll=after.on_roll,
        opponent=after.opponent,
        pinned_on_roll=after.pinned_on_roll,
        pinned_opponent=after.pinned_opponent,
    )
    result = chosen.game_result
    if result is VariantResult.DRAW:
        batch.add(GameDrawn, game=state.game, score_a=state.score_a, score_b=state.score_b)
        # rule V-TAVLI-MATCH-1: replayed, started by the side that started the drawn game
        starter = state.game_starter if state.variant == "tavli" else None
        _next_game(state, batch, state.score_a, state.score_b, starter)
    elif result is not None:
        reason: WinReason = "mother" if result is VariantResult.MOTHER else "bear_off"
        points = result.points * state.cube_value
        _end_game(state, batch, mover, result.value, reason, points)  # type: ignore[arg-type]
    return batch.events


def _chosen_play(state: Match, notation: str | None, position_id: str | None) -> tuple[Play, str]:
    """The legal play named by its notation or the Position ID after it, with its notation."""
    assert state.dice is not None
    legal = tuple(zip(state.plays(), state.play_notations(), strict=True))
    if (notation is None) == (position_id is None):
        raise InvalidInputError("play", "give either 'play' (notation) or 'position_id'")
    if position_id is not None:
        try:
            Position.from_position_id(position_id)
        except InvalidPositionError as error:
            raise InvalidInputError("position_id", str(error)) from None
        for candidate, shown in legal:
            if candidate.position_id == position_id:
                return candidate, shown
        raise IllegalPlayRejectedError(
            f"no legal play of {format_dice(state.dice)} leads to position {position_id} "
            "(G-LEGAL-1)"
        )
    assert notation is not None
    if len(notation) > MAX_PLAY_LENGTH:  # parsing is not free: never read an essay
        raise InvalidInputError("play", f"is at most {MAX_PLAY_LENGTH} characters of notation")
    text = notation.strip()
    for candidate, shown in legal:  # the usual case: the notation the service itself showed
        if shown == text:
            return candidate, shown
    try:
        parsed = parse_play(text, state.position, state.dice, state.options)
    except NotationError as error:
        raise InvalidInputError("play", str(error)) from None
    except IllegalPlayError as error:
        raise IllegalPlayRejectedError(f"illegal play: {error} (G-LEGAL-1)") from None
    return parsed, cached_format_play(parsed)


def double(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-1: before rolling, the side on roll doubles if the cube is centred or its
    own; rule G-CUBE-2: never in the Crawford game."""
    _require_playing(state)
    if state.phase != "roll":
        raise WrongPhaseError(_phase_problem(state, "double"))
    doubler = _acting(state, side)
    if state.reroll_due:
        raise CubeNotAvailableError(
            f"side {doubler} rolled already and rolls again after the void (G-DICE-2): the "
            "cube decision of this turn was made"
        )
    if not state.cube_enabled:
        raise CubeDisabledError(
            f"this {state.variant} match is played without the doubling cube (V-CUBE-1)"
        )
    if state.crawford:
        raise CubeNotAvailableError(
            "no doubling in the Crawford game (G-CUBE-2): the cube returns after this game"
        )
    if state.cube_owner == other(doubler):
        raise CubeNotAvailableError(
            f"side {other(doubler)} owns the cube: only the owner may redouble (G-CUBE-1)"
        )
    value = _redoubled(state.cube_value)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeOffered, side=doubler, value=value)
    return batch.events


def take(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-1: the doubled side takes, owns the cube, and the value doubles."""
    taker = _cube_responder(state, side, "take")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeTaken, side=taker, value=state.offered_value)
    return batch.events


def drop(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-1: a drop loses the game at the value before the double, no gammons."""
    dropper = _cube_responder(state, side, "drop")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeDropped, side=dropper, value=state.cube_value)
    _end_game(state, batch, other(dropper), "single", "drop", state.cube_value)
    return batch.events


def beaver(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-3 (money sessions with beavers): take and redouble at once, keeping the
    cube."""
    beaverer = _cube_responder(state, side, "beaver")
    if not (state.is_money_session and state.beavers):
        raise CubeNotAvailableError("beavers are a money-play option this match does not use")
    assert state.offered_value is not None
    value = _redoubled(state.offered_value)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeBeavered, side=beaverer, value=value)
    return batch.events


def raccoon(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-CUBE-3: right after a beaver, the doubler may redouble again, keeping the cube."""
    _require_playing(state)
    if not state.raccoon_allowed or state.phase != "roll":
        raise WrongPhaseError("a raccoon answers a beaver, before the doubler rolls")
    raccooner = _acting(state, side)
    value = _redoubled(state.cube_value)
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(CubeRaccooned, side=raccooner, value=value)
    return batch.events


def offer_resignation(
    state: Match,
    side: Side,
    level: str | None,
    now: datetime,
    *,
    actor: str | None = None,
) -> list[DomainEvent]:
    """rule G-RESIGN-1: offer a single, gammon or backgammon.

    Preset app: the level follows from the board (gammon if the resigner bore off nothing,
    single otherwise) and the game ends at once.
    """
    _require_playing(state)
    if state.phase not in ("roll", "move"):
        raise WrongPhaseError(_phase_problem(state, "resign"))
    if state.variant != "backgammon" and level == "backgammon":
        raise InvalidInputError(
            "level", "a variant game is resigned as a single or a gammon (V-RESIGN-1)"
        )
    if state.rules == "app":
        checkers = state.board(side)
        if state.game_variant is not None:  # V-RESIGN-1: the variant board's checkers
            checkers = state.variant_a if side == "a" else state.variant_b
        borne_off = CHECKERS_PER_SIDE - sum(checkers)
        fixed: Level = "single" if borne_off else "gammon"
        if level is not None and level != fixed:
            raise InvalidInputError(
                "level",
                f"under the app rules a resignation is a {fixed} here (G-RESIGN-1: gammon "
                "if the resigner bore off nothing, single otherwise)",
            )
        batch = EventBatch[DomainEvent].after(state, now, actor)
        batch.add(ResignationOffered, side=side, level=fixed)
        batch.add(ResignationAccepted, side=other(side), level=fixed, automatic=True)
        _end_game(state, batch, other(side), fixed, "resignation", _level_points(state, fixed))
        return batch.events
    if level not in LEVELS:
        raise InvalidInputError("level", "is 'single', 'gammon' or 'backgammon'")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(ResignationOffered, side=side, level=level)
    return batch.events


def accept_resignation(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """The resignation's level times the cube goes to the accepting side (G-RESIGN-1)."""
    accepter = _resignation_responder(state, side)
    assert state.resignation is not None
    level = state.resignation
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(ResignationAccepted, side=accepter, level=level)
    _end_game(state, batch, accepter, level, "resignation", _level_points(state, level))
    return batch.events


def reject_resignation(
    state: Match, side: Side | None, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """Play goes on where the offer interrupted it."""
    rejecter = _resignation_responder(state, side)
    assert state.resignation is not None
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(ResignationRejected, side=rejecter, level=state.resignation)
    return batch.events


def claim_timeout(
    state: Match, side: Side, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """Claim a win on time, checked against the clock at ``now`` (G-CLOCK-1, G-CLOCK-2).

    Club preset: the side out of time loses the match (with the USBGF overtime, at its second
    expiry: the first draws the overtime, see ``domain.clock``). App and online30: the game is
    won as a gammon, times the cube (in a money session with the Jacoby rule, a single while
    the cube is centred, G-CUBE-3).
    """
    _require_playing(state)
    preset = state.preset
    if not preset.is_timed:
        raise ConflictError("this match is played without a clock")
    flagged = state.clock.running
    if flagged is None or flagged == side:
        raise ClockNotExpiredError(
            f"side {side} can claim only while the opponent's clock runs"
            if flagged is None
            else f"side {side}'s own clock is running: only the opponent can claim"
        )
    reserve = state.clock.reserve(flagged)
    used = state.clock.elapsed(now)
    if not state.clock.is_expired(preset, now):
        left = (state.clock.limit(preset, flagged) - used) / 1000
        overtime = " (its overtime included, G-CLOCK-1)" if preset.overtime_ms else ""
        raise ClockNotExpiredError(f"side {flagged} still has {left:.1f} s on the clock{overtime}")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(
        TimeoutClaimed,
        side=side,
        flagged=flagged,
        reserve_ms=reserve,
        used_ms=used,
        outcome=preset.timeout_outcome,
        overtime_ms=state.clock.allowance(preset, flagged) - reserve,
    )
    if preset.timeout_outcome == "match":
        decide_early(state, batch, side, "timeout")
    else:
        _end_game(state, batch, side, "gammon", "timeout", _level_points(state, "gammon"))
    return batch.events


def close_session(state: Match, now: datetime, *, actor: str | None = None) -> list[DomainEvent]:
    """End a money session; its running total stands (rule G-CUBE-3, seed 003)."""
    _require_playing(state)
    if not state.is_money_session:
        raise ConflictError("a match ends when a side reaches the match length, not on request")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(SessionClosed, score_a=state.score_a, score_b=state.score_b)
    return batch.events


def reveal_seed(
    state: Match, seed: bytes, now: datetime, *, actor: str | None = None
) -> list[DomainEvent]:
    """rule G-DICE-1: publish the server dice seed once the match is over."""
    if state.dice_mode != "server" or state.seed_commitment is None:
        raise ConflictError("this match uses entered dice: there is no seed")
    if not state.is_over:
        raise ConflictError("the seed is revealed only when the match has ended")
    if state.revealed_seed is not None:
        raise ConflictError("the seed has been revealed already")
    if seed_commitment(seed) != state.seed_commitment:
        raise ConflictError("this seed does not match the commitment")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(DiceSeedRevealed, seed=seed.hex())
    return batch.events


# Rules helpers --------------------------------------------------------------------------


def _end_game(
    state: Match,
    batch: EventBatch[DomainEvent],
    winner: Side,
    result: GameResultName,
    reason: WinReason,
    points: int,
) -> None:
    """rule G-WIN-1 and G-CUBE-2: score the game, then end the match or start the next game
    (the Crawford game when a side has just reached match length - 1)."""
    score_a = state.score_a + (points if winner == "a" else 0)
    score_b = state.score_b + (points if winner == "b" else 0)
    batch.add(
        GameWon,
        game=state.game,
        winner=winner,
        result=result,
        reason=reason,
        cube=state.cube_value,
        points=points,
        score_a=score_a,
        score_b=score_b,
    )
    length = state.match_length
    if state.variant == "tavli" and state.tavli_format == "best_of_three":
        # rule V-TAVLI-MATCH-1: the first to win two games wins the match
        decided = 1 + sum(game.winner == winner for game in state.games) >= 2
    else:
        decided = bool(length) and max(score_a, score_b) >= length
    if decided:
        batch.add(MatchWon, winner=winner, score_a=score_a, score_b=score_b)
        return
    # rule V-TAVLI-MATCH-1: a later Tavli game is started by the previous game's winner
    _next_game(state, batch, score_a, score_b, winner if state.variant == "tavli" else None)


def _next_game(
    state: Match,
    batch: EventBatch[DomainEvent],
    score_a: int,
    score_b: int,
    starter: Side | None = None,
) -> None:
    """The next game; rule G-CUBE-2 (and V-CUBE-1: only with the cube), the Crawford game
    when a side has just reached match length - 1. ``starter``: a later Tavli game, which
    its side begins by rolling both dice (no opening roll)."""
    length = state.match_length
    crawford = (
        bool(length)
        and state.cube_enabled
        and not state.crawford_played
        and (score_a == length - 1 or score_b == length - 1)
    )
    batch.add(
        GameStarted,
        game=state.game + 1,
        crawford=crawford,
        score_a=score_a,
        score_b=score_b,
        starter=starter,
    )


def _points(state: Match, result: GameResult) -> int:
    """rule G-WIN-1 times the cube; rule G-CUBE-3 Jacoby: gammons count only once the cube
    was turned."""
    multiplier = result.multiplier
    if state.jacoby and state.cube_value == 1:
        multiplier = 1
    return multiplier * state.cube_value


def _level_points(state: Match, level: Level) -> int:
    return _points(state, GameResult(level))


def _require_playing(state: Match) -> None:
    if state.is_over:
        raise MatchOverError("the match is over: nothing more can be recorded")


def _acting(state: Match, side: Side | None) -> Side:
    """The side whose action is due; another side gets a 403."""
    due = state.turn
    assert due is not None
    if side is not None and side != due:
        raise NotYourTurnError(f"it is side {due}'s turn, not side {side}'s")
    return due


def _cube_responder(state: Match, side: Side | None, action: str) -> Side:
    _require_playing(state)
    if state.phase != "cube" or state.offered_value is None:
        raise WrongPhaseError(f"cannot {action}: no double has been offered")
    return _acting(state, side)


def _resignation_responder(state: Match, side: Side | None) -> Side:
    _require_playing(state)
    if state.phase != "resignation" or state.resignation is None:
        raise WrongPhaseError("no resignation has been offered")
    return _acting(state, side)


def _phase_problem(state: Match, action: str) -> str:
    due = {
        "opening": "the opening roll is due (one die each)",
        "roll": f"side {state.on_roll} is to double or roll",
        "move": f"side {state.on_roll} has rolled and must play",
        "cube": f"side {state.turn} must answer the double (take or drop)",
        "resignation": f"side {state.turn} must answer the resignation",
        "match_over": "the match is over",
    }[state.phase]
    return f"cannot {action} now: {due}"


def _redoubled(value: int) -> int:
    """The cube's next value (G-CUBE-1), within what a Match ID can hold."""
    if value * 2 > MAX_CUBE_VALUE:
        raise CubeNotAvailableError(f"the cube goes no higher than {MAX_CUBE_VALUE}")
    return value * 2


def void(
    state: Match, now: datetime, *, reason: str = "", actor: str | None = None
) -> list[DomainEvent]:
    """The tournament took back this match's pairing: closed without a result."""
    if state.is_over:
        raise ConflictError("the match is over: it has its result")
    batch = EventBatch[DomainEvent].after(state, now, actor)
    batch.add(MatchVoided, reason=reason)
    return batch.events
