"""Every use case has a test at the service level, not only over HTTP (issue 20, item 7).

The use cases are the public methods of the classes the composition root builds from the
concept slices (``service/<slice>/``, not ``shared/`` or ``storage/``). Each must be named
(``.method``) in some test file under ``tests/service/``: a new use case without a service
test fails here. A name check, not a proof: it keeps the gap from growing unseen.
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
    # Loading an aggregate for the controllers' own checks (If-Match, audit): no decision,
    # no view of its own; the commands and queries that use it are tested.
    "SeasonService.load",
    "DisputeService.load",
    "DirectorService.load",
    # One round of a loaded tournament as shown; latest_round and get_round are its use cases.
    "RoundService.round_view",
    # Thin delegations to service.shared.registrants (tested through register and the mails).
    "TournamentService.registered",
    "TournamentService.player_token",
    "TournamentService.banned_until",
    "TournamentService.ids_of_same_address",
    # The outbox's shutdown: the scheduler's plumbing.
    "OutboxService.stop",
}

NOT_YET: set[str] = {
    # Use cases still tested only over HTTP (tests/api): each deserves a service test. The
    # list may only shrink: a name tested here must leave it (checked below).
    "DirectorService.acting_on_match",
    "DirectorService.match_target",
    "DirectorService.stream_target",
    "DisputeService.decide",
    "JobService.flag_clock",
    "MatchService.close_session",
    "MatchService.cube",
    "OutboxService.forget_erased",
    "OutboxService.settle",
    "PeopleService.complete_erasures",
    "VideoService.delete_due",
    "VideoService.list_videos",
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


def named_in_service_tests(method: str) -> bool:
    pattern = re.compile(rf"\.{re.escape(method)}\b")
    return any(
        pattern.search(path.read_text())
        for path in HERE.glob("test_*.py")
        if path.name != Path(__file__).name
    )


def test_the_use_cases_are_found() -> None:
    found = use_case_classes()
    assert {"RoundService", "VenueService", "TournamentService", "OutboxService"} <= set(found)
    assert len(use_cases()) > 80


def test_every_use_case_is_called_by_a_service_test() -> None:
    untested = [
        case
        for case in use_cases()
        if case not in PLUMBING | NOT_YET and not named_in_service_tests(case.split(".")[1])
    ]
    assert untested == [], "write a test in tests/service/test_<slice>.py for each of these"


def test_the_lists_of_exceptions_name_only_real_use_cases_and_shrink() -> None:
    cases = set(use_cases())
    assert cases >= PLUMBING, sorted(PLUMBING - cases)
    assert cases >= NOT_YET, sorted(NOT_YET - cases)
    tested_now = sorted(case for case in NOT_YET if named_in_service_tests(case.split(".")[1]))
    assert tested_now == [], "tested now: take these off NOT_YET"
