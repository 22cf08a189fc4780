"""Write GNU Backgammon's legal plays for thousands of positions and rolls, as a test reference.

Runs inside GNU Backgammon's embedded Python; the committed file came from gnubg 1.07.001:

    cd /work/main
    /usr/games/gnubg -t -q -p tests/reference/generate_gnubg_reference.py > /dev/null

Settings come from the environment (``gnubg -p`` passes no arguments):
``GNUBG_REFERENCE_OUT`` (default ``tests/reference/gnubg_legal_plays.jsonl.gz``),
``GNUBG_REFERENCE_SEED`` (default 1, the committed file) and ``GNUBG_REFERENCE_SCALE``
(default 1.0: the share of each kind of case to write; the live test asks for a few dozen).

Each line is one case: ``{"kind", "id", "dice", "plays"}``. ``id`` is the Position ID with
the side on roll to play ``dice`` (larger first). ``plays`` lists every legal play as
``[gnubg's notation, Position ID after the play]``, plus ``"single"``, ``"gammon"`` or
``"backgammon"`` when the play bears off the last checker. After a play gnubg shows the board
with the opponent on roll, so the ID after a play encodes the player who moved first.

How the plays are found: ``hint`` at 0 ply lists every legal play, one per resulting
position (gnubg's ``FindnSaveBestMoves`` keeps all of ``GenerateMoves`` when no ply filters
run). Each listed move is then made with the ``move`` command from the same board and dice;
gnubg's board afterwards gives the resulting ID. A game-ending play is scored by gnubg in a
money session (cube 1, Jacoby off): 1, 2 or 3 points for single, gammon and backgammon.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator

import gnubg  # type: ignore[import-not-found]  # exists only inside GNU Backgammon

Board = tuple[list[int], list[int]]
"""gnubg's board: (side not on roll, side on roll), 25 counts each, index 24 = bar."""
Case = dict[str, object]

RESULTS = {1: "single", 2: "gammon", 3: "backgammon"}
OUT = os.environ.get("GNUBG_REFERENCE_OUT", "tests/reference/gnubg_legal_plays.jsonl.gz")
SEED = int(os.environ.get("GNUBG_REFERENCE_SEED", "1"))
SCALE = float(os.environ.get("GNUBG_REFERENCE_SCALE", "1.0"))

# Cases of each kind at scale 1 (5,900 in all).
TARGETS = {
    "game": 2200,  # every roll of random games from the opening: contact, hits, bear-offs
    "bar": 600,  # checkers on the bar against 0 to 6 closed home points
    "prime": 500,  # checkers behind a prime: often one die, or only the larger, can be played
    "bearoff": 500,  # all home, bearing off with any dice, in a race or in contact
    "game-end": 400,  # few checkers left: plays that end the game as single/gammon/backgammon
    "bearoff-hit": 200,  # bearing off while opposing blots sit in the home board
    "hit-bearing-off": 200,  # hitting a side that is bearing off
    "reenter-bearoff": 200,  # hit while bearing off: enter before bearing off again
    "doubles": 400,  # doubles in random contact positions
    "race": 300,  # no contact
    "contact": 400,  # random positions, both sides anywhere
}


def command(text: str) -> None:
    gnubg.command(text)


def match_key() -> int:
    """gnubg's Match ID as an integer; only the game state and turn are read here."""
    return int.from_bytes(base64.b64decode(str(gnubg.matchid())), "little")


def game_state() -> int:
    return (match_key() >> 8) & 7


def turn() -> int:
    return (match_key() >> 11) & 1


def position_id(board: Board) -> str:
    return str(gnubg.positionid(board))


def board_from_id(pid: str) -> Board:
    opponent, on_roll = gnubg.positionfromid(pid)
    return list(opponent), list(on_roll)


def set_up(pid: str, dice: tuple[int, int]) -> None:
    command(f"set board {pid}")
    command(f"set dice {dice[0]} {dice[1]}")


def start_session() -> None:
    """A fresh money session: cube 1, no Jacoby rule, so a game's points are its result."""
    command("new session")
    if game_state() != 1:
        raise RuntimeError("gnubg did not start a game")


