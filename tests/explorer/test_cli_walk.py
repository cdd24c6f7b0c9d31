"""What trying the commands by hand found: walking to an item, lone words, bad hosts, h2c.

* ``--follow`` prefers the response's own links to those of the resources it
  embeds, and ``item`` reaches the first embedded resource, in every
  representation of the mock (root -> customers -> next page -> an item);
* a followed template is shown with the URL actually requested;
* ``restwalk frobnicate`` is an unknown command (it used to open the TUI on
  http://frobnicate);
* a URL whose host holds a space is bad usage, refused before any DNS lookup;
* HTTP/2 prior knowledge to a server that speaks only HTTP/1.1 says what to drop.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator

import orjson
import pytest

from explorer.core.hypermedia.embedded import is_embedded
from explorer.core.hypermedia.link import Link
from explorer.core.session.choice import choose_link as pick_link
from mock_server import BackgroundServer, Settings
from tests.explorer.cli_run import run

MEDIA_TYPES = (
    "application/hal+json",
    "application/vnd.siren+json",
    "application/vnd.api+json",
    "application/xml",
)


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    # Two seeds: 24 customers, so the first page of 20 has a next page.
    settings = Settings(host="127.0.0.1", port=0, rate_limit=None, seed_size=2)
    with BackgroundServer(settings) as server:
        yield server.url


def assert_one_line_error(err: str) -> None:
    assert err.startswith("restwalk: ")
    assert err.count("\n") == 1
    assert "Traceback" not in err


# --- picking a link -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "/_embedded/customers/0/_links/self",
        "/entities/1/links/0",
        "/entities/0/entities/2/actions/0",
        "/data/0/links/self",
        "/included/3/links/self",
        "/collection/items/0/links/1",
        "customers/embedded/customer/link[1]",
        "customers/embedded[2]/customer[3]/link[1]",
        "feed/entry[2]/link[1]",
    ],
)
def test_embedded_sources(source: str) -> None:
    assert is_embedded(Link(rel="self", href="http://h/", source=source))


@pytest.mark.parametrize(
    "source",
    [
        "header:Link",
        "header:Location",
        "/_links/self",
        "/links/0",
        "/entities/0",  # a Siren embedded link is a link of the response itself
        "/data/links/self",
        "/links/self",
        "customers/link[1]",
        "/_templates/create",
        "/actions/0",
        "/meta/actions/0",
        "/collection/links/0",
        "html/body/a[3]",
    ],
)
def test_own_sources(source: str) -> None:
    assert not is_embedded(Link(rel="self", href="http://h/", source=source))


def test_own_links_come_before_embedded_ones() -> None:
    item = Link(rel="self", href="http://h/customers/3", source="/entities/0/links/0")
    page = Link(rel="self", href="http://h/customers", source="/links/0")
    assert pick_link([item, page], "self") is page
    # Embedded links are still found when the response has none of its own.
    orders = Link(rel="rw:orders", href="http://h/orders?c=3", source="/entities/0/links/2")
    assert pick_link([item, page, orders], "orders") is orders


def test_item_is_the_first_embedded_resource_unless_a_link_says_item() -> None:
    first = Link(rel="self", href="http://h/c/1", source="/_embedded/customers/0/_links/self")
    second = Link(rel="self", href="http://h/c/2", source="/_embedded/customers/1/_links/self")
    page = Link(rel="self", href="http://h/c", source="/_links/self")
    assert pick_link([page, first, second], "item") is first
    assert pick_link([page, first, second], "ITEM") is first
    declared = Link(rel="item", href="http://h/c/9", source="/collection/items/0/href")
    assert pick_link([page, first, declared], "item") is declared
    assert pick_link([page], "item") is None


# --- the walk, by hand ----------------------------------------------------------------------


@pytest.mark.parametrize("media_type", MEDIA_TYPES)
def test_root_customers_next_page_item_in_every_representation(
    capsys: pytest.CaptureFixture[str], mock_url: str, media_type: str
) -> None:
    code, out, err = run(
        capsys,
        "request",
        "GET",
        mock_url + "/",
        "-H",
        f"Accept: {media_type}",
        "--follow",
        "customers",
        "--follow",
        "next",
        "--follow",
        "item",
        "--json",
    )
    assert (code, err) == (0, "")
    urls = [orjson.loads(line)["response"]["url"] for line in out.splitlines()]
    assert urls == [
        f"{mock_url}/",
        f"{mock_url}/customers",
        f"{mock_url}/customers?limit=20&offset=20",
        f"{mock_url}/customers/22",  # the 21st listed: customer 12 is held, not listed
    ]


def test_self_on_a_siren_page_stays_on_the_page(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    # Siren lists the items (with their self links) before the page's own links.
    page = mock_url + "/reports"
    code, out, _ = run(
        capsys,
        "request",
        "POST",
        page,
        "--user",
        "admin:admin",
        "-H",
        "Accept: application/vnd.siren+json",
        "-d",
        "{}",
    )
    assert code == 0
    code, out, err = run(
        capsys,
        "request",
        "GET",
        page,
        "--user",
        "admin:admin",
        "-H",
        "Accept: application/vnd.siren+json",
        "--follow",
        "self",
    )
    assert (code, err) == (0, "")
    assert f"-> follow 'self': GET {page}\n" in out


def test_a_followed_template_shows_the_url_requested_too(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "request", "GET", mock_url + "/", "--follow", "customer-search")
    assert (code, err) == (0, "")
    template = f"{mock_url}/customers{{?name,city,sort,limit,offset}}"
    assert f"-> follow 'customer-search': GET {template} (expanded: {mock_url}/customers)\n" in out


# --- bad usage -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["frobnicate"], "unknown command 'frobnicate'"),
        (["explian"], "did you mean 'explain'?"),
        (["lnks"], "did you mean 'links'?"),
        (["requets", "GET", "http://127.0.0.1:1/"], "did you mean 'request'?"),
    ],
)
def test_a_lone_unknown_word_is_an_unknown_command(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert words in err


@pytest.mark.parametrize(
    "url", ["http://exa mple/", "http://exa%20mple/", "http://a<b>/", 'http://a"b/']
)
@pytest.mark.parametrize("command", ["request", "links"])
def test_a_host_with_a_space_is_bad_usage_before_any_lookup(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, url: str, command: str
) -> None:
    def no_lookup(*args: object, **kwargs: object) -> None:
        raise AssertionError("no DNS lookup for a bad host")

    monkeypatch.setattr(socket, "getaddrinfo", no_lookup)
    argv = ["request", "GET", url] if command == "request" else ["links", url]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert_one_line_error(err)
    assert "host" in err


@pytest.mark.parametrize("command", ["request", "links"])
def test_h2c_to_an_http1_server_says_to_drop_prior_knowledge(
    capsys: pytest.CaptureFixture[str], mock_url: str, command: str
) -> None:
    argv = [command, "GET", mock_url] if command == "request" else [command, mock_url]
    code, out, err = run(capsys, *argv, "--http2-prior-knowledge")
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert "--http2-prior-knowledge" in err
    assert "h2c" in err


def test_a_reset_under_h2c_prior_knowledge_gets_the_same_hint(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # What an HTTP/1.1 server does when its close beats its answer: the client
    # sees a reset, not a malformed response. The hint must not depend on the race.
    import struct

    from tests.explorer.servers import RawServer

    def reset(conn: socket.socket) -> None:
        conn.recv(24)  # the start of the h2c preface
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    with RawServer(reset) as server:
        code, out, err = run(capsys, "request", "GET", server.url + "/", "--http2-prior-knowledge")
    assert (code, out) == (1, "")
    assert_one_line_error(err)
    assert "--http2-prior-knowledge" in err
