"""Every lesson of the first chapters, done as a learner does it: the real keys, then the
tick; and a foreseen wrong attempt, which gets the lesson's hint and no tick."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot

from explorer.core.course.catalog import bundled_course
from explorer.ui.app import RestwalkApp
from explorer.ui.dialogs.template_form import TemplateForm
from explorer.ui.widgets.links_panel import LinksPanel
from tests.explorer.ui.conftest import SIZE
from tests.explorer.ui.course_pilot import (
    compose,
    course_app,
    go,
    header,
    opened,
    send,
    state,
    wait,
)
from tests.explorer.ui.test_browse import follow, type_number

#: Each lesson walked with the real keys: slow, and the same on any Python (run once in CI).
#: Among the suite's longest files: started early (see tests/conftest.py).
pytestmark = [pytest.mark.lesson, pytest.mark.early]

Steps = Callable[[Pilot[int]], Awaitable[None]]

#: The chapters whose every lesson is tested here.
CHAPTERS = ("resources", "methods", "statuses", "hypermedia", "paging", "negotiation")


async def follow_to(pilot: Pilot[int], path: str) -> None:
    """Follow the first link to ``path`` by typing its number."""
    links = pilot.app.browser.query_one(LinksPanel).links  # type: ignore[attr-defined]
    number = next(n for n, link in enumerate(links, 1) if link.href.endswith(path))
    await type_number(pilot, number)


def hint_of(lesson_id: str, number: int) -> str:
    """The text of hint ``number`` of a lesson, as its file says it."""
    lesson = next(lesson for lesson in bundled_course().lessons if lesson.id == lesson_id)
    return lesson.hints[number].text


async def lesson(lesson_id: str, steps: Steps) -> RestwalkApp:
    """Open ``lesson_id``, do ``steps``, and give the app back (its panel to read)."""
    app = course_app(lesson_id)
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot, lesson_id)
        assert not state(app).startswith("✓")
        await steps(pilot)
        await wait(pilot)
        app.course_state = state(app)  # type: ignore[attr-defined]
    return app


async def done(lesson_id: str, steps: Steps) -> None:
    app = await lesson(lesson_id, steps)
    assert app.course_state.startswith("✓ Done!"), app.course_state  # type: ignore[attr-defined]


async def missed(lesson_id: str, steps: Steps, hint: int) -> None:
    app = await lesson(lesson_id, steps)
    said = app.course_state  # type: ignore[attr-defined]
    assert said == f"Not yet: {hint_of(lesson_id, hint)}", said


# -- resources ---------------------------------------------------------------------------------


async def test_first_request() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers/2")

    async def right(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers/2")
        await go(pilot, "/customers/1")

    await missed("first-request", wrong, 0)
    await done("first-request", right)


async def test_collection() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/products/2")

    async def right(pilot: Pilot[int]) -> None:
        await follow(pilot, "rw:products")
        await wait(pilot)
        await follow_to(pilot, "/products/2")

    await missed("collection", wrong, 0)
    await done("collection", right)


# -- methods -----------------------------------------------------------------------------------


async def test_options() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await compose(pilot, method="OPTIONS", url="/customers")
        await send(pilot)

    async def right(pilot: Pilot[int]) -> None:
        await compose(pilot, method="OPTIONS")
        await send(pilot)

    await missed("options", wrong, 0)
    await done("options", right)


async def test_head() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await compose(pilot, method="HEAD", url="/customers/2")
        await send(pilot)

    async def right(pilot: Pilot[int]) -> None:
        await compose(pilot, method="HEAD")
        await send(pilot)

    await missed("head", wrong, 0)
    await done("head", right)


async def test_not_allowed() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await compose(pilot, method="BREW")
        await send(pilot)

    async def right(pilot: Pilot[int]) -> None:
        await compose(pilot, method="DELETE")
        await send(pilot)

    await missed("not-allowed", wrong, 1)
    await done("not-allowed", right)


async def test_unknown_method() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await compose(pilot, method="TRACE", url="/customers")
        await send(pilot)

    async def right(pilot: Pilot[int]) -> None:
        await compose(pilot, method="BREW", url="/customers")
        await send(pilot)

    await missed("unknown-method", wrong, 0)
    await done("unknown-method", right)


# -- statuses ----------------------------------------------------------------------------------


async def test_client_error() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers/3")

    async def right(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers/9999")

    await missed("client-error", wrong, 0)
    await done("client-error", right)


async def test_server_error() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/status/500")

    async def right(pilot: Pilot[int]) -> None:
        await go(pilot, "/status/503")

    await missed("server-error", wrong, 0)
    await done("server-error", right)


async def test_redirection() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers/1")

    async def right(pilot: Pilot[int]) -> None:
        await follow(pilot, "rw:clients")  # the old collection: 301 to /customers
        await wait(pilot)
        await go(pilot, "/clients/1")

    await missed("redirection", wrong, 0)
    await done("redirection", right)


# -- hypermedia --------------------------------------------------------------------------------


async def search(pilot: Pilot[int], name: str) -> None:
    await follow(pilot, "rw:customer-search")
    await pilot.pause()
    assert isinstance(pilot.app.screen, TemplateForm)
    await pilot.press(*name, "ctrl+s")


async def test_template() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await search(pilot, "nobody")

    async def right(pilot: Pilot[int]) -> None:
        await search(pilot, "grace")

    await missed("template", wrong, 0)
    await done("template", right)


async def test_follow() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/")

    async def right(pilot: Pilot[int]) -> None:
        await follow(pilot, "collection")
        await wait(pilot)
        await follow(pilot, "up")

    await missed("follow", wrong, 0)
    await done("follow", right)


# -- paging ------------------------------------------------------------------------------------


async def test_limit() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers?limit=500")

    async def right(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers?limit=5")

    await missed("limit", wrong, 0)
    await done("limit", right)


async def test_next() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/customers?limit=3&offset=300")

    async def by_number(pilot: Pilot[int]) -> None:
        await follow(pilot, "next")

    async def by_plus(pilot: Pilot[int]) -> None:
        await pilot.press("plus")

    await missed("next", wrong, 0)
    await done("next", by_number)
    await done("next", by_plus)


async def test_filter() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await go(pilot, "/products?mincost=20")

    async def right(pilot: Pilot[int]) -> None:
        await go(pilot, "/products?minCost=20")

    await missed("filter", wrong, 0)
    await done("filter", right)


# -- content negotiation -----------------------------------------------------------------------


async def test_accept() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await compose(pilot)
        await header(pilot, "Accept", "text/plain")
        await send(pilot)

    async def right(pilot: Pilot[int]) -> None:
        await compose(pilot)
        await header(pilot, "Accept", "application/xml")
        await send(pilot)

    await missed("accept", wrong, 0)
    await done("accept", right)


async def test_not_acceptable() -> None:
    async def wrong(pilot: Pilot[int]) -> None:
        await compose(pilot)
        await header(pilot, "Accept", "application/xml")
        await send(pilot)

    async def right(pilot: Pilot[int]) -> None:
        await compose(pilot)
        await header(pilot, "Accept", "text/csv")
        await send(pilot)

    await missed("not-acceptable", wrong, 0)
    await done("not-acceptable", right)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_lesson_of_these_chapters_is_done_here(chapter: str) -> None:
    tested = {
        name.removeprefix("test_").replace("_", "-")
        for name in globals()
        if name.startswith("test_") and not name.startswith("test_every")
    }
    lessons = {lesson.id for lesson in bundled_course().lessons_of(chapter)}
    assert lessons
    assert lessons <= tested
