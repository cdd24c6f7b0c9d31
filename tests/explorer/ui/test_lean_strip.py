"""LeanStrip: Textual's strip, its caches made when first used, doing all a strip does."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual._ansi_theme import DEFAULT_TERMINAL_THEME
from textual.cache import FIFOCache
from textual.color import Color
from textual.filter import ANSIToTruecolor
from textual.strip import Strip

from explorer.ui.widgets.lean_strip import CACHES, LeanStrip


def test_its_caches_are_a_strips() -> None:
    strip = Strip([Segment("a")], 1)
    slots = set(Strip.__slots__)
    assert set(CACHES) <= slots
    made = {name for name in slots if isinstance(getattr(strip, name), FIFOCache)}
    assert made == set(CACHES)  # every cache Textual makes, and no other
    for name, size in CACHES.items():
        assert getattr(strip, name)._maxsize == size


def test_it_does_what_a_strip_does() -> None:
    red, blue = Style(color="red"), Style(bgcolor="blue")
    segments = [Segment("héllo ", red), Segment("wörld", blue), Segment("   ", None)]
    console = Console(color_system="truecolor", legacy_windows=False)
    truecolor = ANSIToTruecolor(DEFAULT_TERMINAL_THEME)
    for cell_length in (14, None):

        def both(do: Callable[[Strip], object], length: int | None = cell_length) -> None:
            assert do(LeanStrip(segments, length)) == do(Strip(segments, length))

        both(lambda strip: strip.cell_length)
        both(lambda strip: strip.text)
        both(lambda strip: strip.render(console))
        both(lambda strip: list(strip.crop(2, 9)))
        both(lambda strip: [list(piece) for piece in strip.divide([3, 8, 14])])
        both(lambda strip: list(strip.apply_style(blue)))
        both(lambda strip: list(strip.apply_filter(truecolor, Color(0, 0, 0))))
        both(lambda strip: list(strip.adjust_cell_length(20, red)))
        both(lambda strip: list(strip.crop_extend(3, 18, red)))
        both(lambda strip: list(strip.apply_offsets(1, 2)))
        # Asked twice, a cache answers: the same strip.
        lean = LeanStrip(segments, cell_length)
        assert lean.crop(2, 9) is lean.crop(2, 9)
        assert lean.divide([3, 8]) is lean.divide([3, 8])
