"""A person's erasure in the domain: the pseudonym, erasing once, again after new data, and
which fields each record declares personal (ARCHITECTURE.md "Events")."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import domain.registration_request
import domain.seasons.season
from domain.events import PSEUDONYM, Aggregate, DomainEvent, fold
from domain.match import MatchStarted
from domain.match.state import Match
from domain.people import erasure as people
from domain.tournament import PlayerRegistered, RegistrationWaitlisted

NOW = datetime(2026, 4, 18, 11, 0, tzinfo=UTC)
PLAYER = uuid.UUID("5c0b7b7e-2f7a-5b7e-9d61-2a7c9f0e4b11")
KEY = "ab" * 32
"""The fingerprint of the key the service holds for the person."""


def test_the_pseudonym_depends_on_the_player_id_alone_and_holds_no_name() -> None:
    alias = people.pseudonym(PLAYER)
    assert alias == people.pseudonym(uuid.UUID(str(PLAYER)))
    assert alias.startswith("Player ")
    assert len(alias) == len("Player ") + 6
    assert alias != people.pseudonym(uuid.uuid4())


def test_a_person_is_erased_once_by_the_director_who_asked() -> None:
    events = people.erase(None, PLAYER, NOW, actor="director", key_fingerprint=KEY)
    assert [(type(e).__name__, e.originator_id, e.originator_version) for e in events] == [
        ("PersonErased", PLAYER, 1)
    ]
    assert events[0].pseudonym == people.pseudonym(PLAYER)
    assert events[0].actor == "director"
    assert events[0].key_fingerprint == KEY  # the key every process deletes on reading it
    state = fold(people.evolve, None, events)
    assert state is not None
    assert people.erase(state, PLAYER, NOW, actor="director", key_fingerprint=None) == []


def test_a_person_readable_again_after_an_erasure_is_erased_again() -> None:
    first = fold(
        people.evolve, None, people.erase(None, PLAYER, NOW, actor="d", key_fingerprint=KEY)
    )
    assert first is not None
    again = people.erase(first, PLAYER, NOW, actor="d", key_fingerprint=KEY)
    assert [e.originator_version for e in again] == [2]
    later = fold(people.evolve, first, again)
    assert later is not None
    assert later.erased_at == first.erased_at


def test_registrations_and_tournament_matches_declare_their_personal_fields() -> None:
    for kind in (PlayerRegistered, RegistrationWaitlisted):
        [personal] = kind.personal
        assert personal.subject == "player_id"
        assert dict(personal.erased) == {
            "first_name": PSEUDONYM,
            "last_name": "",
            "email": "",
            "age": None,
            "birth_date": None,
        }
    for record in (MatchStarted, Match):
        assert [(p.subject, dict(p.erased)) for p in record.personal] == [
            ("pairing.player_a_id", {"player_a": PSEUDONYM}),
            ("pairing.player_b_id", {"player_b": PSEUDONYM}),
            ("seated.player_a_id", {"player_a": PSEUDONYM}),
            ("seated.player_b_id", {"player_b": PSEUDONYM}),
        ]


A_PERSONS_DATA = {"first_name", "last_name", "email", "age", "birth_date"}


def _kinds(base: type[DomainEvent] | type[Aggregate]) -> list[Any]:
    found: list[Any] = []
    for kind in base.__subclasses__():
        found += [kind, *_kinds(kind)]
    return found


def test_every_record_holding_a_persons_data_declares_it_personal() -> None:
    # rule: ARCHITECTURE.md "Events": personal data is kept so that it can be erased
    assert domain.registration_request.RegistrationRequested in _kinds(DomainEvent)
    assert domain.seasons.season.Season in _kinds(Aggregate)
    for kind in _kinds(DomainEvent) + _kinds(Aggregate):
        holds = A_PERSONS_DATA.intersection(kind.__struct_fields__)
        declared = {field for personal in kind.personal for field in personal.erased}
        assert holds <= declared, f"{kind.__name__} holds {sorted(holds - declared)} unsealed"
