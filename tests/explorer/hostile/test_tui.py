"""The TUI against the hostile server: server text is shown as text, never obeyed.

Each test looks at what the screen would send the terminal (the text of every
rendered strip): no control character from a server, and markup shown as it
came. The app must still be running after every click on server text.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from textual.content import Content
from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownBlock
from textual.widgets._toast import Toast

from explorer.core.http.connection import ConnectionSettings
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.template_fields import MAX_FIELDS
from explorer.core.session.trail import Page
from explorer.core.text.terminal_text import visible_line
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.explain import ExplainDialog
from explorer.ui.dialogs.save_body import SaveBodyDialog
from explorer.ui.dialogs.template_form import TemplateForm
from explorer.ui.explain_text import page_markdown
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.response_tabs import ResponseTabs
from explorer.ui.widgets.url_input import UrlInput
from tests.explorer.hostile.server import (
    MARKDOWN_REALM,
    MARKUP,
    OSC52,
    QA_REASON,
    HostileServer,
    layered_gzip,
)
from tests.explorer.ui.conftest import SIZE, markdown_shown, settle
from tests.explorer.ui.test_browse import follow, status_text

# What a terminal acts on, but the line feeds between rows: a tab too (it moves the
# cursor to a column the screen did not count), and the bidi controls.
_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
SETTINGS = ConnectionSettings(timeout=5, max_time=5, max_body=5_000_000)


def screen_text(app: RestwalkApp) -> str:
    """The text of every strip the top screen renders: what reaches the terminal,
    less the styles Textual adds."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def assert_shown_not_obeyed(app: RestwalkApp) -> None:
    text = screen_text(app)
    assert _CONTROL.findall(text) == []
    assert app.is_running


def shown(app: RestwalkApp) -> Page:
    page = app.browser.session.shown
    assert page is not None
    return page


