"""Printable pages of the tournament day: pairings (by table or by name), result slips and the
standings, in German, with print CSS; the browser prints them to PDF.

A small self-contained renderer: string templates, every value HTML-escaped."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from html import escape
from typing import Literal
from uuid import UUID

from litestar import Controller, MediaType, get
from litestar.params import FromPath, FromQuery

from api.http.schemas import ServicesDep
from service.bootstrap import Services
from service.shared.day_views import Pairing, Place, Round, Standing

STAGES = {
    "swiss": "Schweizer Runde",
    "round_robin": "Jeder gegen jeden",
    "semi_final": "Halbfinale",
    "final": "Finale",
    "third_place": "Spiel um Platz 3",
    "main": "Hauptfeld",
    "consolation": "Trostrunde",
}
STANDINGS_TITLES = {
    "swiss": "Tabelle der Schweizer Runden",
    "round_robin": "Tabelle (jeder gegen jeden)",
    "elimination": "Tabelle (K.-o.-System)",
}
"""The standings' heading below the final places, by the tournament's format (T-FMT-10)."""

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


def page(title: str, body: str) -> str:
    """A whole printable page: ``body`` is HTML already escaped by its builder."""
    return (
        '<!DOCTYPE html>\n<html lang="de"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{PRINT_CSS}</style></head>"
        f'<body><p class="noprint"><button onclick="window.print()">Drucken</button></p>'
        f"<h1>{escape(title)}</h1>{body}</body></html>\n"
    )


def _player_b(table: Pairing) -> str:
    return escape(table.player_b_name) if table.player_b_name is not None else "Freilos"


def pairings_page(paired: Round, by: Literal["table", "name"]) -> str:
    title = f"Paarungen Runde {paired.round}"
    if by == "table":
        rows = "".join(
            f"<tr><td>{t.table}</td><td>{escape(t.player_a_name)}</td><td>{_player_b(t)}</td>"
            f"<td>{escape(STAGES.get(t.stage, t.stage))}</td></tr>"
            for t in paired.pairings
        )
        head = "<tr><th>Tisch</th><th>Spieler A</th><th>Spieler B</th><th>Phase</th></tr>"
    else:
        seats: list[tuple[str, int, str]] = []
        for t in paired.pairings:
            seats.append((t.player_a_name, t.table, t.player_b_name or "Freilos"))
            if t.player_b_name is not None:
                seats.append((t.player_b_name, t.table, t.player_a_name))
        rows = "".join(
            f"<tr><td>{escape(name)}</td><td>{table}</td><td>{escape(opponent)}</td></tr>"
            for name, table, opponent in sorted(seats, key=lambda s: s[0].casefold())
        )
        head = "<tr><th>Name</th><th>Tisch</th><th>Gegner</th></tr>"
    return page(title, f"<table><thead>{head}</thead><tbody>{rows}</tbody></table>")


def slips_page(paired: Round) -> str:
    slips = "".join(
        f'<div class="slip"><strong>Runde {paired.round} · Tisch {t.table}</strong> '
        f"({escape(STAGES.get(t.stage, t.stage))}, {t.match_length} Punkte)"
        f"<p>{escape(t.player_a_name)}: <span class='line'></span> Punkte &nbsp; "
        f"{_player_b(t)}: <span class='line'></span> Punkte</p>"
        f"<p>Sieger: <span class='line'></span></p>"
        f'<div class="sign"><span>Unterschrift {escape(t.player_a_name)}</span>'
        f"<span>Unterschrift {_player_b(t)}</span></div></div>"
        for t in paired.pairings
        if t.player_b is not None
    )
    return page(f"Ergebniszettel Runde {paired.round}", slips)


def standings_page(
    rows: list[Standing], places: list[Place] | None, stage_format: str = "swiss"
) -> str:
    """The standings; once the tournament is completed, its final places above them.

    rule T-FMT-4: after the knockout a Swiss rank is no place (the final's loser may have led
    the Swiss rounds), so the standings column says "Rang" and "Platz" heads the final places
    only. Buchholz is a Swiss tiebreak, head-to-head one of Swiss and round robin (T-FMT-11);
    an elimination's rows have none (API.md "Formats")."""
    columns: list[tuple[str, Callable[[Standing], object]]] = [
        ("Rang", lambda r: r.rank),
        ("Name", lambda r: f"{escape(r.display_name)}{' (zurückgezogen)' if r.withdrawn else ''}"),
        ("Siege", lambda r: r.wins),
        ("Punkte", lambda r: r.points),
    ]
    if stage_format == "swiss":
        columns.append(("Buchholz", lambda r: r.buchholz))
    if stage_format != "elimination":
        columns.append(("Direkter Vergleich", lambda r: r.head_to_head))
    columns.append(("Spiele", lambda r: r.matches))
    head = "<tr>" + "".join(f"<th>{name}</th>" for name, _ in columns) + "</tr>"
    body = "".join(
        "<tr>" + "".join(f"<td>{value(r)}</td>" for _, value in columns) + "</tr>" for r in rows
    )
    standings = f'<table id="standings"><thead>{head}</thead><tbody>{body}</tbody></table>'
    if places is None:
        return page("Tabelle", standings)
    final = "".join(f"<tr><td>{p.place}</td><td>{escape(p.display_name)}</td></tr>" for p in places)
    heading = STANDINGS_TITLES.get(stage_format, "Tabelle")
    return page(
        "Endstand",
        '<table id="places"><thead><tr><th>Platz</th><th>Name</th></tr></thead>'
        f"<tbody>{final}</tbody></table><h2>{heading}</h2>{standings}",
    )


printable = partial(get, media_type=MediaType.HTML, sync_to_thread=True)
"""A printable page's route: HTML from the view database, read in a thread."""


class PrintController(Controller):
    path = "/pages/tournaments/{tournament_id:uuid}/print"
    tags = ["printing"]  # noqa: RUF012

    @printable("/pairings", summary="The current round's pairings to print, by table or by name")
    def pairings(
        self,
        tournament_id: FromPath[UUID],
        services: ServicesDep,
        by: FromQuery[Literal["table", "name"]] = "table",
    ) -> str:
        return pairings_page(_latest_round(services, tournament_id), by)

    @printable("/slips", summary="Result slips of the current round: both names, fields to sign")
    def slips(self, tournament_id: FromPath[UUID], services: ServicesDep) -> str:
        return slips_page(_latest_round(services, tournament_id))

    @printable("/standings", summary="The standings to print")
    def standings(self, tournament_id: FromPath[UUID], services: ServicesDep) -> str:
        standings = services.rounds.list_standings(tournament_id)
        places = services.places.list_fixed_places(tournament_id)
        stage_format = services.tournaments.get_tournament(tournament_id).row.format
        return standings_page(standings, places, stage_format)


def _latest_round(services: Services, tournament_id: UUID) -> Round:
    held = services.venue.load(tournament_id)
    number = held.rounds[-1].number if held.rounds else 1
    return services.rounds.get_round(tournament_id, number)
