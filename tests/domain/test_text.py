"""Names and free text: tidied whitespace, bounded length, no control characters."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInputError
from domain.text import free_text, is_invisible, one_line, visible_name

ALIREZA = "\u0639\u0644\u06cc\u200c\u0631\u0636\u0627"
"""Alireza in Persian: the non-joiner keeps the yeh from joining the reh, as Persian spells it."""
NNA = "\u0928\u094d\u200d\u0928"
"""A Devanagari conjunct: the joiner after the virama asks for the half form of na."""


def test_a_name_keeps_its_words_and_loses_extra_spaces() -> None:
    assert one_line("name", "  Anna \t  Maria ") == "Anna Maria"


@pytest.mark.parametrize("text", ["Anna\x00", "\x1b[31mAnna", "Anna\r\nMaria", "A\x85B", "A\x7fB"])
def test_a_name_with_a_control_character_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        one_line("first_name", text)
    assert raised.value.field == "first_name"


@pytest.mark.parametrize(
    "text",
    ["\u202eannA", "Anna\u2066x\u2069", "An\u200bna", "\ufeffAnna", "Anna\u200f", "An\xadna"],
)
def test_a_name_with_an_invisible_format_character_is_refused(text: str) -> None:
    # a right-to-left override shows "Anna" where "annA" was typed (and worse in mails)
    with pytest.raises(InvalidInputError) as raised:
        one_line("first_name", text)
    assert raised.value.field == "first_name"
    with pytest.raises(InvalidInputError):
        free_text("reason", text)


def test_joiners_that_spell_words_are_kept() -> None:
    assert one_line("first_name", "Mohammad\u200cReza") == "Mohammad\u200cReza"
    assert one_line("first_name", "\u0928\u094d\u200d\u0928") == "\u0928\u094d\u200d\u0928"
    # rule T-REG-5: in a name, where they join: Alireza in Persian, a Devanagari conjunct
    assert visible_name("first_name", ALIREZA) == ALIREZA
    assert visible_name("first_name", NNA) == NNA


def test_free_text_may_be_empty_but_holds_no_control_character() -> None:
    assert free_text("reason", "") == ""
    with pytest.raises(InvalidInputError):
        free_text("reason", "ill\nfake log line")


# rule T-REG-5: names are text a person can see.


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Anna\tMaria", "U+0009"),  # a tab
        ("Anna\u2028Maria", "U+2028"),  # line separator
        ("Anna\u2029", "U+2029"),  # paragraph separator
        ("An\u2800na", "U+2800"),  # braille blank
        ("\u3164", "U+3164"),  # Hangul filler: a name of nothing
        ("\u115f\u1160", "U+115F"),  # Hangul choseong and jungseong fillers
        ("Anna\uffa0", "U+FFA0"),  # halfwidth Hangul filler
        ("Anna\u00a0Maria", "U+00A0"),  # no-break space
        ("Anna\u3000Maria", "U+3000"),  # ideographic space
        ("Anna\u200a", "U+200A"),  # hair space
        ("An\u034fna", "U+034F"),  # combining grapheme joiner
        ("Anna\ufe0f", "U+FE0F"),  # variation selector
        ("Anna\U000e0041", "U+E0041"),  # tag letter A
        ("An\u200dna", "U+200D"),  # a joiner that joins nothing: "Anna" on the screen
        ("Mohammad\u200cReza", "U+200C"),  # ... in Latin letters neither
    ],
)
def test_a_name_with_an_invisible_character_is_refused_naming_it(text: str, code: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        visible_name("last_name", text)
    assert raised.value.field == "last_name"
    assert raised.value.message.endswith(f"({code})")


def test_a_name_tidies_plain_spaces_only() -> None:
    assert visible_name("name", "  Anna   Maria ") == "Anna Maria"
    with pytest.raises(InvalidInputError, match="must not be empty"):
        visible_name("name", "   ")


INVISIBLE_BY_CATEGORY = st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Zs"]).filter(
    lambda character: character != " "
)
"""Controls, format characters, and the separators but the plain space."""
SEEN = st.characters(
    categories=["L", "M", "N", "P", "S"],
    exclude_characters="\u2800\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0",
).filter(lambda character: "VARIATION SELECTOR" not in unicodedata.name(character, ""))
"""Letters, marks, numbers, punctuation and symbols, but the blank and ignorable ones."""


@settings(deadline=None)
@given(invisible=INVISIBLE_BY_CATEGORY)
def test_every_control_format_or_space_like_character_is_refused_in_a_name(
    invisible: str,
) -> None:
    # between Latin letters, where no joiner joins
    assert is_invisible(invisible)
    with pytest.raises(InvalidInputError) as raised:
        visible_name("first_name", f"An{invisible}na")
    assert raised.value.field == "first_name"


@settings(deadline=None)
@given(words=st.lists(st.text(SEEN, min_size=1, max_size=8), min_size=1, max_size=4))
def test_a_name_of_visible_characters_and_plain_spaces_is_kept(words: list[str]) -> None:
    assert visible_name("first_name", "  " + "   ".join(words) + " ") == " ".join(words)
