"""The application factory: resources inside the stack of layers.

``create_app(settings)`` is the one way to build the mock server; the command
line, the in-process server and the tests all call it. It composes what the parts
do not import of one another: the routes, built once (the router serves them, the
method policy layer answers ``Allow`` from them), the guest the settings ask for
(:func:`open_guest`), and the describer that names the entities' events.
"""

from __future__ import annotations

from http import HTTPStatus

from starlette.exceptions import HTTPException
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Match, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from mock_server.events.describer import EntityDescriber
from mock_server.guest import GuestApi, Guests
from mock_server.http.problems import Problem
from mock_server.http.versions import requested_path
from mock_server.layers import wrap
from mock_server.representations.urls import selection
from mock_server.resources import ENTITIES, build_routes
from mock_server.resources.reset import RESET_PATH
from mock_server.service import Service
from mock_server.settings import Settings
from mock_server.store import Store
from mock_server.store.persistence import open_persistence
from mock_server.userdata import data_entities, open_data_store


async def _problem_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return exc.response(request.scope)


def _without_trailing_slash(request: Request) -> str | None:
    """Where ``/customers/`` really is (``/v2/customers?limit=5`` keeps version and query).

    Starlette's own slash redirect is off: it builds the target from the path
    the version layer stripped, so ``/v2/customers/`` went to v1's ``/customers``.
    """
    path = request.url.path
    router = request.scope.get("router")
    if not path.endswith("/") or path == "/" or not isinstance(router, Router):
        return None
    stripped = path.rstrip("/") or "/"
    twin = {**request.scope, "path": stripped}
    if not any(route.matches(twin)[0] is not Match.NONE for route in router.routes):
        return None
    query = request.url.query
    return selection(request).prefix() + stripped + (f"?{query}" if query else "")


async def _http_exception_handler(request: Request, exc: Exception) -> Response:
    # The router's own 404 and 405 become problem bodies like every other error.
    assert isinstance(exc, HTTPException)
    path = requested_path(request.scope)
    if exc.status_code == HTTPStatus.NOT_FOUND:
        guest = request.app.service.guest if isinstance(request.app, MockApp) else None
        explained = guest.not_found(request) if guest is not None else None
        if explained is not None:
            return explained.response(request.scope)
        target = _without_trailing_slash(request)
        if target is not None:
            # Permanent and method-keeping: a POST to /customers/ is a POST to /customers.
            return RedirectResponse(target, status_code=HTTPStatus.PERMANENT_REDIRECT)
        detail = f"Nothing is served at {path}."
        if path == RESET_PATH:  # (a test's set-up that forgot the option)
            detail = f"Nothing is served at {path}: restwalk-mock serves it with --allow-reset."
    elif exc.status_code == HTTPStatus.METHOD_NOT_ALLOWED:
        allow = (exc.headers or {}).get("Allow", "")
        detail = f"{request.method} is not allowed on {path}; allowed: {allow}."
    else:
        detail = exc.detail
    return Problem(exc.status_code, detail, headers=exc.headers).response(request.scope)


class MockApp:
    """The mock server as one ASGI application; ``service`` is its shared state."""

    def __init__(self, service: Service) -> None:
        self.service = service
        service.routes = build_routes(service)
        router = Router(routes=service.routes, redirect_slashes=False)
        inner = ExceptionMiddleware(
            router,
            handlers={Problem: _problem_handler, HTTPException: _http_exception_handler},
        )
        self._app: ASGIApp = wrap(inner, service)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        scope["app"] = self
        await self._app(scope, receive, send)


def open_guest(settings: Settings, service: Service) -> GuestApi:
    """The guest ``settings`` ask for: a tape, a document, or a tape before a document.

    Imported here, when asked for, so that the teaching API's start loads neither
    jsonschema-rs nor the HAR reader. Raises the feature's one-line error when a file
    is bad (:class:`~mock_server.contract.DocumentError`, :class:`~mock_server.tape.TapeError`).
    """
    from mock_server.contract import open_contract
    from mock_server.tape import open_tape

    contract = open_contract(settings, service.auth, service.clock) if settings.openapi else None
    tape = open_tape(settings, fallback=contract)
    guests = [guest for guest in (tape, contract) if guest is not None]
    return guests[0] if len(guests) == 1 else Guests(*guests)


def create_app(settings: Settings | None = None) -> MockApp:
    """A mock server application for ``settings`` (the defaults when None)."""
    settings = settings or Settings()
    persistence = open_persistence(settings.db, settings.store_url)
    store: Store
    if settings.data is None:
        store = Store(settings.seed_size, persistence=persistence)
    else:
        store = open_data_store(settings, persistence)
    service = Service(settings, store)
    if not settings.teaching_api:
        service.guest = open_guest(settings, service)
    service.events.describer = EntityDescriber([*ENTITIES, *data_entities(store)])
    return MockApp(service)
