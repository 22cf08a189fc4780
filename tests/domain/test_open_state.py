"""Each aggregate's state starts from its opening event by ``open_state``, which copies the
fields both name. The copied names are pinned here: a field added to an event or a state
under a name the other already uses (with another meaning) must be a choice, not an accident
(a dispute's ``version`` is the disputed version, not the state's)."""

from __future__ import annotations

import pytest

from domain.events import Aggregate, DomainEvent, _shared_fields
from domain.evidence.dispute import Dispute, DisputeOpened
from domain.evidence.video import Video, VideoRegistered
from domain.match import Match, MatchStarted
from domain.people.director import Director, DirectorAppointed
from domain.people.erasure import Person, PersonErased
from domain.registration_request import RegistrationRequest, RegistrationRequested
from domain.seasons.season import Season, SeasonCreated
from domain.tournament import TournamentScheduled
from domain.tournament.state import Tournament

COPIED: list[tuple[type[DomainEvent], type[Aggregate], set[str]]] = [
    (DisputeOpened, Dispute, {"claim", "match_id"}),
    (VideoRegistered, Video, {"game", "match_id", "path", "uri"}),
    # ``scope`` is copied as the event's kind, then replaced by the state's Scope
    (DirectorAppointed, Director, {"name", "scope", "token_hash"}),
    (PersonErased, Person, {"pseudonym"}),
    # ``clock`` is copied as the preset's name, then replaced by the match's clock; ``rated``
    # and ``cube`` are not copied (the state names no ``rated``; ``cube_enabled`` is the cube)
    (
        MatchStarted,
        Match,
        {
            "beavers",
            "clock",
            "clock_overtime_seconds",
            "dice_mode",
            "jacoby",
            "match_length",
            "pairing",
            "player_a",
            "player_b",
            "rules",
            "sealed_seed",
            "seated",
            "seed_commitment",
            "tavli_format",
            "token_hash_a",
            "token_hash_b",
            "tournament_id",
            "variant",
        },
    ),
    (SeasonCreated, Season, {"ends_on", "name", "starts_on"}),
    (
        RegistrationRequested,
        RegistrationRequest,
        {
            "age",
            "birth_date",
            "confirm_by",
            "duplicate",
            "email",
            "first_name",
            "language",
            "last_name",
            "player_id",
            "token_hash",
            "tournament_id",
        },
    ),
    (
        TournamentScheduled,
        Tournament,
        {
            "buy_in_cents",
            "cancellation_until",
            "capacity",
            "check_in_opens",
            "clock",
            "clock_overtime_seconds",
            "consolation",
            "consolation_match_length",
            "consolation_payout_percent",
            "consolation_pot_percent",
            "dice",
            "format",
            "knockout_lengths",
            "knockout_players",
            "match_length",
            "min_age",
            "payout_percent",
            "play_date",
            "pot_share_cents",
            "round_robin_cycles",
            "season_id",
            "seeding",
            "starts_at",
            "swiss_rounds",
            "time_zone",
            "waitlist",
            "waitlist_limit",
        },
    ),
]


@pytest.mark.parametrize(("event", "state", "names"), COPIED)
def test_an_opening_event_gives_its_state_exactly_the_fields_meant(
    event: type[DomainEvent], state: type[Aggregate], names: set[str]
) -> None:
    assert set(_shared_fields(event, state)) == names
