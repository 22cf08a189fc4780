"""The scheduler's jobs, derived from the events: deadlines of tournaments, video deletions and
the disputes that hold them, the timed matches whose clocks may run out, and the analysis of
each ended match (rule A-ANALYSIS-1).

Nothing here is stored only in a scheduler: a restart rebuilds the pending jobs from the log,
and a job's ``done_at`` and ``effect`` come from the event its run recorded.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import sqlite_utils

from domain.evidence.dispute import DisputeDecided, DisputeOpened
from domain.evidence.video import (
    VideoDeleted,
    VideoDeletionFailed,
    VideoDeletionRefused,
    VideoRegistered,
    retry_at,
)
from domain.match import (
    ClockFlagged,
    GameDrawn,
    GameWon,
    MatchStarted,
    MatchVoided,
    MatchWon,
    SessionClosed,
)
from domain.match_analysis import MatchAnalysed, MatchAnalysisFailed, MatchAnalysisRequested
from domain.tournament import (
    CancellationClosed,
    CheckInOpened,
    TournamentScheduled,
    TournamentStarted,
    TournamentStartFailed,
)
from projections.runner import Projection

CLOSE_CANCELLATION = "close_cancellation"
OPEN_CHECK_IN = "open_check_in"
START_TOURNAMENT = "start_tournament"
DELETE_VIDEO = "delete_video"
FLAG_CLOCK = "flag_clock"
ANALYSE_MATCH = "analyse_match"
TOURNAMENT_JOBS = (CLOSE_CANCELLATION, OPEN_CHECK_IN, START_TOURNAMENT)


def instant(value: datetime) -> str:
    """Instants as UTC ISO 8601 text: their order is the text's order."""
    return value.astimezone(UTC).isoformat()


def job_id(kind: str, target: object) -> str:
    return f"{kind}:{target}"


