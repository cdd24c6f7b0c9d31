"""What a person met in the TUI (issue 10), tried again with keys: each failed before."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from textual.widgets import Checkbox, Input, Select, TextArea

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.login import LoginDialog
from explorer.ui.dialogs.session_info import SessionDialog
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.pairs_editor import PairsEditor
from explorer.ui.widgets.status_line import StatusLine
from tests.explorer.ui.conftest import SIZE, AppFactory, on_screen, settle, until

API = "http://api.test"


def hal_page(count: int) -> dict[str, object]:
    """A HAL page with ``count`` links to ``/item/N``."""
    links = {f"item{n}": {"href": f"/item/{n}"} for n in range(1, count + 1)}
    return {"_links": {"self": {"href": "/"}, **links}}


def item(n: int) -> dict[str, object]:
    """An item whose first link is an action (a PUT form), as a composer would open."""
    return {
        "id": n,
        "_links": {"self": {"href": f"/item/{n}"}},
        "_templates": {"default": {"method": "PUT", "properties": [{"name": "id"}]}},
    }


def fake_app(handler: object) -> RestwalkApp:
    transport = httpx.MockTransport(handler)  # type: ignore[arg-type]
    return create_app(f"{API}/", client=Client(transport=transport))


async def test_a_number_and_its_enter_follow_one_link_not_two() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path.startswith("/item/"):
            return httpx.Response(200, json=item(int(request.url.path.rsplit("/", 1)[1])))
        return httpx.Response(200, json=hal_page(45))

    app = fake_app(answer)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("7", "enter")  # 7 follows at once (no link 70); Enter ends it
        await settle(pilot)
        assert app.screen is app.browser  # no composer for the new page's first link
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == f"{API}/item/7"
        assert len(app.browser.trail.pages) == 2


async def test_keys_typed_while_a_page_loads_do_not_act_on_it() -> None:
    gate = asyncio.Event()

    async def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/slow":
            await gate.wait()
            return httpx.Response(200, json=hal_page(3))
        return httpx.Response(200, json={"_links": {"slow": {"href": "/slow"}}})

    app = fake_app(answer)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")  # follows /slow, which does not answer yet
        await pilot.pause()
        assert app.browser.sending
        await pilot.press("1", "enter")  # typed on a page not shown yet: nothing happens
        await pilot.pause()
        gate.set()
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == f"{API}/slow"


async def test_a_key_typed_ahead_of_the_composer_being_built_does_nothing() -> None:
    sent: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.method)
        return httpx.Response(200, json=hal_page(1))

    app = fake_app(answer)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.action_compose()  # pushed, not yet mounted: as ctrl+s typed right after c
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert not composer.is_mounted
        assert not await app.run_action("send", composer)
        await settle(pilot)  # no error: the form mounted whole, nothing was sent
        assert app.screen is composer
        assert sent == ["GET"]
        await pilot.press("ctrl+s")  # once it is on the screen, the key sends
        await settle(pilot)
        assert app.screen is app.browser
        assert sent == ["GET", "GET"]


async def test_escape_cancels_the_request_in_flight() -> None:
    async def answer(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/slow":
            await asyncio.sleep(30)
        return httpx.Response(200, json={"_links": {"slow": {"href": "/slow"}}})

    app = fake_app(answer)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("1")
        await pilot.pause()
        assert app.browser.sending
        await pilot.press("escape")
        await settle(pilot)  # returns at once: the request was cancelled
        assert not app.browser.sending
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.url == f"{API}/"  # the page shown stays
        assert "Cancelled" in " ".join(str(n.message) for n in app._notifications)
        assert "sending" not in str(app.browser.query_one(StatusLine).render())


async def test_a_basic_only_challenge_preselects_a_basic_login() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if request.headers.get("authorization") == "Basic dXNlcjpwYXNzd2Q=":
            return httpx.Response(200, json={"authenticated": True, "user": "user"})
        return httpx.Response(401, headers={"WWW-Authenticate": 'Basic realm="Fake Realm"'})

    app = fake_app(answer)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, LoginDialog)
        assert dialog.query_one("#kind", Select).value == "basic"
        assert not dialog.query_one("#login-url", Input).display  # no guessed /auth/token
        await pilot.press(*"user", "tab", *"passwd", "enter")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.status == 200
        titles = [n.title for n in app._notifications]
        assert "Credential set" in titles
        assert "user (basic)" in str(app.browser.query_one("#auth-badge").render())
        await pilot.press("x")  # log out
        await pilot.pause()
        assert app.browser.session.credential(API) is None
        assert str(app.browser.query_one("#auth-badge").render()).strip() == ""


@pytest.mark.parametrize(("mock_users", "kind"), [(False, "bearer"), (True, "token")])
async def test_a_before_any_page_preselects_what_the_no_challenge_rule_says(
    mock_users: bool, kind: str
) -> None:
    """No page yet: no challenge, so as a page without one, a token to paste; on the
    bundled mock, whose login URL is known, its user + password login."""

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404)

    client = Client(transport=httpx.MockTransport(answer))
    app = create_app(None, client=client, mock_users=mock_users)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.browser.session.shown is None
        app.browser.query_one(LinksPanel).table.focus()  # (the URL bar would take the a)
        await pilot.press("a")
        await until(pilot, on_screen(app, LoginDialog), "the login dialog")
        assert app.screen.query_one("#kind", Select).value == kind
        await settle(pilot)


async def test_a_header_kept_in_the_composer_goes_with_the_next_link(
    make_app: AppFactory,
) -> None:
    app = make_app("http://mock/")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#headers", PairsEditor).add_row("Accept", "application/vnd.siren+json")
        await pilot.pause()
        composer.query_one("#keep-headers", Checkbox).value = True
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "+1 header" in str(app.browser.query_one("#auth-badge").render())
        app.browser.open_url("/customers")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.exchange is not None
        assert page.exchange.response.media_type == "application/vnd.siren+json"
        await pilot.press("s")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, SessionDialog)
        await pilot.press("enter")  # drops the kept header
        await pilot.pause()
        assert app.browser.session.kept_headers("http://mock/") == ()


async def test_invalid_json_is_marked_and_sent_only_when_asked_twice(
    make_app: AppFactory,
) -> None:
    app = make_app("http://mock/status")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#method", Input).value = "POST"
        composer.query_one("#body", TextArea).text = '{"name": "Ann",\n "x": }'
        await pilot.pause()
        note = str(composer.query_one("#json-note").render())
        assert "Not valid JSON, line 2, column" in note
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is composer  # not sent: the person was asked
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is app.browser
        page = app.browser.session.shown
        assert page is not None
        assert page.spec.method == "POST"
        assert page.spec.body == '{"name": "Ann",\n "x": }'  # sent as it is, when asked


async def test_a_304_shows_the_body_it_revalidated(make_app: AppFactory) -> None:
    from explorer.core.http.request import RequestSpec
    from explorer.ui.widgets.body_view import BodyView

    app = make_app("http://mock/customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = app.browser.session.shown
        assert first is not None
        assert first.exchange is not None
        etag = first.exchange.response.header("etag")
        assert etag
        spec = RequestSpec(url="http://mock/customers/1", headers=(("If-None-Match", etag),))
        app.browser.send(spec)
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.status == 304
        body = app.browser.query_one("#body-view", BodyView)
        shown = "\n".join(body.row_text(row) for row in range(body.line_count))
        assert '"name"' in shown  # the body restwalk had, still valid
        assert "already had" in str(app.browser.query_one(StatusLine).render())


async def test_removing_a_prefilled_header_row_keeps_the_composer(make_app: AppFactory) -> None:
    from explorer.core.http.request import RequestSpec

    app = make_app("http://mock/")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        spec = RequestSpec(url="http://mock/customers", headers=(("X-Test", "one"),))
        app.browser.open_composer(spec)
        await pilot.pause()
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        headers = composer.query_one("#headers", PairsEditor)
        assert headers.pairs == (("X-Test", "one"),)
        headers.query_one(".remove").focus()
        await pilot.press("enter")
        await settle(pilot)
        assert app.is_running
        assert app.screen is composer
        assert headers.pairs == ()
        assert "X-Test" not in str(composer.query_one("#preview").render())
