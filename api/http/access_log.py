"""The access log (``--access-log``) without tokens: the personal link and the mails'
confirmation and cancellation links carry one in their query, and whoever reads a line with it
could sign in as that player or cancel their registration (API.md "Sessions")."""

from __future__ import annotations

import logging
from urllib.parse import unquote_plus

ACCESS_LOGGER = "uvicorn.access"
REDACTED = "[redacted]"


def redacted_path(path: str) -> str:
    """``path`` with the value of every query parameter whose name ends in ``token`` (read as
    the service reads it: percent escapes decoded, any case) replaced by ``[redacted]``."""
    where, mark, query = path.partition("?")
    if not mark:
        return path
    pairs = []
    for pair in query.split("&"):
        name, equals, _ = pair.partition("=")
        if equals and unquote_plus(name).lower().endswith("token"):
            pair = f"{name}={REDACTED}"
        pairs.append(pair)
    return f"{where}?{'&'.join(pairs)}"


class TokensRedacted(logging.Filter):
    """Rewrites uvicorn's access line (``'%s - "%s %s HTTP/%s" %d'``: client, method, path with
    its query, version, status) so that its path names no token."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], redacted_path(args[2]), *args[3:])
        return True


def redact_tokens_in_access_log() -> None:
    """Install the filter on uvicorn's access logger (once; after uvicorn set its logging up,
    which keeps a logger's filters)."""
    access = logging.getLogger(ACCESS_LOGGER)
    if not any(isinstance(existing, TokensRedacted) for existing in access.filters):
        access.addFilter(TokensRedacted())
