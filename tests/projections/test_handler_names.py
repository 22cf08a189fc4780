"""Every projection handler is named after a real event: a renamed event must not silently
stop a view (the runner finds handlers by name, so a stale name is simply never called)."""

from __future__ import annotations

import importlib
import pkgutil
import typing

import pytest

import domain
import projections
from domain.events import DomainEvent
from projections.runner import Projection, _handler_name


def _import_all(package: object) -> None:
    for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):  # type: ignore[attr-defined]
        importlib.import_module(module.name)


def _subclasses(kind: type[object]) -> set[type[object]]:
    found: set[type[object]] = set()
    sub: type[object]
    for sub in kind.__subclasses__():
        found |= {sub} | _subclasses(sub)
    return found


def _event_types() -> dict[str, type[object]]:
    """Every recorded kind of event by its handler's name. A base class that events share
    (``CubeAction``) is never recorded itself: a handler named after it would never be called."""
    _import_all(domain)
    kinds = _subclasses(DomainEvent)
    return {_handler_name(e.__name__): e for e in kinds if not e.__subclasses__()}


def _production_projections() -> list[type[Projection]]:
    _import_all(projections)
    # every subclass, not only the direct ones: a view may build on a shared base (names.py)
    found = [
        p
        for p in _subclasses(Projection)
        if issubclass(p, Projection) and p.__module__.startswith("projections.")
    ]
    return sorted(found, key=lambda p: p.__name__)


def _handlers(projection: type[Projection]) -> dict[str, object]:
    """The public methods a projection adds to the base: by the runner's rule, its handlers."""
    return {
        name: member
        for klass in projection.__mro__
        if klass is not Projection and issubclass(klass, Projection)
        for name, member in vars(klass).items()
        if callable(member) and not name.startswith("_") and name not in dir(Projection)
    }


def test_every_projection_module_is_found() -> None:
    names = {p.__name__ for p in _production_projections()}
    assert {"SeatsProjection", "StandingsProjection", "RankingProjection"} <= names


def test_every_module_of_projections_holds_a_projection_this_test_checks() -> None:
    # a view defined otherwise than as a Projection subclass would escape the check below
    homes = {p.__module__ for p in _production_projections()}
    modules = {
        m.name
        for m in pkgutil.walk_packages(projections.__path__, "projections.")
        if m.name != "projections.runner"
    }
    assert modules <= homes, sorted(modules - homes)


def test_a_base_class_of_events_is_no_event_a_handler_may_name() -> None:
    events = _event_types()
    assert {"cube_offered", "cube_taken", "player_registered"} <= events.keys()
    assert not {"cube_action", "resignation_action", "registration_facts"} & events.keys()


@pytest.mark.parametrize("projection", _production_projections(), ids=lambda p: p.__name__)
def test_each_handler_takes_the_event_its_name_names(projection: type[Projection]) -> None:
    events = _event_types()
    handlers = _handlers(projection)
    assert handlers, f"{projection.__name__} handles no event"
    for name, handler in handlers.items():
        assert name in events, f"{projection.__name__}.{name} names no event type"
        hints = typing.get_type_hints(handler)
        taken = hints.get("event")
        accepted = typing.get_args(taken) or (taken,)
        assert events[name] in accepted, (
            f"{projection.__name__}.{name} takes {taken}, not the event {events[name].__name__}"
        )
