"""Reading a console form's fields: its texts, the ids the page put into it, and a reason.

Every page of the console (the desk, the round page, the season page) reads its forms the same
way; a field that is not what the form asks for comes back next to it with a 422.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from api.console.console import Console
from api.http.forms import FormError

MAX_REASON = 500
"""As over REST (``Reason``, ``BanCreate.reason``): a longer reason is refused."""


def text(data: dict[str, Any], key: str) -> str:
    """The text field ``key``; missing, or sent twice, it is empty."""
    value = data.get(key)
    return value if isinstance(value, str) else ""


def uuid_in(data: dict[str, Any], key: str) -> UUID | None:
    """The id in the field ``key``; missing or garbled, None."""
    try:
        return UUID(str(data.get(key)))
    except ValueError:
        return None


def reason_refused(
    console: Console, where: str, reason: str, *, required: bool = False
) -> FormError | None:
    """What to say next to the form ``where``'s reason, if it is missing (where one is
    required) or too long; None for a reason that may go to the use case."""
    if required and not reason.strip():
        return FormError(where, "reason", console.t["reason_missing"], 422)
    if len(reason) > MAX_REASON:
        return FormError(where, "reason", console.t["reason_too_long"], 422)
    return None
