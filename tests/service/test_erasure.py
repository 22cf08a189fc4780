"""Personal data sealed under each person's key, and erasure by deleting the key (crypto-
shredding), on SQLite and PostgreSQL: stored events and snapshots hold no plain text, a
process's caches forget the person, an erasure cut short is completed at the next start, and
events stored before sealing existed still load (ARCHITECTURE.md "Events")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import cast
from uuid import UUID, uuid4

import msgspec
import pytest

from domain import match
from domain.events import DIRECTOR
from domain.match import MatchStarted
from domain.match.events import TournamentPairing
from domain.people.erasure import pseudonym
from domain.tournament import Applicant, PlayerRegistered, Tournament, TournamentPlan
from service.bootstrap import Services, bootstrap
from service.clock import MovableClock
from service.settings import Settings
from service.shared.commands import CommandRunner
from service.shared.match_play import MatchTerms
from service.storage.events import Change, EventStore, MsgspecMapper, Snapshot
from service.storage.persistence import persistence_environment

NAME = b"Zyxwella"
EMAIL = "zyxwella.quorvant@example.org"
ZYXWELLA = Applicant(first_name="Zyxwella", last_name="Quorvant", email=EMAIL, age=46)
NOW = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def start(tmp_path: Path, database_url: str | None) -> Services:
    settings = Settings(
        data_dir=tmp_path,
        database_url=database_url,
        dev=True,
        run_scheduler=False,
        secret_key="the erasure tests' secret",  # shared by the second process
    )
    return bootstrap(settings, MovableClock(NOW, ticking=False))


@pytest.fixture
def services(tmp_path: Path, database_url: str | None) -> Iterator[Services]:
    built = start(tmp_path, database_url)
    yield built
    built.close()


def register_zyxwella(services: Services) -> tuple[UUID, UUID]:
    """A tournament and Zyxwella's registration in it: (tournament id, player id)."""
    tournament_id = services.tournaments.schedule_tournament(
        TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
    ).id
    registered = services.tournaments.register(tournament_id, ZYXWELLA)
    return tournament_id, registered.player_id


def raw_states(store: EventStore) -> list[bytes]:
    """Every stored event's bytes as the database holds them (no decoding)."""
    return [bytes(notification.state) for notification in store.notifications(0, 10_000)]


def other_process(services: Services) -> EventStore:
    """A second store on the same database: nothing cached in memory."""
    return EventStore(env=persistence_environment(services.settings.event_store_url))


def registration(store: EventStore, tournament_id: UUID) -> PlayerRegistered:
    [event] = [e for e in store.stream(tournament_id) if isinstance(e, PlayerRegistered)]
    return event


def test_a_registration_is_stored_sealed_and_reads_plain_until_its_person_is_erased(
    services: Services,
) -> None:
    tournament_id, player_id = register_zyxwella(services)
    assert not [state for state in raw_states(services.store) if NAME in state]
    assert not [state for state in raw_states(services.store) if EMAIL.encode() in state]
    assert registration(services.store, tournament_id).first_name == "Zyxwella"

    alias = services.people.erase(player_id, actor=DIRECTOR)

    assert alias == pseudonym(player_id)
    for store in (services.store, fresh := other_process(services)):
        erased = registration(store, tournament_id)
        assert (erased.first_name, erased.last_name) == (alias, "")
        assert (erased.email, erased.age, erased.birth_date) == ("", None, None)
        assert erased.token_hash == registration(services.store, tournament_id).token_hash
        assert store.keys.key_of(player_id) is None
    fresh.close()
    # history is not rewritten: the registration is still the event it was, at its version
    assert [type(e).__name__ for e in services.store.stream(tournament_id)][-1] == (
        "PlayerRegistered"
    )
    assert [type(e).__name__ for e in services.store.stream(player_id)] == ["PersonErased"]


