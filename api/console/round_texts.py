"""What the director's round page says, in German (the default) and English."""

from __future__ import annotations

import re

from api.pages.pages import Lang

ROUND_TEXT: dict[Lang, dict[str, str]] = {
    "de": {
        "round": "Runde {n}",
        "rounds": "Runden",
        "swiss": "Schweizer System",
        "round_robin": "Jeder gegen jeden",
        "knockout": "K.-o.-Runde",
        "elimination": "K.-o.-System",
        "main": "Hauptfeld",
        "consolation": "Trostrunde",
        "bracket_round": "{bracket}, Runde {n}",
        "seed_round_robin": "Berger-Nummer",
        "seed_elimination": "Setzplatz",
        "players_round_robin": "Spieler (Berger-Nummer)",
        "players_elimination": "Spieler (Setzplatz)",
        "to_desk": "Zum Turniertisch",
        "table": "Tisch",
        "players": "Spieler",
        "why": "Warum",
        "result": "Ergebnis",
        "bye": "Freilos",
        "pending": "offen",
        "playing": "wird gespielt",
        "disputed": "strittig",
        "decided": "entschieden",
        "forfeit": "kampflos",
        "result_id": "Ergebnis-ID",
        "winner": "Sieger",
        "choose_winner": "Sieger wählen",
        "points_a": "Punkte {name}",
        "points_b": "Punkte {name}",
        "reason": "Grund",
        "enter": "Ergebnis eintragen",
        "correct": "Ergebnis korrigieren",
        "reports": "Die Meldungen der Spieler weichen ab. Trage das Ergebnis ein, das gilt.",
        "report_of": "Meldung von {name}",
        "reported": "{winner} gewinnt {won}:{lost}",
        "no_report": "keine Meldung",
        "pair_next": "Nächste Runde auslosen",
        "pair_next_lead": "Sobald alle Ergebnisse dieser Runde eingetragen sind.",
        "unpair": "Runde zurücknehmen",
        "unpair_lead": "Nimmt diese Runde zurück, solange sie kein Ergebnis hat; ihre Partien "
        "werden ungültig.",
        "bracket": "K.-o.-Baum",
        "done_result": "Das Ergebnis an Tisch {table} ist eingetragen.",
        "done_correction": "Das Ergebnis an Tisch {table} ist korrigiert.",
        "done_pair": "Runde {n} ist ausgelost.",
        "done_unpair": "Runde {n} ist zurückgenommen.",
        "override": "Paarungen ändern",
        "override_lead": "Die Auslosung dieser Runde von Hand ändern, solange sie kein Ergebnis "
        "hat. Jeder Spieler genau einmal.",
        "override_check": "Prüfen und speichern",
        "override_warned": "Diese Paarung weicht von den Regeln ab. Trotzdem speichern?",
        "override_save": "Trotzdem speichern",
        "done_override": "Die Paarungen von Runde {n} sind geändert.",
        "player_a": "Spieler A",
        "player_b": "Spieler B",
        "winner_missing": "Bitte wähle den Sieger.",
        "points_invalid": "Bitte eine ganze Zahl von 0 bis 999 eingeben.",
    },
    "en": {
        "round": "Round {n}",
        "rounds": "Rounds",
        "swiss": "Swiss",
        "round_robin": "Round robin",
        "knockout": "Knockout",
        "elimination": "Elimination",
        "main": "Main bracket",
        "consolation": "Consolation",
        "bracket_round": "{bracket}, round {n}",
        "seed_round_robin": "Berger number",
        "seed_elimination": "Seed",
        "players_round_robin": "Players (Berger number)",
        "players_elimination": "Players (seed)",
        "to_desk": "To the desk",
        "table": "Table",
        "players": "Players",
        "why": "Why",
        "result": "Result",
        "bye": "bye",
        "pending": "open",
        "playing": "playing",
        "disputed": "disputed",
        "decided": "decided",
        "forfeit": "forfeit",
        "result_id": "Result id",
        "winner": "Winner",
        "choose_winner": "Choose the winner",
        "points_a": "Points {name}",
        "points_b": "Points {name}",
        "reason": "Reason",
        "enter": "Enter the result",
        "correct": "Correct the result",
        "reports": "The players' reports differ. Enter the result that counts.",
        "report_of": "Report of {name}",
        "reported": "{winner} wins {won}-{lost}",
        "no_report": "no report",
        "pair_next": "Pair the next round",
        "pair_next_lead": "Once every result of this round is in.",
        "unpair": "Unpair this round",
        "unpair_lead": "Takes this round back while it has no result; its matches are void.",
        "bracket": "Knockout bracket",
        "done_result": "The result at table {table} is entered.",
        "done_correction": "The result at table {table} is corrected.",
        "done_pair": "Round {n} is paired.",
        "done_unpair": "Round {n} is unpaired.",
        "override": "Change the pairings",
        "override_lead": "Pair this round by hand while it has no result. Every player "
        "exactly once.",
        "override_check": "Check and save",
        "override_warned": "This pairing departs from the rules. Save it anyway?",
        "override_save": "Save anyway",
        "done_override": "The pairings of round {n} are changed.",
        "player_a": "Player A",
        "player_b": "Player B",
        "winner_missing": "Please choose the winner.",
        "points_invalid": "Please enter a whole number from 0 to 999.",
    },
}


