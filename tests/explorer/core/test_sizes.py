"""Sizes read (``--max-body 5MB``) and shown (one style in every view: QA pass 2, 6)."""

from __future__ import annotations

import pytest

from explorer.core.text.sizes import parse_size, size_text


@pytest.mark.parametrize(
    ("size", "shown"),
    [
        (0, "0 B"),
        (999, "999 B"),
        (1000, "1 KB"),
        (1175, "1.2 KB"),
        (1800, "1.8 KB"),
        (999_949, "999.9 KB"),
        (999_999, "1 MB"),  # never "1000.0 KB"
        (100_000_000, "100 MB"),  # the composer's upload limit (it said "100.0 MB")
        (1024 * 1024, "1 MB"),
        (1_500_000_000, "1.5 GB"),
        (5_000_000_000_000, "5000 GB"),
    ],
)
def test_size_text(size: int, shown: str) -> None:
    assert size_text(size) == shown


@pytest.mark.parametrize("size", [1, 999, 1000, 1175, 123_456, 100_000_000])
def test_a_size_shown_reads_back_as_about_itself(size: int) -> None:
    assert abs(parse_size(size_text(size).replace(" ", "")) - size) <= 0.05 * size
