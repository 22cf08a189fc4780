"""Names and other one-line text that people type: whitespace tidied, length bounded."""

from __future__ import annotations

import unicodedata

from domain.errors import InvalidInputError

MAX_NAME_LENGTH = 200
"""Season, period, tournament and venue names."""
MAX_FREE_TEXT_LENGTH = 500
"""Reasons and other remarks."""


def one_line(field: str, text: str, limit: int = MAX_NAME_LENGTH) -> str:
    """``text`` with runs of whitespace as one space; refused when empty, over ``limit`` or
    holding a control character (NUL, ESC, CR/LF: they break logs, lists and exports; a tab
    is tidied to a space)."""
    value = free_text(field, text, limit)
    if not value:
        raise InvalidInputError(field, "must not be empty")
    return value


def free_text(field: str, text: str, limit: int = MAX_FREE_TEXT_LENGTH) -> str:
    """Like ``one_line``, but may be empty (a reason nobody gave)."""
    if has_control_character(text):
        raise InvalidInputError(field, "must not contain control characters (e.g. line breaks)")
    value = " ".join(text.split())
    if len(value) > limit:
        raise InvalidInputError(field, f"at most {limit} characters")
    return value


def has_control_character(text: str) -> bool:
    """Whether ``text`` holds a C0 or C1 control character (Unicode category Cc) but a tab."""
    return any(unicodedata.category(c) == "Cc" and c != "\t" for c in text)
