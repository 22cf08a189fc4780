"""A dispute about a match: a claim about one of its events, decided by a director after a
replay of the history (rule C-DISPUTE-1). A decision never edits history: corrections are new
events of the match or the tournament."""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

from domain.errors import ConflictError, InvalidInputError, NotFoundError
from domain.events import Aggregate, DomainEvent, EventBatch, open_state
from domain.text import has_format_character

MAX_TEXT_LENGTH = 2000
_LINE_BREAKS_AND_TAB = frozenset("\n\r\t")
DisputeStatus = Literal["open", "decided"]


class DisputeNotFoundError(NotFoundError):
    """No dispute with this id."""


class DisputeDecidedError(ConflictError):
    """A dispute is decided once."""

    type_slug = "dispute-decided"


class DisputeOpened(DomainEvent, frozen=True, kw_only=True):
    """A player or a director disputes the match's event at ``version``."""

    match_id: UUID
    version: int
    claim: str


class DisputeDecided(DomainEvent, frozen=True, kw_only=True):
    """A director's ruling, with the reason."""

    ruling: str
    reason: str


DisputeEvent = DisputeOpened | DisputeDecided


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    ruling: str
    reason: str
    decided_at: datetime
    decided_by: str | None


class Dispute(Aggregate, frozen=True, kw_only=True):
    """A dispute as of its latest event."""

    match_id: UUID
    version_disputed: int
    claim: str
    opened_at: datetime
    opened_by: str | None
    decision: Decision | None = None

    @property
    def status(self) -> DisputeStatus:
        return "open" if self.decision is None else "decided"


def evolve(state: Dispute | None, event: DisputeEvent) -> Dispute:
    """The one place where a dispute's events apply."""
    if isinstance(event, DisputeOpened):
        return open_state(
            event,
            Dispute,
            version_disputed=event.version,
            opened_at=event.timestamp,
            opened_by=event.actor,
        )
    if not isinstance(state, Dispute):
        raise DisputeNotFoundError(f"no dispute with id {event.originator_id}")
    if isinstance(event, DisputeDecided):
        decision = Decision(
            ruling=event.ruling,
            reason=event.reason,
            decided_at=event.timestamp,
            decided_by=event.actor,
        )
        return msgspec.structs.replace(state, version=event.originator_version, decision=decision)
    raise TypeError(f"not a dispute event: {type(event).__name__}")


def open_dispute(
    dispute_id: UUID,
    match_id: UUID,
    version: int,
    claim: str,
    *,
    match_version: int,
    now: datetime,
    actor: str,
) -> list[DisputeEvent]:
    """rule C-DISPUTE-1: a claim about the event at ``version`` of a match now at
    ``match_version``."""
    if not 1 <= version <= match_version:
        raise InvalidInputError("version", f"the match has events 1 to {match_version}")
    _require_text("claim", claim)
    batch = EventBatch[DisputeEvent](dispute_id, 0, now, actor)
    batch.add(DisputeOpened, match_id=match_id, version=version, claim=claim)
    return batch.events


def decide_dispute(
    state: Dispute, ruling: str, reason: str, now: datetime, *, actor: str
) -> list[DisputeEvent]:
    if state.decision is not None:
        raise DisputeDecidedError(f"dispute {state.id} was decided already")
    _require_text("ruling", ruling)
    _require_text("reason", reason)
    batch = EventBatch[DisputeEvent].after(state, now, actor)
    batch.add(DisputeDecided, ruling=ruling, reason=reason)
    return batch.events


def _require_text(field: str, text: str) -> None:
    """Claims and rulings may run over several lines, but hide nothing (a bidi override shows
    the text reversed to whoever reads the dispute; a NUL shows nothing, an escape sequence
    wipes a line of the terminal that reads the audit)."""
    if not text.strip() or len(text) > MAX_TEXT_LENGTH:
        raise InvalidInputError(field, f"give 1 to {MAX_TEXT_LENGTH} characters")
    control = next(
        (c for c in text if unicodedata.category(c) == "Cc" and c not in _LINE_BREAKS_AND_TAB),
        None,
    )
    if control is not None:
        raise InvalidInputError(
            field,
            f"must not contain control characters other than line breaks and tabs "
            f"(U+{ord(control):04X})",
        )
    if has_format_character(text):
        raise InvalidInputError(
            field, "must not contain invisible format characters (e.g. text direction marks)"
        )
