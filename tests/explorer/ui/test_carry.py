"""Carry in the TUI: a curl line pasted, the request copied as curl or HTTPie, the body
saved with d, a multipart form and a file body composed."""

from __future__ import annotations

from pathlib import Path

import httpx
import orjson
import pytest
from textual import events
from textual.widgets import Input, Label, Static, TextArea

from explorer.core.carry.curl import parse_curl
from explorer.core.http.client import Client
from explorer.core.http.request import BasicAuth, LoginFlow
from explorer.core.http.upload import FormPart
from explorer.core.text.sizes import size_text
from explorer.ui.app import create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.copy_menu import CopyMenu
from explorer.ui.dialogs.operations import OperationsDialog
from explorer.ui.dialogs.save_body import SaveBodyDialog
from explorer.ui.widgets.pairs_editor import PairsEditor
from explorer.ui.widgets.response_tabs import ResponseTabs
from tests.explorer.password_api import DESCRIPTION, TOKEN, token_answer
from tests.explorer.ui.conftest import ROOT, SIZE, AppFactory, settle

CURL = """curl -X POST http://mock/anything/x \\
  -H 'X-Trace: t1' \\
  -H 'Content-Type: application/json' \\
  -u alice:wonderland \\
  --digest \\
  -d '{"name": "Ann"}'"""


def messages(app: object) -> list[str]:
    return [n.message for n in app._notifications]  # type: ignore[attr-defined]


