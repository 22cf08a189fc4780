"""The composition root: builds the event store, the read models and the use cases once."""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo

from projections.runner import Views
from service.analysis.analysis import AnalysisService
from service.analysis.gnubg import Gnubg
from service.clock import Clock, MovableClock, SystemClock
from service.conduct.conduct import ConductService
from service.evidence.disputes import DisputeService
from service.evidence.folder import EvidenceFolder
from service.evidence.videos import VideoService
from service.jobs.jobs import JobService
from service.mail.outbox import OutboxService, transport_for
from service.matches.matches import MatchService
from service.people.directors import DirectorService
from service.people.erasure import PeopleService
from service.people.player_sessions import PlayerSessions
from service.people.sessions import DirectorSessions
from service.people.sign_in_limit import SignInAttempts
from service.people.tokens import TokenService
from service.places.places import PlaceService
from service.ratings.ratings import RatingService
from service.registration.requests import RegistrationRequestService
from service.registration.tournaments import TournamentService
from service.rounds.rounds import RoundService
from service.seasons.seasons import SeasonService
from service.settings import Settings
from service.shared.commands import CommandRunner
from service.shared.match_play import DayParts, MatchPlay
from service.shared.registrants import Registrants
from service.storage.ended_sessions import EndedSessions, open_ended_sessions
from service.storage.events import EventStore
from service.storage.mail_ledger import MailLedger
from service.storage.persistence import (
    create_private_files,
    persistence_environment,
    sqlite_path,
    store_name,
)
from service.storage.secret import SecretMismatchError, check_secret, derived_key, load_secret_key
from service.storage.startup import (
    StartRefusedError,
    check_secret_key_file,
    check_store_file,
    check_store_history,
    own_files,
)
from service.storage.views import open_views, outbox_origin
from service.venue.venue import VenueService


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
    analyses: AnalysisService
    """Each ended match analysed by GNU Backgammon (rules A-ANALYSIS-*)."""
    venue: VenueService
    directors: DirectorService
    tokens: TokenService
    """Whose a bearer token is: nobody's (401) or somebody's without the right (403)."""
    people: PeopleService
    ratings: RatingService
    """The club's rating list (rules R-RATE-*)."""
    registrants: Registrants
    """Player ids and tokens, keyed with the server's secret (shared by registration and mail)."""
    requests: RegistrationRequestService
    """Anonymous registrations confirmed by e-mail (rule P-MAIL-1)."""
    outbox: OutboxService
    sessions: DirectorSessions
    """The director's console sessions (signed with a key of their own)."""
    player_sessions: PlayerSessions
    """Players' sessions of the table page, opened by the personal link (a key of their own)."""
    answer_key: bytes
    """Seals the API's kept idempotent answers (they may hold bearer tokens)."""
    ended_sessions: EndedSessions
    """The sessions their holders signed out of (a copied cookie stops working too)."""
    sign_in_attempts: SignInAttempts
    """Failed sign-ins per client address: a guesser is refused after a few (429)."""

    def close(self) -> None:
        self.views.close()
        self.ended_sessions.close()
        self.store.close()


def build_clock(settings: Settings) -> Clock:
    return MovableClock(settings.start_time) if settings.dev else SystemClock()


def bootstrap(settings: Settings, clock: Clock | None = None) -> Services:
    """The running service; ``StartRefusedError`` (or ``SecretMismatchError``) instead of a
    start that would lose or hide data (``service.storage.startup``)."""
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
    views = open_views(settings.views_path, store, name)
    ledger = MailLedger(store)
    origin = outbox_origin(views, ledger, store)
    views.catch_up()
    clock = clock or build_clock(settings)
    zone = ZoneInfo(settings.timezone)
    # What several use cases share, built once: they never call one another.
    commands = CommandRunner(store, clock, views)
    play = MatchPlay(store, commands, derived_key(secret, "dice seeds"))
    day = DayParts(store, views, zone, play, commands)
    registrants = Registrants(
        store,
        views,
        player_key=derived_key(secret, "player ids"),
        token_key=derived_key(secret, "player tokens"),
    )
    link_key = derived_key(secret, "confirmation links")
    # The use cases, one slice each.
    seasons = SeasonService(store, views, clock, commands=commands)
    matches = MatchService(store, clock, b"", commands=commands, play=play, views=views)
    rounds = RoundService(day)
    places = PlaceService(store, views)
    conduct = ConductService(day)
    videos = VideoService(store, views, commands, evidence)
    tournaments = TournamentService(
        store, views, clock, zone, commands=commands, registrants=registrants
    )
    requests = RegistrationRequestService(store, commands, registrants, zone, link_key=link_key)
    outbox = OutboxService(
        views,
        clock,
        transport_for(settings.smtp_url, settings.data_dir),
        ledger=ledger,
        origin=origin,
        mail_from=settings.mail_from,
        public_url=settings.effective_public_url,
        registrants=registrants,
        link_key=link_key,
    )
    people = PeopleService(store, views, clock, commands, outbox.forget_erased)
    people.complete_erasures()  # an erasure the last process recorded but did not finish
    directors = DirectorService(store, views, commands, settings.effective_director_token)
    venue = VenueService(day, settings.effective_public_url)
    ended = open_ended_sessions(store, settings.ended_sessions_path)
    analyses = AnalysisService(
        store,
        play,
        commands,
        Gnubg(settings.gnubg, settings.analysis_timeout_seconds),
        zone,
        enabled=settings.analysis,
    )
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
        disputes=DisputeService(store, play, commands),
        jobs=JobService(store, views, commands, rounds, videos, conduct, analyses),
        analyses=analyses,
        venue=venue,
        directors=directors,
        tokens=TokenService(views, directors),
        people=people,
        ratings=RatingService(store, views, zone, commands),
        registrants=registrants,
        requests=requests,
        outbox=outbox,
        sessions=DirectorSessions(
            directors, clock, derived_key(secret, "director sessions"), ended
        ),
        player_sessions=PlayerSessions(
            views, venue.load, registrants, clock, derived_key(secret, "player sessions"), ended
        ),
        answer_key=derived_key(secret, "idempotent answers"),
        ended_sessions=ended,
        sign_in_attempts=SignInAttempts(),
    )
