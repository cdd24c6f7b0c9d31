"""Text made to fit a width: a URL cut in its middle, a note wrapped between words and
never between a number and its unit; the wait's bar shared out in whole cells."""

from __future__ import annotations

from explorer.core.http.phases import PHASES, Phases, bar_cells
from explorer.core.text.fitting import cut_middle, split_cells, wrap_words
from explorer.core.text.terminal_text import cells


def test_a_url_that_fits_is_whole_and_a_long_one_keeps_both_ends() -> None:
    url = "http://127.0.0.1:8642/customers?page=2&size=20&sort=name"
    assert cut_middle(url, 80) == url
    cut = cut_middle(url, 24)
    assert cells(cut) == 24
    assert cut.startswith("http://127.0")
    assert cut.endswith("sort=name")
    assert "…" in cut


def test_wide_characters_count_two_cells() -> None:
    assert cells("日本") == 4
    assert cells(cut_middle("http://例え.jp/" + "日本" * 20, 20)) <= 20


def test_a_note_never_parts_a_number_from_its_unit() -> None:
    note = "from the cache: fresh for another 56 s (max-age=60)"
    for width in range(12, 60):
        lines = wrap_words(note, width)
        assert all(len(line) <= width for line in lines)
        assert " ".join(lines) == note
        assert not any(line.endswith("56") for line in lines)


def test_the_bar_is_the_whole_wait_each_phase_within_a_cell_of_its_share() -> None:
    phases = Phases(
        queue=0.0182, connect=0.0178, send=0.0013, wait=0.0103, receive=0.0039, show=0.0618
    )
    for width in (10, 34, 58, 72):
        shares = dict(bar_cells(phases, width))
        assert sum(shares.values()) == width
        assert tuple(shares) == PHASES
        for phase in PHASES:
            assert abs(shares[phase] - phases.of(phase) / phases.total * width) < 1
    assert sum(count for _, count in bar_cells(Phases(), 40)) == 0


def test_a_url_split_into_pieces_keeps_every_character_in_order() -> None:
    url = "http://api.test/customers?page=2&size=20&sort=name&fields=id,name"
    pieces = split_cells(url, 16)
    assert "".join(pieces) == url
    assert all(cells(piece) <= 16 for piece in pieces)
    assert [cells(piece) for piece in pieces[:-1]] == [16] * (len(pieces) - 1)
    wide = split_cells("日本語の", 3)  # a wide character never split, nor over the width
    assert wide == ["日", "本", "語", "の"]
    assert split_cells("", 10) == []
