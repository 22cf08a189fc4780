"""What the mails say (rule P-MAIL-1), in German by default and in English by choice."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from projections.outbox import MailRow


@dataclass(frozen=True, slots=True)
class Links:
    """The mail's links, with their tokens derived by the sender (never stored in a row)."""

    confirm: str | None = None
    cancel: str | None = None
    personal: str | None = None
    """The personal link: signs the player in on the table page (through a button)."""


TEXTS: dict[str, dict[str, Any]] = {
    "de": {
        "confirmation_link": (
            "Bitte bestätige deine Anmeldung: {tournament}",
            "Hallo {first_name},\n\n"
            "du möchtest dich für das Turnier „{tournament}“ am {play_date} anmelden.\n"
            "Bitte bestätige die Anmeldung bis {confirm_by} über diesen Link:\n\n"
            "{confirm_link}\n\n"
            "Erst mit der Bestätigung ist die Anmeldung gültig; über Platz oder Warteliste "
            "entscheidet der Zeitpunkt der Bestätigung.\n"
            "Wenn du dich nicht angemeldet hast, ignoriere diese Nachricht einfach.\n",
        ),
        "already_registered": (
            "Du bist bereits angemeldet: {tournament}",
            "Hallo {first_name},\n\n"
            "für das Turnier „{tournament}“ am {play_date} wurde eine Anmeldung mit dieser "
            "Adresse angefragt. Diese Adresse ist bereits angemeldet; es ist nichts weiter zu "
            "tun.\n"
            "Wenn du die Anfrage nicht gestellt hast, ignoriere diese Nachricht einfach.\n",
        ),
        "registration_confirmed": (
            "Anmeldung bestätigt: {tournament}",
            "Hallo {first_name},\n\n"
            "{placed}\n\n"
            "Turnier: {tournament}, {play_date}\nOrt: {venue}\n"
            "{cancellation}"
            "{personal}",
        ),
        "waitlist_promoted": (
            "Du hast einen Platz: {tournament}",
            "Hallo {first_name},\n\n"
            "ein Platz ist frei geworden: du bist jetzt für das Turnier „{tournament}“ am "
            "{play_date} angemeldet.\n"
            "{cancellation}",
        ),
        "cancellation_confirmed": (
            "Abmeldung bestätigt: {tournament}",
            "Hallo {first_name},\n\n"
            "deine Anmeldung für das Turnier „{tournament}“ am {play_date} ist storniert.\n",
        ),
        "payout_scheme": (
            "Preisgeldverteilung: {tournament}",
            "Hallo {first_name},\n\n"
            "der Abmeldeschluss für das Turnier „{tournament}“ am {play_date} ist vorbei.\n"
            "Vom Startgeld ({buy_in}) gehen {pot_share} je Spieler in den Preistopf; er wird "
            "so verteilt:\n\n{payouts}\n",
        ),
        # rule T-CANCEL-1: cancellation until the deadline; after it only the director can
        # take a seat holder off (a late withdrawal); leaving the waitlist stays open
        "cancel_with_link": "Abmeldung bis {cancellation_until} über diesen Link:\n\n"
        "{cancel_link}\n",
        "cancel_with_registration_link": "Abmeldung bis {cancellation_until} über den Link aus "
        "deiner Anmeldebestätigung.\n",
        "cancel_waitlist_with_link": "Die Abmeldefrist ist am {cancellation_until} abgelaufen; "
        "von der Warteliste kannst du dich weiter über diesen Link abmelden:\n\n"
        "{cancel_link}\n",
        "cancel_closed": "Die Abmeldefrist ist am {cancellation_until} abgelaufen: eine "
        "Abmeldung ist jetzt nur noch über die Turnierleitung möglich. Kannst du doch nicht "
        "kommen, sag ihr bitte Bescheid.\n",
        "personal_link": "\nDein persönlicher Link für den Turniertag: damit meldest und "
        "bestätigst du am Tisch deine Ergebnisse. Gib ihn nicht weiter.\n\n{personal_link}\n",
        "placed_registered": "deine Anmeldung ist bestätigt: du hast einen Platz.",
        "placed_waitlisted": "deine Anmeldung ist bestätigt: alle Plätze sind belegt, du stehst "
        "auf der Warteliste. Wird ein Platz frei, bekommst du eine Nachricht.",
        "place": "{place}. Platz: {percent} %",
        "date": "{day:%d.%m.%Y}",
        "instant": "{day:%d.%m.%Y}, {day:%H:%M} Uhr",
    },
    "en": {
        "confirmation_link": (
            "Please confirm your registration: {tournament}",
            "Hello {first_name},\n\n"
            "you asked to register for the tournament “{tournament}” on {play_date}.\n"
            "Please confirm by {confirm_by} with this link:\n\n"
            "{confirm_link}\n\n"
            "The registration counts only once confirmed; whether it gets a seat or a waitlist "
            "place is decided when you confirm.\n"
            "If you did not register, simply ignore this message.\n",
        ),
        "already_registered": (
            "You are already registered: {tournament}",
            "Hello {first_name},\n\n"
            "someone asked to register this address for the tournament “{tournament}” on "
            "{play_date}. The address is already registered; there is nothing more to do.\n"
            "If you did not ask, simply ignore this message.\n",
        ),
        "registration_confirmed": (
            "Registration confirmed: {tournament}",
            "Hello {first_name},\n\n"
            "{placed}\n\n"
            "Tournament: {tournament}, {play_date}\nVenue: {venue}\n"
            "{cancellation}"
            "{personal}",
        ),
        "waitlist_promoted": (
            "You have a seat: {tournament}",
            "Hello {first_name},\n\n"
            "a seat became free: you are now registered for the tournament “{tournament}” on "
            "{play_date}.\n"
            "{cancellation}",
        ),
        "cancellation_confirmed": (
            "Cancellation confirmed: {tournament}",
            "Hello {first_name},\n\n"
            "your registration for the tournament “{tournament}” on {play_date} is cancelled.\n",
        ),
        "payout_scheme": (
            "Prize payout: {tournament}",
            "Hello {first_name},\n\n"
            "the cancellation deadline of the tournament “{tournament}” on {play_date} has "
            "passed.\n"
            "Of the buy-in ({buy_in}), {pot_share} per player goes to the prize pot; it is paid "
            "out as follows:\n\n{payouts}\n",
        ),
        "cancel_with_link": "Cancel until {cancellation_until} with this link:\n\n{cancel_link}\n",
        "cancel_with_registration_link": "Cancel until {cancellation_until} with the link in "
        "your registration mail.\n",
        "cancel_waitlist_with_link": "The cancellation deadline passed on {cancellation_until}; "
        "you can still leave the waitlist with this link:\n\n{cancel_link}\n",
        "cancel_closed": "The cancellation deadline passed on {cancellation_until}: only the "
        "tournament director can take you off the list now. If you cannot come after all, "
        "please tell them.\n",
        "personal_link": "\nYour personal link for the tournament day: with it you report and "
        "confirm your results at the table. Do not pass it on.\n\n{personal_link}\n",
        "placed_registered": "your registration is confirmed: you have a seat.",
        "placed_waitlisted": "your registration is confirmed: all seats are taken, you are on "
        "the waitlist. You will hear from us when a seat becomes free.",
        "place": "place {place}: {percent} %",
        "date": "{day:%Y-%m-%d}",
        "instant": "{day:%Y-%m-%d} {day:%H:%M}",
    },
}