async def test_a_curl_line_pasted_in_the_url_bar_opens_the_composer(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        url = app.browser.query_one("#url", Input)
        url.focus()
        url.post_message(events.Paste(CURL))
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        spec = composer.current_spec()
        assert (spec.method, spec.url, spec.body) == (
            "POST",
            "http://mock/anything/x",
            '{"name": "Ann"}',
        )
        assert ("X-Trace", "t1") in spec.headers
        assert "--digest" in composer.note  # named, not lost
        await pilot.press("ctrl+s")
        await settle(pilot)
        echo = orjson.loads(app.browser.session.shown.exchange.response.body)
        assert echo["method"] == "POST"
        assert echo["json"] == {"name": "Ann"}
        assert echo["headers"]["X-Trace"] == "t1"


async def test_a_bad_curl_line_is_explained(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        url = app.browser.query_one("#url", Input)
        url.value = "curl 'http://mock/"
        url.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, ComposerScreen)
        assert any("never closed" in m for m in messages(app))


async def test_a_curl_line_pasted_in_the_composer_replaces_its_request(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#url", Input).post_message(
            events.Paste("curl -X DELETE /customers/3 -H 'If-Match: \"x\"'")
        )
        await settle(pilot)
        again = app.screen
        assert isinstance(again, ComposerScreen)
        assert again is not composer
        spec = again.current_spec()
        assert (spec.method, spec.url) == ("DELETE", "http://mock/customers/3")
        assert ("If-Match", '"x"') in spec.headers


async def test_copy_the_request_as_curl_and_httpie(make_app: AppFactory) -> None:
    app = make_app(ROOT + "customers?limit=2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, CopyMenu)
        await pilot.press("c")
        await settle(pilot)
        # -L: the session follows redirects, so the line does too (as --as curl writes it)
        assert app.clipboard == "curl -L 'http://mock/customers?limit=2'"
        assert parse_curl(app.clipboard).spec.url == "http://mock/customers?limit=2"
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("i")
        await settle(pilot)
        assert app.clipboard == "http --follow GET 'http://mock/customers?limit=2'"


async def test_the_copy_menu_shows_a_request_with_its_credential_masked(
    make_app: AppFactory,
) -> None:
    """QA: the menu's HTTPie line showed the token (``-a eyJleHAi...``); what is copied keeps
    the credential, what the menu shows masks it, as the Raw tab and the composer do."""
    app = make_app(ROOT + "customers?limit=2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.session.set_credential(ROOT, BasicAuth("alice", "wonderland"))
        await pilot.press("r")
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, CopyMenu)
        labels = [choice.label.plain for choice in menu.choices]
        assert any("-a alice:**** GET" in label for label in labels), labels
        assert not any("wonderland" in label for label in labels)
        await pilot.press("i")
        await settle(pilot)
        assert (
            app.clipboard == "http --follow -a alice:wonderland GET 'http://mock/customers?limit=2'"
        )


async def test_d_saves_the_exact_body_and_asks_before_replacing(
    make_app: AppFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = make_app(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        body = app.browser.session.shown.exchange.response.body
        await pilot.press("d")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, SaveBodyDialog)
        assert dialog.query_one("#save-path", Input).value == "1.json"
        await pilot.press("enter")
        await settle(pilot)
        assert (tmp_path / "1.json").read_bytes() == body
        (tmp_path / "1.json").write_bytes(b"mine")
        (tmp_path / "1.json").chmod(0o644)
        await pilot.press("d")
        await settle(pilot)
        await pilot.press("enter")  # it exists: a warning, nothing written
        await settle(pilot)
        assert isinstance(app.screen, SaveBodyDialog)
        assert (tmp_path / "1.json").read_bytes() == b"mine"
        await pilot.press("enter")  # again: replaced
        await settle(pilot)
        assert (tmp_path / "1.json").read_bytes() == body
        assert (tmp_path / "1.json").stat().st_mode & 0o777 == 0o644  # (it became 0600)
        assert any(m.startswith("Saved ") for m in messages(app))


async def test_y_and_d_say_which_body_they_take_and_size_it_alike(make_app: AppFactory) -> None:
    """y copies the text shown (JSON indented), d saves the bytes received: each says so,
    with the size of what it takes, in one style (QA pass 2, 6: "1.8 KB" against "1.2 KB"
    with nothing said)."""
    app = make_app(ROOT + "customers/1")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        received = app.browser.session.shown.exchange.response.body
        shown = app.browser.query_one(ResponseTabs).body_view.text.text()
        assert len(shown.encode()) != len(received)  # (the mock sends compact JSON)
        await pilot.press("y")
        await pilot.pause()
        menu = app.screen
        assert isinstance(menu, CopyMenu)
        body = next(choice for choice in menu.choices if choice.key == "b")
        assert body.label.plain.startswith(
            f"b  the body as shown ({size_text(len(shown.encode()))})"
        )
        await pilot.press("escape")
        await pilot.press("d")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, SaveBodyDialog)
        title = str(dialog.query_one(Label).render())
        assert title.startswith(f"Save the body as received ({size_text(len(received))} of ")


async def test_compose_a_multipart_form_with_a_file(make_app: AppFactory, tmp_path: Path) -> None:
    photo = tmp_path / "photo.txt"
    photo.write_text("pixels")
    app = make_app(ROOT + "anything")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#method", Input).value = "POST"
        form = composer.query_one("#form-fields", PairsEditor)
        form.add_row("name", "Ann")
        form.add_row("photo", f"@{photo};type=text/plain")
        await settle(pilot)
        spec = composer.current_spec()
        assert spec.form == (
            FormPart("name", "Ann"),
            FormPart("photo", file=str(photo), content_type="text/plain"),
        )
        assert "multipart/form-data; boundary=" in str(composer.query_one("#preview").render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        echo = orjson.loads(app.browser.session.shown.exchange.response.body)
        assert (echo["form"], echo["files"]) == ({"name": "Ann"}, {"photo": "pixels"})


async def test_a_body_from_a_file_and_a_missing_file(make_app: AppFactory, tmp_path: Path) -> None:
    data = tmp_path / "data.json"
    data.write_text('{"a": 1}')
    app = make_app(ROOT + "anything")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        composer.query_one("#method", Input).value = "PUT"
        composer.query_one("#body", TextArea).text = f"@{tmp_path / 'nope.json'}"
        await settle(pilot)
        assert "does not exist" in str(composer.query_one("#preview").render())
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is composer  # not sent
        composer.query_one("#body", TextArea).text = f"@{data}"
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        echo = orjson.loads(app.browser.session.shown.exchange.response.body)
        assert echo["json"] == {"a": 1}
        assert echo["headers"]["Content-Type"] == "application/json"


async def test_o_lists_the_operations_and_opens_one_in_the_composer(make_app: AppFactory) -> None:
    from explorer.ui.dialogs.template_form import TemplateForm

    app = make_app(ROOT + "customers")  # no service-desc here: the root's is found
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, OperationsDialog)
        assert len(dialog.shown) > 100
        for key in "get customers/{id}":
            await pilot.press("space" if key == " " else key)
        await settle(pilot)
        assert dialog.shown[0].path == "/customers/{id}"
        await pilot.press("enter")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, TemplateForm)  # the path parameter is asked for
        said = str(form.query_one(".help", Static).render())
        assert "opens the composer on the URL" in said  # a GET operation too: not sent
        await pilot.press("3", "enter")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        spec = composer.current_spec()
        assert (spec.method, spec.url) == ("GET", "http://mock/customers/3")
        assert "GET /customers/{id}" in composer.note


async def test_o_preselects_the_security_scheme_and_the_example_body(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, OperationsDialog)
        for key in "post /customers":
            await pilot.press("space" if key == " " else key)
        await settle(pilot)
        assert (dialog.shown[0].method, dialog.shown[0].path) == ("POST", "/customers")
        await pilot.press("enter")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert composer.query_one("#auth").value == "basic"  # type: ignore[attr-defined]
        assert "name" in orjson.loads(str(composer.current_spec().body))
        user = composer.query_one("#user", Input)
        assert user.display  # the scheme's fields are there to fill in
        await pilot.press("ctrl+s")  # an empty credential is never sent (QA pass 2)
        await settle(pilot)
        assert app.screen is composer
        assert any("user and password are empty" in str(n.message) for n in app._notifications)
        user.value = "alice"
        composer.query_one("#password", Input).value = "wonderland"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is not composer
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.status == 201


async def test_o_without_a_description_says_so() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"hello": "world"})

    app = create_app("http://api/", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        assert any("service-desc" in m for m in messages(app))


async def test_o_finds_a_description_nothing_links_to_where_fastapi_serves_it() -> None:
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Shop API", "version": "1.2.0"},
        "paths": {"/items": {"get": {"summary": "List Items"}}},
    }

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/openapi.json":
            return httpx.Response(200, json=document)
        if request.url.path == "/items":
            return httpx.Response(200, json={"items": [], "total": 0})
        return httpx.Response(404, json={"detail": "Not Found"})

    app = create_app("http://api/items", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, OperationsDialog)
        assert [(op.method, op.path) for op in dialog.shown] == [("GET", "/items")]
        assert any(
            "http://api/openapi.json (guessed: nothing links to it)" in m for m in messages(app)
        )


