"""A search bounded for a page's reading: the same links kept, in the same order, the same count.

``search_links(..., keep=N)`` records the first N links of embedded resources other
than their ``self`` links and only counts the rest (:data:`NOT_KEPT`): whatever the
page, the first N links in the session's order, how many there are and why the search
stopped are what a search of every link built gives.
"""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.core.http.exchange import Exchange, ReceivedResponse, SentRequest
from explorer.core.hypermedia import find_links, search_links
from explorer.core.hypermedia.collector import Collector
from explorer.core.hypermedia.conventions import add_convention_links
from explorer.core.hypermedia.found import NOT_KEPT, FoundLinks
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.resolve import Resolver
from explorer.core.session.ordering import first_ordered, ordered
from explorer.core.session.reading import MAX_LINKS, read_response

BASE = "http://api.test/v1/orders?page=1"
HAL = "application/hal+json"

RELS = st.sampled_from(["self", "next", "item", "rw:x", "previous", "edit", "relationships"])
HREFS = st.sampled_from(["/x", "/x/1", "http://h/y", "/o{?q}", "", "/orders?page=2"])
LINK = st.one_of(
    st.fixed_dictionaries({"href": HREFS}),
    st.fixed_dictionaries(
        {"href": HREFS}, optional={"name": st.sampled_from(["a", "b"]), "title": st.just("T")}
    ),
    st.lists(st.fixed_dictionaries({"href": HREFS}), max_size=3),
    st.lists(st.fixed_dictionaries({"href": HREFS, "name": st.just("n")}), max_size=2),
    HREFS,
    st.none(),
)
LINKS = st.dictionaries(RELS, LINK, max_size=4)
TEMPLATES = st.dictionaries(
    st.sampled_from(["default", "self", "cancel"]),
    st.fixed_dictionaries({}, optional={"method": st.just("POST"), "target": HREFS}),
    max_size=2,
)


def resources(depth: int) -> st.SearchStrategy[dict[str, object]]:
    """HAL resources, with embedded ones ``depth`` levels down at most."""
    members: dict[str, st.SearchStrategy[object]] = {
        "_links": LINKS,
        "_templates": TEMPLATES,
        "edit": HREFS,  # (its data: a URL that may repeat a link's, guessed)
        "next": HREFS,
        "id": st.integers(0, 3),
    }
    if depth:
        inner = resources(depth - 1)
        members["_embedded"] = st.dictionaries(
            st.sampled_from(["orders", "relationships", "x"]),
            st.one_of(inner, st.lists(inner, max_size=5)),
            max_size=2,
        ) | st.lists(inner, max_size=4)
        members["_items"] = st.lists(inner, max_size=3)
    return st.fixed_dictionaries({}, optional=members)


HEADERS = st.sampled_from(
    [
        [],
        [("Link", '</x>; rel="self"')],
        [("Link", '</x>; rel="next", </x/1>; rel="item", </orders?page=2>; rel="next"')],
    ]
)


def searched(
    doc: object, headers: list[tuple[str, str]], max_links: int, keep: int
) -> tuple[FoundLinks, str | None, list[Link], str | None]:
    """The bounded search's links and stop, and every link built and its stop."""
    body = orjson.dumps(doc)
    bounded = search_links(BASE, 200, headers, body, HAL, max_links=max_links, keep=keep)
    every = search_links(BASE, 200, headers, body, HAL, max_links=max_links, build=True)
    return bounded.found, bounded.stopped, every.links, every.stopped


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    doc=resources(3),
    headers=HEADERS,
    max_links=st.integers(1, 80),
    keep=st.integers(0, 12),
)
def test_a_bounded_search_keeps_the_links_every_link_built_gives(
    doc: dict[str, object], headers: list[tuple[str, str]], max_links: int, keep: int
) -> None:
    found, stopped, every, every_stopped = searched(doc, headers, max_links, keep)
    assert len(found) == len(every)
    assert stopped == every_stopped
    assert first_ordered(found, keep) == ordered(tuple(every))[:keep]


def page(orders: int) -> dict[str, object]:
    """A HAL page of ``orders`` embedded orders, each with links and forms."""
    return {
        "_links": {"self": {"href": "/orders"}, "next": {"href": "/orders?page=2"}},
        "_embedded": {
            "orders": [
                {
                    "_links": {
                        "self": {"href": f"/orders/{n}"},
                        "customer": {"href": f"/customers/{n}", "title": "Who"},
                        "items": [{"href": f"/items/{n}"}, {"href": f"/items/{n + 1}"}],
                    },
                    "_templates": {"default": {"method": "PUT"}, "cancel": {"method": "POST"}},
                }
                for n in range(orders)
            ]
        },
    }


