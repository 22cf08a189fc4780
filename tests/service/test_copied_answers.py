"""The use cases' answers and the views' public rows built from a domain record's same-named
fields by ``copied``. As tests/domain/test_copied.py pins the domain's, the names copied are
pinned here: a field added to either side under a name the other already uses (with another
meaning) must be a choice, not an accident."""

from __future__ import annotations

import msgspec
import pytest

from domain.events import _common_fields
from domain.seasons.season import PlayerBanned
from domain.tournament import PairedTable, ResultRecorded
from domain.tournament.state import LateEntry as AdmittedEntry
from projections.participants import ParticipantRow, RegistrationRow
from service.rounds.rounds import Result
from service.seasons.seasons import SeasonBan
from service.shared.day_views import Pairing
from service.venue.venue import LateEntry, Table

COPIED: list[tuple[type[msgspec.Struct], type[msgspec.Struct], set[str]]] = [
    # the public list shows a registration without its personal data: no name, no e-mail
    (RegistrationRow, ParticipantRow, {"display_name", "player_id", "status", "waitlist_position"}),
    # rule C-EXCL-1: a ban as the season page lists it; ``banned_at`` is the event's instant
    (PlayerBanned, SeasonBan, {"actor", "player_id", "reason", "revoke_points"}),
    (AdmittedEntry, LateEntry, {"from_round", "missed", "player_id"}),
    # rule T-FMT-2: a bye's table has no ``player_b`` and no match; names and scores are given
    (PairedTable, Table, {"match_id", "match_length", "player_a", "player_b", "table"}),
    # rule T-FMT-11: a round robin's seeds are given (the Berger numbers), not copied
    (
        PairedTable,
        Pairing,
        {
            "bracket",
            "bracket_position",
            "bracket_round",
            "explanation",
            "match_id",
            "match_length",
            "player_a",
            "player_b",
            "reason",
            "seed_a",
            "seed_b",
            "stage",
            "table",
        },
    ),
    # rule T-FMT-6: the answer names the result a correction replaces, as recorded
    (
        ResultRecorded,
        Result,
        {"corrects", "match_id", "points_a", "points_b", "result_id", "winner"},
    ),
]


@pytest.mark.parametrize(("source", "target", "names"), COPIED)
def test_an_answer_copies_exactly_the_fields_meant(
    source: type[msgspec.Struct], target: type[msgspec.Struct], names: set[str]
) -> None:
    assert set(_common_fields(source, target)) == names
