"""The trip tab's sizes and timings say what went over the wire: nothing for a cache hit,
and "compressed" only for a body that was (a masked copy is not); the person's wait, from
the key to the page drawn, in phases that add up to it."""

from __future__ import annotations

import re
from dataclasses import replace

import httpx
import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from explorer.core.http.client import Client
from explorer.core.http.exchange import (
    CacheNote,
    Exchange,
    Hop,
    ReceivedResponse,
    SentRequest,
    Timings,
)
from explorer.core.http.masking import mask_exchange
from explorer.core.http.phases import PHASES, Wait
from explorer.core.text.terminal_text import cells
from explorer.ui.app import create_app
from explorer.ui.widgets.trip_view import URL_LINES, TripView, trip_text
from mock_server import Settings
from mock_server import create_app as create_mock_app
from tests.explorer.core.test_phases import Counter
from tests.explorer.ui.conftest import ROOT, SIZE, settle, until
from tests.explorer.ui.test_browse import follow
from tests.mock_server.conftest import TEST_HOSTS

URL = "http://api.test/auth/token"


def exchange(
    body: bytes,
    *,
    wire: int | None = None,
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),),
    cache: CacheNote | None = None,
) -> Exchange:
    request = SentRequest(
        "POST", URL, (("Content-Type", "application/json"),), b'{"password": "wonderland"}'
    )
    response = ReceivedResponse(
        200, "OK", "HTTP/1.1", headers, body, URL, len(body) if wire is None else wire
    )
    return Exchange(request, request, response, timings=Timings(0.012, 0.015), cache=cache)


def test_a_masked_body_is_not_said_to_be_compressed() -> None:
    token = b'{"access_token": "' + b"e" * 140 + b'", "token_type": "Bearer"}'
    kept = mask_exchange(exchange(token))
    assert kept.masked
    text = trip_text(kept).plain
    assert "compressed" not in text
    assert f"body           {len(kept.response.body)} B as kept (its secrets masked)" in text
    assert f"as received    {len(token)} B" in text


def test_a_compressed_body_says_so() -> None:
    text = trip_text(exchange(b"x" * 3000, wire=120, headers=(("Content-Encoding", "gzip"),))).plain
    assert "on the wire    120 B (compressed)" in text
    assert "body           3 KB\n" in text


def test_an_uncompressed_body_has_no_wire_line() -> None:
    text = trip_text(exchange(b"x" * 300)).plain
    assert "on the wire" not in text
    assert "headers after      12.0 ms" in text


def test_a_fresh_cache_hit_says_nothing_was_sent() -> None:
    note = CacheNote("fresh", "from the cache: fresh for another 42 s (max-age=60)")
    text = trip_text(exchange(b"x" * 600, wire=628, cache=note)).plain
    assert "Nothing was sent: the session's cache answered" in text
    assert "headers after" not in text
    assert "complete after" not in text
    assert "on the wire    nothing" in text
    assert "compressed" not in text
    assert "body           600 B (from the cache)" in text
    assert "request body" not in text


def test_a_revalidated_answer_says_what_went_and_came() -> None:
    note = CacheNote("revalidated", "revalidated: 304 Not Modified, body from the cache")
    text = trip_text(exchange(b"x" * 600, wire=0, cache=note)).plain
    assert "headers after      12.0 ms" in text  # the conditional request was sent
    assert "body           600 B (from the cache)" in text
    assert "on the wire    a 304 Not Modified, without a body" in text


def test_the_wait_is_shown_in_phases_that_add_up_to_it() -> None:
    timed = Timings(0.002, 0.003, ended=10.004, marks=(("send", 10.0015), ("wait", 10.002)))
    made = exchange(b"{}")
    made = Exchange(made.request, made.final, made.response, timings=timed)
    wait = Wait(asked_at=10.0, shown_at=10.0165)
    text = trip_text(made, wait).plain
    assert "you waited         16.5 ms  from key to page drawn" in text
    assert "queue             1.5 ms" in text
    assert "wait              2.0 ms  the server" in text
    assert "show             12.5 ms  restwalk" in text
    assert "restwalk's own     14.0 ms  queue and show" in text
    assert "wire, server        2.5 ms  connect, send, wait, receive" in text
    assert "complete after      3.0 ms  (the exchange alone)" in text
    assert "you waited" not in trip_text(made, Wait(asked_at=10.0)).plain  # not drawn yet


async def test_the_trip_tab_says_the_wait_for_a_followed_link_once_drawn() -> None:
    clock = Counter()
    app_under_test = create_mock_app(Settings(allowed_hosts=TEST_HOSTS))
    transport = httpx.ASGITransport(app=app_under_test)
    app = create_app(ROOT, client=Client(transport=transport, clock=clock))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        start = app.browser.session.shown
        assert start is not None
        assert start.wait is None  # no key asked for the start page: no wait to say
        await pilot.press("t")
        await settle(pilot)
        assert "you waited" not in str(app.browser.query_one(TripView).render())
        await follow(pilot, "rw:customers")
        await settle(pilot)
        page = app.browser.session.shown
        assert page is not None
        assert page.exchange is not None
        assert page.wait is not None
        assert page.wait.shown_at is not None
        phases = page.wait.phases(page.exchange.timings)
        assert phases is not None
        assert phases.total == pytest.approx(page.wait.shown_at - page.wait.asked_at)
        assert phases.show > 0
        shown = str(app.browser.query_one(TripView).render())  # refilled once drawn
        assert f"you waited     {phases.total * 1000:8.1f} ms" in shown


