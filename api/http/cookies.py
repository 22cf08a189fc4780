"""The cookies of the pages' sessions, the director's and the player's (API.md "Sessions"):
HttpOnly, SameSite=Strict, and Secure when the service is reached over https."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, TypeVar

from litestar import Request, Response
from litestar.datastructures import Cookie

SIGN_IN_FORM_LIFETIME = timedelta(hours=1)
"""How long a sign-in form's nonce lasts: time enough to fill the form in."""
FORGOTTEN = timedelta(0)
"""A cookie's lifetime that tells the browser to forget it (a sign-out)."""

Page = TypeVar("Page", bound=Response[Any])


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


@dataclass(frozen=True, slots=True)
class SignInCookies:
    """The two cookies of a family of pages with a sign-in: its session's, and its sign-in
    form's nonce (the form's CSRF token derives from it: there is no session yet). The
    director's console and the players' pages differ only in these names, paths and lifetime;
    ``public_url`` says whether they are Secure."""

    session: str
    session_path: str
    session_lifetime: timedelta
    sign_in: str
    sign_in_path: str

    def form_nonce(self, request: Request[Any, Any, Any]) -> str:
        """The sign-in form's nonce: the one its cookie still holds, else a new one."""
        return request.cookies.get(self.sign_in) or secrets.token_urlsafe(16)

    def with_form_nonce(self, page: Page, public_url: str, nonce: str) -> Page:
        """The sign-in form, with the cookie of its nonce (set again: it lasts from now)."""
        page.cookies.append(self._nonce(public_url, nonce, SIGN_IN_FORM_LIFETIME))
        return page

    def signed_in(self, redirect: Page, public_url: str, session: str) -> Page:
        """A sign-in's answer: the session's cookie set, the form's nonce forgotten (it has
        served)."""
        redirect.cookies.append(self._session(public_url, session, self.session_lifetime))
        redirect.cookies.append(self._nonce(public_url, "", FORGOTTEN))
        return redirect

    def signed_out(
        self,
        redirect: Page,
        public_url: str,
        request: Request[Any, Any, Any],
        end: Callable[[str | None], object],
    ) -> Page:
        """A sign-out's answer: the session ``end``s on the server too (a copy of its cookie
        taken before stops working) and the browser forgets its cookie."""
        end(request.cookies.get(self.session))
        redirect.cookies.append(self._session(public_url, "", FORGOTTEN))
        return redirect

    def _session(self, public_url: str, value: str, lifetime: timedelta) -> Cookie:
        return _cookie(public_url, self.session, value, self.session_path, lifetime)

    def _nonce(self, public_url: str, value: str, lifetime: timedelta) -> Cookie:
        return _cookie(public_url, self.sign_in, value, self.sign_in_path, lifetime)


def _cookie(public_url: str, key: str, value: str, path: str, lifetime: timedelta) -> Cookie:
    max_age = int(lifetime.total_seconds())
    return session_cookie(public_url, key=key, value=value, path=path, max_age=max_age)