# The pairing's explanations are recorded in the round's event in one fixed English grammar
# (domain/pairing.py, domain/tournament/rounds.py and venue.py): the audit record stays as it
# was written, and the German page says the same thing phrase by phrase.
_BY_THE_DIRECTOR = "paired by the director: "
_GERMAN_PHRASES: tuple[tuple[str, str], ...] = (
    (
        r"chosen over the classic pairing: it keeps the remaining rounds free of rematches",
        "gewählt statt der klassischen Paarung: so bleiben die übrigen Runden ohne "
        "Wiederholungspaarung",
    ),
    (r"^rematch, no pairing avoids it: ", "Wiederholungspaarung, keine Paarung vermeidet sie: "),
    # the knockout after the Swiss rounds or the round robin (T-FMT-4, T-FMT-11)
    (
        r"^semi-final: 1st v 4th of the (Swiss|round robin) standings$",
        "Halbfinale: 1. gegen 4. der Vorrunde",
    ),
    (
        r"^semi-final: 2nd v 3rd of the (Swiss|round robin) standings$",
        "Halbfinale: 2. gegen 3. der Vorrunde",
    ),
    # rule T-FMT-11: the round robin's Berger schedule (domain/tournament/formats.py)
    (
        r"^Berger table, cycle (\d+): number (\d+) v number (\d+)$",
        r"Berger-Tabelle, Durchgang \1: Nummer \2 gegen Nummer \3",
    ),
    (
        r"^Berger number (\d+) rests this round \(no win, no points\)$",
        r"Berger-Nummer \1 hat diese Runde spielfrei (kein Sieg, keine Punkte)",
    ),
    # rules T-FMT-12, T-FMT-13: the brackets (domain/tournament/elimination.py)
    (
        r"^seed (\d+) advances with a bye \((.*); no win, no points\)$",
        r"Setzplatz \1 kommt mit Freilos weiter (\2; kein Sieg, keine Punkte)",
    ),
    (r"\bmain bracket, round (\d+), match (\d+)", r"Hauptfeld, Runde \1, Spiel \2"),
    (r"\bconsolation bracket, round (\d+), match (\d+)", r"Trostrunde, Runde \1, Spiel \2"),
    (r": seed (\d+) v seed (\d+)(?=$|;)", r": Setzplatz \1 gegen Setzplatz \2"),
    # API.md "Formats": a bracket match of two players who both left waits for the director
    (
        r"; both players have left the tournament: the director records who goes through$",
        "; beide Spieler haben das Turnier verlassen: der Turnierleiter trägt ein, wer weiterkommt",
    ),
    (r"^final: the winners of the semi-finals$", "Finale: die Sieger der Halbfinals"),
    (
        r"^3rd place: the losers of the semi-finals$",
        "Spiel um Platz 3: die Verlierer der Halbfinals",
    ),
    (r"^director$", "vom Turnierleiter gepaart"),
    (r"^bye: ", "Freilos: "),
    (
        r"everyone has had one: the lowest-ranked player",
        "alle hatten schon eines: der am schlechtesten platzierte Spieler",
    ),
    (
        r"the lowest-ranked player without a bye",
        "der am schlechtesten platzierte Spieler ohne Freilos",
    ),
    (r" who leaves the fewest rematches", ", der die wenigsten Wiederholungspaarungen übrig lässt"),
    (r"^both ", "beide "),
    (r" floats down to ", " spielt abwärts gegen "),
    (r" v ", " gegen "),
    (r"\brank (\d+)", r"Platz \1"),
    (r"\b1 win\b", "1 Sieg"),
    (r"\b(\d+) wins\b", r"\1 Siege"),
)


def explanation_in(lang: Lang, explanation: str) -> str:
    """A pairing's recorded explanation in the page's language; the director's own reason for
    an override is quoted as written."""
    if lang != "de":
        return explanation
    if explanation.startswith(_BY_THE_DIRECTOR):
        return f"vom Turnierleiter gepaart: {explanation.removeprefix(_BY_THE_DIRECTOR)}"
    for english, german in _GERMAN_PHRASES:
        explanation = re.sub(english, german, explanation)
    return explanation


_GERMAN_WARNINGS: dict[str, str] = {
    "rematch": "die Spieler trafen schon in einer früheren Runde aufeinander (Regel T-FMT-1)",
    "second_bye": "der Spieler hatte schon ein Freilos",
    "score_gap": "die Spieler haben verschiedene Siegzahlen (Regel T-FMT-2)",
}


def warning_in(lang: Lang, kind: str, detail: str) -> str:
    """An override's warning in the page's language (the REST answer keeps ``detail``)."""
    return _GERMAN_WARNINGS.get(kind, detail) if lang == "de" else detail
