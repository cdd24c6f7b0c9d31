"""The HTTP version of a ``.http`` request line: sent as named, or refused naming the line.

The versions are those the JetBrains HTTP Client reads (``HTTP/1.1``, ``HTTP/2``,
``HTTP/2 (Prior Knowledge)``); VS Code's REST Client drops any ``HTTP/...`` and sends
HTTP/1.1. restwalk cannot send HTTP/1.0 (h11 only sends HTTP/1.1).
"""

from __future__ import annotations

from pathlib import Path

import h11
import pytest

from explorer.core.http.errors import InvalidBody
from explorer.core.httpfile import FileProblem, parse_http
from explorer.core.httpfile.resolve import ResolvedRequest, describe, resolve_request
from explorer.core.httpfile.variables import VariableSources
from explorer.core.httpfile.versions import Protocol, protocol_of


def _resolve(text: str, path: str = "/tmp/api.http") -> ResolvedRequest:
    parsed = parse_http(text, path)
    assert parsed.problems == ()
    return resolve_request(parsed.requests[0], parsed, VariableSources())


@pytest.mark.parametrize(
    ("line", "protocol"),
    [
        ("GET http://h/a", None),
        ("GET http://h/a HTTP/1.1", Protocol(http2=False)),
        ("GET http://h/a HTTP/2", Protocol(http2=True)),
        ("GET http://h/a HTTP/2.0", Protocol(http2=True)),
        ("GET http://h/a HTTP/2 (Prior Knowledge)", Protocol(http2=True, prior_knowledge=True)),
        ("http://h/a   http/2   (prior knowledge)", Protocol(http2=True, prior_knowledge=True)),
    ],
)
def test_a_version_restwalk_sends_is_kept_for_the_sending(
    line: str, protocol: Protocol | None
) -> None:
    resolved = _resolve(line + "\n")
    assert resolved.protocol == protocol
    assert resolved.spec.url == "http://h/a"


@pytest.mark.parametrize("version", ["HTTP/9.9", "HTTP/3", "HTTP/0.9", "HTTP/1"])
def test_a_version_restwalk_cannot_send_is_refused_naming_the_file_and_line(
    version: str,
) -> None:
    with pytest.raises(FileProblem) as caught:
        _resolve(f"@host = h\n\nGET http://{{{{host}}}}/ {version}\n")
    assert caught.value.message == (
        f"{version} is not a version restwalk can send (api.http, line 3): "
        "restwalk sends HTTP/1.1 and HTTP/2."
    )
    assert caught.value.hint == (
        "Write HTTP/1.1, HTTP/2 or HTTP/2 (Prior Knowledge) after the URL, or no version."
    )


def test_http_1_0_is_refused_since_the_client_cannot_send_it() -> None:
    """h11, under httpx, refuses to write any request line but HTTP/1.1."""
    with pytest.raises(h11.LocalProtocolError, match=r"only send HTTP/1\.1"):
        h11.Connection(h11.CLIENT).send(
            h11.Request(method="GET", target="/", headers=[("Host", "h")], http_version="1.0")
        )
    with pytest.raises(FileProblem) as caught:
        _resolve("### old\nGET http://h/ HTTP/1.0\n")
    assert caught.value.message == (
        "HTTP/1.0 is not a version restwalk can send (api.http, line 2, request 'old'): "
        "restwalk sends HTTP/1.1 and HTTP/2; its client, httpx, never sends HTTP/1.0."
    )
    assert protocol_of("HTTP/1.0") is None


def test_a_body_file_that_cannot_be_read_names_one_place_and_the_marker(tmp_path: Path) -> None:
    """QA pass 3, defect 6: the file is named after <, not @, and the place once."""
    path = tmp_path / "f.http"
    text = "POST http://h/\nContent-Type: application/json\n\n< ./missing.json\n"
    with pytest.raises(InvalidBody) as caught:
        _resolve(text, str(path))
    assert caught.value.message == (
        f"The body file {str(tmp_path / 'missing.json')!r} cannot be read: "
        "No such file or directory (f.http, line 4)."
    )
    assert caught.value.hint == f"Check the path after <: a relative one is read from {tmp_path}."
    with pytest.raises(InvalidBody) as caught:
        _resolve("### up\n" + text.replace("< ", "<@ "), str(path))
    assert caught.value.message.endswith("(f.http, line 5, request 'up').")
    assert caught.value.hint.startswith("Check the path after <@: ")


def test_describe_names_one_place() -> None:
    parsed = parse_http("GET http://h/\n\n###\n### login\nGET http://h/b\n", "/x/api.http")
    unnamed, named = parsed.requests
    assert describe(unnamed, parsed) == "api.http, line 1"
    assert describe(unnamed, parsed, 2) == "api.http, line 2"
    assert describe(named, parsed) == "request 'login' (api.http, line 5)"
