"""The wrap index: every line's screen rows at a width, wide characters kept whole."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.cells import cell_len

from explorer.core.bodies import display as body_module
from explorer.core.bodies.display import DisplayText
from explorer.ui.widgets import wrap_index
from explorer.ui.widgets.wrap_index import (
    WORD_WRAP_LIMIT,
    WrapIndex,
    _ascii_pieces,
    _word_pieces,
    piece_at,
    piece_range,
    pieces,
)


def cells_of(line: str) -> str:
    """``line`` with one entry per terminal cell (a wide character twice)."""
    return "".join(c * cell_len(c) for c in line)


@given(st.text(alphabet="ab 界\n", max_size=300), st.integers(2, 12))
def test_rows_show_every_line_in_order_leaving_out_only_spaces_at_row_ends(
    text: str, width: int
) -> None:
    saved = body_module.BLOCK_SIZE
    body_module.BLOCK_SIZE = 16
    try:
        shown = DisplayText(text.encode())
    finally:
        body_module.BLOCK_SIZE = saved
    index = WrapIndex(shown, width)
    assert index.complete
    assert len(index) == len(shown)
    rows: dict[int, list[tuple[int, int]]] = {}
    for row in range(index.rows):
        number, piece = index.locate(row)
        line = shown.line(number)
        start, end = piece_range(line, width, piece)
        assert end - start <= width
        assert piece_at(line, width, start) == piece
        rows.setdefault(number, []).append((start, end))
    for number in range(len(shown)):
        cells = cells_of(shown.line(number))
        ranges = rows[number]
        assert ranges[0][0] == 0
        assert not cells[ranges[-1][1] :].strip(" ")  # nothing but spaces left out at the end
        for (_, end), (start, _) in itertools.pairwise(ranges):
            assert not cells[end:start].strip(" ")  # nor between rows
            # A row is cut inside a word only when the word is wider than a row.
            if end == start and cells[start - 1] != " " and cells[start] != " ":
                word = cells[:start].rsplit(" ", 1)[-1] + cells[start:].split(" ", 1)[0]
                assert len(word) > width
        assert index.locate(index.first_row(number)) == (number, 0)


def test_lines_wrap_between_words_and_cut_only_a_word_wider_than_a_row() -> None:
    def rows(line: str, width: int) -> list[str]:
        return [line[start:end] for start, end in pieces(line, width)]

    assert rows("The request body is not valid JSON: unexpected character", 20) == [
        "The request body is ",
        "not valid JSON: ",
        "unexpected character",
    ]
    assert rows("a unexpected b", 5) == ["a ", "unexp", "ected", "b"]
    # A space past the width ends its row unseen; a row never starts with it.
    assert pieces("abcd efgh", 4) == [(0, 4), (5, 9)]
    assert piece_at("abcd efgh", 4, 6) == 1


def test_a_line_longer_than_the_word_wrap_limit_is_cut_at_the_width() -> None:
    line = "word " * (WORD_WRAP_LIMIT // 5 + 1)
    assert piece_range(line, 7, 3) == (21, 28)
    assert piece_at(line, 7, 22) == 3
    assert len(pieces(line, 7)) == -(-len(line) // 7)


def test_a_wide_character_is_never_cut() -> None:
    assert pieces("ab界c", 3) == [(0, 2), (2, 5)]
    assert pieces("界界 界界界界 ab", 4) == [(0, 4), (5, 9), (9, 13), (14, 16)]
    assert pieces("", 3) == [(0, 0)]
    assert piece_range("x" * 10, 4, 2) == (8, 10)


def test_a_cancelled_index_is_incomplete() -> None:
    assert not WrapIndex(DisplayText(b"a\nb\n"), 10, lambda: True).complete


@given(st.text(alphabet="ab ", max_size=200), st.integers(1, 12))
def test_an_ascii_line_wraps_a_row_at_a_time_as_word_by_word(line: str, width: int) -> None:
    assert _ascii_pieces(line, width) == _word_pieces(line, width)


def test_a_long_line_that_is_not_ascii_is_cut_once_and_found_alike(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(wrap_index, "WORD_WRAP_LIMIT", 10)
    line = "ab界 c" * 20
    shown = DisplayText((line + "\nshort\n").encode())
    index = WrapIndex(shown, 7)
    assert list(index._cut_lines) == [0]  # cut once, when indexed
    count = len(pieces(line, 7))
    assert index.first_row(1) == count
    for piece in range(count):
        assert index.piece_range(0, line, piece) == piece_range(line, 7, piece)
    for column in range(len(line)):
        expected = piece_at(line, 7, cell_len(line[:column]))
        assert index.piece_of_column(0, line, column) == expected
    assert index.piece_range(1, "short", 0) == (0, 5)
