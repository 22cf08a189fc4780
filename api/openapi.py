"""The served OpenAPI document: errors documented as the problem details the service sends."""

from __future__ import annotations

from litestar import Litestar
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIResponse, Reference, Schema
from litestar.openapi.spec.enums import OpenAPIType

from api.errors import PROBLEM_JSON

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
            operation.responses = responses
