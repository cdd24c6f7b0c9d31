"""What a tab's login, logout and reopening answer: records the screens and the command
line read (:meth:`~explorer.core.session.tab.Tab.log_in`, :meth:`~.Tab.log_out`,
:meth:`~.Tab.login_offer`, :meth:`~.Tab.reopen`).

Apart from :mod:`~explorer.core.session.tab` for the TUI's start, which does none of
them: it need not build their classes (a frozen dataclass's methods are compiled as
its module is imported, some 3.5 M instructions each).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from explorer.core.http.request import Auth
    from explorer.core.session.credentials import LoginKind
    from explorer.core.session.next_step import Next
    from explorer.core.session.trail import Page

__all__ = ["LoggedIn", "LoggedOut", "LoginOffer", "Reopened"]


@dataclass(frozen=True)
class LoggedIn:
    """A login done: the credential in use now, and what is sent or composed after it."""

    auth: Auth | None
    next: Next | None


@dataclass(frozen=True)
class LoggedOut:
    """A logout: whether a credential was given for the origin, what was forgotten (in
    words), and how many cookies went."""

    origin: str
    had: bool
    forgotten: str
    cookies: int


@dataclass(frozen=True)
class LoginOffer:
    """What the login dialog opens with for a server: the login preselected, the one to
    preselect once a login URL is found (the tokenUrl, while the dialog is open), where a
    password is known to get a token (None: only a guess), the scheme a token goes
    under, and whether the server logs in by OAuth 2.0 too."""

    kind: LoginKind
    kind_with_login: LoginKind
    login_url: str | None
    scheme: str
    oauth: bool


@dataclass(frozen=True)
class Reopened:
    """A history entry as a page of the walk, and what to say of it."""

    page: Page
    notes: tuple[str, ...]
