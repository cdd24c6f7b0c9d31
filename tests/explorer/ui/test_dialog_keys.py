"""Keys typed right after the key that opens a dialog are the dialog's (QA: on a busy
screen, or typed fast, ``c`` then ``/users`` lost the URL, or searched the page).

Textual routes each key as the app reads it, and a dialog is focused a turn or more
after it is pushed: keys that came together with the one opening it went to the page or
to a dialog with nothing focused. What is typed after the key that opens a text dialog
goes to its first field; a dialog whose first element is a menu or a text to read
takes the keys as its own keys, as a browser's or a native app's dialogs do."""

from __future__ import annotations

import pytest
from textual import events
from textual.app import ComposeResult
from textual.command import CommandInput, CommandPalette
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Input

from explorer.ui.app import RestwalkApp
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.explain import ExplainDialog
from explorer.ui.dialogs.login import LoginDialog
from explorer.ui.screens.help import HelpScreen
from explorer.ui.widgets.find_bar import FindBar
from explorer.ui.widgets.links_panel import LinksPanel
from explorer.ui.widgets.pairs_editor import PairsEditor
from explorer.ui.widgets.url_input import UrlBar
from tests.explorer.ui.conftest import ROOT, SIZE, AppFactory, on_screen, settle, until

Keys = list[tuple[str, str | None]]


def typed_together(app: RestwalkApp, keys: Keys) -> None:
    """``keys`` as the terminal's reader hands them over when the screen reads its input
    late (a busy screen), or a fast typist's."""
    for key, char in keys:
        app.post_message(events.Key(key, char))


def letters(text: str) -> Keys:
    names = {"/": "slash", "?": "question_mark"}
    return [(names.get(char, char), char) for char in text]


async def test_keys_typed_with_c_go_to_the_composers_url(make_app: AppFactory) -> None:
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = app.browser.session.shown
        typed_together(app, letters("c/users"))
        await settle(pilot)
        assert isinstance(app.screen, ComposerScreen)
        url = app.screen.query_one("#url", Input)
        assert url.has_focus
        assert url.value == "/users"  # the URL shown was selected: typing replaced it
        assert not app.browser.query(FindBar)  # the page was not searched
        assert app.browser.session.shown is shown


async def test_keys_typed_with_a_go_to_the_login_s_first_field(make_app: AppFactory) -> None:
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        typed_together(app, letters("abob"))
        await settle(pilot)
        assert isinstance(app.screen, LoginDialog)
        user = app.screen.query_one("#user", Input)
        assert user.has_focus
        assert user.value == "bob"


async def test_keys_typed_with_ctrl_p_go_to_the_palette(make_app: AppFactory) -> None:
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        typed_together(app, [("ctrl+p", None), *letters("explain")])
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(CommandInput).value == "explain"


async def test_keys_typed_with_y_are_the_copy_menu_s(make_app: AppFactory) -> None:
    """The copy menu's first element is its list: a key typed with ``y`` picks its entry
    (``u``: the link's URL), not the page's key (``u`` is nothing there; ``h`` would
    show the headers)."""
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        typed_together(app, letters("yu"))
        await settle(pilot)
        assert app.screen is app.browser  # the menu closed with the choice
        link = next(c for c in app.browser.query_one(LinksPanel).copy_choices() if c.key == "u")
        assert app.clipboard == link.text


@pytest.mark.parametrize(("opener", "kind"), [("e", ExplainDialog), ("question_mark", HelpScreen)])
async def test_keys_typed_with_e_or_question_mark_are_the_text_s(
    make_app: AppFactory, opener: str, kind: type[Screen[None]]
) -> None:
    """The explanation and the help are texts to read, focused: ``end`` typed with the
    key that opens one goes to its end."""
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        typed_together(app, [(opener, None), ("end", None)])
        await until(pilot, on_screen(app, kind), "opened")
        text = app.screen.query_one(VerticalScroll)
        assert text.has_focus
        assert text.max_scroll_y > 0
        # (at its end then: the explanation's lint, written in below later, moves the end)
        await until(pilot, lambda: text.scroll_y > 0, "scrolled to the end", 10)


class Dialog(ModalScreen[None]):
    """A dialog with a field, as the ones keys open."""

    def compose(self) -> ComposeResult:
        yield Input(id="dialog-field")


async def test_keys_held_for_a_dialog_closed_before_it_mounted_go_to_the_page(
    make_app: AppFactory,
) -> None:
    """Keys wait for the dialog on top to mount; closed before that (dismissed by what its
    opening found, or by the app), it never takes them: they are the page's, in order,
    and the keys after them too (none lost, none held for a dialog that never comes)."""
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        dialog = Dialog()
        app.push_screen(dialog)
        for key, char in letters("c/users"):  # read from the terminal in this very turn
            await app.on_event(events.Key(key, char))
        assert not dialog.is_mounted
        assert app.screen is dialog  # the keys wait for it
        app.pop_screen()
        await until(pilot, on_screen(app, ComposerScreen), "the composer opened by c")
        assert isinstance(app.screen, ComposerScreen)
        url = app.screen.query_one("#url", Input)
        await until(pilot, lambda: url.value == "/users", "the URL typed after c")
        assert url.has_focus
        assert not dialog.query("#dialog-field")  # never composed: it took no key
        typed_together(app, letters("/3"))  # and the keys after go on as usual
        await until(pilot, lambda: url.value == "/users/3", "the next keys")


async def test_a_paste_right_after_c_is_the_composer_s_url(make_app: AppFactory) -> None:
    """QA: ``c`` then a paste (ctrl+shift+v) lost the paste: Textual hands it to the focused
    widget of the screen on top, and the composer, not mounted yet, had none. It waits
    with the keys now, in their order."""
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        # read from the terminal in one turn, before the composer is pushed or mounted
        await app.on_event(events.Key("c", "c"))
        await app.on_event(events.Paste("/users"))
        await app.on_event(events.Key("slash", "/"))
        await until(pilot, on_screen(app, ComposerScreen), "the composer mounted")
        url = app.screen.query_one("#url", Input)
        await until(pilot, lambda: url.value == "/users/", "the paste, then the key")
        assert url.has_focus


@pytest.mark.parametrize(
    ("keys", "value"),
    [
        ([("ctrl+u", None), *letters("/validate")], "/validate"),  # it emptied the field
        ([("ctrl+u", None), *letters("abx"), ("backspace", None), *letters("c")], "abc"),
        ([("ctrl+u", None), *letters("bc"), ("home", None), *letters("a")], "abc"),
    ],
)
async def test_editing_keys_typed_together_act_in_their_order(
    make_app: AppFactory, keys: Keys, value: str
) -> None:
    """A field's own editing keys (ctrl+u, backspace, home...) act in turn with the
    characters typed with them: they ran when they had bubbled up to the app, after the
    characters that followed them were in."""
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+l")
        await settle(pilot)
        bar = app.browser.query_one(UrlBar)
        assert bar.has_focus
        typed_together(app, keys)
        await settle(pilot)
        assert bar.value == value


async def test_tab_typed_with_a_composer_fields_keys_moves_on_in_its_order(
    make_app: AppFactory,
) -> None:
    """``limit`` Tab ``3`` typed together fill a query parameter's name and value: the
    3 went to the name (``limit3``), Tab acting only once it had bubbled up."""
    app = make_app(ROOT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await until(pilot, on_screen(app, ComposerScreen), "the composer")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        typed_together(app, [*letters("limit"), ("tab", None), *letters("3")])
        await settle(pilot)
        assert app.screen.query_one("#query", PairsEditor).pairs == (("limit", "3"),)
