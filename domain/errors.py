"""Error categories of the domain; each aggregate module derives its own ``*Error`` classes.

The API maps these categories to HTTP status codes in one place (``api/http/errors.py``).
"""

from __future__ import annotations


class DomainError(Exception):
    """A command the domain refuses; ``detail`` says why, in words a user understands."""

    type_slug = "domain-error"

    def __init__(self, detail: str, **extensions: object) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extensions = extensions


class InvalidInputError(DomainError):
    """Input that can never be valid, whatever the state: names the offending field."""

    type_slug = "invalid-input"

    def __init__(self, field: str, message: str, **extensions: object) -> None:
        super().__init__(f"{field}: {message}", **extensions)
        self.field = field
        self.message = message


class NotFoundError(DomainError):
    """An id that names nothing."""

    type_slug = "not-found"


class ConflictError(DomainError):
    """A command that the current state does not allow (deadline passed, wrong phase...)."""

    type_slug = "conflict"


class ForbiddenError(DomainError):
    """A caller whose role or side may not do this."""

    type_slug = "forbidden"


class UnauthenticatedError(DomainError):
    """No token, or a token that is valid for nothing here (401)."""

    type_slug = "not-authenticated"
