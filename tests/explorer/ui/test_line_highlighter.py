"""LineHighlighter: a line highlighted again is the strip it was, for its lexer only, and
what is kept is bounded."""

from __future__ import annotations

from explorer.ui.widgets import line_highlighter
from explorer.ui.widgets.line_highlighter import LineHighlighter, lexer_for


def cells(strip: object) -> list[tuple[str, object]]:
    return [(segment.text, segment.style) for segment in strip]  # type: ignore[attr-defined]


def test_a_line_highlighted_again_is_the_same_strip() -> None:
    json, python = lexer_for("json"), lexer_for("python")
    assert json is not None
    assert python is not None
    kept, fresh = LineHighlighter(), LineHighlighter()
    line = '    "_links": {"self": {"href": "/customers/1"}},'
    first = kept.strip(json, line)
    assert kept.strip(json, line) is first
    assert cells(first) == cells(fresh.strip(json, line))
    # another lexer, another line: highlighted for themselves
    assert cells(kept.strip(python, line)) == cells(fresh.strip(python, line))
    assert kept.strip(python, line) is not first
    other = '    "_links": {"self": {"href": "/customers/2"}},'
    assert cells(kept.strip(json, other)) == cells(fresh.strip(json, other))


def test_long_lines_are_not_kept_and_what_is_kept_is_bounded() -> None:
    json = lexer_for("json")
    assert json is not None
    highlighter = LineHighlighter()
    long = '"' + "x" * line_highlighter.KEPT_LENGTH + '"'
    assert highlighter.strip(json, long) is not highlighter.strip(json, long)
    for n in range(line_highlighter.LINES_KEPT + 10):
        highlighter.strip(json, f'  "id": {n},')
    assert 0 < len(highlighter._lines) <= line_highlighter.LINES_KEPT
