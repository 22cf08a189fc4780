"""Printable pages of the tournament day: pairings (by table or by name), result slips and the
standings, with print CSS; the browser prints them to PDF. German by default, English with
``?lang=en`` or ``Accept-Language: en``, as the other pages for people (API.md "Pages for
people").

A small self-contained renderer: string templates, every value HTML-escaped."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from html import escape
from typing import Any, Literal
from uuid import UUID

from litestar import Controller, MediaType, Request, Response, get
from litestar.params import FromPath, FromQuery

from api.http.schemas import ServicesDep
from api.pages.pages import Lang, language
from service.bootstrap import Services
from service.shared.day_views import Pairing, Place, Round, Standing

STAGES: dict[Lang, dict[str, str]] = {
    "de": {
        "swiss": "Schweizer Runde",
        "round_robin": "Jeder gegen jeden",
        "semi_final": "Halbfinale",
        "final": "Finale",
        "third_place": "Spiel um Platz 3",
        "main": "Hauptfeld",
        "consolation": "Trostrunde",
    },
    "en": {
        "swiss": "Swiss round",
        "round_robin": "Round robin",
        "semi_final": "Semi-final",
        "final": "Final",
        "third_place": "Match for 3rd place",
        "main": "Main bracket",
        "consolation": "Consolation",
    },
}
STANDINGS_TITLES: dict[Lang, dict[str, str]] = {
    "de": {
        "swiss": "Tabelle der Schweizer Runden",
        "round_robin": "Tabelle (jeder gegen jeden)",
        "elimination": "Tabelle (K.-o.-System)",
    },
    "en": {
        "swiss": "Standings of the Swiss rounds",
        "round_robin": "Standings (round robin)",
        "elimination": "Standings (knockout)",
    },
}
"""The standings' heading below the final places, by the tournament's format (T-FMT-10)."""
TEXT: dict[Lang, dict[str, str]] = {
    "de": {
        "print": "Drucken",
        "pairings": "Paarungen Runde {n}",
        "table": "Tisch",
        "player_a": "Spieler A",
        "player_b": "Spieler B",
        "stage": "Phase",
        "name": "Name",
        "opponent": "Gegner",
        "bye": "Freilos",
        "slips": "Ergebniszettel Runde {n}",
        "slip": "Runde {n} · Tisch {table}",
        "length": "{length} Punkte",
        "points": "Punkte",
        "points_column": "Punkte",
        "winner": "Sieger",
        "signature": "Unterschrift {name}",
        "standings": "Tabelle",
        "final": "Endstand",
        "rank": "Rang",
        "place": "Platz",
        "withdrawn": " (zurückgezogen)",
        "wins": "Siege",
        "buchholz": "Buchholz",
        "head_to_head": "Direkter Vergleich",
        "matches": "Spiele",
    },
    "en": {
        "print": "Print",
        "pairings": "Pairings round {n}",
        "table": "Table",
        "player_a": "Player A",
        "player_b": "Player B",
        "stage": "Stage",
        "name": "Name",
        "opponent": "Opponent",
        "bye": "Bye",
        "slips": "Result slips round {n}",
        "slip": "Round {n} · Table {table}",
        "length": "{length} points",
        "points": "points",
        "points_column": "Points",
        "winner": "Winner",
        "signature": "Signature {name}",
        "standings": "Standings",
        "final": "Final places",
        "rank": "Rank",
        "place": "Place",
        "withdrawn": " (withdrawn)",
        "wins": "Wins",
        "buchholz": "Buchholz",
        "head_to_head": "Head-to-head",
        "matches": "Matches",
    },
}

PRINT_CSS = """
body { font-family: system-ui, sans-serif; font-size: 11pt; margin: 1.5cm; color: #000; }
h1 { font-size: 16pt; margin: 0 0 .5em; }
h2 { font-size: 13pt; margin: 1.2em 0 .5em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #444; padding: .3em .5em; text-align: left; }
th { background: #eee; }
.slip { border: 1px dashed #000; padding: .8em; margin-bottom: 1em; page-break-inside: avoid; }
.slip .line { display: inline-block; min-width: 4cm; border-bottom: 1px solid #000; }
.sign { display: flex; gap: 2cm; margin-top: 1.5em; }
.sign span { flex: 1; border-top: 1px solid #000; padding-top: .2em; font-size: 9pt; }
@media print {
  body { margin: 0; }
  .noprint { display: none; }
  @page { size: A4; margin: 1.5cm; }
}
"""


def page(title: str, body: str, lang: Lang = "de") -> str:
    """A whole printable page: ``body`` is HTML already escaped by its builder."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{PRINT_CSS}</style></head>"
        f'<body><p class="noprint"><button onclick="window.print()">{TEXT[lang]["print"]}'
        f"</button></p><h1>{escape(title)}</h1>{body}</body></html>\n"
    )


def _player_b(table: Pairing, lang: Lang) -> str:
    return escape(table.player_b_name) if table.player_b_name is not None else TEXT[lang]["bye"]


def pairings_page(paired: Round, by: Literal["table", "name"], lang: Lang = "de") -> str:
    t, stages = TEXT[lang], STAGES[lang]
    title = t["pairings"].format(n=paired.round)
    if by == "table":
        rows = "".join(
            f"<tr><td>{p.table}</td><td>{escape(p.player_a_name)}</td>"
            f"<td>{_player_b(p, lang)}</td>"
            f"<td>{escape(stages.get(p.stage, p.stage))}</td></tr>"
            for p in paired.pairings
        )
        head = (
            f"<tr><th>{t['table']}</th><th>{t['player_a']}</th><th>{t['player_b']}</th>"
            f"<th>{t['stage']}</th></tr>"
        )
    else:
        seats: list[tuple[str, int, str]] = []
        for p in paired.pairings:
            seats.append((p.player_a_name, p.table, p.player_b_name or t["bye"]))
            if p.player_b_name is not None:
                seats.append((p.player_b_name, p.table, p.player_a_name))
        rows = "".join(
            f"<tr><td>{escape(name)}</td><td>{table}</td><td>{escape(opponent)}</td></tr>"
            for name, table, opponent in sorted(seats, key=lambda s: s[0].casefold())
        )
        head = f"<tr><th>{t['name']}</th><th>{t['table']}</th><th>{t['opponent']}</th></tr>"
    return page(title, f"<table><thead>{head}</thead><tbody>{rows}</tbody></table>", lang)


def slips_page(paired: Round, lang: Lang = "de") -> str:
    t, stages = TEXT[lang], STAGES[lang]
    slips = "".join(
        f'<div class="slip"><strong>{t["slip"].format(n=paired.round, table=p.table)}</strong> '
        f"({escape(stages.get(p.stage, p.stage))}, {t['length'].format(length=p.match_length)})"
        f"<p>{escape(p.player_a_name)}: <span class='line'></span> {t['points']} &nbsp; "
        f"{_player_b(p, lang)}: <span class='line'></span> {t['points']}</p>"
        f"<p>{t['winner']}: <span class='line'></span></p>"
        f'<div class="sign"><span>{t["signature"].format(name=escape(p.player_a_name))}</span>'
        f"<span>{t['signature'].format(name=_player_b(p, lang))}</span></div></div>"
        for p in paired.pairings
        if p.player_b is not None
    )
    return page(t["slips"].format(n=paired.round), slips, lang)


def standings_page(
    rows: list[Standing], places: list[Place] | None, stage_format: str = "swiss", lang: Lang = "de"
) -> str:
    """The standings; once the tournament is completed, its final places above them.

    rule T-FMT-4: after the knockout a Swiss rank is no place (the final's loser may have led
    the Swiss rounds), so the standings column says "Rang" and "Platz" heads the final places
    only. Buchholz is a Swiss tiebreak, head-to-head one of Swiss and round robin (T-FMT-11);
    an elimination's rows have none (API.md "Formats")."""
    t = TEXT[lang]
    columns: list[tuple[str, Callable[[Standing], object]]] = [
        (t["rank"], lambda r: r.rank),
        (t["name"], lambda r: f"{escape(r.display_name)}{t['withdrawn'] if r.withdrawn else ''}"),
        (t["wins"], lambda r: r.wins),
        (t["points_column"], lambda r: r.points),
    ]
    if stage_format == "swiss":
        columns.append((t["buchholz"], lambda r: r.buchholz))
    if stage_format != "elimination":
        columns.append((t["head_to_head"], lambda r: r.head_to_head))
    columns.append((t["matches"], lambda r: r.matches))
    head = "<tr>" + "".join(f"<th>{name}</th>" for name, _ in columns) + "</tr>"
    body = "".join(
        "<tr>" + "".join(f"<td>{value(r)}</td>" for _, value in columns) + "</tr>" for r in rows
    )
    standings = f'<table id="standings"><thead>{head}</thead><tbody>{body}</tbody></table>'
    if places is None:
        return page(t["standings"], standings, lang)
    final = "".join(f"<tr><td>{p.place}</td><td>{escape(p.display_name)}</td></tr>" for p in places)
    heading = STANDINGS_TITLES[lang].get(stage_format, t["standings"])
    return page(
        t["final"],
        f'<table id="places"><thead><tr><th>{t["place"]}</th><th>{t["name"]}</th></tr></thead>'
        f"<tbody>{final}</tbody></table><h2>{heading}</h2>{standings}",
        lang,
    )


def _printed(request: Request[Any, Any, Any], html: str) -> Response[str]:
    """The page in the reader's language, said so in its headers as the other pages do."""
    return Response(
        html,
        media_type=MediaType.HTML,
        headers={"Content-Language": language(request), "Vary": "Accept-Language"},
    )


printable = partial(get, media_type=MediaType.HTML, sync_to_thread=True)
"""A printable page's route: HTML from the view database, read in a thread."""


class PrintController(Controller):
    path = "/pages/tournaments/{tournament_id:uuid}/print"
    tags = ["printing"]  # noqa: RUF012

    @printable("/pairings", summary="The current round's pairings to print, by table or by name")
    def pairings(
        self,
        request: Request[Any, Any, Any],
        tournament_id: FromPath[UUID],
        services: ServicesDep,
        by: FromQuery[Literal["table", "name"]] = "table",
    ) -> Response[str]:
        paired = _latest_round(services, tournament_id)
        return _printed(request, pairings_page(paired, by, language(request)))

    @printable("/slips", summary="Result slips of the current round: both names, fields to sign")
    def slips(
        self, request: Request[Any, Any, Any], tournament_id: FromPath[UUID], services: ServicesDep
    ) -> Response[str]:
        paired = _latest_round(services, tournament_id)
        return _printed(request, slips_page(paired, language(request)))

    @printable("/standings", summary="The standings to print")
    def standings(
        self, request: Request[Any, Any, Any], tournament_id: FromPath[UUID], services: ServicesDep
    ) -> Response[str]:
        standings = services.rounds.list_standings(tournament_id)
        places = services.places.list_fixed_places(tournament_id)
        stage_format = services.tournaments.get_tournament(tournament_id).row.format
        lang = language(request)
        return _printed(request, standings_page(standings, places, stage_format, lang))


def _latest_round(services: Services, tournament_id: UUID) -> Round:
    held = services.venue.load(tournament_id)
    number = held.rounds[-1].number if held.rounds else 1
    return services.rounds.get_round(tournament_id, number)
