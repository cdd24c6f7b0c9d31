"""Collection+JSON through find_links: the friends example of the format's spec."""

from __future__ import annotations

import orjson

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import FormField, Link

BASE = "http://example.org/friends/"
CJ = "application/vnd.collection+json"

FRIENDS = {
    "collection": {
        "version": "1.0",
        "href": "/friends/",
        "links": [
            {"rel": "feed", "href": "rss"},
            {"rel": "profile", "href": "/profiles/friend", "prompt": "Profile", "render": "link"},
            {"href": ""},
        ],
        "items": [
            {
                "href": "/friends/jdoe",
                "data": [
                    {"name": "full-name", "value": "J. Doe", "prompt": "Full Name"},
                    {"name": "email", "value": "jdoe@example.org", "prompt": "Email"},
                ],
                "links": [
                    {"rel": "blog", "href": "http://examples.org/blogs/jdoe", "prompt": "Blog"},
                    {"rel": "avatar", "href": "http://examples.org/images/jdoe", "render": "image"},
                ],
            },
            {"data": []},
        ],
        "queries": [
            {
                "rel": "search",
                "href": "/friends/search",
                "prompt": "Search",
                "name": "by-name",
                "data": [{"name": "search", "value": ""}],
            }
        ],
        "template": {
            "data": [
                {"name": "full-name", "value": "", "prompt": "Full Name"},
                {"name": "email", "value": "", "prompt": "Email"},
            ]
        },
    }
}


def test_friends_collection() -> None:
    assert find_links(BASE, 200, [], orjson.dumps(FRIENDS), CJ) == [
        Link(rel="self", href="http://example.org/friends/", source="/collection/href"),
        Link(rel="feed", href="http://example.org/friends/rss", source="/collection/links/0"),
        Link(
            rel="profile",
            href="http://example.org/profiles/friend",
            title="Profile",
            source="/collection/links/1",
            attributes=(("render", "link"),),
        ),
        Link(rel="item", href="http://example.org/friends/jdoe", source="/collection/items/0/href"),
        Link(
            rel="blog",
            href="http://examples.org/blogs/jdoe",
            title="Blog",
            source="/collection/items/0/links/0",
        ),
        Link(
            rel="avatar",
            href="http://examples.org/images/jdoe",
            source="/collection/items/0/links/1",
            attributes=(("render", "image"),),
        ),
        Link(
            rel="search",
            href="http://example.org/friends/search",
            title="Search",
            source="/collection/queries/0",
            fields=(FormField(name="search", value=""),),
            name="by-name",
        ),
        Link(
            rel="create",
            href="http://example.org/friends/",
            method="POST",
            source="/collection/template",
            fields=(
                FormField(name="full-name", value="", prompt="Full Name"),
                FormField(name="email", value="", prompt="Email"),
            ),
            content_type=CJ,
            name="template",
        ),
    ]


def test_sniffed_and_without_href() -> None:
    doc = {"collection": {"version": "1.0", "template": {"data": [{"name": "a"}]}}}
    assert find_links(BASE, 200, [], orjson.dumps(doc), "application/json") == [
        Link(
            rel="create",
            href=BASE,
            method="POST",
            source="/collection/template",
            fields=(FormField(name="a"),),
            content_type=CJ,
            name="template",
        )
    ]
    assert find_links(BASE, 200, [], b'{"collection": []}', CJ) == []
