"""The read models: every projection the service keeps, in one SQLite file, fed by the store."""

from __future__ import annotations

from pathlib import Path

from projections import outbox as outbox_rows
from projections.calendar import CalendarProjection
from projections.deadlines import DeadlinesProjection
from projections.directors import DirectorsProjection
from projections.head_to_head import HeadToHeadProjection
from projections.outbox import OutboxProjection
from projections.participants import ParticipantsProjection
from projections.ranking import RankingProjection
from projections.ratings import RatingsProjection
from projections.runner import Projection, Views
from projections.seats import SeatsProjection
from projections.standings import StandingsProjection
from projections.tokens import PlayerTokensProjection
from service.storage.events import EventStore, StoreEventSource
from service.storage.mail_ledger import MailLedger


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
        RatingsProjection(),
        HeadToHeadProjection(),
    ]


def open_views(path: Path, store: EventStore, store_name: str) -> Views:
    """The views' file, following the log of the store named ``store_name``."""
    return Views(path, StoreEventSource(store, store_name), projections())


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
