"""The breadcrumb: the path taken, another server named, the current page always shown."""

from __future__ import annotations

from dataclasses import replace

from textual.app import App, ComposeResult

from explorer.core.bodies.display import DisplayText
from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.http.request import RequestSpec
from explorer.core.session.trail import Page, Stack
from explorer.ui.widgets.breadcrumb import Breadcrumb


def page(url: str) -> Page:
    request = SentRequest("GET", url, ())
    response = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"", url)
    exchange = Exchange(request=request, final=request, response=response, timings=Timings(0, 0))
    return Page(RequestSpec(url=url), exchange=exchange)


class Crumbs(App[None]):
    def compose(self) -> ComposeResult:
        yield Breadcrumb()


async def shown(trail: list[Page], width: int) -> str:
    app = Crumbs()
    async with app.run_test(size=(width, 3)) as pilot:
        app.query_one(Breadcrumb).show_trail(trail)
        await pilot.pause()
        return str(app.query_one(Breadcrumb).render())


async def test_a_crumb_on_another_server_names_it() -> None:
    trail = [page("http://a.test/"), page("http://a.test/x"), page("http://b.test:8080/y")]
    assert await shown(trail, 80) == "/ > /x > b.test:8080/y (200)"


async def test_a_short_line_drops_the_oldest_crumbs_not_the_status() -> None:
    trail = [page(f"http://a.test/{'segment' * 3}/{n}") for n in range(6)]
    text = await shown(trail, 60)
    assert text.startswith("… > ")
    assert text.endswith("/segmentsegmentsegment/5 (200)")
    assert len(text) <= 58  # the widget's width less its padding


async def test_a_crumb_on_another_server_keeps_its_method_and_plus_in_front() -> None:
    # QA: an endless scroll whose next page was on another server read
    # "127.0.0.1:18712+/echo", and a POST there "b.test:8080POST /orders".
    posted = replace(
        page("http://b.test:8080/orders"), spec=RequestSpec("POST", "http://b.test:8080/orders")
    )
    assert await shown([page("http://a.test/"), posted], 80) == "/ > POST b.test:8080/orders (200)"
    first = page("http://a.test/items")
    added = page("http://b.test:8080/items")
    responses = tuple(p.exchange.response for p in (first, added) if p.exchange)
    added = replace(added, stack=Stack(responses, 1, DisplayText(b"")))
    assert await shown([first, added], 80) == "/items > +b.test:8080/items (200)"