@pytest.mark.parametrize(
    ("orders", "keep"),
    [
        (5, 50),  # its own links and the orders' selfs fill not the bound: others kept
        (20, 30),  # some of the others kept, the rest counted
        (500, 100),  # the selfs fill it: none of the others kept
    ],
)
def test_a_page_bounded_keeps_and_counts_as_every_link_built(orders: int, keep: int) -> None:
    found, stopped, every, _ = searched(page(orders), [], 10**6, keep)
    assert stopped is None
    assert len(found) == len(every) == 2 + orders * 6
    kept = first_ordered(found, keep)
    assert kept == ordered(tuple(every))[:keep]
    others = orders * 5  # (customer, two items, two forms)
    assert found.entries.count(NOT_KEPT) == max(0, others - keep)
    if orders * 6 + 2 < keep:
        assert len(kept) == len(every)  # every one, the orders' own last
        assert kept[-1].source == f"/_embedded/orders/{orders - 1}/_templates/cancel"
    elif orders == 20:
        assert {link.rel for link in kept} >= {"customer", "items", "default", "cancel"}


def test_a_url_in_the_data_that_may_repeat_a_link_only_counted_is_searched_again() -> None:
    doc = page(30)
    orders = doc["_embedded"]["orders"]  # type: ignore[index]
    orders[-1]["customer"] = "/customers/29"  # its "customer" link's: not guessed
    orders[-1]["photo"] = "/photos/29"  # guessed
    found, _, every, _ = searched(doc, [], 10**6, 10)
    assert NOT_KEPT not in found.entries  # (every link recorded, the search done again)
    assert len(found) == len(every)
    assert [link.rel for link in every if link.guess] == ["photo"]
    assert first_ordered(found, 10) == ordered(tuple(every))[:10]


def test_a_link_counted_and_not_recorded_cannot_be_read() -> None:
    found, _, _, _ = searched(page(10), [], 10**6, 1)
    at = found.entries.index(NOT_KEPT)
    with pytest.raises(LookupError, match="counted"):
        found[at]
    assert repr(found).endswith(f", and {found.entries.count(NOT_KEPT)} only counted)")


def test_a_bounded_search_stopped_at_its_limit_says_so_as_every_link_built() -> None:
    found, stopped, every, every_stopped = searched(page(100), [], 150, 20)
    assert stopped == every_stopped == "the search stops at 150 links"
    assert len(found) == len(every) == 150
    assert first_ordered(found, 20) == ordered(tuple(every))[:20]


def test_a_link_put_first_moves_the_embedded_runs_and_selfs_on() -> None:
    found = search_links(BASE, 200, [], orjson.dumps(page(3)), HAL).found
    every = list(search_links(BASE, 200, [], orjson.dumps(page(3)), HAL).found)
    runs, selfs = [list(run) for run in found.embedded], list(found.selfs)
    created = Link("self", "http://api.test/v1/orders/9", source="/id", guess=True)
    found.insert(0, created)
    assert found.embedded == [[start + 1, stop + 1] for start, stop in runs]
    assert found.selfs == [0, *(at + 1 for at in selfs)]
    assert first_ordered(found, 100) == ordered((created, *every))


def test_read_response_of_a_large_page_counts_what_it_did_not_record() -> None:
    body = orjson.dumps(page(MAX_LINKS // 4))  # more links than a page keeps
    sent = SentRequest("GET", BASE, (("Accept", HAL),))
    received = ReceivedResponse(200, "OK", "HTTP/1.1", (("Content-Type", HAL),), body, BASE)
    reading = read_response(Exchange(request=sent, final=sent, response=received))
    every = find_links(BASE, 200, received.headers, body, HAL)
    assert reading.found == len(every) == 2 + MAX_LINKS // 4 * 6
    assert reading.links == ordered(tuple(every))[:MAX_LINKS]
    assert reading.stopped is None


@pytest.mark.parametrize(("skipped", "made"), [({"customer"}, 0), ({"next", "self"}, 1)])
def test_a_link_only_counted_names_a_place_as_its_relation_says(
    skipped: set[str], made: int
) -> None:
    collector = Collector(Resolver("http://api.test/orders"))
    collector.links.entries.append(NOT_KEPT)
    collector.links.skipped.update(skipped)
    add_convention_links([{"id": 1}], collector)
    assert len(collector.links) == 1 + made  # (the convention's item link: none is said)


def test_a_link_added_after_one_only_counted_is_added() -> None:
    collector = Collector(Resolver("http://api.test/orders"))
    collector.links.entries.append(NOT_KEPT)
    collector.add(Link("next", "http://api.test/orders?page=2", source="/next"))
    assert len(collector.links) == 2
    assert collector.links[1].rel == "next"
