"""The .mat export imports into GNU Backgammon with the same moves and the same final score."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from domain.mat import format_mat
from service.clock import MovableClock
from tests.api.match_script import DIRECTOR, play_seven_point_match
from tests.domain.test_mat import BERLIN, penalised_match

GNUBG = Path("/usr/games/gnubg")
pytestmark = [
    pytest.mark.gnubg,
    pytest.mark.skipif(
        not (GNUBG.exists() or shutil.which("gnubg")), reason="GNU Backgammon is not installed"
    ),
]

IMPORT_SCRIPT = """
import gnubg, json
gnubg.command('import mat {source}')
match = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
games = [{{"info": g["info"], "actions": list(g["game"])}} for g in match["games"]]
with open('{target}', 'w') as out:
    json.dump({{"info": match["match-info"], "games": games}}, out, default=list)
"""
PLAYER = {"a": "X", "b": "O"}  # gnubg's player 0 is the left column


def gnubg_import(mat: str, directory: Path) -> dict[str, Any]:
    source, target, script = (directory / name for name in ("m.mat", "m.json", "import.py"))
    source.write_text(mat)
    script.write_text(IMPORT_SCRIPT.format(source=source, target=target))
    binary = str(GNUBG) if GNUBG.exists() else "gnubg"
    completed = subprocess.run(
        [binary, "-t", "-q", "-p", str(script)],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert target.exists(), completed.stdout[-2000:] + completed.stderr[-2000:]
    imported: dict[str, Any] = json.loads(target.read_text())
    return imported


def recorded_actions(events: list[dict[str, Any]]) -> list[list[tuple[Any, ...]]]:
    """Per game: (player, action, dice, moves) as gnubg lists them, from our event stream."""
    games: list[list[tuple[Any, ...]]] = []
    for event in events:
        kind, data = event["type"], event["data"]
        if kind == "GameStarted":
            games.append([])
        elif kind in {"CheckersPlayed", "TurnPassed"}:
            moves = sorted((s, d) for s, d, _ in data.get("moves", []))
            dice = sorted(data["dice"], reverse=True)
            games[-1].append((PLAYER[data["side"]], "move", dice, moves))
        elif kind in {"CubeOffered", "CubeTaken", "CubeDropped"}:
            action = {"CubeOffered": "double", "CubeTaken": "take", "CubeDropped": "drop"}[kind]
            games[-1].append((PLAYER[data["side"]], action, None, None))
    return games


def imported_actions(game: dict[str, Any]) -> list[tuple[Any, ...]]:
    actions: list[tuple[Any, ...]] = []
    for action in game["actions"]:
        if action["action"] == "move":
            moves = sorted((s, d) for s, d in action["move"])
            dice = sorted(action["dice"], reverse=True)
            actions.append((action["player"], "move", dice, moves))
        elif action["action"] in {"double", "take", "drop"}:
            actions.append((action["player"], action["action"], None, None))
    return actions


def test_the_exported_match_imports_into_gnubg_with_the_same_moves_and_final_score(
    client: TestClient[Any], clock: MovableClock, tmp_path: Path
) -> None:
    played = play_seven_point_match(client, clock)
    mat = client.get(f"/api/v1/matches/{played.id}/export.mat").text
    events = client.get(f"/api/v1/matches/{played.id}/events").json()

    imported = gnubg_import(mat, tmp_path)

    info = imported["info"]
    assert (info["X"]["name"], info["O"]["name"], info["match-length"]) == ("Anna Maier", "Ben", 7)
    games = imported["games"]
    assert len(games) == 6
    assert [imported_actions(game) for game in games] == recorded_actions(events)
    won = [e["data"] for e in events if e["type"] == "GameWon"]
    assert [(g["info"]["winner"], g["info"]["points-won"]) for g in games] == [
        (PLAYER[w["winner"]], w["points"]) for w in won
    ]
    assert [g["info"].get("crawford", False) for g in games] == [
        False,
        False,
        False,
        True,
        False,
        False,
    ]
    last = games[-1]["info"]
    final = {"X": last["score-X"], "O": last["score-O"]}
    final[last["winner"]] += last["points-won"]
    assert final == {"X": 7, "O": 3}
    assert info["result"] == 0  # gnubg: player 0 (side a) won the match


def test_a_match_lost_on_the_club_clock_imports_with_its_last_game_finished(
    client: TestClient[Any], clock: MovableClock, tmp_path: Path
) -> None:
    # rule G-CLOCK-1: 3 points give 6 minutes; side b's flag falls, side a wins the match
    body = {"player_a": "anna", "player_b": "ben", "match_length": 3, "clock": "club"}
    created = client.post("/api/v1/matches", json=body, headers=DIRECTOR).json()
    path = f"/api/v1/matches/{created['id']}"
    side_a = {"Authorization": f"Bearer {created['player_tokens']['a']}"}
    client.post(f"{path}/rolls", json={"dice": [3, 1]}, headers=side_a)
    client.post(f"{path}/plays", json={"play": "8/5 6/5"}, headers=side_a)
    clock.advance(6 * 60 + 1)
    claimed = client.post(f"{path}/timeouts", json={}, headers=side_a)
    assert claimed.json()["winner"] == "a", claimed.text

    imported = gnubg_import(client.get(f"{path}/export.mat").text, tmp_path)

    [game] = imported["games"]
    assert (game["info"]["winner"], game["info"]["resigned"]) == ("X", True)
    assert game["info"]["points-won"] == 3
    assert imported["info"]["result"] == 0  # gnubg: player 0 (side a) won the match


def test_penalty_points_and_names_with_spaces_import_into_gnubg_as_recorded(
    tmp_path: Path,
) -> None:
    # rule C-BREAK-2: Kévin Unger's penalty point before the first roll goes to Ben, who then
    # wins 4 points: 5-0 in a 5-point match, in bgtd and in gnubg
    imported = gnubg_import(format_mat(penalised_match().events, BERLIN), tmp_path)

    info = imported["info"]
    assert (info["X"]["name"], info["O"]["name"]) == ("Kévin Unger", "Ben")
    [game] = imported["games"]
    final = {"X": game["info"]["score-X"], "O": game["info"]["score-O"]}
    final[game["info"]["winner"]] += game["info"]["points-won"]
    assert final == {"X": 0, "O": 5}
    assert "Penalty on Kévin Unger awarded 1 point(s) for Ben" in info["comment"]


def test_a_match_with_voided_rolls_imports_into_gnubg_with_only_the_rolls_played(
    client: TestClient[Any], tmp_path: Path
) -> None:
    # rule G-DICE-2: the voided rolls stay in the stream; gnubg sees the rolls that counted
    body = {"player_a": "anna", "player_b": "ben", "match_length": 1}
    created = client.post("/api/v1/matches", json=body, headers=DIRECTOR).json()
    path = f"/api/v1/matches/{created['id']}"
    side = {s: {"Authorization": f"Bearer {created['player_tokens'][s]}"} for s in ("a", "b")}
    steps: list[tuple[str, dict[str, Any], dict[str, str]]] = [
        ("rolls", {"dice": [3, 1]}, side["a"]),
        ("rolls/void", {"reason": "a die off the board"}, DIRECTOR),
        ("rolls", {"dice": [5, 2]}, side["a"]),
        ("plays", {"play": "13/8 13/11"}, side["a"]),
        ("rolls", {"dice": [6, 6]}, side["b"]),
        ("rolls/void", {"reason": "cocked"}, side["a"]),
        ("rolls/void", {"reason": "cocked"}, side["b"]),
        ("rolls", {"dice": [4, 2]}, side["b"]),
        ("plays", {"play": "8/4 6/4"}, side["b"]),
        ("resignations", {"level": "single"}, side["a"]),
        ("resignations/accept", {}, side["b"]),
    ]
    for command, payload, headers in steps:
        answer = client.post(f"{path}/{command}", json=payload, headers=headers)
        assert answer.status_code == 200, (command, answer.text)
    events = client.get(f"{path}/events").json()
    assert [e["type"] for e in events].count("RollVoided") == 2

    imported = gnubg_import(client.get(f"{path}/export.mat").text, tmp_path)

    [game] = imported["games"]
    assert imported_actions(game) == [
        ("X", "move", [5, 2], [(13, 8), (13, 11)]),
        ("O", "move", [4, 2], [(6, 4), (8, 4)]),
    ]
    assert (game["info"]["winner"], game["info"]["points-won"]) == ("O", 1)