@pytest.mark.parametrize(
    "path",
    [
        "/escape/everywhere",
        "/escape/text",
        "/escape/json",
        "/escape/json-raw",
        "/escape/bidi",
        "/escape/bytes",
    ],
)
async def test_every_tab_shows_escapes_as_text(hostile: HostileServer, path: str) -> None:
    app = create_app(hostile.case(path), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert shown(app).error is None
        for tab in ("body", "headers", "raw", "trip"):
            await app.browser.query_one(ResponseTabs).select(tab, focus=True)
            await settle(pilot)
            assert_shown_not_obeyed(app)
        panel = app.browser.query_one(LinksPanel)
        for number in range(1, len(panel.links) + 1):
            panel.highlight(number)
            await settle(pilot)
            assert_shown_not_obeyed(app)


async def test_markup_from_a_server_is_text_and_runs_no_action(
    hostile: HostileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a screenshot action would write here
    app = create_app(hostile.case("/markup/everywhere"), settings=SETTINGS)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        for number, link in enumerate(panel.links, start=1):
            panel.highlight(number)
            await settle(pilot)
            await pilot.click("#link-detail")
            await pilot.click("StatusLine")
            await settle(pilot)
            assert app.is_running
            if link.title:
                assert MARKUP[:40] in screen_text(app).replace("\n", "")
        for tab in ("headers", "raw", "trip"):
            await app.browser.query_one(ResponseTabs).select(tab)
            await settle(pilot)
            assert "[@click=app.q" in screen_text(app)  # cut by the column, not obeyed
        app.notify(MARKUP + "\x1b]0;t\x07", title="[/]")
        await settle(pilot)
        toasts = [str(toast.render()) for toast in app.screen.query(Toast)]
        assert any("[@click=app.quit]CLICK[/]" in toast for toast in toasts), toasts
        assert not any(_CONTROL.search(toast.replace("\n", "")) for toast in toasts)
        assert_shown_not_obeyed(app)
        await app.push_screen(ExplainDialog(page_markdown(shown(app))))
        await settle(pilot)
        await pilot.click("#explanation")
        assert_shown_not_obeyed(app)
        assert "[@click=app.quit]" in screen_text(app)
        await pilot.press("escape")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    "link",
    [
        Link(rel=MARKUP, href="http://h/odd{?x}", title=MARKUP, templated=True),
        Link(rel="[/]", href="http://h/odd{?[/]}", templated=True),
        Link(rel="\x1b]52;c;eA==\x07", href="http://h/{[b]}{?\x9b}", templated=True),
    ],
)
async def test_the_template_form_shows_its_template_as_text(
    hostile: HostileServer, link: Link
) -> None:
    app = create_app(hostile.case("/escape/text"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(TemplateForm(link))
        await settle(pilot)
        for widget in app.screen.query("Static, Label"):
            await pilot.click(widget)
        await settle(pilot)
        assert_shown_not_obeyed(app)
        assert isinstance(app.screen, TemplateForm)


async def test_a_link_of_ten_thousand_variables_opens_a_bounded_form(
    hostile: HostileServer,
) -> None:
    """10,000 inputs were 895 MB and a TUI that no longer answered keys: the first
    MAX_FIELDS variables are fields, the rest one line, and the screen says so."""
    app = create_app(hostile.case("/template/10000-variables"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "many")
        await settle(pilot)
        form = app.screen
        assert isinstance(form, TemplateForm)
        assert form.variables == [f"v{n}" for n in range(MAX_FIELDS)]
        assert len(form.query(".variable")) == MAX_FIELDS + 1  # the fields and the line
        assert "9,950 more variables (v50 to v9999) folded" in screen_text(form.app).replace(
            "\n", " "
        )
        started = time.monotonic()
        await pilot.press("a")
        for _ in range(MAX_FIELDS):
            await pilot.press("tab")
        await pilot.press(*"v9999=z")
        await settle(pilot)
        assert time.monotonic() - started < 30  # keys answered, one by one
        assert form.folded_line() == "v9999=z"
        assert form.expanded() == hostile.case("/template/landing?v0=a&v9999=z")
        await pilot.press("ctrl+s")
        await settle(pilot)
        page = shown(app)
        assert page.exchange is not None
        assert b"/template/landing?v0=a&v9999=z" in page.exchange.response.body
        assert_shown_not_obeyed(app)


async def test_a_bomb_is_explained_on_screen(hostile: HostileServer) -> None:
    app = create_app(hostile.case("/bomb/nested"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "larger than 5 MB" in status_text(app)
        assert app.is_running


async def test_a_body_coded_a_thousand_times_is_shown_as_received(
    hostile: HostileServer,
) -> None:
    app = create_app(hostile.case("/codings/1000"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        page = shown(app)
        assert page.error is None
        assert page.exchange is not None
        assert page.exchange.response.undecoded_codings == 1000
        assert page.exchange.response.body == layered_gzip(1000)
        said = "the server applied 1000 content codings; restwalk undoes at most 5"
        assert said in status_text(app)
        assert said in screen_text(app).replace("\n", "")
        await pilot.press("d")
        await settle(pilot)
        assert isinstance(app.screen, SaveBodyDialog)
        note = str(app.screen.query_one("#save-note", Static).render())
        assert "still coded: " + said in note
        await pilot.press("escape")
        await pilot.press("r")  # still answering keys: sent again, said again
        await settle(pilot)
        assert shown(app).exchange is not page.exchange
        assert said in status_text(app)
        assert_shown_not_obeyed(app)


async def test_a_slow_server_meets_the_deadline_on_screen(hostile: HostileServer) -> None:
    settings = ConnectionSettings(timeout=5, max_time=1)
    app = create_app(hostile.case("/endless-1xx"), settings=settings)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "1 s allowed" in status_text(app)


@pytest.mark.parametrize(
    "path", ["/json/deep-300", "/json/deep-100000", "/xml/deep-5000", "/redirect/javascript"]
)
async def test_hostile_documents_and_redirects_are_shown(hostile: HostileServer, path: str) -> None:
    app = create_app(hostile.case(path), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert_shown_not_obeyed(app)
        if path.startswith("/redirect"):
            assert "javascript: URL" in status_text(app)


@pytest.mark.parametrize("path", ["/escape/json", "/escape/everywhere"])
async def test_a_link_with_escapes_is_followed_as_a_browser_would(
    hostile: HostileServer, path: str
) -> None:
    """Followed, its href's control characters percent-encoded (as the URL Standard
    says): the URL bar and the composer's URL show no byte the terminal would obey."""
    app = create_app(hostile.case(path), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, "next")
        await settle(pilot)
        page = shown(app)
        assert page.error is None
        assert "%1B" in page.spec.url or "%C2%9B" in page.spec.url
        assert _CONTROL.search(app.browser.query_one(UrlInput).value) is None
        assert_shown_not_obeyed(app)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, ComposerScreen)
        assert_shown_not_obeyed(app)


async def test_a_location_with_escapes_is_followed_as_a_browser_would(
    hostile: HostileServer,
) -> None:
    app = create_app(hostile.case("/escape/location"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        page = shown(app)
        assert page.status == 200
        assert page.spec.url.endswith("/escape/location")
        assert page.exchange is not None
        assert "%1B]52;c;" in page.exchange.response.url
        assert_shown_not_obeyed(app)


async def test_what_a_server_suggests_for_a_field_is_shown_not_obeyed(
    hostile: HostileServer,
) -> None:
    """Every input field, whatever puts text in it, holds no control character."""
    app = create_app(hostile.case("/escape/text"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        url = app.browser.query_one(UrlInput)
        url.value = f"http://h/{OSC52}"
        url.insert_text_at_cursor("\x1b[2J")
        await settle(pilot)
        assert _CONTROL.search(url.value) is None
        assert "␛]52;c;" in url.value
        assert_shown_not_obeyed(app)


@pytest.mark.parametrize("rel", ["js", "file"])
async def test_a_server_link_that_cannot_be_followed_says_whose_it_is(
    hostile: HostileServer, rel: str
) -> None:
    app = create_app(hostile.case("/links/not-http"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await follow(pilot, rel)
        await settle(pilot)
        status = status_text(app)
        assert f"The server's {rel} link cannot be followed" in status
        assert "Give an absolute URL" not in status
        assert "alt+left goes back" in status


async def test_the_links_panel_says_why_an_xml_document_gives_no_links(
    hostile: HostileServer,
) -> None:
    """QA pass 3, defect 5: an XML document declaring entities is refused (rightly),
    and the panel says so instead of "No links in this response"."""
    reason = "the XML declares entities (a DTD), which restwalk does not read"
    app = create_app(hostile.case("/xml/entities"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        assert panel.links == ()
        detail = str(panel.query_one("#link-detail", Static).render())
        assert detail == f"No links found: {reason}."
        assert f"Not every link is listed: {reason}." in status_text(app)
        assert "No links read from this page" in status_text(app)
    app = create_app(hostile.case("/xml/entities-linked"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.browser.query_one(LinksPanel)
        assert [link.rel for link in panel.links] == ["up"]
        assert panel.border_subtitle == f"not all: {reason}"


async def test_the_explain_screen_shows_a_reason_phrase_exactly_as_made_visible(
    hostile: HostileServer,
) -> None:
    """QA pass 3, defect 7: `e` showed "␛\\\\CLICK␛\\]8" for "␛\\CLICK␛]8" (linkify made a
    link of the URL in it, and inside a link escapes are not read)."""
    url = hostile.case("/escape/reason-qa3")
    app = create_app(url, settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        assert isinstance(app.screen, ExplainDialog)
        shown_text = markdown_shown(app.screen.query_one("#explanation", Markdown))
        title = shown_text.splitlines()[0]
        assert title == f"# 418 {visible_line(QA_REASON)} for GET {url}"
        assert "␛]8;;http://evil.example/␛\\CLICK␛]8;;␛\\␛]0;HACKED TITLE␇[bold red]x[/]" in title
        (heading,) = [b for b in app.screen.query(MarkdownBlock) if "CLICK" in str(b.content)]
        assert _spans(heading) == []  # no link, no formatting
        assert_shown_not_obeyed(app)


async def test_advice_quoting_a_header_shows_its_markdown_as_text(hostile: HostileServer) -> None:
    app = create_app(hostile.case("/escape/markdown-realm"), settings=SETTINGS)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        shown_text = markdown_shown(app.screen.query_one("#explanation", Markdown))
        assert f'(realm "{MARKDOWN_REALM}")' in shown_text
        advice = shown_text.split("REST in this response:")[0]
        (quoting,) = [
            block
            for block in app.screen.query(MarkdownBlock)
            if MARKDOWN_REALM in str(block.content)
        ]
        assert _spans(quoting) == []
        assert "send `Authorization: Bearer <token>`" in advice  # the knowledge's own, as typed


def _spans(block: MarkdownBlock) -> list[object]:
    """The styles and links a Markdown block puts on its text."""
    visual = block.visual
    return list(visual.spans) if isinstance(visual, Content) else []
