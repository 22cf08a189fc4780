"""Stored match events keep their shape: each type's topic, its fields in their order, and
the JSON of one event of each as recorded before the cube, resignation and play events got
their shared base classes (ARCHITECTURE.md "Events": an event type keeps its name and its
fields). A base class is never recorded, and a match applies none."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec
import pytest
from eventsourcing.utils import get_topic, resolve_topic

from domain.events import DomainEvent
from domain.match import evolve
from domain.match.events import (
    CheckersPlayed,
    CubeAction,
    CubeBeavered,
    CubeDropped,
    CubeOffered,
    CubeRaccooned,
    CubeTaken,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    VariantCheckersPlayed,
)
from tests.domain.test_match import Table

ENVELOPE: dict[str, Any] = {
    "originator_id": UUID("00000000-0000-4000-8000-000000000001"),
    "originator_version": 7,
    "timestamp": datetime(2026, 3, 14, 15, 9, 26, tzinfo=UTC),
    "actor": "player:a",
}
RECORDED_ENVELOPE = (
    '"originator_id":"00000000-0000-4000-8000-000000000001","originator_version":7,'
    '"timestamp":"2026-03-14T15:09:26Z","actor":"player:a",'
)
RECORDED: list[tuple[DomainEvent, str]] = [
    (CubeOffered(**ENVELOPE, side="a", value=2), '"side":"a","value":2'),
    (CubeTaken(**ENVELOPE, side="b", value=2), '"side":"b","value":2'),
    (CubeDropped(**ENVELOPE, side="b", value=2), '"side":"b","value":2'),
    (CubeBeavered(**ENVELOPE, side="b", value=4), '"side":"b","value":4'),
    (CubeRaccooned(**ENVELOPE, side="a", value=8), '"side":"a","value":8'),
    (ResignationOffered(**ENVELOPE, side="a", level="gammon"), '"side":"a","level":"gammon"'),
    (
        ResignationAccepted(**ENVELOPE, side="b", level="gammon", automatic=True),
        '"side":"b","level":"gammon","automatic":true',
    ),
    (ResignationRejected(**ENVELOPE, side="b", level="single"), '"side":"b","level":"single"'),
    (
        CheckersPlayed(
            **ENVELOPE,
            side="a",
            dice=(3, 1),
            play="8/5 6/5",
            moves=((8, 5, False), (6, 5, False)),
            position_id="4HPwATDgc/ABMA",
        ),
        '"side":"a","dice":[3,1],"play":"8/5 6/5","moves":[[8,5,false],[6,5,false]],'
        '"position_id":"4HPwATDgc/ABMA"',
    ),
    (
        VariantCheckersPlayed(
            **ENVELOPE,
            side="b",
            dice=(6, 6),
            play="24/18",
            moves=((24, 18, True),),
            on_roll=(1, 2),
            opponent=(3, 4),
            pinned_on_roll=(18,),
        ),
        '"side":"b","dice":[6,6],"play":"24/18","moves":[[24,18,true]],"on_roll":[1,2],'
        '"opponent":[3,4],"pinned_on_roll":[18],"pinned_opponent":[]',
    ),
]
TOPICS = {
    CubeOffered: "domain.match.events:CubeOffered",
    CubeTaken: "domain.match.events:CubeTaken",
    CubeDropped: "domain.match.events:CubeDropped",
    CubeBeavered: "domain.match.events:CubeBeavered",
    CubeRaccooned: "domain.match.events:CubeRaccooned",
    ResignationOffered: "domain.match.events:ResignationOffered",
    ResignationAccepted: "domain.match.events:ResignationAccepted",
    ResignationRejected: "domain.match.events:ResignationRejected",
    CheckersPlayed: "domain.match.events:CheckersPlayed",
    VariantCheckersPlayed: "domain.match.events:VariantCheckersPlayed",
}


@pytest.mark.parametrize(("event", "fields"), RECORDED, ids=[type(e).__name__ for e, _ in RECORDED])
def test_an_event_encodes_as_it_was_recorded_and_decodes_back(
    event: DomainEvent, fields: str
) -> None:
    # the base classes add no field and move none: the JSON is the one stored before them
    recorded = f"{{{RECORDED_ENVELOPE}{fields}}}".encode()

    assert msgspec.json.encode(event) == recorded
    assert msgspec.json.decode(recorded, type=type(event)) == event


def test_each_event_keeps_its_topic() -> None:
    # a stored event names its class by module; the class must stay where it was
    assert {kind: get_topic(kind) for kind in TOPICS} == TOPICS
    assert all(resolve_topic(topic) is kind for kind, topic in TOPICS.items())


def test_a_match_applies_no_base_class() -> None:
    with pytest.raises(TypeError, match="is not an event of a match"):
        evolve(Table().state, CubeAction(**ENVELOPE, side="a", value=2))
