"""Linting one response with httplint: crafted responses with known defects, as plain text."""

from __future__ import annotations

import gzip

from explorer.core.http.exchange import ReceivedResponse, SentRequest
from explorer.core.knowledge.lint import LintReport, html_to_text, lint_response
from explorer.core.text.terminal_text import CONTROL

DATE = ("Date", "Thu, 26 Nov 2026 10:00:00 GMT")
JSON = ("Content-Type", "application/json")


def response(
    *headers: tuple[str, str],
    body: bytes = b'{"a": 1}',
    status: int = 200,
    wire_body: bytes | None = None,
) -> ReceivedResponse:
    return ReceivedResponse(
        status=status,
        reason="OK",
        http_version="HTTP/1.1",
        headers=headers,
        body=body,
        url="http://api.test/thing",
        wire_body=wire_body,
    )


def summaries(report: LintReport, level: str | None = None) -> list[str]:
    return [n.summary for n in report.notes if level is None or n.level == level]


def test_a_sound_response_has_nothing_bad_and_says_what_is_good() -> None:
    report = lint_response(
        response(DATE, JSON, ("Content-Length", "8"), ("Cache-Control", "max-age=60"))
    )
    assert summaries(report, "bad") == []
    assert summaries(report, "warning") == []
    good = summaries(report, "good")
    assert "The Content-Length header is correct." in good
    assert "This response is fresh for 60 seconds." in good
    assert report.tally.endswith("GOOD")


def test_known_defects_are_found_with_their_level() -> None:
    report = lint_response(
        response(
            JSON,
            ("Content-Length", "99"),  # the body is 8 bytes
            ("Cache-Control", "max-age=abc"),
            ("ETag", "no-quotes"),
        )
    )
    bad = summaries(report, "bad")
    assert "The max-age cache directive's value is incorrect." in bad
    assert any("Content-Length" in s for s in bad)
    warnings = summaries(report, "warning")
    assert "This response doesn't have a Date header." in warnings
    assert "The ETag field value doesn't conform to its specified syntax." in warnings
    # The most serious first.
    levels = [n.level for n in report.notes]
    assert levels == sorted(levels, key=["bad", "warning", "info", "good"].index)


def test_each_note_says_what_it_means_in_plain_text() -> None:
    report = lint_response(response(JSON, ("Cache-Control", "max-age=abc")))
    note = next(n for n in report.notes if n.summary.startswith("The max-age"))
    assert note.category == "Caching"
    assert note.word == "BAD"
    assert (
        note.detail
        == "The max-age cache directive type is non-negative integer, but abc was found."
    )
    assert "<" not in note.detail


def test_server_text_in_a_note_is_made_visible() -> None:
    hostile = "abc\x1b]52;c;ZXZpbA==\x07\x9b"
    report = lint_response(response(JSON, ("Cache-Control", f"max-age={hostile}")))
    texts = [t for n in report.notes for t in (n.summary, n.detail, n.category)]
    assert not any(CONTROL.search(t.replace("\n", "")) for t in texts)
    note = next(n for n in report.notes if n.summary.startswith("The max-age"))
    assert "abc␛]52;c;ZXZpbA==␇\\x9b" in note.detail


def test_a_gzip_body_is_linted_as_it_came() -> None:
    body = b'{"a": 1}' * 100
    coded = gzip.compress(body)
    headers = (DATE, JSON, ("Content-Encoding", "gzip"), ("Content-Length", str(len(coded))))
    report = lint_response(response(*headers, body=body, wire_body=coded))
    assert "The Content-Length header is correct." in summaries(report, "good")
    assert report.remark == ""
    # Without the coded bytes (a transport that decoded them), coding and length go unchecked.
    report = lint_response(response(*headers, body=body))
    assert not any("Content-Length" in s for s in summaries(report))
    assert "decoded before it was linted" in report.remark


def test_the_request_tells_a_head_answer_from_a_get_one() -> None:
    head = SentRequest("HEAD", "http://api.test/thing", (("Host", "api.test"),))
    headers = (DATE, JSON, ("Content-Length", "8"), ("Cache-Control", "max-age=60"))
    report = lint_response(response(*headers, body=b""), head)
    assert not any("Content-Length" in s for s in summaries(report, "bad"))


def test_html_becomes_paragraphs_lists_and_link_addresses() -> None:
    text = html_to_text(
        '<p>See <a href="https://www.rfc-editor.org/rfc/rfc9111">RFC 9111</a>\nfor '
        "<code>max-age</code>.</p><ul><li>one &amp; two</li><li>three</li></ul><p>End.</p>"
    )
    assert text == (
        "See RFC 9111 <https://www.rfc-editor.org/rfc/rfc9111> for max-age.\n\n"
        "- one & two\n- three\n\nEnd."
    )
