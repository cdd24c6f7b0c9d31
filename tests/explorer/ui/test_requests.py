"""Composing, logging in, actions, versions, and the statuses they meet."""

from __future__ import annotations

import json
from collections.abc import Callable
from http import HTTPStatus

import httpx
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, Static, TextArea

from explorer.core.http.client import Client
from explorer.core.http.errors import LoginFailed
from explorer.core.http.request import BearerAuth, CookieSession, LoginFlow, RequestSpec
from explorer.core.http.wire import request_text
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.login import LoginDialog
from explorer.ui.widgets.links_panel import LinksPanel
from mock_server import Settings
from mock_server.settings import RateLimit
from tests.explorer.password_api import DESCRIPTION, TOKEN, token_answer
from tests.explorer.ui.conftest import SIZE, AppFactory, on_screen, settle, until
from tests.explorer.ui.test_browse import follow, status_text, type_number


class DialogApp(App[None]):
    """An app that only opens ``dialog``."""

    def __init__(self, dialog: LoginDialog) -> None:
        super().__init__()
        self._dialog = dialog

    def on_mount(self) -> None:
        self.push_screen(self._dialog)


def current(app: RestwalkApp):  # type: ignore[no-untyped-def]
    page = app.browser.session.shown
    assert page is not None
    return page


async def log_in(pilot: Pilot[int], user: str, password: str) -> None:
    """Log in as a person does: a, the user name, Tab, the password, Enter."""
    await pilot.press("a")
    await pilot.pause()
    await pilot.press(*user, "tab", *password, "enter")
    await settle(pilot)


async def test_login_then_create_customer_through_action(make_app: AppFactory) -> None:
    app = make_app("http://mock/customers")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "create")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert composer.query_one("#method", Input).value == "POST"
        assert "name*" in str(composer.query_one("#fields-note").render())
        body = {"name": "Hedy Lamarr", "address": "1 Film Row, Vienna, VA 22180"}
        composer.query_one("#body", TextArea).text = json.dumps(body)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert current(app).status == HTTPStatus.UNAUTHORIZED
        assert "Press a to log in" in status_text(app)

        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, LoginDialog)
        await pilot.press(*"alice", "tab", *"wonderland", "enter")
        await settle(pilot)
        # A POST is never sent again behind the person's back: the composer asks.
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert composer.note.startswith("Logged in. Send this POST again?")
        assert current(app).status == HTTPStatus.UNAUTHORIZED  # nothing was sent yet
        await pilot.press("ctrl+s")
        await settle(pilot)
        page = current(app)
        assert page.status == HTTPStatus.CREATED, page.exchange.response.body
        assert isinstance(page.spec.auth, LoginFlow)
        assert page.exchange.response.header("location")
        assert "201 Created" in status_text(app)
        assert "alice" in str(app.browser.query_one("#auth-badge").render())


async def test_walk_to_an_order_and_place_it(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "rw:orders")
        await settle(pilot)
        assert current(app).status == HTTPStatus.UNAUTHORIZED
        await log_in(pilot, "alice", "wonderland")
        assert current(app).status == HTTPStatus.OK
        links = app.browser.query_one("#links").links  # type: ignore[attr-defined]
        draft = next(
            i for i, link in enumerate(links, start=1) if link.href == "http://mock/orders/1"
        )
        await type_number(pilot, draft)
        await settle(pilot)
        assert current(app).spec.url == "http://mock/orders/1"
        await follow(pilot, "place")
        await pilot.pause()
        assert isinstance(app.screen, ComposerScreen)
        await pilot.press("ctrl+s")
        await settle(pilot)
        page = current(app)
        assert page.spec.method == "POST"
        assert page.status is not None
        assert page.status < HTTPStatus.BAD_REQUEST, page.exchange.response.body
        assert b"placed" in page.exchange.response.body


