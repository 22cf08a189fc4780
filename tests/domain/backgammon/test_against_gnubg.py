"""Legal plays agree with GNU Backgammon's, case by case, on a committed reference and live."""

from __future__ import annotations

import gzip
import json
import os
import random
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from domain.backgammon.plays import Play, legal_plays
from domain.backgammon.position import Position

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "reference"
REFERENCE = REFERENCE_DIR / "gnubg_legal_plays.jsonl.gz"
GENERATOR = REFERENCE_DIR / "generate_gnubg_reference.py"
SHOWN_MISMATCHES = 10

Outcome = tuple[str, str | None]
"""A play as compared: the Position ID after it and its game result, if it ends the game."""


@dataclass(frozen=True, slots=True)
class ReferenceCase:
    """One position and roll with every legal play gnubg found."""

    kind: str
    position_id: str
    dice: tuple[int, int]
    plays: dict[Outcome, str]
    """gnubg's notation of each play, by outcome."""


def load_cases(path: Path) -> list[ReferenceCase]:
    cases = []
    with gzip.open(path, "rt", encoding="ascii") as lines:
        for line in lines:
            raw = json.loads(line)
            plays = {
                (play[1], play[2] if len(play) > 2 else None): play[0] for play in raw["plays"]
            }
            dice = (int(raw["dice"][0]), int(raw["dice"][1]))
            cases.append(ReferenceCase(str(raw["kind"]), str(raw["id"]), dice, plays))
    return cases


@cache
def committed_cases() -> list[ReferenceCase]:
    return load_cases(REFERENCE)


def mismatches(cases: Iterable[ReferenceCase]) -> list[str]:
    """A line per case where ``legal_plays`` and gnubg disagree: what each one lacks."""
    found = []
    for case in cases:
        plays = legal_plays(Position.from_position_id(case.position_id), case.dice)
        ours = {outcome_of(play): moves_of(play) for play in plays}
        if ours.keys() == case.plays.keys():
            continue
        only_gnubg = case.plays.keys() - ours.keys()
        missing = sorted(f"{case.plays[outcome]} -> {outcome}" for outcome in only_gnubg)
        extra = sorted(
            f"{ours[outcome]} -> {outcome}" for outcome in ours.keys() - case.plays.keys()
        )
        found.append(
            f"{case.kind} position {case.position_id} dice {case.dice}: "
            f"only gnubg has {missing or 'nothing'}; only legal_plays has {extra or 'nothing'}"
        )
    return found


def outcome_of(play: Play) -> Outcome:
    return play.position_id, play.game_result.value if play.game_result else None


def moves_of(play: Play) -> str:
    """The moves as source/destination, 25 the bar and 0 off; for mismatch reports."""
    return " ".join(f"{move.source}/{move.destination}{'*' * move.hit}" for move in play.moves)


def report(problems: list[str], total: int) -> str:
    shown = "\n".join(problems[:SHOWN_MISMATCHES])
    return f"{len(problems)} of {total} cases differ from GNU Backgammon; the first:\n{shown}"


def test_reference_holds_thousands_of_cases_of_every_kind() -> None:
    kinds = {case.kind for case in committed_cases()}
    assert len(committed_cases()) >= 4000
    assert kinds >= {"game", "bar", "prime", "bearoff", "game-end", "doubles", "race"}


def test_legal_plays_match_gnubg_on_every_reference_case() -> None:
    cases = committed_cases()
    problems = mismatches(cases)
    assert not problems, report(problems, len(cases))


def test_reference_covers_the_situations_where_rules_engines_go_wrong() -> None:
    seen = dict.fromkeys(MINIMUM_CASES, 0)
    for case in committed_cases():
        for situation in situations(case):
            seen[situation] += 1
    too_few = {name: count for name, count in seen.items() if count < MINIMUM_CASES[name]}
    assert not too_few, f"the reference has too few cases of {too_few}"


