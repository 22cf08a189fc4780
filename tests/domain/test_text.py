"""Names and free text: tidied whitespace, bounded length, no control characters."""

from __future__ import annotations

import pytest

from domain.errors import InvalidInputError
from domain.text import free_text, one_line


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


def test_free_text_may_be_empty_but_holds_no_control_character() -> None:
    assert free_text("reason", "") == ""
    with pytest.raises(InvalidInputError):
        free_text("reason", "ill\nfake log line")
