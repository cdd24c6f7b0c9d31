"""The course beside a tab, against the mock's ASGI app: resets, another client's change
(the lost update), and every exchange of the tab's client checked, with no Textual."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest

from explorer.core.course.catalog import Chapter, Course, ResetRequest
from explorer.core.course.driver import CourseDriver
from explorer.core.course.lesson import parse_lesson
from explorer.core.course.progress import Progress
from explorer.core.course.run import CourseRun, Outcome
from explorer.core.http.client import Client
from explorer.core.http.request import BasicAuth, RequestSpec
from explorer.core.session.tab import Tab
from mock_server import Settings, create_app
from tests.mock_server.conftest import TEST_HOSTS

ORIGIN = "http://mock"
ALICE = BasicAuth("alice", "wonderland")

LOST_UPDATE = """+++
id = "lost-update"
chapter = "conditional"
order = 1
title = "The lost update"
start = "/products/1"
task = "Change product 1's price without overwriting a colleague's change."

[check]
[[check.steps]]
name = "refused"
method = ["PUT", "PATCH"]
path = "/products/1"
status = 412
[[check.steps]]
name = "read"
method = "GET"
path = "${refused.path}"
[[check.steps]]
method = ["PUT", "PATCH"]
path = "${read.path}"
request_headers = { "If-Match" = "${read.response.ETag}" }
status = "2xx"

[[hints]]
text = "You changed it without If-Match: the colleague's price is lost."
[[hints.steps]]
method = ["PUT", "PATCH"]
status = "2xx"
not = { request_headers = { "If-Match" = "*" } }

[[others]]
after = { method = "GET", path = "/products/1", status = 200 }
method = "PATCH"
url = "/products/1"
body = '{"cost": 99.5}'
say = "Meanwhile a colleague changed the price."
[others.headers]
Authorization = "Basic YWxpY2U6d29uZGVybGFuZA=="
"Content-Type" = "application/merge-patch+json"
+++
Text.
"""


@dataclass
class Setup:
    driver: CourseDriver
    tab: Tab
    heard: list[Outcome]
    resets: list[int]


@pytest.fixture
async def setup() -> AsyncIterator[Setup]:
    app = create_app(Settings(rate_limit=None, allowed_hosts=TEST_HOSTS, allow_reset=True))
    lesson = parse_lesson(LOST_UPDATE)
    course = Course("t", (Chapter("conditional", "C"),), (lesson,), "here")
    resets: list[int] = []

    async def reset() -> None:
        app.service.store.reset()
        resets.append(1)

    async with (
        Client(transport=httpx.ASGITransport(app=app)) as mine,
        Client(transport=httpx.ASGITransport(app=app)) as others,
    ):
        tab = Tab(mine)
        driver = CourseDriver(
            CourseRun(course, ORIGIN, Progress.load(None, "t")), tab, others=others, reset=reset
        )
        heard: list[Outcome] = []
        driver.listeners.append(heard.append)
        yield Setup(driver, tab, heard, resets)
        await driver.aclose()
        assert driver._seen not in mine.observers


def patch(cost: float, etag: str | None = None) -> RequestSpec:
    headers = (("If-Match", etag),) if etag else ()
    return RequestSpec(
        method="PATCH",
        url=ORIGIN + "/products/1",
        headers=(*headers, ("Content-Type", "application/merge-patch+json")),
        body=f'{{"cost": {cost}}}'.encode(),
        auth=ALICE,
    )


async def test_the_lost_update_with_a_colleague(setup: Setup) -> None:
    driver, tab = setup.driver, setup.tab
    await driver.begin(0)
    assert setup.resets == [1]
    start = await tab.load(RequestSpec(url=driver.run.start_url))  # the lesson's start page
    await driver.settled()
    assert [o.text for o in setup.heard if o.kind == "said"] == [
        "Meanwhile a colleague changed the price. (PATCH /products/1: 200)"
    ]
    read_etag = start.exchange.response.header("etag")  # type: ignore[union-attr]
    refused = await tab.load(patch(10.0, read_etag))
    assert refused.status == 412  # the colleague changed it after the read
    fresh = await tab.load(RequestSpec(url=ORIGIN + "/products/1"))
    assert b"99.5" in fresh.exchange.response.body  # type: ignore[union-attr]
    etag = fresh.exchange.response.header("etag")  # type: ignore[union-attr]
    await tab.load(patch(11.0, etag))
    assert setup.heard[-1].kind == "passed"
    assert driver.run.done


async def test_a_write_without_if_match_gets_the_hint_and_a_new_lesson_is_reset(
    setup: Setup,
) -> None:
    driver, tab = setup.driver, setup.tab
    await driver.begin(0)
    await tab.load(RequestSpec(url=driver.run.start_url))
    await driver.settled()
    await tab.load(patch(12.0))
    assert setup.heard[-1] == Outcome(
        "near-miss", "You changed it without If-Match: the colleague's price is lost."
    )
    await driver.begin(0)  # again: the data is the seed's, the colleague comes again
    assert setup.resets == [1, 1]
    again = await tab.load(RequestSpec(url=ORIGIN + "/products/1"))
    assert b"12.0" not in again.exchange.response.body  # type: ignore[union-attr]
    await driver.settled()
    assert setup.heard[-1].text.startswith("Meanwhile a colleague")


async def test_a_teachers_server_is_reset_by_the_courses_request() -> None:
    app = create_app(Settings(rate_limit=None, allowed_hosts=TEST_HOSTS, allow_reset=True))
    lesson = parse_lesson(LOST_UPDATE)
    course = Course(
        "t", (Chapter("conditional", "C"),), (lesson,), "here", ResetRequest("POST", "/_reset")
    )
    seen: list[str] = []

    async def record(request: httpx.Request) -> None:
        seen.append(f"{request.method} {request.url.path}")

    async with (
        Client(transport=httpx.ASGITransport(app=app)) as mine,
        Client(transport=httpx.ASGITransport(app=app)) as others,
    ):
        others.http.event_hooks["request"].append(record)
        driver = CourseDriver(
            CourseRun(course, ORIGIN, Progress.load(None, "t")), Tab(mine), others=others
        )
        heard: list[Outcome] = []
        driver.listeners.append(heard.append)
        await mine.send(patch(50.0))  # a change before the lesson
        await driver.begin(0)
        assert seen == ["POST /_reset"]
        page = await mine.send(RequestSpec(url=ORIGIN + "/products/1"))
        assert b"50.0" not in page.response.body
        assert not [o for o in heard if o.kind == "said" and "reset" in o.text]
        await driver.aclose()
