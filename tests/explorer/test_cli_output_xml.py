"""XML bodies are indented for reading; ``restwalk links`` says when the answer was an error."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest

from explorer.cli import main
from explorer.cli.output import pretty_body
from explorer.core.bodies.display import format_body
from explorer.core.bodies.pretty import PRETTY_XML_LIMIT
from mock_server import BackgroundServer, Settings
from tests.explorer.cli_run import run


def test_mock_xml_is_indented_and_keeps_every_attribute() -> None:
    body = (
        b"<?xml version='1.0' encoding='utf-8'?>\n"
        b'<customer id="1"><name>Ada &amp; Co</name><address nil="true" />'
        b'<link rel="self" href="/customers/1" title="Ada" />'
        b'<action name="delete" method="DELETE" href="/customers/1" /></customer>'
    )
    assert pretty_body(body, "application/xml").splitlines() == [
        '<?xml version="1.0" ?>',
        '<customer id="1">',
        "  <name>Ada &amp; Co</name>",
        '  <address nil="true"/>',
        '  <link rel="self" href="/customers/1" title="Ada"/>',
        '  <action name="delete" method="DELETE" href="/customers/1"/>',
        "</customer>",
    ]


def test_old_indentation_is_replaced_and_namespaces_kept() -> None:
    body = (
        b'<?xml version="1.0"?>\n<problem xmlns="urn:ietf:rfc:7807">\n'
        b"    <type>/problems/404</type>\n\n    <status>404</status>\n</problem>\n"
    )
    assert pretty_body(body, "application/problem+xml; charset=utf-8").splitlines() == [
        '<?xml version="1.0" ?>',
        '<problem xmlns="urn:ietf:rfc:7807">',
        "  <type>/problems/404</type>",
        "  <status>404</status>",
        "</problem>",
    ]


def test_declared_encoding_is_decoded() -> None:
    body = '<?xml version="1.0" encoding="iso-8859-1"?><a><b>café</b></a>'.encode("latin-1")
    assert "<b>café</b>" in pretty_body(body, "text/xml")


@pytest.mark.parametrize(
    "body",
    [
        b"<p>some <b>bold</b> text</p>",  # mixed content: indenting would change the text
        b"<a><b>unclosed</a>",
        b'<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>',  # entities: defusedxml refuses
        b"not xml at all",
    ],
)
def test_xml_that_cannot_be_indented_safely_is_shown_as_it_came(body: bytes) -> None:
    assert pretty_body(body, "application/xml") == body.decode()


def test_a_huge_xml_body_is_shown_as_it_came() -> None:
    body = b"<a>" + b"<b>x</b>" * (PRETTY_XML_LIMIT // 8) + b"</a>"
    assert pretty_body(body, "application/xml") == body.decode()


def test_other_types_are_not_read_as_xml() -> None:
    assert pretty_body(b"<a><b>x</b></a>", "text/plain") == "<a><b>x</b></a>"


def test_the_tui_indents_xml_as_the_command_line_prints_it() -> None:
    """The TUI shows XML indented (it showed it as it came; the command line indented it)."""
    body = b'<?xml version="1.0"?><customer id="1"><name>Ada</name><city/></customer>'
    shown = format_body(body, "application/xml")
    assert (shown.language, shown.lines(0, 5)) == (
        "xml",
        [
            '<?xml version="1.0" ?>',
            '<customer id="1">',
            "  <name>Ada</name>",
            "  <city/>",
            "</customer>",
        ],
    )
    assert shown.text() == pretty_body(body, "application/xml")
    mixed = b"<p>some <b>bold</b> text</p>"
    assert format_body(mixed, "application/xml").text() == mixed.decode()


# --- links of an error answer -----------------------------------------------------------------


@pytest.fixture(scope="module")
def mock_url() -> Iterator[str]:
    with BackgroundServer(Settings(host="127.0.0.1", port=0, rate_limit=None)) as server:
        yield server.url


def test_links_of_an_error_answer_come_with_a_note(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code = main(["links", mock_url + "/orders/1"])
    captured = capsys.readouterr()
    assert code == 0
    assert captured.err == (
        f"restwalk: note: {mock_url}/orders/1 answered 401 Unauthorized; "
        "the links below are that answer's\n"
    )
    assert captured.out.split()[:3] == ["type", "GET", f"{mock_url}/problems/401"]


def test_links_of_a_success_have_no_note(capsys: pytest.CaptureFixture[str], mock_url: str) -> None:
    code = main(["links", mock_url + "/orders/1", "--user", "admin:admin", "--json"])
    captured = capsys.readouterr()
    assert (code, captured.err) == (0, "")
    # 11 in the body, and the customer and two products as preload in the Link header.
    links = [orjson.loads(line) for line in captured.out.splitlines()]
    assert len(links) == 14
    assert [link["rel"] for link in links].count("preload") == 3


def test_request_prints_mock_xml_indented(
    capsys: pytest.CaptureFixture[str], mock_url: str
) -> None:
    code, out, _ = run(
        capsys, "request", "GET", mock_url + "/customers/1", "-H", "Accept: application/xml"
    )
    assert code == 0
    body = out.split("\n\n", 1)[1]
    assert body.splitlines()[:3] == ['<?xml version="1.0" ?>', '<customer id="1">', "  <id>1</id>"]
