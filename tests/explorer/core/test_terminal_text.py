"""The one filter between server text and a terminal: controls are shown, never obeyed."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.core.terminal_text import CONTROL, is_visible, json_visible, visible, visible_line


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