MINIMUM_CASES = {
    "bar, one checker": 500,
    "bar, several checkers": 300,
    "bar, closed board: no play": 100,  # rule G-BAR-1
    "a die stays unplayed": 300,  # rule G-MAX-1
    "only the larger die is played": 100,  # rule G-MAX-1
    "bear-off with a die above the highest point": 300,  # rule G-OFF-1
    "hit while bearing off": 50,
    "hit a side that is bearing off": 50,
    "on the bar while the rest is home": 100,  # rule G-OFF-1: enter before bearing off
    "doubles": 800,  # rule G-MOVE-1
    "race": 500,
    "ends as single": 50,  # rule G-WIN-1
    "ends as gammon": 50,
    "ends as backgammon": 50,
}


def situations(case: ReferenceCase) -> Iterable[str]:
    """The situations a case shows, read from gnubg's data alone (no ``legal_plays``)."""
    position = Position.from_position_id(case.position_id)
    mover, opponent = position.on_roll, position.opponent
    high, low = case.dice
    is_home = not any(mover[6:])
    is_opponent_home = not any(opponent[6:])
    # Decoding every position after a play is slow; the cases below need few of them.
    few_plays = len(case.plays) <= 40
    after = (
        [Position.from_position_id(outcome[0]) for outcome in case.plays]
        if few_plays or is_home or is_opponent_home
        else []
    )
    if mover[24] == 1:
        yield "bar, one checker"
    if mover[24] >= 2:
        yield "bar, several checkers"
    if mover[24] and all(count >= 2 for count in opponent[:6]):
        yield "bar, closed board: no play"
    full = 4 * high if high == low else high + low
    # Without bearing off, the pips a play moves are the dice it uses.
    if few_plays and after and all(sum(play.opponent) == sum(mover) for play in after):
        moved = {position.pip_counts[0] - play.pip_counts[1] for play in after}
        if max(moved) < full:
            yield "a die stays unplayed"
        if high != low and moved == {high}:
            yield "only the larger die is played"
    if is_home and after and high > max(index + 1 for index in range(6) if mover[index]):
        yield "bear-off with a die above the highest point"
    hits = any(play.on_roll[24] > opponent[24] for play in after)
    if hits and is_home:
        yield "hit while bearing off"
    if hits and is_opponent_home:
        yield "hit a side that is bearing off"
    if mover[24] and not any(mover[6:24]):
        yield "on the bar while the rest is home"
    if high == low:
        yield "doubles"
    mover_rearmost = max(index for index in range(25) if mover[index])
    opponent_rearmost = max(index for index in range(25) if opponent[index])
    if mover_rearmost + opponent_rearmost < 23:
        yield "race"
    for _, result in case.plays:
        if result:
            yield f"ends as {result}"


def gnubg_executable() -> str | None:
    return shutil.which("gnubg") or next(
        (path for path in ("/usr/games/gnubg",) if os.access(path, os.X_OK)), None
    )


@pytest.mark.gnubg
def test_legal_plays_match_a_fresh_random_sample_from_gnubg(tmp_path: Path) -> None:
    executable = gnubg_executable()
    if executable is None:
        pytest.skip("GNU Backgammon is not installed")
    seed = int(os.environ.get("GNUBG_REFERENCE_SEED", random.SystemRandom().randrange(1 << 31)))
    out = tmp_path / "sample.jsonl.gz"
    environment = {
        **os.environ,
        "HOME": str(tmp_path),  # gnubg keeps its settings there; the user's stay untouched
        "GNUBG_REFERENCE_OUT": str(out),
        "GNUBG_REFERENCE_SEED": str(seed),
        "GNUBG_REFERENCE_SCALE": "0.01",
    }
    subprocess.run(
        [executable, "-t", "-q", "-p", str(GENERATOR)],
        env=environment,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=300,
        check=True,
    )
    cases = load_cases(out)
    assert len(cases) >= 50
    problems = mismatches(cases)
    assert not problems, f"seed {seed}: " + report(problems, len(cases))