def legal_plays(pid: str, dice: tuple[int, int]) -> list[list[str]]:
    """Every legal play of ``dice`` in ``pid`` as gnubg lists and makes it."""
    set_up(pid, dice)
    hint = gnubg.hint(100000)
    if hint is None or not str(hint["gnubgid"]).startswith(pid + ":"):
        raise RuntimeError(f"gnubg gave a hint for another position than {pid}")
    plays = []
    for entry in hint["hint"]:
        notation = str(entry["move"])
        set_up(pid, dice)
        mover = turn()
        command(f"move {notation}")
        after = str(gnubg.positionid())
        if game_state() == 2:
            points = int(gnubg.match(0, 0, 0, 0)["games"][-1]["info"]["points-won"])
            plays.append([notation, after, RESULTS[points]])
            start_session()
        elif game_state() == 1 and turn() != mover:
            plays.append([notation, after])
        else:
            raise RuntimeError(f"gnubg refused its own move {notation} in {pid} {dice}")
    if len({play[1] for play in plays}) != len(plays):
        raise RuntimeError(f"gnubg listed two plays to one position in {pid} {dice}")
    return sorted(plays, key=lambda play: play[1])


def roll(rng: random.Random) -> tuple[int, int]:
    first, second = rng.randint(1, 6), rng.randint(1, 6)
    return max(first, second), min(first, second)


def pips(side: list[int]) -> int:
    return sum((index + 1) * count for index, count in enumerate(side))


def empty() -> Board:
    return [0] * 25, [0] * 25


def scatter(
    rng: random.Random,
    side: list[int],
    other: list[int],
    count: int,
    indices: list[int],
    most: int = 5,
) -> None:
    """Put ``count`` checkers on random ``indices`` of ``side`` that ``other`` leaves empty."""
    for _ in range(count):
        free = [
            index
            for index in indices
            if side[index] < most and (index == 24 or not other[23 - index])
        ]
        if not free:
            return
        side[rng.choice(free)] += 1


def board_bar(rng: random.Random) -> Board:
    opponent, mover = empty()
    closed = rng.choice([0, 1, 2, 3, 4, 5, 5, 6, 6, 6])
    for index in rng.sample(range(6), closed):
        opponent[index] = 2
    for index in range(6):
        if not opponent[index] and rng.random() < 0.3:
            opponent[index] = 1
    mover[24] = rng.choice([1, 1, 1, 2, 2, 3, 4])
    scatter(rng, mover, opponent, 15 - mover[24] - rng.randint(0, 2), list(range(24)))
    scatter(rng, opponent, mover, 15 - sum(opponent), list(range(6, 24)))
    return opponent, mover


def board_prime(rng: random.Random) -> Board:
    opponent, mover = empty()
    length = rng.choice([4, 5, 5, 6, 6, 6])
    low = rng.randint(0, 24 - length)  # the prime covers the mover's indices low..low+length-1
    for index in range(low, low + length):
        opponent[23 - index] = 2
    behind = list(range(low + length, min(24, low + length + 7)))
    if low + length >= 18 or not behind:
        behind.append(24)
    scatter(rng, mover, opponent, rng.randint(1, 3), behind, most=2)
    rest = 15 - sum(mover) - rng.randint(0, 3)
    shape = rng.random()
    if shape < 0.5:
        scatter(rng, mover, opponent, rest, [0, 1, 2], most=15)  # barely able to move
    elif shape < 0.8:
        scatter(rng, mover, opponent, rest, list(range(min(low, 6))) or [0], most=15)
    else:
        scatter(rng, mover, opponent, rest, list(range(low)) or [0])
    scatter(rng, opponent, mover, 15 - sum(opponent) - rng.randint(0, 2), list(range(24)))
    return opponent, mover


def board_bearoff(rng: random.Random, contact: bool) -> Board:
    opponent, mover = empty()
    highest = rng.randint(0, 5)
    scatter(rng, mover, opponent, rng.randint(1, 15), list(range(highest + 1)), most=15)
    if contact:
        scatter(rng, opponent, mover, rng.randint(1, 4), list(range(18, 25)), most=2)
    remaining = 15 - sum(opponent) - rng.randint(0, 8)
    scatter(rng, opponent, mover, remaining, list(range(18)))
    return opponent, mover


