"""Rel paths: the words that choose a link, a template read back, a walk that survives new URLs."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.http.client import Client
from explorer.core.http.request import RequestSpec
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.templates import expand_template
from explorer.core.session.choice import choose_link
from explorer.core.session.loading import load_page, read_safely, with_reading
from explorer.core.session.rel_path import (
    PathError,
    RelPath,
    Step,
    rel_path,
    template_values,
    walk_path,
    words_for,
)
from explorer.core.session.trail import Page
from mock_server import Settings, create_app
from tests.mock_server.conftest import TEST_HOSTS


def link(rel: str, href: str, **fields: object) -> Link:
    return Link(rel=rel, href=f"http://api.test{href}", **fields)  # type: ignore[arg-type]


def test_the_plainest_words_that_choose_the_link() -> None:
    links = [
        link("next", "/p/2"),
        link("child", "/a", title="authors"),
        link("child", "/b", title="books"),
        link("child", "/c"),
        link("self", "/customers/1", title="Ada", source="/_embedded/customers/0/_links/self"),
        link("self", "/customers/2", source="/_embedded/customers/1/_links/self"),
        link("related", "/x", name="author"),
        link("related", "/y", name="editor"),
    ]
    assert words_for(links, links[0]) == "next"
    assert words_for(links, links[2]) == "child[title=books]"
    assert words_for(links, links[3]) == "child#3"
    assert words_for(links, links[4]) == "item[title=Ada]"
    assert words_for(links, links[5]) == "item#2"
    assert words_for(links, links[7]) == "related[name=editor]"
    assert words_for(links, link("other", "/z")) is None
    for target in links:
        words = words_for(links, target)
        assert words is not None
        assert choose_link(links, words) == target


def test_a_title_with_brackets_is_quoted() -> None:
    links = [link("child", "/a", title="a]b"), link("child", "/b", title="c")]
    words = words_for(links, links[0])
    assert words is not None
    assert choose_link(links, words) == links[0]


@pytest.mark.parametrize(
    ("template", "values"),
    [
        ("http://api.test/customers{?name,city,limit}", {"name": "Ada", "limit": "5"}),
        ("http://api.test/status/{code}", {"code": "418"}),
        ("http://api.test/products?version=2{&name,limit}", {"name": "tea cup"}),
        ("http://api.test/files{/path}", {"path": "a b"}),
        ("http://api.test/{+rest}", {"rest": "a/b/c"}),
    ],
)
def test_a_template_is_read_back_from_its_expansion(template: str, values: dict[str, str]) -> None:
    url = expand_template(template, values)
    assert template_values(template, url) == values


def test_a_url_the_template_does_not_give_is_none() -> None:
    assert template_values("http://api.test/status/{code}", "http://api.test/other/1") is None


@given(st.text(min_size=1, max_size=20), st.text(max_size=20))
def test_query_templates_read_back_any_value(name: str, city: str) -> None:
    template = "http://api.test/customers{?name,city}"
    url = expand_template(template, {"name": name, "city": city})
    found = template_values(template, url)
    assert found is not None
    assert expand_template(template, found) == url


# --- against the mock server --------------------------------------------------------------


def client_for(settings: Settings) -> Client:
    answering = replace(settings, allowed_hosts=TEST_HOSTS)
    return Client(transport=httpx.ASGITransport(app=create_app(answering)))


def loader(client: Client):  # type: ignore[no-untyped-def]
    async def load(spec: RequestSpec, via: str) -> Page:
        page = await load_page(client, spec, via)
        assert page.exchange is not None
        return with_reading(page, read_safely(page.exchange)) if page.reading else page

    return load


async def walk(client: Client, words: list[str]) -> list[Page]:
    load = loader(client)
    trail = [await load(RequestSpec(url="http://mock/"), "url")]
    for word in words:
        chosen = choose_link(trail[-1].links, word)
        assert chosen is not None, word
        url = chosen.href
        if chosen.templated:
            url = expand_template(chosen.href, {"name": "Ada"})
        trail.append(await load(RequestSpec(method=chosen.method, url=url), chosen.rel))
    return trail


async def test_the_path_of_a_walk_and_the_same_walk_again() -> None:
    async with client_for(Settings()) as client:
        trail = await walk(client, ["customers", "item#3", "rw:orders"])
        path = rel_path(trail)
        assert path.entry == "http://mock/"
        assert [s.follow for s in path.steps] == [
            "rw:customers",
            "item[title=Alan Turing]",
            "rw:orders",
        ]
        assert path.steps[1].was == "http://mock/customers/3"
        walked = await walk_path(path, loader(client))
    assert walked.arrived
    assert [p.spec.url for p in walked.pages] == [p.spec.url for p in trail]
    assert walked.pages[-1].status == 401  # the last page is shown as it answers


async def test_a_search_form_is_kept_with_its_values() -> None:
    async with client_for(Settings()) as client:
        trail = await walk(client, ["customer-search"])
        path = rel_path(trail)
        assert path.steps == (
            Step("rw:customer-search", (("name", "Ada"),), was=trail[-1].spec.url),
        )
        walked = await walk_path(path, loader(client))
    assert walked.pages[-1].spec.url == "http://mock/customers?name=Ada"


def library(ids: dict[str, int], authors: dict[str, int]) -> dict[str, object]:
    return {
        "authors": [{"id": i, "name": name} for name, i in authors.items()],
        "books": [
            {"id": ids["Dune"], "title": "Dune", "authorId": authors["Frank Herbert"]},
            {
                "id": ids["The Dispossessed"],
                "title": "The Dispossessed",
                "authorId": authors["Ursula K. Le Guin"],
            },
        ],
    }


async def test_a_path_survives_the_api_moving_its_resources(tmp_path: Path) -> None:
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    before.write_text(
        json.dumps(
            library(
                {"Dune": 2, "The Dispossessed": 1}, {"Ursula K. Le Guin": 1, "Frank Herbert": 2}
            )
        )
    )
    after.write_text(
        json.dumps(
            library(
                {"Dune": 710, "The Dispossessed": 33},
                {"Frank Herbert": 90, "Ursula K. Le Guin": 91},
            )
        )
    )
    async with client_for(Settings(data=before, read_only_data=True)) as client:
        trail = await walk(client, ["books", "item[title=Dune]", "author"])
    path = rel_path(trail)
    assert trail[-1].spec.url == "http://mock/authors/2"
    async with client_for(Settings(data=after, read_only_data=True)) as client:
        walked = await walk_path(path, loader(client))
    assert walked.arrived
    assert walked.pages[-1].spec.url == "http://mock/authors/90"
    assert walked.pages[-1].exchange is not None
    assert b"Frank Herbert" in walked.pages[-1].exchange.response.body


async def test_a_step_that_no_longer_matches_is_named() -> None:
    path = RelPath(
        "http://mock/",
        (Step("rw:customers"), Step("item[title=Nobody]", was="http://mock/customers/9")),
    )
    async with client_for(Settings()) as client:
        walked = await walk_path(path, loader(client))
    assert not walked.arrived
    assert walked.problem is not None
    assert "Step 2 of 2, 'item[title=Nobody]', matches no link" in walked.problem
    assert "http://mock/customers/9" in walked.problem
    assert len(walked.pages) == 2


async def test_a_walk_stops_at_an_error_before_the_last_step() -> None:
    path = RelPath("http://mock/orders", (Step("next"),))
    async with client_for(Settings()) as client:
        walked = await walk_path(path, loader(client))
    assert walked.problem is not None
    assert "answered 401" in walked.problem


async def test_an_action_is_never_followed_by_a_bookmark() -> None:
    path = RelPath("http://mock/customers", (Step("create"),))
    async with client_for(Settings()) as client:
        walked = await walk_path(path, loader(client))
    assert walked.problem is not None
    assert "is an action (POST" in walked.problem


def test_a_composed_post_cannot_start_a_path() -> None:
    post = Page(RequestSpec(method="POST", url="http://api.test/orders"), via="composer")
    with pytest.raises(PathError, match="POST"):
        rel_path([post])
    with pytest.raises(PathError):
        rel_path([])


def test_a_bookmark_is_named_by_the_link_that_led_there_else_the_page() -> None:
    from explorer.core.session.rel_path import bookmark_name

    root = Page(
        RequestSpec(url="http://api.test/"),
        links=(link("orders", "/orders?c=7", title="Orders of \x1b[31mAnn"),),
    )
    orders = Page(RequestSpec(url="http://api.test/orders?c=7"), via="orders")
    assert bookmark_name([root, orders]) == "Orders of ␛[31mAnn"  # server text, made visible
    untitled = Page(RequestSpec(url="http://api.test/"), links=(link("orders", "/orders?c=7"),))
    assert bookmark_name([untitled, orders]) == orders.label
    assert bookmark_name([root]) == root.label
    assert bookmark_name([]) == ""
