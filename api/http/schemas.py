"""Structs and parameter types that several controllers share: the API's common vocabulary."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Annotated, Any, Generic, Literal, TypeVar
from uuid import UUID

import msgspec
from litestar import Request
from litestar.di import NamedDependency
from litestar.enums import RequestEncodingType
from litestar.params import QueryParameter

from domain.backgammon import Play
from domain.errors import InvalidInputError
from domain.events import DomainEvent
from domain.people.director import ActingDirector, named_director_id
from service.bootstrap import Services

Die = Annotated[int, msgspec.Meta(ge=1, le=6)]
PositionId = Annotated[
    str,
    # the pattern says in the schema what the domain checks first: 14 characters of base64
    msgspec.Meta(pattern="^[A-Za-z0-9+/]{14}$", examples=["4HPwATDgc/ABMA"]),
]
DateText = Annotated[
    str,
    msgspec.Meta(
        description="YYYY-MM-DD (the club's DD.MM.YYYY and DD.MM.YY, read as 20YY, are accepted "
        "too); years 1900 to 2999",
        examples=["2026-03-01"],
    ),
]
NameText = Annotated[str, msgspec.Meta(min_length=1)]
"""A name someone types (a season's, a tournament's, a person's): never empty. The rules tidy
it and bound its length further (domain/text.py); the schema says what is sure."""
S = TypeVar("S", bound=msgspec.Struct)
R = TypeVar("R")
C = TypeVar("C")

ServicesDep = NamedDependency[Services]
"""A handler's use cases and views (the app's ``services`` dependency)."""
ActingDirectorDep = NamedDependency[ActingDirector]
"""The director a director guard found (the app's ``acting_director`` dependency)."""
ActorDep = NamedDependency[str]
"""What the events of a director's command record as their actor: ``director`` or
``director:<id>`` (rule C-DIR-1; the app's ``actor`` dependency)."""


def restate(row: object, as_type: type[R]) -> R:
    """A service's typed row (or a dict of rows) as the API's Struct with the same fields.

    The API's Structs document the contract; their fields must agree with the rows', which
    msgspec checks field by field, nested rows included (a missing or mistyped field fails).
    A row's field the Struct lacks is not shown (a token's hash never is). A request becomes
    a command through ``AsCommand``, which lets no field pass unnoticed.
    """
    return msgspec.convert(row, as_type, from_attributes=True)


class AsCommand(Generic[C]):
    """How a request (its body's Struct, or a form's fields) becomes a use case's command:
    field by field, the same names but those ``renamed``, leaving out those the handler
    passes ``apart``; the command's fields the request does not carry are ``set_by_server``.

    Declared at a module's top, it is checked when the app is imported: a request's field the
    command lacks would be dropped without a word, a command's field no request field fills
    would keep its default unnoticed, and a field the server sets (a match's seated players,
    their tokens' hashes) that the request carries could be set by a client."""

    def __init__(
        self,
        request: type,
        command: type[C],
        *,
        set_by_server: tuple[str, ...] = (),
        renamed: Mapping[str, str] | None = None,
        apart: tuple[str, ...] = (),
    ) -> None:
        self.request = request
        self.command = command
        self.set_by_server = set_by_server
        self.renamed = dict(renamed or {})
        self.apart = apart
        problems = self.mismatch()
        if problems:
            raise TypeError(f"{request.__name__} -> {command.__name__}: " + "; ".join(problems))
        names = _field_names(command)
        self._carried = tuple(
            (name, names[self.renamed.get(name, name)])
            for name in _fields(request)
            if name not in apart
        )

    def mismatch(self) -> list[str]:
        """What keeps the request from being the command field by field (empty: nothing)."""
        sent, taken = _fields(self.request), _fields(self.command)
        problems = [
            f"{name} is renamed, but no field of the request"
            for name in self.renamed
            if name not in sent
        ]
        problems += [
            f"{name} is passed apart, but no field of the request"
            for name in self.apart
            if name not in sent
        ]
        problems += [
            f"{name} is renamed to {other}, no field of the command"
            for name, other in self.renamed.items()
            if other not in taken
        ]
        carried = {self.renamed.get(name, name) for name in sent if name not in self.apart}
        for name in sorted(carried - taken.keys() - set(self.renamed.values())):
            problems.append(f"the request's {name} would be dropped: the command has no {name}")
        for name in sorted(carried & set(self.set_by_server)):
            problems.append(f"{name} is set by the server, yet a client could set it")
        for name, has_default in taken.items():
            if name in carried:
                continue
            if name not in self.set_by_server:
                problems.append(f"the command's {name} is in no request field nor set_by_server")
            elif not has_default:
                problems.append(f"{name} is set by the server: it needs a default")
        problems += [
            f"{name} is set by the server, but no field of the command"
            for name in self.set_by_server
            if name not in taken
        ]
        return problems

    def __call__(self, request: object) -> C:
        """The command of ``request`` (an instance of the declared request type)."""
        if not isinstance(request, self.request):
            raise TypeError(f"{type(request).__name__} is no {self.request.__name__}")
        fields = {key: getattr(request, name) for name, key in self._carried}
        return msgspec.convert(fields, self.command, from_attributes=True)


def _fields(kind: type) -> dict[str, bool]:
    """A Struct's or dataclass's fields by name: whether each has a default."""
    if dataclasses.is_dataclass(kind):
        missing = dataclasses.MISSING
        return {
            f.name: f.default is not missing or f.default_factory is not missing
            for f in dataclasses.fields(kind)
        }
    return {f.name: not f.required for f in msgspec.structs.fields(kind)}


def _field_names(kind: type) -> dict[str, str]:
    """A field's name as ``msgspec.convert`` reads it from a dict (a Struct's encoded name)."""
    if dataclasses.is_dataclass(kind):
        return {f.name: f.name for f in dataclasses.fields(kind)}
    return {f.name: f.encode_name for f in msgspec.structs.fields(kind)}


def restate_all(rows: Iterable[object], as_type: type[S]) -> list[S]:
    """Rows as a list of the API's Struct (see ``restate``)."""
    return msgspec.convert(list(rows), list[as_type], from_attributes=True)  # type: ignore[valid-type]


async def strict_body(request: Request[Any, Any, Any], as_type: type[S]) -> S:
    """The request's JSON body as ``as_type`` by msgspec's strict rules: a 422 naming the
    field for a value of the wrong JSON type.

    Litestar converts a handler's ``data`` laxly (``strict=False``), so that a number sent
    as a string (``"10"``) passes for the number. A handler whose body must be typed as its
    Struct and the served schema say takes ``data`` for the document and the shape, and
    its values from here.
    """
    try:
        return msgspec.convert(await request.json(), as_type, strict=True)
    except msgspec.ValidationError as error:
        raise _named(error) from None


async def strict_json_data(request: Request[Any, Any, Any]) -> None:
    """Before every handler with a JSON body (``data``): a body Litestar's lax conversion
    takes must be of the JSON types the served document says, or it is a 422 naming the field
    (``0`` or ``"true"`` is no bool, ``"2"`` no integer) and nothing runs.

    A body the lax conversion refuses is left to Litestar's own answer, as before.
    """
    data = request.route_handler.parsed_fn_signature.parameters.get("data")
    if data is None or getattr(data.kwarg_definition, "media_type", None) not in _JSON_BODIES:
        return
    try:
        body = await request.json()
        msgspec.convert(body, data.annotation, strict=False)
    except Exception:  # Litestar decodes the body itself and answers the error, as before
        return
    try:
        msgspec.convert(_integral(body), data.annotation, strict=True)
    except msgspec.ValidationError as error:
        raise _named(error) from None


def _integral(value: object) -> object:
    """The body with ``2.0`` read as ``2``: a JSON Schema integer is any number without a
    fractional part, so the document's ``"type": "integer"`` takes it."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {key: _integral(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_integral(item) for item in value]
    return value


_JSON_BODIES = frozenset({None, RequestEncodingType.JSON})


def _named(error: msgspec.ValidationError) -> InvalidInputError:
    """msgspec's "Expected `bool`, got `int` - at `$.field`" as a 422 naming the field."""
    message, _, path = str(error).partition(" - at `$.")
    return InvalidInputError(path.removesuffix("`") or "body", message)


MAX_VERSION = 2**31 - 1
"""The highest event version a request may name: the stores' integer columns hold it, and no
match or tournament comes near it."""


def version_query(name: str, description: str) -> Any:
    """A query parameter naming an event version, 1 to ``MAX_VERSION`` (else a 422)."""
    return QueryParameter(name=name, ge=1, le=MAX_VERSION, description=description)


UntilVersion = Annotated[
    int | None, version_query("until_version", "only the events up to this version")
]


class LegalPlay(msgspec.Struct, frozen=True):
    play: str
    position_id: str
    """The position after the play, with the opponent on roll (GNU Backgammon's convention)."""
    game_result: Literal["single", "gammon", "backgammon"] | None


def legal_play(play: Play, notation: str) -> LegalPlay:
    """A legal play as the API shows it: its gnubg notation and the Position ID after it."""
    return LegalPlay(
        play=notation,
        position_id=play.position_id,
        game_result=play.game_result.value if play.game_result else None,
    )


class DirectorActor(msgspec.Struct):
    """rule C-DIR-1: the named director who took an action."""

    director_id: UUID
    name: str


Actor = str | DirectorActor | None
"""Who caused an event: a named director as ``{"director_id", "name"}``; else ``"director"``
(the club's bootstrap token), ``"player:<id or name>"``, ``"public"`` or ``"scheduler"``."""


def actor_view(actor: str | None, director_names: Mapping[UUID, str]) -> Actor:
    """An event's actor as the API shows it (``director_names``: the named directors' names)."""
    director_id = named_director_id(actor)
    if director_id is None:
        return actor
    return DirectorActor(director_id, director_names.get(director_id, "unknown director"))


class StreamEvent(msgspec.Struct):
    version: int
    type: str
    timestamp: datetime
    actor: Actor
    data: dict[str, Any]
    """The event's own fields, without secrets (token hashes, sealed seeds)."""


def stream_events(
    events: Iterable[DomainEvent], director_names: Mapping[UUID, str] | None = None
) -> list[StreamEvent]:
    """Events as the API lists them: the envelope as fields, the rest as ``data``."""
    names = director_names or {}
    return [
        StreamEvent(
            version=event.originator_version,
            type=type(event).__name__,
            timestamp=event.timestamp,
            actor=actor_view(event.actor, names),
            data=_event_data(event),
        )
        for event in events
    ]


def _event_data(event: DomainEvent) -> dict[str, Any]:
    data: dict[str, Any] = msgspec.to_builtins(event)
    for key in _HIDDEN_FIELDS.intersection(data):
        del data[key]
    return data


_ENVELOPE = frozenset({"originator_id", "originator_version", "timestamp", "actor"})
_SECRET_FIELDS = frozenset({"sealed_seed", "token_hash", "token_hash_a", "token_hash_b"})
"""Fields of any aggregate's events that never leave the service: player token hashes
(registrations, matches) and sealed server dice seeds."""
_HIDDEN_FIELDS = _ENVELOPE | _SECRET_FIELDS
