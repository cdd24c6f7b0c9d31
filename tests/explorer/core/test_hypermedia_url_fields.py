"""Links declared by field names (GitHub style) through find_links."""

from __future__ import annotations

import orjson

from explorer.core.hypermedia import find_links
from explorer.core.hypermedia.link import Link
from explorer.core.hypermedia.url_fields import field_rel

API = "https://api.github.com"

REPO = {
    "id": 1296269,
    "name": "Hello-World",
    "full_name": "octocat/Hello-World",
    "owner": {
        "login": "octocat",
        "url": "https://api.github.com/users/octocat",
        "avatar_url": "https://github.com/images/error/octocat_happy.gif",
        "followers_url": "https://api.github.com/users/octocat/followers",
        "following_url": "https://api.github.com/users/octocat/following{/other_user}",
    },
    "html_url": "https://github.com/octocat/Hello-World",
    "url": "https://api.github.com/repos/octocat/Hello-World",
    "branches_url": "https://api.github.com/repos/octocat/Hello-World/branches{/branch}",
    "issues_url": "/repos/octocat/Hello-World/issues{/number}",
    "homepage": "https://github.com",
    "blog_url": "",
    "mirror_url": None,
    "notesUrl": "notes",
    "bad_url": "not a url",
    "topics": ["octocat", "https://example.com/topic"],
    "license": {"key": "mit", "href": "/licenses/mit"},
    "contributors": [
        {"login": "a", "url": "/users/a"},
        {"login": "b", "url": "/users/b"},
    ],
    "_url": "/just-a-suffix",
}


def test_github_like_repository() -> None:
    found = find_links(f"{API}/repos/octocat/Hello-World", 200, [], orjson.dumps(REPO))
    assert found == [
        Link(rel="owner", href=f"{API}/users/octocat", source="/owner/url"),
        Link(
            rel="avatar",
            href="https://github.com/images/error/octocat_happy.gif",
            source="/owner/avatar_url",
        ),
        Link(rel="followers", href=f"{API}/users/octocat/followers", source="/owner/followers_url"),
        Link(
            rel="following",
            href=f"{API}/users/octocat/following{{/other_user}}",
            templated=True,
            source="/owner/following_url",
        ),
        Link(rel="html", href="https://github.com/octocat/Hello-World", source="/html_url"),
        Link(rel="self", href=f"{API}/repos/octocat/Hello-World", source="/url"),
        Link(
            rel="branches",
            href=f"{API}/repos/octocat/Hello-World/branches{{/branch}}",
            templated=True,
            source="/branches_url",
        ),
        Link(
            rel="issues",
            href=f"{API}/repos/octocat/Hello-World/issues{{/number}}",
            templated=True,
            source="/issues_url",
        ),
        Link(rel="notes", href=f"{API}/repos/octocat/notes", source="/notesUrl"),
        Link(rel="license", href=f"{API}/licenses/mit", source="/license/href"),
        Link(rel="contributors", href=f"{API}/users/a", source="/contributors/0/url"),
        Link(rel="contributors", href=f"{API}/users/b", source="/contributors/1/url"),
        Link(rel="homepage", href="https://github.com", source="/homepage", guess=True),
        Link(rel="topics", href="https://example.com/topic", source="/topics/1", guess=True),
        Link(rel="_url", href=f"{API}/just-a-suffix", source="/_url", guess=True),
    ]


def test_top_level_array_items_and_pointer_escapes() -> None:
    doc = [{"url": "/a"}, {"a/b~c_url": "/x"}]
    assert find_links("http://h/list", 200, [], orjson.dumps(doc), "application/json") == [
        Link(rel="item", href="http://h/a", source="/0/url"),
        Link(rel="a/b~c", href="http://h/x", source="/1/a~1b~0c_url"),
    ]


def test_field_rel() -> None:
    assert field_rel("commits_url", None) == "commits"
    assert field_rel("avatarUrl", None) == "avatar"
    assert field_rel("url", "owner") == "owner"
    assert field_rel("href", None) == "self"
    assert field_rel("Url", None) is None
    assert field_rel("name", None) is None


def test_malformed_braces_are_not_a_template() -> None:
    doc = {"odd_url": "/x{a-b}", "open_url": "/y{/z", "good_url": "/w{?q}"}
    found = find_links("http://h/", 200, [], orjson.dumps(doc), "application/json")
    assert [(link.rel, link.href, link.templated) for link in found] == [
        ("odd", "http://h/x{a-b}", False),
        ("open", "http://h/y{/z", False),
        ("good", "http://h/w{?q}", True),
    ]
