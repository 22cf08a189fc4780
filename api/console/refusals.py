"""The use cases' refusals in German, for the pages for people (the director's console and
the table page).

A problem's ``detail`` is English (it is the REST API's); a German page shows the common ones
in German instead: by the problem's type where the type has one meaning, else by its English
detail (a type such as ``tournament-state`` names several cases, and an ``invalid-input``
message names its field's). A refusal not listed here keeps its English detail.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime

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
    "places-not-final": "Die Plätze stehen fest, sobald das Turnier beendet ist.",
    "waitlist-full": "Alle Plätze und alle Plätze auf der Warteliste sind vergeben.",
    # at the table (rules G-LEGAL-1, G-CUBE-1, G-DICE-2): the page shows the state as it is now
    "not-your-turn": "Die andere Seite ist am Zug.",
    "wrong-phase": "Das geht gerade nicht: die Seite zeigt, was in der Partie jetzt dran ist.",
    "match-over": "Die Partie ist zu Ende: es lässt sich nichts mehr eintragen.",
    "illegal-play": "Dieser Zug ist mit diesen Würfeln nicht erlaubt (Regel G-LEGAL-1).",
    "cube-disabled": "Diese Partie wird ohne Doppler gespielt (Regel V-CUBE-1).",
    "cube-not-available": "Doppeln geht gerade nicht (Crawford-Spiel, oder der Doppler gehört "
    "der anderen Seite).",
    "roll-not-voidable": "Dieser Wurf lässt sich nicht mehr zurücknehmen (Regel G-DICE-2).",
    "stale-version": "Jemand war schneller: die Seite zeigt jetzt den neuen Stand.",
}
"""Refusals of a type with one meaning, by type."""

STATUSES = {
    "registered": "angemeldet",
    "waitlisted": "auf der Warteliste",
    "standby": "auf Abruf",
    "checked_in": "eingecheckt",
    "checked in": "eingecheckt",
    "withdrawn": "zurückgezogen",
    "excluded": "ausgeschlossen",
    "cancelled": "abgemeldet",
    "expired": "verfallen",
}


def _status(found: re.Match[str]) -> str:
    return STATUSES.get(found.group(1), found.group(1))


def _local_time(text: str) -> str:
    """An instant of a problem detail (the club's time, ISO 8601) as a German page says it."""
    try:
        return f"{datetime.fromisoformat(text):%d.%m.%Y, %H:%M} Uhr"
    except ValueError:
        return text


def _day(text: str) -> str:
    """A date of a problem detail (ISO 8601) as a German page says it."""
    try:
        return f"{date.fromisoformat(text):%d.%m.%Y}"
    except ValueError:
        return text


Words = str | Callable[[re.Match[str]], str]
QUOTED = r"""(['"])(.*)\{n}"""
"""A text as Python's ``repr`` quotes it (the domain's ``{text!r}``), its quote as group n."""
NOTATION = QUOTED.format(n=1) + ": " + QUOTED.format(n=3) + " "
"""The start of a ``NotationError``: the play typed, then the part of it that is wrong."""
NOTATION_PROBLEMS: tuple[tuple[str, str], ...] = (
    (r"at column \d+ is not a point \(0-25, bar or off\)", "ist kein Punkt (0 bis 25, bar, off)"),
    (r"at column \d+ is not a point \(1-24, bar or off\)", "ist kein Punkt (1 bis 24, bar, off)"),
    (r"at column \d+ follows no move", "folgt auf keinen Zug"),
    (r"at column \d+ is not a count of 1 to 4 checkers", "ist keine Anzahl von 1 bis 4 Steinen"),
    (r"at column \d+ follows no point", "folgt auf keinen Punkt"),
    (
        r"at column \d+ marks a hit but follows no target point",
        "markiert einen Treffer, aber ohne Zielpunkt davor",
    ),
    (r"at column \d+ is not part of move notation", "gehört nicht zur Zugnotation"),
    (r"ends with '/', a point must follow", "endet mit „/“: ein Punkt muss folgen"),
    (r"is not a move \(write source/target\)", "ist kein Zug (von/nach schreiben)"),
    (
        r"starts from off; a move starts on the board",
        "beginnt bei off: ein Zug beginnt auf dem Brett",
    ),
    (
        r"moves onto the bar; only hits go there",
        "zieht auf die Bar: dorthin kommt nur ein geschlagener Stein",
    ),
    (r"goes on after bearing off", "zieht nach dem Abtragen weiter"),
    (r"marks a hit off the board", "markiert einen Treffer außerhalb des Bretts"),
)
"""Move notation typed at the table that is none (``domain.backgammon.notation``)."""


def _notation(german: str) -> Callable[[re.Match[str]], str]:
    def said(found: re.Match[str]) -> str:
        return f"„{found.group(4)}“ in „{found.group(2)}“ {german}. Ein Zug lautet etwa 24/18 13/9."

    return said


NOTATION_DETAILS: tuple[tuple[str, Words], ...] = tuple(
    (NOTATION + english, _notation(german)) for english, german in NOTATION_PROBLEMS
)


RESULTS_MISSING = r"round (\d+) still needs the results of table\(s\) ([\d, ]+)"
GERMAN_DETAILS: tuple[tuple[re.Pattern[str], Words], ...] = tuple(
    (re.compile(f"^{english}$"), german)
    for english, german in (
        # API.md "Formats": an elimination's next bracket round was paired from the result
        (
            r"round (\d+) was paired from this result: unpair the later round first",
            r"Runde \1 ist aus diesem Ergebnis ausgelost: erst Runde \1 zurücknehmen, dann "
            "korrigieren (K.-o.-System).",
        ),
        # a result entered or reported (rules T-FMT-6, T-FMT-7)
        (
            r"the winner of a (\d+)-point match has at least that",
            r"Der Sieger eines Matches auf \1 Punkte hat mindestens \1.",
        ),
        (
            r"the loser of a (\d+)-point match has less than that",
            r"Der Verlierer eines Matches auf \1 Punkte hat weniger als \1.",
        ),
        (r"must be between (\d+) and (\d+)", r"Bitte eine Zahl von \1 bis \2."),
        (
            r"an unplayed match scores 0 points \(T-FMT-7\)",
            "Ein kampflos entschiedenes Match zählt 0 Punkte (Regel T-FMT-7).",
        ),
        (
            r"match \S+ has its result already",
            "Diese Partie hat schon ein Ergebnis: die Turnierleitung hat es eingetragen.",
        ),
        (
            r"match \S+ has its result \(\S+\); to correct it, name that result in corrects",
            "Diese Partie hat schon ein Ergebnis: die Seite neu laden, dann korrigieren.",
        ),
        (
            r"\S+ is not the result that counts for match \S+",
            "Das Ergebnis wurde inzwischen geändert: die Seite neu laden, dann korrigieren.",
        ),
        # a play typed at the table (rule G-LEGAL-1)
        (
            r"illegal play: (.+?) with (\d-\d): .*",
            r"\1 ist mit \2 kein erlaubter Zug (Regel G-LEGAL-1).",
        ),
        # pairing and unpairing (rules T-FMT-2, T-FMT-4)
        (
            RESULTS_MISSING,
            r"Runde \1 braucht noch die Ergebnisse von Tisch \2.",
        ),
        (
            RESULTS_MISSING + r"; both players of table\(s\) ([\d, ]+) have left the "
            r"tournament: .*",
            r"Runde \1 braucht noch die Ergebnisse von Tisch \2. An Tisch \3 haben beide "
            "Spieler das Turnier verlassen: keine Regel sagt, wer weiterkommt, also trägt die "
            "Turnierleitung dieses Ergebnis ein.",
        ),
        (
            r"(?:the tournament is completed: )?every round (?:of this tournament )?is paired",
            "Alle Runden dieses Turniers sind ausgelost.",
        ),
        (
            r"fewer than four players remain for the knockout",
            "Für die K.-o.-Runde sind weniger als vier Spieler übrig.",
        ),
        (r"round (\d+) has a result already", r"Runde \1 hat schon ein Ergebnis."),
        (r"round (\d+) is not the latest round", r"Runde \1 ist nicht die letzte Runde."),
        (
            r"the knockout is seeded by the standings \(rule T-FMT-4\)",
            "Die K.-o.-Runde wird nach der Tabelle gesetzt (Regel T-FMT-4).",
        ),
        (r"a player is paired twice", "Ein Spieler steht zweimal in der Paarung."),
        (r"at most one bye", "Höchstens ein Freilos."),
        (r"a player cannot play themselves", "Niemand spielt gegen sich selbst."),
        # the tournament's state
        (r"the tournament has not started", "Das Turnier hat noch nicht begonnen."),
        (r"the tournament is completed", "Das Turnier ist beendet."),
        (r"the tournament is not running", "Das Turnier läuft gerade nicht."),
        (r"the tournament has already started", "Das Turnier hat schon begonnen."),
        (
            r"the tournament can start once check-in has opened \((.+)\)",
            lambda found: (
                "Das Turnier kann erst beginnen, wenn der Check-in geöffnet hat "
                f"({_local_time(found.group(1))})."
            ),
        ),
        (
            r"(\d+) player\(s\) checked in; at least (\d+) are needed",
            r"\1 Spieler eingecheckt; mindestens \2 sind nötig.",
        ),
        (
            r"only a completed tournament is finalized",
            "Festschreiben lässt sich nur ein beendetes Turnier.",
        ),
        (r"the tournament is not final", "Das Turnier ist nicht festgeschrieben."),
        (
            r"the player is (\w+) already",
            lambda found: f"Der Spieler ist bereits {_status(found)}.",
        ),
        (
            r"a late entry is a registration made after the start",
            "Nachmelden lässt sich nur eine Anmeldung nach dem Start.",
        ),
        (r"the player is in the field already", "Der Spieler ist schon im Feld."),
        (
            r"the last Swiss round is paired: no more late entries",
            "Die letzte Schweizer Runde ist ausgelost: kein Nachmelden mehr.",
        ),
        (
            r"table (\d+) is fixed for another player already",
            r"Tisch \1 ist schon für einen anderen Spieler fest vergeben.",
        ),
        # registration and check-in at the desk
        (
            r"check-in closed when the tournament started",
            "Der Check-in endete mit dem Start des Turniers.",
        ),
        (
            r"check-in opens at (.+)",
            lambda found: f"Der Check-in öffnet am {_local_time(found.group(1))}.",
        ),
        (
            r"only a registered or waitlisted person can check in; this one is (.+)",
            lambda found: (
                "Einchecken kann nur, wer angemeldet ist oder auf der Warteliste "
                f"steht; diese Person ist {_status(found)}."
            ),
        ),
        (
            r"a valid ID document must be seen",
            "Bitte den Ausweis ansehen: ohne gültigen Ausweis kein Check-in.",
        ),
        (
            r"the buy-in is (\d+) cents, not (\d+)",
            lambda found: (
                f"Das Startgeld beträgt {_euros(found.group(1))}, nicht {_euros(found.group(2))}."
            ),
        ),
        (
            r"registration closed (?:when the tournament started|at the latest start) \((.+)\)",
            lambda found: f"Die Anmeldung ist geschlossen (seit {_local_time(found.group(1))}).",
        ),
        (r"is not an e-mail address", "Das ist keine E-Mail-Adresse."),
        (
            r"must name a mail domain, not an IP address",
            "Die E-Mail-Adresse braucht einen Domainnamen, keine IP-Adresse.",
        ),
        (r"give age or birth_date", "Bitte das Alter oder das Geburtsdatum angeben."),
        # the register form's age and birth date (rule T-REG-1)
        (
            r"participants must be at least (\d+) on (\S+)",
            lambda found: (
                f"Teilnehmen kann nur, wer am {_day(found.group(2))} mindestens "
                f"{found.group(1)} Jahre alt ist (Regel T-REG-1)."
            ),
        ),
        (
            r"participants must be at least (\d+) on (\S+); if you turn \d+ by then, give "
            r"birth_date instead",
            lambda found: (
                f"Teilnehmen kann nur, wer am {_day(found.group(2))} mindestens "
                f"{found.group(1)} Jahre alt ist (Regel T-REG-1). Wer es bis dahin wird: bitte "
                "das Geburtsdatum angeben."
            ),
        ),
        (
            r"(\S+) lies in the future",
            lambda found: f"Das Geburtsdatum {_day(found.group(1))} liegt in der Zukunft.",
        ),
        (
            r"(\S+) lies after the play date (\S+)",
            lambda found: (
                f"Das Geburtsdatum {_day(found.group(1))} liegt nach dem Turniertag "
                f"{_day(found.group(2))}."
            ),
        ),
        (
            r"(\S+) is not plausible",
            lambda found: f"Das Geburtsdatum {_day(found.group(1))} ist nicht glaubhaft.",
        ),
        (
            r"does not match birth_date (\S+) \((\d+) on the play date\)",
            lambda found: (
                f"Das Alter passt nicht zum Geburtsdatum {_day(found.group(1))} (am Turniertag "
                f"{found.group(2)} Jahre)."
            ),
        ),
        (
            QUOTED.format(n=1) + r" is not a date; use YYYY-MM-DD",
            r"„\2“ ist kein Datum: bitte als TT.MM.JJJJ angeben.",
        ),
        (
            r"(.+): the year must lie between (\d+) and (\d+), not (\d+)",
            r"„\1“: das Jahr liegt zwischen \2 und \3.",
        ),
        (
            r"(.+) does not exist: there is no month (\d+)",
            r"Den „\1“ gibt es nicht: es gibt keinen Monat \2.",
        ),
        (
            r"(.+) does not exist: \w+ \d+ has (\d+) days",
            r"Den „\1“ gibt es nicht: dieser Monat hat \2 Tage.",
        ),
        (
            r"must not contain control, format, zero-width or other invisible characters",
            "Die E-Mail-Adresse enthält ein unsichtbares Zeichen oder ein Steuerzeichen.",
        ),
        (
            r"write the part before the @ without quotes, comments or the characters .*",
            lambda _: (
                "Bitte den Teil vor dem @ ohne Anführungszeichen, Kommentare und die Zeichen "
                '( ) < > [ ] , ; : \\ " schreiben.'
            ),
        ),
        (
            r"write the part after the @ without comments or the characters .*",
            lambda _: (
                "Bitte den Teil nach dem @ ohne Kommentare und die Zeichen "
                '( ) < > [ ] , ; : \\ " schreiben.'
            ),
        ),
        (
            r"must not contain invisible format characters \(e\.g\. text direction marks\)",
            "Bitte ohne unsichtbare Steuerzeichen (etwa Schreibrichtungszeichen).",
        ),
        (
            r"must not contain control characters or line breaks \((U\+[0-9A-F]+)\)",
            r"Bitte ohne Zeilenumbrüche und Steuerzeichen (\1).",
        ),
        (
            r"must not contain invisible characters or spaces other than the plain space "
            r"\((U\+[0-9A-F]+)\)",
            r"Bitte ohne unsichtbare Zeichen und ohne andere Leerzeichen als das einfache (\1).",
        ),
        # the round page's pairing override (rule T-FMT-2)
        (
            r"not in this round's field: .+",
            "Die Paarung nennt Spieler, die in dieser Runde nicht spielen: bitte die Seite neu "
            "laden.",
        ),
        (
            r"every active player once; missing: (.+)",
            lambda found: (
                "Jeder aktive Spieler kommt genau einmal vor; es fehlen "
                f"{len(found.group(1).split(', '))} Spieler."
            ),
        ),
        (
            r"player \S+ does not play in this tournament",
            "Dieser Spieler spielt in diesem Turnier nicht (mehr).",
        ),
        (r"\S+ does not play match \S+", "Der Sieger spielt nicht in dieser Partie."),
        # a report from a player who has left the tournament (rule C-EXCL-1)
        (
            r"the player is excluded from this tournament \(C-EXCL-1\): their reports no "
            r"longer count",
            "Du bist von diesem Turnier ausgeschlossen (Regel C-EXCL-1): deine Meldungen zählen "
            "nicht mehr.",
        ),
        (
            r"the player has withdrawn from this tournament: their reports no longer count",
            "Du hast dich von diesem Turnier zurückgezogen: deine Meldungen zählen nicht mehr.",
        ),
        # move notation typed at the table (rule G-LEGAL-1)
        (
            r"is empty: name the steps, as '24/18 13/9'",
            "Bitte den Zug eingeben, etwa 24/18 13/9.",
        ),
        (
            r"cannot read '(.*)': steps read 'from/to', 'bar/to' or 'from/off'",
            r"„\1“ lässt sich nicht lesen: ein Schritt lautet von/nach, bar/nach oder von/off.",
        ),
        (
            r"is at most (\d+) characters of notation",
            r"Ein Zug hat höchstens \1 Zeichen.",
        ),
        # a registration's state changed meanwhile (a desk row drawn before, rule T-CANCEL-1)
        (
            r"the registration is (\w+(?: in)?)",
            lambda found: f"Die Anmeldung ist bereits {_status(found)}.",
        ),
        (
            r"the tournament is running: record a withdrawal instead of a cancellation",
            "Das Turnier läuft: statt einer Abmeldung den Rückzug eintragen.",
        ),
        # the break list's mark-present (rule C-BREAK-2)
        (r"no round is paired yet", "Noch ist keine Runde ausgelost."),
        (r"round (\d+) has no table (\d+)", r"Runde \1 hat keinen Tisch \2."),
        # the season page's directors
        (
            r"is no director of this season",
            "Diese Person ist keine Turnierleitung dieser Saison.",
        ),
        # a reason and other texts (``domain.text.one_line``)
        (r"must not be empty", "Bitte ausfüllen."),
        (r"at most (\d+) characters", r"Höchstens \1 Zeichen."),
        (
            r"must not contain control characters \(e\.g\. line breaks\)",
            "Bitte ohne Zeilenumbrüche und Steuerzeichen.",
        ),
    )
) + tuple((re.compile(f"^{english}$"), german) for english, german in NOTATION_DETAILS)
"""Refusals known by their English detail (or an ``invalid-input`` message)."""


def _euros(cents: str) -> str:
    return f"{int(cents) / 100:.2f} €".replace(".", ",")


def in_words(kind: str, detail: str, lang: Lang) -> str:
    """The refusal ``detail`` of the problem type ``kind`` in the page's language."""
    if lang != "de":
        return detail
    for english, german in GERMAN_DETAILS:
        if found := english.match(detail):
            return german(found) if callable(german) else found.expand(german)
    return GERMAN.get(kind, detail)
