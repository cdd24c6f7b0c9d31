"""Links built when read: the same links, the same order, the same count as built at once.

A HAL page's links are found as deferred entries (:mod:`explorer.core.hypermedia.found`)
and the session keeps the first in its order (:func:`first_ordered`), building only
those: whatever is read, in whatever order, is what an eager search gave.
"""

from __future__ import annotations

import json

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
from explorer.core.hypermedia import find_links, search_links
from explorer.core.hypermedia.found import FoundLinks
from explorer.core.hypermedia.link import Link
from explorer.core.session.ordering import first_ordered, ordered
from explorer.core.session.reading import MAX_LINKS, read_response

BASE = "http://api.test/v1/orders?page=1"
HAL = "application/hal+json"

KEYS = st.sampled_from(
    [
        "_links", "_embedded", "_templates", "_items", "href", "self", "next", "name", "title",
        "target", "method", "properties", "relationships", "embedded", "entry", "curies",
        "rw:x", "a/b", "0",
    ]
)  # fmt: skip
VALUES = st.sampled_from(["/x", "/x/1", "http://h/y", "{?q}", "/o{/id}", "", "rw", "POST", "put"])
DOCS = st.recursive(
    st.none() | st.booleans() | st.integers(0, 3) | VALUES,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(KEYS, children, max_size=5),
    max_leaves=50,
)
HEADERS = st.sampled_from(
    [[], [("Link", '</x>; rel="self"')], [("Link", '</x>; rel="next", </x/1>; rel="self"')]]
)


def search(doc: object, headers: list[tuple[str, str]], max_links: int) -> object:
    body = orjson.dumps(doc)
    return search_links(BASE, 200, headers, body, HAL, max_links=max_links)


def built(links: FoundLinks) -> int:
    """How many of ``links`` are built."""
    return sum(type(entry) is Link for entry in links.entries)


def assert_selfs_recorded(links: FoundLinks) -> None:
    """Every self link of an embedded run is where :attr:`FoundLinks.selfs` says."""
    recorded = sorted(set(links.selfs))
    assert recorded == links.selfs
    for start, stop in links.embedded:
        selfs = [at for at in range(start, stop) if links.entries[at][0] == "self"]
        assert [at for at in recorded if start <= at < stop] == selfs


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    doc=st.dictionaries(KEYS, DOCS, max_size=6),
    headers=HEADERS,
    max_links=st.integers(1, 40),
    count=st.integers(0, 12),
)
def test_the_first_links_kept_are_those_of_every_link_built(
    doc: dict[str, object], headers: list[tuple[str, str]], max_links: int, count: int
) -> None:
    body = orjson.dumps(doc)
    eager = search_links(BASE, 200, headers, body, HAL, max_links=max_links, build=True)
    lazy = search_links(BASE, 200, headers, body, HAL, max_links=max_links)
    assert len(lazy.found) == len(eager.links)
    assert lazy.stopped == eager.stopped
    assert_selfs_recorded(lazy.found)
    assert_selfs_recorded(eager.found)
    assert first_ordered(lazy.found, count) == ordered(tuple(eager.links))[:count]
    assert lazy.links == eager.links  # (what was not kept, built now)
    backwards = search_links(BASE, 200, headers, body, HAL, max_links=max_links)
    assert [backwards.found[i] for i in reversed(range(len(backwards.found)))] == list(
        reversed(eager.links)
    )


def page(orders: int) -> bytes:
    """A HAL page of ``orders`` embedded orders, each with links and a form."""
    return orjson.dumps(
        {
            "_links": {"self": {"href": "/orders"}, "next": {"href": "/orders?page=2"}},
            "_embedded": {
                "orders": [
                    {
                        "id": n,
                        "_links": {
                            "self": {"href": f"/orders/{n}"},
                            "customer": {"href": f"/customers/{n}", "title": "Who"},
                            "items": [{"href": f"/items/{n}"}, {"href": f"/items/{n + 1}"}],
                        },
                        "_templates": {"default": {"method": "PUT"}},
                    }
                    for n in range(orders)
                ]
            },
        }
    )


def test_a_page_keeps_its_first_links_and_builds_those_only() -> None:
    lazy = search_links(BASE, 200, [], page(500), HAL)
    assert len(lazy.found) == 2 + 500 * 5  # found, counted, none of the orders' built
    assert built(lazy.found) < 10  # (the page's own, and the few a later pass read)
    kept = first_ordered(lazy.found, 100)
    assert kept == ordered(tuple(find_links(BASE, 200, [], page(500), HAL)))[:100]
    assert kept[0].rel == "next"  # the page's navigation, then its items (self: later)
    assert [link.source for link in kept[1:3]] == [
        "/_embedded/orders/0/_links/self",
        "/_embedded/orders/1/_links/self",
    ]
    assert built(lazy.found) < 110  # and the orders' self links kept


