"""The club's rating list as an aggregate: its settings, its rating-only players and its
imports of past results (rules R-RATE-3, R-RATE-7, R-RATE-8).

The list itself is a projection (``projections/ratings.py``): this stream only records what
no other aggregate does. It has one well-known id, so that every process finds it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from typing import ClassVar
from uuid import UUID

import msgspec

from domain.errors import InvalidInputError
from domain.events import PSEUDONYM, Aggregate, DomainEvent, EventBatch, Personal
from domain.ratings.formula import START_RATING
from domain.text import visible_name

CLUB_RATINGS_ID = UUID("5a7e1d2c-0b6f-5c3e-9a41-7261746e6773")
"""The one stream of the club's rating list."""
MAX_NAME_LENGTH = 100
MAX_LENGTH = 64
MIN_START_RATING = 1.0
MAX_START_RATING = 5000.0
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


class RatingSettingsChanged(DomainEvent, frozen=True, kw_only=True):
    """rule R-RATE-3: the club's rating settings from the next rated match on."""

    start_rating: float
    newcomer_boost: bool


class RatingPlayerAdded(DomainEvent, frozen=True, kw_only=True):
    """rule R-RATE-7: a name nobody had became a rating-only player (an import's row or a
    side of an ad hoc match). The name is personal data, sealed under the player's key."""

    player_id: UUID
    display_name: str

    personal: ClassVar[tuple[Personal, ...]] = (Personal("player_id", {"display_name": PSEUDONYM}),)


class ImportedMatch(msgspec.Struct, frozen=True, kw_only=True):
    """One row of an import, its names resolved to players."""

    date: str
    winner_id: UUID
    loser_id: UUID
    length: int


class ResultsImported(DomainEvent, frozen=True, kw_only=True):
    """rules R-RATE-4, R-RATE-8: past results, rated at the import in list order."""

    import_id: UUID
    matches: tuple[ImportedMatch, ...]
    new_players: int = 0
    matched_players: int = 0


RatingEvent = RatingSettingsChanged | RatingPlayerAdded | ResultsImported


class ClubRatings(Aggregate, frozen=True, kw_only=True):
    """The settings in force (rule R-RATE-3) and when they last changed."""

    start_rating: float = START_RATING
    newcomer_boost: bool = False
    changed_at: datetime | None = None


def evolve(state: ClubRatings | None, event: RatingEvent) -> ClubRatings:
    """The one place where the rating list's events apply."""
    if state is None:
        state = ClubRatings(id=event.originator_id, version=0)
    if isinstance(event, RatingSettingsChanged):
        return msgspec.structs.replace(
            state,
            version=event.originator_version,
            start_rating=event.start_rating,
            newcomer_boost=event.newcomer_boost,
            changed_at=event.timestamp,
        )
    if isinstance(event, RatingPlayerAdded | ResultsImported):
        return msgspec.structs.replace(state, version=event.originator_version)
    raise TypeError(f"not an event of the rating list: {type(event).__name__}")


class ImportRow(msgspec.Struct, frozen=True, kw_only=True):
    """One row as a director sent it (a CSV's cells are text)."""

    date: str
    winner: str
    loser: str
    length: int | str


class PlayerDirectory(msgspec.Struct, frozen=True, kw_only=True):
    """Every player a name can name (registered or rating-only): display name by id."""

    names: Mapping[UUID, str]

    def ids_named(self) -> dict[str, list[UUID]]:
        named: dict[str, list[UUID]] = {}
        for player_id, name in self.names.items():
            named.setdefault(name.strip(), []).append(player_id)
        return named


class Resolver:
    """rule R-RATE-7: names to players, new names to new rating-only players (one per name)."""

    def __init__(self, directory: PlayerDirectory, new_id: Callable[[], UUID]) -> None:
        self._names = directory.names
        self._named = directory.ids_named()
        self._new_id = new_id
        self.new: dict[str, UUID] = {}
        self.matched: set[UUID] = set()

    def resolve(self, text: str) -> UUID:
        """The player ``text`` names; ``InvalidInputError`` (field filled in by the caller)
        when several players share the name, or when it is a player id nobody has: only a
        new *name* adds a rating-only player (a mistyped id is no name to rate)."""
        name = text.strip()
        as_id = _as_uuid(name)
        if as_id is not None and as_id in self._names:
            self.matched.add(as_id)
            return as_id
        found = self._named.get(name, [])
        if len(found) > 1:
            raise InvalidInputError("", f"{len(found)} players share the name {name!r}")
        if found:
            self.matched.add(found[0])
            return found[0]
        if as_id is not None:
            raise InvalidInputError("", f"no player has the id {name}")
        if name not in self.new:
            self.new[name] = self._new_id()
        return self.new[name]

    def added(self, batch: EventBatch[RatingEvent]) -> None:
        for name, player_id in self.new.items():
            batch.add(RatingPlayerAdded, player_id=player_id, display_name=name)


def check_name(field: str, text: str) -> str:
    """A side's name: 1-100 characters after trimming (rule R-RATE-8), none of them a control
    or invisible character: a new name becomes a player's public display name, held to what
    a registration's name is (rule T-REG-5)."""
    name = text.strip()
    if not 1 <= len(name) <= MAX_NAME_LENGTH:
        raise InvalidInputError(field, f"must have 1 to {MAX_NAME_LENGTH} characters")
    visible_name(field, name, MAX_NAME_LENGTH)
    return name