def board_game_end(rng: random.Random) -> Board:
    opponent, mover = empty()
    scatter(rng, mover, opponent, rng.randint(1, 4), list(range(rng.randint(0, 5) + 1)), 15)
    result = rng.choice(["single", "gammon", "backgammon"])
    if result == "single":
        scatter(rng, opponent, mover, rng.randint(1, 14), list(range(24)))
    elif result == "gammon":
        scatter(rng, opponent, mover, 15, list(range(18)))
    else:
        scatter(rng, opponent, mover, rng.randint(1, 3), list(range(18, 25)), most=2)
        scatter(rng, opponent, mover, 15 - sum(opponent), list(range(24)))
    return opponent, mover


def board_bearoff_hit(rng: random.Random) -> Board:
    opponent, mover = empty()
    scatter(rng, mover, opponent, rng.randint(3, 15), list(range(6)), most=15)
    blots = rng.sample(range(18, 24), rng.randint(1, 2))
    for index in blots:
        if not mover[23 - index]:
            opponent[index] = 1
    scatter(rng, opponent, mover, 15 - sum(opponent) - rng.randint(0, 4), list(range(18)))
    return opponent, mover


def board_hit_bearing_off(rng: random.Random) -> Board:
    opponent, mover = empty()
    scatter(rng, opponent, mover, rng.randint(2, 12), list(range(6)), most=3)
    indices = list(range(18, 25))
    scatter(rng, mover, opponent, rng.randint(1, 3), indices, most=2)
    scatter(rng, mover, opponent, 15 - sum(mover) - rng.randint(0, 3), list(range(18)))
    return opponent, mover


def board_reenter_bearoff(rng: random.Random) -> Board:
    opponent, mover = empty()
    mover[24] = rng.choice([1, 1, 1, 2])
    scatter(rng, mover, opponent, rng.randint(1, 13 - mover[24] + 1), list(range(6)), most=15)
    scatter(rng, opponent, mover, rng.randint(2, 9), list(range(6)), most=3)
    scatter(rng, opponent, mover, 15 - sum(opponent) - rng.randint(0, 4), list(range(6, 18)))
    return opponent, mover


def board_race(rng: random.Random) -> Board:
    opponent, mover = empty()
    boundary = rng.randint(6, 18)  # the mover below it, the opponent from it upwards
    scatter(rng, mover, opponent, 15 - rng.randint(0, 5), list(range(boundary)))
    scatter(rng, opponent, mover, 15 - rng.randint(0, 5), list(range(24 - boundary)))
    return opponent, mover


def board_contact(rng: random.Random) -> Board:
    opponent, mover = empty()
    mover[24] = rng.choice([0, 0, 0, 0, 1, 2])
    opponent[24] = rng.choice([0, 0, 0, 0, 1, 2])
    on_points = (15 - mover[24] - rng.randint(0, 3), 15 - opponent[24] - rng.randint(0, 3))
    for _ in range(max(on_points)):  # one checker each in turn: neither takes every point
        if sum(mover[:24]) < on_points[0]:
            scatter(rng, mover, opponent, 1, list(range(24)))
        if sum(opponent[:24]) < on_points[1]:
            scatter(rng, opponent, mover, 1, list(range(24)))
    return opponent, mover


def is_playable(board: Board) -> bool:
    opponent, mover = board
    return 0 < sum(opponent) <= 15 and 0 < sum(mover) <= 15


def is_partial(board: Board, dice: tuple[int, int], plays: list[list[str]]) -> bool:
    """True when the plays move fewer pips than the dice show: a die could not be played."""
    full = 4 * dice[0] if dice[0] == dice[1] else dice[0] + dice[1]
    before = pips(board[1])
    return bool(plays) and all(before - pips(board_from_id(play[1])[0]) < full for play in plays)


