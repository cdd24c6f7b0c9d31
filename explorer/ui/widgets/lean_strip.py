"""A strip whose caches are made when first used: a line drawn is the same strip, made quicker.

Textual's :class:`~textual.strip.Strip` makes seven caches as it is made (what it was
cropped to, divided into, styled as, filtered into, ...), each a ``FIFOCache``: most
of a strip's making, and a followed page's frame makes some 90 of its own (the body's
lines, the table's, the compositor's pieces of them), most of which never use one.
:class:`LeanStrip` makes each when a method first uses it (``__getattr__`` is asked for
a cache not made yet), and is in every other way Textual's strip.

The one place restwalk leans on Textual's internals for this (``Strip``'s slots and
the sizes of its caches): pinned by the textual range in pyproject, and tested
(tests/explorer/ui/test_lean_strip.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from textual.cache import FIFOCache
from textual.strip import Strip

__all__ = ["LeanStrip"]

#: Strip's caches, and the size Textual makes each.
CACHES = {
    "_divide_cache": 4,
    "_crop_cache": 16,
    "_style_cache": 16,
    "_filter_cache": 4,
    "_line_length_cache": 4,
    "_crop_extend_cache": 4,
    "_offsets_cache": 4,
}


class LeanStrip(Strip):
    """Textual's :class:`Strip`, its caches made when first used."""

    __slots__ = ()

    def __init__(self, segments: Iterable[Segment], cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None

    def __getattr__(self, name: str) -> FIFOCache[object, object]:
        size = CACHES.get(name)
        if size is None:
            raise AttributeError(name)
        cache: FIFOCache[object, object] = FIFOCache(size)
        setattr(self, name, cache)
        return cache