def redirected() -> Exchange:
    """Two redirects, the last to a long URL, timed, from a fresh cache entry's store."""
    long = "http://api.test/customers?page=2&size=20&sort=name&filter=active&fields=id,name"
    first = SentRequest("GET", "http://api.test/redirect/2", (), b"")
    moved = ReceivedResponse(302, "Found", "HTTP/1.1", (("Location", "/redirect/1"),), b"", "", 0)
    second = SentRequest("GET", "http://api.test/redirect/1", (), b"")
    moved_on = ReceivedResponse(
        307, "Temporary Redirect", "HTTP/1.1", (("Location", long),), b"", "", 0
    )
    final = SentRequest("GET", long, (), b"")
    response = ReceivedResponse(200, "OK", "HTTP/1.1", (), b"x" * 2150, long, 827)
    hops = (Hop(first, moved), Hop(second, moved_on))
    timed = Timings(
        0.0307,
        0.0313,
        ended=10.0313,
        marks=(("connect", 10.0057), ("send", 10.0067), ("wait", 10.0071), ("receive", 10.0302)),
    )
    note = CacheNote(
        "stored",
        "stored in the cache: fresh for 60 s (max-age=60)",
        (
            "Cache-Control: max-age=60 lets a cache reuse it for 60 s without asking"
            " (RFC 9111 §4.2).",
        ),
    )
    return Exchange(first, final, response, hops=hops, timings=timed, cache=note)


WAIT = Wait(asked_at=10.0, shown_at=10.0429)


@pytest.mark.parametrize("width", [34, 38, 62, 100])
def test_every_line_fits_the_pane_and_the_phases_still_add_up(width: int) -> None:
    text = trip_text(redirected(), WAIT, width).plain
    assert all(cells(line) <= width for line in text.splitlines())
    assert "you waited         42.9 ms" in text
    phases = WAIT.phases(redirected().timings)
    assert phases is not None
    shown = [
        float(line.split()[2]) for line in text.splitlines() if line[2:3] == "█" and " ms" in line
    ]
    assert len(shown) == len(PHASES)
    assert sum(shown) == pytest.approx(phases.total * 1000, abs=0.05 * len(PHASES))
    assert not re.search(r"\d\n *(ms|s|B|KB)\b", text)  # a figure's unit stays with it


def test_a_long_url_is_shown_whole_under_its_hop() -> None:
    # QA: at 80 columns a hop's URL wrapped to the pane's left edge; cutting it in the
    # middle hid the part a person reads a redirect for. It goes under its hop, whole.
    url = redirected().final.url
    lines = trip_text(redirected(), WAIT, 38).plain.splitlines()
    at = lines.index("3. GET")
    under = []
    for line in lines[at + 1 :]:
        if not line.startswith(" " * 6):
            break
        under.append(line)
    assert all(cells(line) <= 38 for line in under)
    assert "".join(line[6:] for line in under) == url  # every character, in order
    assert "…" not in "".join(under)
    unwrapped = trip_text(redirected(), WAIT).plain  # no width: on the hop's line
    assert f"3. GET {url}\n" in unwrapped


def test_a_hostile_servers_endless_url_is_cut_in_its_middle() -> None:
    exchange = redirected()
    long_url = "http://api.test/" + "a" * 5000 + "?end=here"
    final = replace(exchange.final, url=long_url)
    lines = trip_text(replace(exchange, final=final), WAIT, 38).plain.splitlines()
    at = lines.index("3. GET")
    under = lines[at + 1 : at + 1 + URL_LINES]
    assert all(line.startswith(" " * 6) and cells(line) <= 38 for line in under)
    joined = "".join(line[6:] for line in under)
    assert joined.startswith("http://api.test/")
    assert joined.endswith("end=here")
    assert "…" in joined
    assert not lines[at + 1 + URL_LINES].startswith(" " * 6 + "a")


class TripApp(App[None]):
    """The Trip tab's view in a pane half the screen wide, as the browser lays it out."""

    CSS = "#left { width: 1fr; } #right { width: 1fr; }"

    def __init__(self, exchange: Exchange) -> None:
        super().__init__()
        self.exchange = exchange

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield VerticalScroll(TripView(id="trip-view"), id="left")
            yield Static("", id="right")

    def on_mount(self) -> None:
        self.query_one(TripView).show_exchange(self.exchange, wait=WAIT)


@pytest.mark.parametrize("columns", [80, 120])
async def test_the_trip_is_laid_out_again_at_each_width(columns: int) -> None:
    app = TripApp(redirected())
    async with app.run_test(size=(columns, 40)) as pilot:
        await settle(pilot)
        view = app.query_one(TripView)
        shown = str(view.render())
        assert all(cells(line) <= view.size.width for line in shown.splitlines())
        assert "fields=id,name" in shown.replace("\n", "").replace(" ", "")  # whole
        assert view.tooltip is None  # nothing cut
        await pilot.resize_terminal(260, 40)
        await until(
            pilot, lambda: view.size.width > 120 and str(view.render()) != shown, "laid out wide"
        )
        long = redirected().final.url
        assert f"3. GET {long}" in str(view.render())  # on its hop's line now


async def test_at_80_columns_the_browsers_trip_fits_its_pane() -> None:
    """In the browser's own pane (half an 80-column screen), a redirect chain's trip has
    no line wider than the pane: nothing wraps to the left edge."""
    transport = httpx.ASGITransport(app=create_mock_app(Settings(allowed_hosts=TEST_HOSTS)))
    app = create_app(f"{ROOT}redirect/3", client=Client(transport=transport))
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        view = app.browser.query_one(TripView)
        assert 30 <= view.size.width <= 40
        shown = str(view.render())
        assert "Redirects: 3" in shown
        assert "4. GET http://mock/redirect/0" in shown
        assert all(cells(line) <= view.size.width for line in shown.splitlines())
