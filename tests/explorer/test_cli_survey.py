"""restwalk map, audit and diff end to end, against the mock server on a real socket."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from explorer.cli import main
from mock_server import BackgroundServer, Settings
from tests.explorer.servers import closed_port

#: Paths that answer slowly on purpose, or never end (event streams); the commands are
#: told not to visit them.
SLOW = ("--exclude", "^/(faults/|drip|delay/)")


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_map_prints_the_tree_of_resources(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(capsys, "map", mock_url + "/", "--delay", "0", "--depth", "2", *SLOW)
    assert (code, err) == (0, "")
    assert out.startswith(f"Map of {mock_url}/: ")
    assert "├── customers  200 · application/hal+json" in out
    assert "│   └── {id}  200 · application/hal+json · 3 of " in out
    assert "templates: /customers{?name,city,sort,limit,offset}" in out
    assert "Every safe link within the bounds was followed." in out


def test_map_as_json_with_a_credential_and_progress(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, err = run(
        capsys, "map", mock_url + "/", "--format", "json", "--delay", "0", "--depth", "2",
        "--user", "alice:wonderland", "--progress", *SLOW,
    )  # fmt: skip
    assert code == 0
    document = orjson.loads(out)
    orders = next(r for r in document["resources"] if r["template"] == "/orders")
    assert orders["statuses"] == {"200": orders["statuses"]["200"]}  # the credential went
    assert f"restwalk: 200 {mock_url}/ (depth 0, via entry)" in err.splitlines()
    assert "wonderland" not in out + err


def test_map_draws_mermaid_and_dot(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, mermaid, _ = run(
        capsys, "map", mock_url + "/", "--format", "mermaid", "--depth", "1", "--delay", "0"
    )
    assert code == 0
    assert mermaid.startswith("flowchart LR\n")
    code, dot, _ = run(
        capsys, "map", mock_url + "/", "--format", "dot", "--depth", "1", "--delay", "0"
    )
    assert code == 0
    assert dot.startswith("digraph api {")


def test_audit_grades_the_mock(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, err = run(capsys, "audit", mock_url + "/", "--delay", "0", "--samples", "3", *SLOW)
    assert (code, err) == (0, "")
    assert out.startswith(f"REST audit of {mock_url}/: grade A ")
    assert "✓ RESTWALK-PROBE / → 501" in out
    code, out, _ = run(
        capsys, "audit", mock_url + "/", "--format", "json", "--max-pages", "5", "--delay", "0"
    )
    assert code == 0
    assert orjson.loads(out)["richardson_level"] in (2, 3)


def test_diff_of_two_versions(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code, out, err = run(capsys, "diff", mock_url + "/customers/1", mock_url + "/v2/customers/1")
    assert (code, err) == (0, "")
    assert "Breaking (1): a client of the left side may fail" in out
    assert "✗ restructured address: string" in out  # the kind said once (QA pass 2, 8)
    code, out, _ = run(
        capsys, "diff", mock_url + "/products/1", "--versions", "1", "2", "--version-style",
        "query", "--json",
    )  # fmt: skip
    assert code == 0
    document = orjson.loads(out)
    assert document["right"].endswith("/products/1?version=2")
    assert document["breaking"] is False
    assert any(c["kind"] == "added" and c["path"] == "currency" for c in document["changes"])


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("map", "URL", "--exclude", "(unclosed"), "--exclude '(unclosed' is not a regular"),
        (("map", "URL", "--depth", "0"), "is less than 1"),
        (("audit", "URL", "--samples", "-1"), "--samples must be 0 or more"),
        (("diff", "URL"), "give two URLs, or one URL and --versions OLD NEW"),
        (("diff", "URL", "URL", "--versions", "1", "2"), "give URL2 or --versions OLD NEW"),
        (("map", "URL", "--format", "svg"), "invalid choice: 'svg'"),
    ],
)
def test_bad_usage_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], mock_url: str, argv: tuple[str, ...], says: str
) -> None:
    code, out, err = run(capsys, *(mock_url + "/" if word == "URL" else word for word in argv))
    assert code == 2
    assert out == ""
    assert err.startswith("restwalk: ")
    assert err.count("\n") == 1
    assert says in err


@pytest.mark.parametrize("command", ["map", "audit", "diff"])
def test_no_server_is_a_failed_request(capsys: pytest.CaptureFixture[str], command: str) -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    argv = [command, url] + ([url] if command == "diff" else [])
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""
    assert "refused" in err.lower()
    assert err.count("\n") == 1
