"""The course in the TUI for tests: the app on a fresh mock (in-process), the course shown.

A lesson test does what a learner does, with the real keys, and reads the panel:
:func:`course_app` builds the app with the course open at a lesson, its mock reset
in-process as the bundled one is; :func:`wait` lets every worker and the course's
other requests finish; :func:`state` is what the panel's last line says.
"""

from __future__ import annotations

from dataclasses import replace

import httpx
from textual.pilot import Pilot
from textual.widgets import Input
from textual.worker import WorkerCancelled

from explorer.core.course.catalog import Course, bundled_course
from explorer.core.course.progress import Progress
from explorer.core.course.setup import CourseStart
from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from explorer.ui.widgets.course_panel import CoursePanel
from mock_server import Settings
from mock_server import create_app as create_mock_app
from tests.explorer.ui.conftest import ROOT, settle
from tests.mock_server.conftest import TEST_HOSTS


def course_app(lesson_id: str, course: Course | None = None) -> RestwalkApp:
    """The app on a fresh mock with the course shown at lesson ``lesson_id``."""
    course = course or bundled_course()
    mock = create_mock_app(replace(Settings(rate_limit=None), allowed_hosts=TEST_HOSTS))

    async def reset() -> None:
        mock.service.store.reset()

    progress = Progress.load(None, "test")
    progress.current = lesson_id
    start = CourseStart(
        course,
        progress,
        reset=reset,
        others=Client(transport=httpx.ASGITransport(app=mock)),
        opened=True,
    )
    client = Client(transport=httpx.ASGITransport(app=mock))
    return create_app(ROOT, client=client, mock_users=True, course=start)


def panel(app: RestwalkApp) -> CoursePanel:
    found = app.browser.course_panel
    assert found is not None
    return found


async def wait(pilot: Pilot[int]) -> None:
    """Every worker done, the course's other requests answered, the screen caught up.

    A lesson's start page replaces a page still on its way (the app's first one, when
    the course opens with the app): that fetch is cancelled, which is not a failure."""
    for _ in range(3):
        for _attempt in range(5):
            try:
                await settle(pilot)
                break
            except WorkerCancelled:
                continue
        driver = pilot.app.browser.course_driver  # type: ignore[attr-defined]
        if driver is not None:
            await driver.settled()
    await settle(pilot)


async def opened(pilot: Pilot[int], lesson_id: str) -> CoursePanel:
    """Wait for the course to show lesson ``lesson_id`` (its start page loaded)."""
    await wait(pilot)
    shown = panel(pilot.app)  # type: ignore[arg-type]
    assert shown.driver.run.lesson.id == lesson_id
    return shown


def state(app: RestwalkApp) -> str:
    return panel(app).state_text


async def go(pilot: Pilot[int], target: str) -> None:
    """ctrl+l, the URL or path typed, Enter."""
    await pilot.press("ctrl+l", *target, "enter")
    await wait(pilot)


async def compose(pilot: Pilot[int], method: str | None = None, url: str | None = None) -> None:
    """``c``: the composer on the page shown; its method and URL typed over when given."""
    await pilot.press("c")
    await pilot.pause()
    for selector, text in (("#url", url), ("#method", method)):
        if text is not None:  # clicked, emptied and typed, as a person does
            await pilot.click(selector)
            field = pilot.app.screen.query_one(selector, Input)
            await pilot.press("end", *["backspace"] * len(field.value), *text)


async def send(pilot: Pilot[int]) -> None:
    """ctrl+s in the composer."""
    await pilot.press("ctrl+s")
    await wait(pilot)


async def header(pilot: Pilot[int], name: str, value: str) -> None:
    """In the composer: ctrl+n, the header's name, tab, its value."""
    await pilot.press("ctrl+n")
    await pilot.pause()
    await pilot.press(*name, "tab", *value)
    await pilot.pause()
