"""Records built from another record's same-named fields by ``copied`` (``same_named``). The
copied names are pinned here, as ``test_open_state`` pins an opening event's: a field added to
either side under a name the other already uses (with another meaning) must be a choice, not an
accident."""

from __future__ import annotations

import importlib
from uuid import UUID

import msgspec
import pytest

from domain.events import _common_fields, copied
from domain.registration_request import RegistrationRequest
from domain.seasons.ranking import WonMatch
from domain.tournament import (
    Applicant,
    LateEntryAdmitted,
    PairedTable,
    PlayerRegistered,
    ResultRecorded,
    ResultReported,
    RoundPaired,
    TournamentStarted,
)
from domain.tournament.registration import Registrant
from domain.tournament.state import LateEntry, Registration, Report, Result, Round, Tournament

outcomes = importlib.import_module("domain.tournament.outcomes")

COPIED: list[tuple[type[msgspec.Struct], type[msgspec.Struct], set[str]]] = [
    # rule P-MAIL-1: a request records the person as checked, with the age and birth date as
    # typed (given apart), and gives them back when the registration is decided
    (Registrant, Applicant, {"birth_date", "email", "first_name", "language", "last_name"}),
    (
        RegistrationRequest,
        Applicant,
        {"age", "birth_date", "email", "first_name", "language", "last_name"},
    ),
    # rule T-REG-3: the registration's arrival (``sequence``) and status are the state's own
    (PlayerRegistered, Registration, {"player_id", "token_hash"}),
    # rule T-FMT-2: the round's number and pairing time are given apart
    (RoundPaired, Round, {"completable", "seed", "stage", "tables"}),
    # rule T-FMT-6: the result's id is the event's ``result_id``
    (
        ResultRecorded,
        Result,
        {"match_id", "played", "points_a", "points_b", "source", "winner"},
    ),
    (ResultReported, Report, {"match_id", "player_id", "points_a", "points_b", "winner"}),
    (LateEntryAdmitted, LateEntry, {"from_round", "missed", "player_id"}),
    # rule T-BUYIN-1: ``pot_share_cents`` is copied, and given back its scheduled value by evolve
    (
        TournamentStarted,
        Tournament,
        {
            "berger_numbers",
            "bracket_seeds",
            "consolation",
            "consolation_match_length",
            "consolation_payout_percent",
            "consolation_played",
            "consolation_pot_percent",
            "field",
            "format",
            "knockout_lengths",
            "knockout_players",
            "lot_seed",
            "match_length",
            "payout_percent",
            "players",
            "pot_cents",
            "pot_share_cents",
            "round_robin_cycles",
            "seeding",
            "swiss_rounds",
            "tiebreaks",
        },
    ),
    # the one fold of results reads a table's seating and its result (rule T-FMT-6)
    (
        PairedTable,
        outcomes.TableFact,
        {"match_id", "match_length", "player_a", "player_b", "stage", "table"},
    ),
    (Result, outcomes.Decided, {"played", "points_a", "points_b", "winner"}),
    (
        outcomes.TableFact,
        outcomes.DecidedMatch,
        {"match_id", "match_length", "round", "stage", "table"},
    ),
    # rule R-BYE-1: a bye's match length is given apart (the Swiss length)
    (
        outcomes.DecidedMatch,
        WonMatch,
        {"match_id", "match_length", "played", "round", "stage", "winner"},
    ),
]


@pytest.mark.parametrize(("source", "target", "names"), COPIED)
def test_a_record_copies_exactly_the_fields_meant(
    source: type[msgspec.Struct], target: type[msgspec.Struct], names: set[str]
) -> None:
    assert set(_common_fields(source, target)) == names


def test_the_fields_given_win_over_the_copied_ones() -> None:
    player = UUID(int=1)
    report = Report(match_id=UUID(int=2), player_id=player, winner=player, points_a=3, points_b=1)
    assert copied(report, Report, points_b=2) == msgspec.structs.replace(report, points_b=2)
