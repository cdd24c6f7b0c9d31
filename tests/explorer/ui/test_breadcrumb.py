"""The breadcrumb: the path taken, another server named, the current page always shown."""

from __future__ import annotations

from textual.app import App, ComposeResult

from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest, Timings
from explorer.core.http.request import RequestSpec
from explorer.core.session.trail import Page
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