class Writer:
    """Collects cases, skipping a position and roll already written."""

    def __init__(self) -> None:
        self.cases: list[Case] = []
        self.seen: set[tuple[str, tuple[int, int]]] = set()
        self.kinds: Counter[str] = Counter()

    def add(self, kind: str, pid: str, dice: tuple[int, int]) -> list[list[str]] | None:
        if (pid, dice) in self.seen:
            return None
        self.seen.add((pid, dice))
        plays = legal_plays(pid, dice)
        self.cases.append({"kind": kind, "id": pid, "dice": list(dice), "plays": plays})
        self.kinds[kind] += 1
        return plays


def random_games(rng: random.Random, writer: Writer, target: int) -> None:
    start = position_id(([0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5] + [0] * 10 + [2, 0],) * 2)
    pid = start
    while writer.kinds["game"] < target:
        dice = roll(rng)
        plays = writer.add("game", pid, dice)
        if plays is None:
            plays = legal_plays(pid, dice)
        if not plays:
            opponent, mover = board_from_id(pid)
            pid = position_id((mover, opponent))  # the turn passes (rule G-MAX-1)
            continue
        play = rng.choice(plays)
        pid = start if len(play) == 3 else play[1]


def crafted(
    rng: random.Random,
    writer: Writer,
    kind: str,
    target: int,
    make: Callable[[random.Random], Board],
    dice_of: Callable[[random.Random], tuple[int, int]] = roll,
) -> None:
    while writer.kinds[kind] < target:
        board = make(rng)
        if is_playable(board):
            writer.add(kind, position_id(board), dice_of(rng))


def primes(rng: random.Random, writer: Writer, target: int) -> None:
    """Prime positions; those where a die stays unplayed are kept more often."""
    tries = 0
    while writer.kinds["prime"] < target and tries < 100 * target:
        tries += 1
        board = make_valid(rng, board_prime)
        dice = roll(rng)
        pid = position_id(board)
        if (pid, dice) in writer.seen:
            continue
        plays = legal_plays(pid, dice)
        if is_partial(board, dice, plays) or rng.random() < 0.25:
            writer.add("prime", pid, dice)


def make_valid(rng: random.Random, make: Callable[[random.Random], Board]) -> Board:
    board = make(rng)
    while not is_playable(board):
        board = make(rng)
    return board


def doubles(rng: random.Random) -> tuple[int, int]:
    die = rng.randint(1, 6)
    return die, die


def generate(rng: random.Random) -> Iterator[Case]:
    def share(kind: str) -> int:
        return max(1, round(TARGETS[kind] * SCALE))

    writer = Writer()
    start_session()
    random_games(rng, writer, share("game"))
    crafted(rng, writer, "bar", share("bar"), board_bar)
    primes(rng, writer, share("prime"))
    crafted(rng, writer, "bearoff", share("bearoff"), lambda r: board_bearoff(r, r.random() < 0.4))
    crafted(rng, writer, "game-end", share("game-end"), board_game_end)
    crafted(rng, writer, "bearoff-hit", share("bearoff-hit"), board_bearoff_hit)
    crafted(rng, writer, "hit-bearing-off", share("hit-bearing-off"), board_hit_bearing_off)
    crafted(rng, writer, "reenter-bearoff", share("reenter-bearoff"), board_reenter_bearoff)
    crafted(rng, writer, "doubles", share("doubles"), board_contact, doubles)
    crafted(rng, writer, "race", share("race"), board_race)
    crafted(rng, writer, "contact", share("contact"), board_contact)
    yield from writer.cases


def main() -> None:
    for setting in (
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "set automatic game off",
        "set automatic move off",
        "set automatic bearoff off",
        "set jacoby off",
        "set display off",
        "set evaluation chequerplay evaluation plies 0",
    ):
        command(setting)
    rng = random.Random(SEED)
    cases = list(generate(rng))
    with gzip.GzipFile(OUT, "wb", mtime=0) as raw:
        for case in cases:
            raw.write(json.dumps(case, separators=(",", ":")).encode("ascii") + b"\n")
    kinds = Counter(str(case["kind"]) for case in cases)
    print(f"wrote {len(cases)} cases to {OUT}: {dict(kinds)}", file=sys.stderr)


main()