class DeadlinesProjection(Projection):
    """Jobs with their deadlines and outcomes, recordings, open disputes, running clocks."""

    name = "deadlines"
    tables = ("jobs", "videos", "game_ends", "open_disputes", "timed_matches")
    version = 5  # 3: refused_at, refused_reason; 4: analyse_match; 5: path, voided games end

    def create_tables(self, db: sqlite_utils.Database) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, "
            "target TEXT NOT NULL, deadline TEXT, done_at TEXT, effect TEXT, "
            "match_id TEXT, attempts INTEGER NOT NULL DEFAULT 0)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS jobs_pending ON jobs (done_at, deadline)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS videos (video_id TEXT PRIMARY KEY, "
            "match_id TEXT NOT NULL, game INTEGER NOT NULL, uri TEXT NOT NULL, "
            "registered_at TEXT NOT NULL, game_ended_at TEXT, deleted_at TEXT, "
            "failures INTEGER NOT NULL DEFAULT 0, last_error TEXT, last_failed_at TEXT, "
            "refused_at TEXT, refused_reason TEXT, path TEXT)"
        )
        db.execute("CREATE INDEX IF NOT EXISTS videos_match ON videos (match_id, game)")
        db.execute("CREATE INDEX IF NOT EXISTS videos_path ON videos (path)")
        db.execute(
            "CREATE TABLE IF NOT EXISTS game_ends (match_id TEXT NOT NULL, game INTEGER NOT NULL, "
            "ended_at TEXT NOT NULL, PRIMARY KEY (match_id, game))"
        )
        db.execute(
            "CREATE TABLE IF NOT EXISTS open_disputes (dispute_id TEXT PRIMARY KEY, "
            "match_id TEXT NOT NULL)"
        )
        db.execute("CREATE TABLE IF NOT EXISTS timed_matches (match_id TEXT PRIMARY KEY)")

    # Tournaments -------------------------------------------------------------------------------

    def tournament_scheduled(self, event: TournamentScheduled, db: sqlite_utils.Database) -> None:
        target = str(event.originator_id)
        for kind, deadline in (
            (CLOSE_CANCELLATION, event.cancellation_until),
            (OPEN_CHECK_IN, event.check_in_opens),
            (START_TOURNAMENT, event.starts_at),
        ):
            db.execute(
                "INSERT OR IGNORE INTO jobs (id, kind, target, deadline) VALUES (?, ?, ?, ?)",
                [job_id(kind, target), kind, target, instant(deadline)],
            )

    def cancellation_closed(self, event: CancellationClosed, db: sqlite_utils.Database) -> None:
        _done(db, job_id(CLOSE_CANCELLATION, event.originator_id), event, "CancellationClosed")

    def check_in_opened(self, event: CheckInOpened, db: sqlite_utils.Database) -> None:
        _done(db, job_id(OPEN_CHECK_IN, event.originator_id), event, "CheckInOpened")

    def tournament_started(self, event: TournamentStarted, db: sqlite_utils.Database) -> None:
        effect = f"TournamentStarted with {event.players} players by {event.actor}"
        _done(db, job_id(START_TOURNAMENT, event.originator_id), event, effect)
        for kind in (CLOSE_CANCELLATION, OPEN_CHECK_IN):  # moot once play has begun
            _done(db, job_id(kind, event.originator_id), event, "not needed: the tournament began")

    def tournament_start_failed(
        self, event: TournamentStartFailed, db: sqlite_utils.Database
    ) -> None:
        effect = f"TournamentStartFailed: {event.reason}"
        _done(db, job_id(START_TOURNAMENT, event.originator_id), event, effect)

    # Videos and the disputes that hold them (rule C-VIDEO-1) -----------------------------------

    def video_registered(self, event: VideoRegistered, db: sqlite_utils.Database) -> None:
        video_id, match_id = str(event.originator_id), str(event.match_id)
        ended = db.execute(
            "SELECT ended_at FROM game_ends WHERE match_id = ? AND game IN (?, 0)",
            [match_id, event.game],
        ).fetchone()
        registered = instant(event.timestamp)
        ended_at = ended[0] if ended else None
        db.execute(
            "INSERT OR IGNORE INTO videos (video_id, match_id, game, uri, registered_at, "
            "game_ended_at, path) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [video_id, match_id, event.game, event.uri, registered, ended_at, event.path],
        )
        db.execute(
            "INSERT OR IGNORE INTO jobs (id, kind, target, deadline, match_id) "
            "VALUES (?, ?, ?, ?, ?)",
            [
                job_id(DELETE_VIDEO, video_id),
                DELETE_VIDEO,
                video_id,
                max(ended_at, registered) if ended_at else None,
                match_id,
            ],
        )

    def game_won(self, event: GameWon, db: sqlite_utils.Database) -> None:
        _game_ended(db, str(event.originator_id), event.game, instant(event.timestamp))

    def game_drawn(self, event: GameDrawn, db: sqlite_utils.Database) -> None:
        # rule V-PLAKOTO-8: a drawn game ends as a won one does (its recordings become due)
        _game_ended(db, str(event.originator_id), event.game, instant(event.timestamp))

    def match_won(self, event: MatchWon, db: sqlite_utils.Database) -> None:
        # a match decided early (time, forfeit) ends its current game too: game 0 means all
        db.execute("DELETE FROM timed_matches WHERE match_id = ?", [str(event.originator_id)])
        _game_ended(db, str(event.originator_id), 0, instant(event.timestamp))
        _analysis_due(db, str(event.originator_id), instant(event.timestamp))

    def match_voided(self, event: MatchVoided, db: sqlite_utils.Database) -> None:
        # a voided match plays no more: its clock can run out no more, and its game is over
        # (its recordings become due; no analysis: it has no result)
        db.execute("DELETE FROM timed_matches WHERE match_id = ?", [str(event.originator_id)])
        _game_ended(db, str(event.originator_id), 0, instant(event.timestamp))

    def session_closed(self, event: SessionClosed, db: sqlite_utils.Database) -> None:
        db.execute("DELETE FROM timed_matches WHERE match_id = ?", [str(event.originator_id)])
        _game_ended(db, str(event.originator_id), 0, instant(event.timestamp))
        _analysis_due(db, str(event.originator_id), instant(event.timestamp))

    def video_deletion_failed(self, event: VideoDeletionFailed, db: sqlite_utils.Database) -> None:
        video_id = str(event.originator_id)
        db.execute(
            "UPDATE videos SET failures = failures + 1, last_error = ?, last_failed_at = ? "
            "WHERE video_id = ?",
            [event.error, instant(event.timestamp), video_id],
        )
        row = db.execute("SELECT failures FROM videos WHERE video_id = ?", [video_id]).fetchone()
        failures = row[0] if row else 1
        db.execute(
            "UPDATE jobs SET deadline = ?, effect = ?, attempts = ? WHERE id = ?",
            [
                instant(retry_at(event.timestamp, failures)),
                f"VideoDeletionFailed: {event.error} (retried)",
                failures,
                job_id(DELETE_VIDEO, video_id),
            ],
        )

    def video_deleted(self, event: VideoDeleted, db: sqlite_utils.Database) -> None:
        video_id = str(event.originator_id)
        db.execute(
            "UPDATE videos SET deleted_at = ? WHERE video_id = ?",
            [instant(event.timestamp), video_id],
        )
        _done(db, job_id(DELETE_VIDEO, video_id), event, "VideoDeleted")

    def video_deletion_refused(
        self, event: VideoDeletionRefused, db: sqlite_utils.Database
    ) -> None:
        # the job is done: it records why the recording stays, and tries no more; the
        # recording shows it too, or it would look like one still waiting for its deletion
        video_id = str(event.originator_id)
        db.execute(
            "UPDATE videos SET refused_at = ?, refused_reason = ? WHERE video_id = ?",
            [instant(event.timestamp), event.reason, video_id],
        )
        effect = f"VideoDeletionRefused: {event.reason}"
        _done(db, job_id(DELETE_VIDEO, video_id), event, effect)

    def dispute_opened(self, event: DisputeOpened, db: sqlite_utils.Database) -> None:
        db.execute(
            "INSERT OR IGNORE INTO open_disputes (dispute_id, match_id) VALUES (?, ?)",
            [str(event.originator_id), str(event.match_id)],
        )

    def dispute_decided(self, event: DisputeDecided, db: sqlite_utils.Database) -> None:
        db.execute("DELETE FROM open_disputes WHERE dispute_id = ?", [str(event.originator_id)])

    # Clocks (G-CLOCK-1, G-CLOCK-2) -------------------------------------------------------------

    def match_started(self, event: MatchStarted, db: sqlite_utils.Database) -> None:
        if event.clock != "none":
            db.execute(
                "INSERT OR IGNORE INTO timed_matches (match_id) VALUES (?)",
                [str(event.originator_id)],
            )

    def clock_flagged(self, event: ClockFlagged, db: sqlite_utils.Database) -> None:
        match_id = str(event.originator_id)
        target = f"{match_id}@{event.originator_version}"
        db.execute(
            "INSERT OR IGNORE INTO jobs (id, kind, target, deadline, done_at, effect, match_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                job_id(FLAG_CLOCK, target),
                FLAG_CLOCK,
                match_id,
                instant(event.timestamp),
                instant(event.timestamp),
                f"ClockFlagged: side {event.flagged} out of time",
                match_id,
            ],
        )

    # Match analysis (A-ANALYSIS-1) ------------------------------------------------------------

    def match_analysis_requested(
        self, event: MatchAnalysisRequested, db: sqlite_utils.Database
    ) -> None:
        match_id = str(event.match_id)
        _analysis_due(db, match_id, instant(event.timestamp))
        db.execute(
            "UPDATE jobs SET deadline = ?, done_at = NULL, effect = ?, attempts = attempts + 1 "
            "WHERE id = ?",
            [instant(event.timestamp), "asked again", job_id(ANALYSE_MATCH, match_id)],
        )

    def match_analysed(self, event: MatchAnalysed, db: sqlite_utils.Database) -> None:
        effect = f"MatchAnalysed by {event.engine} at {event.plies} ply"
        _done(db, job_id(ANALYSE_MATCH, event.match_id), event, effect)

    def match_analysis_failed(self, event: MatchAnalysisFailed, db: sqlite_utils.Database) -> None:
        effect = f"MatchAnalysisFailed: {event.reason}"
        _done(db, job_id(ANALYSE_MATCH, event.match_id), event, effect)


