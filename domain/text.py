"""Names and other one-line text that people type: whitespace tidied, length bounded."""

from __future__ import annotations

from domain.errors import InvalidInputError

MAX_NAME_LENGTH = 200
"""Season, period, tournament and venue names."""


def one_line(field: str, text: str, limit: int = MAX_NAME_LENGTH) -> str:
    """``text`` with runs of whitespace as one space; refused when empty or over ``limit``."""
    value = " ".join(text.split())
    if not value:
        raise InvalidInputError(field, "must not be empty")
    if len(value) > limit:
        raise InvalidInputError(field, f"at most {limit} characters")
    return value
