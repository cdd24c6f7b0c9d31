"""content_strips: a Content's lines are the strips Textual's ``render_strips`` makes,
segment for segment (text, Rich style with its meta and offset, cell length), each
style's Rich style worked out once a drawing, not once a run of text."""

from __future__ import annotations

from pickle import dumps

import pytest
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual._ansi_theme import DEFAULT_TERMINAL_THEME
from textual.color import Color
from textual.content import Content, Span
from textual.filter import ANSIToTruecolor
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions

from explorer.ui.widgets.offset_styles import _base, content_strips, truecolor_strip, with_offset

_BASE = Style(background=Color(20, 20, 40), foreground=Color(220, 220, 200))


def _options(**rules: object) -> RenderOptions:
    return RenderOptions(Style.parse, rules)  # type: ignore[arg-type]


def _segments(strips: list[Strip]) -> list[tuple[list[tuple[str, object]], int]]:
    return [([(s.text, s.style) for s in strip], strip.cell_length) for strip in strips]


def _metas(strips: list[Strip]) -> list[list[object]]:
    return [[s.style.meta if s.style else None for s in strip] for strip in strips]


_CONTENTS = (
    Content(""),
    Content("plain text, no span"),
    Content("a 200 OK  HTTP/1.1  GET http://127.0.0.1/customers\nmeaning\n→ next"),
    Content(
        " 200 OK   HTTP/1.1  GET http://x/ long enough to wrap past the width\n→ step",
        spans=[
            Span(0, 8, "bold white on green"),
            Span(11, 19, "bold"),
            Span(20, 40, "dim"),
            Span(60, 75, "bold"),
            Span(62, 66, Style(italic=True)),
        ],
    ),
    Content("漢字 and e\u0301 and a\ttab", spans=[Span(0, 2, "reverse"), Span(3, 6, "bold")]),
    Content(
        "fits\na line too long to fit in twelve\n\n  fits  \n" + "漢字" * 7 + "\nend",
        spans=[Span(2, 12, "bold"), Span(30, 40, "reverse")],
    ),
    Content("clickable", spans=[Span(0, 5, Style.from_meta({"@click": "app.bell"}))]),
    Content("a link here", spans=[Span(2, 6, Style(link="https://example.com"))]),
)

_RULES = (
    {},
    {"text_wrap": "nowrap", "text_overflow": "ellipsis"},
    {"text_wrap": "nowrap", "text_overflow": "fold"},
    {"text_align": "center"},
    {"text_align": "right"},
    {"text_align": "justify"},
    {"line_pad": 1},
)


@pytest.mark.parametrize("rules", _RULES, ids=repr)
@pytest.mark.parametrize("content", _CONTENTS, ids=lambda c: c.plain[:12])
@pytest.mark.parametrize("width", [0, 12, 30, 120])
def test_lines_are_textual_s_segment_for_segment(
    content: Content, rules: dict[str, object], width: int
) -> None:
    options = _options(**rules)
    theirs = content.render_strips(width, None, _BASE, options)
    ours = content_strips(content, width, None, _BASE, options)
    assert _segments(ours) == _segments(theirs)
    assert _metas(ours) == _metas(theirs)  # (the offsets text selection reads)
    assert [s.link_ids != {""} for s in ours] == [s.link_ids != {""} for s in theirs]
    cut = content_strips(content, width, 1, _BASE, options)
    assert _segments(cut) == _segments(content.render_strips(width, 1, _BASE, options))


def test_each_style_is_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six runs in two styles over three lines: two Rich styles made from Textual's, and
    none when drawn again (a page's styles are the last page's)."""
    _base.cache_clear()
    made: list[tuple[int, int]] = []
    rich_style_with_offset = Style.rich_style_with_offset

    def noted(style: Style, x: int, y: int) -> RichStyle:
        made.append((x, y))
        return rich_style_with_offset(style, x, y)

    monkeypatch.setattr(Style, "rich_style_with_offset", noted)
    content = Content(
        "ab cd\nef gh\nij kl", spans=[Span(0, 2, "bold"), Span(6, 8, "bold"), Span(12, 14, "bold")]
    )
    strips = content_strips(content, 20, None, _BASE, _options())
    assert sum(len(strip) for strip in strips) == 6
    assert len(made) == 2
    again = content_strips(content, 20, None, _BASE, _options())
    assert len(made) == 2
    monkeypatch.undo()
    assert _segments(again) == _segments(strips)
    assert _segments(strips) == _segments(content.render_strips(20, None, _BASE, _options()))


def test_a_style_with_an_offset_is_rich_s_own() -> None:
    rich = RichStyle(color="red", bgcolor="#102030", bold=True, meta={"k": 1})
    made = with_offset(rich, {"k": 1}, 4, 2)
    own = RichStyle(color="red", bgcolor="#102030", bold=True, meta={"k": 1, "offset": (4, 2)})
    assert made == own
    assert made._meta == own._meta == dumps({"k": 1, "offset": (4, 2)})
    assert made.meta == {"k": 1, "offset": (4, 2)}
    assert made._link_id
    assert made._link_id != with_offset(rich, {"k": 1}, 4, 2)._link_id
    assert str(made) == str(own)
    assert made.render("x") == own.render("x")


def _filter_cases() -> list[Strip]:
    dim = RichStyle(color="#e0e0e0", bgcolor="#1b1b1b", dim=True)
    ansi = RichStyle(color="red", bgcolor="blue", bold=True)
    true = RichStyle(color="#102030")
    segments = [
        Segment("plain", None),
        Segment(" dim ", with_offset(dim, {}, 5, 0)),
        Segment(" dim again ", with_offset(dim, {"k": 2}, 10, 0)),
        Segment(" ansi ", with_offset(ansi, {}, 21, 0)),
        Segment(" true ", with_offset(true, {}, 27, 0)),
        Segment(" no meta ", dim),
        Segment(" link ", RichStyle(color="red", dim=True, link="https://x/", meta={"a": 1})),
    ]
    return [Strip(segments), Strip(segments[1:3]), Strip([])]


@pytest.mark.parametrize("strip", _filter_cases())
def test_a_line_through_the_truecolor_filter_is_textual_s(strip: Strip) -> None:
    line_filter = ANSIToTruecolor(DEFAULT_TERMINAL_THEME)
    background = Color(30, 30, 30)
    theirs = strip.apply_filter(line_filter, background)
    ours = truecolor_strip(line_filter, strip, background)
    assert [tuple(s) for s in ours] == [tuple(s) for s in theirs]
    assert _metas([ours]) == _metas([theirs])
    assert [s.style._link_id if s.style else None for s in ours][:6] == [
        s.style._link_id if s.style else None for s in theirs
    ][:6]
    assert ours.cell_length == theirs.cell_length


def test_each_run_s_style_is_filtered_once_whatever_its_offset() -> None:
    """A dim style at two offsets: the filter works out one style (its cache holds it)."""
    line_filter = ANSIToTruecolor(DEFAULT_TERMINAL_THEME)
    line_filter.truecolor_style.cache_clear()
    dim = RichStyle(color="#e0e0e0", dim=True)
    strip = Strip(
        [Segment("a", with_offset(dim, {}, 0, 0)), Segment("b", with_offset(dim, {}, 1, 0))]
    )
    truecolor_strip(line_filter, strip, Color(0, 0, 0))
    assert line_filter.truecolor_style.cache_info().misses == 1