def _analysis_due(db: sqlite_utils.Database, match_id: str, ended_at: str) -> None:
    """rule A-ANALYSIS-1: an ended match is analysed once, after the event that ended it."""
    db.execute(
        "INSERT OR IGNORE INTO jobs (id, kind, target, deadline, match_id) VALUES (?, ?, ?, ?, ?)",
        [job_id(ANALYSE_MATCH, match_id), ANALYSE_MATCH, match_id, ended_at, match_id],
    )


def _done(db: sqlite_utils.Database, job: str, event: Any, effect: str) -> None:
    db.execute(
        "UPDATE jobs SET done_at = ?, effect = ? WHERE id = ? AND done_at IS NULL",
        [instant(event.timestamp), effect, job],
    )


def _game_ended(db: sqlite_utils.Database, match_id: str, game: int, ended_at: str) -> None:
    """rule C-VIDEO-1: the game's recordings are due for deletion when it ends."""
    db.execute(
        "INSERT OR IGNORE INTO game_ends (match_id, game, ended_at) VALUES (?, ?, ?)",
        [match_id, game, ended_at],
    )
    condition = "match_id = ? AND game_ended_at IS NULL" + ("" if game == 0 else " AND game = ?")
    values: list[object] = [match_id] if game == 0 else [match_id, game]
    videos = db.execute(
        f"SELECT video_id, registered_at FROM videos WHERE {condition}", values
    ).fetchall()
    for video_id, registered_at in videos:
        db.execute("UPDATE videos SET game_ended_at = ? WHERE video_id = ?", [ended_at, video_id])
        db.execute(
            "UPDATE jobs SET deadline = ? WHERE id = ? AND done_at IS NULL",
            [max(ended_at, registered_at), job_id(DELETE_VIDEO, video_id)],
        )