async def test_o_after_an_api_key_login_sends_the_key_given() -> None:
    """QA 6: the operation's empty X-API-Key row replaced the key given with a (a 401)."""
    document = {
        "openapi": "3.1.0",
        "info": {"title": "Shop API", "version": "1"},
        "components": {
            "securitySchemes": {"key": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}
        },
        "security": [{"key": []}],
        "paths": {
            "/items": {
                "post": {
                    "requestBody": {"content": {"application/json": {"example": {"name": "x"}}}}
                }
            }
        },
    }

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/openapi.json":
            return httpx.Response(200, json=document)
        if request.headers.get("x-api-key") != "k3y":
            return httpx.Response(401, json={"detail": "bad key"})
        if request.method == "POST":
            return httpx.Response(201, json={"id": 26, "name": "x"})
        return httpx.Response(200, json={"items": "/items"})

    app = create_app("http://api/", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.browser.session.keep_headers("http://api/", (("X-API-Key", "k3y"),))
        await pilot.press("O")
        await settle(pilot)
        assert isinstance(app.screen, OperationsDialog)
        await pilot.press("enter")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        assert ("X-API-Key", "k3y") in composer.current_spec().headers
        assert "; the X-API-Key kept for this server goes with it" in composer.note
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is not composer
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.status == 201


async def test_o_on_an_oauth2_password_scheme_logs_in_at_its_token_url() -> None:
    """FastAPI's OAuth2PasswordBearer(tokenUrl="token"): the composer asks for the user and
    password, and restwalk logs in at the description's tokenUrl (a form, as it takes)."""

    document = {
        "openapi": "3.1.0",
        "info": {"title": "Shop API", "version": "1.2.0"},
        "paths": {
            "/items": {
                "post": {
                    "summary": "Create Item",
                    "security": [{"OAuth2PasswordBearer": []}],
                    "requestBody": {
                        "content": {"application/json": {"example": {"name": "Gadget"}}}
                    },
                }
            }
        },
        "components": DESCRIPTION["components"],
    }

    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/openapi.json":
            return httpx.Response(200, json=document)
        if path == "/token":
            return token_answer(request)
        if path == "/items" and request.method == "POST":
            if request.headers.get("authorization") != f"Bearer {TOKEN}":
                return httpx.Response(401, json={"detail": "Not authenticated"})
            return httpx.Response(201, json={"id": 48, "name": "Gadget"})
        return httpx.Response(200, json={"message": "Shop API"})

    app = create_app("http://api/", client=Client(transport=httpx.MockTransport(handler)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("O")
        await settle(pilot)
        assert isinstance(app.screen, OperationsDialog)
        await pilot.press("enter")
        await settle(pilot)
        composer = app.screen
        assert isinstance(composer, ComposerScreen)
        spec = composer.current_spec()
        assert isinstance(spec.auth, LoginFlow)
        assert spec.auth.url == "http://api/token"  # tokenUrl, against the server
        await pilot.press("ctrl+s")  # no user and password yet: not sent
        await settle(pilot)
        assert app.screen is composer
        assert any("user and password are empty" in m for m in messages(app))
        composer.query_one("#user", Input).value = "alice"
        composer.query_one("#password", Input).value = "wonderland"
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert app.screen is not composer
        shown = app.browser.session.shown
        assert shown is not None
        assert shown.status == 201
