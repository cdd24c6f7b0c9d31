"""The wrap index: every line's screen rows at a width, wide characters kept whole."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from explorer.core import body as body_module
from explorer.core.body import DisplayText
from explorer.ui.widgets.wrap_index import WrapIndex, piece_range, pieces


@given(st.text(alphabet="ab 界\n", max_size=300), st.integers(2, 12))
def test_rows_cover_every_line_in_order(text: str, width: int) -> None:
    saved = body_module.BLOCK_SIZE
    body_module.BLOCK_SIZE = 16
    try:
        shown = DisplayText(text.encode())
    finally:
        body_module.BLOCK_SIZE = saved
    index = WrapIndex(shown, width)
    assert index.complete
    assert len(index) == len(shown)
    rebuilt: dict[int, str] = {}
    for row in range(index.rows):
        number, piece = index.locate(row)
        line = shown.line(number)
        start, end = piece_range(line, width, piece)
        assert end - start <= width
        cells = "".join(c * cell_len(c) for c in line)  # one entry per cell
        rebuilt[number] = rebuilt.get(number, "") + cells[start:end]
    for number in range(len(shown)):
        line = shown.line(number)
        assert rebuilt.get(number, "") == "".join(c * cell_len(c) for c in line)
        assert index.locate(index.first_row(number)) == (number, 0)


def test_a_wide_character_is_never_cut() -> None:
    assert pieces("ab界c", 3) == [(0, 2), (2, 5)]
    assert pieces("", 3) == [(0, 0)]
    assert piece_range("x" * 10, 4, 2) == (8, 10)


def test_a_cancelled_index_is_incomplete() -> None:
    assert not WrapIndex(DisplayText(b"a\nb\n"), 10, lambda: True).complete
