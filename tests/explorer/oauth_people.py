"""The person in an OAuth 2.0 login, for tests: a presenter that records what a grant
shows, and a browser that logs in on a server's HTML forms and approves.

:class:`Person` is a :class:`~explorer.core.oauth.flows.Presenter`: it keeps the
authorization step and the device code shown, and gives what the test pastes.
:class:`FormBrowser` submits a page's form as a browser does (its hidden fields, the
inputs filled in, the button pressed), keeping cookies and following redirects
until it reaches one it is told to stop at: it drives the mock's consent page and
oidc-provider's login and consent pages alike.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import urljoin

import httpx

from explorer.core.oauth.flows import AuthorizationStep, DeviceCode
from tests.mock_server.oauth_browser import Page, read_page

__all__ = ["FormBrowser", "Person"]


class Person:
    """A presenter for tests: what was shown, and lines to paste (see the module docstring)."""

    def __init__(self) -> None:
        self.steps: list[AuthorizationStep] = []
        self.codes: list[DeviceCode] = []
        self.shown = asyncio.Event()
        self.pastes: asyncio.Queue[str] = asyncio.Queue()
        self.problems: list[str] = []

    def show_authorization(self, step: AuthorizationStep) -> None:
        self.steps.append(step)
        self.shown.set()

    def show_device_code(self, code: DeviceCode) -> None:
        self.codes.append(code)
        self.shown.set()

    async def read_pasted(self, problem: str = "") -> str:
        if problem:
            self.problems.append(problem)
        return await self.pastes.get()


class FormBrowser:
    """A browser of HTML forms over ``transport`` (None: the network), with cookies."""

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.client = httpx.AsyncClient(transport=transport, timeout=10, follow_redirects=False)

    async def __aenter__(self) -> FormBrowser:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.client.aclose()

    async def visit(
        self,
        url: str,
        *,
        filled: dict[str, str],
        button: Callable[[Page], tuple[str, str] | None] = lambda _page: None,
        stop: Callable[[str], bool] = lambda _url: False,
        pages: int = 12,
    ) -> str:
        """Open ``url`` and submit each page's first form (``filled`` typed into the inputs
        it has, ``button`` pressed) until a page has no form or a redirect goes where
        ``stop`` says; returns that URL (the redirect's target, or the last page's)."""
        response = await self.client.get(url)
        for _ in range(pages):
            while response.is_redirect:
                target = urljoin(str(response.url), response.headers["location"])
                if stop(target):
                    return target
                response = await self.client.get(target)
            page = read_page(response)
            if not page.forms:
                return str(response.url)
            form = page.forms[0]
            values = {**form.fields, **{k: v for k, v in filled.items() if k in form.fields}}
            pressed = button(page)
            if pressed is not None:
                values[pressed[0]] = pressed[1]
            action = urljoin(str(response.url), form.action or str(response.url))
            if form.method == "get":
                response = await self.client.get(action, params=values)
            else:
                response = await self.client.post(action, data=values)
        raise AssertionError(f"still at a form after {pages} pages: {response.url}")