def test_read_response_keeps_the_same_links_and_counts_them_all() -> None:
    body = page(MAX_LINKS // 4)  # more links than a page keeps
    sent = SentRequest("GET", BASE, (("Accept", HAL),))
    received = ReceivedResponse(200, "OK", "HTTP/1.1", (("Content-Type", HAL),), body, BASE)
    reading = read_response(Exchange(request=sent, final=sent, response=received))
    every = find_links(BASE, 200, received.headers, body, HAL)
    assert reading.found == len(every) == 2 + MAX_LINKS // 4 * 5
    assert reading.links == ordered(tuple(every))[:MAX_LINKS]


def deferred(rel: str, href: str) -> tuple[object, ...]:
    """A deferred entry whose link is ``Link(rel, href)``."""
    return (rel, lambda entry: Link(entry[0], entry[3]), None, href)


def test_a_deferred_link_is_built_once_when_read() -> None:
    links = FoundLinks([Link("a", "http://h/a")])
    links.entries.append(deferred("b", "http://h/b"))
    assert list(links.rels()) == ["a", "b"]
    assert links.names([1, 0]) == [None, None]
    assert built(links) == 1  # read, not built
    assert links[1] == Link("b", "http://h/b")
    assert links[1] is links[1]
    assert built(links) == 2
    assert links == [Link("a", "http://h/a"), Link("b", "http://h/b")]
    assert links != [Link("a", "http://h/a")]
    assert "Link(rel='b'" in repr(links)


def test_build_and_take_build_what_they_give() -> None:
    links = FoundLinks()
    links.entries.extend(deferred(rel, f"http://h/{rel}") for rel in "abc")
    assert [link.rel for link in links.take([2, 0])] == ["c", "a"]
    assert built(links) == 2
    links.build()
    assert built(links) == 3
    assert links[0:2] == [Link("a", "http://h/a"), Link("b", "http://h/b")]


def test_the_embedded_runs_follow_what_is_taken_out() -> None:
    links = FoundLinks(Link(str(n), f"http://h/{n}") for n in range(10))
    links.mark_embedded(10)  # nothing since
    assert links.embedded == []
    links.entries.extend(deferred("e", "http://h/e") for _ in range(4))
    links.mark_embedded(12)
    links.mark_embedded(10)  # (a resource holding the one just marked)
    assert links.embedded == [[10, 14]]
    del links[0]  # a header link folded into the body's
    assert links.embedded == [[9, 13]]
    del links[11:]  # the links past a bound
    assert links.embedded == [[9, 11]]
    del links[9]
    assert links.embedded == [[9, 10]]
    del links[::2]  # (anything else: not known any more)
    assert links.embedded == []


def test_the_self_links_recorded_follow_what_is_taken_out() -> None:
    links = FoundLinks()
    links.entries.extend(deferred(rel, "http://h/x") for rel in ["a", "self", "b", "self", "self"])
    links.selfs.extend([1, 3, 4])
    links.mark_embedded(0)
    del links[0]  # a header link folded into the body's
    assert links.selfs == [0, 2, 3]
    del links[1:3]  # (a self among them)
    assert links.selfs == [0, 1]
    links[1] = Link("self", "http://h/y")  # (the same relation: still known)
    assert links.selfs == [0, 1]
    assert links.embedded == [[0, 2]]
    links[0] = Link("next", "http://h/n")  # (a self no more: none is known)
    assert links.selfs == []
    assert links.embedded == []


def test_putting_a_link_among_the_embedded_forgets_them() -> None:
    links = FoundLinks(Link("a", "http://h/a") for _ in range(3))
    links.mark_embedded(1)
    links.append(Link("z", "http://h/z"))  # after the run: it stays
    assert links.embedded == [[1, 3]]
    links.insert(2, Link("b", "http://h/b"))
    assert links.embedded == []
    links.mark_embedded(0)
    links[0:1] = [Link("c", "http://h/c")]
    assert links.embedded == []
    links[0] = Link("d", "http://h/d")
    assert links[0].rel == "d"


def test_an_embedded_self_with_a_name_is_ranked_as_built() -> None:
    doc = {
        "_embedded": {
            "relationships": [
                {"_links": {"self": {"href": "/r/1", "name": "one"}}},
                {"_links": {"self": {"href": "/r/2"}}},
            ],
        },
        "_links": {"self": {"href": "/r"}},
    }
    body = json.dumps(doc).encode()
    lazy = search_links(BASE, 200, [], body, HAL)
    every = find_links(BASE, 200, [], body, HAL)
    assert first_ordered(lazy.found, 10) == ordered(tuple(every))
    assert [link.href for link in first_ordered(lazy.found, 10)][-1] == "http://api.test/r/1"