def render(mail: MailRow, links: Links) -> tuple[str, str]:
    """The subject and the plain-text body of ``mail``."""
    language = mail.language if mail.language in TEXTS else "de"
    words = TEXTS[language]
    subject, body = words[mail.kind]
    facts: Mapping[str, Any] = mail.params
    zone = ZoneInfo(str(facts.get("time_zone", "Europe/Berlin")))

    def day(value: str) -> str:
        return str(words["date"]).format(day=date.fromisoformat(value))

    def instant(value: str) -> str:
        moment = datetime.fromisoformat(value).astimezone(zone)
        return str(words["instant"]).format(day=moment)

    status = str(facts.get("status", "registered"))
    percent = facts.get("payout_percent", [])
    until = instant(facts["cancellation_until"]) if "cancellation_until" in facts else ""
    values = {
        "first_name": facts.get("first_name", ""),
        "tournament": facts.get("tournament", ""),
        "venue": facts.get("venue", ""),
        "play_date": day(facts["play_date"]) if "play_date" in facts else "",
        "confirm_by": instant(facts["confirm_by"]) if "confirm_by" in facts else "",
        "cancellation": str(words[_cancellation(mail, status)]).format(
            cancellation_until=until, cancel_link=links.cancel or ""
        ),
        "confirm_link": links.confirm or "",
        "personal": (
            str(words["personal_link"]).format(personal_link=links.personal)
            if links.personal
            else ""
        ),
        "placed": words["placed_waitlisted" if status == "waitlisted" else "placed_registered"],
        "buy_in": _euros(int(facts.get("buy_in_cents", 0))),
        "pot_share": _euros(int(facts.get("pot_share_cents", 0))),
        "payouts": "\n".join(
            str(words["place"]).format(place=place, percent=share)
            for place, share in enumerate(percent, start=1)
        ),
    }
    return subject.format(**values), body.format(**values)


def _cancellation(mail: MailRow, status: str) -> str:
    """Which cancellation the mail offers (rule T-CANCEL-1): as of its event, the person could
    cancel until the deadline; after it a seat holder only through the director (a late
    withdrawal), while a waitlisted person can still leave the waitlist."""
    deadline = mail.params.get("cancellation_until")
    closed = deadline is not None and mail.created_at > datetime.fromisoformat(deadline)
    promoted = mail.kind == "waitlist_promoted"
    if not closed:
        return "cancel_with_registration_link" if promoted else "cancel_with_link"
    return "cancel_waitlist_with_link" if status == "waitlisted" else "cancel_closed"


def _euros(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d} EUR"
