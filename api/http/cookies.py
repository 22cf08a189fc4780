"""The cookies of the pages' sessions, the director's and the player's (API.md "Sessions"):
HttpOnly, SameSite=Strict, and Secure when the service is reached over https."""

from __future__ import annotations

from litestar.datastructures import Cookie


def session_cookie(public_url: str, *, key: str, value: str, path: str, max_age: int) -> Cookie:
    """``max_age`` 0 tells the browser to forget the cookie (a sign-out)."""
    return Cookie(
        key=key,
        value=value,
        path=path,
        max_age=max_age,
        httponly=True,
        samesite="strict",
        secure=public_url.startswith("https://"),
    )
