"""Every command that derives a request from another keeps its secrets to their origin.

Two servers on two ports are two origins (RFC 6454): ``a``, where the credential,
cookies and secret headers are given, and ``b``, which a link, a next page, a
bookmark's step, a ``.http`` answer, a crawl or a redirect leads to. What each
server read off its socket is asserted: ``b`` never gets them, ``a`` always does,
and the step to ``b`` says so in one line on stderr.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from explorer.core.session.rel_path import RelPath, Step
from explorer.core.storage.bookmarks import BookmarkStore
from tests.explorer.cli_run import run
from tests.explorer.origin_servers import OriginServer, two_origins

#: Each way of giving a secret, and the header it reaches a server as.
GIVEN = [
    (("-u", "alice:wonderland"), "authorization"),
    (("--bearer", "tok-123456"), "authorization"),
    (("--cookie", "sid=session-123456"), "cookie"),
    (("-H", "X-Api-Key: key-123456"), "x-api-key"),
    (("-H", "Private-Token: glpat-123456"), "private-token"),
    (("-H", "X-Auth-Token: auth-123456"), "x-auth-token"),
    (("-u", "alice:wonderland", "--cookie", "sid=session-123456"), "cookie"),
]


@pytest.fixture(scope="module")
def origins() -> Iterator[tuple[OriginServer, OriginServer]]:
    """The two servers, started once for the module (each test empties them)."""
    with two_origins() as both:
        yield both


@pytest.fixture
def servers(
    origins: tuple[OriginServer, OriginServer], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[OriginServer, OriginServer]:
    """Two origins serving nothing yet and having seen nothing."""
    monkeypatch.setenv("RESTWALK_DATA_DIR", str(tmp_path / "data"))
    for server in origins:
        server.reset()
    return origins


def notes(err: str) -> list[str]:
    return [line for line in err.splitlines() if "not sent to" in line]


def assert_said_once(err: str, a: OriginServer, b: OriginServer) -> None:
    (line,) = notes(err)
    assert line.startswith("restwalk: note: ")
    assert line.endswith(f"not sent to {b.url}: given for {a.url} only")


@pytest.mark.parametrize("command", [("request", "GET"), ("links",)])
@pytest.mark.parametrize(("given", "header"), GIVEN)
def test_follow_keeps_the_secrets_to_their_origin(
    capsys: pytest.CaptureFixture[str],
    servers: tuple[OriginServer, OriginServer],
    command: tuple[str, ...],
    given: tuple[str, ...],
    header: str,
) -> None:
    a, b = servers
    start = a.hal("/", next=a.hal("/2", next=b.hal("/x", up=a.url + "/")))
    code, out, err = run(capsys, *command, start, *given, "--follow", "next", "--follow", "next")
    assert code == 0
    assert "up" in out  # the last page's, printed
    assert [s.target for s in a.seen] == ["/", "/2"]
    assert len(a.received(header)) == 2  # the same origin: sent on
    assert [s.target for s in b.seen] == ["/x"]
    assert b.secrets_received() == {}
    assert_said_once(err, a, b)


def test_back_on_the_origin_the_secrets_go_again(
    capsys: pytest.CaptureFixture[str], servers: tuple[OriginServer, OriginServer]
) -> None:
    a, b = servers
    start = a.hal("/", next=b.hal("/x", next=a.page("/back")))
    argv = ["request", "GET", start, "-u", "alice:wonderland", "-H", "X-Api-Key: key-123456"]
    code, _, err = run(capsys, *argv, "--follow", "next", "--follow", "next")
    assert code == 0
    assert b.secrets_received() == {}
    assert [s.target for s in a.seen] == ["/", "/back"]
    assert len(a.received("authorization")) == len(a.received("x-api-key")) == 2
    (line,) = notes(err)
    assert "Authorization and X-Api-Key not sent to" in line


def test_paging_with_all_to_another_origin_says_it_once(
    capsys: pytest.CaptureFixture[str], servers: tuple[OriginServer, OriginServer]
) -> None:
    a, b = servers
    start = a.hal("/1", next=b.hal("/2", next=b.hal("/3")))
    argv = ["request", "GET", start, "--bearer", "tok-123456", "-H", "X-Api-Key: key-123456"]
    code, out, err = run(capsys, *argv, "--follow", "next", "--all")
    assert code == 0
    assert len(out.splitlines()) == 3  # one document a page
    assert [s.target for s in b.seen] == ["/2", "/3"]
    assert b.secrets_received() == {}
    assert_said_once(err, a, b)


def test_a_bookmark_walked_with_user_keeps_it_to_the_entry_origin(
    capsys: pytest.CaptureFixture[str],
    servers: tuple[OriginServer, OriginServer],
    tmp_path: Path,
) -> None:
    a, b = servers
    start = a.hal("/", orders=a.hal("/orders", next=b.page("/elsewhere")))
    path = RelPath(start, (Step("orders"), Step("next")))
    BookmarkStore.in_directory(tmp_path / "data").save("orders", path)
    code, _, err = run(capsys, "bookmarks", "orders", "--user", "alice:wonderland")
    assert code == 0
    assert [s.target for s in a.seen] == ["/", "/orders"]
    assert len(a.received("authorization")) == 2  # the same origin: still sent
    assert [s.target for s in b.seen] == ["/elsewhere"]
    assert b.secrets_received() == {}
    assert_said_once(err, a, b)


def test_a_run_chain_whose_answer_names_another_origin(
    capsys: pytest.CaptureFixture[str],
    servers: tuple[OriginServer, OriginServer],
    tmp_path: Path,
) -> None:
    a, b = servers
    a.page("/items", status=201, headers=(("location", b.url + "/items/1"),))
    a.page("/mine", status=201, headers=(("location", a.url + "/items/2"),))
    a.page("/items/2")
    b.page("/items/1")
    http_file = tmp_path / "chain.http"
    http_file.write_text(
        f"# @name create\nPOST {a.url}/items\nX-Api-Key: key-123456\n\n###\n"
        "GET {{create.response.headers.Location}}\nX-Api-Key: key-123456\n"
        "Authorization: Bearer tok-123456\n\n###\n"
        f"# @name mine\nPOST {a.url}/mine\n\n###\n"
        "GET {{mine.response.headers.Location}}\nX-Api-Key: key-123456\n"
    )
    code, _, err = run(capsys, "run", str(http_file))
    assert code == 0
    assert [s.target for s in b.seen] == ["/items/1"]
    assert b.secrets_received() == {}
    assert [s.target for s in a.seen] == ["/items", "/mine", "/items/2"]
    assert len(a.received("x-api-key")) == 2  # /mine sends none; /items/2 is on its origin
    (line,) = notes(err)
    assert line.endswith(f"X-Api-Key and Authorization not sent to {b.url}: given for {a.url} only")


def test_a_crawl_to_an_allowed_origin_goes_without_the_secrets(
    capsys: pytest.CaptureFixture[str], servers: tuple[OriginServer, OriginServer]
) -> None:
    a, b = servers
    start = a.hal("/", other=b.hal("/api"), up=a.url + "/")
    code, _, err = run(
        capsys, "map", start, "--origin", b.url, "--delay", "0", "--no-options",
        "-u", "alice:wonderland", "-H", "X-Api-Key: key-123456", "--cookie", "sid=session-123456",
    )  # fmt: skip
    assert code == 0
    assert [s.target for s in b.seen] == ["/api"]
    assert b.secrets_received() == {}
    assert a.received("authorization")
    assert a.received("x-api-key")
    (line,) = notes(err)
    assert line.endswith(
        f"Authorization, X-Api-Key and Cookie not sent to {b.url}: given for {a.url} only"
    )


@pytest.mark.parametrize(("given", "header"), GIVEN)
def test_a_redirect_keeps_the_secrets_to_their_origin(
    capsys: pytest.CaptureFixture[str],
    servers: tuple[OriginServer, OriginServer],
    given: tuple[str, ...],
    header: str,
) -> None:
    a, b = servers
    away = a.page("/r2", status=302, headers=(("location", b.page("/landed")),))
    start = a.page("/r", status=307, headers=(("location", away),))
    code, out, err = run(capsys, "request", "GET", start, *given)
    assert code == 0
    assert "200 OK" in out
    assert [s.target for s in a.seen] == ["/r", "/r2"]
    assert len(a.received(header)) == 2  # the same origin: sent on
    assert [s.target for s in b.seen] == ["/landed"]
    assert b.secrets_received() == {}
    assert_said_once(err, a, b)
