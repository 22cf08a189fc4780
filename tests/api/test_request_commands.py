"""A request's body becomes a use case's command field by field, and a field the server sets
is never one a client can send (API.md "Seasons and tournaments": a tournament's match takes
its seated players and their registrations' tokens from the service; "Conventions": a player
token acts only for its own side; ARCHITECTURE.md "Data flow" 1: a REST call becomes a
command).

Every conversion of a request into a command is an ``AsCommand``, declared at a module's top
and so checked when the app is imported; ``restate`` only makes what the API answers."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

import api
from api.http.schemas import AsCommand

API = Path(api.__file__).resolve().parent


def api_modules() -> list[ModuleType]:
    return [
        importlib.import_module(found.name)
        for found in pkgutil.walk_packages(api.__path__, "api.")
        if not found.ispkg
    ]


def module_of(path: Path) -> ModuleType:
    dotted = ".".join(path.relative_to(API.parent).with_suffix("").parts)
    return importlib.import_module(dotted)


def calls_of(name: str) -> list[tuple[Path, ast.Call]]:
    """Every call of the function or class ``name`` in the API's modules."""
    found = []
    for path in sorted(API.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == name:
                found.append((path, node))
    return found


def test_every_request_to_command_is_declared_at_a_modules_top_and_agrees() -> None:
    # checked at import: a module-level AsCommand that disagrees stops the app from starting
    declared = [
        value
        for module in api_modules()
        for value in vars(module).values()
        if isinstance(value, AsCommand)
    ]
    pairs = {(d.request.__name__, d.command.__name__) for d in declared}
    assert ("MatchCreate", "MatchTerms") in pairs
    assert ("TournamentCreate", "TournamentPlan") in pairs
    assert len(pairs) == len(calls_of("AsCommand")) >= 12
    for path, call in calls_of("AsCommand"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        at_top = [node.value.lineno for node in tree.body if isinstance(node, ast.Assign)]
        assert call.lineno in at_top, f"{path.name}:{call.lineno}: an AsCommand belongs at the top"
    for each in declared:
        assert each.mismatch() == []


@pytest.mark.parametrize("name", ["restate", "restate_all"])
def test_restate_makes_what_the_api_answers_never_a_command(name: str) -> None:
    # a command made by restate would take a request's fields unchecked: AsCommand makes them
    targets = []
    for path, call in calls_of(name):
        target = call.args[1]
        assert isinstance(target, ast.Name), f"{path.name}:{call.lineno}"
        made = getattr(module_of(path), target.id)
        targets.append(made)
        layer = made.__module__.split(".")[0]
        assert layer in ("api", "projections"), f"{path.name}:{call.lineno}: {made.__name__}"
    assert targets


class Create(msgspec.Struct):
    player_id: str
    points: int


class Command(msgspec.Struct):
    player_id: str
    points: int


class CommandWithSeats(msgspec.Struct):
    player_id: str
    points: int
    seated: tuple[str, ...] = ()
    """Set by the server only."""


class CommandWithRequiredSeats(msgspec.Struct):
    player_id: str
    points: int
    seated: tuple[str, ...]


class CreateWithSeats(msgspec.Struct):
    player_id: str
    points: int
    seated: tuple[str, ...] = ()


@dataclass
class Form:
    player_id: str
    points: int


def test_a_request_becomes_its_command_field_by_field() -> None:
    assert AsCommand(Create, Command)(Create("p", 3)) == Command("p", 3)
    assert AsCommand(Form, Command)(Form("p", 3)) == Command("p", 3)
    seated = AsCommand(Create, CommandWithSeats, set_by_server=("seated",))
    assert seated(Create("p", 3)) == CommandWithSeats("p", 3)


@pytest.mark.parametrize(
    ("request_type", "command", "set_by_server", "said"),
    [
        # a new server-only field on the command: undeclared, it is caught
        (Create, CommandWithSeats, (), "seated"),
        # declared, yet the request carries it: a client could set it
        (CreateWithSeats, CommandWithSeats, ("seated",), "a client could set"),
        # a request's field the command lacks would be dropped without a word
        (CreateWithSeats, Command, (), "dropped"),
        # a field the server sets needs a default: restated, it would be missing
        (Create, CommandWithRequiredSeats, ("seated",), "default"),
        (Create, Command, ("seated",), "seated"),
    ],
)
def test_a_mismatch_of_a_request_and_its_command_is_refused_when_declared(
    request_type: type, command: type, set_by_server: tuple[str, ...], said: str
) -> None:
    with pytest.raises(TypeError, match=said):
        AsCommand(request_type, command, set_by_server=set_by_server)


def test_renamed_and_apart_fields_are_named_fields_of_the_request() -> None:
    class Renamed(msgspec.Struct):
        player: str
        points: int
        note: str = ""

    renamed = AsCommand(Renamed, Command, renamed={"player": "player_id"}, apart=("note",))
    assert renamed(Renamed("p", 3, "x")) == Command("p", 3)
    with pytest.raises(TypeError, match="nope"):
        AsCommand(Renamed, Command, renamed={"player": "player_id"}, apart=("note", "nope"))
    with pytest.raises(TypeError, match="other"):
        AsCommand(Renamed, Command, renamed={"player": "other"}, apart=("note",))


def test_a_command_is_made_from_its_declared_request_only() -> None:
    with pytest.raises(TypeError, match="Create"):
        AsCommand(Create, Command)(Form("p", 3))
