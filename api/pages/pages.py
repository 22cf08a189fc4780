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
from litestar import Controller, Request
from litestar.di import NamedDependency, Provide
from litestar.params import FromPath
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Template
from litestar.template import TemplateConfig

from api.http.routes import get_route
from api.http.schemas import ServicesDep
from api.pages.bracket import drawing
from service.bootstrap import Services

Lang = Literal["de", "en"]
TEMPLATES = Path(__file__).parent / "templates"
SUMMARIES = {
    "season": "Page: the season's calendar with tournaments, dates and free seats",
    "ranking": "Page: the season ranking with its tiebreak columns",
    "tournament": "Page: one tournament with its date, venue, free seats, deadlines and the form; "
    "once it is completed, its final places",
    "standings": "Page: live pairings, results and standings (updates without reload)",
    "bracket": "Page: the knockout bracket; an elimination's main and consolation brackets with "
    "seeds, byes and results",
    "wallboard": "Page: the wallboard for the venue's big screen: the round, its timer, the tables "
    "with live scores, the tables still to report, the standings (updates without reload)",
    "confirm": "Page: the link of the confirmation mail; its button confirms the registration "
    "(the token stays in the page's address)",
    "cancel": "Page: the self-service cancellation link of the registration mail; its button "
    "cancels with the player token of the link",
}

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
        "swiss_rank": "Rang",
        "place": "Platz",
        "swiss_standings": "Tabelle der Schweizer Runden",
        "round_robin_standings": "Tabelle der Vorrunde (jeder gegen jeden)",
        "final_places": "Endstand",
        "player": "Spieler",
        "wins": "Siege",
        "points": "Punkte",
        "buchholz": "Buchholz",
        "matches": "Partien",
        "no_standings": "Die Tabelle erscheint, sobald das Turnier beginnt.",
        "bracket": "K.-o.-Runde",
        "semi_final": "Halbfinale",
        "round_robin": "Jeder gegen jeden",
        "final": "Finale",
        "third_place": "Spiel um Platz 3",
        "no_bracket": "Die K.-o.-Runde beginnt nach den Schweizer Runden.",
        "no_bracket_round_robin": "Die K.-o.-Runde beginnt, wenn jeder gegen jeden gespielt hat.",
        "no_knockout": "Dieses Turnier hat keine K.-o.-Runde.",
        "brackets": "Turnierbaum",
        "main_bracket": "Hauptrunde",
        "consolation_bracket": "Trostrunde",
        "no_brackets": "Der Turnierbaum erscheint, sobald das Turnier beginnt.",
        "no_consolation": "Eine Trostrunde wird nicht gespielt.",
        "seed": "Setzplatz",
        "ranking": "Jahreswertung",
        "ratings_link": "Vereinswertung (Rating)",
        "no_ranking": "Die Jahreswertung erscheint, sobald das erste Turnier Ergebnisse bringt.",
        "attendance": "Anwesenheit",
        "match_points": "Siegpunkte",
        "tournament_wins": "Turniersiege",
        "tournaments_played": "Turniere",
        # rule R-TIE-1 with the season's options (R-OPT-1)
        "ties": "Bei Punktgleichheit entscheiden die Turniersiege, dann",
        "fewer_events": "weniger gespielte Turniere",
        "more_events": "mehr gespielte Turniere",
        "best_place": "dann die beste Einzelplatzierung",
        "shared": "sonst wird der Rang geteilt.",
        "best_of": "Es zählen die besten {n} Turnierergebnisse jedes Spielers.",
        "status_open": "Anmeldung offen",
        "status_cancellation_closed": "Abmeldeschluss vorbei",
        "status_check_in": "Check-in läuft",
        "status_running": "läuft",
        "status_completed": "beendet",
        "status_final": "beendet, Endstand bestätigt",
        "live": "live",
        "calendar_feed": "Kalender abonnieren (iCal)",
        "language": "English",
        "language_link": "en",
        "oclock": " Uhr",
        "wallboard": "Anzeigetafel",
        "round_time": "Rundenzeit",
        "tables": "Tische",
        "to_report": "Noch zu melden",
        "all_reported": "Alle Ergebnisse sind da.",
        "no_round": "Die erste Runde erscheint, sobald das Turnier beginnt.",
        "swiss": "Schweizer Runde",
        "table_pending": "noch nicht begonnen",
        "table_playing": "läuft",
        "table_awaiting_confirmation": "wartet auf Bestätigung",
        "table_disputed": "strittig",
        "table_decided": "fertig",
        "table_bye": "spielfrei",
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
        "swiss_rank": "Swiss rank",
        "place": "Place",
        "swiss_standings": "Swiss standings",
        "round_robin_standings": "Round robin standings",
        "final_places": "Final places",
        "player": "Player",
        "wins": "Wins",
        "points": "Points",
        "buchholz": "Buchholz",
        "matches": "Matches",
        "no_standings": "The standings appear once the tournament starts.",
        "bracket": "Knockout",
        "semi_final": "Semi-final",
        "round_robin": "Round robin",
        "final": "Final",
        "third_place": "Third place",
        "no_bracket": "The knockout begins after the Swiss rounds.",
        "no_bracket_round_robin": "The knockout begins once everyone has played everyone.",
        "no_knockout": "This tournament has no knockout.",
        "brackets": "Brackets",
        "main_bracket": "Main bracket",
        "consolation_bracket": "Consolation",
        "no_brackets": "The brackets appear once the tournament starts.",
        "no_consolation": "No consolation is played.",
        "seed": "Seed",
        "ranking": "Season ranking",
        "ratings_link": "Club rating list",
        "no_ranking": "The season ranking appears once the first tournament brings results.",
        "attendance": "Attendance",
        "match_points": "Match points",
        "tournament_wins": "Tournament wins",
        "tournaments_played": "Tournaments",
        "ties": "Ties on points are decided by tournament wins, then",
        "fewer_events": "fewer tournaments played",
        "more_events": "more tournaments played",
        "best_place": "then the best single place",
        "shared": "else the rank is shared.",
        "best_of": "The best {n} tournament results of each player count.",
        "status_open": "registration open",
        "status_cancellation_closed": "cancellation closed",
        "status_check_in": "check-in open",
        "status_running": "running",
        "status_completed": "completed",
        "status_final": "completed, places confirmed",
        "live": "live",
        "calendar_feed": "Subscribe to the calendar (iCal)",
        "language": "Deutsch",
        "language_link": "de",
        "oclock": "",
        "wallboard": "Wallboard",
        "round_time": "Round time",
        "tables": "Tables",
        "to_report": "Still to report",
        "all_reported": "All results are in.",
        "no_round": "The first round appears once the tournament starts.",
        "swiss": "Swiss round",
        "table_pending": "not yet begun",
        "table_playing": "playing",
        "table_awaiting_confirmation": "awaiting confirmation",
        "table_disputed": "disputed",
        "table_decided": "finished",
        "table_bye": "bye",
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


