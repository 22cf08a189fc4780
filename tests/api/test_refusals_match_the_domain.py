"""Every German refusal of ``api.console.refusals`` still answers a refusal the service raises:
a reworded English message (or a renamed problem type) would otherwise fall back to English on
the German pages without a test noticing. An English pattern's literal words must stand in a
text of the service's source, its problem types must be ones a ``DomainError`` has."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from api.console.refusals import GERMAN, GERMAN_DETAILS
from domain.errors import DomainError

ROOTS = [Path(__file__).parents[2] / name for name in ("api", "domain", "service")]
SPECIAL = set("dDsSwWbB123456789")
"""The escapes that are a class of characters or a group again, not a character."""


@cache
def source_texts() -> tuple[str, ...]:
    """Every string and f-string text of the service's code (the refusals module aside)."""
    texts: list[str] = []
    for root in ROOTS:
        for path in root.rglob("*.py"):
            if path.name == "refusals.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    texts.append(node.value)
    return tuple(texts)


def literal_words(pattern: str) -> Iterator[str]:
    """The runs of plain text of a pattern, between its groups, classes and wildcards (an
    optional group or character is left out: the text may lack it)."""
    run: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and pattern[index + 1] not in SPECIAL:
            run.append(pattern[index + 1])
            index += 2
            continue
        if char in "?*" and run:
            run.pop()  # the character before is optional
        if char in "\\([.^$|?*+{":
            yield "".join(run)
            run = []
            index = _after(pattern, index)
            continue
        run.append(char)
        index += 1
    yield "".join(run)


def _after(pattern: str, index: int) -> int:
    """The index after the group, class or wildcard (and its quantifier) starting at index."""
    char = pattern[index]
    if char == "\\":
        index += 2
    elif char in "([":
        closing, depth = {"(": ")", "[": "]"}[char], 0
        while True:
            if pattern[index] == "\\":
                index += 2
                continue
            depth += {char: 1, closing: -1}.get(pattern[index], 0)
            index += 1
            if depth == 0:
                break
    else:
        index += 1
    while index < len(pattern) and pattern[index] in "?*+":
        index += 1
    return index


@pytest.mark.parametrize(
    "english", [pattern.pattern for pattern, _ in GERMAN_DETAILS], ids=lambda p: p[:60]
)
def test_every_english_detail_said_in_german_is_one_the_service_still_raises(
    english: str,
) -> None:
    words = [w.strip() for w in literal_words(english.removeprefix("^").removesuffix("$"))]
    words = [w for w in words if len(w) >= 4]
    assert words, f"{english} holds no words to find"
    for said in words:
        assert any(said in text for text in source_texts()), (
            f"no refusal of the service says {said!r} any more: reword {english!r} in "
            "api/console/refusals.py along"
        )


def problem_types() -> set[str]:
    found: set[str] = set()
    todo: list[type[DomainError]] = [DomainError]
    while todo:
        kind = todo.pop()
        found.add(kind.type_slug)
        todo.extend(kind.__subclasses__())
    return found


def test_every_problem_type_said_in_german_is_one_a_refusal_has() -> None:
    for root in ROOTS:  # every module with an error class, imported
        for path in root.rglob("errors.py"):
            __import__(".".join(path.relative_to(root.parent).with_suffix("").parts))
    assert set(GERMAN) <= problem_types(), set(GERMAN) - problem_types()


def test_a_reworded_message_would_be_noticed() -> None:
    # the check itself: its words are what a reword changes
    assert list(literal_words(r"round (\d+) has a result already")) == [
        "round ",
        " has a result already",
    ]
    assert [w for w in literal_words(r"(?:the tournament is completed: )?every round") if w] == [
        "every round"
    ]
    assert not any("round 3 has no result yet" in text for text in source_texts())
