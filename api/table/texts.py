"""What the players' pages say, in German by default and in English by choice."""

from __future__ import annotations

from api.pages.pages import Lang

TEXT: dict[Lang, dict[str, str]] = {
    "de": {
        "language": "English",
        "language_link": "en",
        "sign_in_title": "Anmelden am Turniertag",
        "sign_in_lead": "Mit deinem persönlichen Link meldest und bestätigst du am Tisch die "
        "Ergebnisse deiner Partien.",
        "sign_in_button": "Anmelden",
        "link_refused": "Dieser Link gilt nicht (mehr): unbekannt, oder die Anmeldung ist "
        "storniert. Frag bitte die Turnierleitung.",
        "table_title": "Tisch {number}",
        "round": "Runde {round}",
        "no_match": "An diesem Tisch wird gerade keine Partie gespielt.",
        "to_points": "auf {length} Punkte",
        "status": "Stand",
        "report_title": "Ergebnis melden",
        "report_lead": "Wer hat gewonnen, und wie stand es am Ende?",
        "winner": "Sieger",
        "choose": "bitte wählen",
        "report_button": "Ergebnis melden",
        "your_report": "Du hast gemeldet: {winner} gewinnt {points_a}:{points_b}. "
        "Dein Gegner bestätigt es an seinem Gerät.",
        "confirm_title": "Ergebnis bestätigen",
        "confirm_lead": "{reporter} hat gemeldet: {winner} gewinnt {points_a}:{points_b}.",
        "confirm_button": "Bestätigen",
        "confirm_other": "Stimmt nicht? Melde unten das Ergebnis, wie du es siehst: dann "
        "entscheidet die Turnierleitung.",
        "winner_missing": "Bitte wähle den Sieger.",
        "points_invalid": "Bitte gib die Punkte als ganze Zahl ein.",
        "form_stale": "Dieses Formular passt nicht mehr zur Partie: lade die Seite neu.",
        "forbidden": "Dieses Formular ist abgelaufen oder gehört nicht zu dir. Lade die Seite "
        "neu oder melde dich über deinen persönlichen Link an.",
        "signed_in": "Angemeldet über deinen persönlichen Link.",
        "sign_out": "Abmelden",
        "too_many": "Zu viele Versuche mit ungültigen Links. Bitte warte eine Minute.",
        "tournament_page": "Zum Turnier",
        "analysis_title": "Analyse mit GNU Backgammon",
        "error_rate": "Fehlerrate (mEMG)",
        "pr": "PR (Fehlerrate / 2)",
        "chequer_rate": "Züge (mEMG)",
        "cube_rate": "Cube-Entscheidungen (mEMG)",
        "error_total": "Fehler gesamt (EMG)",
        "decisions": "Entscheidungen (Züge + Cube)",
        "analysis_engine": "{engine}, 0-ply",
        "analysis_pending": "Die Analyse folgt in Kürze.",
        "analysis_unavailable": "Für diese Partie gibt es keine Analyse.",
        "analysis_failed": "Die Analyse ist fehlgeschlagen; die Turnierleitung kann sie neu "
        "anstoßen.",
        "mat_download": "Partie als .mat-Datei herunterladen (für GNU Backgammon)",
        "decimal_point": ",",
    },
    "en": {
        "language": "Deutsch",
        "language_link": "de",
        "sign_in_title": "Sign in for the tournament day",
        "sign_in_lead": "With your personal link you report and confirm your matches' results "
        "at the table.",
        "sign_in_button": "Sign in",
        "link_refused": "This link is not valid (any more): unknown, or the registration is "
        "cancelled. Please ask the tournament director.",
        "table_title": "Table {number}",
        "round": "Round {round}",
        "no_match": "No match is being played at this table now.",
        "to_points": "to {length} points",
        "status": "Status",
        "report_title": "Report the result",
        "report_lead": "Who won, and what was the final score?",
        "winner": "Winner",
        "choose": "please choose",
        "report_button": "Report the result",
        "your_report": "You reported: {winner} wins {points_a}:{points_b}. Your opponent "
        "confirms it on their device.",
        "confirm_title": "Confirm the result",
        "confirm_lead": "{reporter} reported: {winner} wins {points_a}:{points_b}.",
        "confirm_button": "Confirm",
        "confirm_other": "Not right? Report the result as you see it below: the tournament "
        "director then decides.",
        "winner_missing": "Please choose the winner.",
        "points_invalid": "Please enter the points as a whole number.",
        "form_stale": "This form no longer fits the match: reload the page.",
        "forbidden": "This form has expired or is not yours. Reload the page or sign in with "
        "your personal link.",
        "signed_in": "Signed in with your personal link.",
        "sign_out": "Sign out",
        "too_many": "Too many tries with links that are not valid. Please wait a minute.",
        "tournament_page": "To the tournament",
        "analysis_title": "Analysis by GNU Backgammon",
        "error_rate": "Error rate (mEMG)",
        "pr": "PR (error rate / 2)",
        "chequer_rate": "Chequer play (mEMG)",
        "cube_rate": "Cube decisions (mEMG)",
        "error_total": "Error total (EMG)",
        "decisions": "Decisions (moves + cube)",
        "analysis_engine": "{engine}, 0 ply",
        "analysis_pending": "The analysis follows shortly.",
        "analysis_unavailable": "There is no analysis of this match.",
        "analysis_failed": "The analysis failed; the tournament director can start it again.",
        "mat_download": "Download the match as a .mat file (for GNU Backgammon)",
        "decimal_point": ".",
    },
}
