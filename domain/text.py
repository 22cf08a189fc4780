"""Names and other one-line text that people type: whitespace tidied, length bounded."""

from __future__ import annotations

import unicodedata

from domain.errors import InvalidInputError

MAX_NAME_LENGTH = 200
"""Season, period, tournament and venue names."""
MAX_FREE_TEXT_LENGTH = 500
"""Reasons and other remarks."""


JOINERS = frozenset("\u200c\u200d")
"""Zero-width non-joiner and joiner: format characters that spell words in Persian, the
Indic scripts and emoji, so that names may hold them."""


def one_line(field: str, text: str, limit: int = MAX_NAME_LENGTH) -> str:
    """``text`` with runs of whitespace as one space; refused when empty, over ``limit`` or
    holding a control character (NUL, ESC, CR/LF: they break logs, lists and exports; a tab
    is tidied to a space) or an invisible format character (a bidi override such as U+202E
    shows a name reversed in lists, slips and mails; U+FEFF, U+200B hide in it)."""
    value = free_text(field, text, limit)
    if not value:
        raise InvalidInputError(field, "must not be empty")
    return value


def free_text(field: str, text: str, limit: int = MAX_FREE_TEXT_LENGTH) -> str:
    """Like ``one_line``, but may be empty (a reason nobody gave)."""
    if has_control_character(text):
        raise InvalidInputError(field, "must not contain control characters (e.g. line breaks)")
    if has_format_character(text):
        raise InvalidInputError(
            field, "must not contain invisible format characters (e.g. text direction marks)"
        )
    value = " ".join(text.split())
    if len(value) > limit:
        raise InvalidInputError(field, f"at most {limit} characters")
    return value


def has_control_character(text: str) -> bool:
    """Whether ``text`` holds a C0 or C1 control character (Unicode category Cc) but a tab."""
    return any(unicodedata.category(c) == "Cc" and c != "\t" for c in text)


def has_format_character(text: str) -> bool:
    """Whether ``text`` holds a Unicode format character (category Cf: bidi controls and
    overrides, zero-width space, byte order mark, soft hyphen) but a joiner (``JOINERS``)."""
    return any(unicodedata.category(c) == "Cf" and c not in JOINERS for c in text)
