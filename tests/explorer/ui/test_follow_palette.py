"""The palette's ``follow WORDS`` chooses a link as ``restwalk request --follow`` does.

On real frameworks' recorded answers (tests/explorer/wild, replayed in-process).
"""

from __future__ import annotations

import httpx
import orjson
import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, OptionList

from explorer.core.http.client import Client
from explorer.ui.app import RestwalkApp, create_app
from tests.explorer.ui.conftest import SIZE, AppFactory, settle
from tests.explorer.wild.recordings import replaying


async def palette(pilot: Pilot[int], typed: str) -> OptionList:
    """Open the palette and type ``typed``; its list of commands."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await pilot.pause()
    assert isinstance(app.screen, CommandPalette)
    app.screen.query_one(Input).value = typed
    await settle(pilot)
    return app.screen.query_one(OptionList)


def prompts(options: OptionList) -> list[str]:
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def shown_url(app: RestwalkApp) -> str:
    page = app.browser.session.shown
    assert page is not None
    assert page.exchange is not None
    return page.exchange.response.url


@pytest.mark.parametrize(
    ("name", "start", "words", "reached"),
    [
        ("eve", "http://localhost:18401/", "child[title=books]", "http://localhost:18401/books"),
        # a CURIE (lib:books) and a URI relation (http://x.io/rels/authors) by their last word
        ("halson", "http://localhost:18201/", "books", "http://localhost:18201/books"),
        ("siren-writer", "http://localhost:18202/", "authors", "http://localhost:18202/authors"),
        (
            "json-server-1",
            "http://localhost:18302/books",
            "item#11",
            "http://localhost:18302/books/11",
        ),
        (
            "httpbin",
            "http://localhost:18501/links/10/0",
            "related[title=1]",
            "http://localhost:18501/links/10/1",
        ),
    ],
)
async def test_follow_words_in_the_palette(name: str, start: str, words: str, reached: str) -> None:
    app = create_app(start, client=Client(transport=replaying(name)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = await palette(pilot, f"follow {words}")
        assert prompts(options)[0].startswith(f"follow {words}\nGET {reached}")
        await pilot.press("enter")
        await settle(pilot)
        assert shown_url(app) == reached


async def test_the_palette_offers_the_page_s_links_by_their_words() -> None:
    app = create_app("http://localhost:18401/", client=Client(transport=replaying("eve")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = await palette(pilot, "follow")
        assert prompts(options) == [
            "follow child\nGET http://localhost:18401/books · books",
            "follow child[title=authors]\nGET http://localhost:18401/authors · authors",
        ]
        options = await palette(pilot, "follow nothing-like-this")
        assert prompts(options) == [
            "follow nothing-like-this\nno link of this page matches 'nothing-like-this'; "
            "its relations: child"
        ]


HOSTILE = {
    "_links": {
        "self": {"href": "/"},
        "[b]bold[/b]": {"href": "/a", "title": "[@click=app.quit]quit[/]\x1b[2J"},
    }
}


def hostile(request: httpx.Request) -> httpx.Response:
    body = orjson.dumps(HOSTILE if request.url.path == "/" else {"ok": True})
    return httpx.Response(200, content=body, headers={"Content-Type": "application/hal+json"})


async def test_server_words_in_the_palette_are_text_not_markup() -> None:
    app = create_app("http://h/", client=Client(transport=httpx.MockTransport(hostile)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = await palette(pilot, "follow")
        assert "follow [b]bold[/b]\nGET http://h/a · [@click=app.quit]quit[/]␛[2J" in prompts(
            options
        )
        await pilot.click(OptionList, offset=(4, 3))  # a click on it follows, quits nothing
        await settle(pilot)
        assert app.is_running
        options = await palette(pilot, "follow [b]bold[/b]")
        await pilot.press("enter")
        await settle(pilot)
        assert shown_url(app) == "http://h/a"


async def test_the_link_the_words_name_comes_first() -> None:
    # Two 'next' links (the Link header's and the body's, to two URLs): "follow next" names
    # the first, though the palette's matcher scores "follow next#2" too.
    def two_nexts(request: httpx.Request) -> httpx.Response:
        if request.url.path != "/":
            return httpx.Response(200, json={})
        return httpx.Response(
            200,
            headers={"Link": '</b>; rel="next"'},
            json={"_links": {"next": {"href": "/c"}}},
        )

    app = create_app("http://h/", client=Client(transport=httpx.MockTransport(two_nexts)))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = await palette(pilot, "follow next")
        assert prompts(options)[:2] == [
            "follow next\nGET http://h/c",
            "follow next#2\nGET http://h/b",
        ]
        await pilot.press("enter")
        await settle(pilot)
        assert shown_url(app) == "http://h/c"


async def test_one_next_in_the_body_and_the_header_is_offered_once(make_app: AppFactory) -> None:
    # The mock's next page is in its _links and in its Link header: one link, one offer.
    app = make_app("http://mock/customers?limit=5")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = await palette(pilot, "follow next")
        nexts = [prompt for prompt in prompts(options) if prompt.startswith("follow next")]
        assert nexts == ["follow next\nGET http://mock/customers?limit=5&offset=5"]


async def test_follow_words_no_link_matches_say_so_and_name_the_relations(
    make_app: AppFactory,
) -> None:
    """QA pass 2, 12: the palette said only "No matches found"; --follow on the command
    line names the relations there are."""
    app = make_app("http://mock/customers?limit=2")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        options = await palette(pilot, "follow nosuchrel")
        (said,) = prompts(options)
        assert said.startswith("follow nosuchrel\nno link of this page matches 'nosuchrel'; ")
        assert "its relations: " in said
        assert "next" in said
        await pilot.press("enter")
        await settle(pilot)
        assert shown_url(app) == "http://mock/customers?limit=2"  # nothing followed
        notes = [str(n.message) for n in app._notifications]
        assert any(note.startswith("no link of this page matches 'nosuchrel'") for note in notes)
        options = await palette(pilot, "history")  # other commands: no such line
        assert not any("no link" in prompt for prompt in prompts(options))
