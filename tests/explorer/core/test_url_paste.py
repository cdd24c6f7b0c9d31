"""A paste into the URL bar: one line, no control character, nothing lost unsaid."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from explorer.core.carry.curl import parse_curl
from explorer.core.text.terminal_text import CONTROL
from explorer.core.text.url_paste import PastedUrl, curl_on_one_line, url_from_paste


def test_a_url_wrapped_over_lines_is_joined() -> None:
    wrapped = "http://127.0.0.1:8000/customers?name=Ada&\n    city=London\n"
    assert url_from_paste(wrapped) == PastedUrl(
        "http://127.0.0.1:8000/customers?name=Ada&city=London"
    )


def test_control_characters_are_left_out_and_counted() -> None:
    assert url_from_paste("http://h/\x1b[31mred\x07") == PastedUrl("http://h/[31mred", 2)
    assert url_from_paste("\thttp://h/a\tb ") == PastedUrl("http://h/ab")


def test_a_curl_line_over_many_lines_reads_the_same_on_one() -> None:
    # As API documentation writes them (the README's example, one option a line).
    many = "curl -X POST http://127.0.0.1:8000/customers \\\n  -H 'X-A: 1' \\\n  -d '{\"a\": 1}'"
    one = curl_on_one_line(many)
    assert "\n" not in one
    assert parse_curl(one).spec == parse_curl(many).spec


def test_an_unreadable_curl_line_keeps_every_word_visibly() -> None:
    pasted = 'curl "unterminated [31mRED \x07\nline2 $(rm -rf /) `id`'
    assert curl_on_one_line(pasted) == 'curl "unterminated [31mRED \u2407 line2 $(rm -rf /) `id`'


@given(st.text())
def test_nothing_pasted_reaches_the_bar_as_a_control_character(text: str) -> None:
    assert CONTROL.search(url_from_paste(text).text) is None
    assert CONTROL.search(curl_on_one_line(text)) is None
