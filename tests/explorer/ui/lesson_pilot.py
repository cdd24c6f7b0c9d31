"""A learner's hands for the later chapters' lesson tests (course_pilot.py has the rest).

:func:`lesson_app` is :func:`~tests.explorer.ui.course_pilot.course_app` with the mock
in reach (a test makes its reports finish at once); :func:`served_lesson_app` follows
the course on a mock served on a real socket (streams and HTTP/2 need one). The rest
is what a person does in the dialogs: log in (``a``), add a header in the composer,
paste a body or a URL, pick a choice of a dialog's list.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import httpx
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Input, Select, TextArea

from explorer.core.course.catalog import bundled_course
from explorer.core.course.progress import Progress
from explorer.core.course.setup import CourseStart
from explorer.core.http.client import Client
from explorer.core.http.connection import ConnectionSettings
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.dialogs.composer import ComposerScreen
from explorer.ui.dialogs.login import KINDS, LoginDialog
from mock_server import BackgroundServer, Settings
from mock_server import create_app as create_mock_app
from mock_server.app import MockApp
from mock_server.settings import RateLimit
from tests.explorer.ui.conftest import ROOT
from tests.explorer.ui.course_pilot import panel, wait
from tests.mock_server.conftest import TEST_HOSTS

__all__ = [
    "add_header",
    "composer",
    "done",
    "lesson_app",
    "log_in",
    "missed",
    "paste",
    "served_lesson_app",
    "show_me",
]


def lesson_app(
    lesson_id: str,
    prepare: Callable[[MockApp], None] | None = None,
    rate_limit: RateLimit | None = None,
    root: str = ROOT,
) -> tuple[RestwalkApp, MockApp]:
    """The app on a fresh in-process mock at ``root`` (``prepare`` may change it first;
    no rate limit unless given), the course shown at lesson ``lesson_id``; and the mock."""
    mock = create_mock_app(replace(Settings(rate_limit=rate_limit), allowed_hosts=TEST_HOSTS))
    if prepare is not None:
        prepare(mock)

    async def reset() -> None:
        mock.service.store.reset()

    progress = Progress.load(None, "test")
    progress.current = lesson_id
    start = CourseStart(
        bundled_course(),
        progress,
        reset=reset,
        others=Client(transport=httpx.ASGITransport(app=mock)),
        opened=True,
    )
    client = Client(transport=httpx.ASGITransport(app=mock))
    return create_app(root, client=client, mock_users=True, course=start), mock


def served_lesson_app(
    lesson_id: str, server: BackgroundServer, settings: ConnectionSettings | None = None
) -> RestwalkApp:
    """The app on ``server`` (a mock on a real socket) with the course shown at lesson
    ``lesson_id``, its lessons on that server; ``settings`` the connection's."""
    mock = server.app

    async def reset() -> None:
        mock.service.store.reset()

    progress = Progress.load(None, "test")
    progress.current = lesson_id
    start = CourseStart(bundled_course(), progress, reset=reset, opened=True, origin=server.url)
    return create_app(server.url + "/", mock_users=True, course=start, settings=settings)


def done(app: RestwalkApp) -> bool:
    return panel(app).state_text.startswith("✓ Done!")


def missed(app: RestwalkApp) -> str:
    """The near miss the panel says now ("" when it says none)."""
    text = panel(app).state_text
    return text.removeprefix("Not yet: ") if text.startswith("Not yet: ") else ""


def composer(app: RestwalkApp) -> ComposerScreen:
    screen = app.screen
    assert isinstance(screen, ComposerScreen), screen
    return screen


async def choose(pilot: Pilot[int], select: Select[str], values: Sequence[str], value: str) -> None:
    """Pick ``value`` in a dialog's list of ``values`` as a person does: focus it, open
    it, move to the choice with the arrows, Enter."""
    select.focus()
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    here = values.index(select.value)
    there = values.index(value)
    key = "down" if there > here else "up"
    await pilot.press(*[key] * abs(there - here), "enter")
    await pilot.pause()
    assert select.value == value


async def log_in(pilot: Pilot[int], user: str, password: str, kind: str | None = None) -> None:
    """``a``, the kind of login chosen when given, the user name, Tab, the password,
    Enter."""
    await pilot.press("a")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, LoginDialog)
    if kind is not None:
        kinds = [value for _, value in KINDS]
        await choose(pilot, dialog.query_one("#kind", Select), kinds, kind)
        dialog.query_one("#user", Input).focus()
        await pilot.pause()
    await pilot.press(*user, "tab", *password, "enter")
    await wait(pilot)


async def add_header(pilot: Pilot[int], name: str, value: str) -> None:
    """In the composer: the headers' add button, then the name, Tab, the value."""
    screen = composer(pilot.app)  # type: ignore[arg-type]
    screen.query_one("#headers .add", Button).focus()
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press(*name, "tab")
    await paste(pilot, screen.focused, value)


async def paste(pilot: Pilot[int], widget: Widget | None, text: str) -> None:
    """Paste ``text`` into ``widget`` (focused first) as the terminal hands a paste over."""
    assert widget is not None
    widget.focus()
    await pilot.pause()
    pilot.app.post_message(events.Paste(text))  # the app hands it to the focused widget
    await pilot.pause()


async def body(pilot: Pilot[int], text: str) -> None:
    """In the composer: the body emptied (F7 selects it all, Delete) and ``text`` pasted in."""
    area = composer(pilot.app).query_one("#body", TextArea)  # type: ignore[arg-type]
    area.focus()
    await pilot.pause()
    await pilot.press("f7", "delete")
    await paste(pilot, area, text)


async def show_me(pilot: Pilot[int]) -> ComposerScreen:
    """``M``: the composer filled with the lesson's request."""
    await pilot.press("M")
    await wait(pilot)
    return composer(pilot.app)  # type: ignore[arg-type]
