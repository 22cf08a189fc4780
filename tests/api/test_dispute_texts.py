"""A dispute's texts over REST: a claim made of a control character is refused with the field
named, and nothing is opened (C-DISPUTE-1; found by sending a NUL-only claim, taken with 201)."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.api.test_matches import bearer, create
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def test_a_player_s_claim_of_a_nul_character_is_a_422_and_opens_no_dispute(
    client: Client,
) -> None:
    # rule C-DISPUTE-1: the claim is read by the director as it was written; a NUL shows nothing
    created = create(client)
    refused = client.post(
        "/api/v1/disputes",
        json={"match_id": created["id"], "version": 1, "claim": "\u0000"},
        headers=bearer(created, "b"),
    )
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert [error["field"] for error in problem["errors"]] == ["claim"]
    assert "U+0000" in problem["detail"]
    audit = client.get(f"/api/v1/audit/streams/{created['id']}", headers=DIRECTOR).json()
    assert [event["type"] for event in audit if "Dispute" in event["type"]] == []
    opened = client.post(
        "/api/v1/disputes",
        json={"match_id": created["id"], "version": 1, "claim": "the 3-1\nwas cocked"},
        headers=bearer(created, "b"),
    )
    assert opened.status_code == 201, opened.text
    assert opened.json()["claim"] == "the 3-1\nwas cocked"
