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
Indic scripts and emoji, so that names may hold them where they join (``joins``)."""
ZWNJ = "\u200c"
VIRAMA = 9
"""The canonical combining class of the viramas (Devanagari U+094D and its kin)."""
BRAILLE_BLANK = "\u2800"
"""The braille cell with no dots raised (category So): drawn as an empty cell, a blank."""

_OTHER_DEFAULT_IGNORABLE = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong and jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x2065, 0x2065),  # reserved
    (0x3164, 0x3164),  # Hangul filler
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xFFF0, 0xFFF8),  # reserved
    (0xE0000, 0xE0FFF),  # reserved for tags and variation selectors (E0001, E0020..E007F: Cf)
)
"""Unicode's property Other_Default_Ignorable_Code_Point (PropList.txt of Unicode 14 to 16),
which the standard library does not expose."""
_VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
"""Unicode's property Variation_Selector (PropList.txt)."""


def is_default_ignorable(character: str) -> bool:
    """Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): the code points a
    renderer shows as nothing when it does not support them. It is derived as the format
    characters (Cf), the variation selectors and the Other_Default_Ignorable_Code_Point;
    the few format characters it leaves out for being visible in some fonts (interlinear
    annotation marks, Egyptian format controls, prepended concatenation marks) are counted
    here too: nobody needs them in a name or an address."""
    if unicodedata.category(character) == "Cf":
        return True
    code = ord(character)
    ranges = _OTHER_DEFAULT_IGNORABLE + _VARIATION_SELECTORS
    return any(low <= code <= high for low, high in ranges)


def is_invisible(character: str) -> bool:
    """Whether ``character`` shows as nothing, or as space a reader cannot tell from another
    (rule T-REG-5). By Unicode's properties, not by a list of characters found so far:

    - control characters (Cc: NUL, ESC, CR/LF, tab) and surrogates (Cs, never a character);
    - separators other than the plain space: space-likes (Zs: no-break, ideographic, hair
      and the other spaces), line and paragraph separators (Zl, Zp);
    - the default-ignorable code points (``is_default_ignorable``: format characters such as
      the zero-width space, the bidi overrides and the byte order mark, the variation
      selectors, and the fillers: Hangul U+115F, U+1160, U+3164, U+FFA0);
    - U+2800, the braille cell with no dots: a symbol (So) by its category, but drawn as
      a blank in every font that has it, so the rule names it.

    Private use (Co) and unassigned (Cn) code points are not invisible: they show as a glyph
    or a box (a later Unicode may assign them; the unassigned ranges Unicode reserves as
    default-ignorable are counted above).
    """
    category = unicodedata.category(character)
    return (
        category in ("Cc", "Cs", "Zl", "Zp")
        or (category == "Zs" and character != " ")
        or is_default_ignorable(character)
        or character == BRAILLE_BLANK
    )


def joins(text: str, index: int) -> bool:
    r"""Whether the joiner at ``text[index]`` (``JOINERS``) changes how its word is drawn, by
    the contextual rules of internationalised domain names (RFC 5892, appendix A.1 and A.2):
    either joiner right after a virama (the Indic conjuncts: ``\u0928\u094d\u200d\u0928``),
    and the non-joiner also between two letters of a cursive right-to-left script (bidi
    class AL, the combining marks between them skipped: the Persian Alireza,
    ``\u0639\u0644\u06cc\u200c\u0631\u0636\u0627``). Anywhere else a joiner changes
    nothing on the screen, and ``An\u200dna`` would pass for ``Anna``."""
    if index > 0 and unicodedata.combining(text[index - 1]) == VIRAMA:
        return True
    if text[index] != ZWNJ:
        return False
    before, after = _letter(text, index, -1), _letter(text, index, +1)
    return (
        before is not None
        and after is not None
        and unicodedata.bidirectional(before) == "AL"
        and unicodedata.bidirectional(after) == "AL"
    )


def _letter(text: str, index: int, step: int) -> str | None:
    """The nearest character from ``index`` in the direction ``step`` that is not a
    nonspacing mark (an Arabic vowel sign does not break a join), if any."""
    position = index + step
    while 0 <= position < len(text) and unicodedata.category(text[position]) == "Mn":
        position += step
    return text[position] if 0 <= position < len(text) else None


def visible_name(field: str, text: str, limit: int = MAX_NAME_LENGTH) -> str:
    """A name a person can see (rule T-REG-5): refused (naming ``field``) when empty, over
    ``limit`` or holding an invisible character (``is_invisible``: also a tab, a line
    separator or a no-break space) other than a joiner that joins (``joins``). Plain spaces
    are tidied: outer ones trimmed, runs of them made one."""
    for index, character in enumerate(text):
        if character in JOINERS and joins(text, index):
            continue
        if is_invisible(character):
            raise InvalidInputError(field, _invisible_message(character))
    value = " ".join(part for part in text.split(" ") if part)
    if not value:
        raise InvalidInputError(field, "must not be empty")
    if len(value) > limit:
        raise InvalidInputError(field, f"at most {limit} characters")
    return value


def _invisible_message(character: str) -> str:
    """What a person is told: the character by its code point (it shows as nothing)."""
    code = f"U+{ord(character):04X}"
    if unicodedata.category(character) in ("Cc", "Zl", "Zp"):
        return f"must not contain control characters or line breaks ({code})"
    return f"must not contain invisible characters or spaces other than the plain space ({code})"


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
