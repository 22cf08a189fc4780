"""Public pages for the club's website and the wallboard (rule P-PUB-1): the season's calendar,
a tournament with its registration form, live standings, the knockout bracket, the ranking.

Server-rendered with Jinja2, no build step and nothing from a CDN: the style and the few lines
of script are inline, so a page works in an ``<iframe>`` of any site. German by default,
English with ``?lang=en`` or ``Accept-Language: en``. Display names only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Literal, cast
from uuid import UUID

from jinja2 import Environment, FileSystemLoader, select_autoescape
from litestar import Controller, Request, get
from litestar.di import NamedDependency
from litestar.params import FromPath
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Template
from litestar.template import TemplateConfig

from service.bootstrap import Services
from service.rounds import TournamentMatch

Lang = Literal["de", "en"]
TEMPLATES = Path(__file__).parent / "templates"
KNOCKOUT_STAGES = ("semi_final", "final", "third_place")

TEXT: dict[Lang, dict[str, str]] = {
    "de": {
        "calendar": "Turnierkalender",
        "tournament": "Turnier",
        "date": "Datum",
        "venue": "Ort",
        "seats": "Plätze",
        "seats_free": "{free} von {capacity} Plätzen frei",
        "waitlist": "{waitlist} auf der Warteliste",
        "deadlines": "Fristen",
        "cancellation_until": "Abmeldeschluss",
        "check_in": "Check-in",
        "starts_at": "Spätester Beginn",
        "register": "Anmelden",
        "first_name": "Vorname",
        "last_name": "Nachname",
        "email": "E-Mail",
        "birth_date": "Geburtsdatum",
        "registered": "Angemeldet. Bewahre diesen Code für eine Abmeldung auf:",
        "waitlisted": "Auf der Warteliste (Platz {position}). Code für eine Abmeldung:",
        "failed": "Die Anmeldung ging nicht durch:",
        "check_mail": "Fast geschafft: wir haben dir eine E-Mail geschickt. Bitte bestätige "
        "die Anmeldung über den Link darin bis {confirm_by}; erst dann zählt sie.",
        "confirm_title": "Anmeldung bestätigen",
        "confirm_lead": "Mit der Bestätigung wird deine Anmeldung gültig: du bekommst einen "
        "freien Platz oder einen Platz auf der Warteliste.",
        "confirm_button": "Anmeldung bestätigen",
        "confirmed_registered": "Bestätigt: du hast einen Platz. Code für eine Abmeldung:",
        "confirmed_waitlisted": "Bestätigt: du stehst auf der Warteliste (Platz {position}). "
        "Code für eine Abmeldung:",
        "cancel_title": "Abmelden",
        "cancel_lead": "Willst du deine Anmeldung stornieren?",
        "cancel_button": "Abmelden",
        "cancel_done": "Du bist abgemeldet.",
        "registration_closed": "Die Anmeldung ist geschlossen.",
        "standings": "Tabelle",
        "pairings": "Paarungen",
        "round": "Runde",
        "table": "Tisch",
        "bye": "spielfrei",
        "rank": "Platz",
        "player": "Spieler",
        "wins": "Siege",
        "points": "Punkte",
        "buchholz": "Buchholz",
        "matches": "Partien",
        "no_standings": "Die Tabelle erscheint, sobald das Turnier beginnt.",
        "bracket": "K.-o.-Runde",
        "semi_final": "Halbfinale",
        "final": "Finale",
        "third_place": "Spiel um Platz 3",
        "no_bracket": "Die K.-o.-Runde beginnt nach den Schweizer Runden.",
        "ranking": "Jahreswertung",
        "no_ranking": "Die Jahreswertung erscheint, sobald das erste Turnier Ergebnisse bringt.",
        "attendance": "Anwesenheit",
        "match_points": "Siegpunkte",
        "tournament_wins": "Turniersiege",
        "tournaments_played": "Turniere",
        "status_open": "Anmeldung offen",
        "status_cancellation_closed": "Abmeldeschluss vorbei",
        "status_check_in": "Check-in läuft",
        "status_running": "läuft",
        "status_completed": "beendet",
        "live": "live",
        "calendar_feed": "Kalender abonnieren (iCal)",
        "language": "English",
        "language_link": "en",
        "oclock": " Uhr",
    },
    "en": {
        "calendar": "Tournament calendar",
        "tournament": "Tournament",
        "date": "Date",
        "venue": "Venue",
        "seats": "Seats",
        "seats_free": "{free} of {capacity} seats free",
        "waitlist": "{waitlist} on the waitlist",
        "deadlines": "Deadlines",
        "cancellation_until": "Cancellation deadline",
        "check_in": "Check-in",
        "starts_at": "Latest start",
        "register": "Register",
        "first_name": "First name",
        "last_name": "Last name",
        "email": "E-mail",
        "birth_date": "Date of birth",
        "registered": "Registered. Keep this code to cancel later:",
        "waitlisted": "On the waitlist (place {position}). Code to cancel:",
        "failed": "The registration did not go through:",
        "check_mail": "Almost done: we have sent you an e-mail. Please confirm the "
        "registration with its link by {confirm_by}; it counts only then.",
        "confirm_title": "Confirm your registration",
        "confirm_lead": "Confirming makes your registration count: you get a free seat or a "
        "place on the waitlist.",
        "confirm_button": "Confirm registration",
        "confirmed_registered": "Confirmed: you have a seat. Code to cancel:",
        "confirmed_waitlisted": "Confirmed: you are on the waitlist (place {position}). "
        "Code to cancel:",
        "cancel_title": "Cancel",
        "cancel_lead": "Do you want to cancel your registration?",
        "cancel_button": "Cancel registration",
        "cancel_done": "Your registration is cancelled.",
        "registration_closed": "Registration is closed.",
        "standings": "Standings",
        "pairings": "Pairings",
        "round": "Round",
        "table": "Table",
        "bye": "bye",
        "rank": "Rank",
        "player": "Player",
        "wins": "Wins",
        "points": "Points",
        "buchholz": "Buchholz",
        "matches": "Matches",
        "no_standings": "The standings appear once the tournament starts.",
        "bracket": "Knockout",
        "semi_final": "Semi-final",
        "final": "Final",
        "third_place": "Third place",
        "no_bracket": "The knockout begins after the Swiss rounds.",
        "ranking": "Season ranking",
        "no_ranking": "The season ranking appears once the first tournament brings results.",
        "attendance": "Attendance",
        "match_points": "Match points",
        "tournament_wins": "Tournament wins",
        "tournaments_played": "Tournaments",
        "status_open": "registration open",
        "status_cancellation_closed": "cancellation closed",
        "status_check_in": "check-in open",
        "status_running": "running",
        "status_completed": "completed",
        "live": "live",
        "calendar_feed": "Subscribe to the calendar (iCal)",
        "language": "Deutsch",
        "language_link": "de",
        "oclock": "",
    },
}
WEEKDAYS: dict[Lang, tuple[str, ...]] = {
    "de": ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So"),
    "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"),
}


def text(lang: Lang) -> dict[str, str]:
    return TEXT[lang]


def language(request: Request[Any, Any, Any]) -> Lang:
    """``?lang=`` first, then the first of ``Accept-Language`` we speak; German by default."""
    asked = request.query_params.get("lang", "")
    if asked in TEXT:
        return cast(Lang, asked)
    wanted: list[tuple[float, str]] = []
    for part in request.headers.get("accept-language", "").split(","):
        tag, _, parameters = part.strip().partition(";")
        quality = 1.0
        if parameters.strip().startswith("q="):
            try:
                quality = float(parameters.strip()[2:])
            except ValueError:
                continue
        wanted.append((-quality, tag.strip().lower()[:2]))
    for _, tag in sorted(wanted, key=lambda pair: pair[0]):
        if tag in TEXT:
            return tag
    return "de"


def local_date(day: date, lang: Lang) -> str:
    weekday = WEEKDAYS[lang][day.weekday()]
    if lang == "de":
        return f"{weekday}, {day:%d.%m.%Y}"
    return f"{weekday} {day.day} {day:%b %Y}"


def local_time(instant: datetime, lang: Lang) -> str:
    """An instant already in the club's zone, as people there read it."""
    return f"{local_date(instant.date(), lang)}, {instant:%H:%M}{TEXT[lang]['oclock']}"