def import_results(
    state: ClubRatings | None,
    rows: Sequence[ImportRow],
    directory: PlayerDirectory,
    *,
    import_id: UUID,
    today: date,
    now: datetime,
    new_id: Callable[[], UUID],
    actor: str | None,
) -> list[RatingEvent]:
    """rule R-RATE-8: all rows or nothing; the error names every bad row (``matches[i]`` or
    ``matches[i].field``, 0-based)."""
    if not rows:
        raise InvalidInputError("matches", "an import needs at least one match")
    resolver = Resolver(directory, new_id)
    errors: list[dict[str, str]] = []
    imported: list[ImportedMatch] = []
    for index, row in enumerate(rows):
        found = _checked_row(index, row, resolver, today)
        if isinstance(found, ImportedMatch):
            imported.append(found)
        else:
            errors.extend({"field": field, "message": message} for field, message in found)
    if errors:
        first = errors[0]
        raise InvalidInputError(
            first["field"],
            f"{first['message']} ({len(errors)} errors; nothing was imported)",
            errors=errors,
        )
    batch = EventBatch[RatingEvent](CLUB_RATINGS_ID, state.version if state else 0, now, actor)
    resolver.added(batch)
    batch.add(
        ResultsImported,
        import_id=import_id,
        matches=tuple(imported),
        new_players=len(resolver.new),
        matched_players=len(resolver.matched),
    )
    return batch.events


def _checked_row(
    index: int, row: ImportRow, resolver: Resolver, today: date
) -> ImportedMatch | list[tuple[str, str]]:
    at = f"matches[{index}]"
    errors: list[tuple[str, str]] = []
    day = _checked_day(row.date, today)
    if isinstance(day, str):
        errors.append((f"{at}.date", day))
    length = _checked_length(row.length)
    if isinstance(length, str):
        errors.append((f"{at}.length", length))
    ids: list[UUID] = []
    for side in ("winner", "loser"):
        text: str = getattr(row, side)
        try:
            check_name(side, text)
            ids.append(resolver.resolve(text))
        except InvalidInputError as error:
            errors.append((f"{at}.{side}", error.message))
    if len(ids) == 2 and (ids[0] == ids[1] or row.winner.strip() == row.loser.strip()):
        errors.append((at, "winner and loser are the same player"))  # rule R-RATE-6
    if errors or isinstance(day, str) or isinstance(length, str):
        return errors
    return ImportedMatch(date=day.isoformat(), winner_id=ids[0], loser_id=ids[1], length=length)


def _checked_day(text: str, today: date) -> date | str:
    """rule R-RATE-8 (CAL-2): ``YYYY-MM-DD``, a real day, not after today."""
    if not _ISO_DATE.fullmatch(text.strip()):
        return f"{text!r} is not a date of the form YYYY-MM-DD"
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        return f"{text.strip()} is no day of the calendar"
    if day > today:
        return f"{day} lies after today ({today})"
    return day


def _checked_length(value: int | str) -> int | str:
    if isinstance(value, str):
        text = value.strip()
        if not text.isdecimal():  # "²" is a digit, yet no number int() reads
            return f"{value!r} is not a whole number of points"
        if len(text.lstrip("0")) > len(str(MAX_LENGTH)):  # thousands of digits: int() refuses
            return f"a rated match has 1 to {MAX_LENGTH} points, not a number of {len(text)} digits"
        value = int(text)
    if not 1 <= value <= MAX_LENGTH:
        return f"a rated match has 1 to {MAX_LENGTH} points, not {value}"
    return value


def _as_uuid(text: str) -> UUID | None:
    try:
        return UUID(text)
    except ValueError:
        return None


def add_players(
    state: ClubRatings | None, resolver: Resolver, now: datetime, *, actor: str | None
) -> list[RatingEvent]:
    """The rating-only players a resolver created (the sides of an ad hoc match)."""
    if not resolver.new:
        return []
    batch = EventBatch[RatingEvent](CLUB_RATINGS_ID, state.version if state else 0, now, actor)
    resolver.added(batch)
    return batch.events


def change_settings(
    state: ClubRatings | None,
    *,
    start_rating: float | None,
    newcomer_boost: bool | None,
    now: datetime,
    actor: str | None,
) -> list[RatingEvent]:
    """rule R-RATE-3: new settings, from the next rated match on; a setting given as ``None``
    keeps its value (a partial change, docs/api.md)."""
    held = state or ClubRatings(id=CLUB_RATINGS_ID, version=0)
    if start_rating is None:
        start_rating = held.start_rating
    if newcomer_boost is None:
        newcomer_boost = held.newcomer_boost
    if not MIN_START_RATING <= start_rating <= MAX_START_RATING:
        raise InvalidInputError(
            "start_rating", f"must lie between {MIN_START_RATING:g} and {MAX_START_RATING:g}"
        )
    batch = EventBatch[RatingEvent](CLUB_RATINGS_ID, state.version if state else 0, now, actor)
    batch.add(RatingSettingsChanged, start_rating=start_rating, newcomer_boost=newcomer_boost)
    return batch.events
