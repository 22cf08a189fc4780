"""Every error leaves the service as an RFC 9457 problem detail, mapped here and only here."""

from __future__ import annotations

import logging
import re
from typing import Any

from litestar import Request, Response
from litestar.exceptions import (
    HTTPException,
    MethodNotAllowedException,
    NotAuthorizedException,
    NotFoundException,
    PermissionDeniedException,
    ValidationException,
)
from litestar.status_codes import (
    HTTP_400_BAD_REQUEST,
    HTTP_401_UNAUTHORIZED,
    HTTP_403_FORBIDDEN,
    HTTP_404_NOT_FOUND,
    HTTP_409_CONFLICT,
    HTTP_422_UNPROCESSABLE_ENTITY,
    HTTP_500_INTERNAL_SERVER_ERROR,
)

from api.http.head import with_head
from domain.backgammon import IllegalPlayError, InvalidDiceError, InvalidPositionError
from domain.backgammon.match_id import InvalidMatchIdError
from domain.backgammon.notation import NotationError
from domain.errors import (
    ConflictError,
    DomainError,
    ForbiddenError,
    InvalidInputError,
    NotFoundError,
    UnauthenticatedError,
)

PROBLEM_JSON = "application/problem+json"
_MISSING_FIELD = re.compile(r"(?:missing required|contains unknown) field `([^`]+)`")
_MISSING_PARAMETER = re.compile(r"Missing required \w+ parameter '([^']+)'")
TYPE_BASE = "https://bgtd.example/problems/"
log = logging.getLogger("bgtd.api")

_STATUS_OF_CATEGORY: list[tuple[type[DomainError], int]] = [
    (InvalidInputError, HTTP_422_UNPROCESSABLE_ENTITY),
    (NotFoundError, HTTP_404_NOT_FOUND),
    (ConflictError, HTTP_409_CONFLICT),
    (ForbiddenError, HTTP_403_FORBIDDEN),
    (UnauthenticatedError, HTTP_401_UNAUTHORIZED),
]
_TITLES = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    422: "Invalid input",
    429: "Too many requests",
    500: "Internal error",
    503: "Service unavailable",
}


def problem(status: int, slug: str, detail: str, **extensions: Any) -> Response[dict[str, Any]]:
    body = {
        "type": TYPE_BASE + slug,
        "title": _TITLES.get(status, "Error"),
        "status": status,
        "detail": detail,
        **extensions,
    }
    return Response(body, status_code=status, media_type=PROBLEM_JSON)


def status_of(error: DomainError) -> int:
    """The HTTP status of a refusal of the domain (the pages show it as the REST API does)."""
    return next(
        (code for category, code in _STATUS_OF_CATEGORY if isinstance(error, category)),
        HTTP_400_BAD_REQUEST,
    )


def domain_error(_: Request[Any, Any, Any], error: DomainError) -> Response[dict[str, Any]]:
    status = status_of(error)
    extensions = {key: _jsonable(value) for key, value in error.extensions.items()}
    if isinstance(error, InvalidInputError) and "errors" not in extensions:
        # an error may name several fields at once (every bad row of an import, R-RATE-8)
        extensions["errors"] = [{"field": error.field, "message": error.message}]
    return problem(status, error.type_slug, error.detail, **extensions)


def rules_error(_: Request[Any, Any, Any], error: ValueError) -> Response[dict[str, Any]]:
    """Errors of the rules core, raised on input a client sent: name the field they came from."""
    field = _FIELD_OF_RULES_ERROR.get(type(error), "body")
    status = (
        HTTP_409_CONFLICT if isinstance(error, IllegalPlayError) else HTTP_422_UNPROCESSABLE_ENTITY
    )
    slug = "illegal-play" if isinstance(error, IllegalPlayError) else "invalid-input"
    errors = [{"field": field, "message": str(error)}]
    return problem(status, slug, f"{field}: {error}", errors=errors)


_FIELD_OF_RULES_ERROR: dict[type[Exception], str] = {
    InvalidPositionError: "position_id",
    InvalidMatchIdError: "match_id",
    InvalidDiceError: "dice",
    NotationError: "play",
    IllegalPlayError: "play",
}


def validation_error(
    _: Request[Any, Any, Any], error: ValidationException
) -> Response[dict[str, Any]]:
    """Litestar's decoding errors (missing fields, wrong types) as 422 with the fields named."""
    errors = [_field_error(item) for item in error.extra or [] if isinstance(item, dict)]
    if not errors:
        parameter = _MISSING_PARAMETER.search(str(error.detail))
        field = parameter.group(1) if parameter else "body"
        errors.append({"field": field, "message": str(error.detail)})
    detail = "; ".join(f"{e['field']}: {e['message']}" for e in errors)
    return problem(HTTP_422_UNPROCESSABLE_ENTITY, "invalid-input", detail, errors=errors)


def _field_error(item: dict[str, Any]) -> dict[str, str]:
    """Name the field as the client wrote it: ``dice[0]``, ``periods[0].name``, ``body``."""
    key = str(item.get("key") or "data")
    message = str(item.get("message", "invalid"))
    # Litestar names the whole body after the handler's parameter, ``data``.
    path = "" if key == "data" else key.removeprefix("$.")
    if message == "'data'":  # no body at all
        message = "a JSON object is required"
    missing = _MISSING_FIELD.search(message)
    if missing:
        path = f"{path}.{missing.group(1)}" if path else missing.group(1)
    return {"field": path or "body", "message": message}


def http_error(_: Request[Any, Any, Any], error: HTTPException) -> Response[dict[str, Any]]:
    slugs = {
        NotAuthorizedException: "not-authenticated",
        PermissionDeniedException: "forbidden",
        NotFoundException: "not-found",
    }
    slug = getattr(error, "type_slug", None) or next(
        (s for cls, s in slugs.items() if isinstance(error, cls)), "http-error"
    )
    response = problem(error.status_code, slug, str(error.detail))
    if error.headers:
        response.headers.update(error.headers)
    if isinstance(error, MethodNotAllowedException):
        for name in [name for name in response.headers if name.lower() == "allow"]:
            response.headers[name] = with_head(response.headers[name])
    return response


def unexpected_error(request: Request[Any, Any, Any], error: Exception) -> Response[dict[str, Any]]:
    """Last resort: log the bug, tell the client nothing internal."""
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=error)
    return problem(
        HTTP_500_INTERNAL_SERVER_ERROR,
        "internal-error",
        "an internal error occurred; it was logged",
    )


def nesting_error(
    request: Request[Any, Any, Any], error: RecursionError
) -> Response[dict[str, Any]]:
    """A body nested deeper than the decoder's recursion limit is the client's error (400)."""
    if "deserializ" not in str(error):  # a bug of ours, not a body
        return unexpected_error(request, error)
    return problem(
        HTTP_400_BAD_REQUEST, "body-too-deep", "the JSON body is nested too deeply to be read"
    )


def _jsonable(value: object) -> object:
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    return str(value)


exception_handlers: dict[Any, Any] = {
    DomainError: domain_error,
    InvalidPositionError: rules_error,
    InvalidDiceError: rules_error,
    IllegalPlayError: rules_error,
    InvalidMatchIdError: rules_error,
    NotationError: rules_error,
    ValidationException: validation_error,
    HTTPException: http_error,
    RecursionError: nesting_error,
    Exception: unexpected_error,
}
