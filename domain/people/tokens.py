"""Player tokens: the service draws them; events keep only their SHA-256, never the token."""

from __future__ import annotations

import hashlib
import hmac


def token_hash(token: str) -> str:
    """The hex SHA-256 of a token, as stored in events."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether ``token`` hashes to ``stored_hash``, in constant time."""
    return hmac.compare_digest(token_hash(token), stored_hash)
