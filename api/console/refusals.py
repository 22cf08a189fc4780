"""The use cases' refusals in German, for the console's pages.

A problem's ``detail`` is English (it is the REST API's); a German page shows the common ones
in German instead, known by the problem's type. A refusal whose type carries several meanings
(``tournament-state``, ``check-in-closed``...) keeps its English detail, which names the case.
"""

from __future__ import annotations

import re

from api.pages.pages import Lang

GERMAN: dict[str, str] = {
    "out-of-scope": "Das liegt außerhalb deines Bereichs als Turnierleitung.",
    "director-revoked": "Diese Turnierleitung ist bereits widerrufen.",
    "self-revocation": "Das eigene Token widerruft nur eine andere Turnierleitung.",
    "penalty-awarded-already": "Diese Strafe ist bereits verhängt.",
    "season-state": "Der Spieler ist für diese Saison bereits gesperrt.",
    "tournament-full": "Alle Plätze sind vergeben.",
    "duplicate-registration": "Diese Person ist bereits angemeldet.",
    "tournament-final": "Plätze und Preise sind festgeschrieben: für eine Korrektur das Turnier "
    "erst (mit Grund) wieder öffnen.",
    "banned": "Diese Person ist für die Saison gesperrt.",
    "director-not-found": "Diese Turnierleitung gibt es nicht.",
    "format-fixed-schedule": "Jeder gegen jeden und das K.-o.-System spielen einen beim Start "
    "festgelegten Plan: keine Nachzügler und keine Paarungen von Hand (Regeln T-FMT-11, "
    "T-FMT-12).",
}


GERMAN_DETAILS: tuple[tuple[re.Pattern[str], str], ...] = (
    # API.md "Formats": an elimination's next bracket round was paired from the result
    (
        re.compile(r"^round (\d+) was paired from this result: unpair the later round first$"),
        r"Runde \1 ist aus diesem Ergebnis ausgelost: erst Runde \1 zurücknehmen, dann "
        "korrigieren (K.-o.-System).",
    ),
)
"""Refusals of a type with several meanings, known by their English detail."""


def in_words(kind: str, detail: str, lang: Lang) -> str:
    """The refusal ``detail`` of the problem type ``kind`` in the page's language."""
    if lang != "de":
        return detail
    if kind in GERMAN:
        return GERMAN[kind]
    for english, german in GERMAN_DETAILS:
        if english.match(detail):
            return english.sub(german, detail)
    return detail
