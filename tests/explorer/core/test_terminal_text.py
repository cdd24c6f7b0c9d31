"""The one filter between server text and a terminal: controls are shown, never obeyed."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.text.terminal_text import (
    CONTROL,
    expand_tabs,
    is_visible,
    json_line,
    json_visible,
    visible,
    visible_line,
)


def test_escape_sequences_are_shown_as_pictures() -> None:
    osc52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
    assert visible(osc52) == "␛]52;c;cm0gLXJmIH4=␇"
    assert visible("\x1b[2J\x00\x7f") == "␛[2J␀␡"


def test_c1_controls_are_written_out() -> None:
    assert visible("\x9b2J\x9d0;title\x9c") == "\\x9b2J\\x9d0;title\\x9c"


def test_lines_and_tabs_stay_where_they_belong() -> None:
    assert visible("a\tb\nc\r\nd") == "a\tb\nc\r\nd"
    assert visible("overwrite\rme") == "overwrite␍me"
    assert visible_line("a\tb\nc\r\n") == "a␉b␊c␍␊"


def test_text_without_controls_is_returned_as_is() -> None:
    text = "héllo wörld ✓ [b]not markup[/b]"
    assert visible(text) is text
    assert visible_line(text) is text


@given(st.text())
def test_nothing_a_terminal_obeys_is_left(text: str) -> None:
    assert CONTROL.search(visible_line(text)) is None
    assert is_visible(visible(text))


@pytest.mark.parametrize("value", ["\x9b2J", "\x7f", "a\x85b", "\x1b]0;t\x07", "plain é"])
def test_json_keeps_its_value_and_loses_its_control_bytes(value: str) -> None:
    document = orjson.dumps({"title": value})
    shown = json_visible(document)
    assert orjson.loads(shown) == {"title": value}
    assert CONTROL.search(shown.decode("utf-8")) is None


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("invoice-\u202efdp.exe", "invoice-\\u202efdp.exe"),  # RLO: "exe.pdf" on screen
        ("\u2066isolated\u2069", "\\u2066isolated\\u2069"),
        ("\u200eltr\u200f \u061c", "\\u200eltr\\u200f \\u061c"),
        ("line\u2028para\u2029", "line\\u2028para\\u2029"),
    ],
)
def test_bidi_controls_and_separators_are_written_out(raw: str, shown: str) -> None:
    assert visible(raw) == shown
    assert visible_line(raw) == shown
    assert not is_visible(raw)


def test_right_to_left_text_itself_is_left_alone() -> None:
    text = "שלום مرحبا"
    assert visible(text) is text


def test_json_escapes_the_bidi_controls_and_keeps_the_value() -> None:
    value = "a\u202eb\u2028c\u061cd\u2067e\u200f é"
    shown = json_visible(orjson.dumps({"t": value}))
    assert orjson.loads(shown) == {"t": value}
    assert CONTROL.search(shown.decode("utf-8")) is None


@pytest.mark.parametrize(
    ("line", "expanded"),
    [
        ("a\tb", "a       b"),
        ("\tx", "        x"),
        ("1234567\tx", "1234567 x"),
        ("12345678\tx", "12345678        x"),
        ("日本\tx", "日本    x"),  # two cells each
        ("e\u0301\tx", "e\u0301       x"),  # a combining accent takes no cell
        ("a\tb\nab\tc", "a       b\nab      c"),  # tab stops start again on each line
        ("é\tb\nab\tc", "é       b\nab      c"),
        ("no tab", "no tab"),
    ],
)
def test_tabs_expand_to_the_next_stop_of_eight_cells(line: str, expanded: str) -> None:
    assert expand_tabs(line) == expanded


@given(st.text())
def test_expanded_text_has_no_tab_and_keeps_its_lines(text: str) -> None:
    shown = expand_tabs(visible(text))
    assert "\t" not in shown
    assert shown.count("\n") == visible(text).count("\n")


def test_a_json_line_leaves_out_what_orjson_cannot_write() -> None:
    deep: object = []
    for _ in range(300):
        deep = [deep]
    assert orjson.loads(json_line({"data": "\x9b", "json": {"a": 1}})) == {
        "data": "\x9b",
        "json": {"a": 1},
    }
    assert b"\xc2\x9b" not in json_line({"data": "\x9b"})
    assert orjson.loads(json_line({"data": "[[...]]", "json": deep})) == {"data": "[[...]]"}
