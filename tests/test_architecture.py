"""Imports point one way: api, scheduler -> service, projections -> domain; nothing imports api."""

from __future__ import annotations

import ast
import re
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


FORBIDDEN_IN_THE_DOMAIN = (
    "datetime.now",
    "datetime.utcnow",
    "time.time",
    "random.",
    "secrets.",
    "open(",
)


def forbidden_in(text: str) -> list[str]:
    """The clock, randomness and file reads ``text`` uses: each word where it is not a longer
    name's end, so ``open(`` is found but not ``require_late_entry_open(``."""
    return [
        word for word in FORBIDDEN_IN_THE_DOMAIN if re.search(rf"(?<!\w){re.escape(word)}", text)
    ]


def test_a_forbidden_word_at_the_end_of_a_longer_name_does_not_count() -> None:
    assert forbidden_in("with open(path) as file:") == ["open("]
    assert forbidden_in("stamp = datetime.now(UTC)\nrandom.choice(x)") == [
        "datetime.now",
        "random.",
    ]
    assert forbidden_in("when = datetime.datetime.now()") == ["datetime.now"]
    assert forbidden_in("require_late_entry_open(state)\nuptime.time") == []


def test_the_domain_reads_no_clock_and_draws_no_random_numbers() -> None:
    offending = [
        f"{path.relative_to(ROOT)}: {word}"
        for path in (ROOT / "domain").rglob("*.py")
        for word in forbidden_in(path.read_text(encoding="utf-8"))
    ]
    assert not offending


MAX_MODULES_PER_FOLDER = 16
MAX_SERVICE_FLOORS = 6


def modules_of(folder: Path) -> list[Path]:
    """The modules of one folder (a package's empty ``__init__.py`` is no module)."""
    return [
        path
        for path in folder.glob("*.py")
        if path.name != "__init__.py" or path.read_text(encoding="utf-8").strip()
    ]


def test_no_folder_holds_more_than_sixteen_modules() -> None:
    # Issue 20: a flat folder of 30 modules hides what belongs together; a concept is a slice.
    crowded = {
        str(folder.relative_to(ROOT)): len(modules_of(folder))
        for layer in LAYERS
        for folder in [ROOT / layer, *(ROOT / layer).rglob("*")]
        if folder.is_dir() and len(modules_of(folder)) > MAX_MODULES_PER_FOLDER
    }
    assert not crowded


def layer_imports(layer: str) -> dict[str, set[str]]:
    """Each module of ``layer`` with the modules of the layer it imports (also those imported
    only for type checking: they tie the two modules just the same)."""
    modules = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts): path
        for path in (ROOT / layer).rglob("*.py")
        if path.name != "__init__.py"
    }
    imports: dict[str, set[str]] = {}
    for name, path in modules.items():
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                named.add(node.module)
                named.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                named.update(alias.name for alias in node.names)
        imports[name] = (named & modules.keys()) - {name}
    return imports


def floors(imports: dict[str, set[str]]) -> dict[str, int]:
    """A module's floor: one above the highest module it imports (a circle fails the test)."""
    floor: dict[str, int] = {}

    def floor_of(module: str, below: tuple[str, ...]) -> int:
        assert module not in below, f"a circle of imports: {' -> '.join((*below, module))}"
        if module not in floor:
            floor[module] = 1 + max(
                (floor_of(each, (*below, module)) for each in imports[module]), default=0
            )
        return floor[module]

    for module in imports:
        floor_of(module, ())
    return floor


def test_the_service_is_at_most_six_floors_deep_and_has_no_circle() -> None:
    # Use cases never call one another: what they share lives below them (service/shared,
    # service/storage) and only the composition root (service/bootstrap.py) sees them all.
    floor = floors(layer_imports("service"))
    too_high = {module: number for module, number in floor.items() if number > MAX_SERVICE_FLOORS}
    assert not too_high
    assert floor["service.bootstrap"] == max(floor.values())


def test_the_domain_has_no_circle_of_imports() -> None:
    # Issue 20: each module reads from the ones below it, as the service does; the match's state
    # once imported its evolve helpers while they imported the state back.
    floors(layer_imports("domain"))


def test_no_use_case_slice_imports_another() -> None:
    # A slice's folder is a table of contents of what a director can do there; it may import
    # service/shared, service/storage and the root's clock and settings, never another slice.
    below = {"shared", "storage", "clock", "settings"}
    crossing = {
        module: sorted(each for each in imported if each.split(".")[1] not in {slice_, *below})
        for module, imported in layer_imports("service").items()
        if (slice_ := module.split(".")[1]) not in {*below, "bootstrap"}
        and any(each.split(".")[1] not in {slice_, *below} for each in imported)
    }
    assert not crossing


MAX_LINES = 600


def test_no_module_is_longer_than_six_hundred_lines() -> None:
    # Issue 20: a file cut by meaning stays readable; one that outgrows this wants a new concept.
    long = {
        str(path.relative_to(ROOT)): lines
        for layer in LAYERS
        for path in (ROOT / layer).rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long