async def test_version_two_shows_structured_address(make_app: AppFactory) -> None:
    app = make_app("http://mock/customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert b"streetAddress" not in current(app).exchange.response.body
        await pilot.press("c")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#version", Input).value = "2"
        composer.query_one("#version-style", Select).value = "header"
        await pilot.pause()
        assert "Custom-Header: api-version=2" in str(composer.query_one("#preview").render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        page = current(app)
        assert page.status == HTTPStatus.OK
        address = json.loads(page.exchange.response.body)["address"]
        assert address["city"] == "London"
        assert page.exchange.response.header("api-version") == "2"


async def test_method_not_allowed_is_explained_and_compose_offers_allowed(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")  # compose a request to the page we are on: the root
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#method", Input).value = "DELETE"
        await pilot.press("ctrl+s")
        await settle(pilot)
        page = current(app)
        assert page.status == HTTPStatus.METHOD_NOT_ALLOWED
        assert page.exchange.response.header("allow") == "GET, HEAD, OPTIONS, TRACE"
        text = status_text(app)
        assert "405 Method Not Allowed" in text
        assert "Press c to compose" in text
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ComposerScreen)
        assert app.screen.query_one("#method", Input).value == "GET"


async def test_rate_limit_429_is_explained(make_app: AppFactory) -> None:
    app = make_app(settings=Settings(rate_limit=RateLimit(2, 60)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for _ in range(2):
            await pilot.press("r")
            await settle(pilot)
        page = current(app)
        assert page.status == HTTPStatus.TOO_MANY_REQUESTS
        assert page.exchange.response.header("retry-after")
        text = status_text(app)
        assert "429 Too Many Requests" in text
        assert "Retry-After" in text
        assert len(app.browser.trail.pages) == 1  # reload replaces the page


async def test_composer_custom_method_and_headers_preview(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#method", Input).value = "BREW"
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press(*"if-none")
        await pilot.pause()
        note = str(composer.query_one("#header-note").render())
        assert "If-None-Match" in note
        await pilot.press("right", "tab", *'"abc"')
        await pilot.pause()
        preview = str(composer.query_one("#preview").render())
        assert preview.startswith("BREW / HTTP/1.1")
        assert 'If-None-Match: "abc"' in preview
        assert "custom method" in str(composer.query_one("#method-note").render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert current(app).status == HTTPStatus.NOT_IMPLEMENTED


async def test_cookie_session_login_keeps_the_user_in(make_app: AppFactory) -> None:
    app = make_app("http://mock/orders")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert current(app).status == HTTPStatus.UNAUTHORIZED
        await pilot.press("a")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        dialog.query_one("#kind", Select).value = "session"
        await pilot.pause()
        assert dialog.query_one("#login-url", Input).value == "http://mock/auth/session"
        dialog.query_one("#user", Input).focus()
        await pilot.press(*"bob", "tab", *"builder", "enter")
        await settle(pilot)
        # The session opened, the badge says so, and the page was sent again with it.
        assert "cookies" in str(app.browser.query_one("#auth-badge").render())
        page = current(app)
        assert page.spec.method == "GET"
        assert page.status == HTTPStatus.OK
        assert page.spec.auth == CookieSession(())  # no cookie of its own: the jar's went
        assert "session=" in request_text(page.exchange.final)


async def test_version_key_switches_every_following_request(make_app: AppFactory) -> None:
    app = make_app("http://mock/customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("2", "enter")
        await settle(pilot)
        page = current(app)
        assert page.spec.api_version == 2
        assert page.spec.version_style == "header"
        assert json.loads(page.exchange.response.body)["address"]["zipCode"] == "SW1Y 4JH"
        assert "v2 (header)" in str(app.browser.query_one("#auth-badge").render())
        assert len(app.browser.trail.pages) == 1  # the page was asked again, not added
        await follow(pilot, "collection")
        await settle(pilot)
        assert current(app).exchange.response.header("api-version") == "2"


async def test_a_v2_action_composes_the_version_and_a_nested_address(
    make_app: AppFactory,
) -> None:
    app = make_app("http://mock/customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("2", "enter")
        await settle(pilot)
        await log_in(pilot, "alice", "wonderland")
        await follow(pilot, "update")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        preview = str(composer.query_one("#preview").render())
        assert "Custom-Header: api-version=2" in preview  # shown as it will be sent
        body = json.loads(composer.query_one("#body", TextArea).text)
        assert set(body["address"]) == {"streetAddress", "city", "state", "zipCode"}
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert current(app).status == HTTPStatus.OK, status_text(app)


async def test_composer_basic_credential_reaches_orders(make_app: AppFactory) -> None:
    app = make_app("http://mock/orders")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#auth", Select).value = "basic"
        await pilot.pause()
        assert composer.query_one("#user", Input).display
        assert not composer.query_one("#token", Input).display
        composer.query_one("#user", Input).value = "alice"
        composer.query_one("#password", Input).value = "wonderland"
        await pilot.pause()
        preview = str(composer.query_one("#preview").render())
        assert "Authorization: Basic ****" in preview
        assert "wonderland" not in preview
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert current(app).status == HTTPStatus.OK


async def test_composer_token_goes_under_the_scheme_typed(make_app: AppFactory) -> None:
    app = make_app("http://mock/orders")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await until(pilot, on_screen(app, ComposerScreen), "the composer")
        composer = app.screen
        composer.query_one("#auth", Select).value = "bearer"
        await pilot.pause()
        scheme = composer.query_one("#token-scheme", Input)
        assert scheme.display
        assert scheme.value == "Bearer"
        composer.query_one("#token", Input).value = "k3y"
        scheme.value = "Token"  # Django REST Framework's
        await pilot.pause()
        preview = str(composer.query_one("#preview").render())
        assert "Authorization: Token ****" in preview
        assert "k3y" not in preview
        assert composer.current_spec().auth == BearerAuth("k3y", "Token")
        scheme.value = "To ken"
        await pilot.pause()
        assert "is not one word" in str(composer.query_one("#preview").render())


async def test_a_failed_login_drops_the_credential(make_app: AppFactory) -> None:
    app = make_app("http://mock/products")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await log_in(pilot, "bob", "wrong")
        # The login itself failed: nothing is set, and the page is not sent again.
        assert app.browser.session.credential("http://mock/") is None
        assert any("Login failed" in (n.title or "") for n in app._notifications)
        assert "bob" not in str(app.browser.query_one("#auth-badge").render())
        await pilot.press("r")  # the public page loads again, without it
        await settle(pilot)
        assert current(app).status == HTTPStatus.OK


async def test_reload_asks_before_sending_an_unsafe_method_again(make_app: AppFactory) -> None:
    app = make_app("http://mock/status")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.send(RequestSpec(method="POST", url="http://mock/status/201"))
        await settle(pilot)
        assert current(app).spec.method == "POST"
        pages = len(app.browser.trail.pages)
        await pilot.press("r")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert "Send this POST again?" in composer.note
        await pilot.press("escape")
        await settle(pilot)
        assert len(app.browser.trail.pages) == pages  # nothing was sent
        app.browser.open_url("http://mock/status")
        await settle(pilot)
        await pilot.press("r")  # a GET is sent again at once
        await settle(pilot)
        assert app.screen is app.browser


async def test_the_login_url_is_the_tokenurl_of_the_api_s_description() -> None:
    """On a FastAPI app (OAuth2PasswordBearer(tokenUrl="token"), nothing linking its
    /openapi.json), a fills the login URL with /token, and the login goes through."""

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/openapi.json":
            return httpx.Response(200, json=DESCRIPTION)
        if request.url.path == "/token":
            return token_answer(request)
        if request.headers.get("authorization") == f"Bearer {TOKEN}":
            return httpx.Response(200, json={"username": "alice"})
        return httpx.Response(
            401, json={"detail": "Not authenticated"}, headers={"WWW-Authenticate": "Bearer"}
        )

    app = create_app("http://shop/users/me", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert current(app).status == HTTPStatus.UNAUTHORIZED
        await pilot.press("a")
        await until(pilot, on_screen(app, LoginDialog), "the login dialog")
        dialog = app.screen
        field = dialog.query_one("#login-url", Input)
        await until(pilot, lambda: field.value == "http://shop/token", "the tokenUrl suggested")
        await pilot.press(*"alice", "tab", *"wonderland", "enter")
        await settle(pilot)
        assert current(app).status == HTTPStatus.OK


async def test_a_bearer_401_without_a_known_login_url_preselects_a_token_to_paste() -> None:
    """No description names a tokenUrl: a preselects the token to paste (Authorization:
    Bearer); a login at the guessed <origin>/auth/token stays offered, not chosen."""

    def handler(request: httpx.Request) -> httpx.Response:
        if request.headers.get("authorization") == f"Bearer {TOKEN}":
            return httpx.Response(200, json={"username": "alice"})
        if request.url.path != "/users/me":
            return httpx.Response(HTTPStatus.NOT_FOUND)
        return httpx.Response(401, headers={"WWW-Authenticate": 'Bearer realm="shop"'})

    app = create_app("http://shop/users/me", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await until(pilot, on_screen(app, LoginDialog), "the login dialog")
        dialog = app.screen
        await settle(pilot)
        kind = dialog.query_one("#kind", Select)
        assert kind.value == "bearer"
        assert dialog.query_one("#token", Input).has_focus
        kind.value = "token"  # the guess, still there to choose
        await settle(pilot)
        assert dialog.query_one("#login-url", Input).value == "http://shop/auth/token"
        kind.value = "bearer"
        await settle(pilot)
        dialog.query_one("#token", Input).focus()
        await pilot.press(*TOKEN, "enter")
        await settle(pilot)
        assert current(app).status == HTTPStatus.OK


async def test_a_login_url_typed_is_kept_when_the_tokenurl_comes() -> None:
    app = DialogApp(LoginDialog("http://shop"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        field = dialog.query_one("#login-url", Input)
        assert field.value == "http://shop/auth/token"
        field.value = "http://shop/mine"
        dialog.suggest_token_url("http://shop/token")
        assert field.value == "http://shop/mine"  # the person's, kept
        dialog.query_one("#kind", Select).value = "session"
        await settle(pilot)
        dialog.query_one("#kind", Select).value = "token"
        await settle(pilot)
        assert field.value == "http://shop/token"  # the token login's URL is the API's now


async def test_the_login_dialog_looks_up_its_token_url_itself() -> None:
    """Given where to look (the API's description, through the tab), the dialog suggests
    the token URL found there; a lookup that fails leaves its default."""

    async def found(told: Callable[[str], None]) -> str | None:
        told("Login URL: the tokenUrl of the OpenAPI description /openapi.json")
        return "http://shop/token"

    app = DialogApp(LoginDialog("http://shop", find_token_url=found))
    async with app.run_test(size=SIZE) as pilot:
        field = app.screen.query_one("#login-url", Input)
        await until(pilot, lambda: field.value == "http://shop/token", "the tokenUrl suggested")
        said = app.screen.query_one("#token-url-from", Static)
        await until(pilot, lambda: "/openapi.json" in str(said.render()), "where it was")

    async def failing(told: Callable[[str], None]) -> str | None:
        raise LoginFailed("no description")

    app = DialogApp(LoginDialog("http://shop", find_token_url=failing))
    async with app.run_test(size=SIZE) as pilot:
        said = app.screen.query_one("#token-url-from", Static)
        await until(pilot, lambda: "no description" in str(said.render()), "the failure said")
        assert app.screen.query_one("#login-url", Input).value == "http://shop/auth/token"


async def test_the_login_dialog_says_where_it_looked_for_its_token_url() -> None:
    """QA: ``a`` sent GETs to guessed paths in silence; the dialog now says what was tried
    when nothing was found (the login URL is then its guess)."""
    line = "No OpenAPI description linked, nor at /openapi.json, /v3/api-docs."

    async def nothing(told: Callable[[str], None]) -> str | None:
        told(line)
        return None

    app = DialogApp(LoginDialog("http://shop", find_token_url=nothing))
    async with app.run_test(size=SIZE) as pilot:
        said = app.screen.query_one("#token-url-from", Static)
        await until(pilot, lambda: not said.has_class("hidden"), "the line shown")
        assert str(said.render()) == line
        assert app.screen.query_one("#login-url", Input).value == "http://shop/auth/token"


async def test_drf_s_token_challenge_asks_for_a_key_sent_as_token() -> None:
    """Django REST Framework's TokenAuthentication: a 401 with ``WWW-Authenticate: Token``
    (as a QA pass's DRF 3.18 project answered), the key read as ``Token <key>``."""
    key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"

    def handler(request: httpx.Request) -> httpx.Response:
        if request.headers.get("authorization") == f"Token {key}":
            return httpx.Response(200, json={"count": 0, "next": None, "results": []})
        return httpx.Response(
            401,
            json={"detail": "Authentication credentials were not provided."},
            headers={"WWW-Authenticate": "Token"},
        )

    transport = httpx.MockTransport(handler)
    app = create_app("http://drf/api/books/", client=Client(transport=transport))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert current(app).status == HTTPStatus.UNAUTHORIZED
        assert "Authorization: Token <key>" in status_text(app)
        await pilot.press("a")
        await until(pilot, on_screen(app, LoginDialog), "the login dialog")
        dialog = app.screen
        assert dialog.query_one("#kind", Select).value == "bearer"
        assert dialog.query_one("#scheme", Input).value == "Token"
        token = dialog.query_one("#token", Input)
        await until(pilot, lambda: token.has_focus, "the token field focused")
        await pilot.press(*key, "enter")
        await settle(pilot)
        page = current(app)
        assert page.status == HTTPStatus.OK
        assert page.spec.auth == BearerAuth(key, "Token")
        assert "token" in str(app.browser.query_one("#auth-badge").render())


async def test_a_scheme_of_two_words_is_refused_with_why() -> None:
    app = DialogApp(LoginDialog("http://drf", kind="bearer", scheme="Token"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        assert dialog.query_one("#login-url", Input).value == "http://drf/api-token-auth/"
        dialog.query_one("#token", Input).value = "k"
        dialog.query_one("#scheme", Input).value = "To ken"
        assert dialog.result() is None
        assert dialog._missing() == "The scheme is one word, such as Bearer or Token."
        dialog.query_one("#scheme", Input).value = "Token"
        result = dialog.result()
        assert result is not None
        assert result.auth == BearerAuth("k", "Token")
        assert result.message == "Sent to http://drf only: Authorization: Token ****."


async def test_an_api_key_in_a_header_goes_to_its_server_only_until_logged_out() -> None:
    """A plain JSON API behind ``X-API-Key`` (FastAPI's APIKeyHeader answers a 401 with
    ``WWW-Authenticate: APIKey``): the key given in the login dialog, kept for its
    server, not sent to a link elsewhere, forgotten by x."""
    seen: list[tuple[str, str | None]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        key = request.headers.get("x-api-key")
        seen.append((request.url.host, key))
        if request.url.host == "elsewhere":
            return httpx.Response(200, json={})
        if key != "s3cret-key":
            return httpx.Response(
                401, json={"detail": "Not authenticated"}, headers={"WWW-Authenticate": "APIKey"}
            )
        return httpx.Response(200, json={"website": "http://elsewhere/about"})

    app = create_app("http://api/items", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await until(pilot, on_screen(app, LoginDialog), "the login dialog")
        dialog = app.screen
        assert dialog.query_one("#kind", Select).value == "key"
        assert dialog.query_one("#key-header", Input).value == "X-API-Key"
        token = dialog.query_one("#token", Input)
        await until(pilot, lambda: token.has_focus, "the key field focused")
        await pilot.press(*"s3cret-key", "enter")
        await settle(pilot)
        assert current(app).status == HTTPStatus.OK
        assert seen[-1] == ("api", "s3cret-key")
        assert "+1 header" in str(app.browser.query_one("#auth-badge").render())
        rows = app.browser.query_one(LinksPanel).table.rows
        assert [row[3] for row in rows] == ["elsewhere/about"]  # another server's, named
        await follow(pilot, "website")
        await settle(pilot)
        assert seen[-1] == ("elsewhere", None)  # given for http://api only
        await pilot.press("alt+left")
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        assert app.browser.session.kept_headers("http://api/") == ()
        await pilot.press("r")
        await settle(pilot)
        assert current(app).status == HTTPStatus.UNAUTHORIZED


async def test_a_key_refused_is_dropped_and_a_header_that_cannot_be_one_is_said() -> None:
    app = DialogApp(LoginDialog("http://api", kind="key"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        dialog.query_one("#token", Input).value = "k"
        dialog.query_one("#key-header", Input).value = "Authorization"
        assert dialog.result() is None
        assert "choose Paste a token" in dialog._missing()
        dialog.query_one("#key-header", Input).value = "Api-Key"
        result = dialog.result()
        assert result is not None
        assert (result.auth, result.key) == (None, ("Api-Key", "k"))


async def test_the_scheme_is_asked_for_a_login_only_when_the_server_named_another() -> None:
    app = DialogApp(LoginDialog("http://api"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        scheme = dialog.query_one("#scheme", Input)
        assert scheme.has_class("hidden")  # a login's token goes as Bearer
        dialog.query_one("#kind", Select).value = "bearer"
        await until(pilot, lambda: not scheme.has_class("hidden"), "the scheme shown")
        app.pop_screen()
        app.push_screen(LoginDialog("http://drf", scheme="Token"))
        await until(pilot, on_screen(app, LoginDialog), "the second dialog")
        await settle(pilot)
        assert not app.screen.query_one("#scheme", Input).has_class("hidden")


async def test_a_put_of_the_resource_shown_starts_from_its_json() -> None:
    """A plain JSON item (json-server's GET /books/3): typing PUT in the composer fills
    the empty body with it, to edit; what is sent is what the body then holds."""
    sent: list[tuple[str, bytes]] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append((request.method, request.content))
        return httpx.Response(200, json={"id": "3", "title": "Book 3", "year": 1963})

    app = create_app("http://js/books/3", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await until(pilot, on_screen(app, ComposerScreen), "the composer")
        composer = app.screen
        body = composer.query_one("#body", TextArea)
        method = composer.query_one("#method", Input)
        method.value = "POST"
        await pilot.pause()
        assert body.text == ""  # a POST makes something new: nothing to start from
        method.value = "PUT"
        await until(pilot, lambda: body.text.startswith("{"), "the body filled")
        assert json.loads(body.text) == {"id": "3", "title": "Book 3", "year": 1963}
        note = str(composer.query_one("#method-note").render())
        assert "The body is the resource as GET read it" in note
        body.text = body.text.replace("1963", "1965")
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert sent[-1][0] == "PUT"
        assert json.loads(sent[-1][1])["year"] == 1965


async def test_an_authorization_typed_in_the_composer_and_kept_goes_on_after() -> None:
    """A new user on Django REST Framework types ``Authorization: Token <key>`` as a header,
    "keep" ticked: the next link followed carries it too (it was kept as nothing before)."""
    key = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"
    seen: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("authorization"))
        if request.headers.get("authorization") != f"Token {key}":
            return httpx.Response(401, json={}, headers={"WWW-Authenticate": "Token"})
        return httpx.Response(200, json={"author": "http://drf/api/authors/1/"})

    app = create_app(
        "http://drf/api/books/1/", client=Client(transport=httpx.MockTransport(handler))
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await until(pilot, on_screen(app, ComposerScreen), "the composer")
        composer = app.screen
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press(*"Authorization", "tab", *f"Token {key}")
        await pilot.pause()
        keep = composer.query_one("#keep-headers", Checkbox)
        assert not keep.value  # a header goes once, unless kept
        keep.value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert current(app).status == HTTPStatus.OK
        assert "token" in str(app.browser.query_one("#auth-badge").render())
        await follow(pilot, "author")
        await settle(pilot)
        assert seen[-1] == f"Token {key}"
        assert current(app).status == HTTPStatus.OK


async def test_a_token_pasted_with_its_header_or_scheme_is_sent_once() -> None:
    """``Authorization: Bearer abc`` pasted as the token went as ``Authorization: Bearer
    Authorization: Bearer abc``; ``X-API-Key: k`` as a Bearer token: each is read out."""
    app = DialogApp(LoginDialog("http://shop", kind="bearer"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        token = dialog.query_one("#token", Input)
        token.value = "Authorization: Bearer abc"
        result = dialog.result()
        assert result is not None
        assert result.auth == BearerAuth("abc", "Bearer")
        token.value = "X-API-Key: k3y"
        result = dialog.result()
        assert result is not None
        assert (result.auth, result.key) == (None, ("X-API-Key", "k3y"))
        assert "X-API-Key: ****" in result.message
