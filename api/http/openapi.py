"""The served OpenAPI document: errors documented as the problem details the service sends,
bearer security where a token is required, request bodies as strict as their Structs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec
from litestar import Litestar
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.spec import (
    OpenAPIHeader,
    OpenAPIMediaType,
    OpenAPIResponse,
    Operation,
    Reference,
    Schema,
)
from litestar.openapi.spec.enums import OpenAPIType
from litestar.routes import HTTPRoute

from api.http.auth import DIRECTOR_GUARDS, TokenRequired
from api.http.errors import PROBLEM_JSON

_PROBLEM = Schema(
    type=OpenAPIType.OBJECT,
    required=["type", "title", "status", "detail"],
    properties={
        "type": Schema(type=OpenAPIType.STRING, description="stable URI of the kind of problem"),
        "title": Schema(type=OpenAPIType.STRING),
        "status": Schema(type=OpenAPIType.INTEGER),
        "detail": Schema(type=OpenAPIType.STRING, description="what went wrong, for people"),
        "errors": Schema(
            type=OpenAPIType.ARRAY,
            description="with 422: every offending field",
            items=Schema(
                type=OpenAPIType.OBJECT,
                required=["field", "message"],
                properties={
                    "field": Schema(type=OpenAPIType.STRING),
                    "message": Schema(type=OpenAPIType.STRING),
                },
            ),
        ),
    },
    description="RFC 9457 problem details; some problems add fields (e.g. cancellation_until)",
)
_RETRY_AFTER = {"429", "503"}
_RETRY_AFTER_HEADER = OpenAPIHeader(
    schema=Schema(type=OpenAPIType.INTEGER, minimum=0), description="seconds to wait"
)
_RESPONSES = {
    "422": "invalid input: the fields are named in `errors`",
    "4XX": "401 no or bad token, 403 wrong role or not your turn, 404 unknown id, "
    "409 conflict (stale version, deadline passed, illegal in this state)",
}


def document_problems(app: Litestar) -> None:
    """Replace Litestar's generic error responses by the problem details actually sent."""
    document = app.openapi_schema
    components = document.components
    schemas = components.schemas if components.schemas is not None else {}
    schemas["Problem"] = _PROBLEM
    components.schemas = schemas
    problem = {PROBLEM_JSON: OpenAPIMediaType(schema=Reference(ref="#/components/schemas/Problem"))}
    for path_item in (document.paths or {}).values():
        for operation in (path_item.get, path_item.post, path_item.put, path_item.delete):
            if operation is None:
                continue
            responses = operation.responses if operation.responses is not None else {}
            responses.pop("400", None)  # Litestar's own validation shape: never sent here
            for status, description in _RESPONSES.items():
                responses[status] = OpenAPIResponse(description=description, content=problem)
            for status, response in responses.items():
                # a refusal a handler declares (a ResponseSpec without a body type) is a
                # problem too; a declared 429 or 503 says when to try again
                refusal = status.startswith(("4", "5"))
                if refusal and isinstance(response, OpenAPIResponse) and response.content is None:
                    response.content = problem
                    if status in _RETRY_AFTER:
                        response.headers = {"Retry-After": _RETRY_AFTER_HEADER}
            operation.responses = responses


def document_security(app: Litestar) -> None:
    """Declare the bearer token on exactly the operations whose guards require one."""
    for handler, operation in _operations(app):
        # Litestar wraps resolved guards (AsyncCallable): compare what they wrap
        guards = [getattr(guard, "func", guard) for guard in handler.resolve_guards()]
        needs_token = any(g in DIRECTOR_GUARDS or isinstance(g, TokenRequired) for g in guards)
        operation.security = [{"bearer": []}] if needs_token else None


def document_request_bodies(app: Litestar) -> None:
    """Add what Litestar leaves out of request body schemas: ``additionalProperties: false`` for
    Structs that forbid unknown fields, and the bounds of integer list items (the dice)."""
    schemas = app.openapi_schema.components.schemas or {}
    by_title = {schema.title: schema for schema in schemas.values() if isinstance(schema, Schema)}
    seen: set[type] = set()
    for handler, _ in _operations(app):
        data = handler.parsed_fn_signature.parameters.get("data")
        if data is None:
            continue
        for struct in _structs(msgspec.inspect.type_info(data.annotation), seen):
            schema = schemas.get(struct.cls.__name__) or by_title.get(struct.cls.__name__)
            if not isinstance(schema, Schema):
                continue
            if struct.forbid_unknown_fields:
                schema.additional_properties = False
            for field in struct.fields:
                prop = (schema.properties or {}).get(field.encode_name)
                _bound_list_items(field.type, prop)


def _operations(app: Litestar) -> Iterator[tuple[HTTPRouteHandler, Operation]]:
    paths = app.openapi_schema.paths or {}
    for route in app.routes:
        if not isinstance(route, HTTPRoute) or route.path_format not in paths:
            continue
        path_item = paths[route.path_format]
        for handler in route.route_handlers:
            for method in handler.http_methods:
                operation = getattr(path_item, method.lower(), None)
                if isinstance(operation, Operation):
                    yield handler, operation


def _structs(info: msgspec.inspect.Type, seen: set[type]) -> Iterator[msgspec.inspect.StructType]:
    if isinstance(info, msgspec.inspect.StructType):
        if info.cls in seen:
            return
        seen.add(info.cls)
        yield info
        for field in info.fields:
            yield from _structs(field.type, seen)
    elif isinstance(info, msgspec.inspect.UnionType):
        for member in info.types:
            yield from _structs(member, seen)
    elif isinstance(info, msgspec.inspect.ListType | msgspec.inspect.SetType):
        yield from _structs(info.item_type, seen)
    elif isinstance(info, msgspec.inspect.DictType):
        yield from _structs(info.value_type, seen)


def _bound_list_items(info: msgspec.inspect.Type, prop: Any) -> None:
    """``list[Die]``: Litestar drops the items' bounds (``Die`` is 1..6); put them back."""
    if isinstance(info, msgspec.inspect.UnionType):
        for member in info.types:
            _bound_list_items(member, prop)
        return
    if not (isinstance(info, msgspec.inspect.ListType) and isinstance(prop, Schema)):
        return
    item = info.item_type
    if not isinstance(item, msgspec.inspect.IntType):
        return
    for schema in [prop, *(prop.one_of or []), *(prop.any_of or [])]:
        if isinstance(schema, Schema) and isinstance(schema.items, Schema):
            schema.items.minimum = item.ge if item.ge is not None else schema.items.minimum
            schema.items.maximum = item.le if item.le is not None else schema.items.maximum
