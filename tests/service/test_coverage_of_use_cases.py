"""Every use case has a test at the service level, not only over HTTP (issue 20, item 7).

The use cases are the public methods of the classes the composition root builds from the
concept slices (``service/<slice>/``, not ``shared/`` or ``storage/``), those they inherit
included: each is counted once, under the class that defines it (``TournamentDay.load`` is the
venue's, the rounds' and the conduct's). Each must be called (``.method(``) in a test file under
``tests/service/`` that names a service holding it: a new use case without a service test fails
here. A check of the test files' text, not a proof that the call is asserted on: it keeps the
gap from growing unseen. ``PLUMBING`` lists the methods that are no use case of their own, each
with its reason.
"""

from __future__ import annotations

import inspect
import re
import typing
from pathlib import Path

from service.bootstrap import Services

HERE = Path(__file__).resolve().parent
BELOW_THE_SLICES = ("service.shared", "service.storage", "service.clock", "service.settings")

PLUMBING: set[str] = {
    # The match a dispute is about, for the controllers' check of who may see or settle it
    # (api/http/auth.py, api/evidence/disputes.py): no decision, no view of its own.
    "DisputeService.load",
    # A signed-in director as recorded, for the sessions' check that they are still active
    # (service/people/sessions.py): no decision, no view of its own.
    "DirectorService.load",
    # One round of a loaded tournament as shown, for the round queries (latest_round,
    # get_round, list_rounds): they are its use cases, and api/ never calls it itself.
    "RoundService.round_view",
    # The outbox's shutdown, before the scheduler's (the app's lifespan, api/app.py).
    "OutboxService.stop",
}


def use_case_classes() -> dict[str, type]:
    hints = typing.get_type_hints(Services)
    return {
        cls.__name__: cls
        for cls in hints.values()
        if inspect.isclass(cls)
        and cls.__module__.startswith("service.")
        and not cls.__module__.startswith(BELOW_THE_SLICES)
    }


def defining_classes() -> dict[str, type]:
    """The use-case classes and the classes of the service they inherit from
    (``TournamentDay``, ``SignedSessions``), by name."""
    return {
        base.__name__: base
        for cls in use_case_classes().values()
        for base in cls.__mro__
        if base.__module__.startswith("service.")
    }


def use_cases() -> list[str]:
    """Each public method once, as ``<the class that defines it>.<method>``."""
    return sorted(
        f"{name}.{method}"
        for name, cls in defining_classes().items()
        for method, member in vars(cls).items()
        if not method.startswith("_") and inspect.isfunction(member)
    )


def holders(name: str) -> dict[str, str]:
    """The use-case classes that are or inherit the class ``name``, each with the name
    ``Services`` holds it under (``TournamentDay``: venue, rounds, conduct)."""
    defining = defining_classes()[name]
    return {
        cls.__name__: attribute
        for attribute, cls in typing.get_type_hints(Services).items()
        if inspect.isclass(cls) and issubclass(cls, defining)
    }


def called_in_service_tests(case: str) -> bool:
    """Whether a test file under tests/service/ calls ``.method(`` and names a service holding
    it (``services.matches``) or its class: a bare name is not enough, for a ``get`` or an
    ``open`` of another class (or a ``.message`` of an error) would pass it."""
    name, method = case.split(".")
    call = re.compile(rf"\.{re.escape(method)}\(")
    held = holders(name)
    names = "|".join(sorted({name, *held}))
    attributes = "|".join(sorted(held.values()))
    owner = re.compile(rf"\bservices\.(?:{attributes})\b|\b(?:{names})\b")
    return any(
        call.search(text) and owner.search(text)
        for path in HERE.glob("test_*.py")
        if path.name != Path(__file__).name
        for text in [path.read_text()]
    )


def test_the_use_cases_are_found() -> None:
    found = use_case_classes()
    assert {"RoundService", "VenueService", "TournamentService", "OutboxService"} <= set(found)
    assert len(use_cases()) > 80


def test_an_inherited_use_case_is_found_once_under_the_class_that_defines_it() -> None:
    cases = use_cases()
    assert {"TournamentDay.load", "SignedSessions.end"} <= set(cases)
    assert not {"ConductService.load", "RoundService.load", "VenueService.load"} & set(cases)
    assert holders("TournamentDay") == {
        "RoundService": "rounds",
        "ConductService": "conduct",
        "VenueService": "venue",
    }


def test_a_use_case_is_found_called_only_where_its_service_is_named() -> None:
    assert called_in_service_tests("MatchService.cube")
    assert not called_in_service_tests("MatchService.no_such_use_case")
    # test_player_sessions.py opens a player's session, never a dispute
    assert called_in_service_tests("PlayerSessions.open")
    assert not called_in_service_tests("OutboxService.open")
    # test_venue.py loads the day's tournament through services.venue
    assert called_in_service_tests("TournamentDay.load")


def test_every_use_case_is_called_by_a_service_test() -> None:
    untested = [
        case for case in use_cases() if case not in PLUMBING and not called_in_service_tests(case)
    ]
    assert untested == [], "write a test in tests/service/test_<slice>.py for each of these"


def test_the_plumbing_names_only_real_methods() -> None:
    cases = set(use_cases())
    assert cases >= PLUMBING, sorted(PLUMBING - cases)