def clock_time(seconds: int) -> str:
    """A round timer as a screen across the room shows it: ``42:07``, ``1:02:07``."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


def template_config(*more: Path) -> TemplateConfig[JinjaTemplateEngine]:
    """The pages' templates, and ``more`` folders of other slices' pages (the console's)."""
    environment = Environment(
        loader=FileSystemLoader([TEMPLATES, *more]),
        autoescape=select_autoescape(default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return TemplateConfig(instance=JinjaTemplateEngine.from_environment(environment))


@dataclass(frozen=True, slots=True)
class Page:
    """What every page handler needs: the reader's language, the page's path, the services."""

    lang: Lang
    path: str
    services: Services

    def render(
        self, name: str, *, headers: dict[str, str] | None = None, **context: Any
    ) -> Template:
        lang = self.lang
        return Template(
            template_name=name,
            context={
                "lang": lang,
                "t": TEXT[lang],
                "local_date": lambda day: local_date(day, lang),
                "local_time": lambda instant: local_time(instant, lang),
                "path": self.path,
                **context,
            },
            headers={"Content-Language": lang, "Vary": "Accept-Language"} | (headers or {}),
        )


def provide_page(request: Request[Any, Any, Any], services: ServicesDep) -> Page:
    return Page(lang=language(request), path=request.url.path, services=services)


TOKEN_IN_URL = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
"""A page opened by a mail's link with a token in its query (the cancellation link carries the
player token): as the personal link's page, it names its address in no Referer of its own
requests (its button's fetch, its footer's link) and no cache keeps it."""

page_route = get_route
"""A page's route: pages read the view database, so their handlers run in a thread."""


class PageController(Controller):
    path = "/pages"
    tags = ["pages"]  # noqa: RUF012
    dependencies = {"page": Provide(provide_page, sync_to_thread=False)}  # noqa: RUF012

    @page_route("/seasons/{season_id:uuid}", summary=SUMMARIES["season"])
    def season(self, season_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        season = page.services.seasons.get_season(season_id)
        tournaments = page.services.tournaments.list_tournaments(season_id)
        return page.render("season.html", season=season, tournaments=tournaments)

    @page_route("/seasons/{season_id:uuid}/ranking", summary=SUMMARIES["ranking"])
    def ranking(self, season_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        season = page.services.seasons.get_season(season_id)
        lines = page.services.seasons.get_ranking(season_id)
        return page.render("ranking.html", season=season, lines=lines)

    @page_route("/tournaments/{tournament_id:uuid}", summary=SUMMARIES["tournament"])
    def tournament(self, tournament_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        services = page.services
        return page.render(
            "tournament.html",
            tournament=services.tournaments.get_tournament(tournament_id),
            places=services.places.list_fixed_places(tournament_id),
        )

    @page_route("/registrations/confirm", sync_to_thread=False, summary=SUMMARIES["confirm"])
    def confirm_registration(self, page: NamedDependency[Page]) -> Template:
        return page.render("registration_action.html", action="confirm", headers=TOKEN_IN_URL)

    @page_route("/registrations/cancel", sync_to_thread=False, summary=SUMMARIES["cancel"])
    def cancel_registration(self, page: NamedDependency[Page]) -> Template:
        return page.render("registration_action.html", action="cancel", headers=TOKEN_IN_URL)

    @page_route("/tournaments/{tournament_id:uuid}/standings", summary=SUMMARIES["standings"])
    def standings(self, tournament_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        services = page.services
        matches = services.rounds.list_matches(tournament_id)
        current = max((m.round for m in matches), default=0)
        return page.render(
            "standings.html",
            tournament=services.tournaments.get_tournament(tournament_id),
            standings=services.rounds.list_standings(tournament_id),
            places=services.places.list_fixed_places(tournament_id),
            round=services.rounds.get_round(tournament_id, current) if current else None,
            scores={m.match_id: m for m in matches},
        )

    @page_route("/tournaments/{tournament_id:uuid}/bracket", summary=SUMMARIES["bracket"])
    def bracket(self, tournament_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        tournament = page.services.tournaments.get_tournament(tournament_id)
        drawn = drawing(page.services, tournament)
        return page.render("bracket.html", tournament=tournament, drawing=drawn)

    @page_route("/tournaments/{tournament_id:uuid}/wallboard", summary=SUMMARIES["wallboard"])
    def wallboard(self, tournament_id: FromPath[UUID], page: NamedDependency[Page]) -> Template:
        """The whole board is one server-rendered part (``#board``): its script fetches this page
        again on each event of the tournament's live stream and swaps that part."""
        services = page.services
        tournament = services.tournaments.get_tournament(tournament_id)
        board = services.venue.board(tournament_id, services.clock.now())
        return page.render(
            "wallboard.html",
            tournament=tournament,
            board=board,
            places=services.places.list_fixed_places(tournament_id),
            standing_of={row.player_id: row for row in board.standings},
            clock_time=clock_time,
        )
