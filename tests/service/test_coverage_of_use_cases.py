"""Every use case has a test at the service level, not only over HTTP (issue 20, item 7).

The use cases are the public methods of the classes the composition root builds from the
concept slices (``service/<slice>/``, not ``shared/`` or ``storage/``). Each must be called
(``.method(``) in a test file under ``tests/service/`` that names its service: a new use case
without a service test fails here. A check of the test files' text, not a proof that the call
is asserted on: it keeps the gap from growing unseen. ``PLUMBING`` lists the methods that are
no use case of their own, each with its reason.
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
    # One round of a loaded tournament as shown; latest_round and get_round are its use cases.
    "RoundService.round_view",
    # The outbox's shutdown: the scheduler's plumbing.
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


def use_cases() -> list[str]:
    return sorted(
        f"{name}.{method}"
        for name, cls in use_case_classes().items()
        for method, member in vars(cls).items()
        if not method.startswith("_") and inspect.isfunction(member)
    )


def service_attributes() -> dict[str, str]:
    """Each use-case class by the name ``Services`` holds it under (``MatchService``: matches)."""
    return {
        cls.__name__: name
        for name, cls in typing.get_type_hints(Services).items()
        if inspect.isclass(cls)
    }


def called_in_service_tests(case: str) -> bool:
    """Whether a test file under tests/service/ calls ``.method(`` and names the class's
    service (``services.matches``) or the class itself: a bare name is not enough, for a
    ``get`` or an ``open`` of another class (or a ``.message`` of an error) would pass it."""
    name, method = case.split(".")
    call = re.compile(rf"\.{re.escape(method)}\(")
    owner = re.compile(rf"\bservices\.{service_attributes()[name]}\b|\b{name}\b")
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


def test_a_use_case_is_found_called_only_where_its_service_is_named() -> None:
    assert called_in_service_tests("MatchService.cube")
    assert not called_in_service_tests("MatchService.no_such_use_case")
    # test_player_sessions.py opens a player's session, never a dispute
    assert called_in_service_tests("PlayerSessions.open")
    assert not called_in_service_tests("OutboxService.open")


def test_every_use_case_is_called_by_a_service_test() -> None:
    untested = [
        case for case in use_cases() if case not in PLUMBING and not called_in_service_tests(case)
    ]
    assert untested == [], "write a test in tests/service/test_<slice>.py for each of these"


def test_the_plumbing_names_only_real_methods() -> None:
    cases = set(use_cases())
    assert cases >= PLUMBING, sorted(PLUMBING - cases)
