"""The composition root: builds the event store, the read models and the use cases once."""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from projections import outbox as outbox_rows
from projections.calendar import CalendarProjection
from projections.deadlines import DeadlinesProjection
from projections.directors import DirectorsProjection
from projections.outbox import OutboxProjection
from projections.participants import ParticipantsProjection
from projections.ranking import RankingProjection
from projections.runner import Projection, Views
from projections.seats import SeatsProjection
from projections.standings import StandingsProjection
from projections.tokens import PlayerTokensProjection
from service.clock import Clock, MovableClock, SystemClock
from service.commands import CommandRunner
from service.conduct import ConductService
from service.directors import DirectorService
from service.disputes import DisputeService
from service.evidence import EvidenceFolder
from service.jobs import JobService
from service.mail import OutboxService, transport_for
from service.mail_ledger import MailLedger
from service.matches import MatchService
from service.people import PeopleService
from service.persistence import (
    create_private_files,
    persistence_environment,
    sqlite_path,
    store_name,
)
from service.places import PlaceService
from service.registration_requests import RegistrationRequestService
from service.rounds import RoundService
from service.seasons import SeasonService
from service.secret import SecretMismatchError, check_secret, derived_key, load_secret_key
from service.settings import Settings
from service.startup import (
    StartRefusedError,
    check_secret_key_file,
    check_store_file,
    check_store_history,
    own_files,
)
from service.store import EventStore, StoreEventSource
from service.tokens import TokenService
from service.tournaments import TournamentService
from service.venue import VenueService
from service.videos import VideoService


@dataclass
class Services:
    """Everything a request or a scheduled job needs, built from one ``Settings``."""

    settings: Settings
    clock: Clock
    zone: ZoneInfo
    """The club's time zone (``settings.timezone``)."""
    store: EventStore
    views: Views
    seasons: SeasonService
    tournaments: TournamentService
    matches: MatchService
    rounds: RoundService
    places: PlaceService
    conduct: ConductService
    videos: VideoService
    disputes: DisputeService
    jobs: JobService
    venue: VenueService
    directors: DirectorService
    tokens: TokenService
    """Whose a bearer token is: nobody's (401) or somebody's without the right (403)."""
    people: PeopleService
    requests: RegistrationRequestService
    """Anonymous registrations confirmed by e-mail (rule P-MAIL-1)."""
    outbox: OutboxService
    answer_key: bytes
    """Seals the API's kept idempotent answers (they may hold bearer tokens)."""

    def close(self) -> None:
        self.views.close()
        self.store.close()


def build_clock(settings: Settings) -> Clock:
    return MovableClock(settings.start_time) if settings.dev else SystemClock()


def projections() -> list[Projection]:
    """Every read model the service keeps (one module each in ``projections/``)."""
    return [
        CalendarProjection(),
        SeatsProjection(),
        ParticipantsProjection(),
        StandingsProjection(),
        RankingProjection(),
        DeadlinesProjection(),
        DirectorsProjection(),
        OutboxProjection(),
        PlayerTokensProjection(),
    ]


def outbox_origin(views: Views, ledger: MailLedger, store: EventStore) -> int:
    """The log position the outbox began at on this store (rule P-MAIL-1): mails of events at
    or below it are never sent. Recorded by the first process that runs the outbox: the end of
    the log then (a store written by a version without outbox), or 0 when these views ran the
    outbox before the shared ledger existed (their sent mails move into the ledger)."""
    if not any(isinstance(p, OutboxProjection) for p in views.projections):
        return 0
    with views.reading() as db:
        legacy = outbox_rows.legacy_sent(db)
    origin = ledger.origin(store.latest_notification_id() if legacy is None else 0)
    if legacy is not None:
        ledger.import_sent(legacy)
        with views.writing() as db:
            outbox_rows.drop_legacy_sent(db)
    return origin


def bootstrap(settings: Settings, clock: Clock | None = None) -> Services:
    """The running service; ``StartRefusedError`` (or ``SecretMismatchError``) instead of a
    start that would lose or hide data (``service.startup``)."""
    settings.data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    evidence = EvidenceFolder(settings.evidence_path, settings.data_dir)
    evidence.check_apart_from(own_files(settings))
    check_store_file(settings)  # before opening the store creates an empty one
    event_file = sqlite_path(settings.event_store_url)
    create_private_files(settings.views_path, *([event_file] if event_file else []))
    store = EventStore(env=persistence_environment(settings.event_store_url))
    name = store_name(settings.event_store_url)
    try:
        check_store_history(store, name, settings.views_path)
        check_secret_key_file(settings, store)
        # The server's secret: seals server dice seeds and keys player ids (shared by every
        # process of one store, which refuses another one).
        secret = load_secret_key(settings.secret_key, settings.data_dir)
        check_secret(store, secret)
    except (StartRefusedError, SecretMismatchError):
        store.close()
        raise
    evidence.create()
    source = StoreEventSource(store, name)
    views = Views(settings.views_path, source, projections())
    ledger = MailLedger(store)
    origin = outbox_origin(views, ledger, store)
    views.catch_up()
    clock = clock or build_clock(settings)
    zone = ZoneInfo(settings.timezone)
    commands = CommandRunner(store, clock, views)
    seasons = SeasonService(store, views, clock, commands=commands)
    matches = MatchService(store, clock, derived_key(secret, "dice seeds"), commands=commands)
    rounds = RoundService(store, views, zone, matches, commands)
    places = PlaceService(store, views)
    conduct = ConductService(store, views, zone, matches, commands)
    videos = VideoService(store, views, commands, evidence)
    tournaments = TournamentService(
        store,
        views,
        clock,
        zone,
        player_key=derived_key(secret, "player ids"),
        token_key=derived_key(secret, "player tokens"),
        commands=commands,
        seasons=seasons,
    )
    requests = RegistrationRequestService(
        store, commands, tournaments, zone, link_key=derived_key(secret, "confirmation links")
    )
    outbox = OutboxService(
        views,
        clock,
        transport_for(settings.smtp_url, settings.data_dir),
        ledger=ledger,
        origin=origin,
        mail_from=settings.mail_from,
        public_url=settings.effective_public_url,
        tournaments=tournaments,
        requests=requests,
    )
    people = PeopleService(store, views, clock, commands, outbox)
    people.complete_erasures()  # an erasure the last process recorded but did not finish
    directors = DirectorService(store, views, commands, settings.effective_director_token)
    return Services(
        settings=settings,
        clock=clock,
        zone=zone,
        store=store,
        views=views,
        seasons=seasons,
        tournaments=tournaments,
        matches=matches,
        rounds=rounds,
        places=places,
        conduct=conduct,
        videos=videos,
        disputes=DisputeService(store, matches, commands),
        jobs=JobService(store, views, commands, rounds, videos, conduct),
        venue=VenueService(store, rounds, places, matches, commands, settings.effective_public_url),
        directors=directors,
        tokens=TokenService(views, directors),
        people=people,
        requests=requests,
        outbox=outbox,
        answer_key=derived_key(secret, "idempotent answers"),
    )
