"""Imports point one way: api, scheduler -> service, projections -> domain; nothing imports api."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("domain", "projections", "service", "scheduler", "api")
ALLOWED = {
    "domain": {"domain"},
    "projections": {"projections", "domain"},
    "service": {"service", "projections", "domain"},
    "scheduler": {"scheduler", "service", "projections", "domain"},
    "api": {"api", "scheduler", "service", "projections", "domain"},
}


def imported_layers(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
    return {name.split(".")[0] for name in names} & set(LAYERS)


@pytest.mark.parametrize("layer", LAYERS)
def test_each_layer_imports_only_the_layers_below_it(layer: str) -> None:
    offending = {
        str(path.relative_to(ROOT)): sorted(imported_layers(path) - ALLOWED[layer])
        for path in (ROOT / layer).rglob("*.py")
        if imported_layers(path) - ALLOWED[layer]
    }
    assert not offending


def test_the_domain_reads_no_clock_and_draws_no_random_numbers() -> None:
    forbidden = ("datetime.now", "datetime.utcnow", "time.time", "random.", "secrets.", "open(")
    offending = [
        f"{path.relative_to(ROOT)}: {word}"
        for path in (ROOT / "domain").rglob("*.py")
        for word in forbidden
        if word in path.read_text(encoding="utf-8")
    ]
    assert not offending