def template_config() -> TemplateConfig[JinjaTemplateEngine]:
    environment = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return TemplateConfig(instance=JinjaTemplateEngine.from_environment(environment))


@dataclass(frozen=True, slots=True)
class BracketMatch:
    stage: str
    player_a: str
    player_b: str
    score_a: int
    score_b: int
    winner: str | None


class PageController(Controller):
    path = "/pages"
    tags = ["pages"]  # noqa: RUF012

    @get(
        "/seasons/{season_id:uuid}",
        sync_to_thread=True,
        summary="Page: the season's calendar with tournaments, dates and free seats",
    )
    def season(
        self,
        season_id: FromPath[UUID],
        request: Request[Any, Any, Any],
        services: NamedDependency[Services],
    ) -> Template:
        season = services.seasons.get_season(season_id)
        tournaments = services.tournaments.list_tournaments(season_id)
        return _page(request, "season.html", season=season, tournaments=tournaments)

    @get(
        "/seasons/{season_id:uuid}/ranking",
        sync_to_thread=True,
        summary="Page: the season ranking with its tiebreak columns",
    )
    def ranking(
        self,
        season_id: FromPath[UUID],
        request: Request[Any, Any, Any],
        services: NamedDependency[Services],
    ) -> Template:
        season = services.seasons.get_season(season_id)
        lines = services.seasons.get_ranking(season_id)
        return _page(request, "ranking.html", season=season, lines=lines)

    @get(
        "/tournaments/{tournament_id:uuid}",
        sync_to_thread=True,
        summary="Page: one tournament with its date, venue, free seats, deadlines and the form",
    )
    def tournament(
        self,
        tournament_id: FromPath[UUID],
        request: Request[Any, Any, Any],
        services: NamedDependency[Services],
    ) -> Template:
        tournament = services.tournaments.get_tournament(tournament_id)
        return _page(request, "tournament.html", tournament=tournament)

    @get(
        "/registrations/confirm",
        sync_to_thread=False,
        summary="Page: the link of the confirmation mail; its button confirms the registration "
        "(the token stays in the page's address)",
    )
    def confirm_registration(self, request: Request[Any, Any, Any]) -> Template:
        return _page(request, "registration_action.html", action="confirm")

    @get(
        "/registrations/cancel",
        sync_to_thread=False,
        summary="Page: the self-service cancellation link of the registration mail; its button "
        "cancels with the player token of the link",
    )
    def cancel_registration(self, request: Request[Any, Any, Any]) -> Template:
        return _page(request, "registration_action.html", action="cancel")

    @get(
        "/tournaments/{tournament_id:uuid}/standings",
        sync_to_thread=True,
        summary="Page: live pairings, results and standings (updates without reload)",
    )
    def standings(
        self,
        tournament_id: FromPath[UUID],
        request: Request[Any, Any, Any],
        services: NamedDependency[Services],
    ) -> Template:
        tournament = services.tournaments.get_tournament(tournament_id)
        rows = services.rounds.list_standings(tournament_id)
        matches = services.rounds.list_matches(tournament_id)
        current = max((m.round for m in matches), default=0)
        paired = services.rounds.get_round(tournament_id, current) if current else None
        scores = {m.match_id: m for m in matches}
        return _page(
            request,
            "standings.html",
            tournament=tournament,
            standings=rows,
            round=paired,
            scores=scores,
        )

    @get(
        "/tournaments/{tournament_id:uuid}/bracket",
        sync_to_thread=True,
        summary="Page: the knockout bracket",
    )
    def bracket(
        self,
        tournament_id: FromPath[UUID],
        request: Request[Any, Any, Any],
        services: NamedDependency[Services],
    ) -> Template:
        tournament = services.tournaments.get_tournament(tournament_id)
        names = {
            row.player_id: row.display_name for row in services.rounds.list_standings(tournament_id)
        }
        matches = [
            _bracket_match(m, names)
            for m in services.rounds.list_matches(tournament_id)
            if m.stage in KNOCKOUT_STAGES
        ]
        stages = {stage: [m for m in matches if m.stage == stage] for stage in KNOCKOUT_STAGES}
        return _page(request, "bracket.html", tournament=tournament, stages=stages)


def _bracket_match(found: TournamentMatch, names: dict[UUID, str]) -> BracketMatch:
    return BracketMatch(
        stage=found.stage,
        player_a=names.get(found.player_a, ""),
        player_b=names.get(found.player_b, ""),
        score_a=found.score_a,
        score_b=found.score_b,
        winner=names.get(found.winner) if found.winner else None,
    )


def _page(request: Request[Any, Any, Any], name: str, **context: Any) -> Template:
    lang = language(request)
    return Template(
        template_name=name,
        context={
            "lang": lang,
            "t": TEXT[lang],
            "local_date": lambda day: local_date(day, lang),
            "local_time": lambda instant: local_time(instant, lang),
            "path": request.url.path,
            **context,
        },
        headers={"Content-Language": lang, "Vary": "Accept-Language"},
    )
