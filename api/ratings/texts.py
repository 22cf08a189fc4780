"""What the rating pages say, in German by default and in English by choice."""

from __future__ import annotations

from datetime import date

from api.pages.pages import Lang

TEXT: dict[Lang, dict[str, str]] = {
    "de": {
        "ratings": "Vereinswertung (Rating)",
        "ratings_lead": "Jede gewertete Partie nach der FIBS-Formel, in der Reihenfolge, in "
        "der sie endete. Jede Zeile lässt sich nachrechnen.",
        "no_ratings": "Die Wertung erscheint mit der ersten gewerteten Partie.",
        "rating": "Rating",
        "experience": "Erfahrung",
        "last_change": "Zuletzt",
        "rated_matches": "Partien",
        "csv": "Als CSV herunterladen",
        "history": "Verlauf",
        "chart_label": "Rating-Verlauf von {name}",
        "opponent": "Gegner",
        "length": "Länge",
        "result": "Ergebnis",
        "won": "gewonnen",
        "lost": "verloren",
        "before": "vorher",
        "opponent_before": "Gegner vorher",
        "change": "Änderung",
        "after": "nachher",
        "source_match": "Partie",
        "source_tournament": "Turnier",
        "source_import": "Import",
        "formula": "P ist die Chance des Verlierers nach den Ratings vor der Partie: "
        "1 / (1 + 10^((Sieger − Verlierer) · √Länge / 2000)). Der Sieger gewinnt 4 · K · √Länge "
        "· P, der Verlierer verliert 4 · K · √Länge · P (K = 1 ohne Neulingsbonus).",
        "to_ratings": "Zur Vereinswertung",
        "head_to_head": "Direkter Vergleich",
        "head_to_head_of": "Direkter Vergleich: {name}",
        "head_to_head_lead": "Jede entschiedene Turnierpartie (gespielt oder gemeldet; ohne "
        "Freilose und kampflose Siege) und jede gewertete freie Partie; eine korrigierte "
        "Partie zählt einmal, wie korrigiert.",
        "no_meetings": "Noch keine Partie gegen andere Spieler.",
        "meetings": "Partien",
        "wins": "Siege",
        "losses": "Niederlagen",
        "points_for": "Punkte für",
        "points_against": "Punkte gegen",
        "last_played": "Zuletzt",
        "to_rating_history": "Zum Rating-Verlauf",
        "analysed": "Analysierte Partien",
        "analysed_lead": "GNU Backgammon (0-ply) nach jeder über bgtd gespielten Partie: "
        "Fehlerrate in Milli-Equity je Entscheidung, PR = Fehlerrate / 2.",
        "error_rate": "Fehlerrate",
        "mat_download": ".mat herunterladen",
    },
    "en": {
        "ratings": "Club rating list",
        "ratings_lead": "Every rated match by the FIBS formula, in the order it ended. Anyone "
        "can recompute each line.",
        "no_ratings": "The list appears with the first rated match.",
        "rating": "Rating",
        "experience": "Experience",
        "last_change": "Last",
        "rated_matches": "Matches",
        "csv": "Download as CSV",
        "history": "History",
        "chart_label": "Rating history of {name}",
        "opponent": "Opponent",
        "length": "Length",
        "result": "Result",
        "won": "won",
        "lost": "lost",
        "before": "before",
        "opponent_before": "opponent before",
        "change": "change",
        "after": "after",
        "source_match": "match",
        "source_tournament": "tournament",
        "source_import": "import",
        "formula": "P is the loser's chance by the ratings before the match: "
        "1 / (1 + 10^((winner − loser) · √length / 2000)). The winner gains 4 · K · √length "
        "· P, the loser loses 4 · K · √length · P (K = 1 without the newcomer boost).",
        "to_ratings": "To the club rating list",
        "head_to_head": "Head-to-head",
        "head_to_head_of": "Head-to-head: {name}",
        "head_to_head_lead": "Every decided tournament match (played or reported; no byes, "
        "no unplayed forfeits) and every rated ad hoc match; a corrected match counts once, "
        "as corrected.",
        "no_meetings": "No match against another player yet.",
        "meetings": "Matches",
        "wins": "Wins",
        "losses": "Losses",
        "points_for": "Points for",
        "points_against": "Points against",
        "last_played": "Last",
        "to_rating_history": "To the rating history",
        "analysed": "Analysed matches",
        "analysed_lead": "GNU Backgammon (0-ply) after every match played through bgtd: "
        "error rate in milli-equity per decision, PR = error rate / 2.",
        "error_rate": "Error rate",
        "mat_download": "Download .mat",
    },
}


def rating_number(value: float, lang: Lang) -> str:
    """A rating as lists show it: rounded to a whole number, "2.043" or "2,043"."""
    shown = f"{round(value):,}"
    return shown.replace(",", ".") if lang == "de" else shown


def change_number(value: float, lang: Lang) -> str:
    """A change to one decimal with its sign: "+4,2" or "+4.2"."""
    shown = f"{value:+.1f}"
    return shown.replace(".", ",") if lang == "de" else shown


def day(iso: str, lang: Lang) -> str:
    """A date of the history or the head-to-head as the club reads it: "18.04.2026" or
    "18 Apr 2026" (kept ISO in the API and the CSV)."""
    found = date.fromisoformat(iso)
    return f"{found:%d.%m.%Y}" if lang == "de" else f"{found.day} {found:%b %Y}"


def decimal(value: float, places: int, lang: Lang) -> str:
    """A number of a history line to ``places`` decimals: "1804,47" or "1804.47"."""
    shown = f"{value:.{places}f}"
    return shown.replace(".", ",") if lang == "de" else shown