def test_the_key_table_lives_in_the_event_stores_database_and_loses_the_key(
    services: Services, database_url: str | None
) -> None:
    _, player_id = register_zyxwella(services)
    key = services.store.keys.key_of(player_id)
    assert key is not None
    assert len(key) == 32

    services.people.erase(player_id, actor=DIRECTOR)

    if database_url is None:
        events_file = services.settings.data_dir / "events.sqlite3"
        files = [events_file, events_file.with_name("events.sqlite3-wal")]
        assert not [path for path in files if path.exists() and key in path.read_bytes()]
        return
    import psycopg

    schema = database_url.rpartition("schema=")[2]
    events_table = services.store.recorder.events_table_name  # type: ignore[attr-defined]
    with psycopg.connect(database_url.partition("?")[0]) as connection:
        row = connection.execute(
            f'SELECT data_key, erased_at FROM "{schema}".person_keys WHERE player_id = %s',
            (str(player_id),),
        ).fetchone()
        stored = connection.execute(f'SELECT state FROM "{schema}"."{events_table}"').fetchall()
    assert row is not None
    assert row[0] is None
    assert row[1] is not None
    assert stored
    assert not [state for (state,) in stored if NAME in bytes(state)]


def start_paired_match(store: EventStore) -> tuple[UUID, UUID, UUID]:
    """A tournament match of Zyxwella Q. (side a) and Anna M. (side b), each named under their
    own key: their player ids and the match's id."""
    zyxwella, anna, match_id = uuid4(), uuid4(), uuid4()
    started = MatchStarted(
        originator_id=match_id,
        originator_version=1,
        timestamp=NOW,
        player_a="Zyxwella Q.",
        player_b="Anna M.",
        match_length=7,
        dice_mode="entered",
        clock="none",
        token_hash_a="a" * 64,
        token_hash_b="b" * 64,
        tournament_id=str(uuid4()),
        pairing=TournamentPairing(
            round=1, table=1, stage="swiss", player_a_id=zyxwella, player_b_id=anna
        ),
    )
    store.save_changes([Change.of(match.evolve, None, [started])])
    return zyxwella, anna, match_id


def test_a_tournament_match_snapshot_is_sealed_and_loads_the_pseudonym_after_erasure(
    services: Services,
) -> None:
    store = services.store
    store.snapshot_interval = 1  # every state is snapshotted
    zyxwella, anna, match_id = start_paired_match(store)
    assert store.snapshots is not None
    [snapshot] = list(store.snapshots.get(match_id))
    assert isinstance(snapshot, Snapshot)
    assert NAME not in snapshot.state
    assert b"Anna M." not in snapshot.state
    cold = other_process(services)
    assert cold.load(match_id, match.evolve).player_a == "Zyxwella Q."  # from the snapshot
    cold.close()

    services.people.erase(zyxwella, actor=DIRECTOR)

    for store_now in (services.store, cold := other_process(services)):
        state = store_now.load(match_id, match.evolve)
        assert (state.player_a, state.player_b) == (pseudonym(zyxwella), "Anna M.")
    cold.close()
    # a snapshot taken after the erasure seals nothing of hers, and draws her no new key
    store.snapshot_if_due(msgspec.structs.replace(state, version=2), NOW)
    assert store.keys.key_of(zyxwella) is None
    assert store.keys.key_of(anna) is not None


@pytest.mark.postgres
def test_another_process_forgets_the_person_when_its_views_read_the_erasure(
    tmp_path: Path, postgres_schema_url: str
) -> None:
    # only a PostgreSQL store is shared by several processes
    services = start(tmp_path / "first", postgres_schema_url)
    tournament_id, player_id = register_zyxwella(services)
    second = start(tmp_path / "second", postgres_schema_url)
    try:
        assert registration(second.store, tournament_id).first_name == "Zyxwella"
        services.people.erase(player_id, actor=DIRECTOR)
        second.views.catch_up()
        assert registration(second.store, tournament_id).first_name == pseudonym(player_id)
        rows = second.tournaments.list_registrations(tournament_id)
        assert [row.display_name for row in rows] == [pseudonym(player_id)]
        views = second.settings.views_path
        files = [views, views.with_name(f"{views.name}-wal")]
        assert not [path for path in files if path.exists() and NAME in path.read_bytes()]
    finally:
        second.close()
        services.close()


