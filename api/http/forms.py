"""The HTML forms of the pages for people (the director's console, the table page): their
body, their CSRF field, and a refusal shown next to the form it answers (API.md "Pages for
people")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any
from uuid import UUID

from litestar import Request
from litestar.enums import RequestEncodingType
from litestar.params import Body

from api.http.errors import status_of
from domain.errors import DomainError, InvalidInputError

FormData = Annotated[dict[str, Any], Body(media_type=RequestEncodingType.URL_ENCODED)]
CSRF_FIELD = "_csrf_token"
"""Every form carries it; a POST without it, or with another, is a 403 and changes nothing."""


class FormRefusedError(Exception):
    """A form without its CSRF token, with a wrong one, or (at the table) without a session:
    403, nothing changed. Each slice's controllers answer it with their own refusal page."""


@dataclass(frozen=True, slots=True)
class FormError:
    """A refused action, shown next to its form (``where``) and field."""

    where: str
    field: str
    message: str
    status: int
    kind: str = ""
    """The use case's problem type: a German page shows the common ones in German."""


def form_error(where: str, refused: DomainError) -> FormError:
    """The use case's refusal, in its words, next to the field it names."""
    if isinstance(refused, InvalidInputError):
        # the kind lets a German page say a common message in German (api.console.refusals)
        return FormError(
            where, refused.field, refused.message, status_of(refused), refused.type_slug
        )
    return FormError(where, "", refused.detail, status_of(refused), refused.type_slug)


def whole_number(text: object, most: int) -> int | None:
    """The field's whole number from 0 to ``most`` (spaces around it allowed); None for any
    other text. "²" is a digit to Python yet no number, and a text of thousands of digits is
    more than ``int`` reads (a ``ValueError``): both are no number a form sends."""
    digits = str(text or "").strip()
    if not digits.isdecimal() or len(digits.lstrip("0")) > len(str(most)):
        return None
    number = int(digits.lstrip("0") or "0")
    return number if number <= most else None


def form_text(data: dict[str, Any], name: str) -> str:
    """A text input without the spaces around it; "" when the form has none."""
    return str(data.get(name) or "").strip()


def form_id(data: dict[str, Any], name: str) -> UUID | None:
    """An id input (most often a hidden one), or None when it is missing or mangled."""
    try:
        return UUID(form_text(data, name))
    except ValueError:
        return None


def sign_in_nonce(
    request: Request[Any, Any, Any],
    cookie: str,
    data: dict[str, Any],
    is_csrf_token: Callable[[str | None, object], bool],
) -> str:
    """The nonce of a sign-in form, from its own cookie (there is no session yet), when the
    form carries the CSRF token derived from it; else ``FormRefusedError``."""
    nonce = request.cookies.get(cookie)
    if not nonce or not is_csrf_token(f"sign-in:{nonce}", data.get(CSRF_FIELD)):
        raise FormRefusedError
    return nonce
