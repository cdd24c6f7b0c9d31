"""The lessons of versioning, done as a learner does them: each ticks when its task is
done, and a foreseen wrong attempt gets its hint instead."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from explorer.core.http.api_version import VERSION_STYLES
from explorer.ui.dialogs.version import VersionDialog
from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.course_pilot import compose, go, opened, send, wait
from tests.explorer.ui.lesson_pilot import (
    add_header,
    body,
    choose,
    done,
    lesson_app,
    log_in,
    missed,
    show_me,
)
from tests.explorer.ui.test_browse import follow

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
pytestmark = pytest.mark.lesson

V2_ADDRESS = (
    '{"name": "Ann", "address": {"streetAddress": "1 Main St", "city": "Springfield", '
    '"state": "IL", "zipCode": "62701"}}'
)


async def version(pilot: Pilot[int], number: str, style: str | None = None) -> None:
    """``v``: the version typed, its style chosen when given, Enter."""
    await pilot.press("v")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, VersionDialog)
    await pilot.press(*number)
    if style is not None:
        await choose(pilot, dialog.query_one("#style", Select), VERSION_STYLES, style)
        dialog.query_one("#version").focus()
    await pilot.press("enter")
    await wait(pilot)


async def test_uri_none_first_then_v2() -> None:
    app, _ = lesson_app("version-uri")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "version-uri")
        await go(pilot, "/v3/customers/1")
        assert "supportedVersions" in missed(app)
        await go(pilot, "/customers/1")
        assert "the server chose its default: API-Version: 1" in missed(app)
        await go(pilot, "/v2/customers/1")
        assert done(app)


async def test_query_by_the_version_dialog() -> None:
    app, _ = lesson_app("version-query")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "version-query")
        await go(pilot, "/customers/1?api-version=2")
        assert "called version" in missed(app)
        await go(pilot, "/customers/1")
        await version(pilot, "2", "query")
        assert done(app)


async def test_header_by_the_version_dialog() -> None:
    app, _ = lesson_app("version-header")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "version-header")
        await go(pilot, "/v2/customers/1")
        assert "asked for in the URL" in missed(app)
        await go(pilot, "/customers/1")
        await compose(pilot)
        await add_header(pilot, "Accept-Version", "2")
        await send(pilot)
        assert "Its header is Custom-Header" in missed(app)
        await compose(pilot)
        await add_header(pilot, "Custom-Header", "2")
        await send(pilot)
        assert missed(app).startswith("400: the mock's header takes the form name=value")
        await go(pilot, "/customers/1")
        await version(pilot, "2")  # the header style is the dialog's first offer
        assert done(app)


async def test_media_type_ignored_then_a_way_the_mock_offers() -> None:
    app, _ = lesson_app("version-media-type")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "version-media-type")
        await go(pilot, "/customers/1")
        await version(pilot, "2", "media-type")
        assert missed(app).startswith("API-Version: 1. The mock does not choose versions")
        await go(pilot, "/v2/customers/1")
        assert done(app)


async def test_v2_address_a_422_then_version_2() -> None:
    app, _ = lesson_app("v2-address")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "v2-address")
        await log_in(pilot, "alice", "wonderland")
        await follow(pilot, "create")
        await wait(pilot)
        await body(pilot, V2_ADDRESS)
        await send(pilot)
        assert missed(app).startswith("422: the server read your request as version 1")
        await go(pilot, "/customers")
        await version(pilot, "2")
        await follow(pilot, "create")
        await wait(pilot)
        await body(pilot, V2_ADDRESS)
        await send(pilot)
        assert done(app)


async def test_v2_address_show_me() -> None:
    app, _ = lesson_app("v2-address")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "v2-address")
        await show_me(pilot)
        await send(pilot)
        assert done(app)


async def test_v2_address_in_version_1_then_the_same_name_then_another() -> None:
    app, _ = lesson_app("v2-address")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, "v2-address")
        await log_in(pilot, "alice", "wonderland")
        await compose(pilot, method="POST")
        await body(pilot, '{"name": "Ann", "address": "1 Main St, Springfield, IL 62701"}')
        await send(pilot)
        assert missed(app).startswith("Created, but in version 1")
        await show_me(pilot)
        await send(pilot)
        assert missed(app).startswith("409: a customer with that name exists already")
        await compose(pilot)  # c on the 409: the same request, another name
        await body(pilot, V2_ADDRESS.replace("Ann", "Bea"))
        await send(pilot)
        assert done(app)