def test_an_erasure_cut_short_after_its_event_is_completed_at_the_next_start(
    tmp_path: Path, database_url: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    services = start(tmp_path, database_url)
    tournament_id, player_id = register_zyxwella(services)

    def crash(*_: object, **__: object) -> list[UUID]:
        raise SystemExit("the process died")

    for deletion in ("shred", "shred_named"):  # it dies right after recording the event
        monkeypatch.setattr(services.store.keys, deletion, crash)
    with pytest.raises(SystemExit):
        services.people.erase(player_id, actor=DIRECTOR)
    assert [type(e).__name__ for e in services.store.stream(player_id)] == ["PersonErased"]
    assert services.store.keys.key_of(player_id) is not None
    services.close()
    monkeypatch.undo()

    restarted = start(tmp_path, database_url)
    try:
        assert restarted.store.keys.key_of(player_id) is None
        assert registration(restarted.store, tournament_id).email == ""
    finally:
        restarted.close()


def test_completing_the_erasures_deletes_only_the_keys_an_erasure_left_behind(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # API.md "POST /people/{id}/erasure" (what each start does): the views know of the erasure,
    # the person's key outlived it
    tournament_id, player_id = register_zyxwella(services)
    anna = services.tournaments.register(
        tournament_id, Applicant(first_name="Anna", last_name="M", email="a@example.org", age=40)
    ).player_id
    with monkeypatch.context() as cut_short:
        for deletion in ("shred", "shred_named"):  # the process died before deleting it
            cut_short.setattr(services.store.keys, deletion, lambda *_, **__: [])
        services.people.erase(player_id, actor=DIRECTOR)
    assert services.store.keys.key_of(player_id) is not None

    assert services.people.complete_erasures() == [player_id]
    assert services.store.keys.key_of(player_id) is None
    assert services.store.keys.key_of(anna) is not None  # nobody else's
    assert services.people.complete_erasures() == []  # done once


def test_a_friendly_names_nobody_registered_and_its_players_act_by_name(
    services: Services,
) -> None:
    created = services.matches.create(
        MatchTerms(
            player_a="Zyxwella",
            player_b="Anna",
            match_length=3,
            dice="entered",
            clock="none",
            rated=False,
        )
    )
    # rule R-RATE-7: a friendly's typed-in names name no person: nothing to seal
    assert [state for state in raw_states(services.store) if NAME in state]
    state = services.store.load(created.match.id, match.evolve)
    assert state.actor("a") == "player:Zyxwella"


def test_events_stored_in_plain_text_before_sealing_still_load_and_read_erased_after_erasure(
    services: Services,
) -> None:
    mapper = cast(MsgspecMapper, services.store.mapper)
    codec, mapper.personal = mapper.personal, None  # an event stored by the older release
    try:
        tournament_id, player_id = register_zyxwella(services)
    finally:
        mapper.personal = codec
    assert [state for state in raw_states(services.store) if NAME in state]
    assert registration(services.store, tournament_id).first_name == "Zyxwella"

    alias = services.people.erase(player_id, actor=DIRECTOR)

    assert registration(services.store, tournament_id).first_name == alias
    services.views.rebuild()
    rows = services.tournaments.list_registrations(tournament_id)
    assert [(row.display_name, row.email) for row in rows] == [(alias, "")]
    # what the erasure cannot do: bytes stored in plain text stay (docs/operations.md)
    assert [state for state in raw_states(services.store) if NAME in state]


def test_a_person_who_registers_again_after_an_erasure_gets_a_new_key_and_can_be_erased_again(
    services: Services,
) -> None:
    first_tournament, player_id = register_zyxwella(services)
    alias = services.people.erase(player_id, actor=DIRECTOR)
    second_tournament, again = register_zyxwella(services)
    assert again == player_id  # the same address: the same player id
    assert registration(services.store, second_tournament).first_name == "Zyxwella"
    assert registration(services.store, first_tournament).first_name == alias

    assert services.people.erase(player_id, actor=DIRECTOR) == alias

    assert registration(services.store, second_tournament).first_name == alias
    rows = services.tournaments.list_registrations(second_tournament)
    assert [row.display_name for row in rows] == [alias]
    assert [type(e).__name__ for e in services.store.stream(player_id)] == [
        "PersonErased",
        "PersonErased",
    ]


def test_a_confirmation_that_read_its_request_before_the_erasure_stores_no_readable_data(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an erasure is never undone by a write of what was read before it (ARCHITECTURE.md
    # "Events"): the registration is stored with the erased values, under no new key
    tournament_id = services.tournaments.schedule_tournament(
        TournamentPlan(name="Frühlingsturnier 2026", date="2026-04-18", venue="Amberg")
    ).id
    services.requests.request(tournament_id, ZYXWELLA)
    player_id = services.tournaments.player_id_for(EMAIL)
    [request_id] = [
        UUID(str(n.originator_id))
        for n in services.store.notifications(0, 100)
        if "Requested" in n.topic
    ]
    token = services.requests.confirmation_token(request_id)
    decide = services.registrants.banned_until
    erased: list[str] = []

    def erased_while_deciding(state: Tournament, person: UUID) -> date | None:
        if not erased:  # another request erases the person while this one decides
            erased.append(services.people.erase(player_id, actor=DIRECTOR))
        return decide(state, person)

    monkeypatch.setattr(services.registrants, "banned_until", erased_while_deciding)
    services.requests.confirm(token)

    assert erased == [pseudonym(player_id)]
    assert services.store.keys.key_of(player_id) is None
    assert not [state for state in raw_states(services.store) if NAME in state]
    services.store.states.clear()
    stored = registration(services.store, tournament_id)
    assert (stored.first_name, stored.email) == (pseudonym(player_id), "")
    rows = services.tournaments.list_registrations(tournament_id)
    assert [(row.display_name, row.email) for row in rows] == [(pseudonym(player_id), "")]


def test_a_snapshot_of_a_state_cached_before_the_erasure_stores_the_pseudonym_under_no_key(
    services: Services,
) -> None:
    store = services.store
    zyxwella, _, match_id = start_paired_match(store)
    held = store.load(match_id, match.evolve)  # a command read it before the erasure
    services.people.erase(zyxwella, actor=DIRECTOR)

    store.snapshot_interval = 1
    store.snapshot_if_due(msgspec.structs.replace(held, version=2), NOW)

    assert store.keys.key_of(zyxwella) is None
    assert store.snapshots is not None
    [snapshot] = [s for s in store.snapshots.get(match_id) if isinstance(s, Snapshot)]
    assert NAME not in snapshot.state
    assert b"Anna M." not in snapshot.state
    cold = other_process(services)
    try:
        state = cold.load(match_id, match.evolve)
        assert (state.player_a, state.player_b) == (pseudonym(zyxwella), "Anna M.")
    finally:
        cold.close()


@pytest.mark.postgres
def test_an_erasure_cut_short_is_completed_by_another_process_reading_it(
    tmp_path: Path, postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ARCHITECTURE.md "Events": the erasure completes without a restart; the event names the
    # key it deletes, so every process reading it deletes that key (and only that one)
    services = start(tmp_path / "first", postgres_schema_url)
    tournament_id, player_id = register_zyxwella(services)
    second = start(tmp_path / "second", postgres_schema_url)
    try:
        assert registration(second.store, tournament_id).first_name == "Zyxwella"

        def crash(*_: object, **__: object) -> list[UUID]:
            raise SystemExit("the first process died")

        for deletion in ("shred", "shred_named"):  # it dies right after recording the event
            monkeypatch.setattr(services.store.keys, deletion, crash)
        with pytest.raises(SystemExit):
            services.people.erase(player_id, actor=DIRECTOR)
        lagging = other_process(second)
        assert lagging.keys.key_of(player_id) is not None  # still stored
        lagging.close()

        second.views.catch_up()

        assert second.store.keys.key_of(player_id) is None
        cold = other_process(second)
        try:
            assert cold.keys.key_of(player_id) is None
            assert registration(cold, tournament_id).first_name == pseudonym(player_id)
        finally:
            cold.close()
    finally:
        second.close()
        services.close()


def test_reading_an_old_erasure_again_keeps_the_key_of_a_later_registration(
    services: Services,
) -> None:
    first_tournament, player_id = register_zyxwella(services)
    services.people.erase(player_id, actor=DIRECTOR)
    second_tournament, _ = register_zyxwella(services)  # typed in after the erasure
    new_key = services.store.keys.key_of(player_id)
    assert new_key is not None

    services.views.rebuild()  # reads the erasure again

    assert services.store.keys.key_of(player_id) == new_key
    assert registration(services.store, second_tournament).first_name == "Zyxwella"
    assert registration(services.store, first_tournament).first_name == pseudonym(player_id)


def test_a_rebuild_of_the_views_reads_an_erasure_without_forgetting_again(
    services: Services,
) -> None:
    # what a process keeps (stored idempotent answers, cached states) is forgotten once per
    # erasure, not again on every rebuild that reads the old event
    _, player_id = register_zyxwella(services)
    services.people.erase(player_id, actor="director")
    forgotten: list[UUID] = []
    services.store.erasure_listeners.append(forgotten.append)

    services.views.rebuild()

    assert forgotten == []


def test_a_rated_ad_hoc_match_seals_the_names_of_its_rating_only_players(
    services: Services,
) -> None:
    # rule R-RATE-7: a new name becomes a rating-only player, whose name is personal data
    created = services.matches.create(
        MatchTerms(player_a="Zyxwella", player_b="Anna", match_length=3)
    )
    assert not [state for state in raw_states(services.store) if NAME in state]
    state = services.store.load(created.match.id, match.evolve)
    assert state.player_a == "Zyxwella"
    assert "Zyxwella" not in state.actor("a")  # the side acts by its player id


def test_a_match_command_that_read_the_match_before_the_erasure_leaves_no_name_cached(
    services: Services,
) -> None:
    # API.md "POST /api/v1/people/{player_id}/erasure" (personal data erased everywhere),
    # ARCHITECTURE.md "Events": a command that read the match before the erasure and stores its
    # roll after it (a roll names nobody) must not put the name back in the cache, from which
    # every later command and view of the match reads it
    store = services.store
    zyxwella, _, match_id = start_paired_match(store)
    erased: list[str] = []

    def roll_while_erased(now: datetime) -> Change[match.Match]:
        held = store.load(match_id, match.evolve)
        if not erased:  # another request erases the person while this command decides
            erased.append(services.people.erase(zyxwella, actor=DIRECTOR))
        return Change.of(match.evolve, held, match.roll(held, None, (5, 3), now, actor=DIRECTOR))

    CommandRunner(store, services.clock).run(roll_while_erased)

    assert erased == [pseudonym(zyxwella)]
    state = store.load(match_id, match.evolve)
    assert (state.version, state.player_a, state.player_b) == (2, pseudonym(zyxwella), "Anna M.")


def test_a_load_that_decoded_the_match_before_the_erasure_leaves_no_name_cached(
    services: Services,
) -> None:
    # as above, for a load (a view of the match) that decoded the match's events before
    # another request's erasure forgot the cached states, and keeps its state after it
    store = services.store
    zyxwella, _, match_id = start_paired_match(store)
    store.states.clear()  # nothing cached: the load reads the store
    erased: list[str] = []

    def erased_while_loading(state: match.Match | None, event: object) -> match.Match:
        if not erased:  # another request erases the person while this load folds
            erased.append(services.people.erase(zyxwella, actor=DIRECTOR))
        return match.evolve(state, event)  # type: ignore[arg-type]

    store.load(match_id, erased_while_loading)

    assert erased == [pseudonym(zyxwella)]
    state = store.load(match_id, match.evolve)
    assert (state.player_a, state.player_b) == (pseudonym(zyxwella), "Anna M.")


def test_a_key_read_from_the_table_just_before_the_erasure_deleted_it_is_not_kept_in_memory(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    # API.md "POST /api/v1/people/{player_id}/erasure" (personal data erased everywhere): a
    # load that read the person's key from the key table just before another request's
    # erasure deleted it must not keep that key in memory after the erasure forgot it, or
    # every later load of this process unseals the name again
    store = services.store
    zyxwella, _, match_id = start_paired_match(store)
    store.states.clear()
    store.keys.forget(zyxwella, erased=False)  # nothing in memory: the load reads the table
    read_from_table = store.keys._run
    erased: list[str] = []

    def erased_after_the_key_was_read(
        sql: str, params: tuple[object, ...] = (), *, secure: bool = False
    ) -> list[object]:
        rows = read_from_table(sql, params, secure=secure)
        if sql.startswith("SELECT data_key") and not erased:
            erased.append("erasing")  # another request erases the person now
            erased.append(services.people.erase(zyxwella, actor=DIRECTOR))
        return rows

    monkeypatch.setattr(store.keys, "_run", erased_after_the_key_was_read)
    store.load(match_id, match.evolve)

    assert erased == ["erasing", pseudonym(zyxwella)]
    state = store.load(match_id, match.evolve)
    assert (state.player_a, state.player_b) == (pseudonym(zyxwella), "Anna M.")
