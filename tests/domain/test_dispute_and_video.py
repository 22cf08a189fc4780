"""Disputes and recordings in the domain: given events, when a command, then events or an
error (C-DISPUTE-1, C-VIDEO-1), and the tournament's deadline commands (T-CANCEL-1)."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest

from domain.errors import InvalidInputError
from domain.events import fold
from domain.evidence import dispute, video

NOW = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)
MATCH = uuid.uuid4()


def test_a_dispute_names_an_event_of_the_match() -> None:
    with pytest.raises(InvalidInputError, match="events 1 to 5"):
        dispute.open_dispute(uuid.uuid4(), MATCH, 6, "x", match_version=5, now=NOW, actor="a")


@pytest.mark.parametrize("hidden", ["\u202e", "\u200b", "\ufeff"])
def test_a_claim_hides_no_format_character_but_may_run_over_lines(hidden: str) -> None:
    # rule C-DISPUTE-1: the claim is read by the director and the players as it was written
    with pytest.raises(InvalidInputError, match="format characters"):
        dispute.open_dispute(
            uuid.uuid4(), MATCH, 3, f"dice {hidden}cocked", match_version=5, now=NOW, actor="a"
        )
    [opened] = dispute.open_dispute(
        uuid.uuid4(), MATCH, 3, "cocked dice\nboth of them", match_version=5, now=NOW, actor="a"
    )
    assert isinstance(opened, dispute.DisputeOpened)
    assert opened.claim == "cocked dice\nboth of them"


def test_an_opened_dispute_keeps_the_disputed_version_apart_from_its_own() -> None:
    # rule C-DISPUTE-1: the claim names the match's event 3; the dispute itself is at version 1
    dispute_id = uuid.uuid4()
    opened = dispute.open_dispute(
        dispute_id, MATCH, 3, "cocked dice", match_version=5, now=NOW, actor="player:anna"
    )
    state = fold(dispute.evolve, None, opened)
    assert state is not None
    assert (state.id, state.version, state.version_disputed) == (dispute_id, 1, 3)
    assert (state.match_id, state.claim) == (MATCH, "cocked dice")
    assert (state.opened_at, state.opened_by) == (NOW, "player:anna")


def test_a_dispute_is_decided_once() -> None:
    opened = dispute.open_dispute(
        uuid.uuid4(), MATCH, 3, "cocked dice", match_version=5, now=NOW, actor="player:anna"
    )
    state = fold(dispute.evolve, None, opened)
    assert state is not None
    assert state.status == "open"
    decided = fold(
        dispute.evolve, state, dispute.decide_dispute(state, "stands", "clean", NOW, actor="d")
    )
    assert decided is not None
    assert decided.status == "decided"
    with pytest.raises(dispute.DisputeDecidedError):
        dispute.decide_dispute(decided, "again", "no", NOW, actor="d")


def test_a_deleted_recording_records_no_second_deletion() -> None:
    registered = video.register_video(uuid.uuid4(), MATCH, 1, "a.mp4", "a.mp4", NOW, actor="d")
    state = fold(video.evolve, None, registered)
    assert state is not None
    failed = fold(video.evolve, state, video.record_deletion(state, "busy", NOW, actor="s"))
    assert failed is not None
    assert (failed.failures, failed.last_error) == (1, "busy")
    deleted = fold(video.evolve, failed, video.record_deletion(failed, None, NOW, actor="s"))
    assert deleted is not None
    assert deleted.deleted_at == NOW
    assert video.record_deletion(deleted, None, NOW, actor="s") == []


def test_a_failed_deletion_is_retried_after_a_pause_that_doubles_up_to_an_hour() -> None:
    assert [video.retry_at(NOW, n) - NOW for n in (1, 2, 3, 8)] == [
        timedelta(minutes=1),
        timedelta(minutes=2),
        timedelta(minutes=4),
        timedelta(hours=1),
    ]


def test_a_refused_deletion_is_recorded_once_and_settles_the_recording() -> None:
    # rule C-VIDEO-1: the job leaves a file it may not delete alone, and says why
    registered = video.register_video(uuid.uuid4(), MATCH, 1, "a.mp4", None, NOW, actor="d")
    state = fold(video.evolve, None, registered)
    assert state is not None
    assert state.path is None  # registered as before the evidence folder
    reason = "outside the evidence folder"
    refused = fold(video.evolve, state, video.refuse_deletion(state, reason, NOW, actor="s"))
    assert refused is not None
    assert (refused.refused, refused.deleted_at) == (reason, None)
    assert video.is_settled(refused)
    assert video.refuse_deletion(refused, reason, NOW, actor="s") == []
    assert video.record_deletion(refused, None, NOW, actor="s") == []


@pytest.mark.parametrize(
    ("claim", "shown"),
    [
        ("\x00", "U+0000"),
        ("dice \x1b[2Kcocked", "U+001B"),
        ("cocked\x7f", "U+007F"),
        ("dice\x85cocked", "U+0085"),
    ],
)
def test_a_claim_hides_no_control_character_but_a_line_break_or_a_tab(
    claim: str, shown: str
) -> None:
    # rule C-DISPUTE-1: a NUL, an escape sequence or a DEL shows nothing (or wipes a line of a
    # terminal reading the audit) where the director and the players read the claim
    with pytest.raises(
        InvalidInputError, match=rf"control characters.*\({re.escape(shown)}\)"
    ) as refused:
        dispute.open_dispute(uuid.uuid4(), MATCH, 3, claim, match_version=5, now=NOW, actor="a")
    assert refused.value.field == "claim"
    [opened] = dispute.open_dispute(
        uuid.uuid4(), MATCH, 3, "cocked dice\r\n\tboth", match_version=5, now=NOW, actor="a"
    )
    assert isinstance(opened, dispute.DisputeOpened)
    assert opened.claim == "cocked dice\r\n\tboth"


@pytest.mark.parametrize("field", ["ruling", "reason"])
def test_a_ruling_and_its_reason_hide_no_control_character(field: str) -> None:
    opened = dispute.open_dispute(
        uuid.uuid4(), MATCH, 3, "cocked dice", match_version=5, now=NOW, actor="a"
    )
    state = fold(dispute.evolve, None, opened)
    assert state is not None
    texts = {"ruling": "stands", "reason": "clean", field: "\x00"}
    with pytest.raises(InvalidInputError, match="control characters") as refused:
        dispute.decide_dispute(state, texts["ruling"], texts["reason"], NOW, actor="d")
    assert refused.value.field == field
