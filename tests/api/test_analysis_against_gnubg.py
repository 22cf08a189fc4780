"""The legal-plays endpoint answers exactly as GNU Backgammon on every reference case."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.domain.backgammon.test_against_gnubg import committed_cases


def test_the_endpoint_matches_gnubg_on_every_reference_case(client: TestClient[Any]) -> None:
    # rules G-MOVE-1, G-MOVE-2, G-BAR-1, G-MAX-1, G-OFF-1, G-WIN-1, against gnubg's own lists.
    cases = committed_cases()
    disagreements = []
    for case in cases:
        response = client.post(
            "/api/v1/analysis/legal-plays",
            json={"position_id": case.position_id, "dice": list(case.dice)},
        )
        assert response.status_code == 200, response.text
        served = {
            (play["position_id"], play["game_result"]): play["play"]
            for play in response.json()["plays"]
        }
        if served != case.plays:
            disagreements.append(
                f"{case.position_id} {case.dice}: gnubg {sorted(case.plays.values())}, "
                f"served {sorted(served.values())}"
            )
    assert len(cases) >= 4_000
    assert not disagreements, "\n".join(disagreements[:10])
